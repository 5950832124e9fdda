"""The scan pipeline: load -> parse/extract (per unit) -> identity -> records."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from analyzer.bundle.load import Embedded, load_bundle
from analyzer.errors import InvariantError
from analyzer.forked import ChildLost, Side, can_fork
from analyzer.identity import ANCHOR_LIMIT, callsite_fingerprints, function_fingerprints, scan_fingerprints
from analyzer.javascript.classes import ClassFacts
from analyzer.javascript.extract import HELPER_MIN_BYTES, SiteFacts, UnitFacts, extract_unit
from analyzer.javascript.modules import BundleModules, UnitEvidence, bundle_modules
from analyzer.javascript.speculate import ChunkFacts, chunks_of, facts_ahead
from analyzer.model import CALLSITE_SCHEMA, ERROR_CLASS_SCHEMA, Callsite, ErrorClass, Unit
from analyzer.reports.readable import Rendering, render
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
    #: unit name -> readable rendering
    renderings: dict[str, Rendering]
    #: bundler modules and source-map evidence of every unit
    modules: BundleModules | None = None
    #: a Bun executable's embedded modules, scanned or not (empty otherwise)
    embedded: list[Embedded] = field(default_factory=list)
    #: the fingerprints' anchor limit of the frontend that made the facts (its unit is the frontend's)
    anchor_limit: int = ANCHOR_LIMIT


def scan(path: Path, rules: JavaScriptRules | PythonRules, logger: str | None = None, jobs: int = 1) -> ScanResult:
    if isinstance(rules, PythonRules):
        return _scan_python(path, rules, jobs)
    units, embedded = load_bundle(path)
    helper = jobs > 1 and can_fork()
    side = Side(lambda send, wanted: _side_work(path, units, rules, logger, send, wanted)) if helper else None
    ahead = _worked_ahead(units)
    try:
        facts = [
            extract_unit(unit, rules, logger, path, helper, _ahead(side) if side is not None and i == ahead else None)
            for i, unit in enumerate(units)
        ]
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
    bundle = BundleInput(name=path.name, sha256=digest, size=path.stat().st_size)
    renderings = {unit.name: text for unit, text in zip(units, rendered)}
    modules = bundle_modules([(u.unit, _evidence(u), [(s.kind, s.offset) for s in u.sites]) for u in facts])
    callsites = _callsites(facts, renderings, modules)
    return ScanResult(bundle, rules, facts, callsites, _classes(facts), renderings, modules, embedded)


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

    found = scan_python(path, rules, jobs)
    bundle = BundleInput(name=found.bundle.name, sha256=found.bundle.sha256, size=found.bundle.size)
    callsites = _callsites(found.units, found.renderings, found.modules)
    return ScanResult(bundle, rules, found.units, callsites, _classes(found.units), found.renderings,  # type: ignore[arg-type]
                      found.modules, anchor_limit=PYTHON_ANCHOR_LIMIT)


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _callsites(units: list[UnitFacts], renderings: dict[str, Rendering], modules: BundleModules) -> list[Callsite]:
    located = [(u.unit.name, site) for u in units for site in u.sites]
    fingerprints = callsite_fingerprints([site.identity for _, site in located])
    functions = sorted(
        {
            (name, s.function_offset): s.function_digest
            for name, s in located
            if s.function_digest is not None and s.function_offset is not None
        }.items()
    )
    function_fps: dict[tuple[str, int | None], str] = dict(
        zip([key for key, _ in functions], function_fingerprints([d for _, d in functions], [k for k, _ in functions]))
    )
    readable: dict[tuple[str, int], int] = {}
    for unit in units:
        offsets = sorted({site.offset for site in unit.sites})
        if not offsets:
            continue  # a unit without callsites needs no rendering (Python writes none)
        readable.update(zip(((unit.unit.name, o) for o in offsets), renderings[unit.unit.name].lines_of(offsets)))
    records = [
        _record(name, site, fingerprint, function_fps.get((name, site.function_offset)), readable[(name, site.offset)],
                modules)
        for (name, site), fingerprint in zip(located, fingerprints)
    ]
    return sorted(records, key=lambda r: (r.unit, r.offset, r.kind))


def _record(
    unit: str, site: SiteFacts, fingerprint: str, function_fp: str | None, readable_line: int, modules: BundleModules
) -> Callsite:
    return Callsite(
        schema=CALLSITE_SCHEMA,
        kind=site.kind,
        id=f"{_ID_PREFIX[site.kind]}:{unit}@{site.offset}",
        fingerprint=fingerprint,
        functionFingerprint=function_fp,  # type: ignore[arg-type]
        unit=unit,
        offset=site.offset,
        endOffset=site.end_offset,
        line=site.line,
        column=site.column,
        readableLine=readable_line,
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
