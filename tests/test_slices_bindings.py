"""TopBindings, the logger and the sites over slices (docs/slices.md, step 4): each slice resolves
its own references and hands back node-free rows; re-bound at the merge by the first declaration
of each name in L's scopes (Bun: the wrapper function F, its body block B), they give every call of
the resolved names the whole tree's binding, and the merged logger evidence, sites and shadowed
counts are the whole tree's, for N = 2, 3, 7 and for every single cut of the synthetic units."""

from __future__ import annotations

import pytest
from conftest import FIXTURES
from tree_sitter import Node, Parser, Tree

from analyzer.javascript import logger as logger_detection
from analyzer.javascript import slices
from analyzer.javascript.classes import heritage_names
from analyzer.javascript.extract import _find_sites
from analyzer.javascript.modules.statements import main_container
from analyzer.javascript.resolve import Resolution
from analyzer.javascript.rules import compile_rules
from analyzer.javascript.site_rows import merge_sites, tree_range, tree_sites
from analyzer.javascript.syntax import ancestors, new_parser
from analyzer.javascript.top_bindings import Bound, TopBindings, TopScopes, head_bindings, merged, top_bindings
from analyzer.rules import load_rules

RULES = compile_rules(load_rules("javascript"))

BUN = b"""// @bun @bun-cjs
(function(exports, require, module, __filename, __dirname) {
function f1(){Error("before its var");TypeError("before the let");log("a",{level:"info"});D("x",{level:"warn"})}
var Error=function(m){return m};
function f2(){return new RangeError("global")}
let TypeError=class{};
var TypeError=1;
function log(m,{level:l}={level:"debug"}){console.log(l,m)}
function f3(){log("b",{level:"warn"});log("c");require(new RangeError("to the parameter"))}
function D(){}
function f4(){D("p");D("q",{level:"error"})}
function f5(log){log("shadowed by a parameter",{level:"info"})}
if(f1){var RangeError2=1;{let log=2}}
function f6(){module("m",{level:"info"});module("n",{level:"info"})}
class K extends Error{}
})
"""
PROGRAM = b"""/* a program list: one scope */
function g1(){Error("the let below is first");N("x",{level:"info"});TypeError("global")}
let Error=class{};
var Error=2;
const N=(m,{level:l}={level:"debug"})=>l;
function g2(){N("y",{level:"warn"});N("z");new RangeError("global")}
function g3(N){N("a parameter",{level:"info"})}
if(g1){var TypeError2=1}
"""
SYNTHETIC = {"bun.js": BUN, "program.js": PROGRAM}
FILES = [*sorted(FIXTURES.glob("demo/*.js")), *sorted(FIXTURES.glob("shadowing/*.js")),
         *sorted(FIXTURES.glob("shadowing/*.mjs"))]


def _cases() -> list[tuple[str, bytes]]:
    return list(SYNTHETIC.items()) + [(p.name, p.read_bytes()) for p in FILES]


CASES = _cases()
IDS = [name for name, _ in CASES]


def hand_plan(source: bytes, cuts: list[int]) -> slices.Plan:
    """A plan cutting L before the statements at `cuts` (indexes in L), wherever they end (the
    byte plan cuts only after a `;`; the shadowing fixtures' statements end in `}`)."""
    body = main_container(new_parser().parse(source).root_node)
    statements = body.named_children
    if body.type == "program":
        braces, first, stop = None, 0, len(source)
    else:
        braces, first, stop = (body.start_byte, body.end_byte - 1), body.start_byte + 1, body.end_byte - 1
    starts = [first, *(statements[i].start_byte for i in cuts)]
    ranges = tuple(zip(starts, [*starts[1:], stop], strict=True))
    groups = [statements[a:b] for a, b in zip([0, *cuts], [*cuts, len(statements)], strict=True)]
    spans = tuple((group[0].start_byte, group[-1].end_byte) for group in groups)
    return slices.Plan("program" if braces is None else "bun-cjs-body", braces, ranges, spans, len(statements))


def even_cuts(source: bytes, count: int) -> list[int]:
    size = len(main_container(new_parser().parse(source).root_node).named_children)
    return sorted({size * part // count for part in range(1, count)} - {0})


def parsed(source: bytes, plan: slices.Plan) -> tuple[tuple[Node, ...], str, list[Tree], Tree | None]:
    """(the head chain, L's type, the slice trees, the head tree), checked against the whole tree."""
    parser: Parser = new_parser()
    head = slices.parse_head(parser, source, plan)
    trees = [slices.parse_slice(parser, source, plan, i) for i in range(len(plan.ranges))]
    whole = new_parser().parse(source)
    assert slices.check(plan, head, trees, whole.root_node.descendant_count) is None
    if head is None:
        return (), "program", trees, None
    body = main_container(head.root_node)
    return tuple(ancestors(body, head.root_node)), body.type, trees, head


def names_of(source: bytes) -> set[str]:
    whole = new_parser().parse(source)
    options = logger_detection.level_options(whole, source, RULES)
    declarations = logger_detection.default_level_declarations(whole, source, RULES)
    return (set(RULES.constructors) | set(RULES.class_roots) | {"require", "module", "log", "D", "N", "T"}
            | logger_detection.candidate_names(options, declarations, RULES))


def whole_calls(source: bytes, names: set[str]) -> list[tuple[str, int, tuple[str, int] | None]]:
    tree = new_parser().parse(source)
    resolution = Resolution(tree, source, names)
    return [(r.name, call.start_byte, r.binding.key if r.binding else None) for r, call in resolution.calls()]


def sliced_calls(source: bytes, plan: slices.Plan, names: set[str]) -> list[tuple[str, int, tuple[str, int] | None]]:
    head, list_type, trees, _ = parsed(source, plan)
    parts: list[TopBindings] = [head_bindings(head, list_type)]
    rows: list[tuple[str, int, Bound]] = []
    for tree in trees:
        scopes = TopScopes(tree.root_node, head, list_type)
        resolution = Resolution(tree, source, names)
        parts.append(top_bindings(resolution, scopes))
        rows.extend((r.name, call.start_byte, scopes.bound(r)) for r, call in resolution.calls())
    top = merged(parts)
    return [(name, start, top.rebound(name, bound)) for name, start, bound in rows]


def sliced_sites(source: bytes, plan: slices.Plan, forced: str | None) -> tuple[object, ...]:
    """The logger and sites of the slices' rows merged, each slice that lacked one of the unit's
    candidate names read again with them (as a lazy re-parse would)."""
    head, list_type, trees, _ = parsed(source, plan)
    found = [tree_sites(tree, source, RULES, forced, TopScopes(tree.root_node, head, list_type))
             for tree in trees]
    missing = logger_detection.missing_names([f.rows.logger for f in found], RULES, forced)
    for index, lacked in enumerate(missing):
        if lacked:
            found[index] = tree_sites(trees[index], source, RULES, forced,
                                      TopScopes(trees[index].root_node, head, list_type),
                                      frozenset(lacked))
    assert not any(logger_detection.missing_names([f.rows.logger for f in found], RULES, forced))
    unit = merge_sites([f.rows for f in found], head_bindings(head, list_type), source, RULES, forced)
    return unit.choice, unit.sites, dict(unit.shadowed)


def whole_sites(source: bytes, forced: str | None) -> tuple[object, ...]:
    tree = new_parser().parse(source)
    _, _, choice, sites, shadowed = _find_sites(tree, source, RULES, forced)
    return choice, [(node.start_byte, node.end_byte, kind) for node, kind in sites], dict(shadowed)


def plans(source: bytes) -> list[slices.Plan]:
    """The byte plan's for N = 2, 3, 7 when it slices the unit, and hand cuts for N = 2, 3, 7."""
    out = [made for count in (2, 3, 7) if isinstance(made := slices.plan_of(source, count), slices.Plan)]
    return out + [hand_plan(source, even_cuts(source, count)) for count in (2, 3, 7)]


@pytest.mark.parametrize(("name", "source"), CASES, ids=IDS)
def test_every_call_rebound_at_the_merge_has_the_whole_trees_binding(name: str, source: bytes) -> None:
    names = names_of(source)
    expected = whole_calls(source, names)
    assert expected
    for plan in plans(source):
        assert sorted(sliced_calls(source, plan, names)) == sorted(expected), plan.ranges


@pytest.mark.parametrize("source", [BUN, PROGRAM], ids=["bun", "program"])
def test_every_single_cut_rebinds_as_the_whole_tree(source: bytes) -> None:
    names = names_of(source)
    expected = sorted(whole_calls(source, names))
    size = len(main_container(new_parser().parse(source).root_node).named_children)
    for cut in range(1, size):
        assert sorted(sliced_calls(source, hand_plan(source, [cut]), names)) == expected, cut


def test_the_synthetic_units_hold_the_cross_slice_cases() -> None:
    names = names_of(BUN)
    calls = {(name, BUN[start:start + 40]): key for name, start, key in whole_calls(BUN, names)}
    by_text = {text.split(b"(")[1][:12]: key for (_, text), key in calls.items()}
    assert by_text[b'"before its '] == ("Error", BUN.index(b"Error=function"))  # a var declared later
    assert by_text[b'"before the '] == ("TypeError", BUN.index(b"TypeError=class"))  # B's let over F's var
    assert by_text[b'new RangeErr'] == ("require", BUN.index(b"require"))  # the wrapper's parameter
    assert by_text[b'"global")}\nl'] is None
    program = {text: key for (_, text), key in
               {(n, PROGRAM[s:s + 20]): k for n, s, k in whole_calls(PROGRAM, names_of(PROGRAM))}.items()}
    assert program[b'Error("the let below'] == ("Error", PROGRAM.index(b"Error=class"))  # the first of one scope


FORCED = [None, "T", "log", "require", "N", "Error"]


def _forced_cases() -> list[object]:
    """Every logger choice on the synthetic units and the shadowing fixtures; on the six demo
    builds (most of the test's time) the detected logger and one forced name each, in turn (every
    name on one build at least), the other four forced names of each build are `long`."""
    cases: list[object] = []
    demos = 0
    for name, source in CASES:
        if name.startswith("demo."):
            kept = {None, FORCED[1 + demos % (len(FORCED) - 1)]}
            demos += 1
        else:
            kept = set(FORCED)
        for forced in FORCED:
            marks = () if forced in kept else (pytest.mark.long,)
            cases.append(pytest.param(name, source, forced, id=f"{forced}-{name}", marks=marks))
    return cases


@pytest.mark.parametrize(("name", "source", "forced"), _forced_cases())
def test_the_logger_sites_and_shadowed_counts_merged_are_the_whole_trees(
    name: str, source: bytes, forced: str | None,
) -> None:
    expected = whole_sites(source, forced)
    for plan in plans(source):
        assert sliced_sites(source, plan, forced) == expected, plan.ranges


@pytest.mark.parametrize("source", [BUN, PROGRAM], ids=["bun", "program"])
def test_every_single_cut_merges_the_whole_trees_sites(source: bytes) -> None:
    expected = whole_sites(source, None)
    size = len(main_container(new_parser().parse(source).root_node).named_children)
    for cut in range(1, size):
        assert sliced_sites(source, hand_plan(source, [cut]), None) == expected, cut


def test_the_chosen_logger_and_its_evidence() -> None:
    choice = whole_sites(BUN, None)[0]
    assert isinstance(choice, logger_detection.LoggerChoice)
    assert choice.name == "log" and choice.binding is not None and choice.binding.kind == "function"
    assert choice.binding.offset == BUN.index(b"log(m,")
    assert [c.name for c in choice.evidence.runner_ups][:2] == ["D", "module"]


def test_a_slice_lacking_a_candidate_name_says_so() -> None:
    """`D` has one level-option call in f1 and one in f4: in a slice holding one of them it is
    no candidate of its own, so its plain call in f4 would be missed; `log` (declared before the
    cut) is called after it. Each slice must be read again with the names it lacked (a lazy
    re-parse) before the merge."""
    statements = main_container(new_parser().parse(BUN).root_node).named_children
    at = next(i for i, s in enumerate(statements) if s.text is not None and s.text.startswith(b"function f4"))
    plan = hand_plan(BUN, [at])
    head, list_type, trees, _ = parsed(BUN, plan)
    found = [tree_sites(tree, BUN, RULES, None, TopScopes(tree.root_node, head, list_type))
             for tree in trees]
    missing = logger_detection.missing_names([f.rows.logger for f in found], RULES, None)
    assert missing == [{"D", "module"}, {"D", "log"}]  # `log` and `module` are each one slice's candidates


def test_a_whole_tree_is_its_one_slice() -> None:
    """At N = 1 the head gives nothing and the tree's tops are its program or Bun's F and B."""
    tree = new_parser().parse(BUN)
    scopes = TopScopes(tree.root_node)
    resolution = Resolution(tree, BUN, {"Error", "TypeError", "require", "log"})
    top = top_bindings(resolution, scopes)
    assert head_bindings((), None) == TopBindings()
    assert set(top.function) == {"Error", "TypeError", "require"} and set(top.block) == {"TypeError", "log"}
    row = top.binding("TypeError")
    assert row is not None and row.kind == "let"  # B's over F's


@pytest.mark.parametrize(("name", "source"), CASES, ids=IDS)
def test_each_slice_reads_only_its_own_bytes_and_together_they_read_the_units(name: str, source: bytes) -> None:
    """The regex passes of a tree (level options, default-level declarations, heritages) read its
    range: a whole tree's is the unit, and the slices' findings joined are the whole tree's."""
    whole = new_parser().parse(source)
    assert tree_range(whole, source) == (0, len(source))

    def found(tree: Tree, within: tuple[int, int]) -> tuple[list[int], list[int], list[int]]:
        options = logger_detection.level_options(tree, source, RULES, within)
        declarations = logger_detection.default_level_declarations(tree, source, RULES, within)
        return ([option.call.start_byte for option in options],
                sorted(f.start_byte for functions in declarations.values() for f in functions),
                [node.start_byte for _, node in heritage_names(tree, source, within)])

    expected = found(whole, (0, len(source)))
    for plan in plans(source):
        _, _, trees, _ = parsed(source, plan)
        assert [tree_range(tree, source) for tree in trees] == list(plan.ranges)
        parts = [found(tree, tree_range(tree, source)) for tree in trees]
        for column in range(3):
            assert sorted(start for part in parts for start in part[column]) == sorted(expected[column])
