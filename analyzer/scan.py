"""The scan pipeline: load -> parse/extract (per unit) -> identity -> records."""

from __future__ import annotations

import ctypes
import ctypes.util
import hashlib
import multiprocessing
import os
import signal
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from analyzer.bundle.load import load_units
from analyzer.identity import callsite_fingerprints, function_fingerprints, scan_fingerprints
from analyzer.javascript.classes import ClassFacts
from analyzer.javascript.extract import SiteFacts, UnitFacts, extract_unit
from analyzer.javascript.modules import BundleModules, bundle_modules
from analyzer.reports.readable import Rendering, render
from analyzer.model import CALLSITE_SCHEMA, ERROR_CLASS_SCHEMA, Callsite, ErrorClass
from analyzer.rules import JavaScriptRules, PythonRules

_PR_SET_PDEATHSIG = 1
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


def scan(path: Path, rules: JavaScriptRules | PythonRules, logger: str | None = None, jobs: int = 1) -> ScanResult:
    if isinstance(rules, PythonRules):
        return _scan_python(path, rules, jobs)
    units = load_units(path)
    bundle = BundleInput(name=path.name, sha256=_sha256(path), size=path.stat().st_size)
    # the readable renderings are lexed on the other core while this one parses and extracts
    with ProcessPoolExecutor(
        max_workers=1, mp_context=multiprocessing.get_context("fork"), initializer=_tied_to_parent,
        initargs=(os.getpid(),),
    ) as pool:
        pending = [pool.submit(render, unit.source) for unit in units]
        facts = [extract_unit(unit, rules, logger) for unit in units]
        renderings = {unit.name: job.result() for unit, job in zip(units, pending)}
    modules = bundle_modules([(u.unit, u.modules, [(s.kind, s.offset) for s in u.sites]) for u in facts], path)
    callsites = _callsites(facts, renderings, modules)
    return ScanResult(bundle, rules, facts, callsites, _classes(facts), renderings, modules)


def _scan_python(path: Path, rules: PythonRules, jobs: int) -> ScanResult:
    """Python inputs: the libcst frontend gives the same UnitFacts; the rest is shared."""
    from analyzer.python.frontend import scan_python

    found = scan_python(path, rules, jobs)
    bundle = BundleInput(name=found.bundle.name, sha256=found.bundle.sha256, size=found.bundle.size)
    callsites = _callsites(found.units, found.renderings, found.modules)
    return ScanResult(bundle, rules, found.units, callsites, _classes(found.units), found.renderings,  # type: ignore[arg-type]
                      found.modules)


def _tied_to_parent(parent: int) -> None:
    """In the rendering worker: die with the scan (a killed scan leaves no worker behind) and
    hold none of the caller's output pipes open."""
    libc_name = ctypes.util.find_library("c")
    if libc_name is not None:
        ctypes.CDLL(libc_name, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:
        os._exit(0)  # the parent died before the line above took effect
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(devnull, fd)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGHUP, signal.SIG_DFL)


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
        {(name, s.function_offset): s.function_digest for name, s in located if s.function_digest}.items()
    )
    function_fps = dict(
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
