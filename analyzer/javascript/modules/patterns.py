"""Where to look for a bundler's module machinery: each bundler's module states its byte
patterns (`Search`), and `Literals` finds them. A regex over the bytes finds the few places to
look at; the tree is only read there. Each pattern hangs on a literal (`exports`, `0)`,
`[function` ...) found once per unit with `bytes.find`, far faster than a regex scan of a
27 MB unit.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

ID = rb"[\w$\x80-\xff]+"


@dataclass(frozen=True, slots=True)
class Search:
    """A bundler's byte pattern, looked for only around a literal near every match."""

    pattern: re.Pattern[bytes]
    #: found once per unit with `bytes.find`
    literal: bytes
    #: bytes searched before and after the literal
    before: int
    after: int
    #: a quick check that must match just before the literal, else None
    check: re.Pattern[bytes] | None = None


FUNCTIONS = frozenset({"arrow_function", "function_expression", "function"})
DECLARATIONS = frozenset({"variable_declaration", "lexical_declaration"})


class Literals:
    """Offsets of the few literals the core patterns hang on, each found once per unit (a
    `bytes.find` is far faster than a regex scan of a 27 MB unit), and each pattern's matches,
    found once per unit however many trees (slices) read them."""

    def __init__(self, source: bytes) -> None:
        self.source = source
        self._found: dict[bytes, list[int]] = {}
        self._matches: dict[Search, list[re.Match[bytes]]] = {}

    def matches(self, search: Search) -> list[re.Match[bytes]]:
        """Matches of one pattern, looked for only around its literal, in the order found."""
        found = self._matches.get(search)
        if found is None:
            found = self._matches[search] = list(self._search(search))
        return found

    def _search(self, search: Search) -> Iterator[re.Match[bytes]]:
        pattern, literal, before, after, check = (search.pattern, search.literal, search.before, search.after,
                                                  search.check)
        source = self.source
        seen: set[tuple[int, int]] = set()
        for at in self._offsets(literal):
            if check is not None and check.search(source, max(0, at - 8), at) is None:
                continue
            window_end = at + len(literal) + after
            match = pattern.search(source, max(0, at - before), window_end)
            while match is not None:
                if match.span() not in seen:
                    seen.add(match.span())
                    yield match
                match = pattern.search(source, match.start() + 1, window_end)

    def _offsets(self, literal: bytes) -> list[int]:
        found = self._found.get(literal)
        if found is None:
            found = self._found[literal] = []
            at = self.source.find(literal)
            while at >= 0:
                found.append(at)
                at = self.source.find(literal, at + 1)
        return found
