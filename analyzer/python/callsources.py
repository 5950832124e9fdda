"""What the input's calls between functions tell its handlers, once every module is read
(docs/reference.md, "Handler records", Python): the error callsites a handler catches through a
call (`hops` 1 or 2), and the input's error sink (`report`). A call reaches a function only when
it resolves to it exactly; a handler catches what escapes a called function as it catches a
direct source (`analyzer.python.catching`)."""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from analyzer.facts import (
    BranchFacts,
    DispositionFacts,
    HandlerFacts,
    SinkCandidate,
    SinkEvidence,
    SiteFacts,
    UnitHandlers,
)
from analyzer.python.catching import PackageNames, ancestors, catcher
from analyzer.python.filefacts import CallRecord, FileFacts, FunctionRecord, SinkCall
from analyzer.python.handlers import merged

#: calls from the protected block to the raise: 1, a function called there raises it; 2, a
#: function that function calls does
MAX_HOPS = 2
#: calls with a caught value a function needs to be the error sink
MIN_CALLS = 3
_RUNNER_UPS = 3


@dataclass(frozen=True, slots=True)
class UnitInput:
    """One parsed unit as the package-wide pass settled it."""

    unit: str
    facts: FileFacts
    handlers: UnitHandlers
    #: its settled callsites, with their flows
    sites: Sequence[SiteFacts]


@dataclass(frozen=True, slots=True)
class _Escaping:
    unit: str
    offset: int
    constructor: str
    hops: int


class _Functions:
    """The input's functions a call resolves to exactly, and what a call's file resolved it to."""

    def __init__(self, units: Sequence[UnitInput], names: PackageNames) -> None:
        self.names = names
        seen: Counter[str] = Counter(f.qualified for u in units for f in u.facts.functions)
        #: qualified name -> (unit, record), names defined once in the input
        self.by_name: dict[str, tuple[str, FunctionRecord]] = {
            f.qualified: (u.unit, f) for u in units for f in u.facts.functions if seen[f.qualified] == 1}
        #: method name -> the classes (qualified) defining it
        self.definers: dict[str, list[str]] = {}
        for _, record in self.by_name.values():
            if record.owner is not None:
                self.definers.setdefault(record.qualified.rsplit(".", 1)[1], []).append(record.owner)
        self._resolved: dict[str | tuple[str, str], str | None] = {}

    def resolve(self, callee: str | tuple[str, str] | None) -> str | None:
        """The qualified name of the function a callee reaches, None when not exactly one."""
        if callee is None:
            return None
        if callee not in self._resolved:
            self._resolved[callee] = self._resolve(callee)
        return self._resolved[callee]

    def _resolve(self, callee: str | tuple[str, str]) -> str | None:
        if isinstance(callee, str):
            name = self.names.canonical(callee)
            found = self.by_name.get(name)
            return name if found is not None and found[1].owner is None else None
        owner, method = callee
        owner = self.names.canonical(owner)
        name = f"{owner}.{method}"
        found = self.by_name.get(name)
        if found is None or found[1].owner != owner:
            return None
        if any(other != owner and self._derives(other, owner) is not False for other in self.definers.get(method, ())):
            return None  # a subclass of the input may define it again: `self` may be one of its instances
        return name

    def _derives(self, name: str, base: str) -> bool | None:
        """Whether class `name` derives from `base`; None when a base of it is not known."""
        pending, seen = [name], set()
        while pending:
            current = pending.pop()
            if current in seen:
                continue
            seen.add(current)
            record = self.names.classes.get(current)
            if record is None:
                continue  # a builtin or external class: none of the input's classes is its base
            for _, candidates in record.bases:
                if len(candidates) != 1:
                    return None
                parent = self.names.canonical(candidates[0])
                if parent == base:
                    return True
                pending.append(parent)
        return False


def link(units: Sequence[UnitInput], names: PackageNames) -> dict[str, UnitHandlers]:
    """Each unit's handlers with their sources through a call, the `report`s of the input's
    error sink, and (on one unit) the sink's evidence."""
    functions = _Functions(units, names)
    handlers = {u.unit: {h.offset: h for h in u.handlers.handlers} for u in units}
    by_offset = {(unit, record.offset): name for name, (unit, record) in functions.by_name.items()}
    thrown: dict[str, list[_Escaping]] = {}
    for u in units:
        for site in u.sites:
            flow = site.flow
            if site.kind != "error" or flow is None or flow.fate != "thrown" or flow.escapes is not True or \
                    site.constructor is None or site.function_offset is None:
                continue
            name = by_offset.get((u.unit, site.function_offset))
            if name is not None:
                thrown.setdefault(name, []).append(_Escaping(u.unit, site.offset, site.constructor, 1))
    calls: dict[str, list[tuple[str, CallRecord, str]]] = {}  # function -> its calls that reach one that raises
    for u in units:
        for call in u.facts.calls:
            target = functions.resolve(call.callee)
            caller = by_offset.get((u.unit, call.function)) if call.function is not None else None
            if caller is not None and target is not None and target != caller and target in thrown and \
                    _runs(call, functions.by_name[target][1]):
                calls.setdefault(caller, []).append((u.unit, call, target))
    bases: dict[str, tuple[frozenset[str], bool]] = {}

    def caught_by(escaping: _Escaping, unit: str, call: CallRecord) -> tuple[int | None, bool]:
        if escaping.constructor not in bases:
            bases[escaping.constructor] = ancestors(escaping.constructor, names)
        found, complete = bases[escaping.constructor]
        return catcher(found, complete, call.tries, handlers[unit], names.external)

    escapes: dict[str, list[_Escaping]] = {}
    for name in thrown.keys() | calls.keys():
        leaving = list(thrown.get(name, ()))
        if MAX_HOPS > 1:
            for unit, call, target in calls.get(name, ()):
                for escaping in thrown[target]:
                    if caught_by(escaping, unit, call) == (None, True):
                        leaving.append(dataclasses.replace(escaping, hops=2))
        escapes[name] = leaving
    reached: dict[str, dict[int, dict[tuple[str, int], int]]] = {}
    for u in units:
        for call in u.facts.calls:
            if not call.tries:
                continue
            target = functions.resolve(call.callee)
            if target is None or target not in escapes or not _runs(call, functions.by_name[target][1]):
                continue
            for escaping in escapes[target]:
                handler, _ = caught_by(escaping, u.unit, call)
                if handler is not None:
                    found = reached.setdefault(u.unit, {}).setdefault(handler, {})
                    key = (escaping.unit, escaping.offset)
                    found[key] = min(found.get(key, MAX_HOPS + 1), escaping.hops)
    sink, evidence = _sink(units, functions)
    out = {}
    for u in units:
        here: dict[int, tuple[tuple[int, int], ...]] = {}
        elsewhere: dict[int, tuple[tuple[str, int, int], ...]] = {}
        for handler, found in sorted(reached.get(u.unit, {}).items()):
            same = tuple(sorted((offset, hops) for (unit, offset), hops in found.items() if unit == u.unit))
            other = tuple(sorted((unit, offset, hops) for (unit, offset), hops in found.items() if unit != u.unit))
            if same:
                here[handler] = same
            if other:
                elsewhere[handler] = other
        settled = u.handlers.handlers
        if sink is not None:
            settled = [_reported(h, p.sink_calls, sink, functions) if p.sink_calls else h
                       for h, p in zip(settled, u.facts.handlers)]
        out[u.unit] = dataclasses.replace(u.handlers, handlers=settled, called=here, called_elsewhere=elsewhere,
                                          sink=evidence if evidence is not None and evidence.unit == u.unit
                                          else None)
    return out


def _runs(call: CallRecord, function: FunctionRecord) -> bool:
    """A call runs its function's body where it is: an `async` function's only when awaited."""
    return call.awaited or not function.is_async


def _sink(units: Sequence[UnitInput], functions: _Functions) -> tuple[str | None, SinkEvidence | None]:
    """The input's error sink: the function most often called with a caught value itself, when it
    is called so at least `MIN_CALLS` times and more than any other; and its evidence (on the
    unit that defines it, else on the first unit with such a call), None when no call resolves."""
    counted: Counter[str] = Counter()
    first: str | None = None
    for u in units:
        for pending in u.facts.handlers:
            for call in pending.sink_calls:
                target = functions.resolve(call.callee) if call.itself else None
                if target is not None:
                    counted[target] += 1
                    first = first or u.unit
    if first is None:
        return None, None
    ranked = sorted(counted.items(), key=lambda item: (-item[1], item[0]))

    def described(name: str, calls: int) -> SinkCandidate:
        unit, record = functions.by_name[name]
        return SinkCandidate(name, record.offset, calls, unit)

    (chosen, most), rest = ranked[0], ranked[1:]
    runner_ups = tuple(described(n, c) for n, c in rest[:_RUNNER_UPS])
    if most < MIN_CALLS or (rest and rest[0][1] == most):
        why = f"no function is called with a caught value at least {MIN_CALLS} times and more than any other"
        return None, SinkEvidence(first, None, None, 0, (why,), tuple(described(n, c) for n, c in ranked[:_RUNNER_UPS]))
    unit, record = functions.by_name[chosen]
    reasons = [f"called with a caught value in {most} handler calls"]
    if rest:
        reasons.append(f"the runner-up, {rest[0][0]}, in {rest[0][1]}")
    declaration = (record.offset, record.line, "method" if record.owner else "function")
    return chosen, SinkEvidence(unit, chosen, declaration, most, tuple(reasons), runner_ups)


def _reported(handler: HandlerFacts, calls: Sequence[SinkCall], sink: str, functions: _Functions) -> HandlerFacts:
    """A handler whose branches call the sink: those calls are `report`s, the others `callback`s."""
    branches = []
    for at, branch in enumerate(handler.branches):
        mine = [c for c in calls if c.branch == at]
        reports = [c for c in mine if functions.resolve(c.callee) == sink]
        if not reports:
            branches.append(branch)
            continue
        others = [c for c in mine if c not in reports]
        kept = [d for d in branch.dispositions if d.kind != "callback"]
        kept.append(DispositionFacts("report", None, (), reports[0].written))
        if others:
            kept.append(DispositionFacts("callback", None, (), others[0].written))
        branches.append(BranchFacts(branch.test, merged(kept)))
    return dataclasses.replace(handler, branches=tuple(branches))

