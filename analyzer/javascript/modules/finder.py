"""The two halves of a bundler's module finder: `part`, handed a tree (`Where`: the unit's, or
one slice's of it, docs/slices.md), returns what it found there without any node; `merge`,
handed the parts of every tree of the unit in order (`Merging`), returns the unit's modules and
the runtime helpers it found them by (`Found`). The finders are one table,
`analyzer.javascript.modules.FINDERS`."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from tree_sitter import Node

from analyzer.javascript.modules.patterns import Literals
from analyzer.javascript.modules.spans import ModuleSpan
from analyzer.javascript.modules.statement_rows import StatementRows
from analyzer.javascript.modules.statements import StatementLists


@dataclass(frozen=True, slots=True)
class Helper:
    """A runtime helper found by shape (esbuild's `__commonJS`, `__esm`, `__export`)."""

    name: str
    role: str  # commonjs, esm, export
    #: the statement list it is declared in: None for the main list, else the list's bounds
    container: tuple[int, int] | None
    #: (its core pattern, the core match's rank among the unit's): the order the unit finds it in
    order: tuple[int, int] = field(compare=False)


@dataclass(frozen=True, slots=True)
class Where:
    """A tree of a unit as every finder's `part` reads it: the unit's whole tree, or a slice's."""

    root: Node
    source: bytes
    #: the literals the finders' byte patterns hang on, each found once per unit
    literals: Literals
    #: the statement lists bundled code lives in, read once per tree (the main list's first)
    lists: StatementLists
    #: the unit's runtime helpers (`esbuild.unit_helpers`), found before any part runs
    helpers: Sequence[Helper] = ()
    #: the bytes of the unit the tree holds (a slice's range); None for the whole tree
    span: tuple[int, int] | None = None
    #: the main list's ancestors in the head tree, innermost first; empty for the whole tree
    chain: Sequence[Node] = ()
    #: the module table names the unit's webpack runtimes may index (`webpack.table_names`),
    #: looked for in a slice's statements; None for the whole tree (its runtimes' own)
    table_names: frozenset[str] | None = None

    def holds(self, offset: int) -> bool:
        """The tree reads `offset` (a byte match's): each match is read in one tree."""
        return self.span is None or self.span[0] <= offset < self.span[1]


@dataclass(frozen=True, slots=True)
class Merging:
    """What the finders' `merge` reads besides the parts: no tree."""

    source: bytes
    #: the rows of the main list's statements (docs/slices.md, stage 3d), every tree's joined
    rows: StatementRows
    helpers: Sequence[Helper]


@dataclass(frozen=True, slots=True)
class Found:
    modules: list[ModuleSpan]
    #: runtime helper name -> role (`commonjs`, `esm`, `export`), found by shape
    helpers: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Finder:
    """A bundler format's two halves (each format's module defines its `FINDER`)."""

    name: str
    part: Callable[[Where], Any]
    merge: Callable[[Sequence[Any], Merging], Found]
