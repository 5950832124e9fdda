"""The owner half of a scan directory, made from its inventory: `owners` projects, `reports`
renders the projection, the index and the summary. Shared by `scan`, `project` and `gate` (which
makes it again to check every byte); the one module that knows both stages.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import orjson

from analyzer.errors import InputError
from analyzer.handler_model import Handler
from analyzer.model import Callsite, ReferenceItem
from analyzer.owners.allowlist import Allowlist, Entry
from analyzer.owners.gate import recorded_allowlists
from analyzer.owners.handlers import handler_owner_counts, project_handlers, still_stale
from analyzer.owners.projection import owner_counts, project
from analyzer.owners.references import ReferenceGraph
from analyzer.reports.flow import flow_pages
from analyzer.reports.index import index_files
from analyzer.reports.inventory import jsonl
from analyzer.reports.summary import counts, finish
from analyzer.scandir.files import (
    CALLSITE_FILES,
    HANDLER_PROJECTION_FILE,
    HANDLERS_FILE,
    INDEX_FILE,
    PROJECTION_FILE,
    SUMMARY_FILE,
    is_derived,
)
from analyzer.scandir.load import in_bundle_order, load_callsites, load_handlers
from analyzer.scandir.read import check_listed, show, verified
from analyzer.scandir.summary import scan_part
from analyzer.summary_model import (
    AmbiguousEntry,
    DriftedEntry,
    HandlerTally,
    OwnerPart,
    RecordedAllowlist,
    ScanPart,
    StaleEntry,
    Summary,
)
from analyzer.trace import mark


def owner_files(files: Mapping[str, bytes], allowlists: list[Allowlist], scan: ScanPart,
                records: list[Callsite] | None = None, references: list[ReferenceItem] | None = None,
                handlers: list[Handler] | None = None, digests: Mapping[str, str] | None = None,
                held: list[object] | None = None,
                made: Callable[[dict[str, bytes]], None] | None = None) -> dict[str, bytes]:
    """Projection, index and summary for the inventory in `files` (which is not modified; read
    last, for the summary, when `records`, `references` and `handlers` are given);
    `scan`, the scan's part of the summary (open data, carried as it is); `records` (by unit,
    offset and kind), `references` and `handlers`: the inventory's, when the caller has them in
    hand (a scan), else read from `files`; `digests`: the sha256 of files already hashed;
    `held`: where to keep what was made, for a caller that exits without freeing it; `made`: called
    with every file but the summary once they are made (a scan writes them while the summary waits
    for the inventory's digests)."""
    records = in_bundle_order(load_callsites(dict(files))) if records is None else records
    if handlers is None:  # read back: they must be the handlers the scan counted
        handlers = load_handlers(dict(files))
        if handlers is not None and scan.handlers is not None:
            _agree(handlers, scan.handlers)
    # the reference graph serves `references` entries only: without one it is not read
    uses_graph = any(entry.level == "references" for allowlist in allowlists for entry in allowlist.entries)
    graph = None
    if uses_graph:
        graph = ReferenceGraph(references) if references is not None else ReferenceGraph.load(dict(files))
    projection = project(records, allowlists, graph)
    counts, coverage, invariants = owner_counts(records, projection)
    stale = projection.stale
    out = {PROJECTION_FILE: jsonl(projection.rows)}  # type: ignore[arg-type]
    flow: tuple[list[str], dict[str, bytes]] | None = None
    handler_owners = None
    if handlers is not None:
        handler_rows = project_handlers(handlers, allowlists, projection, graph)
        stale = still_stale(projection.stale, handler_rows)
        findings = [handler.findings() for handler in handlers]  # each handler's, once: four readers
        handler_owners, more = handler_owner_counts(handlers, handler_rows, findings,
                                                    scan.handlers)
        invariants = invariants + more
        out[HANDLER_PROJECTION_FILE] = jsonl(handler_rows)  # type: ignore[arg-type]
        flow = flow_pages(handlers, handler_rows, findings, records)
    owners = OwnerPart(
        owners=counts, coverage=coverage, stale=[StaleEntry(*_noted(e), e.copies) for e in stale],
        drifted=[DriftedEntry(*_noted(entry), entry.copies, callsite, found)
                 for entry, callsite, found in projection.drifted],
        ambiguous=[AmbiguousEntry(*_noted(entry), count, matched) for entry, matched, count in projection.ambiguous],
        unresolvedFingerprints=sorted(row.fingerprint for row in projection.rows if row.owner == "Unresolved"),
        invariants=invariants, handlerOwners=handler_owners)
    applied = [RecordedAllowlist(a.path, a.sha256, len(a.entries)) for a in allowlists]
    mark("owners: projected")
    out |= index_files(records, projection.rows, owners, scan.head, applied,
                       flow[0] if flow is not None else None)
    if flow is not None:
        out |= flow[1]
    mark("owners: index in")
    if made is not None:
        made(out)
    known = {name: digest for name, digest in (digests or {}).items() if name in files and name not in out}
    out[SUMMARY_FILE] = finish(scan, applied, owners, {**files, **out}, known)
    if held is not None:
        held.append(locals())  # every local: the records, the graph, the projection, the rows
    return out


def _agree(handlers: list[Handler], scanned: HandlerTally) -> None:
    """Refuse handler records that are not the ones the summary's `handlers` block counts (a
    line dropped, doubled or changed): the owners' counts must sum to that block's."""
    kinds = Counter(d.kind for handler in handlers for branch in handler.branches for d in branch.dispositions)
    counted = {kind: number for kind, number in scanned.byDisposition.items() if number}
    if len(handlers) != scanned.count or kinds != counted:
        said = f"{len(handlers)} handlers" if len(handlers) != scanned.count else \
            f"branches by disposition {dict(sorted(kinds.items()))}"
        raise InputError(HANDLERS_FILE, f"holds {said}, the summary's handlers block counts "
                                        f"{scanned.count if len(handlers) != scanned.count else counted}")


def _noted(entry: Entry) -> tuple[str, str, str, str, str | None, str | None, str | None]:
    """What the summary says of an entry that did not apply, before its `copies` (and the rest)."""
    return entry.origin, entry.level, entry.fingerprint, entry.owner, entry.package, entry.function, entry.expect


# ---- the gate's recomputation ----------------------------------------------------------------------


#: what the gate recomputed, kept until its process exits without freeing it (`analyzer.cli.app.main`):
#: freeing the records, the graph and the rows one by one costs 5% of the gate (docs/performance.md)
_HELD: list[object] = []


def recompute(directory: Path, files: dict[str, bytes], summary: Summary,
              allowlists: list[Allowlist]) -> Summary:
    """The summary made again from the inventory and the allowlists, typed; any difference from
    the directory's counts, projection, index or summary is refused with the first one."""
    where = directory / SUMMARY_FILE
    inventory = {name: data for name, data in files.items() if not is_derived(name)}
    records = in_bundle_order(load_callsites(inventory))
    _HELD.append(records)
    try:
        recount = counts(records)
        # the readable slice each callsite's record points into (the index links there)
        check_listed(directory, {r.readable.file for r in records}, summary.outputs)
        # each inventory file's sha256 was checked against the summary by `verified`
        derived = owner_files(inventory, allowlists, scan_part(summary.document, where), records,
                              digests=summary.outputs, held=_HELD)
        _HELD.append(derived)
    except (KeyError, TypeError, AttributeError, ValueError, IndexError) as exc:
        raise InputError(directory / CALLSITE_FILES["error"],
                         f"records do not have the shape erratlas writes ({type(exc).__name__}: {exc})") from None
    stored = summary.document
    if orjson.dumps(recount) != orjson.dumps(stored.get("counts")):  # the bytes: key order too
        raise InputError(where, "counts disagree with the records: "
                                + _difference(stored.get("counts"), recount, "counts"))
    for name in (PROJECTION_FILE, HANDLER_PROJECTION_FILE, INDEX_FILE, SUMMARY_FILE):
        if name not in derived and name not in files:
            continue
        if derived.get(name) != files.get(name):
            if name == SUMMARY_FILE:
                difference = _difference(stored, orjson.loads(derived[name]))
            else:
                difference = _first_line(files.get(name, b""), derived.get(name, b""))
            raise InputError(directory / name, f"disagrees with the owners recomputed from the inventory and "
                                               f"the allowlists: {difference}")
    # the recomputed summary is the file's bytes: the one `verified` read
    return summary


#: a key one side lacks: `null` is a value, and a key set to it is not the same document
_ABSENT = object()


def _difference(stored: Any, recomputed: Any, root: str = "") -> str:
    """The first place two JSON documents (at key `root` of the file) differ, as `key.path: stored
    here, recomputed there`; or the first object whose keys come in another order."""
    pending: list[tuple[str, Any, Any]] = [(root, stored, recomputed)]
    reordered: list[str] = []
    while pending:
        path, left, right = pending.pop(0)
        if isinstance(left, dict) and isinstance(right, dict):
            if list(left) != list(right):
                reordered.append(path or "the document")
            for key in [*right, *(k for k in left if k not in right)]:
                pending.append((f"{path}.{key}" if path else str(key), left.get(key, _ABSENT),
                                right.get(key, _ABSENT)))
        elif isinstance(left, list) and isinstance(right, list) and len(left) == len(right):
            pending.extend((f"{path}[{i}]", a, b) for i, (a, b) in enumerate(zip(left, right)))
        elif left != right or type(left) is not type(right):
            return f"{path or 'the document'} is {_shown(left)} in the file, {_shown(right)} recomputed"
    if reordered:
        return f"the same values, {reordered[0]} with its keys in another order"
    return "the same values, other bytes"


def _shown(value: Any) -> str:
    return "absent" if value is _ABSENT else show(value)


def _first_line(stored: bytes, recomputed: bytes) -> str:
    left, right = stored.split(b"\n"), recomputed.split(b"\n")
    for number, (a, b) in enumerate(zip(left, right), start=1):
        if a != b:
            return f"line {number} differs"
    return f"{len(left) - 1} lines in the file, {len(right) - 1} recomputed"


def checked_summary(directory: Path, allowlists: list[Path]) -> Summary:
    """Verify `directory` and recompute its owners: the summary the gate may believe."""
    files, summary = verified(directory)
    where = directory / SUMMARY_FILE
    found = recorded_allowlists(summary.allowlists, allowlists, where)
    return recompute(directory, files, summary, found)
