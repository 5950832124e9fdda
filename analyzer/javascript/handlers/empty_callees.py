"""A handler given by name that does nothing (docs/reference.md, "Dispositions"): `.catch(noop)`,
`noop` a top-level function whose body is empty, drops the error as `.catch(() => {})` does, a
`swallow`, not a `callback`. Read after the merge from the unit's items and bytes, as what a
helper tests is: a unit read whole and one read in slices read the same."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from analyzer.facts import DispositionFacts, HandlerFacts
from analyzer.javascript.handlers.named_constants import WRITE, Row, a_word, readers_of
from analyzer.javascript.handlers.sources import declared_once, top_level_at
from analyzer.javascript.references import UnitReferences
from analyzer.javascript.sink import empty_function_at

_NAMED = frozenset({"promise-catch", "promise-then"})
_PASSED = frozenset({"callback", "report"})
_NAME = re.compile(rb"[A-Za-z_$][\w$]*")
#: before a name: `++noop`, `--noop`
_STEPS = (b"++", b"--")
_SWALLOW = DispositionFacts("swallow", None, (), None)


def with_empty_callees(handlers: list[HandlerFacts], source: bytes, raw: Sequence[Row],
                       references: UnitReferences) -> list[HandlerFacts]:
    """The handlers, each given by the name of a function that does nothing read as a `swallow`."""
    named = [h for h in handlers if h.form in _NAMED and len(h.branches) == 1
             and len(h.branches[0].dispositions) == 1 and h.branches[0].dispositions[0].kind in _PASSED
             and _NAME.fullmatch((h.branches[0].dispositions[0].callee or "").encode())]
    if not named:
        return handlers
    empty = _EmptyFunctions(source, raw, references, {h.branches[0].dispositions[0].callee or "" for h in named})
    swallowing = {id(h) for h in named if empty.at(h.branches[0].dispositions[0].callee or "", h.offset)}
    return [replace(h, branches=(replace(h.branches[0], dispositions=(_SWALLOW,)),)) if id(h) in swallowing else h
            for h in handlers]


class _EmptyFunctions:
    """The unit's top-level functions whose bodies are empty and whose names nothing writes, among
    the names `wanted`: declared once, then every item that may write one read in one pass."""

    def __init__(self, source: bytes, raw: Sequence[Row], references: UnitReferences, wanted: set[str]) -> None:
        self.source, self.raw, self.shadowed = source, raw, references.shadowed
        self.starts = [item[0] for item in raw]
        once = declared_once(raw)
        candidates = {name.encode(): once[name.encode()] for name in wanted if name.encode() in once}
        # an empty function by its declaration's bytes: only those are read further
        self.empty = {name: position for name, position in candidates.items()
                      if empty_function_at(source, raw[position][3][0][0], name)}
        if self.empty and len(raw) == len(references.items):
            readers = readers_of(references, self.empty)
            self.empty = {name: position for name, position in self.empty.items()
                          if not self._written(name, raw[position][3][0][0], [position, *readers[name]])}
        else:
            self.empty = {}

    def at(self, callee: str, at: int) -> bool:
        """Whether `callee`, written at `at`, names such a function there (not a local of its name)."""
        name = callee.encode()
        return name in self.empty and top_level_at(self.starts, self.raw, self.shadowed, name, at)

    def _written(self, name: bytes, declared: int, positions: list[int]) -> bool:
        """Whether an occurrence of `name` in the items at `positions`, but its declaration, writes it."""
        source = self.source
        for position in sorted(set(positions)):
            begin, stop = self.raw[position][0], self.raw[position][1]
            found = source.find(name, begin, stop)
            while found >= 0:
                after = found + len(name)
                written = WRITE.match(source, after) is not None or source[max(begin, found - 2):found] in _STEPS
                if written and found != declared and a_word(source, found, after):
                    return True
                found = source.find(name, after, stop)
        return False
