"""The reference graph of a unit read in slices (docs/slices.md, "Step 5 as built"): each slice
tree's part, made while it is alive (its items listed with the modules its own part of the module
map finds in them, every chunk's references of the byte superset of L's names, the digests of
its speculated roots), and the merge's checks and re-reads, with no node."""

from __future__ import annotations

import bisect
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass, replace

from tree_sitter import Node, Tree

from analyzer.javascript.modules import FINDERS, ModuleMap, SliceModules, esbuild, webpack
from analyzer.javascript.modules.finder import Helper, Merging
from analyzer.javascript.modules.loose import without_duplicates
from analyzer.javascript.modules.spans import ModuleSpan
from analyzer.javascript.normalize import Normalizer
from analyzer.javascript.occurrences import RawItem
from analyzer.javascript.reference_merge import SliceReferences, slice_references, unit_references, unsearched
from analyzer.javascript.references import (
    SKIPPED,
    Listing,
    UnitReferences,
    binding_digests,
    chunk_references,
    directive,
    listing,
    modules_inside,
    wrapper_body,
)

#: an item without its node: (start, end, None, (offset, name) of each top-level name it declares)
Row = tuple[int, int, None, tuple[tuple[int, bytes], ...]]


def root_candidates(items: Sequence[tuple[int, int, object, tuple[object, ...]]], offsets: Iterable[int]) -> list[int]:
    """The positions of the declaring items that hold one of `offsets` (callsites, the logger's
    declaration: docs/references.md, the bindings that may root a `references` entry). `items`:
    (start, end, any, declared names) rows in order, a tree's raw items or merged rows."""
    starts = [item[0] for item in items]
    wanted = set()
    for offset in offsets:
        position = bisect.bisect_right(starts, offset) - 1
        if position >= 0 and offset < items[position][1] and items[position][3]:
            wanted.add(position)
    return sorted(wanted)


def speculated_modules(part: SliceModules, source: bytes, helpers: Sequence[Helper]) -> ModuleMap:
    """The modules a slice's listing may find inside its items, from its own part of the module
    map, before the unit's map is merged: its wrappers in lists below L (their hoisting and
    `claimed` read only their own list, which one slice holds), the webpack tables and
    browserify tables its part found, and every table of L its statements declare by a name
    some runtime indexes (the merge keeps the first tree's, if a runtime's climb met L). L's
    own wrappers are left out: a module of L starts at or before its declarator, the item, so
    it is never inside one. `unsliceable` tells a wrong guess at the merge."""
    merging = Merging(source, part.rows, helpers)
    found: list[ModuleSpan] = []
    for finder, one in zip(FINDERS, part.parts, strict=True):
        if finder is esbuild.FINDER:
            one = [[wrapper for wrapper in group if wrapper.rows is not None] for group in one]
        elif isinstance(one, webpack.WebpackPart):
            found.extend(module for table in one.tops.values() if table is not None for module in table.modules)
        found.extend(finder.merge([one], merging).modules)
    return ModuleMap(without_duplicates(found), [], {})


@dataclass(frozen=True, slots=True)
class SlicePart:
    """What one slice tree hands back for the reference graph, with no node."""

    references: SliceReferences
    #: its items' rows, in order
    rows: list[Row]
    #: the items split into the modules inside them, and those modules' spans
    splits: dict[tuple[int, int], tuple[tuple[int, int], ...]]
    #: the positions (its own) whose bindings it digested
    digested: frozenset[int]
    #: its statements of L that hold code (no comment, directive or empty statement: 0, 1 or
    #: 2 for more), and whether its one such statement is an IIFE whose body a whole tree
    #: would list instead
    statements: int
    wrapper: bool


def slice_part(
    tree: Tree, source: bytes, span: tuple[int, int], modules: ModuleMap, names: frozenset[bytes] | None,
    wanted: Callable[[list[RawItem]], list[int]], normalizer: Normalizer,
) -> tuple[Listing, SlicePart]:
    """The per-slice half, while its tree is alive: its listing on its root and range, every
    chunk's references, the digests of the positions `wanted` picks among its items (the
    speculated roots), and its part; the listing (nodes) is for the other halves of the same
    tree. `names`: the names looked for (None: the slice's own, so `unsearched` names the
    others); `modules`: `speculated_modules`, or the unit's map once merged."""
    splits: dict[tuple[int, int], tuple[tuple[int, int], ...]] = {}
    items = listing(tree, source, modules, span=span, names=names, splits=splits)
    root = tree.root_node
    chunks = [chunk_references(items, chunk, source, root) for chunk in range(len(items.chunks))]
    asked = wanted(items.raw)
    references = slice_references(items, chunks, binding_digests(tree, normalizer, items.raw, asked))
    rows: list[Row] = [(start, end, None, declared) for start, end, _, declared in items.raw]
    statements = _statements(root)
    wrapper = statements == 1 and wrapper_body(root) is not None
    return items, SlicePart(references, rows, splits, frozenset(asked), statements, wrapper)


def _statements(root: Node) -> int:
    """How many statements of the slice hold code (none, one, or 2 for more): a slice's
    statements are 10,000 nodes, not read for this."""
    found = 0
    for index in range(root.named_child_count):
        statement = root.named_child(index)
        if statement is not None and statement.type not in SKIPPED and not directive(statement):
            found += 1
            if found == 2:
                break
    return found


def unsliceable(parts: Sequence[SlicePart], modules: ModuleMap) -> str | None:
    """Why the slices' items are not the whole tree's, or None: L's one statement is an IIFE
    (`_top_list` lists its body), or a slice split an item into other modules than the unit's
    map puts inside it (`speculated_modules` guessed wrong)."""
    if sum(part.statements for part in parts) == 1 and any(part.wrapper for part in parts):
        return "the reference graph's list: L's one statement is an IIFE, whose body a whole tree lists"
    spans = sorted({(m.start, m.end) for m in modules.modules})
    for index, part in enumerate(parts):
        if part.rows and _splits(part, spans) != part.splits:
            return f"the modules inside an item: slice {index} split its items otherwise than the unit's map"
    return None


def _splits(part: SlicePart, spans: list[tuple[int, int]]) -> dict[tuple[int, int], tuple[tuple[int, int], ...]]:
    """The items of `part` (as listed before any split) the unit's module `spans` split, as
    `_items` splits them."""
    keys = sorted(part.splits)
    firsts = [key[0] for key in keys]
    bounds = sorted([*keys, *((start, end) for start, end, _, _ in part.rows
                              if not keys or not _within(firsts, keys, start, end))])
    starts = [start for start, _ in bounds]
    low, high = part.rows[0][0], part.rows[-1][1]
    found: dict[tuple[int, int], tuple[tuple[int, int], ...]] = {}
    for at in range(bisect.bisect_left(spans, (low, -1)), bisect.bisect_left(spans, (high, -1))):
        position = bisect.bisect_right(starts, spans[at][0]) - 1
        if position >= 0 and bounds[position] not in found:
            inner = modules_inside(spans, *bounds[position])
            if len(inner) > 1:
                found[bounds[position]] = tuple(inner)
    return found


def _within(firsts: list[int], keys: list[tuple[int, int]], start: int, end: int) -> bool:
    at = bisect.bisect_right(firsts, start) - 1
    return at >= 0 and end <= keys[at][1]


def lacking(parts: Sequence[SlicePart], roots: Sequence[int]) -> dict[int, tuple[frozenset[bytes], list[int]]]:
    """By slice index, what a slice must be read again for: the names other slices declare
    that it did not look for (`unsearched`), and its roots (`roots`: merged positions) whose
    digests it did not make (the sites and the logger are decided at the merge), its own."""
    missing = unsearched([part.references for part in parts])
    out: dict[int, tuple[frozenset[bytes], list[int]]] = {}
    base = 0
    for index, part in enumerate(parts):
        mine = [position - base for position in roots if base <= position < base + len(part.rows)]
        undigested = [position for position in mine if position not in part.digested]
        if index in missing or undigested:
            out[index] = (missing.get(index, frozenset()), mine)
        base += len(part.rows)
    return out


@dataclass(frozen=True, slots=True)
class UnitListing:
    """The reference graph of a unit read in slices, and its items' rows (the merged
    positions `UnitReferences` counts in): what a whole tree's `Listing.raw` gives the stages
    after it, with no node."""

    references: UnitReferences
    rows: list[Row]


def unit_listing(parts: Sequence[SlicePart], roots: Collection[int], helpers: Collection[str]) -> UnitListing:
    """The merge, once `lacking` finds nothing: the graph with the digests of the `roots`
    (merged positions) and the module map's `helpers`."""
    merged = unit_references([part.references for part in parts], roots)
    if not merged.helpers.issuperset(helpers):
        merged = replace(merged, helpers=merged.helpers | frozenset(helpers))
    return UnitListing(merged, [row for part in parts for row in part.rows])
