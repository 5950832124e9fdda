"""One unit's sites, built from the collected candidates: names resolved, error or diagnostic
decided, messages, levels, anchors and digests, and the class records (`analyzer.python.extract`
drives it once per parsed file)."""

from __future__ import annotations

import re
from collections import Counter

import libcst as cst

from analyzer.facts import ClassFacts, SiteFacts
from analyzer.identity import IdentityInput
from analyzer.model import MISSING, CalleeRole, Message
from analyzer.python import tokens
from analyzer.python.collect import Collector
from analyzer.python.collected import Candidate, Frame, LoggerBinding, Where
from analyzer.python.consumers import consumer_of
from analyzer.python.filefacts import PYTHON_ANCHOR_LIMIT, ClassRecord, FileTask, PendingSite, Vocabulary
from analyzer.python.messages import message_of
from analyzer.python.resolve import ModuleNames, ScopeNames
from analyzer.python.scopes import context_of, innermost_function, scope_of
from analyzer.python.spans import SourceMap
from analyzer.python.syntax import FUNCTION_TYPES, STATEMENT_TYPES, dotted, keyword, positional

_SPACE = re.compile(r"\s+")


class SiteBuilder:
    """Everything one unit's sites need: a resolver, spans, text, rules, digests (cached)."""

    def __init__(self, task: FileTask, stream: tokens.Tokens, encoding: str, vocabulary: Vocabulary,
                 spans: dict[int, tuple[int, int]], resolver: ModuleNames | ScopeNames) -> None:
        self.task, self.stream, self.text, self.resolver = task, stream, stream.text, resolver
        self.rules = vocabulary.rules
        self.builtins = frozenset(self.rules.builtins)
        self.external = frozenset(self.rules.external)
        self.own_external = self.rules.own_external
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
        error = self.error_class(qualified)
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

    def error_class(self, qualified: list[str]) -> tuple[str, tuple[str, ...] | None] | None:
        """(constructor, pending) when a callee may be an error class: a class of the input, or a
        listed name of a module the input defines, is settled across modules."""
        deferred = None
        for name in qualified:
            if name.startswith("builtins.") and name[9:] in self.builtins:
                return name[9:], None
            if name in self.external:
                return name, None
            if deferred is None and not name.startswith("builtins.") and \
                    (name.rsplit(".", 1)[-1] in self.class_names or name in self.own_external):
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

    def _diagnostic_facts(
        self, candidate: Candidate, func: cst.CSTNode, role: CalleeRole, method: str | None
    ) -> SiteFacts:
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
        self, candidate: Candidate, kind: str, func: cst.CSTNode, constructor: str | None, role: CalleeRole,
        count: int, message: Message, level: str | None, level_source: str | None,
        level_candidates: tuple[str, ...] | None,
    ) -> SiteFacts:
        node, path = candidate.node, candidate.path
        start, end = self.spans[id(node)]
        offset, end_offset = self.map.byte(start), self.map.byte(end)
        line, column = self.map.line_column(start)
        consumer = consumer_of(node, path)
        anchor = self.anchor(node, path)
        function = innermost_function(path)
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
            context=context_of(node, path),
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

    def anchor(self, node: cst.CSTNode, path: tuple[cst.CSTNode, ...]) -> cst.CSTNode:
        """The innermost function when it is at most PYTHON_ANCHOR_LIMIT bytes; otherwise the
        largest enclosing statement inside it that is; otherwise the callsite itself."""
        limit = PYTHON_ANCHOR_LIMIT
        best = node
        for ancestor in reversed(path):
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


