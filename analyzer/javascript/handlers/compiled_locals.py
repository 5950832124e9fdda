"""The locals of a compiled catch: a `const`, `let` or `var` of the catch body is a `var` of the
function around the state machine once compiled (regenerator and `__generator` hoist them: `var
wrapped, _t;`), so that assigning the caught value to one would read as a `store`. A name that
function declares whose every occurrence in it lies in the catch region is declared again in
the parsed clause's body, as the source declared it there."""

from __future__ import annotations

import re

from tree_sitter import Node

from analyzer.javascript.handlers.compiled_regions import Machine
from analyzer.javascript.syntax import FUNCTION_TYPES


def region_locals(machine: Machine, start: int, end: int, param: str | None) -> list[bytes]:
    """The names the region assigns that are locals of the region, in the order first assigned."""
    assigned: list[bytes] = []
    for case in machine.cases:
        if case.end_byte <= start or case.start_byte >= end:
            continue
        stack = [case]
        while stack:
            node = stack.pop()
            if node.type in FUNCTION_TYPES:
                continue
            if node.type in ("assignment_expression", "augmented_assignment_expression"):
                left = node.child_by_field_name("left")
                if left is not None and left.type == "identifier" and left.text not in assigned \
                        and (left.text or b"").decode() != param:
                    assigned.append(left.text or b"")
            stack.extend(reversed(node.named_children))
    if not assigned:
        return []
    outer, declared = _hoisting(machine.function)
    if outer is None:
        return []
    text = outer.text or b""
    base = outer.start_byte
    out = []
    for name in assigned:
        at = declared.get(name)
        if at is None:
            continue
        # a property (`ctx.n`) is not an occurrence; a spread (`...n`) is
        occurrences = [m.start() + base for m in re.finditer(rb"(?:(?<=\.\.\.)|(?<![\w$.]))" + re.escape(name)
                                                              + rb"(?![\w$])", text)]
        if all(o == at or start <= o < end for o in occurrences):
            out.append(name)
    return out


def _hoisting(function: Node) -> tuple[Node | None, dict[bytes, int]]:
    """The function whose `return wrap(function (ctx) {...})` (`__generator(this, function (_a)
    {...})`) runs the machine, and the names its top-level `var` statements declare, with where."""
    node = function
    while node.parent is not None and node.parent.type in ("parenthesized_expression", "arguments",
                                                           "call_expression", "return_statement",
                                                           "statement_block"):
        node = node.parent
        if node.type == "statement_block":
            break
    outer = node.parent if node.type == "statement_block" else None
    if outer is None or outer.type not in FUNCTION_TYPES:
        return None, {}
    declared: dict[bytes, int] = {}
    for statement in node.named_children:
        if statement.type != "variable_declaration":
            continue
        for declarator in statement.named_children:
            name = declarator.child_by_field_name("name") if declarator.type == "variable_declarator" else None
            if name is not None and name.type == "identifier" and declarator.child_by_field_name("value") is None:
                declared[name.text or b""] = name.start_byte
    return outer, declared
