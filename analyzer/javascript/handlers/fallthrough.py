"""Whether a branch's end is certainly reachable on a path that meets none of its dispositions
(docs/reference.md, "Dispositions": the `swallow` of a branch that also does something else),
a promise handler's `return;` being such an end.
Only what is plainly conditional can fail to decide: `if`, the right of `&&`, `||`, `??`, the
arms of `?:`, an optional call (`log?.error(e)`); any other construct holding a disposition is taken
to decide."""

from __future__ import annotations

import bisect
from collections.abc import Sequence

from tree_sitter import Node

from analyzer.javascript.handlers.shapes import first_named, named, operator_of
from analyzer.javascript.syntax import without_parentheses

#: statements that leave: whatever they hold, no path runs past them
_LEAVING = frozenset({"throw_statement", "return_statement", "break_statement", "continue_statement"})
#: statements that decide nothing
_SILENT = frozenset({"empty_statement", "comment", "debugger_statement"})
_SHORT_CIRCUIT = frozenset({"&&", "||", "??"})
#: expressions that are their operand where it stands (`(cb(e))`, `await cb(e)`, `void cb(e)`)
_WRAPPING = frozenset({"parenthesized_expression", "await_expression", "unary_expression"})
#: constructs whose statements a path may enter (`Fallthrough._enters_to_end`), and the heads a
#: path meets before a loop's body
_ENTERED = frozenset({"switch_statement", "for_statement", "for_in_statement", "while_statement", "do_statement",
                      "labeled_statement"})
_HEADS = {"for_statement": ("initializer", "condition"), "for_in_statement": ("left", "right"),
          "while_statement": ("condition",)}
#: nesting past which a construct is unclear (and so decides): the walk stays bounded
_DEPTH = 64


#: what a statement does with the paths through it: one may pass it with no disposition met,
#: every one meets a disposition or leaves, or one certainly ends the handler as its end does
_PASSES, _DECIDES, _ENDS = 0, 1, 2


class Fallthrough:
    """Decides over the statements of one branch, given the nodes that are dispositions and the
    returns that end it as reaching its end does (a promise handler's `return;`)."""

    def __init__(self, deciding: list[Node], ending: Sequence[Node] = ()) -> None:
        #: the disposition nodes, by start (source order)
        self._ids = {n.id for n in deciding}
        self._starts = sorted(n.start_byte for n in deciding)
        self._ending = {n.id for n in ending}

    def silent_path(self, statements: list[Node]) -> bool:
        """Whether the end of `statements` is certainly reached on a path that meets no disposition."""
        return self._sequence(statements, 0) != _DECIDES

    def ends(self, statements: list[Node]) -> bool:
        """Whether one of the ending statements is certainly reached on a path that meets no
        disposition (a `break` leaving the loop around a retried try)."""
        return self._sequence(statements, 0) == _ENDS

    def _sequence(self, statements: list[Node], depth: int) -> int:
        for statement in statements:
            met = self._statement(statement, depth)
            if met != _PASSES:
                return met
        return _PASSES

    def _holds(self, node: Node) -> bool:
        """Whether a disposition node lies in `node` (itself included)."""
        at = bisect.bisect_left(self._starts, node.start_byte)
        return at < len(self._starts) and self._starts[at] < node.end_byte  # nodes nest or are apart

    def _statement(self, node: Node, depth: int) -> int:
        kind = node.type
        if node.id in self._ending:  # `return void cb(e)` meets the call first
            value = first_named(node)
            return _DECIDES if value is not None and self._expression(value, depth + 1) else _ENDS
        if kind in _LEAVING:
            return _DECIDES
        if kind in _SILENT:
            return _PASSES
        if depth > _DEPTH:
            return _DECIDES if self._holds(node) else _PASSES
        if kind == "statement_block":
            return self._sequence(named(node), depth + 1)
        if kind == "expression_statement":
            inner = named(node)
            return _DECIDES if any(self._expression(e, depth + 1) for e in inner) else _PASSES
        if kind.endswith("expression"):  # run as a statement: `f(e)` of `if (f(e), t)` (`branches.split`)
            return _DECIDES if self._expression(node, depth + 1) else _PASSES
        if kind == "if_statement":
            condition = node.child_by_field_name("condition")
            if condition is not None and self._expression(condition, depth + 1):
                return _DECIDES
            consequence, alternative = node.child_by_field_name("consequence"), node.child_by_field_name("alternative")
            arm = named(alternative)[:1] if alternative is not None else []
            arms = [self._statement(a, depth + 1) for a in [consequence, *arm] if a is not None]
            if _ENDS in arms:
                return _ENDS
            return _DECIDES if arms == [_DECIDES, _DECIDES] else _PASSES
        if self._ending and kind in _ENTERED and self._enters_to_end(node, depth):
            return _ENDS
        # a loop, `switch`, `try`, label, declaration: unclear, decides if it holds one
        return _DECIDES if self._holds(node) else _PASSES

    def _enters_to_end(self, node: Node, depth: int) -> bool:
        """Whether a loop's body, a `switch` case (and the cases it falls into) or a label's
        statement, entered as an `if`'s arm is, certainly reaches an ending `return` on a path
        that meets no disposition; the heads evaluated before it (a loop's, the `switch` value and
        every case test) holding none."""
        if node.type == "switch_statement":
            body = node.child_by_field_name("body")
            cases = named(body) if body is not None else []
            heads = [node.child_by_field_name("value"), *(case.child_by_field_name("value") for case in cases)]
            if any(head is not None and self._holds(head) for head in heads):
                return False
            statements = [(at, s) for at, case in enumerate(cases) for s in case.children_by_field_name("body")]
            return any(self._sequence([s for at, s in statements if at >= first], depth + 1) == _ENDS
                       for first in range(len(cases)))
        inner = node.child_by_field_name("body")
        heads = [node.child_by_field_name(name) for name in _HEADS.get(node.type, ())]
        return inner is not None and not any(head is not None and self._holds(head) for head in heads) \
            and self._statement(inner, depth + 1) == _ENDS

    def _expression(self, node: Node, depth: int) -> bool:
        if node.id in self._ids:  # `log?.error(e)` is `log == null ? undefined : log.error(e)`: it may not run
            return not _optional_call(node)
        kind = node.type
        if depth > _DEPTH:
            return self._holds(node)
        if kind in _WRAPPING:
            inner = named(node)
            return bool(inner) and self._expression(inner[-1], depth + 1)
        if kind == "sequence_expression":
            return any(self._expression(e, depth + 1) for e in named(node))
        if kind == "binary_expression" and operator_of(node) in _SHORT_CIRCUIT:
            left = node.child_by_field_name("left")
            return left is not None and self._expression(left, depth + 1)
        if kind == "ternary_expression":
            condition = node.child_by_field_name("condition")
            consequence, alternative = node.child_by_field_name("consequence"), node.child_by_field_name("alternative")
            if condition is not None and self._expression(condition, depth + 1):
                return True
            return (consequence is not None and alternative is not None and self._expression(consequence, depth + 1)
                    and self._expression(alternative, depth + 1))
        return self._holds(node)


#: what an optional chain passes through to its start: `a?.b.c(e)`, `a?.b().c(e)` and `a?.[k](e)` skip it all
_CHAINED = frozenset({"member_expression", "subscript_expression", "call_expression"})


def _optional_call(node: Node) -> bool:
    """Whether a call is made only when something is not nullish: `f?.(e)`, `log?.error(e)`,
    `this.log?.child.error(e)` (a `?.` of its callee's chain, not inside parentheses)."""
    current: Node | None = node
    for _ in range(_DEPTH):
        if current is None or current.type not in _CHAINED:
            return False
        if any(child.type == "optional_chain" for child in current.children):
            return True
        current = current.child_by_field_name("function" if current.type == "call_expression" else "object")
    return False


def undefined_arm(value: Node, depth: int = 0) -> bool:
    """Whether a `?:` returned has an arm, at any depth (or a sequence's last member), that is
    `undefined` or `void x`: esbuild writes a promise handler's `if (c) return; return f()` as
    `return c ? void 0 : f()`, whose first arm ends it as reaching its end does."""
    value = without_parentheses(value)
    if value.type == "sequence_expression" and depth < _DEPTH:
        members = named(value)
        return bool(members) and undefined_arm(members[-1], depth + 1)
    if value.type != "ternary_expression" or depth >= _DEPTH:
        return False
    for arm in (value.child_by_field_name("consequence"), value.child_by_field_name("alternative")):
        inner = without_parentheses(arm) if arm is not None else None
        if inner is not None and (inner.type == "undefined" or undefined_arm(inner, depth + 1) or (
                inner.type == "unary_expression" and operator_of(inner) == "void")):
            return True
    return False
