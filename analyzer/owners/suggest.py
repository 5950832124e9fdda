"""Owner suggestions (SPEC 4, last rule): evidence beyond allowlists, written for a reviewer.

`suggest` reads a scan directory and proposes allowlist entries; nothing here changes an
owner. `accept` copies the suggestions a reviewer chose into an allowlist, through the
canonical writer of `analyzer.owners.allowlist`.

Evidence, strongest first, and the confidence word it earns:

- `exact`: the source map places every callsite covered under `node_modules/<pkg>/`.
- `likely`: the bundle keeps the module's path (`node_modules/<pkg>/...` in keep-names or
  webpack builds, a bare `require("pkg")` in browserify), a license banner `/*! pkg v1.2.3 */`
  or an inlined package.json names one package, and no source-map origin disagrees; or the
  source map places every callsite outside `node_modules/` (a Product suggestion: a path
  outside node_modules may still be vendored code).
- `possible`: a package-specific message signature.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import os
import re
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from analyzer.bounded import MAX_DOCUMENT_BYTES, read_regular
from analyzer.errors import InputError
from analyzer.owners.allowlist import Entry, load_allowlist, validated_entry, write_allowlist
from analyzer.sourcemap import package_of

SUGGESTIONS_FILE = "suggestions.jsonl"
SUGGESTION_SCHEMA = "erratlas.suggestion/1"
CONFIDENCES = ("exact", "likely", "possible")
_CALLSITE_FILES = ("error-message-callsites.jsonl", "diagnostic-message-callsites.jsonl")
_MODULES_FILE = "modules.jsonl"
_EXAMPLES = 5
#: (message comparisonKey pattern, package): messages only one package writes
SIGNATURES: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r'^Dynamic require of "\$\{\}" is not supported$'), "esbuild"),
    (re.compile(r"^Request failed with status code \$\{\}$"), "axios"),
    (re.compile(r"^Invalid Version: \$\{\}$"), "semver"),
    (re.compile(r"^commander\."), "commander"),
)


@dataclass(frozen=True, slots=True)
class Verdict:
    owner: str
    package: str | None
    confidence: str
    #: (kind, detail): source-map, module-key, license-banner, package-json, signature
    evidence: tuple[tuple[str, str], ...]


def load_scan(files: dict[str, bytes]) -> tuple[list[dict[str, Any]], dict[str, dict[str, Any]]]:
    records = [orjson.loads(line) for name in _CALLSITE_FILES for line in files.get(name, b"").splitlines() if line]
    modules = {row["id"]: row for row in (orjson.loads(line) for line in files.get(_MODULES_FILE, b"").splitlines() if line)}
    return records, modules


def suggestions(records: list[dict[str, Any]], modules: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """One suggestion per module whose callsites agree, else one per callsite with evidence."""
    by_module: dict[str | None, list[dict[str, Any]]] = defaultdict(list)
    for record in records:
        module = record.get("module")
        by_module[module["id"] if isinstance(module, dict) else None].append(record)
    out = []
    for module_id, members in by_module.items():
        row = modules.get(module_id) if module_id is not None else None
        whole = _module_verdict(row, members) if row is not None else None
        if whole is not None:
            out.append(_module_suggestion(row, members, whole))  # type: ignore[arg-type]
            continue
        for record in members:
            verdict = _callsite_verdict(record, row)
            if verdict is not None:
                out.append(_callsite_suggestion(record, verdict))
    out.sort(key=lambda s: (CONFIDENCES.index(s["confidence"]), s["owner"], s["package"] or "", s["id"]))
    return out


def _origin_verdict(record: dict[str, Any]) -> Verdict | None:
    origin = record.get("origin")
    if not isinstance(origin, dict):
        return None
    source = origin["source"]
    package = package_of(source)
    detail = f"{source}:{origin['line']}"
    if package is not None:
        return Verdict("Dependency", package, "exact", (("source-map", detail),))
    return Verdict("Product", None, "likely", (("source-map", detail),))


def _module_marks(row: dict[str, Any]) -> Verdict | None:
    """What the bundle itself says about a module: kept path, banner, inlined package.json."""
    named: dict[str, list[tuple[str, str]]] = defaultdict(list)
    if row.get("key") and row.get("package"):
        named[row["package"]].append(("module-key", row["key"]))
    for package in row.get("banners") or ():
        named[package].append(("license-banner", f"/*! {package} ... */"))
    for package in row.get("manifests") or ():
        named[package].append(("package-json", f'{{name:"{package}",version:...}}'))
    if len(named) != 1:
        return None
    (package, evidence), = named.items()
    return Verdict("Dependency", package, "likely", tuple(evidence))


def _signature_verdict(records: Iterable[dict[str, Any]]) -> Verdict | None:
    found = {
        (package, record["message"]["comparisonKey"])
        for record in records
        for pattern, package in SIGNATURES
        if pattern.search(record["message"]["comparisonKey"])
    }
    packages = {package for package, _ in found}
    if len(packages) != 1:
        return None
    package = packages.pop()
    return Verdict("Dependency", package, "possible", tuple(sorted(("signature", key) for _, key in found)))


def _module_verdict(row: dict[str, Any], members: list[dict[str, Any]]) -> Verdict | None:
    origins = [_origin_verdict(record) for record in members]
    if all(origins):
        owners = {(v.owner, v.package) for v in origins if v}
        if len(owners) == 1:
            owner, package = owners.pop()
            confidence = "exact" if owner == "Dependency" else "likely"
            sources = Counter(detail.rsplit(":", 1)[0] for v in origins if v for _, detail in v.evidence)
            evidence = tuple(("source-map", f"{s} ({n} callsites)") for s, n in sorted(sources.items()))
            return Verdict(owner, package, confidence, evidence)
        return None  # callsites of one module in different places: decide each on its own
    marks = _module_marks(row)
    if marks is not None and all(v is None or v.package == marks.package for v in origins):
        return marks
    if not any(origins):
        return _signature_verdict(members)
    return None


def _callsite_verdict(record: dict[str, Any], row: dict[str, Any] | None) -> Verdict | None:
    verdict = _origin_verdict(record)
    if verdict is None and row is not None:
        verdict = _module_marks(row)
    return verdict if verdict is not None else _signature_verdict([record])


def _module_suggestion(row: dict[str, Any], members: list[dict[str, Any]], verdict: Verdict) -> dict[str, Any]:
    name = row["name"]
    if verdict.package is not None and "node_modules/" in name:
        name = name.rsplit("node_modules/", 1)[1]
    return _suggestion(
        f"s:{row['id']}", {"module": row["fingerprint"]}, verdict, name, None, members,
        f"module {row['kind']} {row['name']}",
    )


def _callsite_suggestion(record: dict[str, Any], verdict: Verdict) -> dict[str, Any]:
    origin = record.get("origin")
    function = f"{origin['source']}:{origin['line']}" if isinstance(origin, dict) else None
    return _suggestion(
        f"s:{record['id']}", {"callsite": record["fingerprint"]}, verdict, function,
        record["message"]["comparisonKey"], [record], f"callsite {record['id']}",
    )


def _suggestion(
    identifier: str, match: dict[str, str], verdict: Verdict, function: str | None, expect: str | None,
    members: list[dict[str, Any]], what: str,
) -> dict[str, Any]:
    kinds = sorted({kind for kind, _ in verdict.evidence})
    owner = verdict.package if verdict.package else "the product"
    return {
        "schema": SUGGESTION_SCHEMA,
        "id": identifier,
        "match": match,
        "owner": verdict.owner,
        "package": verdict.package,
        "function": function,
        "expect": expect,
        "confidence": verdict.confidence,
        "evidence": [{"kind": kind, "detail": detail} for kind, detail in verdict.evidence],
        "callsites": len(members),
        "exampleIds": [r["id"] for r in members[:_EXAMPLES]],
        "reason": f"{what}: {', '.join(kinds)} evidence points to {owner} ({verdict.confidence})",
    }


def render(rows: list[dict[str, Any]]) -> bytes:
    return b"".join(orjson.dumps(row) + b"\n" for row in rows)


# ---- accept -------------------------------------------------------------------------------


#: the keys `accept` reads from a suggestion, and the types they must have
_ROW_SHAPE: dict[str, tuple[type, ...]] = {
    "id": (str,), "match": (dict,), "owner": (str,), "package": (str, type(None)), "function": (str, type(None)),
    "expect": (str, type(None)), "confidence": (str,), "evidence": (list,), "callsites": (int,),
}


def load_suggestions(path: Path) -> list[dict[str, Any]]:
    try:
        raw = read_regular(path, "suggestions file", MAX_DOCUMENT_BYTES)
    except InputError as exc:
        if exc.problem.endswith("not found"):
            raise InputError(path, "no suggestions (run `erratlas suggest` first)") from None
        raise
    rows = []
    for number, line in enumerate(raw.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = orjson.loads(line)
        except orjson.JSONDecodeError as exc:
            raise InputError(f"{path}:{number}", f"not JSON: {exc}") from None
        if not isinstance(row, dict) or row.get("schema") != SUGGESTION_SCHEMA:
            raise InputError(f"{path}:{number}", f"not an erratlas suggestion (schema {SUGGESTION_SCHEMA})")
        for key, types in _ROW_SHAPE.items():
            if not isinstance(row.get(key), types) or (key == "confidence" and row[key] not in CONFIDENCES):
                raise InputError(f"{path}:{number}", f"suggestion key '{key}' is missing or malformed")
        rows.append(row)
    return rows


def chosen(rows: list[dict[str, Any]], ids: list[str], minimum: str, packages: list[str]) -> list[dict[str, Any]]:
    """The suggestions named by id, else those at `minimum` confidence or stronger (optionally
    only for some packages)."""
    if minimum not in CONFIDENCES:
        raise InputError("--confidence", f"'{minimum}' is not one of {', '.join(CONFIDENCES)}")
    if ids:
        known = {row["id"]: row for row in rows}
        missing = [i for i in ids if i not in known]
        if missing:
            raise InputError("--id", f"no suggestion '{missing[0]}'")
        return [known[i] for i in ids]
    rank = CONFIDENCES.index(minimum)
    picked = [row for row in rows if CONFIDENCES.index(row["confidence"]) <= rank]
    if packages:
        picked = [row for row in picked if row["package"] in packages]
    return picked


def accept(
    rows: list[dict[str, Any]], allowlist: Path, reviewer: str, reviewed_on: str | None, note: str | None
) -> list[Entry]:
    """Write the chosen suggestions into `allowlist` (entries for the same match are replaced);
    every entry is validated, and the allowlist read, before any byte is written."""
    day = reviewed_on or dt.date.today().isoformat()
    entries = [_entry(row, allowlist, reviewer, day, note) for row in rows]
    existing = list(load_allowlist(allowlist).entries) if os.path.lexists(allowlist) else []
    replaced = {(e.level, e.fingerprint) for e in entries}
    write_allowlist(allowlist, [e for e in existing if (e.level, e.fingerprint) not in replaced] + entries)
    return entries


def _entry(row: dict[str, Any], allowlist: Path, reviewer: str, day: str, note: str | None) -> Entry:
    evidence = "; ".join(f"{e.get('kind')}: {e.get('detail')}" for e in row["evidence"][:3] if isinstance(e, dict))
    reason = f"accepted suggestion ({row['confidence']}): {evidence}" + (f"; {note}" if note else "")
    level = next(iter(row["match"]), None)
    body = {
        "match": row["match"],
        "owner": row["owner"],
        **({"package": row["package"]} if row["package"] is not None else {}),
        **({"function": row["function"]} if row["function"] is not None else {}),
        **({"expect": row["expect"]} if level == "callsite" and row["expect"] is not None else {}),
        "reason": reason,
        "reviewedBy": reviewer,
        "reviewedOn": day,
    }

    def fail(key: str | None, problem: str) -> InputError:
        where = {"reviewedBy": "--reviewer", "reviewedOn": "--on"}.get(key or "", f"suggestion {row['id']}")
        return InputError(where, (f"key '{key}': " if key else "") + problem)

    return validated_entry(body, fail, str(allowlist))


def with_suggestions(files: dict[str, bytes], data: bytes, summary_file: str) -> dict[str, bytes]:
    """The scan directory's files with suggestions.jsonl added and listed (with its sha256) in
    the summary's outputs, so that `gate` still verifies the directory."""
    summary = orjson.loads(files[summary_file])
    outputs = dict(summary.get("outputs") or {})
    outputs[SUGGESTIONS_FILE] = hashlib.sha256(data).hexdigest()
    summary["outputs"] = dict(sorted(outputs.items()))
    updated = dict(files)
    updated[SUGGESTIONS_FILE] = data
    updated[summary_file] = orjson.dumps(summary, option=orjson.OPT_INDENT_2) + b"\n"
    return updated
