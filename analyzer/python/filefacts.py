"""What extracting one Python file takes and gives: the task, the vocabulary its candidates
are filtered with, and the plain, picklable facts it returns (sites, classes, loggers, aliases)."""

from __future__ import annotations

from dataclasses import dataclass, field

from analyzer.facts import ClassFacts, ErrorRegion, HandlerFacts, SiteFacts
from analyzer.model import Unit
from analyzer.python.rules import PythonRules

#: largest anchor in bytes of source (unminified Python; the JavaScript limit counts syntax nodes)
PYTHON_ANCHOR_LIMIT = 2048


@dataclass(frozen=True, slots=True)
class FileTask:
    unit: Unit
    #: dotted module name and the package relative imports start from
    module: str
    package: str


@dataclass(frozen=True, slots=True)
class PendingSite:
    facts: SiteFacts
    #: None when settled here; else `("class", qualified)`, `("logger", qualified)` or
    #: `("logger-attribute", class qualified name, attribute)`
    pending: tuple[str, ...] | None
    #: the builtin (or `logging`/`warnings`) name the callee spells though it resolves elsewhere:
    #: counted as shadowed if the pending resolution drops the site
    shadows: str | None = None
    #: for an error raised directly in `try` blocks of its function: the offsets of each such
    #: `try`'s handlers, innermost `try` first (`analyzer.python.calls.raised_in`)
    tries: tuple[tuple[int, ...], ...] = ()
    #: for an error given to a call that may settle as a diagnostic callsite: that call's offset
    #: (its flow's fate is `logged` if it does; `analyzer.python.flow.Followed.logged_by`)
    logged_by: int | None = None


@dataclass(frozen=True, slots=True)
class PendingCatch:
    """A class an `except` clause names, as far as one file can resolve it."""

    written: str
    #: a builtin or external exception settled here, else None
    resolved: str | None
    #: a class of the input that may be an exception (settled across modules), else None
    pending: str | None


@dataclass(frozen=True, slots=True)
class PendingHandler:
    #: everything but `catches` (settled across modules) and the log dispositions' fate
    facts: HandlerFacts
    #: None for a bare `except:`
    catches: tuple[PendingCatch, ...] | None
    #: the calls of its `callback` dispositions, in order (the error sink's are `report`s)
    sink_calls: tuple[SinkCall, ...] = ()


@dataclass(frozen=True, slots=True)
class FunctionRecord:
    """A function that a call may resolve to exactly: a module-level `def` or a method of a class
    that is not inside a function, the only binding of its name in its module or class body,
    undecorated and not a generator (docs/reference.md, "Handler records", Python)."""

    #: `pkg.mod.f`, `pkg.mod.C.m`
    qualified: str
    #: its offset, as a callsite's `function_offset`, and its line
    offset: int
    line: int
    is_async: bool
    #: a method's class (qualified), else None
    owner: str | None


@dataclass(frozen=True, slots=True)
class CallRecord:
    """A call that may reach a function of the input (its last name may name a function that
    raises), in a `try` block or in a function (`analyzer.python.calls`)."""

    offset: int
    #: what the callee resolves to in its file: a qualified name (`pkg.mod.f`, `pkg.mod.C.m`) or
    #: `self.m` in a method of class C: (C qualified, "m")
    callee: str | tuple[str, str]
    #: the offset of the innermost function holding the call, None at module level
    function: int | None
    #: the handler offsets of each `try` whose block holds the call in its function, innermost first
    tries: tuple[tuple[int, ...], ...]
    #: `await f()`: an `async` function's errors reach the caller only so
    awaited: bool


@dataclass(frozen=True, slots=True)
class SinkCall:
    """A call in a handler's branch given the caught value or something read from it: a
    `callback` disposition unless its callee is the input's error sink (`report`)."""

    #: the branch's position in the handler
    branch: int
    #: what the callee resolves to in its file (as `CallRecord.callee`), None when nothing
    callee: str | tuple[str, str] | None
    #: the caught value itself is an argument (only those choose the sink)
    itself: bool
    #: as written, None when not a dotted name
    written: str | None


@dataclass(frozen=True, slots=True)
class ClassRecord:
    #: fully qualified (`pkg.mod.Outer.Inner`, `pkg.mod.f.<locals>.C`)
    qualified: str
    #: per positional base: (as written, the qualified names it may resolve to)
    bases: tuple[tuple[str, tuple[str, ...]], ...]
    #: everything but the root, which needs the whole input (`root_constructor` is "")
    facts: ClassFacts


@dataclass(frozen=True, slots=True)
class FileFacts:
    unit: str
    module: str
    sites: list[PendingSite]
    classes: list[ClassRecord]
    #: module-level bindings of this module to other names: `pkg.mod.X` -> `other.Y`
    aliases: dict[str, str]
    #: modules star-imported at module level
    star_imports: list[str]
    #: module-level names bound to a logger factory (`pkg.mod.logger`)
    loggers: list[str]
    #: (class qualified name, attribute) set to a logger in a class body or `__init__`
    attribute_loggers: list[tuple[str, str]]
    shadowed: dict[str, int]
    error_regions: list[ErrorRegion]
    parse_error: str | None
    #: alpha-normalized digest of the whole unit, for its module fingerprint (fp1m)
    module_digest: bytes
    #: `except` and `except*` clauses, in source order
    handlers: list[PendingHandler] = field(default_factory=list)
    #: the functions calls may resolve to exactly, and the calls that may reach them
    functions: list[FunctionRecord] = field(default_factory=list)
    calls: list[CallRecord] = field(default_factory=list)
    #: module-level names of builtin exceptions bound under a condition (`pkg.mod.WindowsError`,
    #: `Collected.guarded`): a read may find the builtin or the binding
    guarded: list[str] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Vocabulary:
    """Names a worker filters candidates with (built once per scan, sent to each worker)."""

    rules: PythonRules
    #: names that may denote a class of the input: class names and aliases (a textual superset)
    class_names: frozenset[str]
    #: names bound by `import ... as` anywhere in the input (may denote a logger factory)
    alias_names: frozenset[str]
    #: last names of callees that can end as an error callsite (`analyzer.python.vocabulary`)
    exception_names: frozenset[str]
    #: names of the module-level functions and of the methods whose body may raise, and of those
    #: whose body calls one (`analyzer.python.vocabulary`): their calls may lead to sources
    #: through a call
    raising_functions: frozenset[str] = frozenset()
    raising_methods: frozenset[str] = frozenset()
    calling_functions: frozenset[str] = frozenset()
    calling_methods: frozenset[str] = frozenset()

    @property
    def raising_names(self) -> frozenset[str]:
        return self.raising_functions | self.raising_methods | self.calling_functions | self.calling_methods

    @property
    def error_names(self) -> frozenset[str]:
        """Last names that may be an error class: builtins, externals, classes of the input."""
        return self.rules.last_names | self.class_names

    @property
    def hits(self) -> frozenset[str]:
        """Names whose call (or `raise`) may make a callsite or a logger: code without them need
        not be parsed (`analyzer.python.reduce`)."""
        rules = self.rules
        called = frozenset(rules.logging_methods) | {rules.level_method}
        called |= frozenset(name.rsplit(".", 1)[-1] for name in rules.warning_functions)
        factories = frozenset(name.rsplit(".", 1)[-1] for name in rules.logger_factories) | self.alias_names
        return self.exception_names | called | factories
