"""Statement rows: what the module map reads of a statement list's statements across statements
(an `__esm` module's hoisted declarations, the `claimed` floor, the loose pieces), made while the
tree is alive and kept without any node. For the list L a large unit is sliced in
(docs/slices.md, stages 3d and 3h), each slice's statements make rows, and the rows of the
slices joined in order are the rows of the whole list."""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import pairwise

from tree_sitter import Node

from analyzer.javascript.modules.patterns import DECLARATIONS
from analyzer.javascript.syntax import text

#: the deepest IIFE body whose statements count as top level (`loose.loose_pieces`)
MAX_IIFE_DEPTH = 4

#: right after a statement, these bytes start a declaration, not a call statement (other
#: bytes, white space first, say nothing)
_DECLARATION_NEXT = (b"var ", b"const ", b"function ", b"function*", b"class ")

Span = tuple[int, int]
#: a statement of a top-level IIFE's body: its bounds (the module filter reads them), the spans
#: it gives when outside every module, and the statements of the IIFE bodies it calls
Nested = tuple[int, int, tuple[Span, ...], tuple["Nested", ...]]


@dataclass(slots=True, eq=False)
class StatementRows:
    """One row per statement of a list, in order, as columns; sparse columns keyed by the
    statement's start, so that the rows of consecutive slices join by concatenation."""

    #: each statement's first byte and end (lists: bisected and read often, an `array` would
    #: make an int object at each read)
    starts: list[int] = field(default_factory=list)
    ends: list[int] = field(default_factory=list)
    #: each statement's node type
    types: list[str] = field(default_factory=list)
    #: a `callee(ns, ...)` statement's (callee, ns), both identifiers: an `__export` call when the
    #: callee is an export helper (known only once the helpers are; docs/slices.md, stage 3b)
    calls: dict[int, tuple[str, str]] = field(default_factory=dict)
    #: a declaration's last declarator's name (its text, a pattern's too), unless the bytes
    #: right after it start a declaration (`_DECLARATION_NEXT`): it is read only before a call
    names: dict[int, str] = field(default_factory=dict)
    #: the declarators' starts of a declaration with more than one
    declarators: dict[int, tuple[int, ...]] = field(default_factory=dict)
    #: an expression statement's pieces: its comma-separated expressions that call no IIFE, and
    #: the statements of the IIFE bodies they call (`loose.loose_pieces`)
    expressions: dict[int, tuple[tuple[Span, ...], tuple[Nested, ...]]] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.starts)

    def index_at(self, offset: int) -> int:
        """The index of the statement holding `offset` (the last starting at or before it)."""
        return bisect.bisect_right(self.starts, offset) - 1

    def pieces(self, index: int) -> tuple[tuple[Span, ...], tuple[Nested, ...]]:
        """The spans statement `index` gives when outside every module, and the IIFE bodies'
        statements below it (a comment gives none)."""
        start, end, kind = self.starts[index], self.ends[index], self.types[index]
        if kind == "comment":
            return (), ()
        expression = self.expressions.get(start)
        if expression is not None:
            return expression
        starts = self.declarators.get(start)
        if starts is not None:
            return tuple(pairwise((start, *starts[1:], end))), ()
        return ((start, end),), ()


def joined(parts: Sequence[StatementRows]) -> StatementRows:
    """The rows of consecutive slices of one list, in order, as one list's."""
    if len(parts) == 1:
        return parts[0]
    rows = StatementRows()
    for part in parts:
        rows.starts.extend(part.starts)
        rows.ends.extend(part.ends)
        rows.types.extend(part.types)
        rows.calls.update(part.calls)
        rows.names.update(part.names)
        rows.declarators.update(part.declarators)
        rows.expressions.update(part.expressions)
    return rows


def statement_rows(statements: Sequence[Node], source: bytes) -> StatementRows:
    """The rows of a run of consecutive statements of one list (a slice's, or all of them)."""
    # a type by its symbol's id: `Node.type` makes a new string at each read, to be hashed
    kinds: dict[int, str] = {}
    types = []
    for node in statements:
        kind = kinds.get(node.kind_id)
        if kind is None:
            kind = kinds[node.kind_id] = node.type
        types.append(kind)
    rows = StatementRows([node.start_byte for node in statements], [node.end_byte for node in statements], types)
    calls, names, declarators, expressions = rows.calls, rows.names, rows.declarators, rows.expressions
    declaration_next = source.startswith
    for node, kind, start, end in zip(statements, types, rows.starts, rows.ends, strict=True):
        if kind in DECLARATIONS:
            if node.named_child_count == 1:  # its one declarator (a comment would be a second named child)
                if not declaration_next(_DECLARATION_NEXT, end):
                    only = node.named_child(0)
                    if only.type == "variable_declarator":  # not an ERROR node
                        _name(only, start, names)
                continue
            found = [c for c in node.named_children if c.type == "variable_declarator"]
            if len(found) > 1:
                declarators[start] = tuple([d.start_byte for d in found])
            if found and not declaration_next(_DECLARATION_NEXT, end):
                _name(found[-1], start, names)
        elif kind == "expression_statement" and node.named_child_count:
            call = _call(node)
            if call is not None:
                calls[start] = call
            expressions[start] = _expression_pieces(node, 0)
    return rows


def _name(declarator: Node, start: int, names: dict[int, str]) -> None:
    target = declarator.child_by_field_name("name")
    if target is not None:
        names[start] = text(target)


def _call(statement: Node) -> tuple[str, str] | None:
    """(callee, first argument) of a statement `callee(name, ...)`, both identifiers."""
    call = statement.named_children[0]
    if call.type != "call_expression":
        return None
    callee = call.child_by_field_name("function")
    if callee is None or callee.type != "identifier":
        return None
    arguments = call.child_by_field_name("arguments")
    first = arguments.named_children[0] if arguments is not None and arguments.named_children else None
    return (text(callee), text(first)) if first is not None and first.type == "identifier" else None


def _expression_pieces(statement: Node, depth: int) -> tuple[tuple[Span, ...], tuple[Nested, ...]]:
    """`a = 1, b = 2, (() => {...})()`: the expressions, and the IIFE bodies' statements, which
    are top level too (depth < 4: a recursion 4 deep at most)."""
    spans: list[Span] = []
    nested: list[Nested] = []
    for element in _sequence(statement.named_children[0]):
        bodies = _iife_bodies(element)
        for body in bodies:
            nested.extend(_nested(node, depth + 1) for node in body.named_children if node.type != "comment")
        if not bodies:
            spans.append((element.start_byte, element.end_byte))
    return tuple(spans), tuple(nested)


def _nested(node: Node, depth: int) -> Nested:
    first, last = node.start_byte, node.end_byte
    if node.type == "expression_statement" and node.named_child_count and depth < MAX_IIFE_DEPTH:
        spans, nested = _expression_pieces(node, depth)
        return first, last, spans, nested
    if node.type in DECLARATIONS:
        found = [c.start_byte for c in node.named_children if c.type == "variable_declarator"]
        if len(found) > 1:
            return first, last, tuple(pairwise((first, *found[1:], last))), ()
    return first, last, ((first, last),), ()


def _sequence(expression: Node) -> list[Node]:
    """The elements of a comma sequence (nested to the left or right), else the expression."""
    out, pending = [], [expression]
    while pending:
        node = pending.pop()
        if node.type == "sequence_expression":
            pending.extend(reversed(node.named_children))
        else:
            out.append(node)
    return out


def _iife_bodies(expression: Node) -> list[Node]:
    """The bodies of `(() => {...})()`, `!function () {...}()`, `(function () {...}).call(this)`,
    and of the functions such a call is given (a UMD wrapper's factory)."""
    while expression.type in ("parenthesized_expression", "unary_expression") and expression.named_children:
        expression = expression.named_children[-1]
    if expression.type != "call_expression":
        return []
    function = expression.child_by_field_name("function")
    if function is not None and function.type == "member_expression":
        prop = function.child_by_field_name("property")
        function = (
            function.child_by_field_name("object") if prop is not None and text(prop) in ("call", "apply") else None
        )
    while function is not None and function.type == "parenthesized_expression" and function.named_children:
        function = function.named_children[0]
    if function is None or function.type not in ("arrow_function", "function_expression"):
        return []
    arguments = expression.child_by_field_name("arguments")
    functions = [function] + [a for a in (arguments.named_children if arguments is not None else ())
                              if a.type in ("arrow_function", "function_expression")]
    bodies = [f.child_by_field_name("body") for f in functions]
    return [b for b in bodies if b is not None and b.type == "statement_block"]
