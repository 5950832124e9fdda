"""Which `except` clause catches an error callsite, through the class hierarchy of the whole input,
settled once every module is read (docs/reference.md, "Handler records", Python). Exactness
first: a handler whose classes do not resolve, or an error whose bases are not all known, stops
the search; no handler is guessed."""

from __future__ import annotations

import builtins
import dataclasses
import importlib
import sys
from collections.abc import Mapping
from functools import cache
from typing import Literal, Protocol

from analyzer.facts import BranchFacts, DispositionFacts, FlowFacts, HandlerFacts, SiteFacts, UnitHandlers
from analyzer.handler_model import CaughtClass
from analyzer.python.filefacts import ClassRecord, PendingHandler, PendingSite
from analyzer.python.handlers import merged

Verdict = Literal["yes", "no", "unknown"]


class PackageNames(Protocol):
    """What is read of the input's names (`analyzer.python.hierarchy.PackageNames`, which calls
    this module when it settles a unit)."""

    @property
    def classes(self) -> dict[str, ClassRecord]: ...
    @property
    def external(self) -> frozenset[str]: ...
    def constructor(self, name: str) -> str: ...
    def canonical(self, name: str) -> str: ...
    def root(self, name: str) -> tuple[str, str] | None: ...
    def shadows_builtin(self, name: str) -> bool: ...
_GROUPS = frozenset({"BaseExceptionGroup", "ExceptionGroup"})
#: fates that leave the function when no handler of it catches them (as JavaScript's)
_LEAVING = frozenset({"thrown", "returned", "rejected"})


def unit_handlers(handlers: list[PendingHandler], sites: list[tuple[SiteFacts, PendingSite]],
                  names: PackageNames) -> tuple[UnitHandlers, list[SiteFacts]]:
    """The unit's handlers with their classes settled, log dispositions kept only where the
    diagnostic callsite settled, and the error callsites each catches directly; and the settled
    callsites (`sites`: each with what its file left pending) with their flows settled: the
    handler that catches each directly is the one whose sources list it (one decision)."""
    settled_sites = {(s.kind, s.offset) for s, _ in sites}
    settled = [_settled(h, names, settled_sites) for h in handlers]
    by_offset = {h.offset: h for h in settled}
    caught: dict[int, int] = {}
    flowed = []
    for site, pending in sites:
        if site.kind != "error" or site.flow is None:
            flowed.append(site)
            continue
        handler, decided = None, True
        if pending.tries:
            handler, decided = _catcher(site.constructor, pending.tries, by_offset, names) \
                if site.constructor is not None else (None, False)
        if handler is not None:
            caught[site.offset] = handler
        flowed.append(dataclasses.replace(site, flow=_flow(site.flow, handler, decided, pending.logged_by,
                                                           settled_sites)))
    return UnitHandlers([_uncaught_wraps(h, caught) for h in settled], caught, None, 0), flowed


def _uncaught_wraps(handler: HandlerFacts, caught: dict[int, int]) -> HandlerFacts:
    """`handler` without the new errors its body raises in a nested `try` whose own clause catches
    them: they never leave the clause, so they wrap nothing (docs/reference.md, "Handler records")."""
    def inside(site: int) -> bool:
        return handler.offset < caught.get(site, -1) < handler.end_offset

    if not any(inside(s) for b in handler.branches for d in b.dispositions if d.kind == "wrap" for s in d.sites):
        return handler
    branches = []
    for branch in handler.branches:
        kept = []
        for item in branch.dispositions:
            left = tuple(s for s in item.sites if not inside(s)) if item.kind == "wrap" else item.sites
            if left or not item.sites:
                kept.append(dataclasses.replace(item, sites=left))
        branches.append(BranchFacts(branch.test, merged(kept) or (DispositionFacts("swallow", None, (), None),)))
    return dataclasses.replace(handler, branches=tuple(branches))


def _flow(flow: FlowFacts, handler: int | None, decided: bool, logged_by: int | None,
          sites: set[tuple[str, int]]) -> FlowFacts:
    """`logged` when the call given the error settled as a diagnostic callsite; `escapes`: thrown
    and caught by no handler of its function (None when a handler's classes or the error's bases
    leave that open), returned or rejected."""
    fate = "logged" if logged_by is not None and ("diagnostic", logged_by) in sites else flow.fate
    escapes = None if fate is None or (fate == "thrown" and not decided) else \
        fate in _LEAVING and handler is None
    return FlowFacts(fate, handler if fate == "thrown" else None, escapes, flow.fields)


def _settled(pending: PendingHandler, names: PackageNames, sites: set[tuple[str, int]]) -> HandlerFacts:
    catches = None
    if pending.catches is not None:
        catches = tuple(
            CaughtClass(c.written, c.resolved if c.pending is None else (
                names.constructor(c.pending) if names.root(c.pending) is not None
                and not names.shadows_builtin(c.pending) else None))
            for c in pending.catches
        )
    branches = tuple(BranchFacts(b.test, _linked(b.dispositions, sites)) for b in pending.facts.branches)
    return dataclasses.replace(pending.facts, catches=catches, branches=branches)


def _linked(dispositions: tuple[DispositionFacts, ...], sites: set[tuple[str, int]]) -> tuple[DispositionFacts, ...]:
    """What the worker left pending on a callsite's settling: a `log` stays when one of its calls
    settled as a diagnostic callsite; a returned construction (`return-value` with a callsite) is
    a `wrap` when it settled as an error callsite, else a plain `return-value`; a call given the
    caught value that is a candidate callsite (`callback` with its offset) is a `callback` unless
    it settled as a callsite (a construction or a diagnostic)."""
    found: list[DispositionFacts] = []
    for item in dispositions:
        if item.kind == "callback" and item.sites:
            if not any((kind, s) in sites for kind in ("error", "diagnostic") for s in item.sites):
                found.append(dataclasses.replace(item, sites=()))
            continue
        if item.kind == "log":
            linked = tuple(s for s in item.sites if ("diagnostic", s) in sites)
            if linked:
                found.append(dataclasses.replace(item, sites=linked))
        elif item.kind == "return-value" and item.sites:
            made = all(("error", s) in sites for s in item.sites)
            found.append(DispositionFacts("wrap", item.cause, item.sites, item.callee) if made
                         else DispositionFacts("return-value", None, (), None))
        else:
            found.append(item)
    return merged(found) or (DispositionFacts("swallow", None, (), None),)


def _catcher(constructor: str, tries: tuple[tuple[int, ...], ...], handlers: Mapping[int, HandlerFacts],
             names: PackageNames) -> tuple[int | None, bool]:
    """(the offset of the handler that catches an error of this class raised in these `try`
    blocks, else None; whether that is decided: False when a handler's classes or the error's
    bases leave it open)."""
    bases, complete = ancestors(constructor, names)
    return catcher(bases, complete, tries, handlers, names.external)


def catcher(bases: frozenset[str], complete: bool, tries: tuple[tuple[int, ...], ...],
            handlers: Mapping[int, HandlerFacts], external: frozenset[str]) -> tuple[int | None, bool]:
    """`_catcher` for an error class of these `bases` (`ancestors`)."""
    for group in tries:
        for offset in group:
            handler = handlers.get(offset)
            if handler is None:
                return None, False
            verdict = matches(bases, complete, handler, external)
            if verdict == "yes":
                return offset, True
            if verdict == "unknown":
                return None, False
    return None, True


def matches(bases: frozenset[str], complete: bool, handler: HandlerFacts, external: frozenset[str]) -> Verdict:
    """Whether an error of a class with these `bases` (itself included; `complete`: all known)
    is caught by `handler`."""
    if handler.catches is None:
        return "yes"
    if handler.form == "except*" and bases & _GROUPS:
        return "unknown"  # a group is split by its members' classes
    unknown = False
    for item in handler.catches:
        if item.resolved is None:
            unknown = True
        elif _canonical(item.resolved, external) in bases:
            return "yes"
        elif not complete:
            unknown = True
    return "unknown" if unknown else "no"


def ancestors(constructor: str, names: PackageNames) -> tuple[frozenset[str], bool]:
    """The class and all its bases, named canonically (`_canonical`), and whether every base is
    known: a base that resolves to several names or to none, or an external class that cannot be
    read, leaves the set incomplete."""
    seen: set[str] = set()
    complete = True
    pending = [constructor]
    while pending:
        name = pending.pop()
        if name in seen:
            continue
        seen.add(name)
        known = _runtime_bases(name) if name not in names.classes and _readable(name, names.external) else None
        if known is not None:
            seen.update(known)
            continue
        record = names.classes.get(name)
        if record is None:
            complete = False
            continue
        for _, candidates in record.bases:
            if len(candidates) != 1:
                complete = False
                continue
            pending.append(names.constructor(candidates[0]))
    return frozenset(_canonical(n, names.external) for n in seen), complete


@cache
def _runtime_bases(name: str) -> frozenset[str] | None:
    """The bases of a builtin class, or of a class of the standard library (the running Python's),
    canonically named; None for any other name."""
    found = _runtime_class(name)
    if found is None:
        return None
    return frozenset({name, *(_named(k) for k in found.__mro__)})


def _readable(name: str, external: frozenset[str]) -> bool:
    """A builtin, or an external class of the rules (only those modules are ever imported)."""
    return "." not in name or name in external


def _canonical(name: str, external: frozenset[str]) -> str:
    found = _runtime_class(name) if _readable(name, external) else None
    return _named(found) if found is not None else name


def _named(cls: type) -> str:
    return cls.__name__ if cls.__module__ == "builtins" else f"{cls.__module__}.{cls.__qualname__}"


@cache
def _runtime_class(name: str) -> type | None:
    module, _, attribute = name.rpartition(".")
    if not module:
        found = getattr(builtins, name, None)
    elif module.split(".", 1)[0] in sys.stdlib_module_names:
        try:
            found = getattr(importlib.import_module(module), attribute, None)
        except Exception:  # a module this Python cannot import: its classes stay unknown
            return None
    else:
        return None
    return found if isinstance(found, type) else None
