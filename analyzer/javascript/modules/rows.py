"""A scan's modules: per unit, its evidence and its modules.jsonl rows; across units, the
fingerprints and each callsite's `Module` record."""

from __future__ import annotations

import bisect
import dataclasses
import posixpath
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from analyzer.facts import (
    MODULE_SCHEMA,
    BundledModule,
    BundleModules,
    SourceMapUse,
)
from analyzer.identity import scan_fingerprints
from analyzer.javascript.handlers.original import source_bodies
from analyzer.javascript.modules.evidence import UnitModules, with_evidence
from analyzer.javascript.modules.spans import ModuleIndex, ModuleMap, ModuleSpan
from analyzer.model import Module, Origin, SourceBody, Unit
from analyzer.places import UnitPlace, package_root, place_sources
from analyzer.sourcemap import LocatedMap, SourceMapError, find_source_map, package_of


@dataclass(frozen=True, slots=True)
class UnitEvidence:
    """What one unit contributes to a scan's modules, before fingerprints (which number equal
    modules across units): computed per unit, in the helper process when there is one."""

    evidence: UnitModules
    use: SourceMapUse
    #: modules.jsonl rows, their fingerprints still empty
    rows: list[BundledModule]
    #: catch clause offset -> what its original body holds, for the clauses empty in the bundle
    bodies: dict[int, SourceBody] = dataclasses.field(default_factory=dict)


def unit_evidence(unit: Unit, found: ModuleMap | None, sites: Sequence[tuple[str, int]],
                  place: UnitPlace, handlers: Sequence[int] = (),
                  clauses: Sequence[tuple[int, int]] = ()) -> UnitEvidence:
    """`sites`: the unit's callsites as (kind, offset); `handlers`: its handlers' offsets, placed
    like callsites; `clauses`: its catch clauses as (offset, end), whose original bodies the map's
    text may tell. A bundle given as a file may have a map beside it; other units (embedded, in a
    tree) only inline ones."""
    located, use = _source_map(unit, place)
    evidence = with_evidence(unit.source, found, located, [offset for _, offset in sites], handlers)
    use = dataclasses.replace(use, mapped=len(evidence.site_origins))
    bodies = source_bodies(unit.source, located.map, clauses, evidence.handler_origins) \
        if located is not None and clauses else {}
    return UnitEvidence(evidence, use, _rows(unit, evidence, sites, located), bodies)


def bundle_modules(units: Sequence[tuple[Unit, UnitEvidence, Sequence[tuple[str, int]]]]) -> BundleModules:
    """`units`: (unit, its evidence, its callsites as (kind, offset))."""
    order = [(unit.name, span.start) for unit, found, _ in units for span in found.evidence.spans]
    digests = [span.digest for _, found, _ in units for span in found.evidence.spans]
    fingerprints = iter(scan_fingerprints("fp1m", digests, order))
    rows: list[BundledModule] = []
    records: dict[tuple[str, int], Module] = {}
    origins: dict[tuple[str, int], Origin] = {}
    bodies: dict[tuple[str, int], SourceBody] = {}
    for unit, found, sites in units:
        unit_rows = [dataclasses.replace(row, fingerprint=next(fingerprints)) for row in found.rows]
        rows.extend(unit_rows)
        for _, offset in sites:
            holder = found.evidence.site_modules.get(offset)
            if holder is not None:
                row = unit_rows[holder]
                records[(unit.name, offset)] = Module(row.id, row.kind, row.name, row.fingerprint)
        origins.update({(unit.name, offset): origin for offset, origin in found.evidence.site_origins.items()})
        # a handler is placed by its offset as a callsite is (the same offset gets the same place)
        for offset, holder in found.evidence.handler_modules.items():
            row = unit_rows[holder]
            records[(unit.name, offset)] = Module(row.id, row.kind, row.name, row.fingerprint)
        origins.update({(unit.name, offset): origin for offset, origin in found.evidence.handler_origins.items()})
        bodies.update({(unit.name, offset): body for offset, body in found.bodies.items()})
    rows.sort(key=lambda r: (r.unit, r.offset, -r.endOffset))
    return BundleModules(rows, records, origins, [found.use for _, found, _ in units], bodies)


def _source_map(unit: Unit, place: UnitPlace) -> tuple[LocatedMap | None, SourceMapUse]:
    try:
        located = find_source_map(place.beside, unit.source)
    except SourceMapError as exc:
        return None, SourceMapUse(unit.name, None, f"unusable: {exc}", None, 0, 0)
    if located is None:
        return None, SourceMapUse(unit.name, None, "none", None, 0, 0)
    directory, manifests = place.directory, place.manifests
    root = package_root(directory, manifests, place.top) if directory is not None else None
    map_directory = None
    if directory is not None:
        map_directory = directory if located.where == "inline" else directory / posixpath.dirname(located.where)
    places = place_sources(located.map.sources, located.map.written, directory, map_directory, root, manifests)
    return located, SourceMapUse(unit.name, located.where, "used", located.sha256, len(located.map.sources), 0,
                                 root[1] if root is not None else None, tuple(places))


def _rows(
    unit: Unit, evidence: UnitModules, sites: Sequence[tuple[str, int]], located: LocatedMap | None
) -> list[BundledModule]:
    counts: list[Counter[str]] = [Counter() for _ in evidence.spans]
    for kind, offset in sites:
        holder = evidence.site_modules.get(offset)
        if holder is not None:
            counts[holder][kind] += 1
    lines = _lines(unit.source, [span.start for span in evidence.spans])
    ids = [f"m:{unit.name}@{span.start}" for span in evidence.spans]
    banners, manifests = _package_marks(unit.source, evidence.spans)
    rows = []
    for index, span in enumerate(evidence.spans):
        source = evidence.sources[index]
        parent = evidence.parents[index]
        notes = [span.evidence]
        if source is not None and located is not None:
            notes.append(f"source map {located.where}: {source}")
        rows.append(
            BundledModule(
                schema=MODULE_SCHEMA,
                id=ids[index],
                unit=unit.name,
                kind=span.kind,
                name=span.key or source or span.binding or "<anonymous>",
                fingerprint="",  # numbered across units by `bundle_modules`
                offset=span.start,
                endOffset=span.end,
                bodyOffset=span.body,
                line=lines[span.start],
                spans=[list(r) for r in span.ranges] if span.ranges else [[span.start, span.end]],
                parent=ids[parent] if parent is not None else None,
                binding=span.binding,
                key=span.key if not span.ranges else None,
                source=source,
                package=_package(span.kind, span.key, source),
                banners=banners[index],
                manifests=manifests[index],
                evidence=tuple(notes),
                callsites={kind: counts[index].get(kind, 0) for kind in ("error", "diagnostic")},
            )
        )
    return rows


_BANNER = re.compile(
    rb"/\*!\s*(@?[a-z0-9][a-z0-9._~-]*(?:/[a-z0-9][a-z0-9._~-]*)?)"
    rb"(?:\s+v?\d+\.\d+|[\s.,:-]+(?:MIT|ISC|BSD|Apache|MPL|License|license|\(c\)))"
)
_MANIFEST_NAME = re.compile(rb"[{,]\s*\"?name\"?\s*:\s*\"(@?[a-z0-9][a-z0-9._~-]*(?:/[a-z0-9][a-z0-9._~-]*)?)\"")
_MANIFEST_VERSION = re.compile(rb"\"?version\"?\s*:\s*\"\d+\.\d+\.\d+")


def _package_marks(source: bytes, spans: Sequence[ModuleSpan]) -> tuple[list[tuple[str, ...]], list[tuple[str, ...]]]:
    """Per span, the packages license banners and inlined package.json objects name (found by
    `bytes.find` of `/*!` and `version:`; a banner up to 16 bytes before a module is its own)."""
    index = ModuleIndex([(m.start, m.end) for m in spans])
    starts = sorted((m.start, i) for i, m in enumerate(spans))
    banners: list[set[str]] = [set() for _ in spans]
    manifests: list[set[str]] = [set() for _ in spans]
    at = source.find(b"/*!")
    while at >= 0:
        found = _BANNER.match(source, at)
        end = source.find(b"*/", at)
        if found is not None and end >= 0:
            holder = index.find(at)
            following = bisect.bisect_left(starts, (end + 2, -1))
            if following < len(starts) and starts[following][0] - (end + 2) <= 16:
                holder = starts[following][1]
            if holder is not None:
                banners[holder].add(found.group(1).decode().rstrip("._~-"))
        at = source.find(b"/*!", at + 3)
    for literal in (b"version:", b'"version":'):
        at = source.find(literal)
        while at >= 0:
            holder = index.find(at)
            if holder is not None and _MANIFEST_VERSION.match(source, at):
                names = list(_MANIFEST_NAME.finditer(source, max(spans[holder].start, at - 400), at))
                if names:
                    manifests[holder].add(names[-1].group(1).decode())
            at = source.find(literal, at + 1)
    return [tuple(sorted(b)) for b in banners], [tuple(sorted(m)) for m in manifests]


def _package(kind: str, key: str | None, source: str | None) -> str | None:
    for path in (source, key):
        found = package_of(path) if path else None
        if found is not None:
            return found
    if kind == "browserify" and key and not key.startswith((".", "/")):  # required by a bare name
        parts = key.split("/")
        return "/".join(parts[:2]) if key.startswith("@") and len(parts) > 1 else parts[0]
    return None


def _lines(source: bytes, offsets: Sequence[int]) -> dict[int, int]:
    out: dict[int, int] = {}
    line, at = 1, 0
    for offset in sorted(set(offsets)):
        line += source.count(b"\n", at, offset)
        at = offset
        out[offset] = line
    return out
