"""Names a handler's body assigns (docs/reference.md, "Which name is the caught value"): its
parameter (or a local declared as the caught value) assigned again holds, from that assignment on,
what was assigned; another local of the body holds what is assigned to it, the caught value on one
path and another value on another being a value read from it; thrown, returned or rejected, such a
name is each value it may hold there (`held_at`)."""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from typing import Literal

from tree_sitter import Node

from analyzer.javascript.handlers.shapes import operator_of
from analyzer.javascript.syntax import same, without_parentheses

#: a binding of a handler's body (`bindings.Key`)
Key = tuple[bytes, int]
#: what a value assigned to a name is: the caught value, a new error (and whether it reads the
#: caught value), a value read from it, or none of these
Held = Literal["caught", "made", "made-reading", "read", "other"]
#: ancestors below which an expression runs whenever they do (an `if`'s and a `?:`'s condition only)
_ALWAYS = frozenset({
    "expression_statement", "throw_statement", "return_statement", "parenthesized_expression",
    "sequence_expression", "arguments", "call_expression", "new_expression", "assignment_expression",
    "await_expression", "member_expression", "subscript_expression", "object", "pair", "array", "spread_element",
    "template_string", "template_substitution", "variable_declarator", "lexical_declaration", "variable_declaration",
    "unary_expression", "binary_expression", "ternary_expression", "if_statement", "statement_block"})
_SHORT_CIRCUIT = frozenset({"&&", "||", "??"})


class Versions:
    """The values of the names followed through assignments (the parameter, and a local declared
    as the caught value) after each one that always runs: a name at or past an assignment's end is
    the value of the last one, keyed `(name, -2 - its end)`."""

    def __init__(self, param: bytes | None) -> None:
        #: the parameter's own binding, at the handler's level
        self.own: Key | None = (param, -1) if param is not None else None
        self.followed: set[Key] = {self.own} if self.own is not None else set()
        #: per name followed, the ends of its assignments, in source order
        self.ends: dict[Key, list[int]] = {}

    def key(self, bound: Key, at: int) -> Key:
        """The binding `bound` at offset `at`: a later value past an assignment of it."""
        ends = self.ends.get(bound)
        if not ends or at < ends[0]:
            return bound
        return bound[0], -2 - ends[bisect.bisect_right(ends, at) - 1]

    def assigned(self, bound: Key, assignment: Node) -> Key:
        """The key of the value an assignment gives a name (assignments come in source order)."""
        self.ends.setdefault(bound, []).append(assignment.end_byte)
        return bound[0], -2 - assignment.end_byte


def straight_line(node: Node, root: Node | None) -> bool:
    """Whether `node` runs whenever the statement of `root` holding it does: no ancestor between
    them is an `if`'s or a `?:`'s arm, the right of `&&`, `||` or `??`, a loop, `switch` or `try`."""
    child, parent = node, node.parent
    while parent is not None and not same(parent, root):
        kind = parent.type
        if kind not in _ALWAYS:
            return False
        if kind in ("if_statement", "ternary_expression") and not same(parent.child_by_field_name("condition"), child):
            return False
        if kind == "binary_expression" and operator_of(parent) in _SHORT_CIRCUIT \
                and not same(parent.child_by_field_name("left"), child):
            return False
        if kind == "call_expression" and parent.child_by_field_name("optional_chain") is not None:
            return False
        child, parent = parent, parent.parent
    return parent is not None


def merged(values: set[Held]) -> Held:
    """What a name holds that may hold each of `values`: the caught value only when all are; a
    value read from it when one is it or reads it (a new error made from it on another path keeps
    only what was read: `partial`)."""
    if len(values) == 1:
        return next(iter(values))
    if values & {"caught", "read", "made-reading"}:
        return "read"
    return "other"


def held_at(entries: list[tuple[Node, Node]], at: int, since: int, parts: Sequence[Node],
            followed: bool, starts: Sequence[int] | None = None) -> list[Node | None] | None:
    """What a name read at `at` in a branch made of `parts` may hold (docs/reference.md, "Which
    name is the caught value"), given its `entries` (declarator or assignment, value) in source
    order: the values of those between `since` and `at` on the branch's paths, back to one that
    always runs there, and None, the caught value a `followed` name starts as, when none does.
    None when none of them is on the branch's paths. `starts`: the parts' starts, when known."""
    starts = [part.start_byte for part in parts] if starts is None else starts
    out: list[Node | None] = []
    for node, value in reversed(entries):
        part = _holding(parts, starts, node) if since < node.end_byte <= at else None
        if part is None:  # after the name, before what it holds, or on another branch's path
            continue
        out.append(value)
        if straight_line(node, part.parent):
            break
    else:
        if followed:
            out.append(None)
    return out if out and out != [None] else None


def _holding(parts: Sequence[Node], starts: Sequence[int], node: Node) -> Node | None:
    """The node of `parts` (in source order, apart; their starts `starts`) that holds `node`."""
    at = bisect.bisect_right(starts, node.start_byte) - 1
    return parts[at] if at >= 0 and node.end_byte <= parts[at].end_byte else None


def valued(value: Node) -> list[Node]:
    """The parts of a value that it may be: a `?:`'s arms, through nested ones and parentheses, and
    not its test (`m = /x/.test(e.message) ? "a" : "b"` holds neither the caught value nor anything
    read from it, as `if (/x/.test(e.message)) m = "a"; else m = "b"` does not); else the value."""
    out, stack = [], [value]
    while stack:
        node = without_parentheses(stack.pop())
        if node.type == "ternary_expression":
            stack.extend(n for n in (node.child_by_field_name("alternative"), node.child_by_field_name("consequence"))
                         if n is not None)
        else:
            out.append(node)
    return out


def either_value(value: Node) -> list[Node]:
    """The values a `?:`, `||`, `&&` or `??` may give (through nested ones and a sequence's last
    member), each as written; none for any other value."""
    top = without_parentheses(value)
    if top.type not in ("ternary_expression", "sequence_expression") and not (
            top.type == "binary_expression" and operator_of(top) in _SHORT_CIRCUIT):
        return []
    out, stack = [], [top]
    while stack:
        node = without_parentheses(stack.pop())
        if node.type == "sequence_expression" and node.named_child_count:
            stack.append(node.named_children[-1])
        elif node.type == "ternary_expression":
            stack.extend(n for n in (node.child_by_field_name("alternative"), node.child_by_field_name("consequence"))
                         if n is not None)
        elif node.type == "binary_expression" and operator_of(node) in _SHORT_CIRCUIT:
            stack.extend(n for n in (node.child_by_field_name("right"), node.child_by_field_name("left"))
                         if n is not None)
        else:
            out.append(node)
    return out
