"""The error callsites a handler catches directly, found from the callsites' side on the
ancestors each callsite already has (`direct_handler`)."""

from __future__ import annotations

from collections.abc import Sequence

from tree_sitter import Node

from analyzer.javascript.handlers.shapes import BOUNDARIES, first_named, is_object_assign, last_named, thrown_value
from analyzer.javascript.syntax import same


def direct_handler(site: Node, chain: Sequence[Node]) -> int | None:
    """The offset of the catch clause whose protected block throws this error callsite in the same
    function: `throw X`, `throw (a, X)`, `throw Object.assign(X, ...)`, or X bound by `const e = X`
    and `throw e` in a later statement of the same block. `chain`: its ancestors, innermost first."""
    at, child = _holder(site, chain)
    if at is None:
        return None
    if chain[at].type == "variable_declarator":
        at = _thrown_later(chain, at)
        if at is None:
            return None
        child = chain[at - 1] if at > 0 else site
    for node in chain[at:]:
        if node.type == "try_statement" and same(node.child_by_field_name("body"), child):
            catcher = node.child_by_field_name("handler")
            if catcher is not None:
                return catcher.start_byte
        elif node.type in BOUNDARIES and node.type != "catch_clause":
            return None
        child = node
    return None


def _holder(site: Node, chain: Sequence[Node]) -> tuple[int | None, Node]:
    """(the position in `chain` of the throw statement or declarator that holds the callsite's
    value, the child of it on the way), else (None, site)."""
    child = site
    for at, node in enumerate(chain):
        kind = node.type
        if kind == "parenthesized_expression":
            pass
        elif kind == "sequence_expression" and same(last_named(node), child):
            pass
        elif kind == "arguments" and at + 1 < len(chain) and is_object_assign(chain[at + 1]) \
                and same(first_named(node), child):
            pass
        elif kind == "call_expression" and at > 0 and chain[at - 1].type == "arguments":
            pass
        elif kind == "throw_statement":
            return at, child
        elif kind == "variable_declarator" and same(node.child_by_field_name("value"), child):
            name = node.child_by_field_name("name")
            return (at, child) if name is not None and name.type == "identifier" else (None, site)
        else:
            return None, site
        child = node
    return None, site


def _thrown_later(chain: Sequence[Node], at: int) -> int | None:
    """For `const e = X` at chain[at]: the position in `chain` of the statement list holding a
    later `throw e` (its own position is the list's child, whose ancestors the chain has)."""
    name = chain[at].child_by_field_name("name")
    if at + 2 >= len(chain) or name is None:
        return None
    declaration, holder = chain[at + 1], chain[at + 2]
    if declaration.type not in ("lexical_declaration", "variable_declaration"):
        return None
    if holder.type not in ("statement_block", "program", "switch_case", "switch_default"):
        return None
    wanted = name.text
    later = False
    for statement in holder.named_children:
        if later and statement.type == "throw_statement":
            thrown = thrown_value(statement)
            if thrown is not None and thrown.type == "identifier" and thrown.text == wanted:
                return at + 2
        if same(statement, declaration):
            later = True
    return None

