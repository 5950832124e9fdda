"""The module map's statement rows (`analyzer/javascript/modules/statement_rows.py`, docs/slices.md
stage 3): the rows of a unit's slices, joined in order, are the rows of its whole tree, and the
module map made from them (each slice's wrappers, the hoisting and the loose pieces on the joined
rows) is the whole tree's, for N = 2, 3, 7 and for every single cut of a small unit."""

from __future__ import annotations

import pytest
from conftest import FIXTURES
from test_slices import sliced
from tree_sitter import Tree

from analyzer.javascript import slices
from analyzer.javascript.modules import ModuleMap, esbuild, find_modules, slice_modules, unit_modules, webpack
from analyzer.javascript.modules.finder import Where
from analyzer.javascript.modules.patterns import Literals
from analyzer.javascript.modules.statement_rows import StatementRows, joined
from analyzer.javascript.modules.statements import StatementLists, main_container
from analyzer.javascript.syntax import ancestors, new_parser

BUN_HEAD = "// @bun @bun-cjs\n(function(exports, require, module, __filename, __dirname) {"
HELPERS = (
    "var Qz=(e,t)=>()=>(t||e((t={exports:{}}).exports,t),t.exports);"
    "var Vk=(e,t)=>()=>(e&&(t=e(e=0)),t);"
    "var Jx=(e,t)=>{for(var r in t)Object.defineProperty(e,r,{get:t[r],enumerable:!0})};"
)


def esm_modules(count: int) -> str:
    """`__esm` modules hoisting what esbuild hoists before them: a namespace object and its
    `__export` call, functions, classes, `var`s of several declarators, comments, and two
    wrappers in one `var` (the second's hoisting stops at the first's end)."""
    out = []
    for i in range(count):
        shape = i % 5
        if shape == 0:
            out.append(f"var ns{i}={{}};Jx(ns{i},{{run:()=>h{i}}});function h{i}(a){{if(!a)throw Error(\"h{i}\");"
                       f"return a}}var s{i},m{i}=Vk(()=>{{s{i}=h{i}(1)}});")
        elif shape == 1:
            out.append(f"class K{i} extends Error{{}}/* c{i} */var a{i},b{i},c{i};"
                       f"var m{i}=Vk(()=>{{a{i}=new K{i}(\"k\")}});")
        elif shape == 2:
            out.append(f"var d{i}=Qz((e,t)=>{{t.exports=1}}),m{i}=Vk(()=>{{d{i}()}});")
        elif shape == 3:
            out.append(f"let x{i}=1;Jx(y{i},{{v:()=>x{i}}});var m{i}=Vk(()=>{{x{i}=2}});")
        else:
            out.append(f"f{i}(),(()=>{{var q{i}=1,r{i}=2;g{i}()}})();var m{i}=Vk(()=>{{}});var u{i}=1,w{i}=2;")
    return "".join(out)


SYNTHETIC = {
    "bun": (BUN_HEAD + HELPERS + esm_modules(12) + "m0();})\n").encode(),
    "program": (HELPERS + esm_modules(12) + "m0();").encode(),
}
DEMOS = ["demo.min.js", "demo.cjs.min.js", "demo.bun.min.js"]


def columns(rows: StatementRows) -> tuple[object, ...]:
    return (rows.starts, rows.ends, rows.types, rows.calls, rows.names, rows.declarators, rows.expressions)


def sliced_map(
    source: bytes, plan: slices.Plan, head: Tree | None, trees: list[Tree]
) -> tuple[StatementRows, ModuleMap]:
    """The rows and the module map as a sliced extraction makes them: the helpers first, each
    slice finding those whose core it holds (docs/slices.md, stage 3b: the slices holding a
    core are read first), then each slice's part (its rows, wrappers and tables, read with the
    head chain above it), then the merge."""
    literals = Literals(source)
    chain = () if head is None else ancestors(main_container(head.root_node), head.root_node)
    lists = [StatementLists(tree.root_node, tree.root_node) for tree in trees]
    helpers = esbuild.unit_helpers([
        esbuild.find_helpers(Where(tree.root_node, source, literals, mine, span=span))
        for tree, mine, span in zip(trees, lists, plan.ranges, strict=True)
    ])
    names = webpack.table_names(literals)
    parts = [slice_modules(tree.root_node, source, literals, mine, helpers, span=span, chain=chain, table_names=names)
             for tree, mine, span in zip(trees, lists, plan.ranges, strict=True)]
    return joined([part.rows for part in parts]), unit_modules(parts, source, helpers)


def assert_as_the_whole(source: bytes, plan: slices.Plan, head: Tree | None, trees: list[Tree]) -> ModuleMap:
    tree = new_parser().parse(source)
    lists = StatementLists(tree.root_node, main_container(tree.root_node))
    whole = find_modules(tree, source)
    rows, merged = sliced_map(source, plan, head, trees)
    assert columns(rows) == columns(lists.main_rows(source))
    assert merged == whole
    assert list(merged.helpers.items()) == list(whole.helpers.items())
    return whole


def cut_at(source: bytes, ends: list[int]) -> tuple[slices.Plan, Tree | None, list[Tree]]:
    """The unit cut after each of `ends` (statement ends of L), parsed slice by slice."""
    made = slices.plan_of(source, 2)
    assert isinstance(made, slices.Plan), made
    starts = [made.ranges[0][0], *(slices._after_space(source, end) for end in ends)]
    ranges = tuple(zip(starts, [*starts[1:], made.ranges[-1][1]], strict=True))
    spans = tuple(zip([made.spans[0][0], *starts[1:]], [*ends, made.spans[-1][1]], strict=True))
    plan = slices.Plan(made.kind, made.braces, ranges, spans, made.boundaries)
    parser = new_parser()
    head = slices.parse_head(parser, source, plan)
    trees = [slices.parse_slice(parser, source, plan, index) for index in range(len(ranges))]
    assert slices.check(plan, head, trees) is None
    return plan, head, trees


@pytest.mark.parametrize("count", [2, 3, 7])
@pytest.mark.parametrize("name", DEMOS + sorted(SYNTHETIC))
def test_rows_of_the_slices_join_into_the_whole_trees_and_make_its_module_map(name: str, count: int) -> None:
    source = SYNTHETIC[name] if name in SYNTHETIC else (FIXTURES / "demo" / name).read_bytes()
    made, head, trees = sliced(source, count)
    assert len(made.ranges) == count
    assert_as_the_whole(source, made, head, trees)


@pytest.mark.parametrize("name", sorted(SYNTHETIC))
def test_every_cut_of_an_esm_unit_keeps_its_hoisted_declarations(name: str) -> None:
    source = SYNTHETIC[name]
    tree = new_parser().parse(source)
    esm = [m for m in find_modules(tree, source).modules if m.kind == "esm"]
    assert len(esm) == 12 and sum(m.start < m.body - len("Vk(") - 4 for m in esm) >= 8  # most hoist something
    opened = {source.index(b"var ns%d={}" % i) for i in range(0, 12, 5)}  # back to the namespace object
    assert opened <= {m.start for m in esm}
    made = slices.plan_of(source, 2)
    assert isinstance(made, slices.Plan)
    ends = slices.statement_ends(source).ends[slices.PROGRAM if made.braces is None else made.braces[0]]
    inside = [end for end in ends if made.spans[0][0] < end and slices._after_space(source, end) < made.spans[-1][1]]
    assert len(inside) >= 30  # the `;` ends of L: a statement ending in `}` is no cut
    for end in inside:
        assert_as_the_whole(source, *cut_at(source, [end]))


def test_two_wrappers_in_one_var_hoist_nothing_across_the_first() -> None:
    source = SYNTHETIC["bun"]
    tree = new_parser().parse(source)
    modules = find_modules(tree, source).modules
    at = source.index(b"m2=Vk(")
    second = next(m for m in modules if m.start <= at < m.end)
    assert second.start == at  # after `d2`'s module, inside the same `var`


WEBPACK5_AT_TOP = (
    b"".join(b"var a%d=%d;" % (i, i) for i in range(12))
    + b'var e={1:function(t,n,r){t.exports=r(2)},2:function(t){throw Error("two")}},o={};'
    b"function r(t){var n=o[t];if(void 0!==n)return n.exports;var s=o[t]={exports:{}};"
    b"return e[t](s,s.exports,r),s.exports}" + b"".join(b"var b%d=%d;" % (i, i) for i in range(12)) + b"r(1);"
)


def test_a_webpack_table_declared_in_the_main_list_is_read_from_its_statements() -> None:
    tree = new_parser().parse(WEBPACK5_AT_TOP)
    found = [(m.kind, m.key, m.binding) for m in find_modules(tree, WEBPACK5_AT_TOP).modules]
    assert found == [("webpack", None, "1"), ("webpack", None, "2")]
    made, _, trees = sliced(WEBPACK5_AT_TOP, 3)
    tops = [webpack.top_table(t.root_node.named_children, "e", WEBPACK5_AT_TOP) for t in trees]
    whole = webpack.top_table(tree.root_node.named_children, "e", WEBPACK5_AT_TOP)
    assert whole is not None and next(t for t in tops if t is not None) == whole  # the first slice declaring it
    assert len(made.ranges) == 3
