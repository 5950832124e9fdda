"""The scan pipeline: load -> parse/extract (per unit) -> identity -> records."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from analyzer import progress
from analyzer.bounds import limit_memory
from analyzer.bundle.load import Embedded, file_name, load_bundle
from analyzer.errors import InputError, InvariantError
from analyzer.forked import ChildLost, Side, can_fork
from analyzer.identity import ANCHOR_LIMIT, binding_identities, callsite_identities, function_identities, scan_fingerprints
from analyzer.javascript.classes import ClassFacts
from analyzer.javascript.extract import HELPER_MIN_BYTES, SiteFacts, UnitFacts, extract_unit
from analyzer.javascript.modules import BundleModules, UnitEvidence, bundle_modules
from analyzer.javascript.speculate import ChunkFacts, chunks_of, facts_ahead
from analyzer.model import (
    CALLSITE_SCHEMA,
    ERROR_CLASS_SCHEMA,
    REFERENCE_ITEM_SCHEMA,
    Callsite,
    Copies,
    DeclaredBinding,
    ErrorClass,
    Readable,
    ReferenceItem,
    Unit,
)
from analyzer.readable import ReadableUnit, readable_units, render
from analyzer.rules import JavaScriptRules, PythonRules
from analyzer.trace import mark

_ID_PREFIX = {"error": "e", "diagnostic": "d"}


@dataclass(frozen=True, slots=True)
class BundleInput:
    name: str
    sha256: str
    size: int


@dataclass(frozen=True, slots=True)
class ScanResult:
    bundle: BundleInput
    rules: JavaScriptRules
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
    anchor_limit: int = ANCHOR_LIMIT


def scan(
    path: Path, rules: JavaScriptRules | PythonRules, logger: str | None = None, jobs: int = 1, signatures: bool = False
) -> ScanResult:
    if isinstance(rules, PythonRules):
        if signatures:
            raise InputError(path, "--signatures is for JavaScript bundles (corpus matching), not Python inputs")
        return _scan_python(path, rules, jobs)
    with progress.phase(f"reading {file_name(path)}"):
        units, embedded = load_bundle(path)
    limit_memory(sum(len(unit.source) for unit in units))  # in an isolated scan: the bound from here on
    helper = jobs > 1 and can_fork()
    side = Side(lambda send, wanted: _side_work(path, units, rules, logger, send, wanted)) if helper else None
    ahead = _worked_ahead(units)
    try:
        facts = []
        for i, unit in enumerate(units):
            with progress.phase(f"finding callsites in {unit.name}"):
                facts.append(extract_unit(unit, rules, logger, path, helper,
                                          _ahead(side) if side is not None and i == ahead else None))
        digest = rendered = None
        if side is not None:
            try:
                digest, rendered = side.wait("hash"), side.wait("renders")
            except ChildLost:
                pass
    finally:
        if side is not None:
            side.stop()
    if digest is None or rendered is None:
        digest, rendered = _sha256(path), [render(unit.source) for unit in units]
    mark("scan: hash and renderings in")
    bundle = BundleInput(name=file_name(path), sha256=digest, size=path.stat().st_size)
    with progress.phase("modules, identities and records"):
        readable = readable_units({unit.name: text for unit, text in zip(units, rendered)})
        modules = bundle_modules([(u.unit, _evidence(u), [(s.kind, s.offset) for s in u.sites]) for u in facts])
        callsites = _callsites(facts, readable, modules)
    signature_rows = _signatures(units) if signatures else None
    return ScanResult(bundle, rules, facts, callsites, _classes(facts), readable, modules, embedded,
                      _reference_items(facts), signature_rows)


def _signatures(units: list[Unit]) -> bytes:
    """Corpus signatures from the trees this scan parsed (the last ones retained, one per unit)."""
    from analyzer.javascript.corpus import render_signatures
    from analyzer.javascript.extract import RETAINED_TREES

    trees = RETAINED_TREES[-len(units):] if units else []
    if len(trees) != len(units) or any(t.root_node.end_byte != len(u.source) for t, u in zip(trees, units)):
        raise InvariantError("corpus signatures: the scan's trees are not its units'")
    signature_rows = render_signatures(units, trees)
    mark("scan: corpus signatures made")
    return signature_rows


def _side_work(
    path: Path, units: list[Unit], rules: JavaScriptRules, logger: str | None,
    send: Callable[[str, object], None], wanted: Callable[[], bool],
) -> None:
    """In the worker forked before the parse: the input's hash and the readable renderings,
    then (while the main process still wants them) chunks of facts of the biggest unit."""
    send("hash", _sha256(path))
    rendered = [render(unit.source) for unit in units]
    biggest = _worked_ahead(units)
    chunks = chunks_of(units[biggest], rendered[biggest].hidden) if biggest is not None else []
    send("renders", rendered)
    del rendered  # sent: this worker keeps no rendering while it works ahead
    mark("side: renderings sent")
    if biggest is not None:
        facts_ahead(units[biggest], chunks, rules, logger, lambda number, facts: _send_chunk(send, number, facts), wanted)


def _send_chunk(send: Callable[[str, object], None], number: int, chunk: ChunkFacts) -> None:
    send(f"ahead:{number}", chunk)
    mark(f"side: chunk {number} sent, {len(chunk.sites)} callsite facts")


def _worked_ahead(units: list[Unit]) -> int | None:
    """The unit the rendering worker makes facts ahead for: the biggest, if it is big."""
    biggest = max(range(len(units)), key=lambda i: len(units[i].source), default=None)
    return biggest if biggest is not None and len(units[biggest].source) >= HELPER_MIN_BYTES else None


def _ahead(side: Side) -> Callable[[], list[ChunkFacts]]:
    """The chunks of facts the worker has made so far (for the unit it works ahead on); after
    this question the worker's optional work is of no more use."""

    def ahead() -> list[ChunkFacts]:
        chunks = side.peek_all("ahead:")
        side.release(("hash", "renders"))
        return [c for c in chunks if isinstance(c, ChunkFacts)]

    return ahead


def _evidence(unit: UnitFacts) -> UnitEvidence:
    if unit.evidence is None:
        raise InvariantError(f"{unit.unit.name}: extracted without its module evidence")
    return unit.evidence


def _scan_python(path: Path, rules: PythonRules, jobs: int) -> ScanResult:
    """Python inputs: the libcst frontend gives the same UnitFacts; the rest is shared."""
    from analyzer.python.extract import PYTHON_ANCHOR_LIMIT
    from analyzer.python.frontend import scan_python

    with progress.phase(f"parsing the Python files of {path.name}"):
        found = scan_python(path, rules, jobs)
    bundle = BundleInput(name=found.bundle.name, sha256=found.bundle.sha256, size=found.bundle.size)
    readable = readable_units(found.renderings)
    callsites = _callsites(found.units, readable, found.modules)
    return ScanResult(bundle, rules, found.units, callsites, _classes(found.units), readable,  # type: ignore[arg-type]
                      found.modules, anchor_limit=PYTHON_ANCHOR_LIMIT)


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _callsites(units: list[UnitFacts], readable: dict[str, ReadableUnit], modules: BundleModules) -> list[Callsite]:
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
    places: dict[tuple[str, int], tuple[int, Readable]] = {}
    for unit in units:
        offsets = sorted({site.offset for site in unit.sites})
        if not offsets:
            continue  # a unit without callsites needs no rendering (Python writes none)
        written = readable[unit.unit.name]
        for offset, place in zip(offsets, written.rendering.places(offsets, written.slicing)):
            places[(unit.unit.name, offset)] = (
                place.line, Readable(written.files[place.slice], place.slice_line, place.column))
    records = [
        _record(name, site, fingerprint, copy, function_of.get((name, site.function_offset)),
                places[(name, site.offset)], modules)
        for (name, site), fingerprint, copy in zip(located, fingerprints, copies)
    ]
    return sorted(records, key=lambda r: (r.unit, r.offset, r.kind))


def _record(
    unit: str, site: SiteFacts, fingerprint: str, copies: Copies, function: tuple[str, Copies] | None,
    place: tuple[int, Readable], modules: BundleModules,
) -> Callsite:
    return Callsite(
        schema=CALLSITE_SCHEMA,
        kind=site.kind,
        id=f"{_ID_PREFIX[site.kind]}:{unit}@{site.offset}",
        fingerprint=fingerprint,
        copies=copies,
        functionFingerprint=function[0] if function is not None else None,  # type: ignore[arg-type]
        functionCopies=function[1] if function is not None else None,
        unit=unit,
        offset=site.offset,
        endOffset=site.end_offset,
        line=site.line,
        column=site.column,
        readableLine=place[0],
        readable=place[1],
        constructor=site.constructor,
        form=site.form,
        callee=site.callee,
        calleeRole=site.callee_role,
        argCount=site.arg_count,
        message=site.message,
        level=site.level,
        levelSource=site.level_source,
        levelCandidates=site.level_candidates,  # type: ignore[arg-type]
        scope=site.scope,
        consumer=site.consumer,
        module=modules.module_of(unit, site.offset),
        origin=modules.origin_of(unit, site.offset),
        context=site.context,
    )


def _reference_items(units: list[UnitFacts]) -> list[ReferenceItem]:
    """Every unit's items, with the fp1b of the bindings that may root a `references` entry."""
    keyed = [
        ((u.unit.name, u.references.items[position].offset, slot), digest)
        for u in units if u.references is not None
        for (position, name), digest in u.binding_digests.items()
        for slot in [u.references.items[position].declares.index(name)]
    ]
    keyed.sort(key=lambda pair: pair[0])
    fingerprints, copies = binding_identities([d for _, d in keyed], [k for k, _ in keyed])
    identity = {key: (fp, c) for (key, _), fp, c in zip(keyed, fingerprints, copies)}
    out = []
    for unit in units:
        if unit.references is None:
            continue
        helpers = unit.references.helpers
        for item in unit.references.items:
            declares = []
            for slot, name in enumerate(item.declares):
                fingerprint, copy = identity.get((unit.unit.name, item.offset, slot), (None, None))
                declares.append(DeclaredBinding(name, fingerprint, copy, name in helpers))
            out.append(ReferenceItem(
                schema=REFERENCE_ITEM_SCHEMA, id=f"i:{unit.unit.name}@{item.offset}", unit=unit.unit.name,
                offset=item.offset, endOffset=item.end_offset, declares=tuple(declares), references=item.references,
            ))
    return out


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
