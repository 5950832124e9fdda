"""The callsites' facts over slices (docs/slices.md, stage 10c): each slice makes the facts of its
potential sites, with every fate a flow may have before the logger is chosen, and the node visits
each needs; merged with the slices' sites, the facts (flows and handlers caught included) and the
visits are the whole tree's, for the byte plan's and hand cuts at N = 2, 3, 7 and every single
cut of the synthetic units, or the unit falls back when a merged site is at module level."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest
from conftest import FIXTURES, run, tree_bytes
from test_slices_bindings import BUN as BINDINGS_BUN
from test_slices_bindings import PROGRAM as BINDINGS_PROGRAM
from test_slices_bindings import hand_plan, parsed, plans
from test_slices_references import BUN_HEAD
from tree_sitter import Tree

from analyzer.facts import LeftOut, SiteFacts
from analyzer.javascript import logger as logger_detection
from analyzer.javascript.classes import error_classes
from analyzer.javascript.extract import _columns, _find_sites, _site
from analyzer.javascript.modules.statements import main_container
from analyzer.javascript.rules import compile_rules
from analyzer.javascript.site_facts import MAX_FATES, UnitSiteFacts, slice_facts, unit_site_facts
from analyzer.javascript.site_rows import merge_sites, tree_sites
from analyzer.javascript.syntax import new_parser
from analyzer.javascript.top_bindings import TopScopes, head_bindings
from analyzer.javascript.unit_tree import UnitTree
from analyzer.limits import WorkBudget
from analyzer.model import Unit
from analyzer.rules import load_rules

RULES = compile_rules(load_rules("javascript"))

#: flows whose fate hangs on the logger (`L`, declared last, chosen over the runner-up `V`):
#: an error handed to it, to the runner-up, to a parameter named like it, a local handed to
#: both in either order, one caught and logged; a class whose digest the sites' function shares
FACTS = (
    'function a1(){L(Error("logged"),{level:"error"})};'
    'function a2(){V(new Error("passed to the runner-up"))};'
    'function a3(){var e=Error("first to V");V(e),L(e)};'
    'function a4(){const e=new TypeError("first to L");L(e),V(e);return 1};'
    'function a5(){try{throw new RangeError("caught")}catch(x){L(x,{level:"warn"})}};'
    'function a6(L){L(Error("to a parameter named like the logger"))};'
    'function a7(){L("x",{level:"info"});L("y",{level:"debug"});L("z",{level:"error"})};'
    'function a8(){V("v1",{level:"warn"});V("v2",{level:"warn"})};'
    'function E5(m){var e=Error(m);this.message=e.message};'
    "E5.prototype=Object.create(Error.prototype);"
    'class K extends Error{constructor(){super("k");L(Error("in a class"))}};'
    'function a9(){return new Promise(function(ok,no){no(Error("rejected"))})};'
    "function L(m,o){console.log(m,o)};"
    "function V(m){console.log(m)};"
)
#: a local handed to the logger name more times than the fates kept per flow
MANY = ('function m1(){var e=Error("many");' + ",".join(["L(e)"] * (MAX_FATES.bit_length())) + "};"
        'function m2(){L("a",{level:"info"});L("b",{level:"warn"})};function L(m,o){};')
#: module-level sites: a diagnostic, an error kept in a `var` and thrown later, Bun's `exports`
MODULE_LEVEL = 'L("start",{level:"info"});var e0=Error("kept");function L(m,o){};L("b",{level:"warn"});throw e0;'
SYNTHETIC = {
    "facts.js": FACTS.encode(),
    "facts.bun.js": (BUN_HEAD + FACTS + "})\n").encode(),
    "bindings.bun.js": BINDINGS_BUN,
    "bindings.program.js": BINDINGS_PROGRAM,
    "module-level.js": MODULE_LEVEL.encode(),
    "module-level.bun.js": (BUN_HEAD + MODULE_LEVEL.replace("throw e0;", 'exports(Error("x"));') + "})\n").encode(),
}
FILES = [*sorted(FIXTURES.glob("demo/*.js")), *sorted(FIXTURES.glob("shadowing/*.js")),
         *sorted(FIXTURES.glob("shadowing/*.mjs"))]
CASES = list(SYNTHETIC.items()) + [(p.name, p.read_bytes()) for p in FILES]
IDS = [name for name, _ in CASES]


def _unit(name: str, source: bytes) -> Unit:
    return Unit(name, source, hashlib.sha256(source).hexdigest())


def whole_facts(name: str, source: bytes) -> tuple[list[SiteFacts | LeftOut], dict[int, int], int, bool]:
    """The whole tree's facts, the handlers catching them, their node visits after the error
    classes' (as `_whole_tree` and `_Tasks` make them), and whether a site is at module level."""
    tree = new_parser().parse(source)
    budget = WorkBudget(name, tree.root_node.descendant_count)
    part = UnitTree(tree, source, budget)
    resolution, heritages, _, sites, _ = _find_sites(tree, source, RULES, None)
    error_classes(_unit(name, source), part, resolution, heritages, RULES)
    columns = _columns(source, [node.start_byte for node, _ in sites])
    diagnostics = frozenset(node.start_byte for node, kind in sites if kind == "diagnostic")
    before = budget.left
    facts: list[SiteFacts | LeftOut] = []
    caught: dict[int, int] = {}
    for node, kind in sites:
        fact = _site(_unit(name, source), part, node, kind, RULES, columns[node.start_byte], diagnostics)
        facts.append(fact)
        if fact.flow is not None and fact.flow.handler is not None:
            caught[node.start_byte] = fact.flow.handler
    body = main_container(tree.root_node)
    module_level = any(f.function_offset is None or f.function_offset < body.start_byte for f in facts
                       if isinstance(f, SiteFacts))
    return facts, caught, before - budget.left, module_level


def sliced_facts(name: str, source: bytes, plan) -> tuple[UnitSiteFacts | str, frozenset[tuple[int, int]]]:  # type: ignore[no-untyped-def]
    """The slices' facts merged with their sites (a slice lacking a candidate read again), and
    the ranges of the unit's error classes (what the whole tree digests before the sites)."""
    head, list_type, trees, _ = parsed(source, plan)

    def found_in(tree: Tree, more: frozenset[str] = frozenset()):  # type: ignore[no-untyped-def]
        return tree_sites(tree, source, RULES, None, TopScopes(tree.root_node, head, list_type), more)

    found = [found_in(tree) for tree in trees]
    missing = logger_detection.missing_names([f.rows.logger for f in found], RULES, None)
    found = [found_in(tree, frozenset(lacked)) if lacked else f for tree, f, lacked in zip(trees, found, missing)]
    parts = [slice_facts(name, source, tree, f, RULES, head, list_type) for tree, f in zip(trees, found)]
    sites = merge_sites([f.rows for f in found], head_bindings(head, list_type), source, RULES, None)
    whole = new_parser().parse(source)
    part = UnitTree(whole, source)
    resolution, heritages, *_ = _find_sites(whole, source, RULES, None)
    classes = error_classes(_unit(name, source), part, resolution, heritages, RULES)
    return unit_site_facts(parts, sites), frozenset((c.offset, c.end_offset) for c in classes)


def _check(name: str, source: bytes, plan) -> None:  # type: ignore[no-untyped-def]
    facts, caught, spent, module_level = whole_facts(name, source)
    merged, classes = sliced_facts(name, source, plan)
    if module_level:
        assert isinstance(merged, str) and merged.startswith("a callsite at module level"), plan.ranges
        return
    assert isinstance(merged, UnitSiteFacts), merged
    assert merged.facts == facts, plan.ranges
    assert merged.caught == caught
    assert merged.spent(classes) == spent
    assert merged.spent() >= spent


@pytest.mark.parametrize(("name", "source"), CASES, ids=IDS)
def test_the_slices_facts_merged_are_the_whole_trees(name: str, source: bytes) -> None:
    for plan in plans(source):
        _check(name, source, plan)


@pytest.mark.parametrize("name", ["facts.js", "facts.bun.js"])
def test_every_single_cut_merges_the_whole_trees_facts(name: str) -> None:
    source = SYNTHETIC[name]
    size = len(main_container(new_parser().parse(source).root_node).named_children)
    for cut in range(1, size):
        _check(name, source, hand_plan(source, [cut]))


def test_the_flows_hang_on_the_logger_chosen_at_the_merge() -> None:
    """`L`'s calls are the diagnostics: an error handed to it is `logged`, to `V` or to a
    parameter named `L` `passed`, a local the first use's; the slices made both fates where
    the consuming call was a potential logger call, and the class function's digest was paid
    by the classes, not the sites."""
    source = SYNTHETIC["facts.js"]
    facts = whole_facts("facts.js", source)[0]
    fates = {source[f.offset:f.offset + 16]: f.flow.fate for f in facts if isinstance(f, SiteFacts) and f.flow}
    assert fates == {b'Error("logged"),': "logged", b'new Error("passe': "passed", b'Error("first to ': "passed",
                     b'new TypeError("f': "logged", b'new RangeError("': "thrown", b'Error("to a para': "passed",
                     b"Error(m);this.me": None, b'Error("in a clas': "logged", b'Error("rejected"': "rejected"}
    merged, classes = sliced_facts("facts.js", source, hand_plan(source, [8, 18]))
    assert isinstance(merged, UnitSiteFacts)
    assert merged.spent() > merged.spent(classes)  # E5's function is an ES5 class, digested first
    head, list_type, trees, _ = parsed(source, hand_plan(source, [8, 18]))
    found = tree_sites(trees[0], source, RULES, None, TopScopes(trees[0].root_node, head, list_type),
                       frozenset({"L", "V"}))
    rows = slice_facts("facts.js", source, trees[0], found, RULES, head, list_type).rows
    assert [len(row.fates) for row in rows if row.kind == "error"] == [2, 2, 4, 4]  # a3, a4: 2 calls


@pytest.mark.parametrize("name", ["module-level.js", "module-level.bun.js"])
def test_a_site_at_module_level_reads_the_unit_whole(name: str) -> None:
    source = SYNTHETIC[name]
    assert whole_facts(name, source)[3]
    for plan in plans(source):
        merged, _ = sliced_facts(name, source, plan)
        assert isinstance(merged, str) and merged.startswith("a callsite at module level: its facts read L")


def test_a_flow_with_too_many_fates_reads_the_unit_whole() -> None:
    source = MANY.encode()
    for plan in [hand_plan(source, [1]), hand_plan(source, [2])]:
        merged, _ = sliced_facts("many.js", source, plan)
        assert isinstance(merged, str) and merged.startswith(f"a flow that hangs on more than {MAX_FATES} fates")


#: Bun's wrapper holding a logger candidate with a default level (`o = {level: ...}`) called at
#: L's level: its speculated site's function is the wrapper, a head node, whose names (L emptied)
#: must not stand for the names of the nodes inside it (found by a fuzz of the sliced read)
WRAPPED_CANDIDATE = (
    BUN_HEAD + "function f(a){ if (!a) throw new Error('f failed: ' + a); return a; };"
    "function N(m, o = {level: 'debug'}) { V.push(m); };"
    "try { done(); } catch (e) { N(e); };"
    + "".join(f"var q{at} = [{','.join('0123456789' * 45)}];" + (
        "function k(b){ try { b(); } catch (e) { console.error(e); } };" if at == 1 else "") for at in range(1, 6))
    + "})"
)


def test_a_head_nodes_names_leave_the_names_inside_it_alone(tmp_path: Path) -> None:
    """Read in 2 and in 3 slices, against one whole scan (the same bytes for both)."""
    bundle = tmp_path / "wrapped.js"
    bundle.write_text(WRAPPED_CANDIDATE)
    trace = {**os.environ, "ERRATLAS_TRACE": "1"}
    done = run("scan", bundle, "--out", tmp_path / "whole", "--jobs", 1, env=trace)
    assert done.returncode == 0, done.stderr
    whole = tree_bytes(tmp_path / "whole")
    for count in (2, 3):
        sliced = tmp_path / f"sliced-{count}"
        done = run("scan", bundle, "--out", sliced, "--jobs", 1, "--slices", count, env=trace)
        assert done.returncode == 0, done.stderr
        assert "merged from slices" in done.stderr and "the whole tree" not in done.stderr, count
        assert tree_bytes(sliced) == whole, count
