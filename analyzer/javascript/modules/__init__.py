"""The module map of a minified bundle: which bundled module each byte of a unit belongs to.

Bundlers keep modules apart in two families of shapes, found by what the code does, never by
a helper's name (minifiers rename every helper on every build):

- wrapped modules (`esbuild`): esbuild and Bun `__commonJS`/`__esm` helpers, found by shape,
  and the `var X = helper(function ...)` declarations they wrap;
- module tables (`webpack`, `browserify`): an object or array of functions that a runtime
  indexes, each function one module.

Then `loose` finds the top-level code outside every module, `evidence` lets a source map split
it by original file, and `rows` makes the modules.jsonl rows (`records`) of a scan.

A regex over the bytes (`patterns`) finds the few places to look at; the tree is only read
there (the top-level statement list once, then a handful of nodes per module): no walk over
the tree.
"""

from __future__ import annotations

from tree_sitter import Tree

from analyzer.facts import MODULE_SCHEMA, BundledModule, BundleModules
from analyzer.javascript.modules.browserify import browserify_modules
from analyzer.javascript.modules.esbuild import by_container, find_helpers, wrapped_modules
from analyzer.javascript.modules.loose import loose_pieces, without_duplicates
from analyzer.javascript.modules.patterns import Literals
from analyzer.javascript.modules.rows import UnitEvidence, bundle_modules, unit_evidence
from analyzer.javascript.modules.spans import ModuleMap, ModuleSpan
from analyzer.javascript.modules.statements import StatementLists, main_container
from analyzer.javascript.modules.webpack import webpack_modules

__all__ = [
    "MODULE_SCHEMA", "BundleModules", "BundledModule", "ModuleMap", "UnitEvidence", "bundle_modules", "find_modules",
    "main_container", "unit_evidence",
]  # fmt: skip


def find_modules(tree: Tree, source: bytes) -> ModuleMap:
    root = tree.root_node
    lists = StatementLists(root, main_container(root))
    literals = Literals(source)
    helpers = find_helpers(root, literals)
    modules: list[ModuleSpan] = []
    for container, names in by_container(helpers):
        modules.extend(wrapped_modules(lists, container, source, names))
    modules.extend(webpack_modules(root, literals))
    modules.extend(browserify_modules(root, literals))
    modules = without_duplicates(modules)
    loose = loose_pieces(lists, modules, source)
    return ModuleMap(modules=modules, loose=loose, helpers={h.name: h.role for h in helpers})
