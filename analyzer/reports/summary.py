"""error-diagnostic-owner-summary.json: counts, invariants, logger evidence, hashes."""

from __future__ import annotations

import hashlib
import operator
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import orjson

from analyzer import __version__
from analyzer.model import Callsite
from analyzer.reports.handlers import handler_summary
from analyzer.reports.modules import module_summary, place_counts
from analyzer.scandir.files import SUMMARY_SCHEMA
from analyzer.summary_model import Invariant, OwnerPart, RecordedAllowlist, ScanPart, invariants_of
from analyzer.versions import FP_VERSION, grammar

# a scan's part reads the frontends' facts, imported where it is made: the gate, which only
# finishes a summary, never loads them (docs/performance.md, "The gate")
if TYPE_CHECKING:
    from analyzer.facts import LoggerCandidate, UnitFacts
    from analyzer.scan import ScanResult

_REGIONS_LISTED = 50

#: per kind, breakdown name -> the field it counts (`a.b`: field b of object a)
_BREAKDOWNS: dict[str, dict[str, str]] = {
    "error": {"byConstructor": "constructor", "byForm": "form", "byShape": "message.shape",
              "byConsumerRole": "consumer.role"},
    "diagnostic": {"byLevel": "level", "byLevelSource": "levelSource", "byShape": "message.shape",
                   "byConsumerRole": "consumer.role"},
}
#: fields whose null counts as ""
_OPTIONAL = frozenset({"constructor", "level", "levelSource"})


def _reader(path: str) -> Callable[[Callsite], Any]:
    """The field at `path` of a Callsite."""
    get: Callable[[Callsite], Any] = operator.attrgetter(path)
    return (lambda r: get(r) or "") if path in _OPTIONAL else get


def counts(records: Sequence[Callsite]) -> dict[str, object]:
    """The summary's `counts`."""
    kind_of = _reader("kind")
    by_kind = Counter(kind_of(r) for r in records)
    out: dict[str, object] = {
        "total": len(records),
        "byKind": {kind: by_kind.get(kind, 0) for kind in ("error", "diagnostic")},
    }
    in_catch, in_region = _reader("context.inCatch"), _reader("context.inErrorRegion")
    for kind, breakdowns in _BREAKDOWNS.items():
        members = [r for r in records if kind_of(r) == kind]
        out[kind] = {
            name: dict(sorted(Counter(map(_reader(path), members)).items()))
            for name, path in breakdowns.items()
        }
        out[kind]["inCatch"] = sum(1 for r in members if in_catch(r))  # type: ignore[index]
        out[kind]["inErrorRegion"] = sum(1 for r in members if in_region(r))  # type: ignore[index]
    return out


def invariants(result: ScanResult, tallies: dict[str, object]) -> list[Invariant]:
    """Every count equals the sum of its parts; identities are unique. Raises when one fails."""
    from analyzer.facts import CALLSITES_FOUND

    records = result.callsites
    by_kind: dict[str, int] = tallies["byKind"]  # type: ignore[assignment]
    checks: list[tuple[str, int, int]] = [
        ("byKind sums to total", sum(by_kind.values()), len(records)),
        ("ids are unique", len({r.id for r in records}), len(records)),
        ("fingerprints are unique", len({r.fingerprint for r in records}), len(records)),
        ("unit sites sum to total", sum(len(u.sites) for u in result.units), len(records)),
    ]
    found = [(u, n) for u in result.units if (n := u.extra(CALLSITES_FOUND)) is not None]  # may leave some out
    for kind in ("error", "diagnostic") if found else ():  # every callsite found is inventoried or left out
        left = sum(1 for u, _ in found for site in u.left_out if site.kind == kind)
        inventoried = sum(1 for u, _ in found for site in u.sites if site.kind == kind)
        checks.append((f"{kind} callsites found = inventoried + left out",
                       sum(n.get(kind, 0) for _, n in found), inventoried + left))
    for use in result.modules.maps if result.modules is not None else ():
        if use.status == "used":  # every distinct source of a used map has one place
            checks.append((f"{use.unit}: map sources by place sum to its distinct sources",
                           sum(place_counts(use).values()), len({p.source for p in use.places})))
    for kind, breakdowns in _BREAKDOWNS.items():
        kind_counts: dict[str, dict[str, int]] = tallies[kind]  # type: ignore[assignment]
        for name in breakdowns:
            checks.append((f"{kind}.{name} sums to {kind} total", sum(kind_counts[name].values()), by_kind[kind]))
    return invariants_of(checks)


def scan_summary(result: ScanResult) -> dict[str, object]:
    """The scan's part of the summary; owners and output hashes are added by `finish`."""
    from analyzer.facts import CALLSITES_FOUND

    tallies = counts(result.callsites)
    regions = [(u.unit.name, r) for u in result.units for r in u.error_regions]
    return {
        "schema": SUMMARY_SCHEMA,
        "tool": {"name": "erratlas", "version": __version__},
        "fingerprint": {
            "version": FP_VERSION,
            "anchorLimit": result.anchor_limit,
            "grammar": grammar(result.language),
        },
        "inputs": {
            "bundle": {"name": result.bundle.name, "sha256": result.bundle.sha256, "bytes": result.bundle.size},
            "units": [
                {"name": u.unit.name, "sha256": u.unit.sha256, "bytes": len(u.unit.source)} for u in result.units
            ],
            "rules": {"name": result.rules.path.rsplit("/", 1)[-1], "sha256": result.rules.sha256},
            "allowlists": [],
            **({"embedded": [
                {"path": m.path, "bytes": m.bytes, "loader": m.loader, "source": m.source, "bytecode": m.bytecode,
                 "scanned": m.scanned, "why": m.why}
                for m in result.embedded
            ]} if result.embedded else {}),
        },
        "loggers": [_logger(u) for u in result.units],
        "counts": tallies,
        "shadowed": {u.unit.name: u.shadowed for u in result.units},
        "errorClasses": len(result.classes),
        "errorRegions": {
            "count": len(regions),
            "listed": [
                {"unit": name, "offset": r.offset, "endOffset": r.end_offset, "line": r.line, "kind": r.kind}
                for name, r in regions[:_REGIONS_LISTED]
            ],
        },
        **({"leftOut": _left_out(result)} if any(u.extra(CALLSITES_FOUND) is not None for u in result.units) else {}),
        "invariants": invariants(result, tallies),
        "modules": module_summary(result),
        "references": reference_summary(result),
        **({"handlers": handled} if (handled := handler_summary(result)) is not None else {}),
    }


def reference_summary(result: ScanResult) -> dict[str, object]:
    """The size of the reference graph (docs/references.md)."""
    from analyzer.facts import REFERENCES

    bindings = fingerprinted = ambiguous = helpers = edges = 0
    for item in result.references:  # one pass over some 60,000 items
        edges += len(item.references)
        for b in item.declares:
            bindings += 1
            helpers += b.helper
            fingerprinted += b.fingerprint is not None
            ambiguous += b.copies is not None and b.copies.count > 1
    return {
        "items": len(result.references),
        "bindings": bindings,
        "withFingerprint": fingerprinted,
        "ambiguous": ambiguous,
        "helpers": helpers,
        "edges": edges,
        "resolvedByScopeWalk": sum(graph.walked for u in result.units if (graph := u.extra(REFERENCES)) is not None),
    }


def _logger(unit: UnitFacts) -> dict[str, object]:
    """The unit's `loggers` entry; a package module's adds its module, vendoring and parse error."""
    from analyzer.facts import PACKAGE_MODULE

    logger, where = unit.logger, unit.logger.declaration
    entry: dict[str, object] = {
        "unit": logger.unit, "name": logger.name, "source": logger.source,
        "declaration": {"offset": where.offset, "line": where.line, "kind": where.kind} if where is not None else None,
        "evidence": _logger_evidence(unit),
    }
    module = unit.extra(PACKAGE_MODULE)
    if module is not None:
        vendored = module.vendored
        entry["module"] = module.module
        entry["vendored"] = ({"dependency": vendored.dependency, "root": vendored.root,
                              "distribution": vendored.distribution} if vendored is not None else None)
        entry["parseError"] = module.parse_error
    return entry


def _logger_evidence(unit: UnitFacts) -> object:
    """What the logger was chosen on: the detection among candidate bindings (the chosen one's
    counts, the reasons, the runner-ups), or the logging bindings a package module declares."""
    from analyzer.facts import LOGGER_DETECTION, LOGGING_BINDINGS

    detection = unit.extra(LOGGER_DETECTION)
    if detection is not None:
        chosen = _candidate(detection.chosen) if detection.chosen is not None else {}
        return {**chosen, "reasons": list(detection.reasons),
                "runnerUps": [_candidate(c) for c in detection.runner_ups]}
    bindings = unit.extra(LOGGING_BINDINGS)
    return list(bindings) if bindings is not None else None


def _candidate(candidate: LoggerCandidate) -> dict[str, object]:
    row: dict[str, object] = {
        "name": candidate.name, "declarationOffset": candidate.declaration_offset, "calls": candidate.calls,
        "levelOptionCalls": candidate.level_option_calls,
        "defaultLevelDeclaration": candidate.default_level_declaration,
    }
    if candidate.levels is not None:
        row["levels"] = dict(candidate.levels)
    return row


def _left_out(result: ScanResult) -> dict[str, object]:
    """Callsites found but left out of the inventory: the parser recovered them into a shape
    their facts cannot be read from."""
    left = [(u.unit.name, site) for u in result.units for site in u.left_out]
    return {
        "count": len(left),
        "byKind": {kind: sum(1 for _, site in left if site.kind == kind) for kind in ("error", "diagnostic")},
        "listed": [
            {"unit": name, "kind": site.kind, "offset": site.offset, "endOffset": site.end_offset, "line": site.line,
             "reason": site.reason}
            for name, site in left[:_REGIONS_LISTED]
        ],
    }


#: keys `finish` recomputes on every projection; everything else is the scan's
OWNER_KEYS = ("owners", "coverage", "stale", "drifted", "ambiguous", "unresolvedFingerprints", "handlerOwners",
              "outputs")


def finish(scan: ScanPart, allowlists: list[RecordedAllowlist], owners: OwnerPart, outputs: dict[str, bytes],
           known: Mapping[str, str] | None = None) -> bytes:
    """The summary document: the scan's part (carried as it is, with the `allowlists` applied),
    the owner part, and sha256 of every other output; `known`: digests already computed from
    these very bytes."""
    document = {key: value for key, value in scan.document.items() if key not in OWNER_KEYS}
    document["inputs"] = {**scan.inputs, "allowlists": allowlists}
    document["invariants"] = [*(row for row in scan.invariants if not _invariant_name(row).startswith("owners:")),
                              *owners.invariants]
    document |= {"owners": owners.owners, "coverage": owners.coverage, "stale": owners.stale,
                 "drifted": owners.drifted, "ambiguous": owners.ambiguous,
                 "unresolvedFingerprints": owners.unresolvedFingerprints}
    if owners.handlerOwners is not None:
        document["handlerOwners"] = owners.handlerOwners
    known = known or {}
    document["outputs"] = {name: known.get(name) or hashlib.sha256(data).hexdigest()
                           for name, data in sorted(outputs.items())}
    return orjson.dumps(document, option=orjson.OPT_INDENT_2) + b"\n"


def _invariant_name(row: Invariant | Mapping[str, object]) -> str:
    """An invariant's name: a summary read back holds its rows as JSON objects."""
    return row.name if isinstance(row, Invariant) else str(row["name"])
