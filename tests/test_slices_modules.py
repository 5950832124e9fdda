"""The module map over slices (docs/slices.md, "Step 6 as built"): each slice's tree gives its
node-free part (`modules.slice_modules`), the helpers found first in the slices holding their
cores, and the merge (`modules.unit_modules`) gives the whole tree's map: modules (spans, kinds,
keys, bindings, digests, evidence), loose pieces and helpers. Cuts are made by hand between any
two statements of L, so that the bundles the plan does not cut (webpack, browserify, terser)
are cut too."""

from __future__ import annotations

import pytest
from conftest import FIXTURES
from test_module_rows import BUN_HEAD, HELPERS, SYNTHETIC, WEBPACK5_AT_TOP, esm_modules, sliced_map
from tree_sitter import Node, Tree

from analyzer.javascript import slices
from analyzer.javascript.modules import ModuleMap, find_modules, main_container, modules_within
from analyzer.javascript.references import listing
from analyzer.javascript.syntax import new_parser


def statements_of(source: bytes) -> tuple[slices.Plan, list[Node], Tree]:
    """L's statements in the whole tree, and a one-slice plan of L (its kind, braces, range)."""
    tree = new_parser().parse(source)
    body = main_container(tree.root_node)
    if body.type == "program":
        braces, inside = None, (0, len(source))
        statements = list(body.children)
    else:
        braces, inside = (body.start_byte, body.end_byte - 1), (body.start_byte + 1, body.end_byte - 1)
        statements = list(body.children[1:-1])
    kind: slices.ListKind = "program" if braces is None else "bun-cjs-body"
    one = slices.Plan(kind, braces, (inside,), ((statements[0].start_byte, statements[-1].end_byte),), 0)
    return one, statements, tree


def cut_before(source: bytes, indexes: list[int]) -> tuple[slices.Plan, Tree | None, list[Tree]]:
    """L cut before each of its statements `indexes` (any statement, not only after a `;`, but
    never right after a comment: a slice's trailing comment would be parsed into its last
    statement; the plan's cuts follow a `;`), each slice parsed alone, checked against the
    whole tree's node count."""
    one, statements, tree = statements_of(source)
    indexes = [i for i in indexes if statements[i - 1].type != "comment"]
    inside = one.ranges[0]
    starts = [inside[0], *(statements[i].start_byte for i in indexes)]
    ranges = tuple(zip(starts, [*starts[1:], inside[1]], strict=True))
    firsts = [0, *indexes]
    lasts = [*(i - 1 for i in indexes), len(statements) - 1]
    spans = tuple((statements[a].start_byte, statements[b].end_byte) for a, b in zip(firsts, lasts, strict=True))
    plan = slices.Plan(one.kind, one.braces, ranges, spans, len(statements))
    parser = new_parser()
    head = slices.parse_head(parser, source, plan)
    trees = [slices.parse_slice(parser, source, plan, index) for index in range(len(ranges))]
    assert slices.check(plan, head, trees, tree.root_node.descendant_count) is None
    return plan, head, trees


def spread(total: int, count: int) -> list[int]:
    """`count` - 1 cut indexes spread over `total` statements (fewer when there are fewer)."""
    return sorted({total * part // count for part in range(1, count)} - {0})


def assert_merged(source: bytes, indexes: list[int]) -> ModuleMap:
    plan, head, trees = cut_before(source, indexes)
    whole = find_modules(new_parser().parse(source), source)
    _, merged = sliced_map(source, plan, head, trees)
    assert merged == whole
    assert list(merged.helpers.items()) == list(whole.helpers.items())
    return whole


IIFE_LIST = (b"var a0=1;(()=>{" + HELPERS.encode() + esm_modules(6).encode() + b"m0()})();var b0=2;"
             + (HELPERS.replace("Qz=", "Qy=").replace("Vk=", "Vj=").replace("Jx=", "Jw=")
                + "(()=>{var n1=Vj(()=>{}),n2=Qy((e,t)=>{t.exports=2});n1()})();var b1=3;").encode())
UNITS = {
    **SYNTHETIC,
    # the helpers declared after every wrapper (hoisted functions would be; the finder does not care)
    "helpers-last": (esm_modules(12) + "m0();" + HELPERS).encode(),
    "bun-helpers-last": (BUN_HEAD + esm_modules(12) + "m0();" + HELPERS + "})\n").encode(),
    "webpack5-table": WEBPACK5_AT_TOP,
    "bun-webpack5-table": (BUN_HEAD + WEBPACK5_AT_TOP.decode() + "})\n").encode(),
    # an IIFE whose body holds the helpers and their wrappers (a list below L), and wrappers in
    # an IIFE of L whose helpers are L's
    "iife-list": IIFE_LIST,
}
DEMOS = sorted(p.name for p in (FIXTURES / "demo").glob("*.min.js"))
CHUNKS = sorted(p.name for p in (FIXTURES / "webpack-chunk" / "built").glob("*.js"))


def source_of(name: str) -> bytes:
    if name in UNITS:
        return UNITS[name]
    folder = FIXTURES / ("demo" if name in DEMOS else "webpack-chunk/built")
    return (folder / name).read_bytes()


@pytest.mark.parametrize("count", [1, 2, 3, 7])
@pytest.mark.parametrize("name", DEMOS + CHUNKS + sorted(UNITS))
def test_the_slices_module_map_merges_into_the_whole_trees(name: str, count: int) -> None:
    source = source_of(name)
    _, statements, _ = statements_of(source)
    whole = assert_merged(source, spread(len(statements), count))
    if name in ("demo.webpack.min.js", "demo.browserify.min.js", "webpack5-table", "bun-webpack5-table"):
        assert whole.modules  # the case is there to be merged


@pytest.mark.parametrize("name", ["helpers-last", "bun-helpers-last", "webpack5-table", "bun-webpack5-table",
                                  "iife-list"])
def test_every_cut_between_two_statements_keeps_the_map(name: str) -> None:
    source = UNITS[name]
    _, statements, _ = statements_of(source)
    for index in range(1, len(statements)):
        assert_merged(source, [index])
    assert_merged(source, list(range(1, len(statements))))  # a slice per statement


def test_the_synthetic_units_hold_what_they_test() -> None:
    iife = find_modules(new_parser().parse(IIFE_LIST), IIFE_LIST)
    assert {"Qz", "Vk", "Qy", "Vj"} <= set(iife.helpers)
    assert sum(m.kind == "esm" for m in iife.modules) == 7 and sum(m.kind == "cjs" for m in iife.modules) == 2
    last = UNITS["bun-helpers-last"]
    assert len(find_modules(new_parser().parse(last), last).modules) == 14
    table = UNITS["bun-webpack5-table"]
    assert [m.binding for m in find_modules(new_parser().parse(table), table).modules] == ["1", "2"]


@pytest.mark.parametrize("name", ["demo.min.js", "demo.bun.min.js", "bun", "program", "iife-list"])
def test_a_slices_listing_reads_the_modules_within_its_range(name: str) -> None:
    """`references.listing` on a slice, with the merged map's modules that start in its range,
    makes the whole tree's items of that range."""
    source = source_of(name)
    _, statements, tree = statements_of(source)
    whole_map = find_modules(tree, source)
    whole = listing(tree, source, whole_map)
    for count in (2, 3, 7):
        plan, _, trees = cut_before(source, spread(len(statements), count))
        items = []
        for part, span in zip(trees, plan.ranges, strict=True):
            mine = listing(part, source, modules_within(whole_map, span), span=span, names=whole.names)
            items.extend((start, end, declared) for start, end, _, declared in mine.raw)
        assert items == [(start, end, declared) for start, end, _, declared in whole.raw]
