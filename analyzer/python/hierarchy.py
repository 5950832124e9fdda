"""The package-wide pass: class hierarchy and logger bindings across modules settle what each
file left pending, and every unit becomes a `UnitFacts` like the JavaScript frontend's. A class
is an error class when a base resolves, through imports, re-exports and aliases, to a known
exception, transitively; a base that cannot be followed makes nothing an error class."""

from __future__ import annotations

import dataclasses
from collections import Counter, defaultdict
from collections.abc import Iterable

from analyzer.facts import ClassFacts, LoggerFacts, SiteFacts, UnitFacts
from analyzer.model import Unit
from analyzer.python.callsources import UnitInput, link
from analyzer.python.catching import unit_handlers
from analyzer.python.filefacts import ClassRecord, FileFacts, PendingSite
from analyzer.python.modules import ModuleName, Vendored
from analyzer.python.rules import PythonRules
from analyzer.python.unit_extras import PythonUnit

_MAX_HOPS = 64


class PackageNames:
    """Names of the whole input: aliases, classes, loggers."""

    def __init__(self, files: Iterable[FileFacts], rules: PythonRules) -> None:
        self.builtins = frozenset(rules.builtins)
        self.external = frozenset(rules.external)
        self.aliases: dict[str, str] = {}
        self.stars: dict[str, list[str]] = defaultdict(list)
        self.classes: dict[str, ClassRecord] = {}
        self.loggers: set[str] = set()
        self.attribute_loggers: set[tuple[str, str]] = set()
        #: module-level names of builtin exceptions bound under a condition (`FileFacts.guarded`)
        self.guarded: set[str] = set()
        for facts in files:
            self.guarded.update(facts.guarded)
            for name, target in facts.aliases.items():
                self.aliases.setdefault(name, target)
            self.stars[facts.module].extend(facts.star_imports)
            for record in facts.classes:
                self.classes.setdefault(record.qualified, record)
            self.loggers.update(facts.loggers)
            self.attribute_loggers.update(facts.attribute_loggers)
        self._roots: dict[str, tuple[str, str] | None] = {}

    def canonical(self, name: str) -> str:
        """Follow aliases (longest prefix first) and star imports to a definition's name."""
        seen: set[str] = set()
        while name not in seen and len(seen) < _MAX_HOPS:
            seen.add(name)
            if name in self.classes or name in self.loggers:
                return name
            rewritten = self._rewrite(name)
            if rewritten is None:
                return self._through_star(name, seen) or name
            name = rewritten
        return name

    def shadows_builtin(self, name: str) -> bool:
        """Whether `name` reaches its definition through a builtin's name bound under a
        condition (`try: WindowsError` / `except NameError: WindowsError = Exception`): where
        the binding did not run, the builtin is read, so which class it is stays open."""
        seen: set[str] = set()
        while name not in seen and len(seen) < _MAX_HOPS:
            seen.add(name)
            if name in self.guarded:
                return True
            if name in self.classes or name in self.loggers:
                return False
            rewritten = self._rewrite(name)
            if rewritten is None:
                return False
            name = rewritten
        return False

    def _rewrite(self, name: str) -> str | None:
        parts = name.split(".")
        for cut in range(len(parts), 0, -1):
            target = self.aliases.get(".".join(parts[:cut]))
            if target is not None and target != ".".join(parts[:cut]):
                return ".".join([target, *parts[cut:]])
        return None

    def _through_star(self, name: str, seen: set[str]) -> str | None:
        module, _, last = name.rpartition(".")
        for source in self.stars.get(module, ()):
            candidate = f"{source}.{last}"
            if candidate in seen:
                continue
            resolved = self.canonical(candidate)
            if resolved in self.classes or resolved in self.loggers or self._is_known_root(resolved):
                return resolved
        return None

    def _is_known_root(self, name: str) -> bool:
        return (name.startswith("builtins.") and name[9:] in self.builtins) or name in self.external

    def root(self, name: str) -> tuple[str, str] | None:
        """(root constructor, the base as written that leads to it) of an error class, or for
        a builtin/external exception (itself, itself); None when not an exception. A class of
        the input is read from its record even where the external list names it."""
        name = self.canonical(name)
        if name.startswith("builtins.") and name[9:] in self.builtins:
            return name[9:], name[9:]
        if name in self.external and name not in self.classes:
            return name, name
        if name in self._roots:
            return self._roots[name]
        self._roots[name] = None  # a cycle in the bases ends here
        record = self.classes.get(name)
        found = None
        if record is not None:
            for written, candidates in record.bases:
                for candidate in candidates:
                    reached = self.root(candidate)
                    if reached is not None:
                        found = (reached[0], written)
                        break
                if found:
                    break
        self._roots[name] = found
        return found

    def constructor(self, name: str) -> str:
        name = self.canonical(name)
        return name.removeprefix("builtins.")

    def has_attribute_logger(self, owner: str, attribute: str) -> bool:
        """`self.<attribute>` is a logger in class `owner` or in one of its bases in the package."""
        pending, seen = [owner], set()
        while pending:
            current = self.canonical(pending.pop())
            if current in seen:
                continue
            seen.add(current)
            if (current, attribute) in self.attribute_loggers:
                return True
            record = self.classes.get(current)
            if record is not None:
                pending.extend(c for _, candidates in record.bases for c in candidates)
        return False


def settle(files: list[FileFacts], units: list[Unit], rules: PythonRules,
           modules: dict[str, ModuleName], vendored: dict[str, Vendored | None]) -> list[UnitFacts]:
    names = PackageNames(files, rules)
    found = []
    for facts in files:
        settled = [(site, _settled(site, names)) for site in facts.sites]
        sites = [s for _, s in settled if s is not None]
        handlers = None
        if facts.parse_error is None:
            handlers, sites = unit_handlers(facts.handlers, [(s, site) for site, s in settled if s is not None], names)
        found.append((settled, sites, handlers))
    linked = link([UnitInput(unit.name, facts, handlers, sites)
                   for unit, facts, (_, sites, handlers) in zip(units, files, found) if handlers is not None], names)
    out = []
    for unit, facts, (settled, sites, handlers) in zip(units, files, found):
        shadowed = Counter(facts.shadowed)
        shadowed.update(site.shadows for site, s in settled if s is None and site.shadows is not None)
        classes = [c for c in (_error_class(record, names) for record in facts.classes) if c is not None]
        out.append(
            UnitFacts(
                unit=unit,
                sites=sites,
                classes=classes,
                logger=_logger(facts),
                shadowed=dict(sorted(shadowed.items())),
                error_regions=facts.error_regions,
                left_out=(),  # libcst parses a file whole or not at all (an error region): none is left out
                extras=PythonUnit(modules[unit.name].name, vendored[unit.name], facts.parse_error,
                                  _logging_bindings(facts), linked.get(unit.name, handlers)).side_table(),
            )
        )
    return out


def _settled(site: PendingSite, names: PackageNames) -> SiteFacts | None:
    pending = site.pending
    if pending is None:
        return site.facts
    kind = pending[0]
    if kind == "class":
        if names.root(pending[1]) is None:
            return None
        constructor = names.constructor(pending[1])
        identity = dataclasses.replace(site.facts.identity, role=constructor)
        return dataclasses.replace(site.facts, constructor=constructor, identity=identity)
    if kind == "logger":
        return site.facts if names.canonical(pending[1]) in names.loggers else None
    if kind == "logger-attribute":
        return site.facts if names.has_attribute_logger(pending[1], pending[2]) else None
    raise AssertionError(f"unknown pending kind {kind!r}")


def _error_class(record: ClassRecord, names: PackageNames) -> ClassFacts | None:
    reached = names.root(record.qualified)
    if reached is None:
        return None
    root, parent = reached
    return dataclasses.replace(record.facts, parent=parent, root_constructor=root)


def _logger(facts: FileFacts) -> LoggerFacts:
    """The unit's logger: `logging`, on the evidence of its logging bindings (`_logging_bindings`)."""
    return LoggerFacts(facts.unit, "logging", "python", None)


def _logging_bindings(facts: FileFacts) -> tuple[str, ...]:
    bindings = [*facts.loggers, *(f"{owner}.{attribute} (attribute)" for owner, attribute in facts.attribute_loggers)]
    return tuple(sorted(bindings))
