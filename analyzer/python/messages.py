"""The message argument of a Python callsite: shape (`model.MessageShape`), text, template, key."""

from __future__ import annotations

import ast
import re

import libcst as cst

from analyzer.model import MISSING, Message, MessageShape, expression_key
from analyzer.python.tokens import expression_key as normalized_expression

_HOLE = "${}"
_PERCENT = re.compile(r"%(?:\([^)]*\))?[-#0 +]*(?:\*|\d+)?(?:\.(?:\*|\d+))?[hlL]?([diouxXeEfFgGcrsa%])")
_BRACES = re.compile(r"\{\{|\}\}|\{[^{}]*\}")
_SURROGATE = re.compile("[\ud800-\udfff]")


def message_of(argument: cst.BaseExpression | None, source: str) -> Message:
    """`source` is the argument's own text (sliced from the unit by its span)."""
    if argument is None:
        return MISSING
    parts = _literal_parts(argument)
    if parts is not None:
        if all(isinstance(part, str) for part in parts):
            literal = "".join(parts)  # type: ignore[arg-type]
            return Message(shape="string", text=literal, template=None, comparisonKey=literal)
        template = "".join(part if isinstance(part, str) else _HOLE for part in parts)
        return Message(shape="template", text=None, template=template, comparisonKey=template)
    formatted = _formatted(argument)
    if formatted is not None:
        return Message(shape="template", text=None, template=formatted, comparisonKey=formatted)
    shape = _shape(argument)
    return Message(
        shape=shape, text=None, template=None, comparisonKey=expression_key(shape, normalized_expression(source))
    )


def _shape(node: cst.BaseExpression) -> MessageShape:
    if isinstance(node, cst.Name):
        return "identifier"
    if isinstance(node, cst.Call):
        return "call" if isinstance(node.func, cst.Name) else "member-or-call"
    if isinstance(node, (cst.Attribute, cst.Subscript)):
        return "member-or-call"
    if isinstance(node, cst.IfExp):
        return "conditional"
    if isinstance(node, (cst.List, cst.Tuple)):
        return "array"
    return "expression"


def _literal_parts(node: cst.BaseExpression) -> list[str | None] | None:
    """Static text (str) and holes (None) of a str literal, an implicit concatenation or an
    f-string; None when the node is not one (bytes literals are not messages' text)."""
    if isinstance(node, cst.SimpleString):
        value = _string_value(node.value)
        return [value] if value is not None else None
    if isinstance(node, cst.FormattedString):
        return _fstring_parts(node)
    if isinstance(node, cst.ConcatenatedString):
        left, right = _literal_parts(node.left), _literal_parts(node.right)
        return left + right if left is not None and right is not None else None
    return None


def _string_value(token: str) -> str | None:
    try:
        value = ast.literal_eval(token)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return None
    return _without_surrogates(value) if isinstance(value, str) else None


def _without_surrogates(text: str) -> str:
    """`"\\udc80"` is a lone surrogate, which no UTF-8 output can hold: U+FFFD stands for each
    (the JavaScript frontend does the same for lone surrogate escapes)."""
    return _SURROGATE.sub("\ufffd", text) if not text.isascii() else text


def _fstring_parts(node: cst.FormattedString) -> list[str | None]:
    raw = "r" in node.prefix.lower()
    parts: list[str | None] = []
    for part in node.parts:
        if isinstance(part, cst.FormattedStringText):
            text = part.value.replace("{{", "{").replace("}}", "}")
            parts.append(text if raw else _without_surrogates(_unescape(text)))
        else:
            parts.append(None)
    return parts or [""]


def _unescape(text: str) -> str:
    if "\\" not in text:
        return text
    try:
        return text.encode("latin-1", "backslashreplace").decode("unicode_escape")
    except UnicodeDecodeError:
        return text


def _formatted(node: cst.BaseExpression) -> str | None:
    """The template of `"..." % x` and `"...".format(...)` on a literal, else None."""
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Modulo):
        parts = _literal_parts(node.left)
        if parts is not None and all(isinstance(p, str) for p in parts):
            return _PERCENT.sub(lambda m: "%" if m.group(1) == "%" else _HOLE, "".join(parts))  # type: ignore[arg-type]
    if (
        isinstance(node, cst.Call)
        and isinstance(node.func, cst.Attribute)
        and node.func.attr.value == "format"
    ):
        parts = _literal_parts(node.func.value)
        if parts is not None and all(isinstance(p, str) for p in parts):
            return _BRACES.sub(_brace, "".join(parts))  # type: ignore[arg-type]
    return None


def _brace(match: re.Match[str]) -> str:
    token = match.group()
    return token[0] if token in ("{{", "}}") else _HOLE

