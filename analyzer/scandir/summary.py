"""The typed read of a summary document (`summary_model.Summary`): each part the verbs read,
checked as erratlas writes it; a part of another shape is an InputError naming the part."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import TypeVar

import orjson

from analyzer.errors import InputError
from analyzer.scandir.files import SUMMARY_FILE
from analyzer.scandir.load import record_of
from analyzer.summary_model import (
    AmbiguousEntry,
    Baseline,
    DriftedEntry,
    FingerprintBlock,
    HandlerTally,
    InputFile,
    Invariant,
    LoggerSeen,
    OwnerCounts,
    RecordedAllowlist,
    ScanHead,
    ScanPart,
    SourceMapRow,
    StaleEntry,
    Summary,
    SummaryCoverage,
)

#: the handler findings a summary lists by owner (docs/owners.md, "Handlers")
FINDINGS = ("swallowed", "lostCause", "uselessCatch")
_Record = TypeVar("_Record")


def summary_of(document: Mapping[str, object], where: object) -> Summary:
    """The summary `document`, read from `where`, with its parts typed."""

    def part(record: type[_Record], path: str, value: object) -> _Record:
        made: _Record = record_of(record, value, f"{where}: {path}")
        return made

    def listed(record: type[_Record], path: str, value: object) -> tuple[_Record, ...]:
        if not isinstance(value, list):
            raise InputError(where, f"not the shape erratlas writes: {path} is not a list")
        return tuple(part(record, f"{path}[{n}]", item) for n, item in enumerate(value))

    inputs, counts = document.get("inputs"), document.get("counts")
    modules = document.get("modules")
    if not isinstance(inputs, dict) or not isinstance(counts, dict) or not isinstance(modules, dict):
        raise InputError(where, "not the shape erratlas writes: no inputs, counts or modules")
    loggers = document.get("loggers", [])
    handlers = document.get("handlerOwners")
    findings = handlers.get("findings") if isinstance(handlers, dict) else None
    if handlers is not None and not (isinstance(findings, dict) and all(
            isinstance(findings.get(key), dict) for key in FINDINGS)):
        raise InputError(where, "not the shape erratlas writes: handlerOwners.findings")
    return Summary(
        document=document,
        fingerprint=part(FingerprintBlock, "fingerprint", document.get("fingerprint")),
        bundle=part(InputFile, "inputs.bundle", inputs.get("bundle")),
        units=listed(InputFile, "inputs.units", inputs.get("units")),
        allowlists=listed(RecordedAllowlist, "inputs.allowlists", inputs.get("allowlists", [])),
        # a logger block says more (its evidence); the verbs read its unit, name and source
        loggers=listed(LoggerSeen, "loggers", [{k: lg.get(k) for k in ("unit", "name", "source")}
                                               if isinstance(lg, dict) else lg for lg in loggers]
                       if isinstance(loggers, list) else loggers),
        total=_count(counts.get("total"), where),
        sourceMaps=listed(SourceMapRow, "modules.sourceMaps", modules.get("sourceMaps")),
        owners=part(OwnerCounts, "owners", document.get("owners")),
        coverage=part(SummaryCoverage, "coverage", document.get("coverage")),
        stale=listed(StaleEntry, "stale", document.get("stale")),
        drifted=listed(DriftedEntry, "drifted", document.get("drifted")),
        ambiguous=listed(AmbiguousEntry, "ambiguous", document.get("ambiguous", [])),
        unresolvedFingerprints=_names(document.get("unresolvedFingerprints"), "unresolvedFingerprints", where),
        productFindings=None if findings is None else {
            key: _names(findings[key].get("Product"), f"handlerOwners.findings.{key}.Product", where)
            for key in FINDINGS},
        outputs=_digests(document.get("outputs"), where),
    )


def _count(value: object, where: object) -> int:
    if type(value) is not int or value < 0:
        raise InputError(where, "not the shape erratlas writes: counts.total is not a count")
    return value


def _names(value: object, path: str, where: object) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise InputError(where, f"not the shape erratlas writes: {path} is not a list of fingerprints")
    return tuple(value)


def _digests(value: object, where: object) -> dict[str, str]:
    if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
        raise InputError(where, "not the shape erratlas writes: outputs is not an object of sha256")
    return value


def _object(value: object, path: str, where: object) -> Mapping[str, object]:
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


def baseline_of(document: Mapping[str, object], where: object) -> Baseline:
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
    inputs = document.get("inputs")
    scanned = inputs.get("bundle") if isinstance(inputs, dict) else None
    name = scanned.get("name") if isinstance(scanned, dict) else None
    return Baseline(total, tuple(unresolved), flagged, name if isinstance(name, str) else None)


def with_output(files: dict[str, bytes], name: str, data: bytes) -> dict[str, bytes]:
    """A verified scan directory's `files` with `name` added and listed (with its sha256) in the
    summary's outputs, so that the gate still verifies the directory (`suggest` adds its file so)."""
    summary = orjson.loads(files[SUMMARY_FILE])
    outputs = dict(summary.get("outputs") or {})
    outputs[name] = hashlib.sha256(data).hexdigest()
    summary["outputs"] = dict(sorted(outputs.items()))
    return {**files, name: data, SUMMARY_FILE: orjson.dumps(summary, option=orjson.OPT_INDENT_2) + b"\n"}
