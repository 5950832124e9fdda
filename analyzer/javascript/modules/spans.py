"""A bundled module as found in one unit (`ModuleSpan`), the unit's map of them, and the
innermost-module lookup every later step uses."""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from dataclasses import dataclass, field

from tree_sitter import Node

from analyzer import identity
from analyzer.model import ModuleKind

_PERSON = b"erratlas-fp1m"
#: every byte an identifier can hold: deleted from a module's text for its fingerprint
_NAME_BYTES = bytes(range(48, 58)) + bytes(range(65, 91)) + bytes(range(97, 123)) + b"_$" + bytes(range(128, 256))


@dataclass(frozen=True, slots=True)
class ModuleSpan:
    """One bundled module found in a unit, before its portable fingerprint."""

    kind: ModuleKind
    #: first byte, hoisted declarations included
    start: int
    end: int
    #: first byte of the module's own code (the wrapper's or table entry's function)
    body: int
    #: path key the bundle keeps (keep-names wrappers, webpack dev ids, browserify requires)
    key: str | None
    #: the variable the wrapper is assigned to, or the table id
    binding: str | None
    #: what the module was recognised by
    evidence: str
    #: renaming-invariant digest of the module's text (see `module_digest`)
    digest: bytes
    #: the byte ranges it is made of, when not one span (source-map modules of hoisted code)
    ranges: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True, slots=True)
class ModuleMap:
    """The modules of one unit, and the top-level code outside every module."""

    modules: list[ModuleSpan]
    #: top-level statements (declarators of a multi-declarator `var`) that no module holds:
    #: scope-hoisted ESM code and runtime helpers, which only a source map can split further
    loose: list[tuple[int, int]]
    #: helper name -> role (`commonjs`, `esm`, `export`), as found by shape
    helpers: dict[str, str] = field(default_factory=dict)


def module_digest(kind: str, source: bytes, start: int, end: int) -> bytes:
    """Digest of the module's skeleton: its text with every byte an identifier can hold
    deleted (letters, digits, `_`, `$`, non-ASCII). Invariant under any renaming, consistent
    or not; sensitive to every operator, bracket, delimiter, and to the spacing and
    punctuation inside literals. One `bytes.translate`: no tokenizing of a 27 MB unit."""
    return identity.digest(_PERSON, kind.encode(), b"\x00", source[start:end].translate(None, _NAME_BYTES))


def runs_digest(source: bytes, ranges: Sequence[tuple[int, int]]) -> bytes:
    """Digest of a module made of several runs of code (`esm` module digests, in order)."""
    return identity.digest(_PERSON, *(module_digest("esm", source, start, end) for start, end in ranges))


def function_span(
    kind: ModuleKind, function: Node, source: bytes, key: str | None, binding: str, evidence: str
) -> ModuleSpan:
    """A module that is one function of a module table (webpack, browserify)."""
    return ModuleSpan(
        kind=kind,
        start=function.start_byte,
        end=function.end_byte,
        body=function.start_byte,
        key=key,
        binding=binding,
        evidence=evidence,
        digest=module_digest(kind, source, function.start_byte, function.end_byte),
    )


class ModuleIndex:
    """Innermost module containing a byte offset, by bisection over sorted spans."""

    def __init__(self, spans: Sequence[tuple[int, int]]) -> None:
        order = sorted(range(len(spans)), key=lambda i: (spans[i][0], -spans[i][1]))
        self._order = order
        self._starts = [spans[i][0] for i in order]
        self._ends = [spans[i][1] for i in order]
        parents: list[int] = []
        stack: list[int] = []
        for position in range(len(order)):
            while stack and self._ends[stack[-1]] <= self._starts[position]:
                stack.pop()
            parents.append(stack[-1] if stack else -1)
            stack.append(position)
        self._parents = parents

    def find(self, offset: int) -> int | None:
        """Index (into the spans given) of the innermost span holding `offset`, or None."""
        position = bisect.bisect_right(self._starts, offset) - 1
        while position >= 0:
            if offset < self._ends[position]:
                return self._order[position]
            position = self._parents[position]
        return None
