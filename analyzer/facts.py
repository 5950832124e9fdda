"""What every frontend produces for a unit, before fingerprints: the language-neutral contract
between a frontend (`javascript/`, `python/`) and the shared stages. No parser here.

What only some frontends produce lives in the unit's side table (`UnitFacts.extras`), keyed by a
`Capability` as LibCST keys its metadata providers' results: a shared stage asks
`facts.extra(REFERENCES)` and reads the value through the protocol the key names, never
importing the frontend that made it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar, cast

from analyzer.handler_model import BranchTest, CaughtClass
from analyzer.identity import IdentityInput

# the modules.jsonl schema is the records' (a verb reading a scan directory never imports this module)
from analyzer.model import MODULE_SCHEMA as MODULE_SCHEMA
from analyzer.model import (
    CalleeRole,
    CauseKept,
    Consumer,
    Context,
    Disposition,
    Fate,
    HandlerForm,
    Message,
    Module,
    ModuleKind,
    Origin,
    PackageRoot,
    Scope,
    SourceBody,
    SourcePlace,
    Unit,
)

if TYPE_CHECKING:  # annotations only: what a FrontendScan carries beside the units
    from analyzer.bundle.load import Embedded
    from analyzer.readable import Rendering

T = TypeVar("T")


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
    callee_role: CalleeRole
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
    #: what becomes of an error, from a frontend that follows it (None: diagnostics, not followed)
    flow: FlowFacts | None = None


@dataclass(frozen=True, slots=True)
class FlowFacts:
    """What becomes of an error callsite's error in its function (`model.Flow`), its handler by offset."""

    fate: Fate | None
    #: the offset of the innermost handler that catches it directly, else None
    handler: int | None
    escapes: bool | None
    fields: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class DispositionFacts:
    """One disposition of a handler's branch, its callsites by offset (ids are made later)."""

    kind: Disposition
    cause: CauseKept | None
    #: offsets of the error (`wrap`) or diagnostic (`log`) callsites it links
    sites: tuple[int, ...]
    callee: str | None
    #: `wrap` (Python): the `raise` names a cause other than the caught value (`from None`): the
    #: caught error is dropped on purpose (docs/reference.md, "Handler records")
    suppressed: bool = False


@dataclass(frozen=True, slots=True)
class BranchFacts:
    test: BranchTest | None
    dispositions: tuple[DispositionFacts, ...]


@dataclass(frozen=True, slots=True)
class HandlerFacts:
    """Everything about one handler except its fingerprint and its sources (`UnitHandlers.caught`)."""

    offset: int
    end_offset: int
    line: int
    column: int
    form: HandlerForm
    param: str | None
    scope: Scope
    branches: tuple[BranchFacts, ...]
    in_error_region: bool
    #: kind `handler`, role the form (docs/fingerprints.md, "Handler fingerprint")
    identity: IdentityInput
    #: Python: the classes the `except` clause names (None: a bare `except:`); unused otherwise
    catches: tuple[CaughtClass, ...] | None = None
    #: the body is one statement, `throw` (`raise`) of the caught value: nothing else runs
    lone_rethrow: bool = False


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
class Capability(Generic[T]):
    """A fact only some frontends produce for a unit, and the key of its entry in the unit's side
    table: `facts.extra(capability)` is a `T`, or None from a frontend that does not produce it.
    Keys are equal by name, so a side table read back from another process is still found."""

    #: what the fact is (one name per capability)
    name: str

    def entry(self, value: T) -> tuple[Capability[Any], object]:
        """The side table's entry of `value`, type-checked against the capability."""
        return self, value


@dataclass(frozen=True, slots=True)
class LoggerDeclaration:
    """Where the logger's binding is declared."""

    offset: int
    line: int
    #: what declares it (`var`, `const`, `function`, `param`, ...)
    kind: str


@dataclass(frozen=True, slots=True)
class LoggerFacts:
    """The unit's diagnostic logger (the summary's `loggers`); the evidence it was chosen on is
    the frontend's, in the side table (`LOGGER_DETECTION`, `LOGGING_BINDINGS`)."""

    unit: str
    #: the logger's name, None when the unit has none
    name: str | None
    #: how it was chosen: `detected`, `option`, `none` (JavaScript), `python`
    source: str
    declaration: LoggerDeclaration | None


@dataclass(frozen=True, slots=True)
class UnitFacts:
    unit: Unit
    sites: list[SiteFacts]
    classes: list[ClassFacts]
    logger: LoggerFacts
    #: call/new sites of a tracked name whose callee resolves to a local binding
    shadowed: dict[str, int]
    error_regions: list[ErrorRegion]
    #: callsites found but left out: the parser recovered them into a shape facts cannot be
    #: read from (`CALLSITES_FOUND` = inventoried + left out, checked in the summary)
    left_out: tuple[LeftOut, ...]
    #: the side table: what only this unit's frontend produces, by capability (`extra`)
    extras: Mapping[Capability[Any], object]

    def extra(self, capability: Capability[T]) -> T | None:
        """The unit's `capability` fact, or None when its frontend does not produce it."""
        return cast("T | None", self.extras.get(capability))


# ---- capabilities: what a shared stage may ask a unit for -----------------------------------

#: callsites found, by kind, by a frontend that may leave some out (the summary's `leftOut`)
CALLSITES_FOUND: Capability[Mapping[str, int]] = Capability("callsites-found")


class TopLevelItem(Protocol):
    """One piece of top-level code of a reference graph (docs/references.md)."""

    @property
    def offset(self) -> int: ...
    @property
    def end_offset(self) -> int: ...
    #: top-level names it declares, in source order
    @property
    def declares(self) -> tuple[str, ...]: ...
    #: top-level names it references, sorted
    @property
    def references(self) -> tuple[str, ...]: ...


class ReferenceFacts(Protocol):
    """A unit's reference graph: its top-level items and the bindings they declare and reference."""

    @property
    def items(self) -> Sequence[TopLevelItem]: ...
    #: names of bundler runtime helpers, never owned by reference
    @property
    def helpers(self) -> frozenset[str]: ...
    #: (item, name) pairs resolved occurrence by occurrence (the summary's `resolvedByScopeWalk`)
    @property
    def walked(self) -> int: ...
    #: (item position, name) -> digest of the bindings that may root a `references` entry
    @property
    def binding_digests(self) -> Mapping[tuple[int, str], bytes]: ...


#: the unit's reference graph (`references.jsonl`)
REFERENCES: Capability[ReferenceFacts] = Capability("references")


class Vendoring(Protocol):
    """A dependency shipped inside the input (`pkg/_vendor/<dependency>/`)."""

    @property
    def dependency(self) -> str: ...
    @property
    def root(self) -> str: ...
    @property
    def distribution(self) -> str | None: ...


class PackageModuleFacts(Protocol):
    """The unit as a module of a package: its dotted name, vendoring, and why it was not parsed."""

    @property
    def module(self) -> str: ...
    @property
    def vendored(self) -> Vendoring | None: ...
    @property
    def parse_error(self) -> str | None: ...


#: the unit as a module of a package (the summary's `loggers[]` `module`, `vendored`, `parseError`)
PACKAGE_MODULE: Capability[PackageModuleFacts] = Capability("package-module")


class LoggerCandidate(Protocol):
    """A binding considered as the unit's logger, and what was counted for it."""

    @property
    def name(self) -> str: ...
    #: where its binding is declared, None for the global name
    @property
    def declaration_offset(self) -> int | None: ...
    @property
    def calls(self) -> int: ...
    #: calls passing a literal `{level: ...}` option
    @property
    def level_option_calls(self) -> int: ...
    #: its declaration has a default `{level: "debug"}` options parameter
    @property
    def default_level_declaration(self) -> bool: ...
    #: the literal levels its calls pass, by level; None when not listed (a logger named by `--logger`)
    @property
    def levels(self) -> Mapping[str, int] | None: ...


class LoggerDetection(Protocol):
    """Why the unit's logger was chosen among its candidates (the summary's `loggers[].evidence`)."""

    #: the chosen binding, None when no candidate qualified
    @property
    def chosen(self) -> LoggerCandidate | None: ...
    @property
    def reasons(self) -> Sequence[str]: ...
    #: the next candidates in rank, best first
    @property
    def runner_ups(self) -> Sequence[LoggerCandidate]: ...


#: the logger's detection among candidate bindings (the summary's `loggers[].evidence`)
LOGGER_DETECTION: Capability[LoggerDetection] = Capability("logger-detection")
#: the logging bindings a unit declares, sorted (the summary's `loggers[].evidence` of a package module)
LOGGING_BINDINGS: Capability[Sequence[str]] = Capability("logging-bindings")


@dataclass(frozen=True, slots=True)
class SinkCandidate:
    """A binding called with a caught value, and how often (the sink's `runnerUps`)."""

    name: str
    declaration_offset: int
    calls: int
    #: the unit that declares it, when candidates come from several units (Python); else None
    unit: str | None = None

    def to_json(self) -> dict[str, object]:
        head: dict[str, object] = {"name": self.name}
        if self.unit is not None:
            head["unit"] = self.unit
        return {**head, "declarationOffset": self.declaration_offset, "calls": self.calls}


@dataclass(frozen=True, slots=True)
class SinkEvidence:
    """Why a unit's error sink was chosen, or why none was (the summary's `handlers.sinks`)."""

    unit: str
    #: the sink's name, None when no binding qualified
    name: str | None
    #: (offset, line, kind) of its declaration, None with the name
    declaration: tuple[int, int, str] | None
    #: its calls with a caught value (0 without a sink)
    calls: int
    reasons: tuple[str, ...]
    runner_ups: tuple[SinkCandidate, ...]
    #: (name, calls) of names too common to resolve
    unresolved_names: tuple[tuple[str, int], ...] = ()

    def to_json(self) -> dict[str, object]:
        declaration = None if self.declaration is None else dict(
            zip(("offset", "line", "kind"), self.declaration, strict=True))
        return {"unit": self.unit, "name": self.name, "declaration": declaration, "calls": self.calls,
                "reasons": list(self.reasons), "runnerUps": [c.to_json() for c in self.runner_ups],
                "unresolvedNames": [{"name": n, "calls": c} for n, c in self.unresolved_names]}


@dataclass(frozen=True, slots=True)
class UnitHandlers:
    """A unit's handlers, from a frontend that looks for them (`handlers.jsonl`)."""

    #: catch clauses and promise handlers, in source order
    handlers: list[HandlerFacts]
    #: error callsite offset -> the offset of the handler that catches it directly (thrown in its
    #: protected block, same function)
    caught: Mapping[int, int]
    #: the evidence of the unit's error sink (the summary's `handlers.sinks`); None for a
    #: frontend that does not look for one
    sink: SinkEvidence | None
    #: catch clauses nested too deep in try statements to record (the summary's `handlers.leftOut`)
    left_out: int
    #: handler offset -> (error callsite offset, hops) of the errors thrown in a function called in
    #: its protected block and not caught on the way (docs/reference.md, "Sources")
    called: Mapping[int, tuple[tuple[int, int], ...]] = field(default_factory=dict)
    #: handler offset -> (unit, error callsite offset, hops) of such errors made in another unit
    #: (Python: a function of another module)
    called_elsewhere: Mapping[int, tuple[tuple[str, int, int], ...]] = field(default_factory=dict)


#: the unit's handlers (`handlers.jsonl`, the summary's `handlers` block)
HANDLERS: Capability[UnitHandlers] = Capability("handlers")


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


@dataclass(frozen=True, slots=True)
class FrontendScan:
    """What a frontend hands the shared stages for one input: every frontend returns this."""

    #: the input's file or directory name, its sha256 and size (the summary's `inputs.bundle`)
    name: str
    sha256: str
    size: int
    units: list[UnitFacts]
    #: unit name -> its readable rendering (Python: the unit as written, for units with callsites)
    renderings: dict[str, Rendering]
    #: bundler (or Python package) modules and source-map evidence of every unit
    modules: BundleModules
    #: the fingerprints' anchor limit of this frontend (its unit is the frontend's)
    anchor_limit: int
    #: a Bun executable's embedded modules, scanned or not (empty otherwise)
    embedded: list[Embedded] = field(default_factory=list)
    #: `function-signatures.jsonl` for corpus matching, when asked for (`scan --signatures`)
    signatures: bytes | None = None


# ---- module rows (modules.jsonl): made by every frontend ------------------------------------

@dataclass(frozen=True, slots=True)
class BundledModule:
    """One line of modules.jsonl."""

    schema: str
    id: str
    unit: str
    kind: ModuleKind
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
    #: the bundle's package root, for a used map (None: no package.json above the bundle)
    root: PackageRoot | None = None
    #: where each distinct source lies, for a used map (map-sources.jsonl)
    places: tuple[SourcePlace, ...] = ()


class BundleModules:
    """Every unit's modules with fingerprints, and each callsite's module and origin."""

    def __init__(self, rows: list[BundledModule], records: dict[tuple[str, int], Module],
                 origins: dict[tuple[str, int], Origin], maps: list[SourceMapUse],
                 bodies: dict[tuple[str, int], SourceBody] | None = None) -> None:
        self.rows = rows
        self.maps = maps
        self._records = records
        self._origins = origins
        self._bodies = bodies or {}

    def module_of(self, unit: str, offset: int) -> Module | None:
        return self._records.get((unit, offset))

    def origin_of(self, unit: str, offset: int) -> Origin | None:
        return self._origins.get((unit, offset))

    def source_body_of(self, unit: str, offset: int) -> SourceBody | None:
        """What the original body of a catch clause empty in the bundle holds, when the map tells."""
        return self._bodies.get((unit, offset))
