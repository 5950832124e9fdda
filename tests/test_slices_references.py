"""The reference graph over slices (docs/slices.md, "Step 5 as built"): each slice tree listed
on its own root (`references.listing` with its range and the unit's names), its words pass and
the digests of its items made while it is alive, the node-free summaries merged
(`references.unit_references`) give exactly the whole tree's `UnitReferences`: items, references,
`walked`, `shadowed`, digests, helpers; for N = 2, 3, 7 slices and for every cut of small units."""

from __future__ import annotations

import dataclasses
import hashlib
import os
from collections.abc import Iterator
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from conftest import FIXTURES, run, tree_bytes
from test_module_rows import SYNTHETIC as ESM_UNITS
from test_slices_modules import UNITS as MODULE_UNITS
from tree_sitter import Tree

from analyzer.javascript import occurrences, sliced, slices
from analyzer.javascript.extract import _find_sites, _root_candidates, _Tasks
from analyzer.javascript.modules import ModuleMap, find_modules
from analyzer.javascript.reference_merge import SliceReferences, slice_references, unit_references, unsearched
from analyzer.javascript.references import UnitReferences, _top_list, binding_digests, chunk_references, listing
from analyzer.javascript.rules import compile_rules
from analyzer.javascript.sliced import SlicedHalves
from analyzer.javascript.syntax import new_parser
from analyzer.javascript.unit_tree import UnitTree
from analyzer.model import Unit
from analyzer.parallel.executor import Inline
from analyzer.rules import load_rules

RULES = compile_rules(load_rules("javascript"))
BUN_HEAD = "// @bun @bun-cjs\n(function(exports, require, module, __filename, __dirname) {"

#: forward references across any cut: hoisted functions and classes used before their
#: declaration, `var`s assigned later, a local shadowing a top-level name, a runtime helper
FORWARD = (
    "var a=b(1),c=new K(\"x\");"
    "function use(){return d+e1+later}"
    "var f=function(){return g()};"
    "var [p1,{q1,r1:s1=t1}]=[1,{}];"
    "var u=(s,v)=>{if(typeof v!=\"object\")throw TypeError('Object expected to be assigned to \"using\" declaration');"
    "return v};"
    "if(a){var later=1}"
    "function b(x){var d=1;return x+d+p1}"
    "class K extends Error{constructor(m){super(m);this.c=c}}"
    "var d=2,e1=3;"
    "function g(){let b=1;for(let q1 of[b])try{s1(q1)}catch(K){return K}return u(b,{})}"
    "a(),g(),use();"
)
#: esbuild's lazy `var`s: declared empty, assigned in an `__esm` body, read in earlier code
LAZY = (
    "var Vk=(e,t)=>()=>(e&&(t=e(e=0)),t);"
    "function early(){init_b();return x2+y1}"
    "var x1,y1;var init_a=Vk(()=>{x1=mk(1);y1=new Q1()});"
    "function mk(n){if(!n)throw new Error(\"n\");return{n,y:y1}}"
    "var x2;var init_b=Vk(()=>{init_a();x2=x1});"
    "class Q1 extends Error{constructor(){super(\"q\")}}"
    "early();"
)
IIFE = (
    "/* banner */\n(function(){\"use strict\";"
    "var p=q(1);"
    "function q(x){return r.s+x};"
    "var r={s:1},t=function(q){return q+p};"
    "try{q()}catch(p){p.r=r};"
    "var w=new Error(\"w\"),z=t(w);"
    "})();\n"
)
SYNTHETIC = {
    "forward.js": FORWARD.encode(),
    "forward.bun.js": (BUN_HEAD + FORWARD + "})\n").encode(),
    "lazy.js": LAZY.encode(),
    "lazy.bun.js": (BUN_HEAD + LAZY + "})\n").encode(),
    "iife.js": IIFE.encode(),
    **{f"esm.{name}.js": source for name, source in ESM_UNITS.items()},
}
DEMOS = ["demo.min.js", "demo.cjs.min.js", "demo.bun.min.js"]
SHADOWING = sorted(p.name for p in (FIXTURES / "shadowing").glob("*.*js"))


def _source(name: str) -> bytes:
    if name in SYNTHETIC:
        return SYNTHETIC[name]
    folder = "demo" if name in DEMOS else "shadowing"
    return (FIXTURES / folder / name).read_bytes()


def whole_references(source: bytes) -> tuple[UnitReferences, ModuleMap, list[int], list[int]]:
    """The whole tree's graph as `extract_unit` makes it (its `_Tasks` on one tree), the module
    map, the roots' positions and the chunks' walk counts."""
    tree = new_parser().parse(source)
    part = UnitTree(tree, source)
    modules = find_modules(tree, source, part.statement_lists())
    _, _, choice, sites, _ = _find_sites(tree, source, RULES, None)
    items = listing(tree, source, modules)
    roots = _root_candidates(items.raw, [node.start_byte for node, _ in sites], choice)
    unit = Unit("unit.js", source, hashlib.sha256(source).hexdigest())
    work = _Tasks(unit, part, RULES, items, sites, roots)
    done = Inline().map(work.run, work.count)
    walks = [done[chunk][1] for chunk in range(len(items.chunks))]  # type: ignore[index]
    return work.gather(done)[0], modules, roots, walks


def statement_plan(source: bytes, count: int) -> tuple[slices.Plan, Tree | None]:
    """A plan cutting the references' top list before `count - 1` of its statements spread
    evenly, each right after a `;` as the plan's cuts are (after a `}`, a comment that follows
    would be read into the statement: `class K{}/* c */` at a slice's end). An IIFE's body is
    cut as a program would be: its slices are programs of its statements, nothing above read."""
    whole = new_parser().parse(source)
    top = _top_list(whole.root_node)
    statements = list(top.named_children)
    if top.type == "program":
        braces, inside = None, (0, len(source))
    else:
        braces, inside = (top.start_byte, top.end_byte - 1), (top.start_byte + 1, top.end_byte - 1)
    allowed = [k for k in range(1, len(statements)) if source[statements[k - 1].end_byte - 1] == ord(";")]
    count = min(count, len(allowed) + 1)
    firsts = [0, *sorted({allowed[len(allowed) * part // count] for part in range(1, count)})]
    starts = [inside[0], *(statements[first].start_byte for first in firsts[1:])]
    ranges = tuple(zip(starts, [*starts[1:], inside[1]], strict=True))
    lasts = [*(first - 1 for first in firsts[1:]), len(statements) - 1]
    spans = tuple((statements[first].start_byte, statements[last].end_byte)
                  for first, last in zip(firsts, lasts, strict=True))
    bun = source.startswith(b"// @bun")
    plan = slices.Plan("bun-cjs-body" if bun else "program", braces if bun else None, ranges, spans, len(allowed))
    head = slices.parse_head(new_parser(), source, plan)
    return plan, head


def slice_trees(source: bytes, plan: slices.Plan, head: Tree | None) -> list[Tree]:
    parser = new_parser()
    trees = [slices.parse_slice(parser, source, plan, index) for index in range(len(plan.ranges))]
    assert slices.check(plan, head, trees) is None
    return trees


def per_slice(
    source: bytes, plan: slices.Plan, trees: list[Tree], modules: ModuleMap, names: frozenset[bytes],
    wanted: list[int] | None = None,
) -> Iterator[SliceReferences]:
    """Each slice's summary, made while its tree is alive: its listing on its root and range,
    its words pass chunk by chunk, the digests of its declaring items (all of them, a superset
    of the roots, unless `wanted` gives the unit's roots as merged positions)."""
    base = 0
    for index, tree in enumerate(trees):
        part = UnitTree(tree, source, list_type="program")
        items = listing(tree, source, modules, span=plan.ranges[index], names=names)
        chunks = [chunk_references(items, chunk, source, tree.root_node) for chunk in range(len(items.chunks))]
        if wanted is None:
            mine = [position for position, item in enumerate(items.raw) if item[3]]
        else:
            mine = [position - base for position in wanted if base <= position < base + len(items.raw)]
        digests = binding_digests(tree, part.normalizer, items.raw, mine)
        base += len(items.raw)
        yield slice_references(items, chunks, digests)


def assert_as_the_whole(source: bytes, plan: slices.Plan, trees: list[Tree]) -> list[SliceReferences]:
    whole, modules, roots, walks = whole_references(source)
    assert whole.walked == sum(walks)  # one walk per `shadowed` pair
    names = frozenset(name.encode("utf-8", "surrogateescape") for item in whole.items for name in item.declares)
    parts = list(per_slice(source, plan, trees, modules, names))
    merged = unit_references(parts, roots)
    assert merged == whole
    # the roots found on the merged items are the whole tree's
    _, _, choice, sites, _ = _find_sites(new_parser().parse(source), source, RULES, None)
    rows = [(item.offset, item.end_offset, None, item.declares) for item in merged.items]
    assert _root_candidates(rows, [node.start_byte for node, _ in sites], choice) == roots
    # each slice digesting only the unit's roots: nothing to drop
    assert unit_references(list(per_slice(source, plan, trees, modules, names, roots))) == whole
    return parts


@pytest.mark.parametrize("count", [2, 3, 7])
@pytest.mark.parametrize("name", [*DEMOS, "shadowing.js"])
def test_the_plans_slices_give_the_whole_trees_graph(name: str, count: int) -> None:
    source = _source(name)
    plan = slices.plan(source, count)
    assert plan is not None and len(plan.ranges) >= min(count, 6)
    parts = assert_as_the_whole(source, plan, slice_trees(source, plan, slices.parse_head(new_parser(), source, plan)))
    assert all(part.items for part in parts)


@pytest.mark.parametrize("count", [2, 3, 7])
@pytest.mark.parametrize("name", sorted(SYNTHETIC) + SHADOWING + DEMOS)
def test_slices_cut_before_any_statement_give_the_whole_trees_graph(name: str, count: int) -> None:
    source = _source(name)
    plan, head = statement_plan(source, count)
    assert len(plan.ranges) == min(count, plan.boundaries + 1)
    assert_as_the_whole(source, plan, slice_trees(source, plan, head))


@pytest.mark.parametrize("name", [*sorted(SYNTHETIC), "shadowing-esm.mjs", "bun-wrapper.js"])
def test_every_cut_of_a_small_unit(name: str) -> None:
    source = _source(name)
    plan, head = statement_plan(source, 10_000)  # a slice per statement
    assert len(plan.ranges) >= 4
    assert_as_the_whole(source, plan, slice_trees(source, plan, head))


def test_forward_references_cross_the_cuts() -> None:
    """The synthetic units' items reference names declared in later slices: the words pass
    must be given the unit's names, not the slice's own."""
    source = SYNTHETIC["forward.bun.js"]
    plan, head = statement_plan(source, 100)
    whole, modules, _, _ = whole_references(source)
    by_offset = {item.offset: item for item in whole.items}
    assert "b" in by_offset[source.index(b"a=b(1)")].references
    assert {"d", "e1"} <= set(by_offset[source.index(b"function use")].references)
    assert "b" not in by_offset[source.index(b"function g")].references  # its own `let b`
    assert tuple(sorted(whole.helpers)) == ("u",)  # the runtime helper, found in its slice's bytes
    trees = slice_trees(source, plan, head)
    own = [listing(tree, source, modules, span=plan.ranges[i]).declares for i, tree in enumerate(trees)]
    alone = [slice_references(items, [chunk_references(items, c, source, tree.root_node)
                                      for c in range(len(items.chunks))], {})
             for tree, span, names in zip(trees, plan.ranges, own, strict=True)
             for items in [listing(tree, source, modules, span=span, names=names)]]
    missing = unsearched(alone)
    assert missing and b"b" in missing[0]
    with pytest.raises(ValueError, match="did not look for names"):
        unit_references(alone)


@pytest.mark.parametrize("name", ["forward.js", "lazy.bun.js", "demo.bun.min.js", "shadowing.js"])
def test_a_superset_of_the_names_gives_the_same_graph(name: str) -> None:
    """Names no item declares (parameters, globals, words of strings) looked for too: found,
    walked and then dropped by the merge."""
    source = _source(name)
    plan, head = statement_plan(source, 3)
    trees = slice_trees(source, plan, head)
    whole, modules, roots, _ = whole_references(source)
    names = frozenset(name.encode() for item in whole.items for name in item.declares)
    extra = frozenset({b"e", b"t", b"r", b"n", b"x", b"Error", b"Object", b"console", b"exports", b"require",
                       b"object", b"use", b"strict", b"undefined_here"})
    parts = list(per_slice(source, plan, trees, modules, names | extra))
    assert any(set(item.references) & {"e", "t", "Error", "Object", "x", "n"} for part in parts for item in part.items)
    assert unit_references(parts, roots) == whole


def test_a_slices_words_pass_reads_only_its_range(monkeypatch: pytest.MonkeyPatch) -> None:
    source = _source("demo.bun.min.js")
    plan = slices.plan(source, 4)
    assert plan is not None
    trees = slice_trees(source, plan, slices.parse_head(new_parser(), source, plan))
    _, modules, _, _ = whole_references(source)
    read: list[tuple[int, int]] = []
    words_ranges = occurrences._Words.ranges

    def recorded(self: occurrences._Words, bounds: list[int]) -> list[dict[bytes, list[int]]]:
        read.extend(pairwise(bounds))
        return words_ranges(self, bounds)

    monkeypatch.setattr(occurrences._Words, "ranges", recorded)
    names = listing(new_parser().parse(source), source, modules).names
    for index, tree in enumerate(trees):
        read.clear()
        items = listing(tree, source, modules, span=plan.ranges[index], names=names)
        for chunk in range(len(items.chunks)):
            chunk_references(items, chunk, source, tree.root_node)
        first, last = plan.ranges[index]
        assert read and all(first <= start <= end <= last for start, end in read)
        assert sum(end - start for start, end in read) == last - first  # items and gaps, each once


# ---- the driver (docs/slices.md, "Steps 3, 9 and 10: the driver as built") ------------------


def scanned(bundle: Path, out: Path, *extra: object) -> tuple[dict[str, bytes], str]:
    """Every output file of a one-job scan, and the trace."""
    done = run("scan", bundle, "--out", out, "--jobs", 1, *extra, env={**os.environ, "ERRATLAS_TRACE": "1"})
    assert done.returncode == 0, done.stderr
    return tree_bytes(out), done.stderr


class _NoFacts:
    facts: tuple[object, ...] = ()
    digested: frozenset[object] = frozenset()

    def spent(self, classes: object = None) -> int:
        return 0


class _NoHandling:
    visits = 0


class _NoHandlers:
    def __init__(self) -> None:
        self.inexact = None
        self.blocks: list[object] = []
        self.handlers: list[object] = []


def driven(source: bytes, plan: slices.Plan, monkeypatch: pytest.MonkeyPatch) -> SlicedHalves | str:
    """`sliced.sliced_halves` on the unit cut by `plan`, the graph alone: the sites' facts and
    the handlers, which refuse module-level callsites and handlers (step 8), are not made
    (tests/test_slices_facts.py, tests/test_slices_handlers.py)."""
    monkeypatch.setattr(sliced.slices, "plan_of", lambda source, count, scanned=None: plan)
    monkeypatch.setattr(sliced, "unit_site_facts", lambda facts, merged: _NoFacts())
    monkeypatch.setattr(sliced, "slice_handlers", lambda *given: _NoHandlers())
    monkeypatch.setattr(sliced, "unit_handling", lambda *given: _NoHandling())
    return sliced.sliced_halves("unit.js", source, len(plan.ranges), RULES, None)


def assert_driven_as_the_whole(source: bytes, plan: slices.Plan, monkeypatch: pytest.MonkeyPatch) -> None:
    made = driven(source, plan, monkeypatch)
    assert isinstance(made, SlicedHalves), made
    whole, modules, _, _ = whole_references(source)
    assert made.references.references == whole
    raw = listing(new_parser().parse(source), source, modules).raw
    assert made.references.rows == [(start, end, None, declared) for start, end, _, declared in raw]


#: the units whose items hold several modules: a webpack table declared in L, wrappers in an
#: IIFE's body (lists below L), each split into its modules by the slice holding it
SPLIT = {"webpack5-table": MODULE_UNITS["webpack5-table"], "iife-list": MODULE_UNITS["iife-list"],
         "bun-webpack5-table": MODULE_UNITS["bun-webpack5-table"]}


@pytest.mark.parametrize("count", [2, 3, 7])
@pytest.mark.parametrize("name", [*sorted(SYNTHETIC), *SHADOWING, *DEMOS, *sorted(SPLIT)])
def test_the_driver_gives_the_whole_trees_graph_and_items(
    name: str, count: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each slice lists its items with the modules its own part of the map finds inside them
    (`references.speculated_modules`), looks for the byte superset of the names L declares and
    digests its speculated roots; the merge is the whole tree's graph, with its items' rows."""
    source = SPLIT.get(name) or _source(name)
    plan, _ = statement_plan(source, count)
    assert_driven_as_the_whole(source, plan, monkeypatch)


@pytest.mark.parametrize("name", sorted(SPLIT))
def test_every_cut_of_the_units_whose_items_hold_modules(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    source = SPLIT[name]
    tree = new_parser().parse(source)
    modules = find_modules(tree, source)
    items = listing(tree, source, modules).raw
    assert sum(1 for start, end, _, _ in items if (start, end) in {(m.start, m.end) for m in modules.modules}) >= 2
    whole = new_parser().parse(source)
    statements = len(_top_list(whole.root_node).named_children)
    for cuts in range(2, statements + 2, max(1, statements // 12)):
        plan, _ = statement_plan(source, cuts)
        assert_driven_as_the_whole(source, plan, monkeypatch)


def test_a_slice_lacking_a_name_is_read_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """A name L declares missing from the byte superset: every slice lacking it is read again
    with it (`references.unsearched`); with no superset at all, the unit is read whole."""
    source = SYNTHETIC["forward.bun.js"]
    plan, _ = statement_plan(source, 5)
    found = sliced.scanned_then_supersets

    def fewer(*args: Any) -> tuple[Any, Any]:
        scanned, later = found(*args)
        return scanned, lambda: dataclasses.replace(later(), names=later().names - {b"b", b"later"})

    marks: list[str] = []
    monkeypatch.setattr(sliced, "mark", marks.append)
    monkeypatch.setattr(sliced, "scanned_then_supersets", fewer)
    assert_driven_as_the_whole(source, plan, monkeypatch)
    again = [mark for mark in marks if "read again for the reference graph" in mark]
    assert len(again) == len(plan.ranges)  # each slice lacked `b` or `later`
    # the sources' rows need them
    monkeypatch.setattr(sliced, "scanned_then_supersets", lambda *args: (found(*args)[0], lambda: None))
    assert driven(source, plan, monkeypatch) == "no byte supersets: the scanner is unsure"


def test_a_root_the_slice_did_not_digest_is_read_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """The roots are decided by the merged sites and logger: a slice that did not speculate
    one (here: none at all) is read again for its digests."""
    source = _source("demo.bun.min.js")
    plan = slices.plan(source, 3)
    assert plan is not None
    marks: list[str] = []
    monkeypatch.setattr(sliced, "mark", marks.append)
    monkeypatch.setattr(sliced, "_potential_roots", lambda part: [])
    assert_driven_as_the_whole(source, plan, monkeypatch)
    assert any("read again for the reference graph (0 names" in mark for mark in marks)


def test_a_slice_whose_items_differ_when_read_again_reads_the_unit_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    source = _source("demo.bun.min.js")
    plan = slices.plan(source, 3)
    assert plan is not None
    monkeypatch.setattr(sliced, "_potential_roots", lambda part: [])
    made_by, calls = sliced.slice_part, []

    def another(*args: object) -> tuple[object, sliced.SlicePart]:
        items, part = made_by(*args)  # type: ignore[arg-type]
        calls.append(part)
        return items, part if len(calls) <= len(plan.ranges) else dataclasses.replace(part, rows=part.rows[1:])

    monkeypatch.setattr(sliced, "slice_part", another)
    made = driven(source, plan, monkeypatch)
    assert isinstance(made, str) and made.startswith("the check failed: slice 0's items differ"), made


#: a second module table named as the runtime's: the whole tree (and the merge) take the first
#: one declared, the slice holding only the second would split it into its modules
TWICE = (MODULE_UNITS["webpack5-table"]
         + b'var e={3:function(t){t.exports=3},4:function(t){t.exports=4}};'
         + b"".join(b"var c%d=%d;" % (i, i) for i in range(12)))
#: L holds one statement, an IIFE, and directives: a whole tree lists the IIFE's body
IIFE_ALONE = ("".join(f'"directive {i} of this unit";' for i in range(40))
              + '(function(){var a=1;function b(){return a+c}var c=new Error("c");b()})();').encode()


@pytest.mark.parametrize(("source", "reason"), [
    (TWICE, "the modules inside an item: slice"),
    (IIFE_ALONE, "the reference graph's list: L's one statement is an IIFE"),
])
def test_items_a_slice_cannot_list_as_the_whole_tree_read_the_unit_whole(
    source: bytes, reason: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    plan = slices.plan(source, 3)
    assert plan is not None
    made = driven(source, plan, monkeypatch)
    assert isinstance(made, str) and made.startswith(reason), made
    monkeypatch.undo()
    bundle = tmp_path / "unit.js"
    bundle.write_bytes(source)
    whole, _ = scanned(bundle, tmp_path / "whole")
    outputs, trace = scanned(bundle, tmp_path / "sliced", "--slices", 3)
    assert outputs == whole
    assert f"the whole tree: {reason}" in trace


