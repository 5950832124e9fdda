"""Handlers owned like the code they sit in (docs/owners.md, "Handlers"): the function entry that
owns the callsites of the handler's function, else a module entry of its module, else the
`references` entry whose root reaches its item. Callsite entries name one callsite and never
own a handler."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable
from typing import get_args

from analyzer.handler_model import Handler, HandlerOwnerRow
from analyzer.model import Disposition, HandlerFinding, OwnerEvidence, made
from analyzer.owners.allowlist import Allowlist, Entry
from analyzer.owners.projection import OWNER_CLASSES, Projection
from analyzer.owners.references import ReferenceGraph, Step
from analyzer.scandir.files import HANDLER_PROJECTION_SCHEMA
from analyzer.summary_model import HandlerOwners, HandlerTally, Invariant, invariants_of

#: the summary's name of each finding's list of fingerprints (what the gate compares)
FINDING_KEYS: dict[HandlerFinding, str] = {
    "swallowed-error": "swallowed", "wrap-loses-cause": "lostCause", "useless-catch": "uselessCatch"}


def project_handlers(handlers: list[Handler], allowlists: list[Allowlist], projection: Projection,
                     graph: ReferenceGraph | None) -> list[HandlerOwnerRow]:
    """Each handler's owner row, in handler order."""
    modules: dict[str, list[Entry]] = defaultdict(list)
    for allowlist in allowlists:
        for candidate in allowlist.entries:
            # an entry naming copies, neighbours or a message names callsites, not a module's code
            if (candidate.level == "module" and candidate.copies is None and candidate.neighbours is None
                    and candidate.expect is None):
                modules[candidate.fingerprint].append(candidate)
    rows = []
    functions, reached = projection.functions, projection.reached
    row = made(HandlerOwnerRow)
    for handler in handlers:
        entry: Entry | None = functions.get((handler.unit, handler.scope.scopePath))
        chain: list[Step] | None = None
        if entry is None and handler.module is not None:
            found = modules.get(handler.module.fingerprint, [])
            if any(other.verdict() != found[0].verdict() for other in found[1:]):
                entry = None  # entries that disagree own nothing here (the callsites' projection says so)
            else:
                entry = found[0] if found else None
        if entry is None and graph is not None and reached:
            item = graph.item_of(handler.unit, handler.offset, handler.endOffset)
            by_root = reached.get(item.id) if item is not None else None
            if by_root is not None:
                entry, chain = by_root
        if entry is None:
            rows.append(row(HANDLER_PROJECTION_SCHEMA, handler.id, handler.fingerprint, "Unresolved", None, None, None))
        else:
            rows.append(_row(row, handler, entry, chain))
    return rows


def still_stale(stale: list[Entry], rows: list[HandlerOwnerRow]) -> list[Entry]:
    """The entries that match no callsite (`stale`) and own no handler either: an entry that
    owns only handlers (a module entry of a module without callsites) is in use."""
    owning = {row.evidence["entry"] for row in rows if row.evidence is not None}
    return [entry for entry in stale if entry.origin not in owning]


def _row(row: Callable[..., HandlerOwnerRow], handler: Handler, entry: Entry,
         chain: list[Step] | None) -> HandlerOwnerRow:
    evidence: OwnerEvidence = {"entry": entry.origin, "level": entry.level, "fingerprint": entry.fingerprint}
    if entry.level == "references" and chain is not None:
        evidence["chain"] = [step.describe() for step in chain]
    return row(HANDLER_PROJECTION_SCHEMA, handler.id, handler.fingerprint, entry.owner, entry.package, entry.function,
               evidence)


def handler_owner_counts(handlers: list[Handler], rows: list[HandlerOwnerRow],
                         findings: list[tuple[HandlerFinding, ...]],
                         scanned: HandlerTally | None) -> tuple[HandlerOwners, list[Invariant]]:
    """The summary's `handlerOwners` (handlers and their branches' dispositions by owner, each
    finding's fingerprints by owner) and the invariants they obey; `findings`, each handler's
    `findings()`; `scanned`, the summary's `handlers` block, whose counts the owners' must sum to."""
    total: Counter[str] = Counter(row.owner for row in rows)
    dispositions: dict[str, Counter[str]] = {kind: Counter() for kind in get_args(Disposition)}
    flagged: dict[str, dict[str, list[str]]] = {key: {o: [] for o in OWNER_CLASSES} for key in FINDING_KEYS.values()}
    for handler, row, found in zip(handlers, rows, findings):
        for branch in handler.branches:
            for disposition in branch.dispositions:
                dispositions[disposition.kind][row.owner] += 1
        for finding in found:
            flagged[FINDING_KEYS[finding]][row.owner].append(handler.fingerprint)
    full = lambda c: {owner: c.get(owner, 0) for owner in OWNER_CLASSES}  # noqa: E731
    section = HandlerOwners(
        total=full(total),
        byDisposition={kind: full(c) for kind, c in dispositions.items()},
        findings={key: {owner: sorted(fps) for owner, fps in by_owner.items()} for key, by_owner in flagged.items()},
    )
    checks = [("owners: handlers Product + Dependency + Unresolved == handler total",
               sum(total.values()), len(handlers)),
              ("owners: every handler has one owner row", len(rows), len(handlers))]
    if scanned is not None:
        checks.append(("owners: handlers by owner sum to handlers.count", sum(total.values()), scanned.count))
        for kind, counted in scanned.byDisposition.items():
            checks.append((f"owners: {kind} branches by owner sum to handlers.byDisposition",
                           sum(dispositions[kind].values()), counted))
    return section, invariants_of(checks)
