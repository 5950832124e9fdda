"""A JavaScript input (a bundle, a Bun executable, a directory or an archive) -> `FrontendScan`: load, then each unit's
facts (`extract_unit`), the input's hash and the readable renderings, the bundler modules.

The work is written in order and handed to the executor the scan is given
(`analyzer.parallel.executor`): the hash and the renderings are started ahead (they need no
tree, and may be made during the parse), each unit's tasks after its parse are mapped. Any
executor gives the same output.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path

from tree_sitter import Tree

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
from analyzer.javascript.unit_extras import JAVASCRIPT_UNIT
from analyzer.limits import limit_memory
from analyzer.model import Unit
from analyzer.parallel.executor import Inline
from analyzer.places import TreeManifests, tree_place
from analyzer.readable import Rendering, render
from analyzer.rules import Rules
from analyzer.trace import mark


def scan_javascript(
    path: Path, rules: Rules, logger: str | None, executor: Inline, signatures: bool = False
) -> FrontendScan:
    compiled = compile_rules(rules)
    with progress.phase(f"reading {file_name(path)}"):
        tree = load_javascript_tree(path) if is_tree(path) else None
        units, embedded = (tree.units, []) if tree is not None else load_bundle(path)
    limit_memory(sum(len(unit.source) for unit in units))  # in an isolated scan: the bound from here on
    digest_of: Callable[[], str] = (lambda: tree.sha256) if tree is not None else (lambda: _sha256(path))
    ahead = executor.ahead(lambda: _rendered(digest_of, units), sum(len(unit.source) for unit in units))
    facts = []
    trees: list[Tree] | None = [] if signatures else None  # else each unit's tree is freed after its facts
    archive = TreeManifests(tree.manifests) if tree is not None and tree.manifests is not None else None
    for unit in units:
        place = tree_place(path, unit.name, archive) if tree is not None else None
        with progress.phase(f"finding callsites in {unit.name}"):
            facts.append(extract_unit(unit, compiled, logger, path, executor, place, trees))
    digest, rendered = ahead.take()
    mark("scan: hash and renderings in")
    with progress.phase("modules"):
        modules = bundle_modules([(u.unit, _evidence(u), [(s.kind, s.offset) for s in u.sites]) for u in facts])
    return FrontendScan(
        name=tree.name if tree is not None else file_name(path), sha256=digest,
        size=tree.size if tree is not None else path.stat().st_size, units=facts,
        renderings={unit.name: text for unit, text in zip(units, rendered)}, modules=modules,
        anchor_limit=ANCHOR_LIMIT, embedded=embedded,
        signatures=_signatures(units, trees) if trees is not None else None,
    )


def _rendered(digest_of: Callable[[], str], units: list[Unit]) -> tuple[str, list[Rendering]]:
    """The input's sha256 and every unit's readable rendering."""
    return digest_of(), [render(unit.source) for unit in units]


def _signatures(units: list[Unit], trees: list[Tree]) -> bytes:
    """Corpus signatures from the trees this scan parsed (one per unit)."""
    from analyzer.javascript.corpus import render_signatures

    if len(trees) != len(units) or any(t.root_node.end_byte != len(u.source) for t, u in zip(trees, units)):
        raise InvariantError("corpus signatures: the scan's trees are not its units'")
    signature_rows = render_signatures(units, trees)
    mark("scan: corpus signatures made")
    return signature_rows


def _evidence(unit: UnitFacts) -> UnitEvidence:
    extras = unit.extra(JAVASCRIPT_UNIT)
    if extras is None:
        raise InvariantError(f"{unit.unit.name}: extracted without its module evidence")
    return extras.evidence


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()
