"""One Python unit -> plain, picklable facts (a worker's job; no tree node leaves it).

parse (libcst) -> collect candidates (one walk) -> if any: scopes and spans -> resolve each
candidate's callee -> SiteFacts. What one file cannot decide (is this imported class an
exception? is this imported name a logger?) travels as `pending` and is settled by
`analyzer.python.hierarchy` once every module's classes and loggers are known.
"""

from __future__ import annotations

import dataclasses
import io
import os
import re
import symtable
import tokenize
import warnings
from collections import Counter
from dataclasses import dataclass

import libcst as cst

from analyzer.facts import ClassFacts, ErrorRegion, SiteFacts
from analyzer.identity import IdentityInput
from analyzer.model import Message, Unit
from analyzer.python import tokens
from analyzer.python.collect import Candidate, Collector, Frame, LoggerBinding, Where
from analyzer.python.consumers import consumer_of
from analyzer.python.messages import MISSING, message_of
from analyzer.python.metadata import scopes_of
from analyzer.python.nesting import TooDeep, too_deep
from analyzer.python.reduce import Reduction, reduce
from analyzer.python.resolve import ModuleNames, Names, NeedScopes, ScopeNames, scopes_mode
from analyzer.python.scopes import context_of, innermost_function, scope_of
from analyzer.python.spans import SourceMap, walk
from analyzer.python.syntax import FUNCTION_TYPES, STATEMENT_TYPES, dotted, keyword, positional
from analyzer.rules import PythonRules

#: largest anchor in bytes of source (unminified Python; the JavaScript limit counts syntax nodes)
PYTHON_ANCHOR_LIMIT = 2048

_SPACE = re.compile(r"\s+")


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


@dataclass(frozen=True, slots=True)
class ClassRecord:
    #: fully qualified (`pkg.mod.Outer.Inner`, `pkg.mod.f.<locals>.C`)
    qualified: str
    #: per positional base: (as written, the qualified names it may resolve to)
    bases: tuple[tuple[str, tuple[str, ...]], ...]
    #: everything but the root, which needs the whole bundle (`root_constructor` is "")
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


@dataclass(frozen=True, slots=True)
class Vocabulary:
    """Names a worker filters candidates with (built once per scan, sent to each worker)."""

    rules: PythonRules
    #: names that may denote a class of the bundle: class names and aliases (a textual superset)
    class_names: frozenset[str]
    #: names bound by `import ... as` anywhere in the bundle (may denote a logger factory)
    alias_names: frozenset[str]
    #: last names of callees that can end as an error callsite (`analyzer.python.vocabulary`)
    exception_names: frozenset[str]

    @property
    def error_names(self) -> frozenset[str]:
        """Last names that may be an error class: builtins, externals, classes of the bundle."""
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


def extract_file(task: FileTask, vocabulary: Vocabulary) -> FileFacts:
    unit = task.unit
    stream = _tokens(unit.source)  # the unit's one tokenization: nesting, module, class, function, anchor digests
    lines = tokens.logical_lines(stream) if stream is not None else []
    deep = too_deep(stream, lines) if stream is not None else None
    if stream is not None and deep is not None:
        return _too_deep(task, stream, deep)
    reduction = _reduction(stream, lines, vocabulary, unit.name) if stream is not None else None
    if reduction is not None:
        facts = _reduced(task, reduction, vocabulary)
        if facts is not None:
            return facts
    try:
        module = cst.parse_module(unit.source)
    except cst.ParserSyntaxError as exc:
        return _unparsed(task, exc.raw_line, exc.raw_column, exc.message)
    except (UnicodeDecodeError, LookupError, SyntaxError, RecursionError, ValueError) as exc:
        return _unparsed(task, 1, 0, f"{type(exc).__name__}: {exc}")
    if stream is None or stream.encoding != module.encoding:
        stream = tokens.Tokens(unit.source.decode(module.encoding), module.encoding)
    try:
        return _extract(task, module, stream, vocabulary, None)
    except RecursionError:  # libcst's visitors recurse: a pathologically deep expression
        return _unparsed(task, 1, 0, "too deeply nested for the libcst visitors")


def _reduction(stream: tokens.Tokens, lines: list[tokens.Line], vocabulary: Vocabulary, name: str) -> Reduction | None:
    """What need not be parsed (`analyzer.python.reduce`), for a unit CPython's parser accepts
    (`symtable` parses it and checks its scopes, as `compile` does before generating code; so
    the replaced code hides no syntax error); None to parse the whole unit."""
    if scopes_mode() == "libcst" or os.environ.get("ERRATLAS_PYTHON_REDUCE", "") == "0":
        return None  # the oracle modes see whole trees
    found = reduce(stream, lines, vocabulary.hits)
    if found is None:
        return None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            symtable.symtable(stream.text, name, "exec")  # CPython's parser, without its code generation
    except Exception:
        return None
    return found


class _NotReduced(Exception):
    """The replaced code did not come out of the parse where it was: parse the whole unit."""


def _reduced(task: FileTask, reduction: Reduction, vocabulary: Vocabulary) -> FileFacts | None:
    """The facts from the unit with `reduction` applied, or None to parse it whole."""
    try:
        module = cst.parse_module(reduction.text())
        return _extract(task, module, reduction.stream, vocabulary, reduction)
    except (cst.ParserSyntaxError, RecursionError, _NotReduced, ValueError, SyntaxError):
        return None


def _tokens(source: bytes) -> tokens.Tokens | None:
    """The unit decoded as libcst decodes it (its PEP 263 encoding) and tokenized; None when
    it cannot be decoded (the parser then says why)."""
    try:
        encoding = tokenize.detect_encoding(io.BytesIO(source).readline)[0]
        return tokens.Tokens(source.decode(encoding), encoding)
    except (UnicodeDecodeError, LookupError, SyntaxError):
        return None


def _in_place(reduction: Reduction, strings: list[cst.SimpleString], spans: dict[int, tuple[int, int]]) -> bool:
    """Every replaced range came out of the parse as one string literal, exactly where it was."""
    found = {spans[id(node)] for node in strings}
    return all(region in found for region in reduction.regions)


def _too_deep(task: FileTask, stream: tokens.Tokens, deep: TooDeep) -> FileFacts:
    """Not parsed: nested deeper than a limit (`analyzer.python.nesting`), counted like a unit
    that does not parse, from where the limit is passed."""
    text = stream.text
    line_start = max(text.rfind("\n", 0, deep.offset), -1) + 1
    column = len(text[line_start:deep.offset].encode(stream.encoding, "surrogateescape"))
    line = text.count("\n", 0, deep.offset) + 1
    return _unparsed(task, line, column, f"not parsed: {deep.message} (ERRATLAS_PYTHON_MAX_NESTING)")


def _extract(task: FileTask, module: cst.Module, stream: tokens.Tokens, vocabulary: Vocabulary,
             reduction: Reduction | None) -> FileFacts:
    unit = task.unit
    text = stream.text
    module_digest = tokens.digest("Module", stream.normalized(0, len(text)))
    collector = _collector(vocabulary)
    collector.strings = [] if reduction is not None else None
    spans = walk(module, collector)
    if reduction is not None and not _in_place(reduction, collector.strings or [], spans):
        raise _NotReduced(unit.name)
    found = collector.found
    names = Names(task.module, task.package)
    aliases = {f"{task.module}.{bound}": names.absolute_import(target) for bound, target in found.imports.items()}
    stars = [names.absolute_import(source) for source in found.star_imports]
    facts = FileFacts(unit.name, task.module, [], [], aliases, stars, [], [], {}, [], None, module_digest)
    if not (found.candidates or found.classes or found.loggers or found.assignments):
        return facts  # nothing to resolve
    mode = scopes_mode()
    if mode != "libcst":
        for compatible in (True, False) if mode != "walk" else (False,):
            try:
                resolver = ModuleNames(found, names, compatible)
                resolved = _resolved(
                    facts, _Site(task, stream, stream.encoding, vocabulary, spans, resolver), collector
                )
            except NeedScopes:
                continue  # see ModuleNames; then a type parameter: ask libcst's scope analysis
            if not (compatible and reduction is not None and reduction.compatible_names(resolver.looked_up)):
                return resolved
            # else: a name it looked up is bound in replaced code as ModuleNames reads no further
    scopes = ScopeNames(scopes_of(module), names, bool(found.star_imports))
    return _resolved(facts, _Site(task, stream, stream.encoding, vocabulary, spans, scopes), collector)


def _resolved(facts: FileFacts, site: _Site, collector: Collector) -> FileFacts:
    found = collector.found
    aliases = dict(facts.aliases)
    for bound, value, where in found.assignments:
        qualified = site.qualified(value, where)
        if qualified:
            aliases[f"{facts.module}.{bound}"] = qualified[0]
    loggers, attribute_loggers, logger_targets = site.loggers(found.loggers)
    shadowed: Counter[str] = Counter()
    built = [site.build(candidate, logger_targets, shadowed) for candidate in found.candidates]
    sites = sorted((s for s in built if s is not None), key=lambda s: (s.facts.offset, s.facts.kind))
    return dataclasses.replace(
        facts,
        sites=sites,
        classes=[site.class_record(c, collector) for c in found.classes],
        aliases=aliases,
        loggers=sorted(loggers),
        attribute_loggers=sorted(attribute_loggers),
        shadowed=dict(sorted(shadowed.items())),
    )


def _collector(vocabulary: Vocabulary) -> Collector:
    rules = vocabulary.rules
    called = frozenset(rules.logging_methods) | {rules.level_method}
    called |= frozenset(name.rsplit(".", 1)[-1] for name in rules.warning_functions)
    factories = frozenset(name.rsplit(".", 1)[-1] for name in rules.logger_factories) | vocabulary.alias_names
    return Collector(
        error_names=vocabulary.error_names, call_names=called, method_names=called, factory_names=factories
    )


def _unparsed(task: FileTask, line: int, column: int, message: str) -> FileFacts:
    """No callsites from a unit that does not parse: one error region from the error to the end."""
    source = task.unit.source
    line = max(line, 1)
    starts = [0] + [m.end() for m in re.finditer(b"\n", source)]
    offset = min(starts[min(line, len(starts)) - 1] + max(column, 0), len(source))
    region = ErrorRegion(offset=offset, end_offset=len(source), line=max(line, 1), kind="ERROR")
    first_line = message.strip().splitlines()[0] if message.strip() else "syntax error"
    module_digest = tokens.digest("Module", tokens.normalized_code(source.decode("utf-8", "replace")))
    return FileFacts(task.unit.name, task.module, [], [], {}, [], [], [], {}, [region], first_line, module_digest)


class _Site:
    """Everything one unit's sites need: a resolver, spans, text, rules, digests (cached)."""

    def __init__(self, task: FileTask, stream: tokens.Tokens, encoding: str, vocabulary: Vocabulary,
                 spans: dict[int, tuple[int, int]], resolver: ModuleNames | ScopeNames) -> None:
        self.task, self.stream, self.text, self.resolver = task, stream, stream.text, resolver
        self.rules = vocabulary.rules
        self.builtins = frozenset(self.rules.builtins)
        self.external = frozenset(self.rules.external)
        self.class_names = vocabulary.class_names
        self.exception_names = vocabulary.exception_names
        self.spans = spans
        self.map = SourceMap(self.text, encoding)
        self._digests: dict[int, bytes] = {}

    # --- names --------------------------------------------------------------------------

    def qualified(self, node: cst.CSTNode, where: Where) -> list[str]:
        return self.resolver.qualified(node, where)

    def loggers(self, bindings: list[LoggerBinding]) -> tuple[set[str], set[tuple[str, str]], set[int]]:
        """Module-level logger names, (class, attribute) loggers, ids of logger Name targets;
        a binding counts when its factory resolves to one of the rules' factories."""
        factories = set(self.rules.logger_factories)
        names: set[str] = set()
        attributes: set[tuple[str, str]] = set()
        targets: set[int] = set()
        for binding in bindings:
            if not factories.intersection(self.qualified(binding.factory.func, binding.where)):
                continue
            if binding.target is not None:
                targets.add(id(binding.target))
                if binding.module_level:
                    names.add(f"{self.task.module}.{binding.target.value}")
            if binding.attribute is not None:
                frame, attribute = binding.attribute
                attributes.add((f"{self.task.module}.{frame.qualname}", attribute))
        return names, attributes, targets

    # --- classification -------------------------------------------------------------------

    def build(self, candidate: Candidate, logger_targets: set[int], shadowed: Counter[str]) -> PendingSite | None:
        node = candidate.node
        func = node.func if isinstance(node, cst.Call) else node
        qualified = self.qualified(func, candidate.where)
        error = self._error(qualified)
        if error is not None and error[1] is None:
            return PendingSite(self._error_facts(candidate, func, error[0]), None)
        if candidate.form == "call":  # before a maybe-class: `logger.error(...)` is a logger call
            diagnostic = self._diagnostic(candidate, func, qualified, logger_targets)  # type: ignore[arg-type]
            if diagnostic is not None:
                return diagnostic
        shadows = self._shadows(func, qualified)
        if error is not None:
            return PendingSite(self._error_facts(candidate, func, error[0]), error[1], shadows)
        if shadows is not None:
            shadowed[shadows] += 1
        return None

    def _shadows(self, func: cst.CSTNode, qualified: list[str]) -> str | None:
        """The tracked name a callee spells when it resolves to something else (it does,
        once this far: builtins and logging/warnings functions were settled before)."""
        written = dotted(func)  # type: ignore[arg-type]
        if written is None or not qualified:
            return None
        root = written.split(".", 1)[0]
        if written in self.builtins:
            return written
        return root if root in ("logging", "warnings") and "." in written else None

    def _error(self, qualified: list[str]) -> tuple[str, tuple[str, ...] | None] | None:
        """(constructor, pending) when a callee may be an error class."""
        deferred = None
        for name in qualified:
            if name.startswith("builtins.") and name[9:] in self.builtins:
                return name[9:], None
            if name in self.external:
                return name, None
            if deferred is None and not name.startswith("builtins.") and name.rsplit(".", 1)[-1] in self.class_names:
                deferred = name
        return (deferred, ("class", deferred)) if deferred is not None else None

    def _diagnostic(
        self, candidate: Candidate, func: cst.BaseExpression, qualified: list[str], logger_targets: set[int]
    ) -> PendingSite | None:
        rules = self.rules
        for name in qualified:
            if name in rules.warning_functions:
                return PendingSite(self._diagnostic_facts(candidate, func, "warnings", None), None)
            head, _, method = name.rpartition(".")
            if head == "logging" and (method in rules.logging_methods or method == rules.level_method):
                return PendingSite(self._diagnostic_facts(candidate, func, "logging", method), None)
        if not isinstance(func, cst.Attribute):
            return None
        method = func.attr.value
        if method not in rules.logging_methods and method != rules.level_method:
            return None
        receiver = func.value
        pending = self._logger_receiver(candidate, receiver, logger_targets)
        if pending is None:
            return None
        return PendingSite(self._diagnostic_facts(candidate, func, "logger", method), pending or None)

    def _logger_receiver(
        self, candidate: Candidate, receiver: cst.BaseExpression, logger_targets: set[int]
    ) -> tuple[str, ...] | None:
        """`()`: a logger; a pending tuple: maybe one (decided across modules); None: not one."""
        factories = set(self.rules.logger_factories)
        where = candidate.where
        if isinstance(receiver, cst.Call):
            return () if factories.intersection(self.qualified(receiver.func, where)) else None
        if isinstance(receiver, cst.Name):
            bindings = self.resolver.bindings(receiver, where)
            if not bindings:  # bound by nothing here: a star import may bind it
                starred = self.qualified(receiver, where) if self.resolver.star_imports else []
                return ("logger", starred[0]) if starred else None
            if all(kind == "local" and key in logger_targets for kind, key in bindings):
                return ()
            imported = [q for q in self.qualified(receiver, where) if not q.startswith("builtins.")]
            if imported and all(kind == "import" for kind, _ in bindings):
                return ("logger", imported[0])
            return None
        if isinstance(receiver, cst.Attribute) and isinstance(receiver.value, cst.Name):
            owner = _method_class(candidate.frames, receiver.value.value)
            if owner is not None:
                return ("logger-attribute", f"{self.task.module}.{owner.qualname}", receiver.attr.value)
        return None

    # --- facts ----------------------------------------------------------------------------

    def _error_facts(self, candidate: Candidate, func: cst.CSTNode, constructor: str) -> SiteFacts:
        node = candidate.node
        if isinstance(node, cst.Call):
            args = positional(node)
            argument = args[0].value if args else None
            message = self._message(argument)
            count = len(node.args)
        else:
            message, count = MISSING, 0
        return self._facts(candidate, "error", func, constructor, "error-constructor", count, message,
                           None, None, None)

    def _diagnostic_facts(self, candidate: Candidate, func: cst.CSTNode, role: str, method: str | None) -> SiteFacts:
        call: cst.Call = candidate.node  # type: ignore[assignment]
        rules = self.rules
        args = positional(call)
        candidates: tuple[str, ...]
        if role == "warnings":
            slot, name = 0, "message"
            level, source, candidates = rules.warning_level, "explicit", (rules.warning_level,)
        elif method == rules.level_method:
            slot, name = 1, "msg"
            level_arg = args[0].value if args else (keyword(call, "level").value if keyword(call, "level") else None)  # type: ignore[union-attr]
            level, source, candidates = self._level(level_arg, candidate)
        else:
            slot, name = 0, "msg"
            level = rules.logging_methods[method]  # type: ignore[index]
            source, candidates = "explicit", (level,)
        chosen = args[slot].value if len(args) > slot else None
        if chosen is None:
            named = keyword(call, name)
            chosen = named.value if named is not None else None
        return self._facts(candidate, "diagnostic", func, None, role, len(call.args), self._message(chosen),
                           level, source, candidates)

    def _level(self, node: cst.BaseExpression | None, candidate: Candidate) -> tuple[str, str, tuple[str, ...]]:
        if node is None:
            return "dynamic", "dynamic", ()
        if isinstance(node, cst.Integer):
            try:
                number = int(node.value.replace("_", ""), 0)
            except ValueError:
                return "dynamic", "dynamic", ()
            level = self.rules.level_numbers[0][1]
            for threshold, name in self.rules.level_numbers:
                if number >= threshold:
                    level = name
            return level, "explicit", (level,)
        for name in self.qualified(node, candidate.where):
            head, _, constant = name.rpartition(".")
            if head == "logging" and constant in self.rules.level_names:
                level = self.rules.level_names[constant]
                return level, "explicit", (level,)
        return "dynamic", "dynamic", ()

    def _message(self, argument: cst.BaseExpression | None) -> Message:
        if argument is None:
            return MISSING
        start, end = self.spans[id(argument)]
        return message_of(argument, self.text[start:end])

    def _facts(
        self, candidate: Candidate, kind: str, func: cst.CSTNode, constructor: str | None, role: str,
        count: int, message: Message, level: str | None, level_source: str | None,
        level_candidates: tuple[str, ...] | None,
    ) -> SiteFacts:
        node, chain = candidate.node, candidate.chain
        start, end = self.spans[id(node)]
        offset, end_offset = self.map.byte(start), self.map.byte(end)
        line, column = self.map.line_column(start)
        consumer = consumer_of(node, chain)
        anchor = self._anchor(node, chain)
        function = innermost_function(chain)
        unit = self.task.unit.name
        callee_start, callee_end = self.spans[id(func)]
        return SiteFacts(
            kind=kind,
            offset=offset,
            end_offset=end_offset,
            line=line,
            column=column,
            constructor=constructor,
            form="call" if candidate.form == "call" else "raise",
            callee=_SPACE.sub("", self.text[callee_start:callee_end]),
            callee_role=role,
            arg_count=count,
            message=message,
            level=level,
            level_source=level_source,
            level_candidates=level_candidates,
            scope=scope_of(self.task.module, candidate.frames, self.offset),
            consumer=consumer,
            context=context_of(node, chain),
            identity=IdentityInput(
                kind=kind,
                role=constructor if kind == "error" else role,  # type: ignore[arg-type]
                comparison_key=message.comparisonKey,
                consumer_role=consumer.role,
                anchor=self.digest(anchor),
                anchor_slot=(unit, self.offset(anchor)),
                order=(unit, offset),
            ),
            function_digest=self.digest(function) if function is not None else None,
            function_offset=self.offset(function) if function is not None else None,
        )

    def offset(self, node: cst.CSTNode) -> int:
        return self.map.byte(self.spans[id(node)][0])

    def _size(self, node: cst.CSTNode) -> int:
        start, end = self.spans[id(node)]
        return self.map.byte(end) - self.map.byte(start)

    def _anchor(self, node: cst.CSTNode, chain: tuple[cst.CSTNode, ...]) -> cst.CSTNode:
        """The innermost function when it is at most PYTHON_ANCHOR_LIMIT bytes; otherwise the
        largest enclosing statement inside it that is; otherwise the callsite itself."""
        limit = PYTHON_ANCHOR_LIMIT
        best = node
        for ancestor in reversed(chain):
            if isinstance(ancestor, cst.Module) or self._size(ancestor) > limit:
                break
            if isinstance(ancestor, (*FUNCTION_TYPES, *STATEMENT_TYPES)):
                best = ancestor
            if isinstance(ancestor, FUNCTION_TYPES):
                break
        return best

    def digest(self, node: cst.CSTNode) -> bytes:
        cached = self._digests.get(id(node))
        if cached is None:
            start, end = self.spans[id(node)]
            base = self.map.line_column(start)[1] - 1
            code = self.stream.normalized(start, end, base)
            cached = self._digests[id(node)] = tokens.digest(type(node).__name__, code)
        return cached

    # --- classes --------------------------------------------------------------------------

    def class_record(self, candidate: Candidate, collector: Collector) -> ClassRecord:
        node: cst.ClassDef = candidate.node  # type: ignore[assignment]
        frame = _own_frame(candidate, collector)
        bases = []
        for arg in node.bases:
            if arg.keyword is not None or arg.star:
                continue
            start, end = self.spans[id(arg.value)]
            bases.append((_SPACE.sub("", self.text[start:end]), tuple(self.qualified(arg.value, candidate.where))))
        start, end = self.spans[id(node)]
        line, column = self.map.line_column(start)
        qualified = f"{self.task.module}.{frame.qualname}"
        facts = ClassFacts(
            offset=self.map.byte(start),
            end_offset=self.map.byte(end),
            line=line,
            column=column,
            name=qualified,
            parent="",
            root_constructor="",
            fields=tuple(sorted(frame.fields)),
            scope=scope_of(self.task.module, candidate.frames, self.offset),
            # only a class that may be an error class is ever written (`fp1c`): no other is digested
            digest=self.digest(node) if node.name.value in self.exception_names else b"",
        )
        return ClassRecord(qualified, tuple(bases), facts)


def _own_frame(candidate: Candidate, collector: Collector) -> Frame:
    return collector.found.scopes[id(candidate.node)]  # type: ignore[return-value]


def _method_class(frames: tuple[Frame, ...], receiver: str) -> Frame | None:
    """The class whose method has `receiver` as its first parameter (`self.x` inside it or
    inside a function nested in it)."""
    for index in range(len(frames) - 1, 0, -1):
        frame = frames[index]
        if frame.kind == "class":
            return None
        if frame.receiver == receiver and frames[index - 1].kind == "class":
            return frames[index - 1]
    return None


