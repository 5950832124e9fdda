"""The CI gate's owner half (docs/reference.md, "The gate"): the allowlists a scan recorded,
found again, and the thresholds.

The gate trusts nothing it reads: `analyzer.scandir` verifies the directory, `analyzer.projected`
makes the projection, the index and the summary again from the inventory and the allowlists
found here (by the recorded path and sha256, or given with `--allowlist`), and the thresholds
are checked on those recomputed numbers, never on the summary's word.
"""

from __future__ import annotations

import hashlib
import math
import os
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from analyzer.bounded import MAX_TOML_BYTES, read_regular
from analyzer.errors import InputError
from analyzer.handler_model import Handler, HandlerOwnerRow
from analyzer.model import HandlerFinding
from analyzer.owners.allowlist import Allowlist, read_allowlist, refuse_repeated
from analyzer.scandir.read import load_baseline
from analyzer.summary_model import Baseline, RecordedAllowlist, Summary

KINDS = ("error", "diagnostic")
#: the share of the baseline's callsites that may be gone before the gate fails, unless --max-drop says
DEFAULT_MAX_DROP = 0.5


@dataclass(frozen=True, slots=True)
class Thresholds:
    min_coverage: float | None
    #: kind -> minimum coverage
    min_kind_coverage: dict[str, float]
    baseline: Path | None
    allow_stale: bool
    #: the share of the baseline's callsites that may be gone before the gate fails (a wrong input)
    max_drop: float = DEFAULT_MAX_DROP
    #: how many Product handlers flagged `swallowed` / `lostCause` may be new against the baseline
    max_new_swallowed: int | None = None
    max_new_lost_cause: int | None = None


def coverage_threshold(option: str, value: float) -> float:
    """A coverage threshold: a finite number from 0 to 1 (nan, inf, -0.1 and 1.5 are not)."""
    if not math.isfinite(value) or not 0 <= value <= 1:
        raise InputError(option, f"must be a number from 0 to 1, not {value}")
    return value


def refuse_empty(directory: Path, summary: Summary, allow_empty: bool) -> None:
    """A scan with no callsite holds nothing to gate: a wrong input or an empty build, refused
    (exit 2) unless the user says it is expected."""
    if summary.total == 0 and not allow_empty:
        raise InputError(directory, "the scan holds no callsite (0 errors, 0 diagnostics): nothing to gate; "
                                    "a wrong input or an empty build? (--allow-empty passes it)")


# ---- the allowlists the scan used ---------------------------------------------------------------


def recorded_allowlists(recorded: tuple[RecordedAllowlist, ...], given: list[Path], where: Path) -> list[Allowlist]:
    """The allowlists a summary records (`recorded`), read again: from the paths given (each
    must be one of them, by sha256, and together all of them), else from the recorded paths,
    relative to the current directory as the scan was. A changed or missing allowlist is refused."""
    if given:
        return _given_allowlists(recorded, given, where)
    found = []
    for item in recorded:
        path = Path(item.path)
        if not path.exists():
            raise InputError(path, f"allowlist of this scan not found from {os.getcwd()} (run the gate where the scan "
                                   "ran, or give it with --allowlist)")
        found.append(_read_again(path, item, where, _project_again(where, [i.path for i in recorded])))
    return found


def _project_again(where: Path, allowlists: Sequence[object]) -> str:
    """The command that projects the scan whose summary is `where` with `allowlists` again: a bare
    `erratlas project DIR` of it is refused, and `--no-allowlist` would drop every owner."""
    import shlex

    given = "".join(f" -a {shlex.quote(str(path))}" for path in allowlists)
    return f"erratlas project {shlex.quote(str(where.parent))}{given}"


def _given_allowlists(recorded: tuple[RecordedAllowlist, ...], given: list[Path], where: Path) -> list[Allowlist]:
    refuse_repeated(given)  # as `scan -a` and `project -a` refuse it
    by_digest = {}
    for path in given:
        digest = hashlib.sha256(read_regular(path, "allowlist", MAX_TOML_BYTES)).hexdigest()
        if digest not in {item.sha256 for item in recorded}:
            raise InputError(path, "not an allowlist of this scan (the summary records no allowlist with its sha256): "
                                   f"changed since the scan? run `{_project_again(where, given)}`")
        by_digest[digest] = path
    found = []
    for item in recorded:
        if item.sha256 not in by_digest:
            raise InputError(where, f"the scan used allowlist {item.path} (sha256 {item.sha256[:16]}…), "
                                    "and no --allowlist given has that content")
        found.append(_read_again(by_digest[item.sha256], item, where, _project_again(where, given)))
    return found


def _read_again(path: Path, item: RecordedAllowlist, where: Path, again: str) -> Allowlist:
    """The allowlist at `path`, checked by sha256 before it is parsed: the path comes from a
    summary we do not trust, and no byte of another file is ever echoed."""
    raw = read_regular(path, "allowlist", MAX_TOML_BYTES)
    digest = hashlib.sha256(raw).hexdigest()
    if digest != item.sha256:
        raise InputError(path, f"allowlist changed since the scan (sha256 {digest[:16]}… now, "
                               f"{item.sha256[:16]}… in {where}): run `{again}`")
    return read_allowlist(raw, path, item.path)


# ---- thresholds ------------------------------------------------------------------------------------


def failures(summary: Summary, thresholds: Thresholds) -> list[str]:
    """One line per failed threshold, with the numbers."""
    out = []
    coverage = summary.coverage
    checks = []
    if thresholds.min_coverage is not None:
        checks.append(("overall", coverage_threshold("--min-coverage", thresholds.min_coverage)))
    for kind, minimum in sorted(thresholds.min_kind_coverage.items()):
        if kind not in KINDS:
            raise InputError("--min-coverage-kind", f"unknown kind '{kind}' (error or diagnostic)")
        checks.append((kind, coverage_threshold("--min-coverage-kind", minimum)))
    for kind, minimum in checks:
        c = getattr(coverage, kind)
        if c.value < minimum:
            out.append(f"coverage {kind}: {c.value:.6f} ({c.owned} of {c.total} owned) < {minimum}")
    if thresholds.baseline is not None:
        baseline = load_baseline(thresholds.baseline, summary)
        dropped = _dropped(summary, baseline, thresholds)
        if dropped is not None:
            out.append(dropped)
        new = Counter(summary.unresolvedFingerprints) - Counter(baseline.unresolvedFingerprints)
        if new:
            listed = ", ".join(sorted(new)[:5]) + (" …" if len(new) > 5 else "")
            elsewhere = (f"; the baseline is a scan of {baseline.bundle}, this one of {summary.bundle.name}: the "
                         "baseline of another bundle?") if baseline.bundle not in (None, summary.bundle.name) else ""
            out.append(f"new Unresolved callsites against {thresholds.baseline}: {sum(new.values())} ({listed})"
                       + elsewhere)
        for (option, key, _), limit in zip(HANDLER_THRESHOLDS, _handler_limits(thresholds), strict=True):
            if limit is not None:
                out += _new_handler_findings(summary, baseline, thresholds.baseline, option, key, limit)
    if not thresholds.allow_stale:
        for entry in summary.stale:
            out.append(f"stale allowlist entry {entry.entry}: {entry.level} {entry.fingerprint} matches nothing")
        for other in summary.ambiguous:
            out.append(
                f"ambiguous allowlist entry {other.entry}: {other.level} {other.fingerprint} names one "
                f"of {other.copies} identical copies ({other.matched}): name them with copies or neighbours"
            )
        for drifted in summary.drifted:
            out.append(
                f"drifted allowlist entry {drifted.entry}: {drifted.callsite} expects {drifted.expect!r}, "
                f"found {drifted.found!r}"
            )
    return out


#: the handler thresholds: option, the summary's finding key, the finding it counts
HANDLER_THRESHOLDS: tuple[tuple[str, str, HandlerFinding], ...] = (
    ("--max-new-swallowed", "swallowed", "swallowed-error"),
    ("--max-new-lost-cause", "lostCause", "wrap-loses-cause"),
)

_FINDING_TEXT = {"swallowed": "Product handlers that swallow an error",
                 "lostCause": "Product handlers whose wrap loses the cause"}


def _new_handler_findings(summary: Summary, baseline: Baseline, path: Path, option: str, key: str,
                          limit: int) -> list[str]:
    """The failure line when more than `limit` Product handlers flagged `key` are new: their
    fp1h fingerprints are not among the baseline's handlers flagged so, whatever their owner
    there (an old handler that became Product is not new)."""
    if summary.productFindings is None:
        raise InputError(option, "this scan has no handlers (handlers.jsonl): nothing to compare")
    now = Counter(summary.productFindings[key])
    new = now - flagged_of(baseline, path, key)
    if sum(new.values()) <= limit:
        return []
    listed = ", ".join(sorted(new)[:5]) + (" …" if len(new) > 5 else "")
    return [f"new {_FINDING_TEXT[key]} against {path}: {sum(new.values())} > {option} {limit} ({listed})"]


def _handler_limits(thresholds: Thresholds) -> tuple[int | None, int | None]:
    return thresholds.max_new_swallowed, thresholds.max_new_lost_cause


def failing_handlers(handlers: list[Handler], rows: list[HandlerOwnerRow],
                     thresholds: Thresholds) -> frozenset[tuple[str, HandlerFinding]]:
    """(handler id, finding) of each new Product handler a failed handler threshold counts: the
    failing set `gate --format sarif` writes. `rows`: each handler's owner, in handler order."""
    if thresholds.baseline is None:
        return frozenset()
    baseline = load_baseline(thresholds.baseline)
    out: set[tuple[str, HandlerFinding]] = set()
    for (_, key, finding), limit in zip(HANDLER_THRESHOLDS, _handler_limits(thresholds), strict=True):
        if limit is None:
            continue
        new = new_flagged(handlers, rows, flagged_of(baseline, thresholds.baseline, key), finding)
        if len(new) > limit:
            out |= {(identifier, finding) for identifier in new}
    return frozenset(out)


def new_flagged(handlers: list[Handler], rows: list[HandlerOwnerRow], before: Counter[str],
                finding: HandlerFinding) -> list[str]:
    """The ids of the Product handlers with `finding` that are new, in handler order: the copies
    of a fingerprint beyond its count in `before` (the baseline's flagged fingerprints), as the
    gate's count of new ones compares the summaries."""
    remaining = Counter(before)
    new = []
    for handler, row in zip(handlers, rows, strict=True):
        if row.owner != "Product" or finding not in handler.findings():
            continue
        if remaining[handler.fingerprint] > 0:
            remaining[handler.fingerprint] -= 1
        else:
            new.append(handler.id)
    return new


def flagged_of(baseline: Baseline, path: Path, key: str) -> Counter[str]:
    """The fingerprints of the baseline's handlers a finding flags, every owner's."""
    if baseline.flagged is None:
        raise InputError(path, "the baseline summary has no handlerOwners (a scan without handlers.jsonl, or "
                               "by an earlier erratlas): project or scan the baseline again")
    if key not in baseline.flagged:
        raise InputError(path, f"corrupt baseline summary: handlerOwners.findings.{key}")
    return Counter(baseline.flagged[key])


def _dropped(summary: Summary, baseline: Baseline, thresholds: Thresholds) -> str | None:
    """The failure line when the callsites fell by more than `max_drop` of the baseline's."""
    before, now = baseline.total, summary.total
    if before == 0 or (before - now) / before <= thresholds.max_drop:
        return None
    return (f"callsites dropped from {before} in {thresholds.baseline} to {now} here ({(before - now) / before:.1%} "
            f"fewer, more than --max-drop {thresholds.max_drop:.0%}): a wrong input or a broken build?")
