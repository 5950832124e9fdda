"""The walks a `retry` reads (`handlers.retry`): looking for `return`, `break` and `continue` only
in the nodes whose bytes hold the keyword finds what a walk of every node finds, in the same
order, nested functions, loops, switches, strings and parse errors included."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from tree_sitter import Node

from analyzer.javascript.handlers import retry
from analyzer.javascript.handlers.shapes import BOUNDARIES
from analyzer.javascript.syntax import parse

_SNIPPETS = [
    b"while (1) { try { a(); return b } catch (e) { if (e.x) continue; log('break'); break } }",
    b"for (;;) { try { f(function () { return 1 }) } catch (e) { g(() => { for (;;) break }); continue } }",
    b"do { try { switch (k) { case 1: break; default: h() } } catch (e) { s = 'return'; break } } while (!s)",
    b"while (!r) { try { r = q(); x = { returned: 1, breaks: 2 } } catch (e) { for (x of y) continue } }",
    b"while (1) { try { l: { break l } } catch (e) { if (e) { break } else { continue } } }",
    b"while (1) { try { return ( } catch (e) { break } }",
    b"for (;;) { try { class A { m() { return 1 } } } catch (e) { a ? b() : (() => { break })() } }",
]


def _clauses(root: Node) -> Iterator[Node]:
    stack = [root]
    while stack:
        node = stack.pop()
        if node.type == "catch_clause":
            yield node
        stack.extend(node.children)


def _every_exit(parts: list[Node]) -> tuple[list[int], list[int]]:
    """`loop_exits` by a walk of every node (what the keyword search may leave out)."""
    breaks: list[int] = []
    continues: list[int] = []
    stack = [(part, False) for part in parts]
    while stack:
        node, in_switch = stack.pop()
        kind = node.type
        if kind in ("break_statement", "continue_statement"):
            if not node.named_children and not (in_switch and kind == "break_statement"):
                (breaks if kind == "break_statement" else continues).append(node.start_byte)
        elif kind not in BOUNDARIES and kind not in retry._LOOPS:
            stack.extend((child, in_switch or kind == "switch_statement") for child in node.named_children)
    return breaks, continues


def _every_leave(block: Node) -> bool:
    """`_leaves_loop` by a walk of every node."""
    stack = [(block, False)]
    while stack:
        node, nested = stack.pop()
        kind = node.type
        if kind == "return_statement" or (kind == "break_statement" and not nested):
            return True
        if kind in BOUNDARIES and kind != "catch_clause":
            continue
        stack.extend((child, nested or kind in retry._BREAK_TARGETS) for child in node.named_children)
    return False


@pytest.mark.parametrize("source", _SNIPPETS)
def test_the_keyword_search_finds_what_every_node_walk_finds(source: bytes) -> None:
    root = parse(source).root_node
    clauses = list(_clauses(root))
    assert clauses
    for clause in clauses:
        statements = clause.child_by_field_name("body").named_children
        breaks, continues = retry.loop_exits(statements)
        assert ([n.start_byte for n in breaks], [n.start_byte for n in continues]) == _every_exit(statements)
        protected = clause.parent.child_by_field_name("body")
        assert retry._leaves_loop(protected) == _every_leave(protected)
