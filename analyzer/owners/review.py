"""The review workflow: `allow` writes an entry from a scan's callsite, `prune` drops stale ones."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from analyzer.owners.allowlist import Allowlist, Entry, load_allowlist, write_allowlist
from analyzer.errors import InputError
from analyzer.owners.gate import verify
from analyzer.owners.projection import match_keys, project
from analyzer.reports.output import read_directory
from analyzer.reports.owners import load_records


def _records(directory: Path) -> list[dict]:  # type: ignore[type-arg]
    files = read_directory(directory)
    verify(directory, files)
    return load_records(files)


def _existing(path: Path) -> list[Entry]:
    return list(load_allowlist(path).entries) if path.exists() else []


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
) -> Entry:
    records = _records(directory)
    record = _find(records, target, directory)
    if target.startswith("fp1f:"):
        scope = "function"
    elif target.startswith("fp1m:"):
        scope = "module"
    fingerprint = match_keys(record)[scope]
    if fingerprint is None:
        raise InputError(target, f"this callsite has no {scope} fingerprint (module-level code, or no module map)")
    entry = Entry(
        level=scope,
        fingerprint=fingerprint,
        owner=owner,
        package=package,
        function=function,
        expect=record["message"]["comparisonKey"] if scope == "callsite" else None,
        owner_fields=tuple(sorted(owner_fields.items())),
        reason=reason,
        reviewed_by=reviewer,
        reviewed_on=reviewed_on or dt.date.today().isoformat(),
        origin=str(allowlist),
    )
    kept = [e for e in _existing(allowlist) if (e.level, e.fingerprint) != (entry.level, entry.fingerprint)]
    write_allowlist(allowlist, [*kept, entry])
    load_allowlist(allowlist)  # what we wrote must validate (owner, package, dates...)
    return entry


def _find(records: list[dict], target: str, directory: Path) -> dict:  # type: ignore[type-arg]
    for key in ("id", "fingerprint", "functionFingerprint"):
        for record in records:
            if record.get(key) == target:
                return record
    for record in records:
        module = record.get("module")
        if isinstance(module, dict) and module.get("fingerprint") == target:
            return record
    raise InputError(directory, f"no callsite with id or fingerprint '{target}' in this scan")


def prune_stale(directory: Path, paths: list[Path]) -> list[tuple[Path, list[Entry]]]:
    records = _records(directory)
    allowlists: list[Allowlist] = [load_allowlist(path) for path in paths]
    stale = {e.origin for e in project(records, allowlists).stale}
    report = []
    for path, allowlist in zip(paths, allowlists):
        removed = [e for e in allowlist.entries if e.origin in stale]
        if removed:
            write_allowlist(path, [e for e in allowlist.entries if e.origin not in stale])
        report.append((path, removed))
    return report
