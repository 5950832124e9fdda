"""SARIF 2.1.0 for code hosts and CI (docs/reference.md, "SARIF"): one result per callsite the gate cares about.

A result's `partialFingerprints` carry the callsite's portable fingerprint, so a code host
tracks a finding across releases exactly as an allowlist entry would: `erratlasCallsite/v1` is
the fingerprint itself; `primaryLocationLineHash`, the key GitHub code scanning matches alerts
on, is set from it too (GitHub would otherwise hash the text of the readable line, whose
minified names change with every build; the upload action keeps a value a tool supplies). Its
`ruleId` says the owner state and kind (`unresolved-error`, ...); its location is the
callsite's line and column in its readable slice, with the original unit and byte offset in
its property bag.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from analyzer import __version__
from analyzer.reports.evidence import evidence_summary

SARIF_VERSION = "2.1.0"
SARIF_SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
FINGERPRINT_KEY = "erratlasCallsite/v1"
OWNERS = ("Unresolved", "Product", "Dependency")
KINDS = ("error", "diagnostic")
#: which callsites become results
SELECTIONS = ("unresolved", "new", "all")
_LEVEL = {"Unresolved": "warning", "Product": "note", "Dependency": "note"}
_RULE_TEXT = {
    "Unresolved": "No reviewed allowlist entry owns this {kind} callsite.",
    "Product": "A reviewed allowlist entry says the product owns this {kind} callsite.",
    "Dependency": "A reviewed allowlist entry says a dependency package owns this {kind} callsite.",
}
_KIND_TEXT = {"error": "error-constructor", "diagnostic": "diagnostic-logger"}


@dataclass(frozen=True, slots=True)
class Selection:
    #: unresolved (default), new (only Unresolved callsites new against the baseline), all
    results: str
    #: fingerprints of the baseline's Unresolved callsites (a multiset), or None
    baseline: Counter[str] | None
    #: results at level `error` (the gate's failing set) instead of the owner state's level
    failing: bool = False


def rule_id(kind: str, owner: str) -> str:
    return f"{owner.lower()}-{kind}"


def _rules() -> list[dict[str, Any]]:
    rules = []
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


def sarif_log(
    records: list[dict[str, Any]], rows: list[dict[str, Any]], summary: dict[str, Any], directory: Path,
    selection: Selection, notifications: list[str] | None = None,
) -> dict[str, Any]:
    """The SARIF log of one scan directory (`records` and projection `rows` in the same order)."""
    rules = _rules()
    index = {rule["id"]: number for number, rule in enumerate(rules)}
    remaining = Counter(selection.baseline) if selection.baseline is not None else None
    results = []
    for record, row in zip(records, rows):
        state = None
        if remaining is not None and row["owner"] == "Unresolved":
            state = "unchanged" if remaining[record["fingerprint"]] > 0 else "new"
            remaining[record["fingerprint"]] -= 1
        if not _selected(row, state, selection):
            continue
        results.append(_result(record, row, directory, index, state, selection.failing))
    bundle = summary["inputs"]["bundle"]
    run: dict[str, Any] = {
        "tool": {"driver": {"name": "erratlas", "version": __version__, "semanticVersion": __version__,
                            "rules": rules}},
        "automationDetails": {"id": f"erratlas/{bundle['name']}/"},
        "columnKind": "unicodeCodePoints",
        "invocations": [_invocation(notifications or [])],
        "results": results,
        "properties": {
            "bundle": bundle["name"], "bundleSha256": bundle["sha256"], "selection": selection.results,
            "coverage": summary["coverage"]["overall"]["display"],
            "fingerprintVersion": summary["fingerprint"]["version"],
        },
    }
    return {"$schema": SARIF_SCHEMA, "version": SARIF_VERSION, "runs": [run]}


def _selected(row: dict[str, Any], state: str | None, selection: Selection) -> bool:
    if selection.results == "all":
        return True
    if row["owner"] != "Unresolved":
        return False
    return selection.results == "unresolved" or state == "new"


def _invocation(notifications: list[str]) -> dict[str, Any]:
    invocation: dict[str, Any] = {"executionSuccessful": True}
    if notifications:
        invocation["toolExecutionNotifications"] = [
            {"level": "error", "message": {"text": text}, "descriptor": {"id": "gate"}} for text in notifications
        ]
    return invocation


def _result(
    record: dict[str, Any], row: dict[str, Any], directory: Path, index: dict[str, int], state: str | None,
    failing: bool,
) -> dict[str, Any]:
    rule = rule_id(record["kind"], row["owner"])
    place = record["readable"]
    scope = record["scope"]
    result: dict[str, Any] = {
        "ruleId": rule,
        "ruleIndex": index[rule],
        "level": "error" if failing else _LEVEL[row["owner"]],
        "message": {"text": message_text(record, row)},
        "locations": [{
            "physicalLocation": {
                "artifactLocation": _artifact(directory, place["file"]),
                "region": {"startLine": place["line"], "startColumn": place["column"]},
            },
            "logicalLocations": [{"name": scope["function"], "fullyQualifiedName": " > ".join(scope["scopePath"]),
                                  "kind": "function" if scope["functionKind"] != "module" else "module"}],
        }],
        "partialFingerprints": {
            FINGERPRINT_KEY: record["fingerprint"],
            "primaryLocationLineHash": record["fingerprint"].split(":", 1)[1] + ":1",
        },
        "properties": {
            "id": record["id"], "unit": record["unit"], "offset": record["offset"], "endOffset": record["endOffset"],
            "line": record["line"], "column": record["column"], "owner": row["owner"], "package": row["package"],
            "evidence": evidence_summary(row["evidence"]) or None, "comparisonKey": record["message"]["comparisonKey"],
            "consumerRole": record["consumer"]["role"], "copies": record["copies"]["count"],
            "functionFingerprint": record["functionFingerprint"],
        },
    }
    if state is not None:
        result["baselineState"] = state
    return result


def _artifact(directory: Path, file: str) -> dict[str, Any]:
    """Relative to where erratlas ran when DIR is relative (GitHub resolves `%SRCROOT%` to the
    repository's root), else an absolute file URI."""
    path = directory / file
    if path.is_absolute():
        return {"uri": path.as_uri()}
    return {"uri": path.as_posix().removeprefix("./"), "uriBaseId": "%SRCROOT%"}


def message_text(record: dict[str, Any], row: dict[str, Any]) -> str:
    """One sentence: what is built or logged, where it goes, the message, and who owns it."""
    if record["kind"] == "error":
        what = f"{record['constructor']} ({record['form']})"
    else:
        what = f"diagnostic {record['callee']} at level {record['level']}"
    message = record["message"]["comparisonKey"]
    if len(message) > 200:
        message = message[:200] + "…"
    where = f"in {record['scope']['function']}, consumed as {record['consumer']['role']}"
    if row["owner"] == "Unresolved":
        owner = "no reviewed owner"
    else:
        owner = f"owned by {row['owner']}" + (f" {row['package']}" if row["package"] else "")
        if row["evidence"] is not None:
            owner += f" ({evidence_summary(row['evidence'])})"
    return f"{what} {where}: \"{message}\"; {owner}."
