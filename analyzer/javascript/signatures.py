"""Function signatures that survive minification: the multiset of a function's string literals
(and the strings it builds), property names and regular expressions, hashed additively so that
any function's key is two subtractions over a unit's prefix sums (docs/corpus.md, "Signatures").
"""

from __future__ import annotations

import bisect
import hashlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from itertools import accumulate

from tree_sitter import Node, Query, QueryCursor, Tree

from analyzer.javascript.chains import SKIPPED, Chains, decode_string, left_out, source_is_relative, string_value
from analyzer.javascript.syntax import FUNCTION_TYPES, LANGUAGE

__all__ = ["FunctionSignature", "UnitTokens", "decode_string", "source_is_relative"]

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
    (call_expression
      function: (member_expression property: (property_identifier) @concat.name (#eq? @concat.name "concat"))
    ) @concat
    [(function_declaration) (generator_function_declaration) (function_expression)
     (generator_function) (arrow_function) (method_definition)] @function
    """,
)
#: captures whose nodes are tokens of their own (unless a chain read them)
_TOKEN_CAPTURES = ("string", "name", "regex")


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


def token_hash(token: str, cache: dict[str, int]) -> int:
    found = cache.get(token)
    if found is None:
        digest = hashlib.blake2b(
            token.encode("utf-8", "surrogatepass"), digest_size=8, person=b"erratlas-sig1"
        ).digest()
        found = cache[token] = int.from_bytes(digest, "little")
    return found


def weight_of(token: str) -> int:
    return min(len(token), _WEIGHT_CAP)


def mix(total: int, count: int) -> int:
    """The key of a multiset from its hash sum and size (so that {} and a zero sum differ)."""
    digest = hashlib.blake2b(total.to_bytes(8, "little") + count.to_bytes(4, "little"), digest_size=8).digest()
    return int.from_bytes(digest, "little")


class UnitTokens:
    """The signature tokens of one parsed source and its functions, in source order."""

    def __init__(self, tree: Tree, source: bytes, cache: dict[str, int] | None = None,
                 constants: Mapping[str, tuple[str, bool]] | None = None, concat: bool = True) -> None:
        """`constants`: names whose value a minifier folds into the strings built with them
        (a package's literal constants, analyzer/javascript/constants.py); none for a bundle.
        `concat`: read `"a".concat(x)` chains as built strings (`distinctive_signatures`)."""
        self._cache = cache if cache is not None else {}
        captures = QueryCursor(_QUERY).captures(tree.root_node)
        tokens: list[tuple[int, int, int]] = []  # (start, hash, weight)
        chains = Chains(source, constants, concat)
        for start, token in chains.tokens(captures.get("plus", []), captures.get("concat", []),
                                          captures.get("template", [])):
            tokens.append((start, token_hash(token, self._cache), weight_of(token)))
        folded = chains.folded
        for name in _TOKEN_CAPTURES:
            for node in captures.get(name, []):
                if node.id in folded:
                    continue
                for start, token in _tokens(name, node, source):
                    tokens.append((start, token_hash(token, self._cache), weight_of(token)))
        #: the names read in the holes of built strings (what `constants` may fold)
        self.holes = chains.holes
        #: whether a string `.concat` chain was read as a built string
        self.concats = chains.concats
        tokens.sort()
        self._starts = [t[0] for t in tokens]
        self._sums = list(accumulate((t[1] for t in tokens), initial=0))
        self._weights = list(accumulate((t[2] for t in tokens), initial=0))
        self.functions: list[Node] = sorted(captures.get("function", []), key=lambda n: (n.start_byte, -n.end_byte))
        self.size = len(source)
        self.lines = tree.root_node.end_point.row + 1

    def raw(self, start: int, end: int) -> tuple[int, int, int]:
        """(hash sum, count, weight) of the tokens in [start, end)."""
        low = bisect.bisect_left(self._starts, start)
        high = bisect.bisect_left(self._starts, end)
        return self._sums[high] - self._sums[low], high - low, self._weights[high] - self._weights[low]

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
    if capture == "string":
        if not left_out(node):
            value = string_value(node, source)
            if value not in SKIPPED:
                yield start, value
    else:
        yield start, source[start:end].decode("utf-8", "replace")


def is_function_type(kind: str) -> bool:
    return kind in FUNCTION_TYPES


def distinctive_signatures(tree: Tree, source: bytes, cache: dict[str, int],
                           tokens: UnitTokens | None = None) -> list[FunctionSignature | None]:
    """Per function of `tokens` (the unit's, made if not given), the signature it is indexed and
    matched by: its own when distinctive; else, when it holds `"a".concat(x)` chains, the
    signature with each `.concat` a call like another, if that one is distinctive (reading the
    chains drops a `concat` token per call, and a small function then falls below the threshold:
    its ES5 copy in a package's dist bundle matches the ES5 code of the bundle by that signature);
    else None. The same rule on both sides (docs/corpus.md, "Built strings")."""
    tokens = tokens if tokens is not None else UnitTokens(tree, source, cache)
    plain = UnitTokens(tree, source, cache, concat=False) if tokens.concats else None
    out: list[FunctionSignature | None] = []
    for signature in [tokens.whole(), *tokens.function_signatures()]:
        if not signature.distinctive and plain is not None:
            signature = plain.signature(signature.start, signature.end, signature.line, signature.kind)
        out.append(signature if signature.distinctive else None)
    return out
