"""Statement lists: the one bundled code lives in, each list's statements for bisection, and
the few readings of a node every module shape needs."""

from __future__ import annotations

import bisect
from collections.abc import Sequence

from tree_sitter import Node

from analyzer.javascript.modules.patterns import DECLARATIONS
from analyzer.javascript.modules.statement_rows import StatementRows, statement_rows
from analyzer.javascript.scopes import is_bun_cjs_wrapper
from analyzer.javascript.syntax import climb, text


def main_container(root: Node) -> Node:
    """The statement list bundled code lives in: the program, or Bun's CJS wrapper body."""
    for index in range(min(4, root.named_child_count)):  # not `named_children`: a program's are 18,000
        statement = root.named_child(index)
        if statement.type != "expression_statement" or not statement.named_children:
            continue
        expression = statement.named_children[0]
        while expression.type == "parenthesized_expression" and expression.named_children:
            expression = expression.named_children[0]
        if is_bun_cjs_wrapper(expression):
            body = expression.child_by_field_name("body")
            if body is not None:
                return body
    return root


class Statements:
    """The statements of one statement list, with their start offsets for bisection."""

    def __init__(self, container: Node, nodes: list[Node] | None = None, starts: Sequence[int] | None = None) -> None:
        self.container = container
        self.nodes = list(container.named_children) if nodes is None else nodes
        self.starts = [n.start_byte for n in self.nodes] if starts is None else starts
        self._declarators: dict[int, tuple[list[Node], list[int]]] = {}

    def index_at(self, offset: int) -> int | None:
        at = bisect.bisect_right(self.starts, offset) - 1
        if at < 0 or self.nodes[at].end_byte <= offset:
            return None
        return at

    def declarators(self, index: int) -> tuple[list[Node], list[int]]:
        found = self._declarators.get(index)
        if found is None:
            statement = self.nodes[index]
            nodes = [c for c in statement.named_children if c.type == "variable_declarator"]
            found = self._declarators[index] = (nodes, [n.start_byte for n in nodes])
        return found


class StatementLists:
    """The `Statements` of each list asked for, by the list's node id: one per tree
    (`unit_tree.UnitTree`), since a freed tree's ids are reused by the next."""

    def __init__(self, root: Node, main: Node) -> None:
        self.root = root
        self.main = main
        self._lists: dict[int, Statements] = {}

    def main_rows(self, source: bytes) -> StatementRows:
        """The rows of the main list's statements (`statement_rows`), whose starts its
        `Statements` then bisect."""
        nodes = list(self.main.named_children)
        rows = statement_rows(nodes, source)
        self._lists[self.main.id] = Statements(self.main, nodes, rows.starts)
        return rows

    def get(self, container: Node) -> Statements:
        found = self._lists.get(container.id)
        if found is None:
            found = self._lists[container.id] = Statements(container)
        return found


def parameters(function: Node) -> list[str]:
    single = function.child_by_field_name("parameter")
    if single is not None:
        return [text(single)]
    params = function.child_by_field_name("parameters")
    return [text(p) for p in params.named_children] if params is not None else []


def statement_of(node: Node, root: Node) -> Node | None:
    for ancestor in climb(node, root):
        if ancestor.type in DECLARATIONS or ancestor.type == "expression_statement":
            return ancestor
        if ancestor.type not in ("variable_declarator", "assignment_expression", "sequence_expression",
                                 "parenthesized_expression"):
            return None
    return None


def same(a: Node | None, b: Node | None) -> bool:
    return a is not None and b is not None and a.id == b.id


def key_text(node: Node | None) -> str | None:
    if node is None:
        return None
    raw = text(node)
    if node.type == "string" and len(raw) >= 2:
        return raw[1:-1]
    return raw
