"""Suggestions from a source map's truth, at every level it supports (docs/owners.md, "Truth from
a source map"): where each callsite's source lies (map-sources.jsonl, docs/modules.md "Places")
says whose it is; from that truth come candidate entries at the `callsite`, `function`, `module`
and `references` levels, copies that disagree being `ambiguous`. `accept --level auto` takes the
callsite level (docs/owners.md, "Which level carries": why)."""

from __future__ import annotations

import posixpath
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace

from analyzer.facts import BundledModule
from analyzer.model import Callsite, Candidate, MapSource, Suggestion
from analyzer.owners.projection import neighbours
from analyzer.owners.references import ReferenceGraph
from analyzer.scandir.files import MAP_SOURCES_FILE
from analyzer.scandir.load import load_map_sources

#: a product root is suggested only when it reaches at least this many unowned product callsites
MIN_ROOT_GAIN = 3
#: at most this many product roots are suggested
MAX_ROOTS = 200
#: the confidence words, strongest first (the weakest of a group is the group's)
_STRENGTH = ("exact", "likely")
#: directories listed in a warning
_LISTED = 4


@dataclass(frozen=True, slots=True)
class Truth:
    owner: str
    package: str | None
    source: str
    confidence: str
    #: what placed the source beyond the map's origin: (kind, detail)
    evidence: tuple[tuple[str, str], ...] = ()


class MapTruth:
    """Where each source of a scan's maps lies, and the directories a reviewer states are the
    product's (paths as map-sources.jsonl writes them: relative to the package root)."""

    def __init__(self, places: Iterable[MapSource], product_sources: Sequence[str] = ()) -> None:
        self.rows = sorted(places, key=lambda row: (row.unit, row.source))
        self._places = {(row.unit, row.source): row for row in self.rows}
        self.product_sources = tuple(posixpath.normpath(p.replace("\\", "/")) for p in product_sources)

    @classmethod
    def load(cls, files: dict[str, bytes], product_sources: Sequence[str] = ()) -> MapTruth:
        return cls(load_map_sources(files.get(MAP_SOURCES_FILE, b"")), product_sources)

    def of(self, record: Callsite) -> Truth | None:
        origin = record.origin
        if origin is None:
            return None
        return self.of_source(record.unit, origin.source)

    def of_source(self, unit: str, source: str) -> Truth | None:
        row = self._places.get((unit, source))
        if row is None:
            return None  # a source no map of the scan names: never guessed
        place, package = row.place, row.package
        if place == "node_modules":
            return Truth("Dependency", package, source, "exact")
        if place == "package":
            return Truth("Product", None, source, "likely")
        if place == "outside" and package is not None:
            return Truth("Dependency", package, source, "likely", (("package-root", row.evidence),))
        stated = self.stated(row.path)
        if stated is not None:
            return Truth("Product", None, source, "likely",
                         (("product-sources", f"{stated} (stated with suggest --product-sources)"),))
        return None

    def stated(self, path: str | None) -> str | None:
        """The --product-sources directory holding `path`, else None."""
        if path is None:
            return None
        return next((p for p in self.product_sources if path == p or path.startswith(p.rstrip("/") + "/")), None)

    def warnings(self) -> list[str]:
        """One line per map that places no source in a package, and per map whose sources
        outside the package root (or nowhere) name no package and no reviewer claimed."""
        out = []
        by_unit: dict[str, list[MapSource]] = defaultdict(list)
        for row in self.rows:
            by_unit[row.unit].append(row)
        for unit, rows in by_unit.items():
            if not any(row.package for row in rows):
                out.append(f"{unit}: its map places none of its {len(rows)} sources in a package (no node_modules/ "
                           "path, no source outside the package root that names one): check that the map is the "
                           "bundle's and names its dependencies")
            lost = [row for row in rows if row.place == "outside" and row.package is None
                    and self.stated(row.path) is None]
            if lost:
                verb = "lies" if len(lost) == 1 else "lie"
                out.append(f"{unit}: {len(lost)} of its map's {len(rows)} sources {verb} outside the package root "
                           f"with no package named: {_directories(lost)}; their callsites are Unresolved (if they "
                           "are the product's: suggest --product-sources DIR)")
            unplaced = Counter(row.evidence for row in rows if row.place == "unplaced"
                               and self.stated(row.path) is None)
            for why, n in sorted(unplaced.items()):
                out.append(f"{unit}: {n} of its map's {len(rows)} sources cannot be placed ({why}); their callsites "
                           "are Unresolved")
        return out


def _directories(rows: list[MapSource]) -> str:
    """Where `rows` lie, by directory (`../src/ (12)`), most sources first: the first directory
    past the `..`s, one deeper while a single directory holds them all."""
    counted: Counter[str] = Counter()
    paths = [(row.path or "").split("/") for row in rows]
    depth = 1
    while True:
        keys = [_prefix(parts, depth) for parts in paths]
        if len(set(keys)) != 1 or not all(len(parts) > _ups(parts) + depth + 1 for parts in paths):
            break
        depth += 1
    counted.update(_prefix(parts, depth) for parts in paths)
    shown = [f"{name} ({n})" for name, n in sorted(counted.items(), key=lambda kv: (-kv[1], kv[0]))[:_LISTED]]
    more = len(counted) - _LISTED
    return ", ".join(shown) + (f" and {more} more" if more > 0 else "")


def _ups(parts: list[str]) -> int:
    return next((i for i, part in enumerate(parts) if part != ".."), len(parts))


def _prefix(parts: list[str], depth: int) -> str:
    """The leading `..`s and `depth` directories of a path (the file itself when it is nearer)."""
    end = _ups(parts) + depth
    return "/".join(parts[:end]) + "/" if end < len(parts) else "/".join(parts)


Emit = Callable[..., Suggestion]


def truth_suggestions(records: list[Callsite], graph: ReferenceGraph, emit: Emit, truth: MapTruth,
                      modules: dict[str, BundledModule] | None = None) -> list[Suggestion]:
    """Every level's suggestions for the callsites the map places."""
    placed = [(record, found) for record in records if (found := truth.of(record)) is not None]
    if not placed:
        return []
    roots, reached = _roots(records, graph, emit, truth, _Sources(modules or {}, truth))
    out = []
    for row in _callsite_level(placed, neighbours(records), emit):
        # a product callsite a suggested root reaches needs no entry of its own
        covering = {reached[i] for i in row.exampleIds if i in reached}
        out.append(replace(row, reachedBy=covering.pop() if len(covering) == 1 and row.owner == "Product" else None))
    out += _grouped(placed, "function", emit)
    out += _grouped(placed, "module", emit)
    return out + roots


def _confidence(members: list[tuple[Callsite, Truth]]) -> str:
    """The weakest word among the members' truths."""
    return _STRENGTH[max(_STRENGTH.index(truth.confidence) for _, truth in members)]


def _evidence(members: list[tuple[Callsite, Truth]]) -> list[tuple[str, str]]:
    sources = Counter(truth.source for _, truth in members)
    placed = sorted({item for _, truth in members for item in truth.evidence})
    return [("source-map", f"{source} ({n} callsite{'s' if n > 1 else ''})")
            for source, n in sorted(sources.items())] + placed


def _callsite_level(placed: list[tuple[Callsite, Truth]], around: dict[str, tuple[str, str]],
                    emit: Emit) -> list[Suggestion]:
    out = []
    groups: dict[tuple[str, int], list[tuple[Callsite, Truth]]] = defaultdict(list)
    for record, truth in placed:
        copies = record.copies
        if copies.count == 1:
            out.append(emit(f"s:callsite:{record.id}", "callsite", record.fingerprint, None, truth.owner,
                            truth.package, _confidence([(record, truth)]), _evidence([(record, truth)]), [record],
                            f"{truth.source}", record.message.comparisonKey))
        else:
            groups[(copies.group or "", copies.count)].append((record, truth))
    for (group, count), members in sorted(groups.items()):
        verdicts = {(t.owner, t.package) for _, t in members}
        records = [r for r, _ in members]
        if len(verdicts) == 1 and len(members) == count:
            _, truth = members[0]
            keys = {r.message.comparisonKey for r in records}
            out.append(emit(f"s:callsite:{records[0].id}", "callsite", group, count, truth.owner, truth.package,
                            _confidence(members), _evidence(members), records, truth.source,
                            keys.pop() if len(keys) == 1 else None))
        else:  # copies by different authors: each copy by where it sits, when that is unique
            for record, truth in members:
                place = around.get(record.id)
                if place is not None and len(members) == count:
                    alone = [(record, truth)]
                    out.append(emit(f"s:callsite:{record.id}", "callsite", group, None, truth.owner, truth.package,
                                    _confidence(alone), _evidence(alone), [record], truth.source,
                                    record.message.comparisonKey, neighbours=place))
                else:
                    out.append(emit(f"s:callsite:{record.id}", "callsite", group, count, None, None, "ambiguous",
                                    _evidence(members), [record], None, None, candidates=_candidates(members)))
    return out


def _candidates(members: list[tuple[Callsite, Truth]]) -> list[Candidate]:
    counted = Counter((t.owner, t.package) for _, t in members)
    return [Candidate(owner, package, n)
            for (owner, package), n in sorted(counted.items(), key=lambda kv: (kv[0][0], kv[0][1] or ""))]


def _grouped(placed: list[tuple[Callsite, Truth]], level: str, emit: Emit) -> list[Suggestion]:
    """Function or module suggestions: one per function (module) whose placed callsites agree
    and are all its callsites; functions with identical copies only as a whole group."""
    groups: dict[tuple[str, int], list[tuple[Callsite, Truth]]] = defaultdict(list)
    for record, truth in placed:
        key = _level_key(record, level)
        if key is not None:
            groups[key].append((record, truth))
    out = []
    for (fingerprint, count), members in sorted(groups.items()):
        verdicts = {(t.owner, t.package) for _, t in members}
        if len(verdicts) != 1:
            continue
        _, truth = members[0]
        records = [r for r, _ in members]
        out.append(emit(f"s:{level}:{fingerprint}", level, fingerprint, count if count > 1 else None, truth.owner,
                        truth.package, _confidence(members), _evidence(members), records, truth.source, None))
    return out


def _level_key(record: Callsite, level: str) -> tuple[str, int] | None:
    if level == "function":
        fingerprint, copies = record.functionFingerprint, record.functionCopies
        if not fingerprint or copies is None:
            return None
        return (fingerprint, 1) if copies.count == 1 else (copies.group or "", copies.count)
    module = record.module
    return (module.fingerprint, 1) if module is not None else None


# ---- product roots --------------------------------------------------------------------------


class _Sources:
    """The original file the source map gives each stretch of a unit (modules.jsonl spans)."""

    def __init__(self, modules: dict[str, BundledModule], truth: MapTruth) -> None:
        self._truth = truth
        spans = sorted((row.unit, start, end, row.source) for row in modules.values() if row.source
                       for start, end in row.spans)
        self._spans: dict[str, list[tuple[int, int, str]]] = defaultdict(list)
        for unit, start, end, source in spans:
            self._spans[unit].append((start, end, source))

    def product(self, unit: str, offset: int) -> bool:
        """Whether the map places the byte at `offset` in the product's sources."""
        for start, end, source in self._spans.get(unit, []):
            if start <= offset < end:
                found = self._truth.of_source(unit, source)
                return found is not None and found.owner == "Product"
        return False


def _roots(records: list[Callsite], graph: ReferenceGraph, emit: Emit, truth: MapTruth, sources: _Sources) \
        -> tuple[list[Suggestion], dict[str, str]]:
    """Product roots, greedily: each step takes the rootable binding that reaches the most
    product callsites not yet reached, among those whose reach the map contradicts nowhere; and
    which root's suggestion reaches each callsite."""
    by_item: dict[str, list[tuple[Callsite, Truth | None]]] = defaultdict(list)
    for record in records:
        item = graph.item_of(record.unit, record.offset, record.endOffset)
        if item is not None:
            by_item[item.id].append((record, truth.of(record) or _unowned(record)))
    candidates = _root_candidates(graph, by_item, sources)
    owned: set[str] = set()
    out: list[Suggestion] = []
    reached: dict[str, str] = {}
    gains: dict[tuple[str, str], int] = dict.fromkeys(candidates, 1 << 30)
    while gains and len(out) < MAX_ROOTS:
        best, reach = _best(graph, gains, owned, by_item)
        if best is None or reach is None:
            break
        members = [m for item in reach for m in by_item.get(item, [])]
        product = sum(1 for _, t in members if t is not None and t.owner == "Product")
        new = [m for item in sorted(reach - owned) for m in by_item.get(item, [])]
        if sum(1 for _, t in new if t is not None and t.owner == "Product") < MIN_ROOT_GAIN:
            break
        owned |= reach
        del gains[best]
        fingerprint = graph.bindings[best][0]
        unplaced = sum(1 for _, t in members if t is None)
        detail = (f"roots binding {best[1]} of {best[0]}: reaches {len(members)} callsites, "
                  f"{product} placed under the product's sources, none under node_modules"
                  + (f", {unplaced} not placed by the map" if unplaced else ""))
        out.append(emit(f"s:references:{fingerprint}", "references", fingerprint, None, "Product", None, "likely",
                        [("source-map", detail)], [m[0] for m in new], f"{best[1]} ({best[0]})", None))
        reached.update((m[0].id, out[-1].id) for m in new)
    return out, reached


def _unowned(record: Callsite) -> Truth | None:
    """A callsite the map places where no owner follows (outside the package, unnamed): a root
    reaching it would make it the product's, so it contradicts the root like a dependency's."""
    origin = record.origin
    return Truth("Unresolved", None, origin.source, "likely") if origin is not None else None


def _root_candidates(graph: ReferenceGraph, by_item: dict[str, list[tuple[Callsite, Truth | None]]],
                     sources: _Sources) -> list[tuple[str, str]]:
    """Rootable bindings (a unique fp1b, not a helper) whose declaration the map places in the
    product's sources: code the map does not place (a bundler's runtime) never roots."""
    out = []
    for binding, (fingerprint, count, helper) in sorted(graph.bindings.items()):
        if fingerprint is None or count > 1 or helper:
            continue
        item = graph.declaring_item(binding)
        if item is None:
            continue
        placed = [t for _, t in by_item.get(item, []) if t is not None]
        if placed and all(t.owner == "Product" for t in placed) and len(placed) == len(by_item[item]):
            out.append(binding)
        elif not by_item.get(item) and sources.product(binding[0], graph.item_offset(item)):
            out.append(binding)
    return out


def _best(
    graph: ReferenceGraph,
    gains: dict[tuple[str, str], int],
    owned: set[str],
    by_item: dict[str, list[tuple[Callsite, Truth | None]]],
) -> tuple[tuple[str, str] | None, set[str] | None]:
    """Lazy greedy: recompute the candidate with the highest stale gain until it stays on top."""
    while gains:
        candidate = max(gains, key=lambda c: (gains[c], c))
        reach = set(graph.reach([candidate]))
        if any(t is not None and t.owner != "Product" for item in reach for _, t in by_item.get(item, [])):
            del gains[candidate]  # the map contradicts this root: never suggested
            continue
        gain = sum(
            1 for item in reach - owned for _, t in by_item.get(item, []) if t is not None and t.owner == "Product"
        )
        if gain >= max((g for c, g in gains.items() if c != candidate), default=-1):
            gains[candidate] = gain
            return candidate, reach
        gains[candidate] = gain
    return None, None
