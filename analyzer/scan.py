"""The scan pipeline: input -> its language, decided once (`scan_input`) -> that language's frontend
(`FrontendScan`) -> identities -> records."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Set
from dataclasses import dataclass, field
from pathlib import Path
from typing import get_args

from analyzer import progress
from analyzer.bundle.languages import Language, tree_language
from analyzer.bundle.load import Embedded
from analyzer.errors import InputError
from analyzer.facts import (
    HANDLERS,
    REFERENCES,
    BundleModules,
    ClassFacts,
    FrontendScan,
    HandlerFacts,
    SiteFacts,
    UnitFacts,
)
from analyzer.handler_model import (
    Handler,
    HandlerBranch,
    HandlerDisposition,
    HandlerSource,
    JavaScriptHandler,
    MappedJavaScriptHandler,
    PythonBranch,
    PythonDisposition,
    PythonHandler,
)
from analyzer.identity import (
    binding_identities,
    callsite_identities,
    function_identities,
    handler_identities,
    scan_fingerprints,
)
from analyzer.model import (
    CALLSITE_SCHEMA,
    ERROR_CLASS_SCHEMA,
    HANDLER_SCHEMA,
    REFERENCE_ITEM_SCHEMA,
    Callsite,
    Copies,
    DeclaredBinding,
    ErrorClass,
    Flow,
    PythonHandlerForm,
    Readable,
    ReferenceItem,
    made,
)
from analyzer.parallel.executor import Inline
from analyzer.readable import ReadableUnit, readable_units
from analyzer.rules import Rules, load_rules

_ID_PREFIX = {"error": "e", "diagnostic": "d"}


@dataclass(frozen=True, slots=True)
class ScanInput:
    """An input and what the pipeline decides about it once: its language and that language's rules."""

    path: Path
    language: Language
    rules: Rules
    #: the lines a scan says first: the virtual environments a directory's scan skipped; for a tree
    #: that holds both languages, which one was chosen, why, and how to pick the other
    notes: tuple[str, ...] = ()


def scan_input(path: Path, rules: Path | None = None, language: Language | None = None) -> ScanInput:
    """The input's language (`bundle.languages.tree_language`: by name for a file, by what a
    directory or an archive holds, `language` when the user chose), and `rules`, else that
    language's default rules."""
    chosen, notes = tree_language(path, language)
    return ScanInput(path, chosen, load_rules(chosen, rules), notes)


@dataclass(frozen=True, slots=True)
class BundleInput:
    name: str
    sha256: str
    size: int


@dataclass(frozen=True, slots=True)
class ScanResult:
    bundle: BundleInput
    #: the input's language (`scan_input`)
    language: Language
    rules: Rules
    units: list[UnitFacts]
    callsites: list[Callsite]
    classes: list[ErrorClass]
    #: unit name -> its readable rendering and the slice files it is written as
    readable: dict[str, ReadableUnit]
    #: bundler modules and source-map evidence of every unit
    modules: BundleModules | None = None
    #: a Bun executable's embedded modules, scanned or not (empty otherwise)
    embedded: list[Embedded] = field(default_factory=list)
    #: the reference graph: every unit's top-level items (JavaScript only)
    references: list[ReferenceItem] = field(default_factory=list)
    #: `function-signatures.jsonl` for corpus matching, when asked for (`scan --signatures`)
    signatures: bytes | None = None
    #: the fingerprints' anchor limit of the frontend that made the facts (its unit is the frontend's)
    anchor_limit: int = 0
    #: catch clauses and promise handlers (None: a frontend that does not look for them)
    handlers: list[Handler] | None = None


def scan(
    source: ScanInput, logger: str | None = None, executor: Inline | None = None, signatures: bool = False
) -> ScanResult:
    """The frontend of the input's language (`scan_input`), then the same identities and records;
    `executor`: where the work runs (`analyzer.parallel.executor`; default: in this process)."""
    found = _frontend(source, logger, executor or Inline(), signatures)
    bundle = BundleInput(name=found.name, sha256=found.sha256, size=found.size)
    with progress.phase("identities and records"):
        readable = readable_units(found.renderings, ".py" if source.language == "python" else ".js")
        places = _places(found.units, readable)
        callsites = _callsites(found.units, places, found.modules)
        handlers = _handlers(found.units, places, found.modules, callsites)
    return ScanResult(bundle, source.language, source.rules, found.units, callsites, _classes(found.units), readable,
                      found.modules, found.embedded, _reference_items(found.units), found.signatures,
                      found.anchor_limit, handlers)


def _frontend(source: ScanInput, logger: str | None, executor: Inline, signatures: bool) -> FrontendScan:
    """The frontend of the input's language (each imported only when used: a scan directory's
    readers never load a parser)."""
    path, rules = source.path, source.rules
    if source.language == "python":
        if signatures:
            raise InputError(path, "--signatures is for JavaScript bundles (corpus matching), not Python inputs")
        from analyzer.python.frontend import scan_python

        with progress.phase(f"parsing the Python files of {path.name}"):
            return scan_python(path, rules, executor)
    from analyzer.javascript.frontend import scan_javascript

    return scan_javascript(path, rules, logger, executor, signatures)


def _places(units: list[UnitFacts], readable: dict[str, ReadableUnit]) -> dict[tuple[str, int], tuple[int, Readable]]:
    """The readable place of each callsite's and handler's offset, by (unit, offset): one pass over
    each unit's rendering for both (a pass counts the unit's bytes: 27 MB for the executable)."""
    places: dict[tuple[str, int], tuple[int, Readable]] = {}
    for unit in units:
        handlers = unit.extra(HANDLERS)
        wanted = {site.offset for site in unit.sites}
        wanted.update(h.offset for h in (handlers.handlers if handlers is not None else ()))
        if not wanted:
            continue  # a unit without callsites or handlers needs no rendering (Python writes none)
        offsets = sorted(wanted)
        name, written = unit.unit.name, readable[unit.unit.name]
        for offset, place in zip(offsets, written.rendering.places(offsets, written.slicing)):
            places[(name, offset)] = (place.line, Readable(written.files[place.slice], place.slice_line, place.column))
    return places


def _callsites(units: list[UnitFacts], places: dict[tuple[str, int], tuple[int, Readable]],
               modules: BundleModules) -> list[Callsite]:
    located = [(u.unit.name, site) for u in units for site in u.sites]
    fingerprints, copies = callsite_identities([site.identity for _, site in located])
    functions = sorted(
        {
            (name, s.function_offset): s.function_digest
            for name, s in located
            if s.function_digest is not None and s.function_offset is not None
        }.items()
    )
    keys = [key for key, _ in functions]
    function_fps, function_copies = function_identities([d for _, d in functions], keys)
    function_of: dict[tuple[str, int | None], tuple[str, Copies]] = dict(zip(keys, zip(function_fps, function_copies)))
    recorded = {u.unit.name: {h.offset for h in handlers.handlers}
                for u in units if (handlers := u.extra(HANDLERS)) is not None}
    make = made(Callsite)
    records = [
        _record(make, name, site, fingerprint, copy, function_of.get((name, site.function_offset), _NO_FUNCTION),
                places[(name, site.offset)], modules, recorded.get(name, _NONE))
        for (name, site), fingerprint, copy in zip(located, fingerprints, copies)
    ]
    return sorted(records, key=lambda r: (r.unit, r.offset, r.kind))


_NO_FUNCTION = (None, None)
_NONE: frozenset[int] = frozenset()


def _record(
    make: Callable[..., Callsite], unit: str, site: SiteFacts, fingerprint: str, copies: Copies,
    function: tuple[str, Copies] | tuple[None, None], place: tuple[int, Readable], modules: BundleModules,
    handlers: Set[int],
) -> Callsite:
    flow, offset = site.flow, site.offset
    return make(
        CALLSITE_SCHEMA, site.kind, f"{_ID_PREFIX[site.kind]}:{unit}@{offset}", fingerprint, copies, function[0],
        function[1], unit, offset, site.end_offset, site.line, site.column, place[0], place[1], site.constructor,
        site.form, site.callee, site.callee_role, site.arg_count, site.message, site.level, site.level_source,
        site.level_candidates, site.scope, site.consumer, modules.module_of(unit, offset),
        modules.origin_of(unit, offset), site.context,
        None if flow is None else Flow(
            flow.fate, f"h:{unit}@{flow.handler}" if flow.handler in handlers else None, flow.escapes, flow.fields),
    )


def _handlers(units: list[UnitFacts], places: dict[tuple[str, int], tuple[int, Readable]], modules: BundleModules,
              callsites: list[Callsite]) -> list[Handler]:
    """Every handler's record, with the error callsites it catches directly and the ids and
    levels of the callsites its branches link (only inventoried ones). Both frontends look for
    handlers: a Python scan none of whose units parse has none, and writes an empty handlers.jsonl."""
    found = [(u.unit.name, handlers) for u in units if (handlers := u.extra(HANDLERS)) is not None]
    located = [(name, h) for name, handlers in found for h in handlers.handlers]
    fingerprints, copies = handler_identities([h.identity for _, h in located])
    records = {(r.unit, r.offset, r.kind): r for r in callsites}
    # (unit, offset, hops) of each inventoried error a handler catches: sorted as such, ids made after
    sources: dict[tuple[str, int], list[tuple[str, int, int]]] = defaultdict(list)
    for name, handlers in found:
        for offset, handler in handlers.caught.items():
            if (name, offset, "error") in records:
                sources[(name, handler)].append((name, offset, 0))
        for handler, reached in handlers.called.items():
            for offset, hops in reached:
                if (name, offset, "error") in records:
                    sources[(name, handler)].append((name, offset, hops))
        for handler, elsewhere in handlers.called_elsewhere.items():
            for unit, offset, hops in elsewhere:
                if (unit, offset, "error") in records:
                    sources[(name, handler)].append((unit, offset, hops))
    make = _HandlerMakers()
    out = [
        _handler(make, name, facts, fingerprint, copy, places[(name, facts.offset)], modules, records,
                 sources.get((name, facts.offset), _NO_SOURCES))
        for (name, facts), fingerprint, copy in zip(located, fingerprints, copies)
    ]
    return sorted(out, key=lambda h: (h.unit, h.offset))


_NO_SOURCES: list[tuple[str, int, int]] = []


class _HandlerMakers:
    """The handler records' makers (`model.made`), made once a scan: 8,460 handlers make some 40,000
    records on the 2.1.235 executable."""

    def __init__(self) -> None:
        self.javascript, self.python = made(JavaScriptHandler), made(PythonHandler)
        self.mapped = made(MappedJavaScriptHandler)
        self.branch, self.disposition = made(HandlerBranch), made(HandlerDisposition)
        self.source = made(HandlerSource)
        self.python_branch, self.python_disposition = made(PythonBranch), made(PythonDisposition)


def _handler(make: _HandlerMakers, unit: str, facts: HandlerFacts, fingerprint: str, copies: Copies,
             place: tuple[int, Readable], modules: BundleModules, records: dict[tuple[str, int, str], Callsite],
             sources: list[tuple[str, int, int]]) -> Handler:
    python = facts.form in _PYTHON_FORMS  # an `except` clause: each `wrap` says whether its cause is suppressed
    disposition = make.python_disposition if python else make.disposition
    branch_of = make.python_branch if python else make.branch
    branches = []
    for branch in facts.branches:
        dispositions = []
        for item in branch.dispositions:
            ids: tuple[str, ...] = ()
            levels: tuple[str, ...] = ()
            if item.sites:
                kind = "diagnostic" if item.kind == "log" else "error"
                linked = [records[(unit, offset, kind)] for offset in item.sites if (unit, offset, kind) in records]
                ids = tuple(r.id for r in linked)
                if item.kind == "log":
                    levels = tuple(r.level or "" for r in linked)
            if python:
                dispositions.append(disposition(item.kind, item.cause, ids, levels, item.callee,
                                                item.suppressed if item.kind == "wrap" else None))
            else:
                dispositions.append(disposition(item.kind, item.cause, ids, levels, item.callee))
        branches.append(branch_of(branch.test, tuple(dispositions)))
    offset, source = facts.offset, make.source
    origin = modules.origin_of(unit, offset)
    # the record's own class made at once, its fields in order (no intermediate `Handler`)
    head = (
        HANDLER_SCHEMA, f"h:{unit}@{offset}", fingerprint, copies, unit, offset, facts.end_offset, facts.line,
        facts.column, place[0], place[1], facts.form, facts.param, facts.scope, modules.module_of(unit, offset),
        origin, tuple(source(f"e:{at}@{error}", "call" if hops else "direct", hops)
                      for at, error, hops in sorted(sources)) if sources else (),
    )
    if python:  # and the classes it names
        return make.python(*head, tuple(branches), facts.in_error_region, facts.catches, facts.lone_rethrow)
    if origin is not None:  # the map places it: and what its original body held
        return make.mapped(*head, tuple(branches), facts.in_error_region, facts.lone_rethrow,
                           modules.source_body_of(unit, offset))
    return make.javascript(*head, tuple(branches), facts.in_error_region, facts.lone_rethrow)


_PYTHON_FORMS = frozenset(get_args(PythonHandlerForm))


def _reference_items(units: list[UnitFacts]) -> list[ReferenceItem]:
    """Every unit's items, with the fp1b of the bindings that may root a `references` entry
    (the units whose frontend makes a reference graph)."""
    graphs = [(u.unit.name, graph) for u in units if (graph := u.extra(REFERENCES)) is not None]
    keyed = [
        ((name, graph.items[position].offset, slot), digest)
        for name, graph in graphs
        for (position, binding), digest in graph.binding_digests.items()
        for slot in [graph.items[position].declares.index(binding)]
    ]
    keyed.sort(key=lambda pair: pair[0])
    fingerprints, copies = binding_identities([d for _, d in keyed], [k for k, _ in keyed])
    identity = {key: (fp, c) for (key, _), fp, c in zip(keyed, fingerprints, copies)}
    item, binding = made(ReferenceItem), made(DeclaredBinding)
    out = []
    for unit_name, graph in graphs:
        helpers, prefix = graph.helpers, f"i:{unit_name}@"
        for facts in graph.items:
            offset = facts.offset
            declares = tuple(binding(name, *identity.get((unit_name, offset, slot), _NO_IDENTITY), name in helpers)
                             for slot, name in enumerate(facts.declares))
            out.append(item(REFERENCE_ITEM_SCHEMA, prefix + str(offset), unit_name, offset, facts.end_offset,
                            declares, facts.references))
    return out


_NO_IDENTITY = (None, None)


def _classes(units: list[UnitFacts]) -> list[ErrorClass]:
    located: list[tuple[str, ClassFacts]] = [(u.unit.name, c) for u in units for c in u.classes]
    fingerprints = scan_fingerprints("fp1c", [c.digest for _, c in located], [(n, c.offset) for n, c in located])
    return [
        ErrorClass(
            schema=ERROR_CLASS_SCHEMA,
            id=f"c:{name}@{facts.offset}",
            fingerprint=fingerprint,
            unit=name,
            offset=facts.offset,
            endOffset=facts.end_offset,
            line=facts.line,
            column=facts.column,
            name=facts.name,
            parent=facts.parent,
            rootConstructor=facts.root_constructor,
            fields=facts.fields,
            scope=facts.scope,
        )
        for (name, facts), fingerprint in zip(located, fingerprints)
    ]
