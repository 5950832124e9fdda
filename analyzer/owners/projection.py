"""Owners (SPEC 4): every callsite matched against reviewed entries by exact fingerprint."""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass
from typing import Any

from analyzer.owners.allowlist import LEVELS, OWNER_FIELDS, Allowlist, Entry
from analyzer.errors import InputError, InvariantError

OWNER_CLASSES = ("Product", "Dependency", "Unresolved")


@dataclass(frozen=True, slots=True)
class Projection:
    #: one row per callsite, in record order
    rows: list[dict[str, Any]]
    stale: list[Entry]
    drifted: list[tuple[Entry, str, str]]  # entry, callsite id, comparisonKey found


def match_keys(record: dict[str, Any]) -> dict[str, str | None]:
    module = record.get("module") or {}
    return {
        "callsite": record["fingerprint"],
        "function": record.get("functionFingerprint"),
        "module": module.get("fingerprint") if isinstance(module, dict) else None,
    }


def project(records: list[dict[str, Any]], allowlists: list[Allowlist]) -> Projection:
    index: dict[tuple[str, str], list[Entry]] = defaultdict(list)
    for allowlist in allowlists:
        for entry in allowlist.entries:
            index[(entry.level, entry.fingerprint)].append(entry)
    used: set[str] = set()
    drifted: list[tuple[Entry, str, str]] = []
    rows = []
    for record in records:
        keys = match_keys(record)
        applicable: list[Entry] = []  # highest precedence first
        for level in LEVELS:
            fingerprint = keys[level]
            if fingerprint is None:
                continue
            entries = index.get((level, fingerprint), [])
            for entry in entries:
                used.add(entry.origin)
            fresh = []
            for entry in entries:
                key = record["message"]["comparisonKey"]
                if entry.expect is not None and entry.expect != key:
                    drifted.append((entry, record["id"], key))
                else:
                    fresh.append(entry)
            _check_agreement(fresh, record["id"], level)
            applicable.extend(fresh[:1])
        rows.append(_row(record, applicable))
    stale = [e for a in allowlists for e in a.entries if e.origin not in used]
    return Projection(rows=rows, stale=stale, drifted=drifted)


def _check_agreement(entries: list[Entry], callsite: str, level: str) -> None:
    for other in entries[1:]:
        if other.verdict() != entries[0].verdict():
            raise InputError(
                entries[0].origin,
                f"{level} entries disagree on {callsite}: this one and {other.origin} "
                f"({_say(entries[0])} vs {_say(other)})",
            )


def _say(entry: Entry) -> str:
    return entry.owner + (f" {entry.package}" if entry.package else "") + (f" {entry.function}" if entry.function else "")


def _row(record: dict[str, Any], applicable: list[Entry]) -> dict[str, Any]:
    owner_entry = applicable[0] if applicable else None
    row: dict[str, Any] = {
        "id": record["id"],
        "fingerprint": record["fingerprint"],
        "kind": record["kind"],
        "owner": owner_entry.owner if owner_entry else "Unresolved",
        "package": owner_entry.package if owner_entry else None,
        "function": owner_entry.function if owner_entry else None,
    }
    # each extra owner field comes from the highest-precedence entry that sets it, and only there
    for name in OWNER_FIELDS:
        setter = next((e for e in applicable if e.owner_field(name) is not None), None)
        row[name] = setter.owner_field(name) if setter else None
    row["evidence"] = (
        {"entry": owner_entry.origin, "level": owner_entry.level, "fingerprint": owner_entry.fingerprint}
        if owner_entry
        else None
    )
    return row


def owner_counts(records: list[dict[str, Any]], projection: Projection) -> dict[str, Any]:
    """Owner counts per kind, constructor and level, coverage, and the invariants they obey."""
    by_kind: dict[str, Counter[str]] = {kind: Counter() for kind in ("error", "diagnostic")}
    by_constructor: dict[str, Counter[str]] = defaultdict(Counter)
    by_level: dict[str, Counter[str]] = defaultdict(Counter)
    by_package: Counter[str] = Counter()
    for record, row in zip(records, projection.rows):
        by_kind[record["kind"]][row["owner"]] += 1
        if record["kind"] == "error":
            by_constructor[record["constructor"]][row["owner"]] += 1
        else:
            by_level[record["level"]][row["owner"]] += 1
        if row["package"]:
            by_package[row["package"]] += 1
    full = lambda c: {owner: c.get(owner, 0) for owner in OWNER_CLASSES}  # noqa: E731
    overall = sum(by_kind.values(), Counter())
    counts = {
        "total": full(overall),
        "byKind": {kind: full(c) for kind, c in by_kind.items()},
        "byConstructor": {name: full(c) for name, c in sorted(by_constructor.items())},
        "byLevel": {name: full(c) for name, c in sorted(by_level.items())},
        "byPackage": dict(sorted(by_package.items())),
    }
    coverage = {"overall": _coverage(overall)} | {kind: _coverage(c) for kind, c in by_kind.items()}
    return {"counts": counts, "coverage": coverage, "invariants": _invariants(records, projection, counts)}


def _coverage(counter: Counter[str]) -> dict[str, Any]:
    total = sum(counter.values())
    owned = counter.get("Product", 0) + counter.get("Dependency", 0)
    value = owned / total if total else 1.0
    return {"owned": owned, "total": total, "value": value, "display": f"{value * 100:.2f}%"}


def _invariants(records: list[dict[str, Any]], projection: Projection, counts: dict[str, Any]) -> list[dict[str, Any]]:
    checks: list[tuple[str, int, int]] = []
    for kind, owners in counts["byKind"].items():
        checks.append((f"owners: Product + Dependency + Unresolved == {kind} total", sum(owners.values()),
                       sum(1 for r in records if r["kind"] == kind)))
    checks.append(("owners: Product + Dependency + Unresolved == total", sum(counts["total"].values()), len(records)))
    errors = sum(1 for r in records if r["kind"] == "error")
    checks.append(("owners: per-constructor counts sum to the error total",
                   sum(sum(c.values()) for c in counts["byConstructor"].values()), errors))
    checks.append(("owners: every callsite is in exactly one owner class",
                   sum(1 for row in projection.rows if row["owner"] in OWNER_CLASSES), len(records)))
    rows = [{"name": n, "holds": a == b, "left": a, "right": b} for n, a, b in checks]
    broken = [r for r in rows if not r["holds"]]
    if broken:
        raise InvariantError("; ".join(f"{r['name']}: {r['left']} != {r['right']}" for r in broken))
    return rows
