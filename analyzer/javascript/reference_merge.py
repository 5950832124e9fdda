"""The unit's reference graph from its trees' summaries (docs/slices.md, "Step 5 as built"): each
tree's items with their references and scope walks, node-free (`slice_references`), merged in
order (`unit_references`) for a whole tree as for the slices of one."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from analyzer.javascript.references import Chunk, Item, Listing, UnitReferences, name_text


@dataclass(frozen=True, slots=True)
class SliceReferences:
    """What the reference graph keeps of one tree (the unit's, or a slice's), no node in it:
    positions are the tree's own items', names those looked for (`Listing.names`), which may
    be more than the unit declares until `unit_references` keeps the declared ones."""

    #: the tree's items; their references may hold names no item of the unit declares
    items: list[Item]
    #: the names the items declare
    declares: frozenset[bytes]
    #: the names looked for
    searched: frozenset[bytes]
    #: (item position, name) pairs resolved by a scope walk (`UnitReferences.shadowed`)
    shadowed: frozenset[tuple[int, bytes]]
    #: (item position, name) -> digest of the bindings asked for (`binding_digests`)
    digests: dict[tuple[int, str], bytes]
    #: the module map's helpers and the runtime helpers among the tree's items
    helpers: frozenset[str]
    #: the names of the locals declared before the first item, where the whole tree counts them
    #: with the previous slice's last item; and the names found in the last item
    edges: tuple[frozenset[bytes], frozenset[bytes]] = (frozenset(), frozenset())


def slice_references(listing: Listing, chunks: list[Chunk], digests: dict[tuple[int, str], bytes]) -> SliceReferences:
    """The tree's items with their references, from every chunk's (in order), and the digests
    made of its bindings (`binding_digests`)."""
    referenced = [names for chunk, _, _, _ in chunks for names in chunk]
    # a slice looks for the unit's names: only those it declares or found are decoded
    known = listing.names if listing.names is listing.declares else listing.declares.union(*referenced)
    text_of = {name: name_text(name) for name in known}
    # most items declare one name or none and reference a few: no generator, no sort of nothing
    items = [
        Item(start, end, tuple([text_of[n] for _, n in names]) if names else (),
             tuple(sorted(map(text_of.__getitem__, names_in))) if (names_in := referenced[position]) else ())
        for position, (start, end, _, names) in enumerate(listing.raw)
    ]
    edges = (chunks[0][3][0], chunks[-1][3][1]) if chunks else (frozenset(), frozenset())
    return SliceReferences(items, listing.declares, listing.names,
                           frozenset(pair for _, _, pairs, _ in chunks for pair in pairs), digests, listing.helpers,
                           edges)


def unsearched(
    slices: Sequence[SliceReferences], declared: frozenset[bytes] | None = None
) -> dict[int, frozenset[bytes]]:
    """By slice index, the names some slice declares that the slice did not look for: its
    references to them are unknown, so it must be read again with them. `declared`: the
    slices' (`_declared`), when known."""
    declared = _declared(slices) if declared is None else declared
    apart: dict[tuple[int, int], frozenset[bytes]] = {}
    return {index: missing for index, part in enumerate(slices)
            if (missing := _apart(declared, part.searched, apart))}


def _apart(first: frozenset[bytes], second: frozenset[bytes],
           known: dict[tuple[int, int], frozenset[bytes]]) -> frozenset[bytes]:
    """`first - second`, once per pair of sets in `known`: a unit's slices look for the one
    byte superset of L's names (58,644 on the executable)."""
    if first is second:
        return frozenset()
    key = (id(first), id(second))
    found = known.get(key)
    if found is None:
        found = known[key] = first - second
    return found


def _declared(slices: Sequence[SliceReferences]) -> frozenset[bytes]:
    return slices[0].declares if len(slices) == 1 else frozenset().union(*(part.declares for part in slices))


def unit_references(slices: Sequence[SliceReferences], roots: Collection[int] | None = None) -> UnitReferences:
    """The unit's graph from its trees' summaries, in order: items numbered in the merged list,
    only the names some item declares kept (`walked` counts the scope walks kept, one per
    `shadowed` pair), the helpers of all. `roots`: the merged positions whose digests are kept
    (None: all of them, when each tree digested only the unit's roots)."""
    declared = _declared(slices)
    apart: dict[tuple[int, int], frozenset[bytes]] = {}
    if any(_apart(declared, part.searched, apart) for part in slices):
        raise ValueError(f"slices {sorted(unsearched(slices, declared))} did not look for names other slices declare")
    items: list[Item] = []
    shadowed: set[tuple[int, bytes]] = set()
    digests: dict[tuple[int, str], bytes] = {}
    last: tuple[int, frozenset[bytes]] | None = None  # the last item so far: its position, the names found in it
    for part in slices:
        base = len(items)
        leading, found = part.edges
        if last is not None and leading:  # locals declared after it, before this tree's first item
            shadowed.update((last[0], name) for name in leading & last[1] if name in declared)
        if part.items:
            last = (base + len(part.items) - 1, found)
        # looked for, declared by no item: not top-level names
        extra = _apart(part.searched, declared, apart)
        if extra:
            texts = {name_text(name) for name in extra}
            items.extend(item if texts.isdisjoint(item.references) else Item(
                item.offset, item.end_offset, item.declares, tuple(n for n in item.references if n not in texts))
                for item in part.items)
        else:
            items.extend(part.items)
        kept = (pair for pair in part.shadowed if pair[1] not in extra) if extra else part.shadowed
        shadowed.update(((base + position, name) for position, name in kept) if base else kept)
        digests.update(part.digests.items() if not base else
                       (((base + position, name), digest) for (position, name), digest in part.digests.items()))
    if roots is not None:
        wanted = set(roots)
        digests = {key: digest for key, digest in digests.items() if key[0] in wanted}
    helpers = frozenset().union(*(part.helpers for part in slices))
    return UnitReferences(items, helpers, len(shadowed), digests, frozenset(shadowed))
