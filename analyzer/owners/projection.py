"""Owners (docs/owners.md): every callsite matched against reviewed entries by exact fingerprint."""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field

from analyzer.errors import InputError
from analyzer.model import Callsite, Copies, OwnerEvidence, ProjectionRow
from analyzer.owners.allowlist import FINGERPRINT_LEVELS, OWNER_FIELDS, Allowlist, Entry
from analyzer.owners.references import ReferenceGraph, Step
from analyzer.scandir.files import PROJECTION_SCHEMA
from analyzer.summary_model import Coverage, Invariant, OwnerCounts, SummaryCoverage, invariants_of

OWNER_CLASSES = ("Product", "Dependency", "Unresolved")


@dataclass(frozen=True, slots=True)
class Projection:
    #: one row per callsite, in record order
    rows: list[ProjectionRow]
    stale: list[Entry]
    drifted: list[tuple[Entry, str, str]]  # entry, callsite id, comparisonKey found
    #: entries whose fingerprint names one of several identical copies: never applied
    #: (entry, callsite id or binding, how many copies)
    ambiguous: list[tuple[Entry, str, int]]
    #: (unit, scope path) of a function -> the function entry that owns its callsites: a
    #: handler there is owned by it too (handlers carry no function fingerprint of their own)
    functions: dict[tuple[str, tuple[str, ...]], Entry] = field(default_factory=dict)
    #: item id -> the `references` entry that owns it and the chain back to its root
    reached: dict[str, tuple[Entry, list[Step]]] = field(default_factory=dict)


def match_keys(record: Callsite) -> dict[str, str | None]:
    return {
        "callsite": record.fingerprint,
        "function": record.functionFingerprint,
        "module": record.module.fingerprint if record.module is not None else None,
    }


def neighbours(records: list[Callsite]) -> dict[str, tuple[str, str]]:
    """For each callsite with identical copies, the fingerprints of the unique callsites just
    before and after it in its unit ("" at an end), when no other copy of its group has the same
    pair: a copy named by where it sits, never by an ordinal."""
    by_unit: dict[str, list[Callsite]] = defaultdict(list)
    for record in records:
        by_unit[record.unit].append(record)
    placed: dict[str, tuple[str | None, tuple[str, str]]] = {}
    for members in by_unit.values():
        members.sort(key=lambda r: (r.offset, r.kind))
        before, pending = "", []
        for member in [*members, None]:
            if member is not None and member.copies.count > 1:
                pending.append(member)
                continue
            after = member.fingerprint if member is not None else ""
            for copy in pending:
                placed[copy.id] = (copy.copies.group, (before, after))
            pending = []
            before = after
    seen = Counter(placed.values())
    return {identifier: pair for identifier, (group, pair) in placed.items() if seen[(group, pair)] == 1}


def _copies(record: Callsite, level: str) -> tuple[int, str | None]:
    """(how many identical copies the matched thing has in this scan, the group's name)."""
    found: Copies | None = (
        record.copies if level == "callsite" else record.functionCopies if level == "function" else None
    )
    if found is None:
        return 1, None
    return found.count or 1, found.group


def project(records: list[Callsite], allowlists: list[Allowlist],
            graph: ReferenceGraph | None = None) -> Projection:
    """Each record's owner from the entries that match it exactly, by precedence."""
    index: dict[tuple[str, str], list[Entry]] = defaultdict(list)
    for allowlist in allowlists:
        for entry in allowlist.entries:
            index[(entry.level, entry.fingerprint)].append(entry)
    used: set[str] = set()
    drifted: list[tuple[Entry, str, str]] = []
    ambiguous: list[tuple[Entry, str, int]] = []
    reached, root_used, root_ambiguous = _reached(allowlists, graph)
    used |= root_used
    ambiguous += root_ambiguous
    around: dict[str, tuple[str, str]] | None = None  # made when an entry names a copy by its neighbours
    functions: dict[tuple[str, tuple[str, ...]], Entry] = {}
    rows = []
    for record in records:
        keys = match_keys(record)
        applicable: list[Entry] = []  # highest precedence first
        for level in FINGERPRINT_LEVELS if index else ():  # no entry: nothing to match
            fingerprint = keys[level]
            if fingerprint is None:
                continue
            count, group = _copies(record, level)
            listed = index.get((level, fingerprint))
            entries = [e for e in listed if e.copies is None and e.neighbours is None] if listed else []
            if count > 1:
                for entry in entries:  # named one copy of several: which one is an ordinal's choice
                    used.add(entry.origin)
                    ambiguous.append((entry, record.id, count))
                candidates = index.get((level, group or ""), [])
                entries = [e for e in candidates if e.copies == count]
                if any(e.neighbours is not None for e in candidates):
                    around = neighbours(records) if around is None else around
                    place = around.get(record.id)
                    entries += [e for e in candidates if e.neighbours is not None and e.neighbours == place]
            if not entries:
                continue
            for entry in entries:
                used.add(entry.origin)
            fresh = []
            for entry in entries:
                key = record.message.comparisonKey
                if entry.expect is not None and entry.expect != key:
                    drifted.append((entry, record.id, key))
                else:
                    fresh.append(entry)
            _check_agreement(fresh, record.id, level)
            applicable.extend(fresh[:1])
            if level == "function" and fresh:
                functions.setdefault((record.unit, record.scope.scopePath), fresh[0])
        chain: list[Step] | None = None
        if graph is not None and reached:
            item = graph.item_of(record.unit, record.offset, record.endOffset)
            found = reached.get(item.id) if item is not None else None
            if found is not None:
                entry, chain = found
                applicable.append(entry)
        rows.append(_row(record, applicable, chain))
    stale = [e for a in allowlists for e in a.entries if e.origin not in used]
    return Projection(rows=rows, stale=stale, drifted=drifted, ambiguous=ambiguous, functions=functions,
                      reached=reached)


def _reached(
    allowlists: list[Allowlist], graph: ReferenceGraph | None
) -> tuple[dict[str, tuple[Entry, list[Step]]], set[str], list[tuple[Entry, str, int]]]:
    """Item id -> (the `references` entry that owns it, the chain of steps back to its root);
    the entries that name a binding of the scan; those whose binding has identical copies."""
    entries = [e for a in allowlists for e in a.entries if e.level == "references"]
    used: set[str] = set()
    ambiguous: list[tuple[Entry, str, int]] = []
    if graph is None or not entries:
        return {}, used, ambiguous
    groups: dict[tuple[object, ...], list[tuple[Entry, tuple[str, str]]]] = defaultdict(list)
    for entry in entries:
        binding = graph.by_fingerprint.get(entry.fingerprint)
        if binding is None:
            continue
        used.add(entry.origin)
        _, count, helper = graph.bindings[binding]
        if count > 1:
            ambiguous.append((entry, f"{binding[0]}:{binding[1]}", count))
            continue
        if helper:
            raise InputError(entry.origin, f"references entry names {binding[1]} in {binding[0]}, a bundler "
                                           "runtime helper: helpers are never owned by reference")
        # a root's `function` names the root, not what it reaches: roots agree when the owner
        # facts they give agree
        groups[(entry.owner, entry.owner_fields)].append((entry, binding))
    reached: dict[str, tuple[Entry, list[Step]]] = {}
    for members in groups.values():
        roots = [binding for _, binding in members]
        first = {binding: entry for entry, binding in reversed(members)}
        for item, chain in graph.reach(roots).items():
            root_entry = first[(chain[-1].unit, chain[-1].binding)]
            known = reached.get(item)
            if known is not None and (known[0].owner, known[0].owner_fields) != (
                root_entry.owner,
                root_entry.owner_fields,
            ):
                raise InputError(root_entry.origin, f"references entries disagree on {item}: this one and "
                                                    f"{known[0].origin} ({_say(root_entry)} vs {_say(known[0])})")
            reached.setdefault(item, (root_entry, chain))
    return reached, used, ambiguous


def _check_agreement(entries: list[Entry], callsite: str, level: str) -> None:
    for other in entries[1:]:
        if other.verdict() != entries[0].verdict():
            raise InputError(
                entries[0].origin,
                f"{level} entries disagree on {callsite}: this one and {other.origin} "
                f"({_say(entries[0])} vs {_say(other)})",
            )


def _say(entry: Entry) -> str:
    return (
        entry.owner + (f" {entry.package}" if entry.package else "") + (f" {entry.function}" if entry.function else "")
    )


def _row(record: Callsite, applicable: list[Entry], chain: list[Step] | None) -> ProjectionRow:
    if not applicable:  # most rows of a scan without allowlists
        return ProjectionRow(PROJECTION_SCHEMA, record.id, record.fingerprint, record.kind, "Unresolved",
                             None, None, None, None, None, None, None)
    owner_entry = applicable[0]
    # each extra owner field comes from the highest-precedence entry that sets it, and only there
    fields: dict[str, str | None] = dict.fromkeys(OWNER_FIELDS)
    for entry in reversed(applicable):
        fields.update(entry.owner_fields)
    evidence: OwnerEvidence = {"entry": owner_entry.origin, "level": owner_entry.level,
                               "fingerprint": owner_entry.fingerprint}
    if owner_entry.level == "references" and chain is not None:
        evidence["chain"] = [step.describe() for step in chain]
    return ProjectionRow(
        schema=PROJECTION_SCHEMA,
        id=record.id,
        fingerprint=record.fingerprint,
        kind=record.kind,
        owner=owner_entry.owner,  # type: ignore[arg-type]
        package=owner_entry.package,
        function=owner_entry.function,
        **fields,
        evidence=evidence,
    )


def owner_counts(records: list[Callsite], projection: Projection) -> tuple[OwnerCounts, SummaryCoverage,
                                                                             list[Invariant]]:
    """Owner counts per kind, constructor and level, coverage, and the invariants they obey."""
    by_kind: dict[str, Counter[str]] = {kind: Counter() for kind in ("error", "diagnostic")}
    by_constructor: dict[str, Counter[str]] = defaultdict(Counter)
    by_level: dict[str, Counter[str]] = defaultdict(Counter)
    by_package: Counter[str] = Counter()
    for record, row in zip(records, projection.rows):
        by_kind[record.kind][row.owner] += 1
        if record.kind == "error":
            by_constructor[record.constructor][row.owner] += 1  # type: ignore[index]
        else:
            by_level[record.level][row.owner] += 1  # type: ignore[index]
        if row.package:
            by_package[row.package] += 1
    full = lambda c: {owner: c.get(owner, 0) for owner in OWNER_CLASSES}  # noqa: E731
    overall = sum(by_kind.values(), Counter())
    counts = OwnerCounts(
        total=full(overall),
        byKind={kind: full(c) for kind, c in by_kind.items()},
        byConstructor={name: full(c) for name, c in sorted(by_constructor.items())},
        byLevel={name: full(c) for name, c in sorted(by_level.items())},
        byPackage=dict(sorted(by_package.items())),
    )
    coverage = SummaryCoverage(_coverage(overall), _coverage(by_kind["error"]), _coverage(by_kind["diagnostic"]))
    return counts, coverage, _invariants(records, projection, counts)


def _coverage(counter: Counter[str]) -> Coverage:
    total = sum(counter.values())
    owned = counter.get("Product", 0) + counter.get("Dependency", 0)
    value = owned / total if total else 1.0  # the empty ratio; the gate refuses an empty scan itself
    return Coverage(owned, total, value, f"{value * 100:.2f}%" if total else "n/a")


def _invariants(records: list[Callsite], projection: Projection, counts: OwnerCounts) -> list[Invariant]:
    checks: list[tuple[str, int, int]] = []
    for kind, owners in counts.byKind.items():
        checks.append((f"owners: Product + Dependency + Unresolved == {kind} total", sum(owners.values()),
                       sum(1 for r in records if r.kind == kind)))
    checks.append(("owners: Product + Dependency + Unresolved == total", sum(counts.total.values()), len(records)))
    errors = sum(1 for r in records if r.kind == "error")
    checks.append(("owners: per-constructor counts sum to the error total",
                   sum(sum(c.values()) for c in counts.byConstructor.values()), errors))
    checks.append(("owners: every callsite is in exactly one owner class",
                   sum(1 for row in projection.rows if row.owner in OWNER_CLASSES), len(records)))
    return invariants_of(checks)
