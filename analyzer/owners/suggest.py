"""Owner suggestions (docs/owners.md; evidence and confidence words: docs/modules.md,
"Suggestions"): `suggest` reads a scan directory and proposes allowlist entries for a reviewer,
nothing here changes an owner; `accept` copies the suggestions a reviewer chose into an
allowlist through the canonical writer of `analyzer.owners.allowlist`."""

from __future__ import annotations

import datetime as dt
import os
import re
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import orjson

from analyzer.bounded import MAX_DOCUMENT_BYTES, read_regular
from analyzer.errors import InputError
from analyzer.facts import BundledModule
from analyzer.model import Callsite, Candidate, Suggestion, SuggestionEvidence
from analyzer.owners.allowlist import LEVELS, Entry, load_allowlist, validated_entry, write_allowlist
from analyzer.owners.references import ReferenceGraph
from analyzer.owners.truth import MapTruth, truth_suggestions
from analyzer.scandir.files import SUGGESTION_SCHEMA
from analyzer.scandir.load import load_callsites, load_modules, load_projection, record_of, schema_row
from analyzer.scandir.read import verified

CONFIDENCES = ("exact", "likely", "possible", "ambiguous")
#: what `accept` takes at most: an ambiguous suggestion names several candidates and is never accepted
ACCEPTABLE = CONFIDENCES[:3]
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


def load_scan(files: dict[str, bytes]) -> tuple[list[Callsite], dict[str, BundledModule]]:
    """The callsites of a verified scan directory, and its bundler modules by id."""
    return load_callsites(files), {row.id: row for row in load_modules(files)}


def suggestions(records: list[Callsite], modules: dict[str, BundledModule],
                graph: ReferenceGraph | None = None, truth: MapTruth | None = None) -> list[Suggestion]:
    """What the source map says, at every level (`truth`), and for the callsites it gives no
    owner, what the bundle keeps: one suggestion per module whose callsites agree, else one
    per callsite."""
    truth = truth if truth is not None else MapTruth([])
    out = truth_suggestions(records, graph or ReferenceGraph([]), suggestion_row, truth, modules)
    by_module: dict[str | None, list[Callsite]] = defaultdict(list)
    for record in records:
        if truth.of(record) is not None:
            continue
        by_module[record.module.id if record.module is not None else None].append(record)
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
    out.sort(key=lambda s: (CONFIDENCES.index(s.confidence), LEVELS.index(s.level), s.owner or "", s.package or "",
                            s.id))
    return out


def suggestion_row(identifier: str, level: str, fingerprint: str, copies: int | None, owner: str | None,
          package: str | None, confidence: str, evidence: list[tuple[str, str]], members: list[Callsite],
          function: str | None, expect: str | None, candidates: list[Candidate] | None = None,
          neighbours: tuple[str, str] | None = None) -> Suggestion:
    kinds = sorted({kind for kind, _ in evidence})
    who = package if package else "the product" if owner else "several owners"
    return Suggestion(
        schema=SUGGESTION_SCHEMA,
        id=identifier,
        level=level,
        match={level: fingerprint},
        copies=copies,
        neighbours=neighbours,
        owner=owner,
        package=package,
        function=function,
        expect=expect if level == "callsite" else None,
        confidence=confidence,
        evidence=tuple(SuggestionEvidence(kind, detail) for kind, detail in evidence),
        candidates=tuple(candidates) if candidates is not None else None,
        callsites=len(members),
        exampleIds=tuple(r.id for r in members[:_EXAMPLES]),
        # the product-root suggestion that already reaches this callsite (truth rows only)
        reachedBy=None,
        reason=f"{level} {fingerprint}: {', '.join(kinds)} evidence points to {who} ({confidence})",
    )


def _module_marks(row: BundledModule) -> Verdict | None:
    """What the bundle itself says about a module: kept path, banner, inlined package.json."""
    named: dict[str, list[tuple[str, str]]] = defaultdict(list)
    if row.key and row.package:
        named[row.package].append(("module-key", row.key))
    for package in row.banners:
        named[package].append(("license-banner", f"/*! {package} ... */"))
    for package in row.manifests:
        named[package].append(("package-json", f'{{name:"{package}",version:...}}'))
    if len(named) != 1:
        return None
    (package, evidence), = named.items()
    return Verdict("Dependency", package, "likely", tuple(evidence))


def _signature_verdict(records: Iterable[Callsite]) -> Verdict | None:
    found = {
        (package, record.message.comparisonKey)
        for record in records
        for pattern, package in SIGNATURES
        if pattern.search(record.message.comparisonKey)
    }
    packages = {package for package, _ in found}
    if len(packages) != 1:
        return None
    package = packages.pop()
    return Verdict("Dependency", package, "possible", tuple(sorted(("signature", key) for _, key in found)))


def _module_verdict(row: BundledModule, members: list[Callsite]) -> Verdict | None:
    """For a module's callsites the map gives no owner: what the bundle keeps of the module, else
    a message signature."""
    return _module_marks(row) or _signature_verdict(members)


def _callsite_verdict(record: Callsite, row: BundledModule | None) -> Verdict | None:
    verdict = _module_marks(row) if row is not None else None
    return verdict if verdict is not None else _signature_verdict([record])


def _module_suggestion(row: BundledModule, members: list[Callsite], verdict: Verdict) -> Suggestion:
    name = row.name
    if verdict.package is not None and "node_modules/" in name:
        name = name.rsplit("node_modules/", 1)[1]
    return suggestion_row(f"s:module:{row.id}", "module", row.fingerprint, None, verdict.owner, verdict.package,
                 verdict.confidence, list(verdict.evidence), members, name, None)


def _callsite_suggestion(record: Callsite, verdict: Verdict) -> Suggestion:
    copies = record.copies
    if copies.count > 1:  # identical code elsewhere: only the whole group can be named
        return suggestion_row(f"s:callsite:{record.id}", "callsite", copies.group or "", copies.count, None, None,
                     "ambiguous", list(verdict.evidence), [record], None, None,
                     candidates=[Candidate(verdict.owner, verdict.package, 1)])
    return suggestion_row(f"s:callsite:{record.id}", "callsite", record.fingerprint, None, verdict.owner,
                 verdict.package, verdict.confidence, list(verdict.evidence), [record], None,
                 record.message.comparisonKey)


def render(rows: list[Suggestion]) -> bytes:
    return b"".join(orjson.dumps(row) + b"\n" for row in rows)


# ---- accept -------------------------------------------------------------------------------


#: the keys `accept` reads from a suggestion, and the types they must have
_ROW_SHAPE: dict[str, tuple[type, ...]] = {
    "id": (str,),
    "match": (dict,),
    "owner": (str, type(None)),
    "package": (str, type(None)),
    "function": (str, type(None)),
    "expect": (str, type(None)),
    "confidence": (str,),
    "evidence": (list,),
    "callsites": (int,),
}


def load_suggestions(path: Path) -> list[Suggestion]:
    """The suggestions of a file (`suggest`'s, or a reviewer's selection of them), typed."""
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
        row = schema_row(line, f"{path}:{number}", SUGGESTION_SCHEMA, "an erratlas suggestion")
        for key, types in _ROW_SHAPE.items():
            if not isinstance(row.get(key), types) or (key == "confidence" and row[key] not in CONFIDENCES):
                raise InputError(f"{path}:{number}", f"suggestion key '{key}' is missing or malformed")
        if row["owner"] is None and row["confidence"] != "ambiguous":  # only several candidates own nothing
            raise InputError(f"{path}:{number}", "suggestion key 'owner' is missing or malformed")
        rows.append(record_of(Suggestion, row, f"{path}:{number}"))
    return rows


#: `accept --level auto`: the levels that carry best, measured (docs/owners.md): a source map's
#: truth is accepted per callsite and as product roots; other evidence at its own level
AUTO_LEVELS = ("callsite", "references")


def chosen(rows: list[Suggestion], ids: list[str], minimum: str, packages: list[str],
           level: str = "auto") -> list[Suggestion]:
    """The suggestions named by id, else those at `minimum` confidence or stronger (optionally
    only for some packages) at `level` (`auto`: the levels that carry best)."""
    if minimum not in ACCEPTABLE:
        raise InputError("--confidence", f"'{minimum}' is not one of {', '.join(ACCEPTABLE)}")
    if level not in ("auto", *LEVELS):
        raise InputError("--level", f"'{level}' is not auto or one of {', '.join(LEVELS)}")
    if ids:
        known = {row.id: row for row in rows}
        missing = [i for i in ids if i not in known]
        if missing:
            raise InputError("--id", f"no suggestion '{missing[0]}'")
        ambiguous = [i for i in ids if known[i].confidence not in ACCEPTABLE]
        if ambiguous:
            raise InputError("--id", f"suggestion '{ambiguous[0]}' names several candidate owners: review the "
                                     "copies and write an entry with `erratlas allow`")
        return [known[i] for i in ids]
    rank = CONFIDENCES.index(minimum)
    # a row naming several candidate packages (corpus ambiguity) is for reading, not accepting
    picked = [row for row in rows if CONFIDENCES.index(row.confidence) <= rank and _at_level(row, level)
              and not (row.owner == "Dependency" and row.package is None)]
    if packages:
        picked = [row for row in picked if row.package in packages]
    if level == "auto":  # a callsite a picked root reaches needs no entry of its own
        roots = {row.id for row in picked if row.level == "references"}
        picked = [row for row in picked if row.reachedBy not in roots or row.reachedBy is None]
    return picked


def skipped(rows: list[Suggestion], picked: list[Suggestion], minimum: str, packages: list[str],
            level: str) -> list[str]:
    """Why the suggestions left out of `picked` (`chosen`, then `still_unowned`) were left out:
    one phrase per reason, with its count and the option that would take them."""
    taken = {row.id for row in picked}
    roots = {row.id for row in picked if row.level == "references"}
    rank = CONFIDENCES.index(minimum)
    reasons: Counter[str] = Counter()
    for row in rows:
        if row.id in taken:
            continue
        if row.confidence == "ambiguous" or (row.owner == "Dependency" and row.package is None):
            reasons["name several candidate owners (review them and write entries with `erratlas allow`)"] += 1
        elif CONFIDENCES.index(row.confidence) > rank:
            reasons[f"are {row.confidence}, below --confidence {minimum} (--confidence {row.confidence} "
                    "takes them)"] += 1
        elif not _at_level(row, level):
            reasons[f"are at the {row.level} level, which --level {level} leaves out (--level {row.level} "
                    "takes them)"] += 1
        elif packages and row.package not in packages:
            reasons["name a package other than --package (another --package takes them)"] += 1
        elif row.reachedBy in roots:
            reasons["need no entry: an accepted references root reaches them"] += 1
        else:
            reasons["would also own callsites DIR's projection already owns (left out by --unowned)"] += 1
    return [_counted(count, reason) for reason, count in sorted(reasons.items(), key=lambda item: (-item[1], item[0]))]


def _counted(count: int, reason: str) -> str:
    verb, rest = reason.split(" ", 1)
    return f"{count} {_SINGULAR.get(verb, verb) if count == 1 else verb} {rest}"


#: the verb of a `skipped` reason when it counts one suggestion
_SINGULAR = {"are": "is", "name": "names", "need": "needs"}


def _at_level(row: Suggestion, level: str) -> bool:
    if level != "auto":
        return row.level == level
    from_map = any(e.kind == "source-map" for e in row.evidence)
    return row.level in AUTO_LEVELS or not from_map


def still_unowned(rows: list[Suggestion], directory: Path) -> list[Suggestion]:
    """The suggestions every callsite of which the directory's projection leaves Unresolved: a
    suggestion that would also own an owned callsite is never taken (a group of identical copies
    that the truth gives two owners must not be re-owned whole by one). The callsites a
    suggestion covers are read from the records: a callsite or function fingerprint (its group,
    for `copies`), the one copy its `neighbours` name; its listed examples at other levels."""
    files, _ = verified(directory)
    unresolved = {row.id for row in load_projection(files) if row.owner == "Unresolved"}
    covering: dict[tuple[str, str], set[str]] = {}
    for record in load_callsites(files):
        for level, fingerprint, copies in (("callsite", record.fingerprint, record.copies),
                                           ("function", record.functionFingerprint, record.functionCopies)):
            if fingerprint:
                covering.setdefault((level, fingerprint), set()).add(record.id)
            if copies is not None and copies.group:
                covering.setdefault((level, copies.group), set()).add(record.id)
    taken = []
    for row in rows:
        level = row.level
        fingerprint = row.match.get(level)
        if level in ("callsite", "function") and not row.neighbours and fingerprint is not None:
            ids = covering.get((level, fingerprint), set()) or set(row.exampleIds)
        else:
            ids = set(row.exampleIds)
        if not ids or ids <= unresolved:
            taken.append(row)
    return taken


def accept(
    rows: list[Suggestion], allowlist: Path, reviewer: str, reviewed_on: str | None, note: str | None
) -> list[Entry]:
    """Write the chosen suggestions into `allowlist` (entries for the same match are replaced);
    every entry is validated, and the allowlist read, before any byte is written."""
    day = reviewed_on or dt.date.today().isoformat()
    entries = [_entry(row, allowlist, reviewer, day, note) for row in rows]
    existing = list(load_allowlist(allowlist).entries) if os.path.lexists(allowlist) else []
    replaced = {e.identity() for e in entries}
    write_allowlist(allowlist, [e for e in existing if e.identity() not in replaced] + entries)
    return entries


def _entry(row: Suggestion, allowlist: Path, reviewer: str, day: str, note: str | None) -> Entry:
    evidence = "; ".join(f"{e.kind}: {e.detail}" for e in row.evidence[:3])
    if len(row.evidence) > 3:
        evidence += f"; and {len(row.evidence) - 3} more"
    reason = f"accepted suggestion ({row.confidence}): {evidence}" + (f"; {note}" if note else "")
    level = next(iter(row.match), None)
    body = {
        "match": row.match,
        **({"copies": row.copies} if row.copies is not None else {}),
        **({"neighbours": list(row.neighbours)} if row.neighbours else {}),
        "owner": row.owner,
        **({"package": row.package} if row.package is not None else {}),
        **({"function": row.function} if row.function is not None else {}),
        **({"expect": row.expect} if level == "callsite" and row.expect is not None else {}),
        "reason": reason,
        "reviewedBy": reviewer,
        "reviewedOn": day,
    }

    def fail(key: str | None, problem: str) -> InputError:
        where = {"reviewedBy": "--reviewer", "reviewedOn": "--on"}.get(key or "", f"suggestion {row.id}")
        return InputError(where, (f"key '{key}': " if key else "") + problem)

    return validated_entry(body, fail, str(allowlist))
