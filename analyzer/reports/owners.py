"""The owner half of a scan directory: projection rows, the reviewer's index, the summary.

Shared by `scan` and `project`: it reads only the inventory files, never the bundle.
"""

from __future__ import annotations

from typing import Any

import orjson

from analyzer.errors import InputError
from analyzer.owners.allowlist import Allowlist
from analyzer.owners.projection import Projection, owner_counts, project
from analyzer.owners.references import ReferenceGraph
from analyzer.reports.index import INDEX_DIRECTORY, INDEX_FILE, index_files
from analyzer.reports.inventory import CALLSITE_FILES, jsonl
from analyzer.reports.summary import SUMMARY_FILE, finish
from analyzer.trace import mark

PROJECTION_FILE = "error-diagnostic-owner-projection.jsonl"
PROJECTION_SCHEMA = "erratlas.projection/1"
DERIVED_FILES = (PROJECTION_FILE, INDEX_FILE, SUMMARY_FILE)


def is_derived(name: str) -> bool:
    """A file `project` makes anew: the projection, the index and its pages, the summary."""
    return name in DERIVED_FILES or name.startswith(INDEX_DIRECTORY)


def load_records(files: dict[str, bytes]) -> list[dict[str, Any]]:
    records: list[dict[str, Any]] = []
    for kind in ("error", "diagnostic"):
        found = _rows(files[CALLSITE_FILES[kind]], CALLSITE_FILES[kind])
        if found and "readable" not in found[0]:
            raise InputError(CALLSITE_FILES[kind], "written by an earlier erratlas (records without `readable`, "
                                                   "its readable slice): scan the bundle again")
        records.extend(found)
    return sorted(records, key=lambda r: (r["unit"], r["offset"], r["kind"]))


def _rows(data: bytes, name: str) -> list[dict[str, Any]]:
    """The records of a JSON-lines file, in one parse (a line-by-line parse costs a third more);
    a file that does not parse whole is read line by line."""
    data = data.strip()
    if not data:
        return []
    lines = data.count(b"\n") + 1
    try:
        rows = orjson.loads(b"[" + data.replace(b"\n", b",") + b"]")
    except orjson.JSONDecodeError:
        rows = None
    if isinstance(rows, list) and len(rows) == lines:
        return rows
    # line by line: names the first line that is not one value, and serves where the one parse
    # could not have its buffer (orjson says so with the same exception, under a memory bound)
    out = []
    for number, line in enumerate(data.split(b"\n"), start=1):
        try:
            out.append(orjson.loads(line))
        except orjson.JSONDecodeError as exc:
            raise InputError(f"{name}:{number}", f"not JSON: {exc}") from None
    return out


def owner_files(files: dict[str, bytes], allowlists: list[Allowlist], base: dict[str, Any],
                records: list[dict[str, Any]] | None = None) -> dict[str, bytes]:
    """Projection, index and summary for the inventory in `files` (which is not modified);
    `records`: the inventory's records when the caller has loaded them already."""
    records = load_records(files) if records is None else records
    # the reference graph serves `references` entries only: without one it is not read
    uses_graph = any(entry.level == "references" for allowlist in allowlists for entry in allowlist.entries)
    graph = ReferenceGraph.load(files) if uses_graph else None
    projection, owners, base = _owners(records, allowlists, base, graph)
    mark("owners: projected")
    out = {PROJECTION_FILE: jsonl([{"schema": PROJECTION_SCHEMA, **row} for row in projection.rows])}
    out |= index_files(records, projection, owners, base)
    mark("owners: index in")
    out[SUMMARY_FILE] = finish(base, owners, {**files, **out})
    return out


def _owners(
    records: list[dict[str, Any]], allowlists: list[Allowlist], base: dict[str, Any], graph: ReferenceGraph | None
) -> tuple[Projection, dict[str, Any], dict[str, Any]]:
    """(projection, the summary's owner part, the scan's part with the allowlists as inputs)."""
    projection = project(records, allowlists, graph)
    section = owner_counts(records, projection)
    unresolved = sorted(row["fingerprint"] for row in projection.rows if row["owner"] == "Unresolved")
    base = dict(base)
    inputs = dict(base["inputs"])
    inputs["allowlists"] = [
        {"path": a.path, "sha256": a.sha256, "entries": len(a.entries)} for a in allowlists
    ]
    base["inputs"] = inputs
    owners: dict[str, Any] = {
        "owners": section["counts"],
        "coverage": section["coverage"],
        "stale": [_describe(e) for e in projection.stale],
        "drifted": [
            {**_describe(entry), "callsite": callsite, "found": found} for entry, callsite, found in projection.drifted
        ],
        "ambiguous": [
            {**_describe(entry), "matched": matched, "copies": count} for entry, matched, count in projection.ambiguous
        ],
        "unresolvedFingerprints": unresolved,
        "invariants": section["invariants"],
    }
    return projection, owners, base


def _describe(entry: Any) -> dict[str, Any]:
    return {
        "entry": entry.origin,
        "level": entry.level,
        "fingerprint": entry.fingerprint,
        "owner": entry.owner,
        "package": entry.package,
        "function": entry.function,
        "expect": entry.expect,
        "copies": entry.copies,
    }
