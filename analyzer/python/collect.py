"""What one pass over a module finds: the nodes that may be callsites, classes, logger bindings
and module-level aliases, each with where it is, and every binding of a name per scope, for
`analyzer.python.resolve` to decide with. Nothing here resolves a name. The span pass
(`analyzer.python.spans.walk`) calls `enter` and `leave` for every node, so one traversal gives
both (docs/performance.md, "One pass over a module": handlers and scopes)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import libcst as cst

from analyzer.python.collected import (
    Candidate,
    Collected,
    Comprehension,
    Frame,
    LoggerBinding,
    Scope,
    Where,
    visible_parent,
)
from analyzer.python.syntax import (
    COMPREHENSION_TYPES,
    decorator_names,
    dotted,
    first_parameter,
    last_name,
)


class Collector:
    def __init__(self, error_names: frozenset[str], call_names: frozenset[str],
                 method_names: frozenset[str], factory_names: frozenset[str],
                 raising_names: frozenset[str] = frozenset()) -> None:
        #: last names that may be error classes (builtin, external, any class of the input)
        self.error_names = error_names
        #: bare names that may be logging/warnings functions (`warn`, `info` imported)
        self.call_names = call_names
        #: attribute names that may be logger methods or warnings functions
        self.method_names = method_names
        #: last names of logger factories (`getLogger`)
        self.factory_names = factory_names
        #: last names of functions that may raise: their calls may be sources through a call
        self.raising_names = raising_names
        self.stack: list[cst.CSTNode] = []
        self.frames: list[Frame] = []
        #: frames and comprehensions, innermost last: where a binding goes
        self.scopes: list[Scope] = []
        self.found = Collected()
        #: assignment-like statements at module level so far
        self.module_count = 0
        #: every string literal, when asked for (to find code replaced by `analyzer.python.reduce`)
        self.strings: list[cst.SimpleString] | None = None

    # the traversal keeps `stack` (the ancestors) and calls, by node type, `entering()` when a
    # node starts and `leaving()` when it ends (after popping it); other nodes cost nothing here
    def entering(self) -> dict[type, Callable[[cst.CSTNode], None]]:
        handlers = {kind: handler.__get__(self) for kind, handler in _VISIT.items()}
        if self.strings is not None:
            handlers[cst.SimpleString] = self.strings.append
        return handlers

    def leaving(self) -> dict[type, Callable[[cst.CSTNode], None]]:
        closers: dict[type, Callable[[cst.CSTNode], None]] = dict.fromkeys(_ASSIGNMENT_LIKE, self._left_assignment)
        for kind in (cst.FunctionDef, cst.ClassDef, cst.Lambda, *COMPREHENSION_TYPES):
            closers[kind] = self._left_scope
        return closers

    def _left_scope(self, node: cst.CSTNode) -> None:
        scopes = self.scopes
        if scopes and scopes[-1].node is node and scopes.pop() is (self.frames[-1] if self.frames else None):
            self.frames.pop()
        if type(node) in _ASSIGNMENT_LIKE:
            self._count()

    def _left_assignment(self, node: cst.CSTNode) -> None:
        if self._counted(node):
            self._count()

    def _counted(self, node: cst.CSTNode) -> bool:
        """libcst does not visit import aliases, nor a comprehension's first `for` as a node."""
        parent = self.stack[-1] if self.stack else None
        if isinstance(node, cst.AsName):
            return not isinstance(parent, cst.ImportAlias)
        if isinstance(node, cst.CompFor):
            return not (isinstance(parent, COMPREHENSION_TYPES) and parent.for_in is node)
        return True

    def _count(self) -> None:
        if self.scopes:
            self.scopes[-1].count += 1
        else:
            self.module_count += 1

    # bindings
    def _bind(self, name: str, kind: str, target: str | int) -> None:
        scope = _assignment_target(self.scopes[-1] if self.scopes else None, name)
        if scope is None:
            self.found.module_bindings.setdefault(name, []).append((kind, target, self.module_count))
            if name in self.error_names and self._conditional(name):
                self.found.guarded.add(name)
        else:
            scope.bindings.setdefault(name, []).append((kind, target, scope.count))

    def _conditional(self, name: str) -> bool:
        """A module-level binding of `name` that may not run (under a compound statement), and that
        is not `name = name` (which keeps the builtin)."""
        node = self.stack[-1] if self.stack else None
        if isinstance(node, cst.Assign) and isinstance(node.value, cst.Name) and node.value.value == name:
            return False
        around = self.stack[:-1] if isinstance(node, cst.FunctionDef) else self.stack  # a `def` binds its own name
        return any(isinstance(n, _CONDITIONS) for n in around)

    def _bind_target(self, target: cst.BaseExpression | None) -> None:
        pending: list[cst.BaseExpression | None] = [target]
        while pending:
            current = pending.pop()
            if isinstance(current, cst.Name):
                self._bind(current.value, "local", id(current))
            elif isinstance(current, (cst.Tuple, cst.List)):
                pending.extend(element.value for element in current.elements)
            elif isinstance(current, cst.StarredElement):
                pending.append(current.value)

    def _where(self, path: tuple[cst.CSTNode, ...] | None = None, origin: cst.CSTNode | None = None) -> Where:
        """Where the node on top of the stack is (or `origin` below `path`)."""
        if path is None:
            path, origin = tuple(self.stack[:-1]), self.stack[-1]
        scope, child = self._active(len(path) - 1, origin)
        index = self.module_count if scope is None else scope.access_index(child)  # type: ignore[arg-type]
        return Where(path, tuple(self.frames), origin, index)

    def _open(self, scope: Scope) -> None:
        self.found.scopes[id(scope.node)] = scope
        self.scopes.append(scope)
        if isinstance(scope, Frame):
            self.frames.append(scope)

    def _prefix(self, *names: str) -> str:
        return _joined(self.scopes[-1] if self.scopes else None, *names)

    # handlers
    def _call(self, node: cst.Call) -> None:
        func = node.func
        if isinstance(func, cst.Name):
            name = func.value
            if name in self.error_names or name in self.call_names:
                self.found.candidates.append(Candidate(node, "call", self._where()))
        elif isinstance(func, cst.Attribute):
            name = func.attr.value
            if name in self.error_names or name in self.method_names:
                self.found.candidates.append(Candidate(node, "call", self._where()))
        else:
            return
        if name in self.raising_names:
            self.found.calls.append(Candidate(node, "call", self._where()))

    def _raise(self, node: cst.Raise) -> None:
        exc = node.exc
        if isinstance(exc, (cst.Name, cst.Attribute)) and last_name(exc) in self.error_names:
            self.found.candidates.append(Candidate(exc, "raise", self._where(tuple(self.stack), exc)))

    def _handler(self, node: cst.ExceptHandler | cst.ExceptStarHandler) -> None:
        self.found.handlers.append(Candidate(node, "except", self._where()))

    def _function(self, node: cst.FunctionDef) -> None:
        self._bind(node.name.value, "local", 0)
        outer = self.frames[-1] if self.frames else None
        receiver = None
        if outer is not None and outer.kind == "class" and "staticmethod" not in decorator_names(node):
            receiver = first_parameter(node)
        name = node.name.value
        frame = Frame(node, "function", _qualname(outer, name), self._prefix(name, "<locals>"), self._scope(),
                      receiver)
        frame.bindings.update((name, [("local", 0, 0)]) for name in _parameters(node.params))
        self._open(frame)

    def _lambda(self, node: cst.Lambda) -> None:
        outer = self.frames[-1] if self.frames else None
        parent = self._active_scope()
        frame = Frame(node, "lambda", _qualname(outer, "<lambda>"), _joined(parent, "<locals>"), parent)
        parameters = _parameters(node.params)
        frame.bindings.update((name, [("local", 0, 0)]) for name in parameters)
        self._open(frame)

    def _class(self, node: cst.ClassDef) -> None:
        self._bind(node.name.value, "local", 0)
        outer = self.frames[-1] if self.frames else None
        self.found.classes.append(Candidate(node, "class", self._where()))
        name = node.name.value
        self._open(Frame(node, "class", _qualname(outer, name), self._prefix(name), self._scope()))

    def _comprehension(self, node: cst.ListComp | cst.SetComp | cst.DictComp | cst.GeneratorExp) -> None:
        parent = self._active_scope()
        self._open(Comprehension(node, _joined(parent, "<comprehension>"), parent))

    def _scope(self) -> Scope | None:
        return self.scopes[-1] if self.scopes else None

    def _active_scope(self) -> Scope | None:
        """The innermost scope whose body holds the node on top of the stack: a lambda or a
        comprehension in a function's defaults, a class's bases or a comprehension's first
        iterable belongs to the scope around them, as in libcst."""
        return self._active(len(self.stack) - 2, self.stack[-1])[0]

    def _active(self, top: int, origin: cst.CSTNode | None) -> tuple[Scope | None, cst.CSTNode | None]:
        """(the innermost scope whose body holds `origin`, below `stack[top]`; the child of that
        scope's node on the way to `origin`)."""
        stack = self.stack
        at = top
        for scope in reversed(self.scopes):
            while at >= 0 and stack[at] is not scope.node:
                at -= 1
            if at < 0:
                break
            child = stack[at + 1] if at + 1 <= top else origin
            grandchild = stack[at + 2] if at + 2 <= top else (origin if at + 1 <= top else None)
            if scope.inside(child, grandchild):  # type: ignore[arg-type]
                return scope, child
        return None, None

    def _yield(self, node: cst.Yield) -> None:
        for frame in reversed(self.frames):
            if frame.kind != "class":
                frame.generator = frame.kind == "function"
                return

    def _assign(self, node: cst.Assign | cst.AnnAssign) -> None:
        targets = [t.target for t in node.targets] if isinstance(node, cst.Assign) else [node.target]
        for target in targets:
            self._bind_target(target)
        frame = self.frames[-1] if self.frames else None
        in_class_body = frame is not None and frame.kind == "class"
        in_init = (
            frame is not None and frame.kind == "function" and frame.receiver is not None
            and isinstance(frame.node, cst.FunctionDef) and frame.node.name.value == "__init__"
        )
        owner = self.frames[-2] if in_init else frame  # the class whose fields/loggers these are
        receiver = frame.receiver if in_init and frame is not None else None
        for target in targets:
            if in_class_body and isinstance(target, cst.Name):
                owner.fields.add(target.value)  # type: ignore[union-attr]
            elif _is_receiver_attribute(target, receiver):
                owner.fields.add(target.attr.value)  # type: ignore[union-attr,attr-defined]
        value = node.value
        if isinstance(value, cst.Call) and last_name(value.func) in self.factory_names:
            self._logger_bindings(value, targets, owner if (in_class_body or in_init) else None, receiver)
        elif frame is None and isinstance(value, (cst.Name, cst.Attribute)):
            where = Where((), (), None, self.module_count)
            self.found.assignments.extend((t.value, value, where) for t in targets if isinstance(t, cst.Name))

    def _logger_bindings(self, factory: cst.Call, targets: list[cst.BaseAssignTargetExpression],
                         owner: Frame | None, receiver: str | None) -> None:
        """`name = getLogger(...)` anywhere, `name = ...` in a class body, `self.x = ...` in `__init__`."""
        where = self._where()
        module_level = not self.frames
        for target in targets:
            if isinstance(target, cst.Name):
                attribute = (owner, target.value) if owner is not None and receiver is None else None
                self.found.loggers.append(LoggerBinding(factory, target, attribute, module_level, where))
            elif owner is not None and _is_receiver_attribute(target, receiver):
                attribute = (owner, target.attr.value)  # type: ignore[attr-defined]
                self.found.loggers.append(LoggerBinding(factory, None, attribute, False, where))

    def _import(self, node: cst.Import) -> None:
        for alias in node.names:
            target = dotted(alias.name)
            if target is None:
                continue
            if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
                self._imported(alias.asname.name.value, target)
            else:
                head = target.split(".", 1)[0]
                self._imported(head, head)

    def _import_from(self, node: cst.ImportFrom) -> None:
        source = "." * len(node.relative) + (dotted(node.module) or "" if node.module is not None else "")
        if isinstance(node.names, cst.ImportStar):
            if not self.frames:
                self.found.star_imports.append(source)
            return
        for alias in node.names:
            name = dotted(alias.name)
            if name is None:
                continue
            bound = (
                alias.asname.name.value
                if alias.asname is not None and isinstance(alias.asname.name, cst.Name)
                else name
            )
            joiner = "" if source.endswith(".") or not source else "."
            self._imported(bound, f"{source}{joiner}{name}")

    def _imported(self, bound: str, target: str) -> None:
        self._bind(bound, "import", target)
        if not self.frames:
            self.found.imports[bound] = target

    def _as_name(self, node: cst.AsName) -> None:
        if not isinstance(self.stack[-2], cst.ImportAlias):  # imports are bound by their statement
            self._bind_target(node.name)

    def _target(self, node: cst.AugAssign) -> None:
        self._bind_target(node.target)

    def _walrus(self, node: cst.NamedExpr) -> None:
        self._bind_target(node.target)

    def _for(self, node: cst.For | cst.CompFor) -> None:
        """libcst counts a `for` target (and a comprehension's first one) as soon as it is bound."""
        self._bind_target(node.target)
        if isinstance(node, cst.For) or (
            isinstance(self.stack[-2], COMPREHENSION_TYPES) and self.stack[-2].for_in is node
        ):
            self._count()

    def _declared(self, node: cst.Global | cst.Nonlocal) -> None:
        scope = self.scopes[-1] if self.scopes else None
        if scope is None:
            return  # `global` at module level changes nothing
        kind = "global" if isinstance(node, cst.Global) else "nonlocal"
        scope.overwrites.update((item.name.value, kind) for item in node.names)

    def _type_parameter(self, node: cst.TypeParam) -> None:
        name = getattr(node.param, "name", None)
        if isinstance(name, cst.Name):
            self.found.type_parameters.add(name.value)


#: statements whose body may not run (a function binds a module name by `global`)
_CONDITIONS = (cst.If, cst.Try, cst.TryStar, cst.For, cst.While, cst.With, cst.Match, cst.FunctionDef)

#: what libcst counts as an assignment when it leaves it (`_ASSIGNMENT_LIKE_NODES`)
_ASSIGNMENT_LIKE = frozenset({
    cst.AnnAssign, cst.AsName, cst.Assign, cst.AugAssign, cst.ClassDef, cst.CompFor, cst.FunctionDef, cst.Global,
    cst.Import, cst.ImportFrom, cst.NamedExpr, cst.Nonlocal, cst.Parameters, cst.WithItem,
    *(getattr(cst, name) for name in ("TypeVar", "TypeAlias", "TypeVarTuple", "ParamSpec") if hasattr(cst, name)),
})


def _joined(scope: Scope | None, *names: str) -> str:
    """libcst's name prefix of a scope opened in `scope` (empty parts dropped)."""
    return ".".join(part for part in (scope.prefix if scope is not None else "", *names) if part)


def _assignment_target(scope: Scope | None, name: str) -> Scope | None:
    """Where a binding of `name` made in `scope` goes (None: the module), as libcst's
    `_find_assignment_target`: `global` to the module, `nonlocal` to the enclosing function."""
    while scope is not None:
        kind = scope.overwrites.get(name)
        if kind is None:
            return scope
        if kind == "global":
            return None
        scope = visible_parent(scope)
    return None


def _qualname(outer: Frame | None, name: str) -> str:
    if outer is None:
        return name
    if outer.kind == "class":
        return f"{outer.qualname}.{name}"
    return f"{outer.qualname}.<locals>.{name}"


def _parameters(params: cst.Parameters) -> set[str]:
    found = [*params.posonly_params, *params.params, *params.kwonly_params]
    found += [p for p in (params.star_arg, params.star_kwarg) if isinstance(p, cst.Param)]
    return {p.name.value for p in found}


def _is_receiver_attribute(target: cst.BaseExpression, receiver: str | None) -> bool:
    return (
        receiver is not None
        and isinstance(target, cst.Attribute)
        and isinstance(target.value, cst.Name)
        and target.value.value == receiver
    )


_VISIT: dict[type, Callable[[Collector, Any], None]] = {  # each handler takes its own node type
    cst.Call: Collector._call,
    cst.Raise: Collector._raise,
    cst.ExceptHandler: Collector._handler,
    cst.ExceptStarHandler: Collector._handler,
    cst.FunctionDef: Collector._function,
    cst.Lambda: Collector._lambda,
    cst.ClassDef: Collector._class,
    cst.Yield: Collector._yield,
    cst.Assign: Collector._assign,
    cst.AnnAssign: Collector._assign,
    cst.Import: Collector._import,
    cst.ImportFrom: Collector._import_from,
    # bindings, for resolving names (`analyzer.python.resolve`)
    cst.AsName: Collector._as_name,
    cst.AugAssign: Collector._target,
    cst.For: Collector._for,
    cst.NamedExpr: Collector._walrus,
    cst.CompFor: Collector._for,
    cst.Global: Collector._declared,
    cst.Nonlocal: Collector._declared,
    cst.TypeParam: Collector._type_parameter,
    **dict.fromkeys(COMPREHENSION_TYPES, Collector._comprehension),
}
