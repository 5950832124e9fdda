"""The one signature of a bundler's module finder: handed a unit (`Where`), it returns the
modules it recognised and the runtime helpers it found them by (`Found`). The finders are one
table, `analyzer.javascript.modules.FINDERS`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from tree_sitter import Node

from analyzer.javascript.modules.patterns import Literals
from analyzer.javascript.modules.spans import ModuleSpan
from analyzer.javascript.modules.statement_rows import StatementRows
from analyzer.javascript.modules.statements import StatementLists


@dataclass(frozen=True, slots=True)
class Where:
    """A unit as every finder reads it."""

    root: Node
    source: bytes
    #: the literals the finders' byte patterns hang on, each found once per unit
    literals: Literals
    #: the statement lists bundled code lives in, read once per unit
    lists: StatementLists
    #: the rows of the main list's statements (docs/slices.md, stage 3d): what a finder reads
    #: across them
    rows: StatementRows


@dataclass(frozen=True, slots=True)
class Found:
    modules: list[ModuleSpan]
    #: runtime helper name -> role (`commonjs`, `esm`, `export`), found by shape
    helpers: dict[str, str] = field(default_factory=dict)


Finder = Callable[[Where], Found]
