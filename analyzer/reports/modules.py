"""modules.jsonl and the summary's `modules` block: the bundler module map of a scan."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

import orjson

from analyzer.model import MAP_SOURCE_SCHEMA, PLACES
from analyzer.scandir.files import MAP_SOURCES_FILE, MODULES_FILE

if TYPE_CHECKING:
    from analyzer.facts import SourceMapUse
    from analyzer.scan import ScanResult



def module_files(result: ScanResult) -> dict[str, bytes]:
    rows = result.modules.rows if result.modules is not None else []
    files = {MODULES_FILE: b"".join(orjson.dumps(row) + b"\n" for row in rows)}
    used = [m for m in (result.modules.maps if result.modules is not None else []) if m.status == "used"]
    if used:
        files[MAP_SOURCES_FILE] = b"".join(
            orjson.dumps({"schema": MAP_SOURCE_SCHEMA, "unit": m.unit, "map": m.map, "source": p.source,
                          "path": p.path, "place": p.place, "package": p.package, "evidence": p.evidence}) + b"\n"
            for m in sorted(used, key=lambda m: m.unit) for p in m.places
        )
    return files


def place_counts(use: SourceMapUse) -> dict[str, int]:
    """A used map's distinct sources by place (PLACES order)."""
    found = Counter(p.place for p in use.places)
    return {place: found.get(place, 0) for place in PLACES}


def _map_row(use: SourceMapUse) -> dict[str, object]:
    row: dict[str, object] = {"unit": use.unit, "map": use.map, "status": use.status, "sha256": use.sha256,
                              "sources": use.sources, "mappedCallsites": use.mapped}
    if use.status == "used":  # where the map's sources lie against the bundle's package
        root = use.root
        row["packageRoot"] = {"path": root.path, "name": root.name, "sha256": root.sha256} if root else None
        row["places"] = place_counts(use)
    return row


def module_summary(result: ScanResult) -> dict[str, object]:
    """Module counts, the share of callsites inside a module, and how source maps were used."""
    rows = result.modules.rows if result.modules is not None else []
    maps = result.modules.maps if result.modules is not None else []
    inside = Counter(r.kind for r in result.callsites if r.module is not None)
    total = Counter(r.kind for r in result.callsites)
    with_origin = Counter(r.kind for r in result.callsites if r.origin is not None)
    return {
        "count": len(rows),
        "byKind": dict(sorted(Counter(r.kind for r in rows).items())),
        "withCallsites": sum(1 for r in rows if any(r.callsites.values())),
        "withPackage": sum(1 for r in rows if r.package is not None),
        "callsitesInModule": {
            kind: {"inModule": inside.get(kind, 0), "total": total.get(kind, 0)} for kind in ("error", "diagnostic")
        },
        "callsitesWithOrigin": {kind: with_origin.get(kind, 0) for kind in ("error", "diagnostic")},
        "sourceMaps": [_map_row(m) for m in maps],
    }
