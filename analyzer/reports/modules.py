"""modules.jsonl and the summary's `modules` block: the bundler module map of a scan."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

import orjson

if TYPE_CHECKING:
    from analyzer.scan import ScanResult


MODULES_FILE = "modules.jsonl"


def module_files(result: ScanResult) -> dict[str, bytes]:
    rows = result.modules.rows if result.modules is not None else []
    return {MODULES_FILE: b"".join(orjson.dumps(row) + b"\n" for row in rows)}


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
        "sourceMaps": [
            {"unit": m.unit, "map": m.map, "status": m.status, "sha256": m.sha256, "sources": m.sources,
             "mappedCallsites": m.mapped}
            for m in maps
        ],
    }
