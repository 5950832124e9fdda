"""The typed read of a summary document (`summary_model.Summary`): each part the verbs read,
checked as erratlas writes it; a part of another shape is an InputError naming the part."""

from __future__ import annotations

from typing import Any

from analyzer.errors import InputError
from analyzer.scandir.load import record_of
from analyzer.summary_model import (
    AmbiguousEntry,
    DriftedEntry,
    InputFile,
    LoggerSeen,
    RecordedAllowlist,
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
