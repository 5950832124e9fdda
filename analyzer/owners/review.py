"""The review workflow: `allow` writes an entry from a scan's callsite, `prune` drops stale ones."""

from __future__ import annotations

import datetime as dt
import os
import shlex
from pathlib import Path

from analyzer.errors import InputError
from analyzer.handler_model import Handler
from analyzer.model import Callsite
from analyzer.owners.allowlist import (
    Allowlist,
    Entry,
    checked_rendering,
    load_allowlist,
    load_allowlists,
    overridden,
    validated_entry,
    write_allowlist,
)
from analyzer.owners.handlers import project_handlers, still_stale
from analyzer.owners.projection import match_keys, project
from analyzer.owners.references import ReferenceGraph
from analyzer.scandir.load import in_bundle_order, load_callsites, load_handlers
from analyzer.scandir.read import verified
from analyzer.scandir.targets import ALLOWED, nothing_named
from analyzer.scandir.write import write_file


def _scan(directory: Path) -> tuple[list[Callsite], ReferenceGraph, list[Handler] | None]:
    return _scan_of(verified(directory)[0])


def _scan_of(files: dict[str, bytes]) -> tuple[list[Callsite], ReferenceGraph, list[Handler] | None]:
    return in_bundle_order(load_callsites(files)), ReferenceGraph.load(files), load_handlers(files)


def _existing(path: Path) -> list[Entry]:
    return list(load_allowlist(path).entries) if os.path.lexists(path) else []


#: the option of `erratlas allow` that sets each allowlist key
OPTIONS = {
    "match": "TARGET",
    "copies": "--all-copies",
    "neighbours": "TARGET",
    "owner": "--owner",
    "package": "--package",
    "function": "--name",
    "expect": "TARGET",
    "catchOwner": "--catch-owner",
    "retryOwner": "--retry-owner",
    "toolResultOwner": "--tool-result-owner",
    "userSurfaceOwner": "--user-surface-owner",
    "reason": "--reason",
    "reviewedBy": "--reviewer",
    "reviewedOn": "--on",
}


def _option_problem(key: str | None, problem: str) -> InputError:
    return InputError(OPTIONS.get(key or "", "allow"), problem)


def add_entry(
    directory: Path,
    target: str,
    allowlist: Path,
    *,
    owner: str,
    package: str | None,
    function: str | None,
    reason: str,
    reviewer: str,
    scope: str,
    owner_fields: dict[str, str],
    reviewed_on: str | None,
    all_copies: bool = False,
) -> Entry:
    """Write a reviewed entry; every value is validated, and the allowlist read, before any
    byte is written."""
    records, graph, _ = _scan(directory)
    copies: int | None = None
    record = None
    fingerprint: str | None
    if target.startswith("fp1b:") or scope == "references":
        scope, fingerprint = "references", _root(records, graph, target, directory)
    else:
        record = _find(records, target, directory)
        if target.startswith("fp1f:"):
            scope = "function"
        elif target.startswith("fp1m:"):
            scope = "module"
        fingerprint = match_keys(record)[scope]
        if fingerprint is None:
            raise InputError(target, f"this callsite has no {scope} fingerprint (module-level code, or no module map)")
        group = (record.copies if scope == "callsite" else record.functionCopies) if scope != "module" else None
        if group is not None and group.count > 1:
            if not all_copies:
                raise InputError(target, f"this {scope}'s code has {group.count} identical copies in the scan: "
                                         "review them together and pass --all-copies (an entry never names one copy)")
            copies, fingerprint = group.count, str(group.group)
    body: dict[str, object] = {
        "match": {scope: fingerprint},
        **({"copies": copies} if copies is not None else {}),
        "owner": owner,
        **({"package": package} if package is not None else {}),
        **({"function": function} if function is not None else {}),
        **({"expect": record.message.comparisonKey} if scope == "callsite" and record is not None else {}),
        **owner_fields,
        "reason": reason,
        "reviewedBy": reviewer,
        "reviewedOn": reviewed_on or dt.date.today().isoformat(),
    }
    entry = validated_entry(body, _option_problem, str(allowlist))
    kept = [e for e in _existing(allowlist) if e.identity() != entry.identity()]
    write_allowlist(allowlist, [*kept, entry])
    return entry


def _root(records: list[Callsite], graph: ReferenceGraph, target: str, directory: Path) -> str:
    """The fp1b a `references` entry names: given, or the one binding declared by the top-level
    item that holds the callsite `target`."""
    if target.startswith("fp1b:"):
        if target not in graph.by_fingerprint:
            raise InputError(directory, nothing_named("binding", target, (), ALLOWED))
        return target
    record = _find(records, target, directory)
    item = graph.item_of(record.unit, record.offset, record.endOffset)
    if item is None and not graph.bindings:  # a Python scan's graph is empty: its frontend roots no binding
        raise InputError(target, "this scan has no reference graph (references.jsonl is empty): a references entry "
                                 "roots a JavaScript binding; own the callsite, its --function or its --module")
    if item is None:
        raise InputError(target, "this callsite lies in no top-level item of the reference graph")
    rooted = [graph.bindings[(record.unit, name)] for name in item.declares]
    usable = [fp for fp, count, helper in rooted if fp is not None and count == 1 and not helper]
    if len(usable) != 1:
        raise InputError(target, f"the top-level item {item.id} declares {len(item.declares)} bindings, "
                                 f"{len(usable)} of them usable as a root: name one by its fp1b")
    return usable[0]


def _find(records: list[Callsite], target: str, directory: Path) -> Callsite:
    for key in ("id", "fingerprint", "functionFingerprint"):
        for record in records:
            if getattr(record, key) == target:
                return record
    for record in records:
        if record.module is not None and record.module.fingerprint == target:
            return record
    raise InputError(directory, nothing_named("callsite", target, (r.id for r in records), ALLOWED))


def prune_stale(directory: Path, paths: list[Path]) -> list[tuple[Path, list[Entry], list[Entry]]]:
    """Drop the stale entries of each allowlist; every rewrite is rendered and read back before
    the first file is replaced. Each allowlist's stale entries, and the entries its canonical
    form leaves out for repeating a later one's match and owner (`overridden`)."""
    files, summary = verified(directory)
    records, graph, handlers = _scan_of(files)
    allowlists: list[Allowlist] = load_allowlists(paths)
    projection = project(records, allowlists, graph)
    found = projection.stale
    if handlers is not None:  # an entry that owns only handlers is not stale (docs/owners.md, "Handlers")
        found = still_stale(found, project_handlers(handlers, allowlists, projection, graph))
    stale = {e.origin for e in found}
    report, rewrites = [], []
    for path, allowlist in zip(paths, allowlists):
        removed = [e for e in allowlist.entries if e.origin in stale]
        if removed and allowlist.sha256 not in {item.sha256 for item in summary.allowlists}:
            again = f"erratlas project {shlex.quote(str(directory))} -a {shlex.quote(str(path))}"
            raise InputError(path, f"{directory} was not projected with this allowlist: its {len(removed)} entries "
                                   f"that match nothing there may be another bundle's, not stale; run `{again}`, "
                                   "read the stale entries, then prune")
        kept = [e for e in allowlist.entries if e.origin not in stale]
        if removed:
            rewrites.append((path, checked_rendering(path, kept)))
        report.append((path, removed, overridden(kept) if removed else []))
    for path, data in rewrites:
        write_file(path, data)
    return report
