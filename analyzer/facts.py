"""What every frontend produces for a unit, before fingerprints: the language-neutral contract
between a frontend (`javascript/`, `python/`) and the shared stages (`scan`, `reports`). No
parser here: a frontend's trees never outlive its extraction."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from analyzer.identity import IdentityInput
from analyzer.model import Consumer, Context, Message, Scope, Unit

if TYPE_CHECKING:  # JavaScript-only evidence a JavaScript unit carries (annotations only)
    from analyzer.javascript.modules import ModuleMap, UnitEvidence
    from analyzer.javascript.references import UnitReferences


@dataclass(frozen=True, slots=True)
class SiteFacts:
    """Everything about one callsite except its fingerprints."""

    kind: str
    offset: int
    end_offset: int
    line: int
    column: int
    constructor: str | None
    form: str
    callee: str
    callee_role: str
    arg_count: int
    message: Message
    level: str | None
    level_source: str | None
    level_candidates: tuple[str, ...] | None
    scope: Scope
    consumer: Consumer
    context: Context
    identity: IdentityInput
    #: digest and offset of the innermost enclosing function, None at module level
    function_digest: bytes | None
    function_offset: int | None


@dataclass(frozen=True, slots=True)
class ErrorRegion:
    offset: int
    end_offset: int
    line: int
    kind: str  # ERROR or MISSING


@dataclass(frozen=True, slots=True)
class LeftOut:
    """A callsite found but left out of the inventory, and why (summary: `leftOut`)."""

    kind: str
    offset: int
    end_offset: int
    line: int
    reason: str


@dataclass(frozen=True, slots=True)
class UnitFacts:
    unit: Unit
    sites: list[SiteFacts]
    classes: list[ClassFacts]
    logger: dict[str, object]
    #: call/new sites of a tracked name whose callee resolves to a local binding
    shadowed: dict[str, int]
    error_regions: list[ErrorRegion]
    #: bundler modules found by shape (esbuild/Bun wrappers, webpack, browserify)
    modules: ModuleMap | None = None
    #: the modules with source-map evidence, their rows before fingerprints
    evidence: UnitEvidence | None = None
    #: top-level items and the bindings they declare and reference (JavaScript only)
    references: UnitReferences | None = None
    #: (item position, name) -> digest of the bindings that may root a `references` entry
    binding_digests: dict[tuple[int, str], bytes] = field(default_factory=dict)
    #: callsites found but left out: the parser recovered them into a shape facts cannot be
    #: read from (`found` = inventoried + left out, checked in the summary)
    left_out: tuple[LeftOut, ...] = ()
    #: callsites found, by kind (None: a frontend that leaves none out)
    found: dict[str, int] | None = None


@dataclass(frozen=True, slots=True)
class ClassFacts:
    offset: int
    end_offset: int
    line: int
    column: int
    name: str
    parent: str
    root_constructor: str
    fields: tuple[str, ...]
    scope: Scope
    digest: bytes
