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
    bound: dict[tuple[int, bytes], bool] = {}
    for name in assigned:
        at = declared.get(name)
        if at is None:
            continue
        # a property (`ctx.n`) is not an occurrence; a spread (`...n`) is
        occurrences = [m.start() + base for m in re.finditer(rb"(?:(?<=\.\.\.)|(?<![\w$.]))" + re.escape(name)
                                                              + rb"(?![\w$])", text)]
        if all(o == at or start <= o < end or _rebound(outer, o, name, bound) for o in occurrences):
            out.append(name)
    return out


def _rebound(outer: Node, offset: int, name: bytes, bound: dict[tuple[int, bytes], bool]) -> bool:
    """Whether the occurrence of `name` at `offset` is another binding's: inside a function nested
    in `outer` that declares the name again (terser reuses the hoisted names in nested functions,
    `var r, i; ... new Promise(function (t, r) { var i = ... })`)."""
    node = outer.descendant_for_byte_range(offset, offset + len(name))
    while node is not None and node != outer:
        if node.type in FUNCTION_TYPES:
            key = (node.id, name)
            if key not in bound:
                bound[key] = name in _declared(node)
            if bound[key]:
                return True
        node = node.parent
    return False


def _declared(function: Node) -> set[bytes]:
    """The plain names a function declares: its own name, its parameters (a name, with a default
    or rest), its `var`s at any depth outside nested functions, and its body's top-level `let`,
    `const`, function and class declarations. A name bound otherwise (a pattern) is not read."""
    names: set[bytes] = set()
    own = function.child_by_field_name("name")
    if own is not None and function.type in ("function_expression", "generator_function"):
        names.add(own.text or b"")
    parameters = function.child_by_field_name("parameters") or function.child_by_field_name("parameter")
    for parameter in (parameters.named_children if parameters is not None and parameters.type == "formal_parameters"
                      else [parameters] if parameters is not None else []):
        if parameter.type in ("assignment_pattern", "rest_pattern"):
            parameter = parameter.child_by_field_name("left") or (parameter.named_children or [parameter])[0]
        if parameter.type == "identifier":
            names.add(parameter.text or b"")
    body = function.child_by_field_name("body")
    if body is None or body.type != "statement_block":
        return names
    for statement in body.named_children:
        if statement.type in ("lexical_declaration", "function_declaration", "class_declaration",
                              "generator_function_declaration"):
            names.update(_names_of(statement))
    stack = list(body.named_children)
    while stack:
        node = stack.pop()
        if node.type in FUNCTION_TYPES:
            continue
        if node.type == "variable_declaration":
            names.update(_names_of(node))
        stack.extend(node.named_children)
    return names


def _names_of(declaration: Node) -> list[bytes]:
    own = declaration.child_by_field_name("name")
    if own is not None:
        return [own.text or b""]
    return [name.text or b"" for d in declaration.named_children if d.type == "variable_declarator"
            and (name := d.child_by_field_name("name")) is not None and name.type == "identifier"]


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
