"""The message argument: shape (`model.MessageShape`), static text, template, comparisonKey."""

from __future__ import annotations

import re

from tree_sitter import Node

from analyzer.javascript.syntax import IDENTIFIER_TYPES, text, without_parentheses
from analyzer.model import MISSING, Message, MessageShape, expression_key

_WALK_LIMIT = 8192
_SIMPLE_ESCAPES = {"n": "\n", "r": "\r", "t": "\t", "b": "\b", "f": "\f", "v": "\v", "0": "\0"}
_SURROGATE = re.compile("[\ud800-\udfff]")
_ESCAPE = re.compile(
    r"\\(u\{[0-9A-Fa-f]+\}|u[0-9A-Fa-f]{4}|x[0-9A-Fa-f]{2}|\r\n|[0-3][0-7]{0,2}|[4-7][0-7]?|[\s\S])"
)


def message_of(argument: Node | None) -> Message:
    if argument is None:
        return MISSING
    node = without_parentheses(argument)
    parts = _literal_parts(node)
    if parts is not None:
        if all(isinstance(part, str) for part in parts):
            literal = "".join(parts)  # type: ignore[arg-type]
            return Message(shape="string", text=literal, template=None, comparisonKey=literal)
        if any(isinstance(part, str) for part in parts):
            template = "".join(part if isinstance(part, str) else "${}" for part in parts)
            return Message(shape="template", text=None, template=template, comparisonKey=template)
    shape = _shape(node)
    return Message(shape=shape, text=None, template=None, comparisonKey=_expression_key(shape, node))


def _shape(node: Node) -> MessageShape:
    kind = node.type
    if kind == "call_expression":
        callee = without_parentheses(node.child_by_field_name("function") or node)
        return "call" if callee.type == "identifier" else "member-or-call"
    if kind == "identifier":
        return "identifier"
    if kind in ("member_expression", "subscript_expression"):
        return "member-or-call"
    if kind == "ternary_expression":
        return "conditional"
    if kind == "array":
        return "array"
    return "expression"


def _literal_parts(node: Node) -> list[str | None] | None:
    """Pieces of a string/template/`+` chain: str for static text, None for a hole.

    Returns None when the node is not built from string pieces at all.
    """
    kind = node.type
    if kind == "string":
        return [cook(text(node)[1:-1])]
    if kind == "template_string":
        return _template_parts(node)
    if kind != "binary_expression":
        return None
    operator = node.child_by_field_name("operator")
    if operator is None or operator.type != "+":
        return None
    # iterative over the left spine: `"a" + b + "c" + ...` nests to the left
    spine: list[Node] = []
    current = node
    while current.type == "binary_expression" and _is_plus(current):
        right = current.child_by_field_name("right")
        if right is None:
            return None
        spine.append(right)
        current = without_parentheses(current.child_by_field_name("left") or current)
    spine.append(current)
    parts: list[str | None] = []
    has_text = False
    for piece in reversed(spine):
        piece = without_parentheses(piece)
        inner = _literal_parts(piece) if piece.type in ("string", "template_string") else None
        if inner is None:
            parts.append(None)
        else:
            has_text = True
            parts.extend(inner)
    return parts if has_text else None


def _is_plus(node: Node) -> bool:
    operator = node.child_by_field_name("operator")
    return operator is not None and operator.type == "+"


def _template_parts(node: Node) -> list[str | None]:
    parts: list[str | None] = []
    for child in node.named_children:
        if child.type == "template_substitution":
            parts.append(None)
        elif child.type in ("string_fragment", "escape_sequence"):
            parts.append(cook(text(child)))
    if not parts:
        parts.append("")
    return parts


def cook(raw: str) -> str:
    """The value of JavaScript string source text; escaped surrogate pairs are joined, lone ones become U+FFFD."""
    if "\\" not in raw:
        return raw
    value = _ESCAPE.sub(_unescape, raw)
    if _SURROGATE.search(value):
        value = value.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
    return value


def _unescape(match: re.Match[str]) -> str:
    body = match.group(1)
    if body in _SIMPLE_ESCAPES:
        return _SIMPLE_ESCAPES[body]
    if body[0] in "01234567":  # legacy octal escape (sloppy-mode strings)
        return chr(int(body, 8))
    if body in ("\n", "\r\n", "\r", "\u2028", "\u2029"):
        return ""  # line continuation
    if body.startswith("u{"):
        code = int(body[2:-1], 16)
        return chr(code) if code <= 0x10FFFF else match.group(0)
    if body[0] in "ux" and len(body) > 1:
        return chr(int(body[1:], 16))
    return body


def _expression_key(shape: MessageShape, node: Node) -> str:
    """`<shape:normalized source>`: identifiers become `_`, property names and literals stay."""
    if node.end_byte - node.start_byte > _WALK_LIMIT:
        return f"<{shape}:large {node.type}>"
    return expression_key(shape, normalize_names(node))


def normalize_names(node: Node) -> str:
    """The node's source with every identifier replaced by `_` (iterative walk, small subtrees)."""
    source = node.text or b""
    base = node.start_byte
    pieces: list[bytes] = []
    cursor_at = 0
    stack = [node]
    spans: list[tuple[int, int]] = []
    while stack:
        current = stack.pop()
        if current.type in IDENTIFIER_TYPES or current.type == "private_property_identifier":
            spans.append((current.start_byte - base, current.end_byte - base))
            continue
        stack.extend(current.named_children)
    for start, end in sorted(spans):
        pieces.append(source[cursor_at:start])
        pieces.append(b"_")
        cursor_at = end
    pieces.append(source[cursor_at:])
    return b"".join(pieces).decode("utf-8", "replace")
