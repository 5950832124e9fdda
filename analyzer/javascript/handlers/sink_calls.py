"""What a slice's handler body made with no error sink, noted so that its branches under each
sink its calls may make come without reading the body again (docs/slices.md, 12b)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from analyzer.facts import DispositionFacts


@dataclass(slots=True)
class SinkCalls:
    """Each branch's list of dispositions before they are merged, and where a call that may be
    the sink made a `callback` (branch, index). Under a sink holding such calls only, each makes
    a `report` in its place and nothing else changes (`HandlerBody._called` reads the sink there
    and nowhere else). A call that made nothing would make a `report`, which changes what
    follows (`unsafe`: the body is read again)."""

    #: per branch, its list (none for `.catch(f)`, which reads the sink itself, or an empty body)
    lists: list[list[DispositionFacts]] = field(default_factory=list)
    #: the callee's span -> its (branch, index) in the lists
    flips: dict[tuple[int, int], list[tuple[int, int]]] = field(default_factory=dict)
    unsafe: set[tuple[int, int]] = field(default_factory=set)
    #: the last `callback` made by a call that may be the sink, until its branch takes it
    last: tuple[tuple[int, int], list[DispositionFacts]] | None = None

    def flip(self, span: tuple[int, int], at: int) -> None:
        self.flips.setdefault(span, []).append((len(self.lists), at))

    def under(self, sink: frozenset[tuple[int, int]]) -> list[list[DispositionFacts]] | None:
        """Each branch's list under `sink`; None when the body must be read again."""
        if not self.unsafe.isdisjoint(sink):
            return None
        lists = self.lists
        for span in sink & self.flips.keys():
            if lists is self.lists:
                lists = [list(found) for found in lists]
            for branch, at in self.flips[span]:
                lists[branch][at] = replace(lists[branch][at], kind="report")
        return lists
