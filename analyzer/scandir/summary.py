"""The typed read of a summary document (`summary_model.Summary`): each part the verbs read,
checked as erratlas writes it; a part of another shape is an InputError naming the part."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from analyzer.errors import InputError
from analyzer.scandir.load import record_of
from analyzer.summary_model import (
    AmbiguousEntry,
    Baseline,
    DriftedEntry,
    HandlerTally,
    InputFile,
    Invariant,
    LoggerSeen,
    RecordedAllowlist,
    ScanHead,
    ScanPart,
    StaleEntry,
    Summary,
    SummaryCoverage,
)

#: the handler findings a summary lists by owner (docs/owners.md, "Handlers")
FINDINGS = ("swallowed", "lostCause", "uselessCatch")


def summary_of(document: dict[str, Any], where: object) -> Summary:
    """The summary `document`, read from `where`, with its parts typed."""

    def part(record: type, path: str, value: Any) -> Any:
        return record_of(record, value, f"{where}: {path}")

    def listed(record: type, path: str, value: Any) -> tuple[Any, ...]:
        if not isinstance(value, list):
            raise InputError(where, f"not the shape erratlas writes: {path} is not a list")
        return tuple(part(record, f"{path}[{n}]", item) for n, item in enumerate(value))

    inputs, counts = document.get("inputs"), document.get("counts")
    if not isinstance(inputs, dict) or not isinstance(counts, dict):
        raise InputError(where, "not the shape erratlas writes: no inputs or counts")
    loggers = document.get("loggers", [])
    handlers = document.get("handlerOwners")
    findings = handlers.get("findings") if isinstance(handlers, dict) else None
    if handlers is not None and not (isinstance(findings, dict) and all(
            isinstance(findings.get(key), dict) for key in FINDINGS)):
        raise InputError(where, "not the shape erratlas writes: handlerOwners.findings")
    return Summary(
        document=document,
        bundle=part(InputFile, "inputs.bundle", inputs.get("bundle")),
        units=listed(InputFile, "inputs.units", inputs.get("units")),
        allowlists=listed(RecordedAllowlist, "inputs.allowlists", inputs.get("allowlists", [])),
        # a logger block says more (its evidence); the verbs read its unit, name and source
        loggers=listed(LoggerSeen, "loggers", [{k: lg.get(k) for k in ("unit", "name", "source")}
                                               if isinstance(lg, dict) else lg for lg in loggers]
                       if isinstance(loggers, list) else loggers),
        total=_count(counts.get("total"), where),
        coverage=part(SummaryCoverage, "coverage", document.get("coverage")),
        stale=listed(StaleEntry, "stale", document.get("stale")),
        drifted=listed(DriftedEntry, "drifted", document.get("drifted")),
        ambiguous=listed(AmbiguousEntry, "ambiguous", document.get("ambiguous", [])),
        unresolvedFingerprints=_names(document.get("unresolvedFingerprints"), "unresolvedFingerprints", where),
        productFindings=None if findings is None else {
            key: _names(findings[key].get("Product"), f"handlerOwners.findings.{key}.Product", where)
            for key in FINDINGS},
    )


def _count(value: Any, where: object) -> int:
    if type(value) is not int or value < 0:
        raise InputError(where, "not the shape erratlas writes: counts.total is not a count")
    return value


def _names(value: Any, path: str, where: object) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise InputError(where, f"not the shape erratlas writes: {path} is not a list of fingerprints")
    return tuple(value)


def _object(value: Any, path: str, where: object) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise InputError(where, f"not the shape erratlas writes: {path} is not an object")
    return value


def scan_part(document: Mapping[str, object], where: object) -> ScanPart:
    """The scan's part of the summary `document` (read from `where`, or just made by a scan)."""
    invariants = document.get("invariants")
    if not isinstance(invariants, list) or not all(isinstance(row, (Invariant, dict)) for row in invariants):
        raise InputError(where, "not the shape erratlas writes: invariants is not a list")
    return ScanPart(document, _object(document.get("inputs"), "inputs", where), tuple(invariants),
                    scan_head(document, where), handler_tally(document, where))


def scan_head(document: Mapping[str, object], where: object) -> ScanHead:
    """The input and versions a summary's scan part records (the index's first lines)."""
    inputs = _object(document.get("inputs"), "inputs", where)
    units = inputs.get("units")
    tool = _object(document.get("tool"), "tool", where).get("version")
    fingerprint = _object(document.get("fingerprint"), "fingerprint", where).get("version")
    if not isinstance(units, list) or not isinstance(tool, str) or not isinstance(fingerprint, str):
        raise InputError(where, "not the shape erratlas writes: inputs.units, tool or fingerprint")
    return ScanHead(record_of(InputFile, inputs.get("bundle"), f"{where}: inputs.bundle"), len(units), tool,
                    fingerprint)


def handler_tally(document: Mapping[str, object], where: object) -> HandlerTally | None:
    """The scan part's `handlers` block, counted; None for a scan without handlers."""
    block = document.get("handlers")
    if block is None:
        return None
    block = _object(block, "handlers", where)
    count, by_disposition = block.get("count"), block.get("byDisposition")
    if type(count) is not int or not isinstance(by_disposition, dict) or not all(
            type(n) is int for n in by_disposition.values()):
        raise InputError(where, "not the shape erratlas writes: handlers.count or handlers.byDisposition")
    return HandlerTally(count, by_disposition)


def recorded_allowlists(document: dict[str, Any], where: object) -> tuple[RecordedAllowlist, ...]:
    """The allowlists a summary records as applied: path, sha256 and entry count each."""
    inputs = document.get("inputs")
    recorded = inputs.get("allowlists") if isinstance(inputs, dict) else None
    if not isinstance(recorded, list) or not all(
            isinstance(a, dict) and isinstance(a.get("path"), str) and isinstance(a.get("sha256"), str)
            and type(a.get("entries")) is int for a in recorded):
        raise InputError(where, "corrupt summary: inputs.allowlists is not a list of paths, sha256 and entry counts")
    return tuple(RecordedAllowlist(a["path"], a["sha256"], a["entries"]) for a in recorded)


def baseline_of(document: dict[str, Any], where: object) -> Baseline:
    """A baseline summary's callsite count, Unresolved fingerprints and flagged handlers."""
    counted = document.get("counts")
    total = counted.get("total") if isinstance(counted, dict) else None
    if type(total) is not int or total < 0:
        raise InputError(where, "corrupt baseline summary: counts.total is not a count")
    unresolved = document.get("unresolvedFingerprints")
    if not isinstance(unresolved, list) or not all(isinstance(f, str) for f in unresolved):
        raise InputError(where, "corrupt baseline summary: unresolvedFingerprints is not a list of fingerprints")
    section = document.get("handlerOwners")
    flagged: dict[str, tuple[str, ...]] | None = None
    if section is not None:
        findings = section.get("findings") if isinstance(section, dict) else None
        if not isinstance(findings, dict):
            raise InputError(where, "corrupt baseline summary: handlerOwners.findings")
        flagged = {}
        for key in FINDINGS:  # a finding the summary lacks is refused where a threshold asks for it
            if key not in findings:
                continue
            try:
                flagged[key] = tuple(fp for owner in ("Product", "Dependency", "Unresolved")
                                     for fp in findings[key][owner])
            except (KeyError, TypeError):
                raise InputError(where, f"corrupt baseline summary: handlerOwners.findings.{key}") from None
            if not all(isinstance(fp, str) for fp in flagged[key]):
                raise InputError(where, f"corrupt baseline summary: handlerOwners.findings.{key}")
    return Baseline(total, tuple(unresolved), flagged)
