"""Function signatures that survive minification (docs/corpus.md, "Signatures").

Minifiers rename every local, rewrite syntax (`!0`, comma sequences, `if` to `?:` with the
branches swapped, `new` dropped from `Error`) and fold constants, but they keep what a
program says to the outside world: string literals, property names and regular
expressions. A function's signature is the **multiset** of those tokens in its whole text
(nested functions included), so it does not depend on the order a minifier leaves them in:

- a string literal's decoded value (quotes and escapes do not matter: `'a\\'b'` is `"a'b"`),
  a template's literal chunks between substitutions (esbuild turns `"a" + x` into `` `a${x}` ``);
- property names after `.`, object and class keys, shorthand properties and patterns (a
  minifier writes `{a: b}` for `{a}` once it renames `a`, and `x.a` for `x["a"]`): the name;
- a regular expression's text.

Left out, because bundlers or minifiers change them: numbers and booleans; `"use strict"`;
the operand compared with `typeof x` (`"undefined"` becomes `"u"`); the relative module path
given to `require`/`import` (the bundler replaces the call); private `#names` (renamed).

The multiset is hashed additively: each distinct token has a 64-bit hash, a function's key is
the sum of its tokens' hashes (mod 2**64) mixed with their count. With the tokens of a unit in
source order and their prefix sums, the key of any function is two subtractions, so every
function of a 27 MB bundle costs O(1) once the tokens are found (one query, compiled once).
"""

from __future__ import annotations

import bisect
import hashlib
import re
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import accumulate

from tree_sitter import Node, Query, QueryCursor, Tree

from analyzer.javascript.syntax import FUNCTION_TYPES, LANGUAGE

_MASK = (1 << 64) - 1
#: a token's weight is its length up to this: a long message says no more than a sentence
_WEIGHT_CAP = 16
#: what a signature needs to be distinctive: tokens and summed weight (docs/corpus.md)
MIN_TOKENS = 4
MIN_WEIGHT = 32

_QUERY = Query(
    LANGUAGE,
    """
    (string) @string
    (template_string) @template
    (property_identifier) @name
    (shorthand_property_identifier) @name
    (shorthand_property_identifier_pattern) @name
    (regex) @regex
    (binary_expression operator: "+") @plus
    [(function_declaration) (generator_function_declaration) (function_expression)
     (generator_function) (arrow_function) (method_definition)] @function
    """,
)
_ESCAPE = re.compile(r"\\(u\{[0-9a-fA-F]+\}|u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|0(?![0-9])|\r\n|[\s\S])")
_SIMPLE = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v", "0": "\0", "\n": "", "\r\n": "",
           "\r": "", "\u2028": "", "\u2029": ""}
_SKIPPED = frozenset({"", "use strict"})


@dataclass(frozen=True, slots=True)
class FunctionSignature:
    """The signature of one function (or, with `kind` "module", of a whole file)."""

    #: byte span of the function in its unit or file
    start: int
    end: int
    #: 64-bit key of the token multiset (sum of token hashes, mixed with the count)
    key: int
    #: number of tokens (with repeats)
    tokens: int
    #: summed token weights (each token's length, capped)
    weight: int
    #: 1-based line of the function's start
    line: int
    #: tree-sitter type of the function, or "program"
    kind: str

    @property
    def distinctive(self) -> bool:
        return self.tokens >= MIN_TOKENS and self.weight >= MIN_WEIGHT


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


def token_hash(token: str, cache: dict[str, int]) -> int:
    found = cache.get(token)
    if found is None:
        digest = hashlib.blake2b(
            token.encode("utf-8", "surrogatepass"), digest_size=8, person=b"erratlas-sig1"
        ).digest()
        found = cache[token] = int.from_bytes(digest, "little")
    return found


def mix(total: int, count: int) -> int:
    """The key of a multiset from its hash sum and size (so that {} and a zero sum differ)."""
    digest = hashlib.blake2b(total.to_bytes(8, "little") + count.to_bytes(4, "little"), digest_size=8).digest()
    return int.from_bytes(digest, "little")


class UnitTokens:
    """The signature tokens of one parsed source and its functions, in source order."""

    def __init__(self, tree: Tree, source: bytes, cache: dict[str, int] | None = None) -> None:
        self._cache = cache if cache is not None else {}
        captures = QueryCursor(_QUERY).captures(tree.root_node)
        tokens: list[tuple[int, int, int]] = []  # (start, hash, weight)
        folded: set[int] = set()
        for start, token in _concatenations(captures.get("plus", []), source, folded):
            tokens.append((start, token_hash(token, self._cache), min(len(token), _WEIGHT_CAP)))
        for name, node in (
            (n, node) for n, nodes in captures.items() if n not in ("function", "plus") for node in nodes
        ):
            if node.id in folded:
                continue
            for start, token in _tokens(name, node, source):
                tokens.append((start, token_hash(token, self._cache), min(len(token), _WEIGHT_CAP)))
        tokens.sort()
        self._starts = [t[0] for t in tokens]
        self._sums = list(accumulate((t[1] for t in tokens), initial=0))
        self._weights = list(accumulate((t[2] for t in tokens), initial=0))
        self.functions: list[Node] = sorted(captures.get("function", []), key=lambda n: (n.start_byte, -n.end_byte))
        self.size = len(source)
        self.lines = tree.root_node.end_point.row + 1

    def signature(self, start: int, end: int, line: int, kind: str) -> FunctionSignature:
        low = bisect.bisect_left(self._starts, start)
        high = bisect.bisect_left(self._starts, end)
        total = (self._sums[high] - self._sums[low]) & _MASK
        return FunctionSignature(start, end, mix(total, high - low), high - low,
                                 self._weights[high] - self._weights[low], line, kind)

    def function_signatures(self) -> list[FunctionSignature]:
        return [self.signature(n.start_byte, n.end_byte, n.start_point.row + 1, n.type) for n in self.functions]

    def whole(self) -> FunctionSignature:
        return self.signature(0, self.size, 1, "program")


def _tokens(capture: str, node: Node, source: bytes) -> Iterable[tuple[int, str]]:
    start, end = node.start_byte, node.end_byte
    if capture == "name" or capture == "regex":
        yield start, source[start:end].decode("utf-8", "replace")
    elif capture == "string":
        if _left_out(node):
            return
        value = decode_string(source[start + 1:end - 1].decode("utf-8", "replace"))
        if value not in _SKIPPED:
            yield start, value
    else:
        yield from _template_chunks(node, source)


_HOLE = None


def _concatenations(pluses: list[Node], source: bytes, folded: set[int]) -> Iterable[tuple[int, str]]:
    """The literal text of each `+` chain, folded as a minifier folds it: `"a" + "b" + x + "c"`
    and `` `ab${x}c` `` both give "ab" and "c". The chain's literal operands go in `folded`."""
    for top in pluses:
        parent = top.parent
        while parent is not None and parent.type == "parenthesized_expression":
            parent = parent.parent
        if parent is not None and parent.type == "binary_expression" and _is_plus(parent):
            continue  # inside a longer chain, read with it
        pieces: list[str | None] = []
        stack = [top]
        while stack:  # operands left to right, iteratively: minified chains can be long
            node = _unwrap(stack.pop())
            if node.type == "binary_expression" and _is_plus(node):
                stack.extend(reversed(node.named_children[:2]))
            elif node.type == "string" and not _left_out(node):
                folded.add(node.id)
                pieces.append(decode_string(source[node.start_byte + 1:node.end_byte - 1].decode("utf-8", "replace")))
            elif node.type == "template_string":
                folded.add(node.id)
                pieces.extend(_template_pieces(node, source))
            else:
                pieces.append(_HOLE)
        text: list[str] = []
        for piece in [*pieces, _HOLE]:
            if piece is not _HOLE:
                text.append(piece)
            elif text:
                value = "".join(text)
                if value not in _SKIPPED:
                    yield top.start_byte, value
                text = []


def _is_plus(node: Node) -> bool:
    operator = node.child_by_field_name("operator")
    return operator is not None and operator.type == "+"


def _unwrap(node: Node) -> Node:
    while node.type == "parenthesized_expression" and node.named_child_count == 1:
        node = node.named_children[0]
    return node


def _template_pieces(node: Node, source: bytes) -> Iterable[str | None]:
    at = node.start_byte + 1
    for child in node.named_children:
        if child.type == "template_substitution":
            yield decode_string(source[at:child.start_byte].decode("utf-8", "replace"))
            yield _HOLE
            at = child.end_byte
    yield decode_string(source[at:node.end_byte - 1].decode("utf-8", "replace"))


def _template_chunks(node: Node, source: bytes) -> Iterable[tuple[int, str]]:
    at = node.start_byte + 1
    for child in node.named_children:
        if child.type == "template_substitution":
            yield from _chunk(source, at, child.start_byte)
            at = child.end_byte
    yield from _chunk(source, at, node.end_byte - 1)


def _chunk(source: bytes, start: int, end: int) -> Iterable[tuple[int, str]]:
    if end > start:
        value = decode_string(source[start:end].decode("utf-8", "replace"))
        if value not in _SKIPPED:
            yield start, value


def _left_out(node: Node) -> bool:
    """A `typeof` comparison operand, or the relative path given to `require`/`import`."""
    parent = node.parent
    if parent is None:
        return False
    if parent.type == "binary_expression":
        return any(c.type == "unary_expression" and c.child(0) is not None and c.child(0).type == "typeof"
                   for c in parent.named_children)
    if parent.type == "arguments" and parent.named_child_count == 1:
        call = parent.parent
        callee = call.child_by_field_name("function") if call is not None else None
        if callee is not None and callee.type in ("identifier", "import") and callee.text in (b"require", b"import"):
            return source_is_relative(node)
    return False


def source_is_relative(node: Node) -> bool:
    text = node.text or b""
    return text[1:3] == b"./" or text[1:4] == b"../"


def is_function_type(kind: str) -> bool:
    return kind in FUNCTION_TYPES
