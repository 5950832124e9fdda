"""The rows of modules.jsonl and a scan's modules as the rest of the pipeline reads them:
plain records, no parser (the Python frontend builds them too)."""

from __future__ import annotations

from dataclasses import dataclass

from analyzer.model import Module, Origin

MODULE_SCHEMA = "erratlas.module/1"


@dataclass(frozen=True, slots=True)
class BundledModule:
    """One line of modules.jsonl."""

    schema: str
    id: str
    unit: str
    kind: str
    name: str
    fingerprint: str
    offset: int
    endOffset: int
    #: where the module's own code (the wrapper's function, the table entry) begins; code
    #: between `offset` and here is hoisted out of the wrapper (esbuild/Bun `__esm`)
    bodyOffset: int
    line: int
    #: the byte ranges it is made of: [[offset, endOffset]], or the runs of hoisted code of one
    #: original file (source-map modules), which other modules may lie between
    spans: list[list[int]]
    #: the id of the module holding this one (a bundle bundled inside a module), else None
    parent: str | None
    #: the variable the wrapper is assigned to, or the module table's id
    binding: str | None
    #: the path the bundle itself keeps for the module (keep-names, webpack, browserify)
    key: str | None
    #: the original file most of it maps to, from the source map
    source: str | None
    #: the npm package its key or source lies in (`node_modules/<pkg>/`, a bare require)
    package: str | None
    #: packages named by `/*! name vX.Y.Z */`-style license banners in it or right before it
    banners: tuple[str, ...]
    #: packages named by an inlined package.json (`{name:"x",version:"1.2.3"...}`) in it
    manifests: tuple[str, ...]
    evidence: tuple[str, ...]
    #: callsites whose innermost module this is, by kind
    callsites: dict[str, int]


@dataclass(frozen=True, slots=True)
class SourceMapUse:
    """How a unit's source map was used (summary evidence)."""

    unit: str
    #: `inline`, the map's file name, or None when there is none
    map: str | None
    #: used, none, unusable: <why>
    status: str
    #: sha256 of the map's bytes, else None
    sha256: str | None
    sources: int
    #: callsites that got an origin
    mapped: int


class BundleModules:
    """Every unit's modules with fingerprints, and each callsite's module and origin."""

    def __init__(self, rows: list[BundledModule], records: dict[tuple[str, int], Module],
                 origins: dict[tuple[str, int], Origin], maps: list[SourceMapUse]) -> None:
        self.rows = rows
        self.maps = maps
        self._records = records
        self._origins = origins

    def module_of(self, unit: str, offset: int) -> Module | None:
        return self._records.get((unit, offset))

    def origin_of(self, unit: str, offset: int) -> Origin | None:
        return self._origins.get((unit, offset))
