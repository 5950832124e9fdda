"""A unit parsed as N slices of its statement list (`analyzer/javascript/slices.py`, docs/slices.md):
every slice tree equals the whole tree node by node, the head tree equals it above the list, the
check passes and the node counts add up; or the plan says why the unit stays one tree."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from conftest import FIXTURES
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from support import npm_cache
from support.same_nodes import first_difference
from tree_sitter import Node, Tree

from analyzer.bundle.load import load_bundle
from analyzer.javascript import slices
from analyzer.javascript.modules.statements import main_container
from analyzer.javascript.syntax import new_parser

SOURCES = sorted(p for p in FIXTURES.rglob("*")
                 if p.suffix in (".js", ".mjs", ".cjs") and "node_modules" not in p.parts)
#: why a fixture may stay one tree: most are a few statements, some of them functions
REASONS = ("one stretch holds most of L", "the scanner is unsure")
BUN_HEAD = b"// @bun @bytecode @bun-cjs\n(function(exports, require, module, __filename, __dirname) {"
BUN_TAIL = b"})\n"
_WHITE_SPACE = re.compile(rb"\s*")


def _preorder(root: Node, skip: Callable[[Node], bool]) -> Iterator[tuple[object, ...]]:
    """Every node's depth, field, type, bytes and points, iteratively; below `skip`'s, none."""
    cursor, depth = root.walk(), 0
    while True:
        node = cursor.node
        assert node is not None
        yield depth, cursor.field_name, node.type, node.start_byte, node.end_byte, node.start_point, node.end_point
        if not skip(node) and cursor.goto_first_child():
            depth += 1
            continue
        while not cursor.goto_next_sibling():
            if not cursor.goto_parent():
                return
            depth -= 1


def sliced(source: bytes, count: int) -> tuple[slices.Plan, Tree | None, list[Tree]]:
    made = slices.plan_of(source, count)
    assert isinstance(made, slices.Plan), made
    parser = new_parser()
    head = slices.parse_head(parser, source, made)
    return made, head, [slices.parse_slice(parser, source, made, i) for i in range(len(made.ranges))]


def assert_equal_to_the_whole(source: bytes, count: int) -> slices.Plan:
    """The plan's trees against the whole tree: the check with the node count, every statement
    node by node, the head above L."""
    whole = new_parser().parse(source)
    made, head, parts = sliced(source, count)
    assert slices.check(made, head, parts, whole.root_node.descendant_count) is None
    body = main_container(whole.root_node)
    assert made.kind == ("program" if body.type == "program" else "bun-cjs-body")
    statements = body.children if made.braces is None else body.children[1:-1]
    pieces = [child for part in parts for child in part.root_node.children]
    assert len(pieces) == len(statements)
    ends = slices.statement_ends(source).ends[slices.PROGRAM if made.braces is None else made.braces[0]]
    following = {_WHITE_SPACE.match(source, end).end() for end in ends}  # type: ignore[union-attr]
    assert {start for start in following if start < statements[-1].end_byte} <= {s.start_byte for s in statements}
    for mine, theirs in zip(statements, pieces, strict=True):
        assert first_difference(mine, theirs) is None
    if head is not None:
        assert made.braces is not None and body.start_byte == made.braces[0]
        above = list(_preorder(whole.root_node, lambda node: node == body))
        assert list(_preorder(head.root_node, lambda node: node.type == "statement_block")) == above
    return made


@pytest.mark.parametrize("count", [2, 3, 7])
@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(FIXTURES)))
def test_slice_trees_equal_the_whole_tree_or_the_plan_says_why_not(path: Path, count: int) -> None:
    source = path.read_bytes()
    made = slices.plan_of(source, count)
    if isinstance(made, str):
        assert made.startswith(REASONS), made
    else:
        assert_equal_to_the_whole(source, count)


@pytest.mark.parametrize(("name", "kind"), [("demo.min.js", "program"), ("demo.cjs.min.js", "program"),
                                            ("demo.bun.min.js", "bun-cjs-body")])
def test_the_demo_bundles_are_sliced_into_as_many_slices_as_asked(name: str, kind: str) -> None:
    for count in (2, 3, 7):
        made = assert_equal_to_the_whole((FIXTURES / "demo" / name).read_bytes(), count)
        assert (made.kind, len(made.ranges)) == (kind, count)


@pytest.mark.parametrize("name", ["demo.webpack.min.js", "demo.browserify.min.js", "demo.terser.min.js"])
def test_a_bundle_that_is_one_statement_stays_one_tree(name: str) -> None:
    made = slices.plan_of((FIXTURES / "demo" / name).read_bytes(), 4)
    assert isinstance(made, str) and made.startswith("one stretch holds most of L"), made


def test_fewer_than_two_slices_are_no_plan() -> None:
    assert slices.plan(b"a();b();c();", 1) is None


def statements(count: int) -> bytes:
    return b"\n".join(b"var v%d=f(%d);" % (i, i) for i in range(count))


def test_webpack_5s_module_table_is_one_statement_holding_most_bytes() -> None:
    table = b",".join(b"%d:function(e,t){e.exports=t(%d);t.x=1;return e}" % (i, i) for i in range(200))
    source = b"var e={" + table + b"};" + statements(5) + b"\n(()=>{e[1]()})();"
    made = slices.plan_of(source, 4)
    assert isinstance(made, str) and made.startswith("one stretch holds most of L"), made


def test_releases_wrapped_one_after_another_are_cut_between_them() -> None:
    """Each statement a whole bundle in a function, larger than a slice: the cuts fall between
    them, one or more a slice (a wrapper's helpers are read in its body: `slice_helpers.helpers_first`)."""
    body = b";".join(b"var v%d=f(%d)" % (i, i) for i in range(210_000))
    wrapped = b"(function(){" + body + b"})();\n"
    assert len(wrapped) > 4 << 20
    made = slices.plan_of(wrapped * 3 + statements(5), 4)
    assert isinstance(made, slices.Plan), made
    size = len(wrapped)
    assert made.ranges == ((0, size), (size, 2 * size), (2 * size, 3 * size + len(statements(5))))


def test_webpack_4s_iife_with_its_modules_as_argument_stays_one_tree() -> None:
    modules = b",".join(b"function(e,t,n){n(%d);e.exports=%d;var r=n(1);}" % (i, i) for i in range(300))
    source = b'!function(e){var t={};function n(r){return t[r]||e[r](t[r]={},t[r],n),t[r]}n(0);}([' + modules + b"]);"
    assert slices.plan(source, 4) is None


def test_a_syntax_error_fails_the_check_or_the_plan() -> None:
    source = statements(20) + b"\nb c d;\n" + statements(20)
    made, head, parts = sliced(source, 7)
    assert "has an error" in (slices.check(made, head, parts) or "")
    assert slices.plan(statements(20) + b"\nb(c;" + statements(20), 3) is None  # unbalanced: the scanner is unsure


def test_a_regex_the_scanner_takes_for_a_division_fails_the_check() -> None:
    source = statements(10) + b"\nif(a)/;/.test(b);c=d/2;\n" + statements(10)
    cut = source.index(b"/;/") + 2  # after `)` a `/` is read as a division: its `;` ends a statement
    assert cut in slices.statement_ends(source).ends[slices.PROGRAM]
    made = slices.Plan("program", None, ((0, cut), (cut, len(source))), ((0, cut), (cut, len(source))), 1)
    parser = new_parser()
    parts = [slices.parse_slice(parser, source, made, i) for i in range(2)]
    assert slices.check(made, None, parts) == "slice 0 has an error"


@pytest.mark.parametrize("source", [
    b"#!/usr/bin/env node\n'use strict';\n" + statements(12),
    b"a()\nb()\nc();d()\ne();f()\n;g();h=i\n(j);k();l=`x;}${m({a:1})};}`;n();o=/[;}]/g;p();q=r/2/s;",
    b"if(a)b();else c();d();do e();while(f);g();if(h)i();/*;*/else j();k();do l();\n//x\nwhile(m)n();o();",
    b"a('};');b(\"}';\");c(`${'`'};`);/* }; */d();// };\ne();f(/\\/;}/);g(x/y/z);h(a++/2);i(`${`${';'}`}`);j();",
    b"class A{x=1;y(){return 1;}}A.z=1;function B(){return;}B();let c=1;const d={e(){}};label:for(;;)break label;",
], ids=["hash-bang", "asi-and-tricky-tokens", "else-and-while", "strings-comments-regexes", "declarations"])
def test_statements_with_semicolons_and_braces_in_tokens_slice_as_the_whole(source: bytes) -> None:
    for count in range(2, 8):
        assert_equal_to_the_whole(source, count)


def test_no_cut_falls_before_else_or_the_while_of_a_do() -> None:
    source = b"if(a)b();else c();do d();while(e);f();"
    ends = slices.statement_ends(source).ends[slices.PROGRAM]
    assert ends == [source.index(b"c();") + 4, source.index(b"(e);") + 4, len(source)]


def bun_unit(body: bytes) -> bytes:
    return BUN_HEAD + body + BUN_TAIL


def test_the_body_of_buns_commonjs_wrapper_is_sliced_under_the_head_tree() -> None:
    source = bun_unit(statements(30) + b"\nfunction g(){return exports}module.exports=g;")
    for count in (2, 3, 7):
        made = assert_equal_to_the_whole(source, count)
        assert made.kind == "bun-cjs-body"
        assert made.braces == (BUN_HEAD.index(b"{"), len(source) - len(BUN_TAIL))


def test_a_bun_wrapper_followed_by_code_stays_one_tree() -> None:
    made = slices.plan_of(bun_unit(statements(30)) + b"more();", 3)
    assert made == "the Bun CommonJS wrapper is followed by more code"


@pytest.mark.parametrize("source", [b"a();b('c);d();", b"a();b(`c${d()};", b"a();/* b;c();", b"a();b(/[;);",
                                    b"a();}b();", b"a(];", b"a(`${b)}`);", b"a();{b();"])
def test_an_unterminated_token_or_an_unmatched_bracket_makes_the_scanner_unsure(source: bytes) -> None:
    made = slices.plan_of(source + statements(5), 2)
    assert isinstance(made, str) and made.startswith("the scanner is unsure"), made


def test_the_check_names_a_slice_whose_statements_do_not_span_its_range() -> None:
    source = statements(30)
    made, head, parts = sliced(source, 3)
    shifted = replace(made, spans=((made.spans[0][0] + 1, made.spans[0][1]), *made.spans[1:]))
    assert (slices.check(shifted, head, parts) or "").startswith("slice 0's statements span")
    count = new_parser().parse(source).root_node.descendant_count
    assert slices.node_count(head, parts) == count
    assert "nodes, the whole tree" in (slices.check(made, head, parts, count + 1) or "")
    assert slices.check(made, head, parts[:-1]) == "the trees are not the plan's"


#: statements whose tokens hold `;`, `}`, `/`, quotes and templates, and ones without `;` (ASI)
SNIPPETS = [
    b"a();", b"b=c/d/e;", b"f(/;}/g);", b"g('};');", b'h("\\";}");', b"i(`;}${j({k:1})};`);", b"l=m\n",
    b"if(n)o();else p();", b"do q();while(r);", b"/*;}*/s();", b"// ;}\nt();", b"function u(){return/;/}",
    b"class V{w=1;x(){}}", b"for(;;)break;", b"y++/2;", b"z=[1,2];", b"({a:1});", b"let A=`x`;", b";",
]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(SNIPPETS), min_size=3, max_size=40), st.integers(2, 7), st.booleans())
def test_random_programs_slice_as_the_whole_tree(parts: list[bytes], count: int, wrapped: bool) -> None:
    body = b"".join(parts)
    source = bun_unit(body) if wrapped else body
    assume(not new_parser().parse(source).root_node.has_error)
    made = slices.plan_of(source, count)
    if isinstance(made, str):
        assert made.startswith(REASONS), made
    else:
        assert_equal_to_the_whole(source, count)


@pytest.mark.network
@pytest.mark.slow
def test_cli_js_boundaries_are_its_statement_starts_and_its_four_slices_the_whole_tree() -> None:
    units, _ = load_bundle(npm_cache.main_file("@anthropic-ai/claude-code", "2.1.100"))
    source = max(units, key=lambda unit: len(unit.source)).source
    whole = new_parser().parse(source)
    starts = {node.start_byte for node in whole.root_node.children}
    scanned = slices.statement_ends(source)
    found = {_WHITE_SPACE.match(source, end).end() for end in scanned.ends[slices.PROGRAM]}  # type: ignore[union-attr]
    assert scanned.trouble is None and found - {len(source)} <= starts and len(found) > 8000
    made, head, parts = sliced(source, 4)
    assert (made.kind, len(parts), head) == ("program", 4, None)
    assert slices.check(made, head, parts, whole.root_node.descendant_count) is None
    pieces = [child for part in parts for child in part.root_node.children]
    assert len(pieces) == whole.root_node.child_count
    for index, (mine, theirs) in enumerate(zip(whole.root_node.children, pieces, strict=True)):
        assert (mine.kind_id, mine.start_byte, mine.end_byte, mine.descendant_count) == (
            theirs.kind_id, theirs.start_byte, theirs.end_byte, theirs.descendant_count)
        assert index % 50 or first_difference(mine, theirs) is None


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(FIXTURES)))
def test_the_run_around_any_offset_of_l_parses_as_the_whole_trees_statements(path: Path) -> None:
    """`statement_at` (the helpers' statements, read before any slice): parsed alone, the run
    around an offset holds that offset's statement of L, and its statements are the whole
    tree's, node by node."""
    source = path.read_bytes()
    plan = slices.plan(source, 2)
    if plan is None:
        return
    assert len(plan.ends) == plan.boundaries
    whole = new_parser().parse(source)
    statements = main_container(whole.root_node).named_children
    parser = new_parser()
    for statement in statements[:: max(1, len(statements) // 40)]:
        run = slices.statement_at(plan, statement.start_byte + (statement.end_byte - statement.start_byte) // 2)
        assert run is not None
        bytes_range, span = run
        tree = slices.parse_range(parser, source, bytes_range)
        assert slices.check_range("run", span, tree) is None
        assert span[0] <= statement.start_byte and statement.end_byte <= span[1]
        inside = [s for s in statements if span[0] <= s.start_byte < span[1]]
        assert [list(_preorder(s, lambda n: False)) for s in tree.root_node.named_children] == \
            [list(_preorder(s, lambda n: False)) for s in inside]


def test_a_plan_made_by_hand_knows_no_run() -> None:
    made = slices.Plan("program", None, ((0, 4), (4, 8)), ((0, 4), (4, 8)), 1)
    assert slices.statement_at(made, 2) is None


def _counted_point(source: bytes, offset: int) -> tuple[int, int]:
    """A point as counted from the unit's start each time: the oracle of `slices.point`."""
    return source.count(b"\n", 0, offset), offset - (source.rfind(b"\n", 0, offset) + 1)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from([b"a", b"\n", b"\r", b"\r\n", b";", b"\xc3\xa9", b"\n\n"]), max_size=40),
       st.data())
def test_a_point_is_the_row_and_byte_column_counted_from_the_start(pieces: list[bytes], data: st.DataObject) -> None:
    source = b"".join(pieces)
    other = source + b"\nx"  # a second unit asked of in between: the line breaks kept are the last unit's
    for offset in data.draw(st.lists(st.integers(0, len(source)), max_size=12)):
        assert tuple(slices.point(source, offset)) == _counted_point(source, offset)
        assert tuple(slices.point(other, offset)) == _counted_point(other, offset)
