"""Product by reference: the owner of a reviewed top-level binding reaches every item that names
it, and through the bindings those items declare, every item that names those in turn
(docs/references.md). Sound for Product only: bundled dependency code cannot name a binding
the product declares, while dependencies name each other's all the time.

Reads the scan's `references.jsonl` through `analyzer.scandir`; never a parser.
"""

from __future__ import annotations

import bisect
import operator
from collections import defaultdict, deque
from collections.abc import Callable, Iterable
from typing import Any, NamedTuple

from analyzer.model import ChainLink, ReferenceItem
from analyzer.scandir.load import reference_fields


class Step(NamedTuple):  # a tuple: made for every item reached (11k on a native build)
    """One link of the chain that makes an item Product: `item` names (or declares) `binding`."""

    item: str
    unit: str
    binding: str
    fingerprint: str | None

    def describe(self) -> ChainLink:
        return {"item": self.item, "binding": self.binding, "fingerprint": self.fingerprint}


class _Item(NamedTuple):  # a tuple: a native build's graph makes ~50k of them
    id: str
    offset: int
    end: int
    declares: tuple[str, ...]
    references: tuple[str, ...]


def _fields(row: ReferenceItem) -> tuple[Any, ...]:
    """A ReferenceItem's fields as `reference_fields` gives them."""
    declared = tuple((b.name, b.fingerprint, (b.copies.count, b.copies.group) if b.copies else None, b.helper)
                     for b in row.declares)
    return row.schema, row.id, row.unit, row.offset, row.endOffset, declared, row.references


_offset = operator.itemgetter(1)  # an _Item's offset
#: `_Item(...)` without its Python-level `__new__` (60k items: 0.015 s)
_new_item: Callable[[type[_Item], tuple[str, int, int, tuple[str, ...], tuple[str, ...]]], _Item] = tuple.__new__
#: unit -> binding name -> items
_ByName = dict[str, dict[str, list[_Item]]]


class ReferenceGraph:
    """The items of every unit, and which top-level bindings each declares and names."""

    def __init__(self, rows: list[ReferenceItem]) -> None:
        self._build(_fields(row) for row in rows)

    @classmethod
    def load(cls, files: dict[str, bytes]) -> ReferenceGraph:
        """The graph of a scan directory's `references.jsonl`, its items read as tuples."""
        graph = cls.__new__(cls)
        graph._build(reference_fields(files))
        return graph

    def _build(self, rows: Iterable[tuple[Any, ...]]) -> None:
        """From each item's fields, in ReferenceItem's order (a nested record as a tuple too)."""
        self._items: dict[str, list[_Item]] = defaultdict(list)
        #: (unit, binding name) -> (fingerprint, copies count, helper)
        self.bindings: dict[tuple[str, str], tuple[str | None, int, bool]] = {}
        #: fingerprint -> (unit, name): bindings that may root an entry
        self.by_fingerprint: dict[str, tuple[str, str]] = {}
        items, bindings, by_fingerprint = self._items, self.bindings, self.by_fingerprint
        for _, identifier, unit, offset, end, declared, references in rows:  # ~60k items on a big executable
            names = tuple([b[0] for b in declared]) if declared else ()
            items[unit].append(_new_item(_Item, (identifier, offset, end, names, references)))
            for name, fingerprint, copies, helper in declared:
                key = (unit, name)
                if key not in bindings:  # the first declaration of a name speaks for it
                    bindings[key] = (fingerprint, copies[0] if copies else 1, helper)
                if fingerprint is not None:
                    by_fingerprint[fingerprint] = key
        for unit_items in items.values():
            unit_items.sort(key=_offset)
        self._starts = {unit: [i.offset for i in items] for unit, items in self._items.items()}
        self._edges: tuple[_ByName, _ByName] | None = None

    def item_of(self, unit: str, offset: int, end: int) -> _Item | None:
        """The item that holds [offset, end) in `unit`."""
        starts = self._starts.get(unit)
        if not starts:
            return None
        at = bisect.bisect_right(starts, offset) - 1
        if at < 0:
            return None
        item = self._items[unit][at]
        return item if end <= item.end else None

    def item_offset(self, item_id: str) -> int:
        """The offset of an item, from its id `i:<unit>@<offset>`."""
        return int(item_id.rsplit("@", 1)[1])

    def declaring_item(self, binding: tuple[str, str]) -> str | None:
        """The id of the (first) item that declares `binding`."""
        found = self._index()[1].get(binding[0], {}).get(binding[1])
        return found[0].id if found else None

    def _index(self) -> tuple[_ByName, _ByName]:
        """(unit -> name -> the items naming it, unit -> name -> the items declaring it), built
        once; keyed by unit, then name, so no edge makes a key of its own."""
        if self._edges is None:
            referencing: _ByName = {}
            declaring: _ByName = {}
            for unit, items in self._items.items():
                naming: defaultdict[str, list[_Item]] = defaultdict(list)
                declared: defaultdict[str, list[_Item]] = defaultdict(list)
                for item in items:
                    for name in item.references:
                        naming[name].append(item)
                    for name in item.declares:
                        declared[name].append(item)
                referencing[unit], declaring[unit] = naming, declared
            self._edges = (referencing, declaring)
        return self._edges

    def reach(self, roots: list[tuple[str, str]]) -> dict[str, list[Step]]:
        """Item id -> the chain of steps from the item back to a root binding (shortest first,
        breadth first from the roots in their given order). Helpers are never reached through."""
        referencing, declaring = self._index()
        bindings, unknown = self.bindings, (None, 1, False)
        chains: dict[str, list[Step]] = {}
        via: dict[tuple[str, str], list[Step]] = {root: [] for root in roots}
        queue = deque(roots)
        while queue:
            binding = queue.popleft()
            unit, name = binding
            fingerprint = bindings.get(binding, unknown)[0]
            tail = via[binding]
            for found in (declaring.get(unit), referencing.get(unit)):
                for item in found.get(name, ()) if found is not None else ():
                    if item.id in chains:
                        continue
                    chain = chains[item.id] = [Step(item.id, unit, name, fingerprint), *tail]
                    for declared in item.declares:
                        key = (unit, declared)
                        if key not in via and not bindings.get(key, unknown)[2]:
                            via[key] = chain
                            queue.append(key)
        return chains
