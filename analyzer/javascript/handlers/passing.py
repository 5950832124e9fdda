"""Where a value goes as the handler walks read a body: nowhere that passes it on, discarded or
returned (a call there is given what it is given for good: `cb(e);`, `return cb(e)`, `x && cb(e)`,
`cb(e).catch(noop)`), or thrown (docs/reference.md, `callback`)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from itertools import repeat

from tree_sitter import Node

from analyzer.javascript.handlers.shapes import operator_of
from analyzer.javascript.syntax import same, symbols_of, without_parentheses

#: expressions whose operands are where the expression is (`(a, cb(e))`, `await cb(e)`; `yield cb(e)`, whose
#: value the generator's consumer gets, as a return's caller does)
_PASS_POSITION = frozenset({"parenthesized_expression", "sequence_expression", "await_expression",
                            "yield_expression"})
#: statements whose expression's value is discarded or returned
_STATEMENT_OF_VALUE = frozenset({"expression_statement", "return_statement"})
_SHORT_CIRCUIT = frozenset({"&&", "||", "??"})
#: the nodes whose children the walk may find discarded or returned (all others' are not)
_PASSING = _PASS_POSITION | _STATEMENT_OF_VALUE | {"unary_expression", "throw_statement", "binary_expression",
                                                   "ternary_expression", "if_statement", "switch_statement",
                                                   "call_expression", "member_expression"}
PASSING_SYMBOLS = symbols_of(_PASSING)
#: a promise's methods: in `f(e).catch(noop)`, discarded or returned, `f(e)` is handed on as `f(e);` is
_CHAIN_METHODS = frozenset({b"catch", b"then", b"finally"})
#: nowhere that passes it on, discarded or returned, thrown (a sequence's last member is thrown, the
#: others discarded), or the callee of a discarded `.catch(...)`, `.then(...)`, `.finally(...)`
KEPT_VALUE, CONSUMED, _THROWN, _CHAINED = 0, 1, 2, 3
_NOT_CONSUMED = repeat(KEPT_VALUE)


def push_children(node: Node, symbol: int, consumed: int,
                   extend: Callable[[Iterable[tuple[Node, int]]], None]) -> None:
    """Hands the walk `node`'s children, each with where its value goes (`CONSUMED`, ...)."""
    if symbol not in PASSING_SYMBOLS:  # most nodes: what they hold is neither discarded nor returned
        extend(zip(node.named_children, _NOT_CONSUMED))
        return
    kind, children = node.type, node.named_children
    if kind == "sequence_expression" and consumed == _THROWN:
        # `throw (report(e), e)`, `throw c ? e : (log(x), new Error(m))`: all but the last are discarded
        extend([(m, CONSUMED) for m in children[:-1]] + [(m, _THROWN) for m in children[-1:]])
    elif kind == "unary_expression" and ((op := operator_of(node)) == "void" or (op == "!" and consumed == CONSUMED
                                         and (node.parent or node).type == "expression_statement")):  # `!f(e);` too
        extend((child, CONSUMED) for child in children)
    elif kind in _PASS_POSITION:
        extend((child, consumed) for child in children)
    elif kind in _STATEMENT_OF_VALUE:
        extend((child, CONSUMED) for child in children)
    elif kind == "throw_statement":
        extend((child, _THROWN) for child in children)
    elif kind == "call_expression":
        callee = node.child_by_field_name("function")
        chained = consumed == CONSUMED and callee is not None and callee.type == "member_expression" and (
            (method := callee.child_by_field_name("property")) is not None and method.text in _CHAIN_METHODS)
        extend((child, _CHAINED if chained and same(child, callee) else KEPT_VALUE) for child in children)
    elif kind == "member_expression":
        owner = node.child_by_field_name("object") if consumed == _CHAINED else None
        extend((child, CONSUMED if owner is not None and same(child, owner) else KEPT_VALUE) for child in children)
    elif kind in ("if_statement", "switch_statement"):
        extend(_condition_sequence(node))
    elif kind == "binary_expression" and len(children) == 2 and operator_of(node) in _SHORT_CIRCUIT:
        extend(((children[0], KEPT_VALUE), (children[1], consumed)))
    elif kind == "ternary_expression" and len(children) == 3:
        extend(((children[0], KEPT_VALUE), (children[1], consumed), (children[2], consumed)))
    else:
        extend(zip(children, _NOT_CONSUMED))


def _condition_sequence(statement: Node) -> list[tuple[Node, int]]:
    """An `if`'s or a `switch`'s children for the walk: in `if (cb(e), t)` and `switch (cb(e), v)`, how
    minifiers write `cb(e); if (t)`, the members before the last are discarded; all else is not."""
    condition = statement.child_by_field_name("condition" if statement.type == "if_statement" else "value")
    inner = without_parentheses(condition) if condition is not None else None
    if inner is None or inner.type != "sequence_expression":
        return [(child, KEPT_VALUE) for child in statement.named_children]
    members = inner.named_children
    rest = [(child, KEPT_VALUE) for child in statement.named_children if not same(child, condition)]
    return rest + [(m, CONSUMED) for m in members[:-1]] + [(m, KEPT_VALUE) for m in members[-1:]]
