"""Literals of Python source as a handler's tests compare with them (docs/reference.md, "Python")."""

from __future__ import annotations

import re

import libcst as cst

from analyzer.python.syntax import dotted

#: what `literal` gives for a node that is no literal (and the handlers' reader for no field)
NOT_LITERAL = object()
_CONSTANT = re.compile(r"[A-Z][A-Z0-9_]*")


def literal(node: cst.BaseExpression) -> object:
    """A literal: a string without escapes, a number, True/False/None, a `CAPITALS` constant; else `NOT_LITERAL`."""
    if isinstance(node, cst.SimpleString):
        prefix = node.prefix.lower()
        if "\\" in node.value or prefix not in ("", "u", "r"):
            return NOT_LITERAL
        return node.raw_value
    if isinstance(node, cst.Integer):
        try:
            return int(node.value.replace("_", ""), 0)
        except ValueError:
            return NOT_LITERAL
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus) and \
            isinstance(node.expression, cst.Integer):
        value = literal(node.expression)
        return -value if isinstance(value, int) else NOT_LITERAL
    if isinstance(node, cst.Name) and node.value in ("True", "False", "None"):
        return {"True": True, "False": False, "None": None}[node.value]
    written = dotted(node) if isinstance(node, (cst.Name, cst.Attribute)) else None
    if written is not None and _CONSTANT.fullmatch(written.rsplit(".", 1)[-1]):
        return written
    return NOT_LITERAL
