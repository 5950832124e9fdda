"""What happens to a Python callsite's value next: the immediate consumer and its role."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import fields

import libcst as cst

from analyzer.model import Consumer, ConsumerRole

#: wrappers that are syntax, not consumers: the consumer is their parent
_WRAPPERS = (cst.Arg, cst.Element, cst.StarredElement, cst.DictElement, cst.StarredDictElement,
             cst.ComparisonTarget, cst.SubscriptElement, cst.Index, cst.WithItem, cst.AssignTarget,
             cst.FormattedStringExpression, cst.Decorator)
_ROLE_BY_PARENT: dict[type, ConsumerRole] = {
    cst.Return: "return",
    cst.Await: "await",
    cst.Yield: "yield",
    cst.Expr: "statement",
    cst.Assign: "assign",
    cst.AnnAssign: "assign",
    cst.AugAssign: "assign",
    cst.NamedExpr: "assign",
    cst.Dict: "property",
    cst.BinaryOperation: "operand",
    cst.UnaryOperation: "operand",
    cst.Comparison: "operand",
    cst.Attribute: "operand",
    cst.Subscript: "operand",
    cst.FormattedString: "operand",
    cst.Call: "argument",
}
#: `future.set_exception(e)` hands the error to whoever awaits: the Python reject
_REJECT_METHODS = frozenset({"set_exception"})


def consumer_of(node: cst.CSTNode, path: Sequence[cst.CSTNode]) -> Consumer:
    """`path` holds the node's ancestors, outermost first (a `chain` is innermost first)."""
    if not path:
        return Consumer(node="Module", relation="body", role="statement")
    parent, relation = _holder(node, path, len(path) - 1)
    return Consumer(node=type(parent).__name__, relation=relation, role=_role(node, path))


def _holder(node: cst.CSTNode, path: Sequence[cst.CSTNode], at: int) -> tuple[cst.CSTNode, str]:
    """The first non-wrapper ancestor and the slot (through wrappers) that holds `node`."""
    child, parent = node, path[at]
    slots: list[str] = []
    while isinstance(parent, _WRAPPERS) and at > 0:
        slots.append(_slot(parent, child))
        child, at = parent, at - 1
        parent = path[at]
    slot = _slot(parent, child)
    inner = [
        p
        for p in reversed(slots)
        if p not in ("value", "target", "item", "comparator", "slice", "expression", "decorator")
    ]
    return parent, ".".join([slot, *inner])


def _slot(parent: cst.CSTNode, child: cst.CSTNode) -> str:
    for item in fields(parent):
        value = getattr(parent, item.name)
        if value is child:
            return item.name
        if isinstance(value, (tuple, list)):
            for index, element in enumerate(value):
                if element is child:
                    return f"{item.name}[{index}]"
    return "child"


def _role(node: cst.CSTNode, path: Sequence[cst.CSTNode]) -> ConsumerRole:
    """Role of the effective consumer: `x if c else y` branches and `or`/`and` operands pass
    the value through unchanged."""
    child, at = node, len(path) - 1
    while at >= 0:
        parent = path[at]
        if isinstance(parent, cst.IfExp) and parent.test is not child:
            child, at = parent, at - 1
            continue
        if isinstance(parent, cst.BooleanOperation):
            child, at = parent, at - 1
            continue
        break
    if at < 0:
        return "statement"
    parent = path[at]
    if isinstance(parent, cst.Raise):
        return "raise" if parent.exc is child else "other"
    if isinstance(parent, cst.Lambda):
        return "return" if parent.body is child else "other"
    if isinstance(parent, cst.Arg) and at > 0:
        call = path[at - 1]
        if isinstance(call, cst.Call):
            func = call.func
            if isinstance(func, cst.Attribute) and func.attr.value in _REJECT_METHODS:
                return "reject"
        return "argument"
    if isinstance(parent, (cst.Element, cst.StarredElement)):
        return "other"
    if isinstance(parent, cst.DictElement):
        return "property" if parent.value is child else "other"
    if isinstance(parent, (cst.Assign, cst.AnnAssign, cst.AugAssign, cst.NamedExpr)):
        return "assign" if getattr(parent, "value", None) is child else "other"
    if isinstance(parent, cst.Call):
        return "operand"  # the error value itself is called
    if isinstance(parent, (cst.ComparisonTarget, cst.FormattedStringExpression, cst.SubscriptElement, cst.Index)):
        return "operand"
    return _ROLE_BY_PARENT.get(type(parent), "other")
