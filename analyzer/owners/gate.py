"""The CI gate (docs/reference.md, "The gate"): verify a scan directory, recompute its owners, then check thresholds.

The gate trusts nothing it reads. Every file the summary lists must be a regular file inside
the directory with its recorded sha256, every file a scan writes must be listed, and nothing
else may be there. The counts are recounted from the inventory, and the projection, the
reviewer's index and the summary are made again from the inventory and the allowlists the
summary records (found again by path and checked by sha256, or given with `--allowlist`):
any byte that differs is a disagreement, exit 2. Thresholds are then checked on the
recomputed numbers, never on the summary's word.
"""

from __future__ import annotations

import hashlib
import math
import os
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from analyzer.bounded import MAX_DOCUMENT_BYTES, MAX_TOML_BYTES, read_regular
from analyzer.errors import InputError
from analyzer.owners.allowlist import Allowlist, parse_allowlist
from analyzer.reports.inventory import (
    CALLSITE_FILES,
    CLASSES_FILE,
    LITERAL_FILES,
    REFERENCES_FILE,
    TEMPLATE_FILES,
)
from analyzer.reports.modules import MODULES_FILE
from analyzer.reports.output import read_directory, safe_name
from analyzer.reports.owners import (
    DERIVED_FILES,
    INDEX_FILE,
    PROJECTION_FILE,
    load_records,
    owner_files,
)
from analyzer.reports.summary import SUMMARY_FILE, counts
from analyzer.tomlfile import parse_toml
from analyzer.versions import check_same

KINDS = ("error", "diagnostic")
#: every scan writes these, and the readable slice every callsite's record points into
SCAN_FILES = (
    *CALLSITE_FILES.values(), *TEMPLATE_FILES.values(), *LITERAL_FILES.values(), CLASSES_FILE, MODULES_FILE,
    PROJECTION_FILE, INDEX_FILE, REFERENCES_FILE,
)
_SHOWN = 80


@dataclass(frozen=True, slots=True)
class Thresholds:
    min_coverage: float | None
    #: kind -> minimum coverage
    min_kind_coverage: dict[str, float]
    baseline: Path | None
    allow_stale: bool
    #: the share of the baseline's callsites that may be gone before the gate fails (a wrong input)
    max_drop: float = 0.5


def coverage_threshold(option: str, value: float) -> float:
    """A coverage threshold: a finite number from 0 to 1 (nan, inf, -0.1 and 1.5 are not)."""
    if not math.isfinite(value) or not 0 <= value <= 1:
        raise InputError(option, f"must be a number from 0 to 1, not {value}")
    return value


def refuse_empty(directory: Path, summary: dict[str, Any], allow_empty: bool) -> None:
    """A scan with no callsite holds nothing to gate: a wrong input or an empty build, refused
    (exit 2) unless the user says it is expected."""
    if summary["counts"]["total"] == 0 and not allow_empty:
        raise InputError(directory, "the scan holds no callsite (0 errors, 0 diagnostics): nothing to gate; "
                                    "a wrong input or an empty build? (--allow-empty passes it)")


def parse_summary(raw: bytes, where: object) -> dict[str, Any]:
    try:
        summary = orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        raise InputError(where, f"corrupt summary: {exc}") from None
    if not isinstance(summary, dict) or summary.get("schema") != "erratlas.summary/1":
        raise InputError(where, "not an erratlas summary (schema erratlas.summary/1)")
    return summary


def load_summary(path: Path) -> dict[str, Any]:
    return parse_summary(read_regular(path, "summary", MAX_DOCUMENT_BYTES), path)


# ---- the directory -------------------------------------------------------------------------------


def verify(directory: Path, files: dict[str, bytes] | None = None) -> dict[str, Any]:
    """The summary, after checking that it was written with this installation's fingerprint
    algorithm and parsers, that every file it lists is a regular file inside the directory
    with its recorded sha256, that it lists every file a scan writes, and that nothing
    unlisted was added."""
    files = read_directory(directory) if files is None else files
    where = directory / SUMMARY_FILE
    if SUMMARY_FILE not in files:
        raise InputError(where, "no summary (is this a scan directory?)")
    summary = parse_summary(files[SUMMARY_FILE], where)
    check_same(summary, where)
    outputs = summary.get("outputs")
    if not isinstance(outputs, dict):
        raise InputError(where, "corrupt summary: no output hashes")
    for name, digest in sorted(outputs.items()):
        if not safe_name(name) or name == SUMMARY_FILE:
            raise InputError(where, f"outputs lists {_show(name)}, which is not a file inside the scan directory")
        if name not in files:
            raise InputError(directory / name, "missing: listed in the summary")
        actual = hashlib.sha256(files[name]).hexdigest()
        if actual != digest:
            raise InputError(
                directory / name, f"hash mismatch: summary says {str(digest)[:16]}…, file is {actual[:16]}…"
            )
    extra = sorted(set(files) - set(outputs) - {SUMMARY_FILE})
    if extra:
        raise InputError(directory / extra[0], "not listed in the summary (added after the scan?)")
    _check_listed(directory, SCAN_FILES, outputs)
    return summary


def _check_listed(directory: Path, names: Iterable[str], outputs: dict[str, Any]) -> None:
    unlisted = sorted(set(names) - set(outputs))
    if unlisted:
        raise InputError(directory / unlisted[0], "a scan writes this file, but the summary does not list it "
                                                  "(deleted together with its entry?)")


# ---- the allowlists the scan used ---------------------------------------------------------------


def recorded_allowlists(summary: dict[str, Any], given: list[Path], where: Path) -> list[Allowlist]:
    """The allowlists the summary records, read again: from the paths given (each must be one
    of them, by sha256, and together all of them), else from the recorded paths, relative to
    the current directory as the scan was. A changed or missing allowlist is refused."""
    inputs = summary.get("inputs")
    recorded = inputs.get("allowlists") if isinstance(inputs, dict) else None
    if not isinstance(recorded, list) or not all(
        isinstance(a, dict) and isinstance(a.get("path"), str) and isinstance(a.get("sha256"), str) for a in recorded
    ):
        raise InputError(where, "corrupt summary: inputs.allowlists is not a list of paths and sha256")
    if given:
        return _given_allowlists(recorded, given, where)
    found = []
    for item in recorded:
        path = Path(item["path"])
        if not path.exists():
            raise InputError(path, f"allowlist of this scan not found from {os.getcwd()} (run the gate where the scan "
                                   "ran, or give it with --allowlist)")
        found.append(_read_again(path, item, where))
    return found


def _given_allowlists(recorded: list[dict[str, Any]], given: list[Path], where: Path) -> list[Allowlist]:
    by_digest = {}
    for path in given:
        digest = hashlib.sha256(read_regular(path, "allowlist", MAX_TOML_BYTES)).hexdigest()
        if digest not in {item["sha256"] for item in recorded}:
            raise InputError(path, "not an allowlist of this scan (the summary records no allowlist with its sha256): "
                                   "changed since the scan? run `erratlas project` with it")
        by_digest[digest] = path
    found = []
    for item in recorded:
        if item["sha256"] not in by_digest:
            raise InputError(where, f"the scan used allowlist {item['path']} (sha256 {item['sha256'][:16]}…), "
                                    "and no --allowlist given has that content")
        found.append(_read_again(by_digest[item["sha256"]], item, where))
    return found


def _read_again(path: Path, item: dict[str, Any], where: Path) -> Allowlist:
    """The allowlist at `path`, checked by sha256 before it is parsed: the path comes from a
    summary we do not trust, and no byte of another file is ever echoed."""
    raw = read_regular(path, "allowlist", MAX_TOML_BYTES)
    digest = hashlib.sha256(raw).hexdigest()
    if digest != item["sha256"]:
        raise InputError(path, f"allowlist changed since the scan (sha256 {digest[:16]}… now, "
                               f"{item['sha256'][:16]}… in {where}): run `erratlas project` again")
    return parse_allowlist(parse_toml(raw, path, "allowlist"), item["path"])


# ---- recomputation ---------------------------------------------------------------------------------


def recompute(directory: Path, files: dict[str, bytes], summary: dict[str, Any],
              allowlists: list[Allowlist]) -> dict[str, Any]:
    """The summary made again from the inventory and the allowlists; any difference from the
    directory's counts, projection, index or summary is refused with the first one."""
    where = directory / SUMMARY_FILE
    inventory = {name: data for name, data in files.items() if name not in DERIVED_FILES}
    try:
        records = load_records(inventory)
        recount = counts(records, items=True)
        # the rendering of every unit a record lies in (the index links there)
        # the readable slice each callsite's record points into
        _check_listed(directory, {r["readable"]["file"] for r in records}, summary["outputs"])
        derived = owner_files(inventory, allowlists, summary, records)
    except (orjson.JSONDecodeError, KeyError, TypeError, AttributeError, ValueError, IndexError) as exc:
        raise InputError(directory / CALLSITE_FILES["error"],
                         f"records do not have the shape erratlas writes ({type(exc).__name__}: {exc})") from None
    if recount != summary.get("counts"):
        raise InputError(where, "counts disagree with the records: " + _difference(summary.get("counts"), recount))
    for name in (PROJECTION_FILE, INDEX_FILE, SUMMARY_FILE):
        if derived[name] != files[name]:
            if name == SUMMARY_FILE:
                difference = _difference(summary, orjson.loads(derived[name]))
            else:
                difference = _first_line(files[name], derived[name])
            raise InputError(directory / name, f"disagrees with the owners recomputed from the inventory and "
                                               f"the allowlists: {difference}")
    return orjson.loads(derived[SUMMARY_FILE])


def _difference(stored: Any, recomputed: Any) -> str:
    """The first place two JSON documents differ, as `key.path: stored here, recomputed there`."""
    pending: list[tuple[str, Any, Any]] = [("", stored, recomputed)]
    while pending:
        path, left, right = pending.pop(0)
        if isinstance(left, dict) and isinstance(right, dict):
            for key in [*right, *(k for k in left if k not in right)]:
                pending.append((f"{path}.{key}" if path else str(key), left.get(key), right.get(key)))
        elif isinstance(left, list) and isinstance(right, list) and len(left) == len(right):
            pending.extend((f"{path}[{i}]", a, b) for i, (a, b) in enumerate(zip(left, right)))
        elif left != right or type(left) is not type(right):
            return f"{path or 'the document'} is {_show(left)} in the file, {_show(right)} recomputed"
    return "the same values, other bytes"


def _first_line(stored: bytes, recomputed: bytes) -> str:
    left, right = stored.split(b"\n"), recomputed.split(b"\n")
    for number, (a, b) in enumerate(zip(left, right), start=1):
        if a != b:
            return f"line {number} differs"
    return f"{len(left) - 1} lines in the file, {len(right) - 1} recomputed"


def _show(value: Any) -> str:
    text = orjson.dumps(value).decode() if not isinstance(value, str) else repr(value)
    return text if len(text) <= _SHOWN else text[:_SHOWN] + "…"


def checked_summary(directory: Path, allowlists: list[Path]) -> dict[str, Any]:
    """Verify `directory` and recompute its owners: the summary the gate may believe."""
    files = read_directory(directory)
    summary = verify(directory, files)
    found = recorded_allowlists(summary, allowlists, directory / SUMMARY_FILE)
    return recompute(directory, files, summary, found)


# ---- thresholds ------------------------------------------------------------------------------------


def failures(summary: dict[str, Any], thresholds: Thresholds) -> list[str]:
    """One line per failed threshold, with the numbers."""
    out = []
    coverage = summary["coverage"]
    checks = []
    if thresholds.min_coverage is not None:
        checks.append(("overall", coverage_threshold("--min-coverage", thresholds.min_coverage)))
    for kind, minimum in sorted(thresholds.min_kind_coverage.items()):
        if kind not in KINDS:
            raise InputError("--min-coverage-kind", f"unknown kind '{kind}' (error or diagnostic)")
        checks.append((kind, coverage_threshold("--min-coverage-kind", minimum)))
    for kind, minimum in checks:
        c = coverage[kind]
        if c["value"] < minimum:
            out.append(f"coverage {kind}: {c['value']:.6f} ({c['owned']} of {c['total']} owned) < {minimum}")
    if thresholds.baseline is not None:
        baseline = load_baseline(thresholds.baseline)
        dropped = _dropped(summary, baseline, thresholds)
        if dropped is not None:
            out.append(dropped)
        new = Counter(summary["unresolvedFingerprints"]) - unresolved_of(baseline, thresholds.baseline)
        if new:
            listed = ", ".join(sorted(new)[:5]) + (" …" if len(new) > 5 else "")
            out.append(f"new Unresolved callsites against {thresholds.baseline}: {sum(new.values())} ({listed})")
    if not thresholds.allow_stale:
        for entry in summary["stale"]:
            out.append(
                f"stale allowlist entry {entry['entry']}: {entry['level']} {entry['fingerprint']} matches nothing"
            )
        for entry in summary.get("ambiguous", []):
            out.append(
                f"ambiguous allowlist entry {entry['entry']}: {entry['level']} {entry['fingerprint']} names one "
                f"of {entry['copies']} identical copies ({entry['matched']}): name them with copies or neighbours"
            )
        for entry in summary["drifted"]:
            out.append(
                f"drifted allowlist entry {entry['entry']}: {entry['callsite']} expects {entry['expect']!r}, "
                f"found {entry['found']!r}"
            )
    return out


def load_baseline(path: Path) -> dict[str, Any]:
    """A baseline summary, made with this installation's fingerprint algorithm and parsers."""
    baseline = load_summary(path)
    check_same(baseline, path)
    return baseline


def unresolved_of(baseline: dict[str, Any], path: Path) -> Counter[str]:
    before = baseline.get("unresolvedFingerprints")
    if not isinstance(before, list) or not all(isinstance(f, str) for f in before):
        raise InputError(path, "corrupt baseline summary: unresolvedFingerprints is not a list of fingerprints")
    return Counter(before)


def _dropped(summary: dict[str, Any], baseline: dict[str, Any], thresholds: Thresholds) -> str | None:
    """The failure line when the callsites fell by more than `max_drop` of the baseline's."""
    counted = baseline.get("counts")
    before = counted.get("total") if isinstance(counted, dict) else None
    if not isinstance(before, int) or isinstance(before, bool) or before < 0:
        raise InputError(thresholds.baseline, "corrupt baseline summary: counts.total is not a count")
    now = summary["counts"]["total"]
    if before == 0 or (before - now) / before <= thresholds.max_drop:
        return None
    return (f"callsites dropped from {before} in {thresholds.baseline} to {now} here ({(before - now) / before:.1%} "
            f"fewer, more than --max-drop {thresholds.max_drop:.0%}): a wrong input or a broken build?")
