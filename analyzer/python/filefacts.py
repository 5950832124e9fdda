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
    #: `try`'s handlers, innermost `try` first (`analyzer.python.handlers.raised_in`)
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

    @property
    def error_names(self) -> frozenset[str]:
        """Last names that may be an error class: builtins, externals, classes of the input."""
        rules = self.rules
        return frozenset(rules.builtins) | frozenset(n.rsplit(".", 1)[-1] for n in rules.external) | self.class_names

    @property
    def hits(self) -> frozenset[str]:
        """Names whose call (or `raise`) may make a callsite or a logger: code without them need
        not be parsed (`analyzer.python.reduce`)."""
        rules = self.rules
        called = frozenset(rules.logging_methods) | {rules.level_method}
        called |= frozenset(name.rsplit(".", 1)[-1] for name in rules.warning_functions)
        factories = frozenset(name.rsplit(".", 1)[-1] for name in rules.logger_factories) | self.alias_names
        return self.exception_names | called | factories
