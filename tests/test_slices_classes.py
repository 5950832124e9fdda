"""Error classes over slices (docs/slices.md, stage 7): each slice hands back its heritage classes
and the references an ES5 class may extend, as node-free rows with their facts made in advance;
the merge runs `error_classes`' worklist on them and gives the whole tree's `ClassFacts`, in its
order, with the node visits of their digests, for N = 2, 3, 7 and for every single cut of the
synthetic units. A slice lacking a name of L's level the merge needs is named; an ES5 class of
L's level, whose declarations may lie in other slices, is refused."""

from __future__ import annotations

import hashlib

import pytest
from conftest import FIXTURES
from test_slices_bindings import hand_plan, parsed, plans
from test_slices_references import BUN_HEAD

from analyzer.javascript import logger as logger_detection
from analyzer.javascript import slices
from analyzer.javascript.class_rows import (
    SliceClasses,
    UnitClasses,
    Unsettled,
    heritage_words,
    slice_classes,
    unit_classes,
)
from analyzer.javascript.classes import error_classes
from analyzer.javascript.extract import _find_sites
from analyzer.javascript.modules.statements import main_container
from analyzer.javascript.rules import compile_rules
from analyzer.javascript.site_rows import tree_sites
from analyzer.javascript.syntax import new_parser
from analyzer.javascript.top_bindings import TopScopes, head_bindings
from analyzer.javascript.unit_tree import UnitTree
from analyzer.limits import WorkBudget
from analyzer.model import Unit
from analyzer.rules import load_rules

RULES = compile_rules(load_rules("javascript"))

#: one statement each: a chain over three slices (A, B, C), a class used by a slice before its
#: declaration (`X`, extended by `Y` and by the ES5 class `W` before it), ES5 classes whose base is
#: declared in another slice (`D` of `C`, `V` of the one-letter `Q`, which no heritage names),
#: classes inside functions (their chain, a parameter named `Error`), a parenthesized heritage
CLASSES = (
    "class Y extends X{constructor(){super('y');this.y=1}};"
    "var W=function(t){__extends(n,t);function n(){var e=t.call(this)||this;return e.w=1,e}return n}(X);"
    "class A extends Error{constructor(m){super(m);this.a=1}};"
    "function thrower(){throw new A('t')};"
    "class B extends A{};"
    "function nested(){class L1 extends TypeError{};class L2 extends L1{x=1};return new L2()};"
    "function shadow(Error){class S extends Error{};return S};"
    "class C extends B{constructor(){super('c');this.c=3}};"
    "class P extends (A){};"
    "var D=function(e){__extends(t,e);function t(){return e.call(this,'d')||this}return t}(C);"
    "class Q extends RangeError{};"
    "function useQ(){return new Q()};"
    "var V=function(e){__extends(t,e);function t(){return e.call(this)||this}return t}(Q);"
    "class X extends Error{};"
    "function __extends(d,b){d.prototype=Object.create(b.prototype)};"
)
#: classes that can become error classes only through a binding below L (`class_rows._Made`): a
#: class bound to a local that is no class (`Z`) and one extending it (`Z2`), an ES5 class of a
#: parameter named `Error` (`J`) and a class extending it (`N`) are never; a local class named
#: `Error`, the ES5 class of it (`K`) and a class extending that (`M`) are; a class extending a
#: local class declared after it (`F` of `G`) waits for it; a class of L's level (`T`) is made
#: whatever it extends (the merge decides); `R`, an ES5 class of `Error`, has the unit search the
#: classes no heritage names
MADE = (
    "var R=function(e){__extends(t,e);function t(){return e.call(this)||this}return t}(Error);"
    "function plain(){var X=foo();class Z extends X{};class Z2 extends Z{};return Z2};"
    "function local(){class Error extends TypeError{};"
    "var K=function(e){__extends(t,e);function t(){return e.call(this)||this}return t}(Error);"
    "class M extends K{};return M};"
    "function param(Error){var J=function(e){__extends(t,e);function t(){return e.call(this)||this}return t}(Error);"
    "class N extends J{};return N};"
    "function later(){class F extends G{};var G=class extends RangeError{};return F};"
    "class T extends Object{};"
    "function __extends(d,b){d.prototype=Object.create(b.prototype)};"
)
SYNTHETIC = {
    "classes.js": CLASSES.encode(),
    "classes.bun.js": (BUN_HEAD + CLASSES + "})\n").encode(),
    "made.js": MADE.encode(),
    "made.bun.js": (BUN_HEAD + MADE + "})\n").encode(),
}
FILES = [*sorted(FIXTURES.glob("demo/*.js")), *sorted(FIXTURES.glob("shadowing/*.js")),
         *sorted(FIXTURES.glob("es5/built/*.js")), *sorted(FIXTURES.glob("es5/src/*.js"))]
#: hand-written ES5 classes of L's level (their constructor is found among L's statements)
REFUSED = {"prototype.js"}
CASES = list(SYNTHETIC.items()) + [(path.name, path.read_bytes()) for path in FILES]
IDS = [name for name, _ in CASES]


def whole_classes(name: str, source: bytes) -> tuple[list[object], int]:
    """The whole tree's classes, and the node visits they spent."""
    tree = new_parser().parse(source)
    budget = WorkBudget(name, tree.root_node.descendant_count)
    part = UnitTree(tree, source, budget)
    resolution, heritages, _, _, _ = _find_sites(tree, source, RULES, None)
    found = error_classes(Unit(name, source, hashlib.sha256(source).hexdigest()), part, resolution, heritages, RULES)
    return list(found), budget.total - budget.left


def sliced_classes(name: str, source: bytes, plan: slices.Plan, reads: list[int] | None = None,
                   made: list[SliceClasses] | None = None) -> UnitClasses:
    """The slices' rows merged, each slice lacking a name read again with it (as the driver
    does); `reads` gets the index of every slice read again, `made` the slices' last rows."""
    head, list_type, trees, _ = parsed(source, plan)
    words = heritage_words(source)
    found = [tree_sites(tree, source, RULES, None, TopScopes(tree.root_node, head, list_type)) for tree in trees]

    def part_of(index: int, more: frozenset[str]) -> SliceClasses:
        tree = trees[index]
        return slice_classes(name, UnitTree(tree, source, head=head, list_type=list_type), found[index].heritages,
                             found[index].resolution, TopScopes(tree.root_node, head, list_type),
                             plan.ranges[index], frozenset(RULES.class_roots), words, more)

    parts = [part_of(index, frozenset()) for index in range(len(trees))]
    loggers = [f.rows.logger for f in found]
    initial = frozenset(RULES.constructors) | frozenset(RULES.class_roots) | frozenset(
        logger_detection.unit_names(loggers, RULES, None))
    for _ in range(4):
        merged = unit_classes(parts, head_bindings(head, list_type), source, plan.ranges, RULES, initial)
        if isinstance(merged, UnitClasses):
            if made is not None:
                made.extend(parts)
            return merged
        for index, lacked in merged.items():
            if reads is not None:
                reads.append(index)
            parts[index] = part_of(index, parts[index].resolved | frozenset(lacked))
    raise AssertionError("names still lacking")


def statements(source: bytes) -> int:
    return len(main_container(new_parser().parse(source).root_node).named_children)


@pytest.mark.parametrize(("name", "source"), CASES, ids=IDS)
def test_the_merged_classes_are_the_whole_trees(name: str, source: bytes) -> None:
    expected, visits = whole_classes(name, source)
    for plan in plans(source):
        if name in REFUSED:
            with pytest.raises(Unsettled, match="reads L's statements"):
                sliced_classes(name, source, plan)
            continue
        made = sliced_classes(name, source, plan)
        assert (made.facts, made.visits) == (expected, visits), plan.ranges


@pytest.mark.parametrize("name", list(SYNTHETIC))
def test_every_single_cut_merges_the_whole_trees_classes(name: str) -> None:
    source = SYNTHETIC[name]
    expected, visits = whole_classes(name, source)
    for cut in range(1, statements(source)):
        made = sliced_classes(name, source, hand_plan(source, [cut]))
        assert (made.facts, made.visits) == (expected, visits), cut


def test_the_synthetic_units_hold_the_cross_slice_cases() -> None:
    found, _ = whole_classes("classes.js", SYNTHETIC["classes.js"])
    assert [(c.name, c.parent, c.root_constructor, c.fields) for c in found] == [  # type: ignore[attr-defined]
        ("Y", "X", "Error", ("y",)), ("W", "X", "Error", ("w",)), ("A", "Error", "Error", ("a",)),
        ("B", "A", "Error", ()), ("L1", "TypeError", "TypeError", ()), ("L2", "L1", "TypeError", ("x",)),
        ("C", "B", "Error", ("c",)), ("D", "C", "Error", ()), ("Q", "RangeError", "RangeError", ()),
        ("V", "Q", "RangeError", ()), ("X", "Error", "Error", ()),
    ]


@pytest.mark.parametrize("name", ["made.js", "made.bun.js"])
def test_only_a_class_that_can_become_an_error_class_is_made(name: str) -> None:
    source = SYNTHETIC[name]
    found, _ = whole_classes(name, source)
    assert [(c.name, c.parent, c.root_constructor) for c in found] == [  # type: ignore[attr-defined]
        ("R", "Error", "Error"), ("Error", "TypeError", "TypeError"), ("K", "Error", "TypeError"),
        ("M", "K", "TypeError"), ("F", "G", "RangeError"), ("G", "RangeError", "RangeError"),
    ]
    for plan in [*plans(source), hand_plan(source, list(range(1, statements(source))))]:
        parts: list[SliceClasses] = []
        sliced_classes(name, source, plan, made=parts)
        assert sorted(row.facts.name for part in parts for row in part.classes.values()) == [
            "Error", "F", "G", "K", "M", "R", "T"], plan.ranges


def test_a_slice_holding_a_name_it_did_not_resolve_is_read_again() -> None:
    """`Q` is one letter (not in `heritage_words`) and no heritage names it: the slice calling
    `new Q()` did not resolve it, and the ES5 class `V` makes the merge search `Q`'s references."""
    source = SYNTHETIC["classes.js"]
    size = statements(source)
    plan = hand_plan(source, list(range(1, size)))  # a slice per statement
    reads: list[int] = []
    made = sliced_classes("classes.js", source, plan, reads)
    assert made.facts == whole_classes("classes.js", source)[0]
    use = next(i for i, (a, b) in enumerate(plan.ranges) if source[a:b].startswith(b"function useQ"))
    assert use in reads


def test_an_es5_class_reading_the_sliced_list_is_refused() -> None:
    """`K`'s constructor is found among L's statements, which a slice holds only some of."""
    source = b"function K(m){Error.call(this);this.k=m};var z=1;K.prototype=Object.create(Error.prototype);"
    expected, _ = whole_classes("k.js", source)
    assert [c.name for c in expected] == ["K"]  # type: ignore[attr-defined]
    for plan in plans(source):
        with pytest.raises(Unsettled, match="reads L's statements"):
            sliced_classes("k.js", source, plan)


def test_a_heritage_ladders_level_that_adds_no_bytes_of_the_name_is_passed_over() -> None:
    """A wrapped bundle's function and its statement differ by `(`, `)();`: resolving the name
    again over the statement could find nothing the function did not (`class_rows._further`)."""
    from analyzer.javascript.class_rows import _further

    source = b"(function(){var A=1;class K extends A{}})();var A=2;"
    function = (1, source.index(b"})") + 1)
    statement = (0, source.index(b";var A=2") + 1)
    program = (0, len(source))
    inner = (source.index(b"class"), source.index(b"})"))
    ladder = [inner, function, statement, program]
    assert _further(source, "A", ladder, 0) == 1  # `var A=1` lies in the function
    assert _further(source, "A", ladder, 1) == 3  # the statement adds `(` and `)();`: passed over
    assert _further(source, "A", ladder[:3], 1) is None
    assert _further(source, "B", ladder, 0) is None
