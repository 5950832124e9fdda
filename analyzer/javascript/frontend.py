"""A JavaScript input (a bundle, a Bun executable, a directory or an archive) -> `FrontendScan`: load, then each unit's
facts (`extract_unit`), the input's hash and the readable renderings, the bundler modules.

The work is written in order; the workers a scan may use (`runner.workers_for`) only change
where parts of it run:

- the rendering worker, forked before the parse, hashes the input and makes the renderings,
  sending typed messages (`InputDigest`, `Renderings`);
- the helper, forked after the parse of a big unit, shares the unit's work (`runner.Forked`).

Workers run at a lower priority (`runner.WORKER_NICENESS`). A lost or late worker costs time,
never output: this process then does the work itself.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from analyzer import progress
from analyzer.bundle.javascript_trees import load_javascript_tree
from analyzer.bundle.languages import is_tree
from analyzer.bundle.load import file_name, load_bundle
from analyzer.errors import InvariantError
from analyzer.facts import FrontendScan, UnitFacts
from analyzer.javascript.extract import extract_unit
from analyzer.javascript.modules import UnitEvidence, bundle_modules
from analyzer.javascript.normalize import ANCHOR_LIMIT
from analyzer.javascript.rules import compile_rules
from analyzer.javascript.runner import WORKER_NICENESS, Forked, InProcess, Runner, Workers
from analyzer.limits import limit_memory
from analyzer.model import Unit
from analyzer.parallel.forked import LOST, Side
from analyzer.readable import Rendering, render
from analyzer.rules import Rules
from analyzer.trace import mark

#: inputs and units smaller than this are not worth a worker (a fork and its pickles)
WORKER_MIN_BYTES = 1 << 20


@dataclass(frozen=True, slots=True)
class InputDigest:
    """The rendering worker's first message: the input's sha256."""

    sha256: str


@dataclass(frozen=True, slots=True)
class Renderings:
    """The rendering worker's second message: every unit's readable rendering, in unit order."""

    renderings: list[Rendering]


def scan_javascript(
    path: Path, rules: Rules, logger: str | None, workers: Workers, signatures: bool = False
) -> FrontendScan:
    compiled = compile_rules(rules)
    with progress.phase(f"reading {file_name(path)}"):
        tree = load_javascript_tree(path) if is_tree(path) else None
        units, embedded = (tree.units, []) if tree is not None else load_bundle(path)
    limit_memory(sum(len(unit.source) for unit in units))  # in an isolated scan: the bound from here on
    digest_of: Callable[[], str] = (lambda: tree.sha256) if tree is not None else (lambda: _sha256(path))
    side = _render_worker(digest_of, units, workers)
    try:
        facts = []
        for unit in units:
            with progress.phase(f"finding callsites in {unit.name}"):
                facts.append(extract_unit(unit, compiled, logger, path, _runner_for(unit, workers)))
        digest, rendered = _from_side(side)
    finally:
        if side is not None:
            side.stop()
    if digest is None or rendered is None:
        digest, rendered = digest_of(), [render(unit.source) for unit in units]
    mark("scan: hash and renderings in")
    with progress.phase("modules"):
        modules = bundle_modules([(u.unit, _evidence(u), [(s.kind, s.offset) for s in u.sites]) for u in facts])
    return FrontendScan(
        name=tree.name if tree is not None else file_name(path), sha256=digest,
        size=tree.size if tree is not None else path.stat().st_size, units=facts,
        renderings={unit.name: text for unit, text in zip(units, rendered)}, modules=modules,
        anchor_limit=ANCHOR_LIMIT, embedded=embedded, signatures=_signatures(units) if signatures else None,
    )


def _render_worker(digest_of: Callable[[], str], units: list[Unit], workers: Workers) -> Side | None:
    """The rendering worker, forked now (before the parse), when it is on and worth a fork."""
    if not workers.render or sum(len(unit.source) for unit in units) < WORKER_MIN_BYTES:
        return None
    side = Side(lambda send: _render_ahead(digest_of, units, send), WORKER_NICENESS)
    mark("scan: render worker forked")
    return side


def _runner_for(unit: Unit, workers: Workers) -> Runner:
    """The one place that decides where a unit's shared work runs."""
    return Forked if workers.helper and len(unit.source) >= WORKER_MIN_BYTES else InProcess


def _from_side(side: Side | None) -> tuple[str | None, list[Rendering] | None]:
    """The worker's hash and renderings if they are here; a worker still at them is late (a
    busy machine), and this process makes them itself rather than wait."""
    if side is None:
        return None, None
    digest, rendered = side.peek(InputDigest), side.peek(Renderings)
    if digest is LOST or rendered is LOST:
        mark("scan: render worker late, stopped")
        return None, None
    return digest.sha256, rendered.renderings


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


def _render_ahead(digest_of: Callable[[], str], units: list[Unit], send: Callable[[object], None]) -> None:
    """In the worker forked before the parse: the input's hash and the readable renderings."""
    send(InputDigest(digest_of()))
    send(Renderings([render(unit.source) for unit in units]))
    mark("side: renderings sent")


def _evidence(unit: UnitFacts) -> UnitEvidence:
    if unit.evidence is None:
        raise InvariantError(f"{unit.unit.name}: extracted without its module evidence")
    return unit.evidence


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()
