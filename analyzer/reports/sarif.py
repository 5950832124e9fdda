"""SARIF 2.1.0 for code hosts and CI (docs/reference.md, "SARIF"): one result per callsite the gate
cares about, tracked across releases by its portable fingerprint (`partialFingerprints`), placed
at the original source line the bundle's source map names when there is one, else at its line
in the readable slice."""

from __future__ import annotations

import os
import posixpath
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from analyzer import __version__
from analyzer.handler_model import Handler, HandlerOwnerRow
from analyzer.model import Callsite, HandlerFinding, OwnerClass, ProjectionRow, Scope
from analyzer.reports.evidence import evidence_summary
from analyzer.reports.sarif_model import (
    FINGERPRINT_KEY,
    HANDLER_FINGERPRINT_KEY,
    ArtifactLocation,
    BaselineState,
    Bases,
    Invocation,
    Level,
    Log,
    LogicalLocation,
    PhysicalLocation,
    Related,
    Result,
    Rule,
    Run,
)
from analyzer.scandir.load import load_map_sources
from analyzer.summary_model import Summary

SARIF_VERSION = "2.1.0"
SARIF_SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
OWNERS: tuple[OwnerClass, ...] = ("Unresolved", "Product", "Dependency")
KINDS = ("error", "diagnostic")
#: which callsites become results
SELECTIONS = ("unresolved", "new", "all")
_LEVEL: dict[OwnerClass, Level] = {"Unresolved": "warning", "Product": "note", "Dependency": "note"}
_RULE_TEXT = {
    "Unresolved": "No reviewed allowlist entry owns this {kind} callsite.",
    "Product": "A reviewed allowlist entry says the product owns this {kind} callsite.",
    "Dependency": "A reviewed allowlist entry says a dependency package owns this {kind} callsite.",
}
_KIND_TEXT = {"error": "error-constructor", "diagnostic": "diagnostic-logger"}
#: the bases of original sources when erratlas does not know where they are from here
PACKAGE_ROOT = "PACKAGE_ROOT"
TREE_ROOT = "TREE_ROOT"
_BASES = {
    PACKAGE_ROOT: "The bundle's package root (the directory of the nearest package.json above it, or the "
                  "bundle's directory when there is none): where the source map's sources resolve. "
                  "`erratlas sarif --bundle PATH` makes them relative to where erratlas runs.",
    TREE_ROOT: "The root of the directory or archive scanned (below an archive's single top-level directory, "
               "`package/` of an npm tarball): where its files' source maps' sources resolve. For a directory, "
               "`erratlas sarif --bundle DIR` makes them relative to where erratlas runs.",
}


#: the flow rules (`sarif --flow`): one result per handler a finding flags (docs/reference.md, "SARIF")
FLOW_RULES: dict[HandlerFinding, tuple[str, str, str]] = {
    "swallowed-error": ("SwallowedError", "A branch of this handler drops the caught error.",
                        "No rethrow, wrap, log, report, return, reject, callback, retry, exit or store: the error is "
                        "gone (ESLint no-empty, ruff S110)."),
    "wrap-loses-cause": ("WrapLosesCause", "This handler throws a new error that carries nothing of the caught one.",
                         "Pass the caught error as the new error's cause (ESLint preserve-caught-error, ruff B904)."),
    "useless-catch": ("UselessCatch", "This handler only rethrows what it caught.",
                      "A catch that rethrows the caught value unchanged does nothing (ESLint no-useless-catch, "
                      "ruff TRY203)."),
}


class OriginalSources:
    """Where each source a scan's maps place lies, as a SARIF artifact location. `located`: where
    the scanned input is from here (a bundle file's directory, a directory tree's root), else
    None: paths relative to a base `run.originalUriBaseIds` describes."""

    def __init__(self, map_sources: bytes, summary: Summary, located: Path | None) -> None:
        #: (unit, source) -> path relative to the unit's package root (or to its directory)
        self._paths = {(row.unit, row.source): row.path for row in load_map_sources(map_sources)
                       if row.path is not None}
        self._roots = {m.unit: m.packageRoot.path if m.packageRoot is not None else "."
                       for m in summary.sourceMaps if m.status == "used"}
        self._bundle = summary.bundle.name
        self._located = located
        #: the base ids the locations use
        self.bases: set[str] = set()

    def artifact(self, record: Callsite | Handler) -> ArtifactLocation | None:
        origin = record.origin
        unit = record.unit
        path = self._paths.get((unit, origin.source)) if origin is not None else None
        if path is None:
            return None
        if posixpath.isabs(path):
            return {"uri": Path(path).as_uri()}
        # a relative path is the bundle file's, or a file's of a tree (an embedded module has none)
        inside = "" if unit == self._bundle else posixpath.dirname(unit)
        if self._located is None:
            if not inside and unit == self._bundle:
                self.bases.add(PACKAGE_ROOT)
                return {"uri": path, "uriBaseId": PACKAGE_ROOT}
            self.bases.add(TREE_ROOT)
            return {"uri": posixpath.normpath(posixpath.join(inside, self._roots.get(unit, "."), path)),
                    "uriBaseId": TREE_ROOT}
        where = Path(os.path.normpath(self._located / inside / self._roots.get(unit, ".") / path))
        if where.is_absolute() or where.parts[:1] == ("..",):
            return {"uri": Path(os.path.abspath(where)).as_uri()}
        return {"uri": where.as_posix(), "uriBaseId": "%SRCROOT%"}


@dataclass(frozen=True, slots=True)
class Selection:
    #: unresolved (default), new (only Unresolved callsites new against the baseline), all
    results: str
    #: fingerprints of the baseline's Unresolved callsites (a multiset), or None
    baseline: Counter[str] | None
    #: results at level `error` (the gate's failing set) instead of the owner state's level
    failing: bool = False
    #: with `flow`: the (handler id, finding) results to write (the gate's failing handlers);
    #: None: every finding of every handler
    handlers: frozenset[tuple[str, HandlerFinding]] | None = None


def rule_id(kind: str, owner: str) -> str:
    return f"{owner.lower()}-{kind}"


def _rules() -> list[Rule]:
    rules: list[Rule] = []
    for owner in OWNERS:
        for kind in KINDS:
            text = _RULE_TEXT[owner].format(kind=_KIND_TEXT[kind])
            rules.append({
                "id": rule_id(kind, owner),
                "name": f"{owner}{kind.capitalize()}Callsite",
                "shortDescription": {"text": text},
                "fullDescription": {"text": text + " Owners come only from reviewed entries whose fingerprint equals "
                                    "the callsite's, its function's or its module's."},
                "defaultConfiguration": {"level": _LEVEL[owner]},
                "help": {"text": "Review the callsite (`erratlas explain DIR ID`) and record its owner with "
                                 "`erratlas allow` or `erratlas accept`."},
                "properties": {"kind": kind, "owner": owner},
            })
    return rules


def _flow_rules() -> list[Rule]:
    return [{
        "id": finding, "name": name, "shortDescription": {"text": short},
        "fullDescription": {"text": f"{short} {full}"},
        "defaultConfiguration": {"level": "warning"},
        "help": {"text": "Tell the handler with `erratlas explain DIR h:...`; its owner is the code it sits in."},
        "properties": {"kind": "handler"},
    } for finding, (name, short, full) in FLOW_RULES.items()]


def sarif_log(
    records: list[Callsite], rows: list[ProjectionRow], summary: Summary, directory: Path,
    selection: Selection, notifications: list[str] | None = None, sources: OriginalSources | None = None,
    flow: tuple[list[Handler], list[HandlerOwnerRow]] | None = None,
) -> Log:
    """The SARIF log of one scan directory (`records` and projection `rows` in the same order);
    `flow`, the handlers and their owners, adds the flow rules and their results."""
    rules = _rules() + (_flow_rules() if flow is not None else [])
    index = {rule["id"]: number for number, rule in enumerate(rules)}
    remaining = Counter(selection.baseline) if selection.baseline is not None else None
    results: list[Result] = []
    for record, row in zip(records, rows):
        state: BaselineState | None = None
        if remaining is not None and row.owner == "Unresolved":
            state = "unchanged" if remaining[record.fingerprint] > 0 else "new"
            remaining[record.fingerprint] -= 1
        if not _selected(row, state, selection):
            continue
        results.append(_result(record, row, directory, index, state, selection.failing, sources))
    if flow is not None:
        chosen = selection.handlers
        handlers, owners = flow
        for handler, owner in zip(handlers, owners, strict=True):
            results += [_flow_result(handler, owner, finding, directory, index, selection.failing, sources)
                        for finding in handler.findings() if chosen is None or (handler.id, finding) in chosen]
    bundle = summary.bundle
    bases: Bases = ({"originalUriBaseIds": {base: {"description": {"text": _BASES[base]}}
                                            for base in sorted(sources.bases)}}
                     if sources is not None and sources.bases else {})
    run: Run = {
        "tool": {"driver": {"name": "erratlas", "version": __version__, "semanticVersion": __version__,
                            "rules": rules}},
        "automationDetails": {"id": f"erratlas/{bundle.name}/"},
        **bases,
        "columnKind": "unicodeCodePoints",
        "invocations": [_invocation(notifications or [])],
        "results": results,
        "properties": {
            "bundle": bundle.name, "bundleSha256": bundle.sha256, "selection": selection.results,
            "coverage": summary.coverage.overall.display,
            "fingerprintVersion": summary.fingerprint.version,
        },
    }
    return {"$schema": SARIF_SCHEMA, "version": SARIF_VERSION, "runs": [run]}


def _selected(row: ProjectionRow, state: BaselineState | None, selection: Selection) -> bool:
    if selection.results == "all":
        return True
    if row.owner != "Unresolved":
        return False
    return selection.results == "unresolved" or state == "new"


def _invocation(notifications: list[str]) -> Invocation:
    invocation: Invocation = {"executionSuccessful": True}
    if notifications:
        invocation["toolExecutionNotifications"] = [
            {"level": "error", "message": {"text": text}, "descriptor": {"id": "gate"}} for text in notifications
        ]
    return invocation


def _result(
    record: Callsite, row: ProjectionRow, directory: Path, index: dict[str, int], state: BaselineState | None,
    failing: bool, sources: OriginalSources | None,
) -> Result:
    rule = rule_id(record.kind, row.owner)
    primary, related = _places(directory, record, sources, "The callsite in the readable rendering of the bundle.")
    result: Result = {
        "ruleId": rule,
        "ruleIndex": index[rule],
        "level": "error" if failing else _LEVEL[row.owner],
        "message": {"text": message_text(record, row)},
        "locations": [{"physicalLocation": primary, "logicalLocations": [_logical(record.scope)]}],
        **related,
        "partialFingerprints": {
            FINGERPRINT_KEY: record.fingerprint,
            "primaryLocationLineHash": record.fingerprint.split(":", 1)[1] + ":1",
        },
        "properties": {
            "id": record.id, "unit": record.unit, "offset": record.offset, "endOffset": record.endOffset,
            "line": record.line, "column": record.column, "owner": row.owner, "package": row.package,
            "evidence": evidence_summary(row.evidence) or None, "comparisonKey": record.message.comparisonKey,
            "consumerRole": record.consumer.role, "copies": record.copies.count,
            "functionFingerprint": record.functionFingerprint,
        },
    }
    if state is not None:
        result["baselineState"] = state
    return result


def _flow_result(handler: Handler, row: HandlerOwnerRow, finding: HandlerFinding, directory: Path,
                 index: dict[str, int], failing: bool, sources: OriginalSources | None) -> Result:
    """One finding of one handler: at `warning` in Product code, a `note` elsewhere, `error` in
    the gate's failing set."""
    primary, related = _places(directory, handler, sources, "The handler in the readable rendering of the bundle.")
    owner = "no reviewed owner" if row.owner == "Unresolved" else f"owned by {row.owner}" + (
        f" {row.package}" if row.package else "")
    return {
        "ruleId": finding,
        "ruleIndex": index[finding],
        "level": "error" if failing else "warning" if row.owner == "Product" else "note",
        "message": {"text": f"{FLOW_RULES[finding][1]} ({handler.form} in {handler.scope.function}; {owner}.)"},
        "locations": [{"physicalLocation": primary, "logicalLocations": [_logical(handler.scope)]}],
        **related,
        "partialFingerprints": {
            HANDLER_FINGERPRINT_KEY: handler.fingerprint,
            "primaryLocationLineHash": handler.fingerprint.split(":", 1)[1] + ":1",
        },
        "properties": {
            "id": handler.id, "unit": handler.unit, "offset": handler.offset, "endOffset": handler.endOffset,
            "line": handler.line, "column": handler.column, "owner": row.owner, "package": row.package,
            "form": handler.form, "copies": handler.copies.count,
        },
    }


def _places(directory: Path, record: Callsite | Handler, sources: OriginalSources | None,
            readable_text: str) -> tuple[PhysicalLocation, Related]:
    """A result's primary location (the original source's line when the map places it, else the
    readable one) and its related locations (the readable one, when it is not the primary)."""
    place = record.readable
    readable: PhysicalLocation = {"artifactLocation": _artifact(directory, place.file),
                                  "region": {"startLine": place.line, "startColumn": place.column}}
    original = sources.artifact(record) if sources is not None else None
    related: Related = ({"relatedLocations": [{"id": 1, "physicalLocation": readable,
                                               "message": {"text": readable_text}}]} if original else {})
    # a map's columns count UTF-16 units, the run's code points: the original line alone
    if original is not None and record.origin is not None:
        return {"artifactLocation": original, "region": {"startLine": record.origin.line}}, related
    return readable, related


def _logical(scope: Scope) -> LogicalLocation:
    return {"name": scope.function, "fullyQualifiedName": " > ".join(scope.scopePath),
            "kind": "function" if scope.functionKind != "module" else "module"}


def _artifact(directory: Path, file: str) -> ArtifactLocation:
    """Relative to where erratlas ran when DIR is relative (GitHub resolves `%SRCROOT%` to the
    repository's root), else an absolute file URI."""
    path = directory / file
    if path.is_absolute():
        return {"uri": path.as_uri()}
    return {"uri": path.as_posix().removeprefix("./"), "uriBaseId": "%SRCROOT%"}


def message_text(record: Callsite, row: ProjectionRow) -> str:
    """One sentence: what is built or logged, where it goes, the message, and who owns it."""
    if record.kind == "error":
        what = f"{record.constructor} ({record.form})"
    else:
        what = f"diagnostic {record.callee} at level {record.level}"
    message = record.message.comparisonKey
    if len(message) > 200:
        message = message[:200] + "…"
    where = f"in {record.scope.function}, consumed as {record.consumer.role}"
    if row.owner == "Unresolved":
        owner = "no reviewed owner"
    else:
        owner = f"owned by {row.owner}" + (f" {row.package}" if row.package else "")
        if row.evidence is not None:
            owner += f" ({evidence_summary(row.evidence)})"
    return f"{what} {where}: \"{message}\"; {owner}."
