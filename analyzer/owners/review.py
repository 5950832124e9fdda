"""The review workflow: `allow` writes an entry from a scan's callsite, `prune` drops stale ones."""

from __future__ import annotations

import datetime as dt
import os
from pathlib import Path

from analyzer.errors import InputError
from analyzer.owners.allowlist import (
    Allowlist,
    Entry,
    checked_rendering,
    load_allowlist,
    load_allowlists,
    validated_entry,
    write_allowlist,
)
from analyzer.owners.gate import verify
from analyzer.owners.projection import match_keys, project
from analyzer.reports.output import read_directory, write_file
from analyzer.reports.owners import load_records


def _records(directory: Path) -> list[dict]:  # type: ignore[type-arg]
    files = read_directory(directory)
    verify(directory, files)
    return load_records(files)


def _existing(path: Path) -> list[Entry]:
    return list(load_allowlist(path).entries) if os.path.lexists(path) else []


#: the option of `erratlas allow` that sets each allowlist key
OPTIONS = {
    "match": "TARGET", "owner": "--owner", "package": "--package", "function": "--name", "expect": "TARGET",
    "catchOwner": "--catch-owner", "retryOwner": "--retry-owner", "toolResultOwner": "--tool-result-owner",
    "userSurfaceOwner": "--user-surface-owner", "reason": "--reason", "reviewedBy": "--reviewer", "reviewedOn": "--on",
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
) -> Entry:
    """Write a reviewed entry; every value is validated, and the allowlist read, before any
    byte is written."""
    records = _records(directory)
    record = _find(records, target, directory)
    if target.startswith("fp1f:"):
        scope = "function"
    elif target.startswith("fp1m:"):
        scope = "module"
    fingerprint = match_keys(record)[scope]
    if fingerprint is None:
        raise InputError(target, f"this callsite has no {scope} fingerprint (module-level code, or no module map)")
    body: dict[str, object] = {
        "match": {scope: fingerprint},
        "owner": owner,
        **({"package": package} if package is not None else {}),
        **({"function": function} if function is not None else {}),
        **({"expect": record["message"]["comparisonKey"]} if scope == "callsite" else {}),
        **owner_fields,
        "reason": reason,
        "reviewedBy": reviewer,
        "reviewedOn": reviewed_on or dt.date.today().isoformat(),
    }
    entry = validated_entry(body, _option_problem, str(allowlist))
    kept = [e for e in _existing(allowlist) if (e.level, e.fingerprint) != (entry.level, entry.fingerprint)]
    write_allowlist(allowlist, [*kept, entry])
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
    """Drop the stale entries of each allowlist; every rewrite is rendered and read back before
    the first file is replaced."""
    records = _records(directory)
    allowlists: list[Allowlist] = load_allowlists(paths)
    stale = {e.origin for e in project(records, allowlists).stale}
    report, rewrites = [], []
    for path, allowlist in zip(paths, allowlists):
        removed = [e for e in allowlist.entries if e.origin in stale]
        if removed:
            rewrites.append((path, checked_rendering(path, [e for e in allowlist.entries if e.origin not in stale])))
        report.append((path, removed))
    for path, data in rewrites:
        write_file(path, data)
    return report
