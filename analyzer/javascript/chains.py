"""Strings a program builds, read as a minifier leaves them (docs/corpus.md, "Signatures"): a
template, a `+` chain and a `.concat` chain are read alike, as their pieces left to right with
adjacent literal text joined, so all three give the same tokens; with a package's `constants`, a
hole that names one is read as its value's text (docs/corpus.md, "Constants")."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from tree_sitter import Node

from analyzer.javascript.syntax import same, without_parentheses

_ESCAPE = re.compile(r"\\(u\{[0-9a-fA-F]+\}|u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|0(?![0-9])|\r\n|[\s\S])")
_SIMPLE = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v", "0": "\0", "\n": "", "\r\n": "",
           "\r": "", "\u2028": "", "\u2029": ""}
#: literal text that is never a token
SKIPPED = frozenset({"", "use strict"})
#: a piece of a built string that is not literal text
HOLE = None


def decode_string(raw: str) -> str:
    """The value of a JavaScript string literal's body (no quotes), escapes decoded."""
    if "\\" not in raw:
        return raw
    return _ESCAPE.sub(_unescape, raw)


def _unescape(found: re.Match[str]) -> str:
    code = found.group(1)
    if code in _SIMPLE:
        return _SIMPLE[code]
    if code[0] == "u" or (code[0] == "x" and len(code) == 3):
        digits = code[2:-1] if code.startswith("u{") else code[1:]
        try:
            return chr(int(digits, 16))
        except (ValueError, OverflowError):
            return code
    return code


def string_value(node: Node, source: bytes) -> str:
    return decode_string(source[node.start_byte + 1:node.end_byte - 1].decode("utf-8", "replace"))


class Chains:
    """The literal text of every outermost template, `+` chain and string `.concat` chain of a
    unit. `folded` collects the ids of the nodes read here (their strings, templates and the
    `concat` names), which are not tokens of their own; `holes` the names found in holes."""

    def __init__(self, source: bytes, constants: Mapping[str, tuple[str, bool]] | None = None,
                 concat: bool = True) -> None:
        """`constants`: name -> (the text of its value, whether the value is a string);
        `concat`: whether `.concat` chains are read (else each `.concat` is a call like another)."""
        self.source = source
        self.concat = concat
        #: whether a string `.concat` chain was read
        self.concats = False
        self.constants = constants or {}
        self.folded: set[int] = set()
        self.holes: set[str] = set()
        self._concat: dict[int, bool] = {}

    def tokens(self, pluses: list[Node], concats: list[Node], templates: list[Node]) -> Iterable[tuple[int, str]]:
        """(start of the outermost expression, literal text) of every chain."""
        for top in (*pluses, *(c for c in concats if self.is_string_concat(c)), *templates):
            if self._inside_chain(top):
                continue  # read with the chain around it
            text: list[str] = []
            for piece in [*self._pieces(top), HOLE]:
                if piece is not HOLE:
                    text.append(piece)
                elif text:
                    value = "".join(text)
                    if value not in SKIPPED:
                        yield top.start_byte, value
                    text = []

    def is_string_concat(self, call: Node) -> bool:
        """`"a".concat(...)`, `` `a`.concat(...) `` or such a call's `.concat(...)` (iteratively:
        a chain of `.concat` calls can be long)."""
        if not self.concat:
            return False
        calls: list[Node] = []
        node = call
        while True:
            known = self._concat.get(node.id)
            if known is not None:
                found = known
                break
            calls.append(node)
            receiver = _concat_receiver(node)
            if receiver is None or receiver.type != "call_expression":
                found = receiver is not None and receiver.type in ("string", "template_string")
                break
            node = receiver
        for node in calls:
            self._concat[node.id] = found
        return found

    def _inside_chain(self, node: Node) -> bool:
        child, parent = node, node.parent
        while parent is not None and parent.type == "parenthesized_expression":
            child, parent = parent, parent.parent
        if parent is None:
            return False
        if parent.type == "binary_expression":
            return is_plus(parent)
        if parent.type == "member_expression" and node.type in ("call_expression", "template_string"):
            call = parent.parent
            receiver = parent.child_by_field_name("object")
            return call is not None and call.type == "call_expression" and receiver is not None \
                and receiver.id == child.id and same(call.child_by_field_name("function"), parent) \
                and self.is_string_concat(call)
        return False

    def _pieces(self, top: Node) -> list[str | None]:
        pieces: list[str | None] = []
        text = False  # some text came before: a number is text too
        stack: list[tuple[Node, bool]] = [(top, False)]  # (node, an argument of `.concat`)
        while stack:  # operands left to right, iteratively: minified chains can be long
            node, argument = stack.pop()
            node = without_parentheses(node)
            if node.type == "string" and not left_out(node):
                self.folded.add(node.id)
                pieces.append(string_value(node, self.source))
            elif argument:
                pieces.append(self._hole(node, True))  # an argument is a template's substitution
            elif node.type == "binary_expression" and is_plus(node):
                left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
                stack.extend((n, False) for n in (right, left) if n is not None)
                continue
            elif node.type == "template_string":
                self.folded.add(node.id)
                pieces.extend(self._template_pieces(node))
                text = True
            elif node.type == "call_expression" and self.is_string_concat(node):
                callee = node.child_by_field_name("function")
                arguments = node.child_by_field_name("arguments")
                assert callee is not None and arguments is not None
                name, receiver = callee.child_by_field_name("property"), callee.child_by_field_name("object")
                assert name is not None and receiver is not None
                self.folded.add(name.id)
                self.concats = True
                stack.extend((a, True) for a in reversed(arguments.named_children) if a.type != "comment")
                stack.append((receiver, False))
                continue
            else:
                pieces.append(self._hole(node, text))
            text = text or pieces[-1] is not HOLE
        return pieces

    def _template_pieces(self, node: Node) -> Iterable[str | None]:
        at = node.start_byte + 1
        for child in node.named_children:
            if child.type == "template_substitution":
                yield decode_string(self.source[at:child.start_byte].decode("utf-8", "replace"))
                inner = [n for n in child.named_children if n.type != "comment"]
                yield self._hole(without_parentheses(inner[0]), True) if len(inner) == 1 else HOLE
                at = child.end_byte
        yield decode_string(self.source[at:node.end_byte - 1].decode("utf-8", "replace"))

    def _hole(self, node: Node, text: bool) -> str | None:
        """A constant's value where it is text (`text`: a number is), else a hole."""
        if node.type != "identifier":
            return HOLE
        name = (node.text or b"").decode("utf-8", "replace")
        self.holes.add(name)
        found = self.constants.get(name)
        return found[0] if found is not None and (text or found[1]) else HOLE


def is_plus(node: Node) -> bool:
    operator = node.child_by_field_name("operator")
    return operator is not None and operator.type == "+"


def _concat_receiver(call: Node) -> Node | None:
    """The receiver of `receiver.concat(arguments)`, without its parentheses."""
    callee = call.child_by_field_name("function")
    arguments = call.child_by_field_name("arguments")
    if callee is None or callee.type != "member_expression" or arguments is None or arguments.type != "arguments":
        return None
    name, receiver = callee.child_by_field_name("property"), callee.child_by_field_name("object")
    if name is None or name.text != b"concat" or receiver is None:
        return None
    return without_parentheses(receiver)


def left_out(node: Node) -> bool:
    """A `typeof` comparison operand (not text joined to a `typeof` by `+`), or the relative path
    given to `require`/`import()` (a package's name is a package-side variant: analyzer/javascript/lowered.py)."""
    parent = node.parent
    if parent is None:
        return False
    if parent.type == "binary_expression":
        operator = parent.child_by_field_name("operator")
        return operator is not None and operator.type in _EQUALITY and any(
            c.type == "unary_expression" and c.child(0) is not None and c.child(0).type == "typeof"
            for c in parent.named_children)
    if parent.type == "arguments" and parent.named_child_count == 1:
        call = parent.parent
        callee = call.child_by_field_name("function") if call is not None else None
        if callee is not None and callee.type in ("identifier", "import") and callee.text in (b"require", b"import"):
            return source_is_relative(node)
    return False


#: the operators of a `typeof` comparison, whose string operand builds change (`typeof x > "u"`)
_EQUALITY = frozenset({"==", "===", "!=", "!==", "<", ">"})


def source_is_relative(node: Node) -> bool:
    text = node.text or b""
    return text[1:3] == b"./" or text[1:4] == b"../"
