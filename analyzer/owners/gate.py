"""The CI gate (SPEC 7): re-verify a scan directory's hashes, then check thresholds."""

from __future__ import annotations

import hashlib
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from analyzer.errors import InputError
from analyzer.reports.summary import SUMMARY_FILE
from analyzer.versions import check_same


@dataclass(frozen=True, slots=True)
class Thresholds:
    min_coverage: float | None
    #: kind -> minimum coverage
    min_kind_coverage: dict[str, float]
    baseline: Path | None
    allow_stale: bool


def load_summary(path: Path) -> dict[str, Any]:
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise InputError(path, "no summary (is this a scan directory?)") from None
    except OSError as exc:
        raise InputError(path, f"cannot read: {exc.strerror}") from None
    try:
        summary = orjson.loads(data)
    except orjson.JSONDecodeError as exc:
        raise InputError(path, f"corrupt summary: {exc}") from None
    if not isinstance(summary, dict) or summary.get("schema") != "erratlas.summary/1":
        raise InputError(path, "not an erratlas summary (schema erratlas.summary/1)")
    return summary


def verify(directory: Path, files: dict[str, bytes] | None = None) -> dict[str, Any]:
    """The summary, after checking that it was written with this installation's fingerprint
    algorithm and parsers, that every file it lists has its recorded sha256 and that nothing
    unlisted was added."""
    summary = load_summary(directory / SUMMARY_FILE)
    check_same(summary, directory / SUMMARY_FILE)
    outputs = summary.get("outputs")
    if not isinstance(outputs, dict):
        raise InputError(directory / SUMMARY_FILE, "corrupt summary: no output hashes")
    for name, digest in sorted(outputs.items()):
        path = directory / name
        if files is not None and name in files:
            data = files[name]
        else:
            try:
                data = path.read_bytes()
            except FileNotFoundError:
                raise InputError(path, "missing: listed in the summary") from None
        actual = hashlib.sha256(data).hexdigest()
        if actual != digest:
            raise InputError(path, f"hash mismatch: summary says {digest[:16]}…, file is {actual[:16]}…")
    present = set(files) if files is not None else _listing(directory)
    extra = sorted(present - set(outputs) - {SUMMARY_FILE})
    if extra:
        raise InputError(directory / extra[0], "not listed in the summary (added after the scan?)")
    return summary


def _listing(directory: Path) -> set[str]:
    names = set()
    for path in directory.rglob("*"):
        if path.is_file() or path.is_symlink():
            names.add(path.relative_to(directory).as_posix())
    return names


def failures(summary: dict[str, Any], thresholds: Thresholds) -> list[str]:
    """One line per failed threshold, with the numbers."""
    out = []
    coverage = summary["coverage"]
    checks = []
    if thresholds.min_coverage is not None:
        checks.append(("overall", thresholds.min_coverage))
    checks += sorted(thresholds.min_kind_coverage.items())
    for kind, minimum in checks:
        if kind not in coverage:
            raise InputError("--min-coverage-kind", f"unknown kind '{kind}' (error or diagnostic)")
        c = coverage[kind]
        if c["value"] < minimum:
            out.append(f"coverage {kind}: {c['value']:.6f} ({c['owned']} of {c['total']} owned) < {minimum}")
    if thresholds.baseline is not None:
        baseline = load_summary(thresholds.baseline)
        check_same(baseline, thresholds.baseline)
        before = Counter(baseline.get("unresolvedFingerprints", []))
        now = Counter(summary["unresolvedFingerprints"])
        new = now - before
        if new:
            listed = ", ".join(sorted(new)[:5]) + (" …" if len(new) > 5 else "")
            out.append(f"new Unresolved callsites against {thresholds.baseline}: {sum(new.values())} ({listed})")
    if not thresholds.allow_stale:
        for entry in summary["stale"]:
            out.append(f"stale allowlist entry {entry['entry']}: {entry['level']} {entry['fingerprint']} matches nothing")
        for entry in summary.get("ambiguous", []):
            out.append(f"ambiguous allowlist entry {entry['entry']}: {entry['level']} {entry['fingerprint']} names one "
                       f"of {entry['copies']} identical copies ({entry['matched']}): name them with copies or neighbours")
        for entry in summary["drifted"]:
            out.append(
                f"drifted allowlist entry {entry['entry']}: {entry['callsite']} expects {entry['expect']!r}, "
                f"found {entry['found']!r}"
            )
    return out
