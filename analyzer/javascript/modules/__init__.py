"""The module map of a minified bundle: which bundled module each byte of a unit belongs to
(docs/modules.md, "Modules found by shape"). Each bundler format is one module with one
`find(Where) -> Found` (`finder`), listed in `FINDERS`; `loose` finds the code outside every
module, `evidence` lets a source map split it by original file, `rows` makes modules.jsonl."""

from __future__ import annotations

from tree_sitter import Tree

from analyzer.facts import MODULE_SCHEMA, BundledModule, BundleModules
from analyzer.javascript.modules import browserify, esbuild, webpack
from analyzer.javascript.modules.finder import Finder, Where
from analyzer.javascript.modules.loose import loose_pieces, without_duplicates
from analyzer.javascript.modules.patterns import Literals
from analyzer.javascript.modules.rows import UnitEvidence, bundle_modules, unit_evidence
from analyzer.javascript.modules.spans import ModuleMap, ModuleSpan
from analyzer.javascript.modules.statements import StatementLists, main_container

__all__ = [
    "FINDERS", "MODULE_SCHEMA", "BundleModules", "BundledModule", "ModuleMap", "UnitEvidence", "bundle_modules",
    "find_modules", "main_container", "unit_evidence",
]  # fmt: skip

#: every bundler format's module finder, in the order their modules are taken (a new format:
#: its module, with its byte patterns and its `find`, and one line here; docs/modules.md)
FINDERS: tuple[Finder, ...] = (
    esbuild.find,
    webpack.find,
    browserify.find,
)


def find_modules(tree: Tree, source: bytes, lists: StatementLists | None = None) -> ModuleMap:
    """`lists`: the tree's statement lists (`unit_tree.UnitTree.statement_lists`), else made here."""
    root = tree.root_node if lists is None else lists.root
    lists = lists or StatementLists(root, main_container(root))
    rows = lists.main_rows(source)
    where = Where(root, source, Literals(source), lists, rows)
    modules: list[ModuleSpan] = []
    helpers: dict[str, str] = {}
    for finder in FINDERS:
        found = finder(where)
        modules.extend(found.modules)
        helpers.update(found.helpers)
    modules = without_duplicates(modules)
    return ModuleMap(modules=modules, loose=loose_pieces(rows, modules, source), helpers=helpers)
