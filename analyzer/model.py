"""The public records of a scan. Every field is set when the record is built."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import MISSING as _NO_DEFAULT
from dataclasses import dataclass, fields
from typing import Any, Literal, TypedDict, TypeVar, cast

#: the languages of a scan's input, one frontend each
Language = Literal["javascript", "python"]

# The vocabularies every frontend writes and the JSON Schemas spell out (a test keeps them equal).
#: what a message argument is (docs/reference.md, "Callsite records": `message.shape`)
MessageShape = Literal[
    "string", "template", "call", "identifier", "member-or-call", "conditional", "array", "missing", "expression"]
#: what happens to a callsite's value next (docs/reference.md, "Callsite records": `consumer.role`)
ConsumerRole = Literal[
    "throw", "raise", "return", "reject", "callback", "argument", "assign", "declare", "property", "await", "yield",
    "statement", "operand", "other"]
#: what a callsite calls: an error class, the bundle's logger, `logging`'s functions, `warnings`'s
CalleeRole = Literal["error-constructor", "logger", "logging", "warnings"]
#: the owner classes: every callsite is in exactly one
OwnerClass = Literal["Product", "Dependency", "Unresolved"]
#: how a JavaScript handler catches: a `catch` clause, `.catch(fn)`, the rejection argument of `.then(ok, fn)`
JavaScriptHandlerForm = Literal["catch", "promise-catch", "promise-then"]
#: how a Python handler catches: an `except` or an `except*` clause
PythonHandlerForm = Literal["except", "except*"]
HandlerForm = Literal[JavaScriptHandlerForm, PythonHandlerForm]
#: what a handler's branch does with the caught value (docs/reference.md, "Handler records")
Disposition = Literal[
    "rethrow", "wrap", "log", "report", "return-value", "return-error", "reject", "callback", "retry", "exit", "store",
    "swallow"]
#: what a `wrap` carries of the caught value: all of it, only its message or a field, nothing
CauseKept = Literal["kept", "partial", "lost"]
#: how a branch tests the caught value (`e.code === "X"`, `e instanceof X`, `e.message.includes("x")`)
TestOp = Literal[
    "===", "!==", "==", "!=", "<", "<=", ">", ">=", "instanceof", "!instanceof", "truthy", "falsy", "includes",
    "startsWith", "endsWith", "!includes", "!startsWith", "!endsWith", "predicate", "!predicate", "in", "!in",
    "typeof", "!typeof"]
#: what the reports flag in a handler (docs/reference.md, "Flow rules"): a `swallow` branch, a
#: `wrap` whose new error loses the caught one, a handler that only rethrows what it caught
HandlerFinding = Literal["swallowed-error", "wrap-loses-cause", "useless-catch"]
#: how an error callsite reaches a handler: thrown in its protected block, or through a call made there
SourceVia = Literal["direct", "call"]
#: what the original text of a catch clause whose body is empty in the bundle holds, read through the
#: source map: nothing, only comments, or statements the minifier removed (docs/reference.md, `sourceBody`)
SourceBody = Literal["empty", "comments", "code"]
#: what becomes of an error after its construction, past its immediate consumer (docs/reference.md, "Flow")
Fate = Literal["thrown", "returned", "rejected", "passed", "stored", "logged", "discarded"]
#: the bundler module forms (each found by one of `analyzer.javascript.modules.FINDERS`) and Python's packages
ModuleKind = Literal["cjs", "esm", "webpack", "browserify", "python-package"]
#: the evidence note of a webpack module that marks itself an ES module (`require.r(exports)`): webpack's
#: concatenation may have joined several files in it (docs/modules.md, docs/corpus.md "Matching" 3)
WEBPACK_ES_MODULE = "an ES module (require.r(exports)): it may join several files"

CALLSITE_SCHEMA = "erratlas.callsite/1"
HANDLER_SCHEMA = "erratlas.handler/1"
REFERENCE_ITEM_SCHEMA = "erratlas.reference-item/1"
ERROR_CLASS_SCHEMA = "erratlas.error-class/1"
MAP_SOURCE_SCHEMA = "erratlas.map-source/1"
MODULE_SCHEMA = "erratlas.module/1"
#: where a source map's source lies against the bundle's package (analyzer/places.py)
PLACES = ("package", "node_modules", "outside", "unplaced")


@dataclass(frozen=True, slots=True)
class Unit:
    """One source text of a bundle."""

    #: name inside the bundle (file name, or embedded path)
    name: str
    #: the bytes as shipped
    source: bytes
    #: sha256 of `source`, hex
    sha256: str


@dataclass(frozen=True, slots=True)
class Message:
    shape: MessageShape
    #: the literal when static, else None
    text: str | None
    #: normalized text with ${} holes, else None
    template: str | None
    #: stable grouping key derived from the message, never from minified names
    comparisonKey: str


#: the message of a callsite without a message argument
MISSING = Message(shape="missing", text=None, template=None, comparisonKey="<missing>")

#: the longest normalized expression a comparisonKey keeps whole
KEY_LIMIT = 400


def expression_key(shape: MessageShape, normalized: str) -> str:
    """The comparisonKey of a message that is an expression, the same form in every frontend:
    `<shape:normalized source>` (names `_`; property names and literals kept), cut at
    KEY_LIMIT characters and followed by a digest of the whole when longer."""
    if len(normalized) > KEY_LIMIT:
        digest = hashlib.blake2b(normalized.encode("utf-8", "surrogatepass"), digest_size=8).hexdigest()
        normalized = f"{normalized[:KEY_LIMIT]}…#{digest}"
    return f"<{shape}:{normalized}>"


@dataclass(frozen=True, slots=True)
class Scope:
    #: outermost -> innermost, each `kind:name@offset`
    scopePath: tuple[str, ...]
    #: innermost function name, `<anonymous>` if none
    function: str
    #: function, arrow, method, getter, setter, constructor, generator, async-..., module, ...
    functionKind: str


@dataclass(frozen=True, slots=True)
class Consumer:
    #: AST type of the immediate parent (parentheses skipped)
    node: str
    #: the parent's field or argument slot holding the callsite
    relation: str
    #: what happens to the value next
    role: ConsumerRole


@dataclass(frozen=True, slots=True)
class Context:
    #: inside a catch clause body of the same function
    inCatch: bool
    #: that catch clause's parameter as written, else None
    catchParam: str | None
    #: inside a try block of the same function
    inTry: bool
    #: the parser recovered from a syntax error around this callsite
    inErrorRegion: bool


@dataclass(frozen=True, slots=True)
class Module:
    """The bundler module a callsite lies in (docs/modules.md)."""

    #: exact within this scan: `m:<unit>@<offset>`
    id: str
    kind: ModuleKind
    #: the module's path when the bundle or its source map says, else the binding or table key
    name: str
    #: portable identity `fp1m:...` (renaming-invariant), for module-scope allowlist entries
    fingerprint: str


@dataclass(frozen=True, slots=True)
class Origin:
    """Where a source map says a generated position came from (evidence, never required)."""

    #: the source path as the map names it (sourceRoot joined, `webpack://x/` and `./` removed)
    source: str
    #: 1-based line in that source
    line: int
    #: 1-based column in that source (UTF-16 code units, as source maps count)
    column: int


@dataclass(frozen=True, slots=True)
class PackageRoot:
    """The bundle's own package: the directory of the nearest package.json above it (an
    archive's root when none is inside the archive)."""

    #: the package root relative to the unit's directory (`.`, `..`, ...): the bundle's, for a
    #: bundle given as a file
    path: str
    #: its package.json's `name`, else None
    name: str | None
    #: sha256 of its package.json (an input of the scan); None for an archive's root without one
    sha256: str | None
    #: the packages it depends on (dependencies, dev, peer, optional, bundled), sorted
    depends: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class SourcePlace:
    """One distinct source of a map and where it lies (a map-sources.jsonl row)."""

    #: the source as callsite origins name it (`sourcemap.normalize_source`)
    source: str
    #: where it resolves: relative to the package root (to the bundle's directory when there is
    #: none), or absolute as the map writes it; None when it names no file
    path: str | None
    #: one of PLACES
    place: str
    #: the package it lies in, for `node_modules` and named `outside` sources
    package: str | None
    #: why, in a sentence
    evidence: str


@dataclass(frozen=True, slots=True)
class MapSource:
    """One distinct source of a used source map and where it lies: a `map-sources.jsonl` line
    (a SourcePlace with the unit and the map it belongs to)."""

    schema: str
    unit: str
    #: the map, as the bundle's `sourceMappingURL` (or its name beside the bundle) gives it
    map: str | None
    source: str
    path: str | None
    #: one of PLACES
    place: str
    package: str | None
    evidence: str


@dataclass(frozen=True, slots=True)
class Readable:
    """Where a callsite lies in the readable rendering the scan directory holds."""

    #: the slice file, relative to the scan directory (`readable/cli~03.js`)
    file: str
    #: 1-based line in that file
    line: int
    #: 1-based column in that line, in code points
    column: int


@dataclass(frozen=True, slots=True)
class Copies:
    """Identical code in more than one place of a scan: the members whose fingerprints differ
    only by their ordinal within the scan. Which copy gets ordinal 0 depends on the rest of the
    bundle, so an allowlist entry never relies on it (docs/fingerprints.md, "Copies")."""

    #: members sharing the hash before the scan ordinal, this one included (1: unique)
    count: int
    #: the fingerprint of the group's first member (scan order) when count > 1, else None
    group: str | None


@dataclass(frozen=True, slots=True)
class Flow:
    """What becomes of an error callsite's error in its function (docs/reference.md, "Flow")."""

    #: what the local data flow past the immediate consumer does with it, None when it is not followed
    fate: Fate | None
    #: the id of the innermost handler that catches it directly (its `sources` list it), else None
    handler: str | None
    #: whether it leaves its function: thrown outside any catching handler there, returned or
    #: rejected; None when the fate is
    escapes: bool | None
    #: the properties set on it between its construction and its fate (`code`, `cause`, ...), sorted
    fields: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Callsite:
    schema: str
    kind: str
    id: str
    fingerprint: str
    #: callsites of this scan identical to this one (same fingerprint but for the ordinal)
    copies: Copies
    #: fingerprint of the innermost enclosing function (fp1f), for function-scope reviews; None at module level
    functionFingerprint: str | None
    #: functions of this scan identical to that function, None at module level
    functionCopies: Copies | None
    unit: str
    offset: int
    endOffset: int
    line: int
    column: int
    #: line of this callsite in the unit's whole readable rendering (its slices, concatenated)
    readableLine: int
    #: the slice file of the rendering that holds it, and its line and column there
    readable: Readable
    constructor: str | None
    form: str
    callee: str
    calleeRole: CalleeRole
    argCount: int
    message: Message
    level: str | None
    levelSource: str | None
    #: the literal levels a dynamic level expression can yield (diagnostics), else None
    levelCandidates: tuple[str, ...] | None
    scope: Scope
    consumer: Consumer
    module: Module | None
    #: the original source position from the bundle's source map, else None
    origin: Origin | None
    context: Context
    #: what becomes of an error (JavaScript), else None: diagnostics, and Python's errors for now;
    #: a scan directory written before flow is read with None
    flow: Flow | None = None


@dataclass(frozen=True, slots=True)
class ErrorClass:
    schema: str
    id: str
    fingerprint: str
    unit: str
    offset: int
    endOffset: int
    line: int
    column: int
    #: class name as written (minified), or the binding it is assigned to, or `<anonymous>`
    name: str
    #: the heritage expression as written
    parent: str
    #: the error class the chain ends in (`Error`, `TypeError`, ...)
    rootConstructor: str
    #: machine fields the class sets: `this.X = ...` in its constructor, and class fields
    fields: tuple[str, ...]
    scope: Scope


@dataclass(frozen=True, slots=True)
class DeclaredBinding:
    """A top-level binding an item declares (docs/references.md)."""

    #: the name as written (minified; unique among the unit's top-level bindings)
    name: str
    #: portable identity `fp1b:...` when the binding may root a `references` entry (its item
    #: holds a callsite, or it is the logger), else None
    fingerprint: str | None
    #: identical declarations in this scan, when it has a fingerprint
    copies: Copies | None
    #: a bundler runtime helper (found by shape): never owned by reference
    helper: bool


@dataclass(frozen=True, slots=True)
class ReferenceItem:
    """One piece of top-level code of a unit and the top-level bindings it declares and
    references, resolved through scopes (`references.jsonl`)."""

    schema: str
    #: `i:<unit>@<offset>`
    id: str
    unit: str
    offset: int
    endOffset: int
    declares: tuple[DeclaredBinding, ...]
    #: the top-level names it references (sorted)
    references: tuple[str, ...]


class ChainLink(TypedDict):
    """One link of a `references` chain (docs/references.md): the item that names or declares
    the binding, and the binding's fp1b fingerprint when it has one."""

    item: str
    binding: str
    fingerprint: str | None


class _EntryEvidence(TypedDict):
    #: the owning entry's `file:line`, its match level and fingerprint
    entry: str
    level: str
    fingerprint: str


class OwnerEvidence(_EntryEvidence, total=False):
    """What owns a callsite or a handler (docs/owners.md): the entry, and for a `references`
    entry the chain from the item back to its root. Written as it is held, in this key order."""

    chain: list[ChainLink]


@dataclass(frozen=True, slots=True)
class ProjectionRow:
    """One callsite's owner: a line of the projection (docs/reference.md, "A scan directory")."""

    schema: str
    id: str
    fingerprint: str
    kind: str
    owner: OwnerClass
    #: the package of a Dependency, else None
    package: str | None
    #: the reviewed function name the owning entry gives, else None
    function: str | None
    catchOwner: str | None
    retryOwner: str | None
    toolResultOwner: str | None
    userSurfaceOwner: str | None
    #: what owns it: the entry `{entry, level, fingerprint}` and a `references` entry's `chain`
    evidence: OwnerEvidence | None


@dataclass(frozen=True, slots=True)
class SuggestionEvidence:
    #: source-map, module-key, license-banner, package-json, signature, corpus-..., carried-from, ...
    kind: str
    detail: str


@dataclass(frozen=True, slots=True)
class Candidate:
    """An owner the identical copies of an ambiguous callsite suggestion point to."""

    owner: str
    package: str | None
    #: how many of the copies point to it
    callsites: int


@dataclass(frozen=True, slots=True)
class Suggestion:
    """A proposed allowlist entry, a line of `suggestions.jsonl` (docs/owners.md): it owns
    nothing until a reviewer accepts it."""

    schema: str
    id: str
    level: str
    #: `{level: fingerprint}`
    match: dict[str, str]
    #: N when the entry names N identical copies together, else None
    copies: int | None
    #: the fingerprints just before and after the one copy it names, else None
    neighbours: tuple[str, ...] | None
    #: None only when ambiguous
    owner: str | None
    package: str | None
    function: str | None
    expect: str | None
    confidence: str
    evidence: tuple[SuggestionEvidence, ...]
    #: an ambiguous suggestion's candidates: its copies' owners, or (a corpus row) package names
    candidates: tuple[Candidate | str, ...] | None
    callsites: int
    exampleIds: tuple[str, ...]
    #: the product-root suggestion that already reaches its callsites, else None
    reachedBy: str | None
    reason: str


def slots_twin(record: type) -> type | None:
    """A class of `record`'s base with `record`'s own slots and plain attribute assignment: an
    object made of it and filled takes `record` as its class (CPython allows it between classes of
    one layout), and is then what `record(...)` makes, at a third of the cost of a frozen
    `__init__`'s `object.__setattr__` per field. None when CPython refuses the change (a
    `__dict__`, a base with other slots)."""
    namespace = {"__slots__": record.__dict__.get("__slots__", ()), "__setattr__": object.__setattr__,
                 "__delattr__": object.__delattr__}
    twin = type(f"_{record.__name__}Slots", (record.__base__ or object,), namespace)
    probe: object = object.__new__(twin)
    try:
        probe.__class__ = record
    except TypeError:
        return None
    return twin


_R = TypeVar("_R")


def made(record: type[_R]) -> Callable[..., _R]:
    """A function that makes a frozen, slotted `record` from its fields in order, as `record(...)`
    does, at a third of its cost (a scan makes some 100,000 records): an object of a class with the
    same slots and plain assignment, filled, then given `record`'s class (`object.__setattr__` per
    field is what the frozen `__init__` pays). A field's plain default is its parameter's; a record
    with a `__post_init__` or a `default_factory` keeps its own `__init__`."""
    found = fields(record)  # type: ignore[arg-type]
    twin = slots_twin(record)
    if (twin is None or hasattr(record, "__post_init__")
            or any(f.default_factory is not _NO_DEFAULT for f in found)):  # the record's own `__init__`
        return cast(Callable[..., _R], record)
    names = [f.name for f in found]
    scope: dict[str, Any] = {"new": object.__new__, "twin": twin, "record": record}
    scope.update((f"default_{f.name}", f.default) for f in found if f.default is not _NO_DEFAULT)
    parameters = [f.name if f.default is _NO_DEFAULT else f"{f.name}=default_{f.name}" for f in found]
    exec("def make(" + ", ".join(parameters) + "):\n    made = new(twin)\n"  # source from the field names alone
         + "".join(f"    made.{name} = {name}\n" for name in names)
         + "    made.__class__ = record\n    return made\n", scope)
    return cast(Callable[..., _R], scope["make"])
