"""The module map of a minified bundle: which bundled module each byte of a unit belongs to
(docs/modules.md, "Modules found by shape"). Each bundler format is one module with its
`FINDER` (`finder`: a per-tree `part` and a `merge`), listed in `FINDERS`; `loose` finds the
code outside every module, `evidence` lets a source map split it by original file, `rows` makes
modules.jsonl. A unit parsed in slices (docs/slices.md) runs `slice_modules` on each slice's
tree and `unit_modules` on their parts; its whole tree is the one slice."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from tree_sitter import Node, Tree

from analyzer.facts import MODULE_SCHEMA, BundledModule, BundleModules
from analyzer.javascript.modules import browserify, esbuild, webpack
from analyzer.javascript.modules.finder import Finder, Found, Helper, Merging, Where
from analyzer.javascript.modules.loose import loose_pieces, without_duplicates
from analyzer.javascript.modules.patterns import Literals
from analyzer.javascript.modules.rows import UnitEvidence, bundle_modules, unit_evidence
from analyzer.javascript.modules.spans import ModuleMap, ModuleSpan
from analyzer.javascript.modules.statement_rows import StatementRows, joined
from analyzer.javascript.modules.statements import StatementLists, main_container

__all__ = [
    "FINDERS", "MODULE_SCHEMA", "BundleModules", "BundledModule", "ModuleMap", "SliceModules", "UnitEvidence",
    "bundle_modules", "find_modules", "main_container", "modules_within", "slice_modules", "unit_evidence",
    "unit_modules",
]  # fmt: skip

#: every bundler format's module finder, in the order their modules are taken (a new format:
#: its module, with its byte patterns, its `part` and `merge`, and one line here; docs/modules.md)
FINDERS: tuple[Finder, ...] = (
    esbuild.FINDER,
    webpack.FINDER,
    browserify.FINDER,
)


@dataclass(frozen=True, slots=True)
class SliceModules:
    """What one tree of a unit holds of its module map, with no node (docs/slices.md, stage 3)."""

    #: the rows of the tree's statements of the main list
    rows: StatementRows
    #: each finder's part, in `FINDERS`' order; `unit_modules` lets go of each once merged
    parts: list[Any]


def find_modules(tree: Tree, source: bytes, lists: StatementLists | None = None) -> ModuleMap:
    """The module map of a unit's whole tree. `lists`: the tree's statement lists
    (`unit_tree.UnitTree.statement_lists`), else made here."""
    root = tree.root_node if lists is None else lists.root
    lists = lists or StatementLists(root, main_container(root))
    literals = Literals(source)
    helpers = esbuild.unit_helpers([esbuild.find_helpers(Where(root, source, literals, lists))])
    return unit_modules([slice_modules(root, source, literals, lists, helpers)], source, helpers)


def slice_modules(
    root: Node, source: bytes, literals: Literals, lists: StatementLists, helpers: Sequence[Helper], *,
    span: tuple[int, int] | None = None, chain: Sequence[Node] = (), table_names: frozenset[str] | None = None,
) -> SliceModules:
    """The per-tree half: `lists` is the tree's (a slice's: its root is the main list), `helpers`
    the unit's (`esbuild.unit_helpers`), `literals` the unit's, shared by its trees (each match
    is read in the tree that holds it). A slice's tree gives `span` (its range), `chain` (the
    head chain) and `table_names` (`webpack.table_names`)."""
    rows = lists.main_rows(source)  # first: the main list's `Statements` bisect its starts
    where = Where(root, source, literals, lists, helpers, span, chain, table_names)
    return SliceModules(rows, [finder.part(where) for finder in FINDERS])


def unit_modules(parts: Sequence[SliceModules], source: bytes, helpers: Sequence[Helper]) -> ModuleMap:
    """The merge: the unit's module map from every tree's part, in the unit's order. Each
    finder's parts are let go of once merged (esbuild's 2,845 wrappers on a quarter of the
    executable would live on through the loose pieces, and the collector would visit them)."""
    rows = joined([part.rows for part in parts])
    merging = Merging(source, rows, helpers)
    modules: list[ModuleSpan] = []
    found_helpers: dict[str, str] = {}
    for index, finder in enumerate(FINDERS):
        found = finder.merge([part.parts[index] for part in parts], merging)
        for part in parts:
            part.parts[index] = None
        modules.extend(found.modules)
        found_helpers.update(found.helpers)
    modules = without_duplicates(modules)
    return ModuleMap(modules=modules, loose=loose_pieces(rows, modules, source), helpers=found_helpers)


def modules_within(modules: ModuleMap, span: tuple[int, int]) -> ModuleMap:
    """The unit's map as a slice's `references.listing` reads it: the modules starting in its
    range (a module inside one of its items does), the helpers; no loose pieces."""
    return ModuleMap([m for m in modules.modules if span[0] <= m.start < span[1]], [], modules.helpers)


def found_by(finder: Finder, tree: Tree, source: bytes) -> Found:
    """One finder's modules on a whole tree (its part, then its merge)."""
    root = tree.root_node
    lists = StatementLists(root, main_container(root))
    literals = Literals(source)
    helpers = esbuild.unit_helpers([esbuild.find_helpers(Where(root, source, literals, lists))])
    rows = lists.main_rows(source)
    part = finder.part(Where(root, source, literals, lists, helpers))
    return finder.merge([part], Merging(source, rows, helpers))
