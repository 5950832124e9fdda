"""A handler given by name that does nothing (docs/reference.md, "Dispositions"): `.catch(noop)`,
`noop` a top-level function whose body is empty, drops the error as `.catch(() => {})` does, a
`swallow`, not a `callback`. Read after the merge from the unit's items and bytes, as what a
helper tests is: a unit read whole and one read in slices read the same."""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence
from dataclasses import replace

from analyzer.facts import DispositionFacts, HandlerFacts
from analyzer.javascript.handlers.named_constants import Row, a_word
from analyzer.javascript.handlers.sources import declared_once
from analyzer.javascript.references import UnitReferences, name_text
from analyzer.javascript.sink import empty_function_at

_NAMED = frozenset({"promise-catch", "promise-then"})
_PASSED = frozenset({"callback", "report"})
_NAME = re.compile(rb"[A-Za-z_$][\w$]*")
#: after a name: a write of it (`=`, `+=`, `++`, ...), which may give it another function
_WRITE = re.compile(rb"\s*(?:(?:\*\*|<<|>>>?|&&|\|\||\?\?|[-+*/%&|^])?=(?![=>])|\+\+|--)")
_SWALLOW = DispositionFacts("swallow", None, (), None)


def with_empty_callees(handlers: list[HandlerFacts], source: bytes, raw: Sequence[Row],
                       references: UnitReferences) -> list[HandlerFacts]:
    """The handlers, each given by the name of a function that does nothing read as a `swallow`."""
    named = [h for h in handlers if h.form in _NAMED and len(h.branches) == 1
             and len(h.branches[0].dispositions) == 1 and h.branches[0].dispositions[0].kind in _PASSED
             and _NAME.fullmatch((h.branches[0].dispositions[0].callee or "").encode())]
    if not named:
        return handlers
    empty = _EmptyFunctions(source, raw, references)
    swallowing = {id(h) for h in named if empty.at(h.branches[0].dispositions[0].callee or "", h.offset)}
    return [replace(h, branches=(replace(h.branches[0], dispositions=(_SWALLOW,)),)) if id(h) in swallowing else h
            for h in handlers]


class _EmptyFunctions:
    """The unit's top-level functions whose bodies are empty and whose names nothing writes, each read once."""

    def __init__(self, source: bytes, raw: Sequence[Row], references: UnitReferences) -> None:
        self.source, self.raw, self.references = source, raw, references
        self.starts = [item[0] for item in raw]
        self.once = declared_once(raw)
        self._read: dict[bytes, bool] = {}

    def at(self, callee: str, at: int) -> bool:
        """Whether `callee`, written at `at`, names such a function there (not a local of its name)."""
        name = callee.encode()
        position = self.once.get(name)
        here = bisect.bisect_right(self.starts, at) - 1
        if position is None or here < 0 or at >= self.raw[here][1] or (here, name) in self.references.shadowed:
            return False
        if name not in self._read:
            self._read[name] = self._empty(name, position)
        return self._read[name]

    def _empty(self, name: bytes, position: int) -> bool:
        declared = self.raw[position][3]
        if not empty_function_at(self.source, declared[0][0], name) or len(self.raw) != len(self.references.items):
            return False
        text = name_text(name)
        for at, item in enumerate(self.references.items):  # every item that may write it
            if text not in item.references and at != position:
                continue
            begin, stop = self.raw[at][0], self.raw[at][1]
            found = self.source.find(name, begin, stop)
            while found >= 0:
                after = found + len(name)
                if a_word(self.source, found, after) and found != declared[0][0] and (
                        _WRITE.match(self.source, after) is not None
                        or self.source[max(begin, found - 2):found] in (b"++", b"--")):
                    return False
                found = self.source.find(name, after, stop)
        return True
