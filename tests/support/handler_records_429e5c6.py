"""The handler records as analyzer/scan.py, analyzer/owners/handlers.py, analyzer/reports/handlers.py
and `Handler.findings` made them at 429e5c6 (identities from support/identity_429e5c6.py): records
through a second pass for Python clauses, sources sorted by ids parsed back, owner rows through the
dataclass, `handlers.jsonl` by orjson from the dataclasses, the summary block in a pass per count.
Kept as the oracle the current versions are compared with (tests/test_handler_records.py,
bench/handler_records.py)."""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import TYPE_CHECKING, get_args

import orjson

from analyzer.facts import HANDLERS, BundleModules, HandlerFacts, UnitFacts
from analyzer.handler_model import (
    Handler,
    HandlerBranch,
    HandlerDisposition,
    HandlerOwnerRow,
    HandlerSource,
    JavaScriptHandler,
    MappedJavaScriptHandler,
    PythonBranch,
    PythonDisposition,
    PythonHandler,
)
from analyzer.model import (
    HANDLER_SCHEMA,
    Callsite,
    Copies,
    Disposition,
    HandlerFinding,
    JavaScriptHandlerForm,
    OwnerEvidence,
    PythonHandlerForm,
    Readable,
    made,
)
from analyzer.owners.allowlist import Allowlist, Entry
from analyzer.owners.projection import Projection
from analyzer.owners.references import ReferenceGraph, Step
from analyzer.scandir.files import HANDLER_PROJECTION_SCHEMA, HANDLERS_FILE
from support.identity_429e5c6 import handler_identities

if TYPE_CHECKING:
    from analyzer.scan import ScanResult


def findings(handler: Handler) -> tuple[HandlerFinding, ...]:
    kinds = [d for b in handler.branches for d in b.dispositions]
    found: list[HandlerFinding] = []
    if any(d.kind == "swallow" for d in kinds):
        found.append("swallowed-error")
    if any(d.loses_cause() for d in kinds):
        found.append("wrap-loses-cause")
    if all(d.kind == "rethrow" for d in kinds) and handler.only_the_rethrow():
        found.append("useless-catch")
    return tuple(found)


def handler_records(units: list[UnitFacts], places: dict[tuple[str, int], tuple[int, Readable]], modules: BundleModules,
              callsites: list[Callsite]) -> list[Handler] | None:
    """Every handler's record, with the error callsites it catches directly and the ids and
    levels of the callsites its branches link (only inventoried ones)."""
    found = [(u.unit.name, handlers) for u in units if (handlers := u.extra(HANDLERS)) is not None]
    if not found:
        return None
    located = [(name, h) for name, handlers in found for h in handlers.handlers]
    fingerprints, copies = handler_identities([h.identity for _, h in located])
    records = {(r.unit, r.offset, r.kind): r for r in callsites}
    sources: dict[tuple[str, int], list[tuple[str, int]]] = {}
    for name, handlers in found:
        for offset, handler in handlers.caught.items():
            if (name, offset, "error") in records:
                sources.setdefault((name, handler), []).append((f"e:{name}@{offset}", 0))
        for handler, reached in handlers.called.items():
            for offset, hops in reached:
                if (name, offset, "error") in records:
                    sources.setdefault((name, handler), []).append((f"e:{name}@{offset}", hops))
        for handler, elsewhere in handlers.called_elsewhere.items():
            for unit, offset, hops in elsewhere:
                if (unit, offset, "error") in records:
                    sources.setdefault((name, handler), []).append((f"e:{unit}@{offset}", hops))
    make = _HandlerMakers()
    out = [
        _handler(make, name, facts, fingerprint, copy, places[(name, facts.offset)], modules, records,
                 sources.get((name, facts.offset), []))
        for (name, facts), fingerprint, copy in zip(located, fingerprints, copies)
    ]
    return sorted(out, key=lambda h: (h.unit, h.offset))


class _HandlerMakers:
    """The handler records' makers (`model.made`), made once a scan: 8,460 handlers make some 40,000
    records on the 2.1.235 executable."""

    def __init__(self) -> None:
        self.javascript, self.python = made(JavaScriptHandler), made(PythonHandler)
        self.mapped = made(MappedJavaScriptHandler)
        self.branch, self.disposition = made(HandlerBranch), made(HandlerDisposition)
        self.source = made(HandlerSource)


def _handler(make: _HandlerMakers, unit: str, facts: HandlerFacts, fingerprint: str, copies: Copies,
             place: tuple[int, Readable], modules: BundleModules, records: dict[tuple[str, int, str], Callsite],
             sources: list[tuple[str, int]]) -> Handler:
    branches = []
    disposition = make.disposition
    for branch in facts.branches:
        dispositions = []
        for item in branch.dispositions:
            kind = "diagnostic" if item.kind == "log" else "error"
            linked = [records[(unit, offset, kind)] for offset in item.sites if (unit, offset, kind) in records]
            levels = tuple(r.level or "" for r in linked) if item.kind == "log" else ()
            dispositions.append(disposition(item.kind, item.cause, tuple(r.id for r in linked), levels, item.callee))
        branches.append(make.branch(branch.test, tuple(dispositions)))
    offset, source = facts.offset, make.source
    origin = modules.origin_of(unit, offset)
    # the record's own class made at once, its fields in order (no intermediate `Handler`)
    head = (
        HANDLER_SCHEMA, f"h:{unit}@{offset}", fingerprint, copies, unit, offset, facts.end_offset, facts.line,
        facts.column, place[0], place[1], facts.form, facts.param, facts.scope, modules.module_of(unit, offset),
        origin, tuple(source(id, "call" if hops else "direct", hops)
                      for id, hops in sorted(sources, key=lambda source: (_id_order(source[0]), source[1]))),
    )
    if facts.form in _PYTHON_FORMS:  # an `except` clause: and the classes it names
        return make.python(*head, _python_branches(tuple(branches), facts), facts.in_error_region, facts.catches,
                           facts.lone_rethrow)
    if origin is not None:  # the map places it: and what its original body held
        return make.mapped(*head, tuple(branches), facts.in_error_region, facts.lone_rethrow,
                           modules.source_body_of(unit, offset))
    return make.javascript(*head, tuple(branches), facts.in_error_region, facts.lone_rethrow)


_PYTHON_FORMS = frozenset(get_args(PythonHandlerForm))


def _python_branches(branches: tuple[HandlerBranch, ...], facts: HandlerFacts) -> tuple[PythonBranch, ...]:
    """A Python clause's branches, each `wrap` saying whether its cause is suppressed (`from None`)."""
    return tuple(
        PythonBranch(branch.test, tuple(
            PythonDisposition(d.kind, d.cause, d.callsites, d.levels, d.callee,
                              fact.suppressed if d.kind == "wrap" else None)
            for d, fact in zip(branch.dispositions, facts_branch.dispositions, strict=True)))
        for branch, facts_branch in zip(branches, facts.branches, strict=True))


def _id_order(id: str) -> tuple[str, int]:
    unit, _, offset = id[2:].rpartition("@")
    return unit, int(offset)



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
    for handler in handlers:
        entry: Entry | None = projection.functions.get((handler.unit, handler.scope.scopePath))
        chain: list[Step] | None = None
        if entry is None and handler.module is not None:
            found = modules.get(handler.module.fingerprint, [])
            if any(other.verdict() != found[0].verdict() for other in found[1:]):
                entry = None  # entries that disagree own nothing here (the callsites' projection says so)
            else:
                entry = found[0] if found else None
        if entry is None and graph is not None and projection.reached:
            item = graph.item_of(handler.unit, handler.offset, handler.endOffset)
            reached = projection.reached.get(item.id) if item is not None else None
            if reached is not None:
                entry, chain = reached
        rows.append(_row(handler, entry, chain))
    return rows


def _row(handler: Handler, entry: Entry | None, chain: list[Step] | None) -> HandlerOwnerRow:
    evidence: OwnerEvidence | None = None
    if entry is not None:
        evidence = {"entry": entry.origin, "level": entry.level, "fingerprint": entry.fingerprint}
        if entry.level == "references" and chain is not None:
            evidence["chain"] = [step.describe() for step in chain]
    return HandlerOwnerRow(
        schema=HANDLER_PROJECTION_SCHEMA,
        id=handler.id,
        fingerprint=handler.fingerprint,
        owner=entry.owner if entry is not None else "Unresolved",  # type: ignore[arg-type]
        package=entry.package if entry is not None else None,
        function=entry.function if entry is not None else None,
        evidence=evidence,
    )



def handler_files(result: ScanResult) -> dict[str, bytes]:
    if result.handlers is None:
        return {}
    return {HANDLERS_FILE: b"".join(orjson.dumps(handler) + b"\n" for handler in result.handlers)}


def handler_summary(result: ScanResult) -> dict[str, object] | None:
    """Handlers by form, branches by disposition (a branch counts once per disposition it has),
    how many handlers test the caught value, and how many catch an inventoried error directly
    (`withSources`, `sources`) or through a call (`withCallSources`, `callSources`)."""
    if result.handlers is None:
        return None
    handlers = result.handlers
    found = [h for u in result.units if (h := u.extra(HANDLERS)) is not None]
    forms = Counter(h.form for h in handlers)
    kinds = get_args(PythonHandlerForm if result.language == "python" else JavaScriptHandlerForm)
    dispositions = Counter(d.kind for h in handlers for b in h.branches for d in b.dispositions)
    return {
        "count": len(handlers),
        "byForm": {form: forms.get(form, 0) for form in kinds},
        "branches": sum(len(h.branches) for h in handlers),
        "byDisposition": {kind: dispositions.get(kind, 0) for kind in get_args(Disposition)},
        "withTests": sum(1 for h in handlers if any(b.test is not None for b in h.branches)),
        "withSources": sum(1 for h in handlers if any(s.via == "direct" for s in h.sources)),
        "sources": sum(1 for h in handlers for s in h.sources if s.via == "direct"),
        "withCallSources": sum(1 for h in handlers if any(s.via == "call" for s in h.sources)),
        "callSources": sum(1 for h in handlers for s in h.sources if s.via == "call"),
        "sinks": [h.sink.to_json() for h in found if h.sink is not None],
        "leftOut": sum(h.left_out for h in found),
    }
