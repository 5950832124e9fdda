"""One traversal of a module: the nodes that may be callsites, classes, logger bindings and
module-level aliases, each with its ancestor chain (a side table, the tree is not touched).

Nothing here resolves a name: a call is a *candidate* when its callee's last name could be
an error class or a logging/warnings function, and the walk records every binding (per
function and class body, and at module level) for `analyzer.python.resolve` to decide with.
The visitor keeps its own ancestor stack (libcst's ParentNodeProvider asks every node for its
`children`, a second full walk that cost 30 s on the pip tree) and dispatches by node type.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import libcst as cst

from analyzer.python.syntax import decorator_names, dotted, first_parameter, last_name


@dataclass(slots=True)
class Frame:
    """An enclosing function, lambda or class while the traversal is inside it."""

    node: cst.FunctionDef | cst.Lambda | cst.ClassDef
    #: `function`, `lambda` or `class`
    kind: str
    #: Python's `__qualname__` (`C.m.<locals>.f`), relative to the module
    qualname: str
    #: a method's first parameter (`self`, `cls`), else None
    receiver: str | None = None
    #: the function yields
    generator: bool = False
    #: classes: names set in the class body and `self.<name>` set in `__init__`
    fields: set[str] = field(default_factory=set)
    #: every binding of a name in this function or class body (parameters included):
    #: `("import", dotted target)` or `("local", id of the bound Name node, 0 otherwise)`
    bindings: dict[str, list[tuple[str, str | int]]] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Candidate:
    node: cst.CSTNode
    #: `call` (a Call node) or `raise` (the Name/Attribute of a bare `raise C`)
    form: str
    #: ancestors, outermost first, the node itself excluded
    chain: tuple[cst.CSTNode, ...]
    frames: tuple[Frame, ...]


@dataclass(frozen=True, slots=True)
class LoggerBinding:
    #: the factory call (`logging.getLogger(...)`): resolved later against the rules
    factory: cst.Call
    #: a Name target, or None for an attribute
    target: cst.Name | None
    #: `self.<attribute>` in `__init__` or a name in a class body: (class frame, attribute)
    attribute: tuple[Frame, str] | None
    #: bound at module level (importable by other modules)
    module_level: bool
    #: where the binding is, for resolving the factory's name
    chain: tuple[cst.CSTNode, ...]
    frames: tuple[Frame, ...]


@dataclass(slots=True)
class Collected:
    candidates: list[Candidate] = field(default_factory=list)
    classes: list[Candidate] = field(default_factory=list)
    loggers: list[LoggerBinding] = field(default_factory=list)
    #: module-level `import`/`from ... import`: bound name -> dotted target (relative kept)
    imports: dict[str, str] = field(default_factory=dict)
    #: module-level `from X import *`
    star_imports: list[str] = field(default_factory=list)
    #: module-level `NAME = <name or attribute>` (aliases of classes or loggers)
    assignments: list[tuple[str, cst.BaseExpression]] = field(default_factory=list)
    #: every module-level binding of a name: `("import", dotted target)` or `("local", id of
    #: the bound Name node, 0 for a def/class)`
    module_bindings: dict[str, list[tuple[str, str | int]]] = field(default_factory=dict)
    #: names whose resolution needs libcst's scope analysis: bound in a comprehension or a
    #: lambda, declared global or nonlocal, type parameters
    scoped_names: set[str] = field(default_factory=set)


class Collector(cst.CSTVisitor):
    def __init__(self, error_names: frozenset[str], call_names: frozenset[str],
                 method_names: frozenset[str], factory_names: frozenset[str]) -> None:
        super().__init__()
        #: last names that may be error classes (builtin, external, any class of the bundle)
        self.error_names = error_names
        #: bare names that may be logging/warnings functions (`warn`, `info` imported)
        self.call_names = call_names
        #: attribute names that may be logger methods or warnings functions
        self.method_names = method_names
        #: last names of logger factories (`getLogger`)
        self.factory_names = factory_names
        self.stack: list[cst.CSTNode] = []
        self.frames: list[Frame] = []
        self.found = Collected()
        #: a class's own frame (its fields are complete once the walk is over), by id of the node
        self.class_frames: dict[int, Frame] = {}

    # the traversal: an ancestor stack and a dispatch table, nothing per attribute
    def on_visit(self, node: cst.CSTNode) -> bool:
        self.stack.append(node)
        handler = _VISIT.get(type(node))
        if handler is not None:
            handler(self, node)
        return True

    def on_leave(self, original_node: cst.CSTNode) -> None:
        self.stack.pop()
        if self.frames and self.frames[-1].node is original_node:
            self.frames.pop()

    def on_visit_attribute(self, node: cst.CSTNode, attribute: str) -> None:
        return None

    def on_leave_attribute(self, original_node: cst.CSTNode, attribute: str) -> None:
        return None

    def _bind(self, name: str, how: tuple[str, str | int]) -> None:
        bindings = self.frames[-1].bindings if self.frames else self.found.module_bindings
        bindings.setdefault(name, []).append(how)

    def _bind_target(self, target: cst.BaseExpression | None) -> None:
        pending: list[cst.BaseExpression | None] = [target]
        while pending:
            current = pending.pop()
            if isinstance(current, cst.Name):
                self._bind(current.value, ("local", id(current)))
            elif isinstance(current, (cst.Tuple, cst.List)):
                pending.extend(element.value for element in current.elements)
            elif isinstance(current, cst.StarredElement):
                pending.append(current.value)

    def _candidate(self, node: cst.CSTNode, form: str) -> Candidate:
        return Candidate(node, form, tuple(self.stack[:-1]), tuple(self.frames))

    # handlers
    def _call(self, node: cst.Call) -> None:
        func = node.func
        if isinstance(func, cst.Name):
            name = func.value
            if name in self.error_names or name in self.call_names:
                self.found.candidates.append(self._candidate(node, "call"))
        elif isinstance(func, cst.Attribute):
            name = func.attr.value
            if name in self.error_names or name in self.method_names:
                self.found.candidates.append(self._candidate(node, "call"))

    def _raise(self, node: cst.Raise) -> None:
        exc = node.exc
        if isinstance(exc, (cst.Name, cst.Attribute)) and last_name(exc) in self.error_names:
            self.stack.append(exc)
            self.found.candidates.append(self._candidate(exc, "raise"))
            self.stack.pop()

    def _function(self, node: cst.FunctionDef) -> None:
        self._bind(node.name.value, ("local", 0))
        outer = self.frames[-1] if self.frames else None
        receiver = None
        if outer is not None and outer.kind == "class" and "staticmethod" not in decorator_names(node):
            receiver = first_parameter(node)
        frame = Frame(node, "function", _qualname(outer, node.name.value), receiver)
        frame.bindings.update((name, [("local", 0)]) for name in _parameters(node.params))
        self.frames.append(frame)

    def _lambda(self, node: cst.Lambda) -> None:
        outer = self.frames[-1] if self.frames else None
        self.found.scoped_names.update(_parameters(node.params))  # libcst names lambda scopes its own way
        self.frames.append(Frame(node, "lambda", _qualname(outer, "<lambda>")))

    def _class(self, node: cst.ClassDef) -> None:
        self._bind(node.name.value, ("local", 0))
        outer = self.frames[-1] if self.frames else None
        self.found.classes.append(self._candidate(node, "class"))
        frame = Frame(node, "class", _qualname(outer, node.name.value))
        self.class_frames[id(node)] = frame
        self.frames.append(frame)

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
            self.found.assignments.extend((t.value, value) for t in targets if isinstance(t, cst.Name))

    def _logger_bindings(self, factory: cst.Call, targets: list[cst.BaseAssignTargetExpression],
                         owner: Frame | None, receiver: str | None) -> None:
        """`name = getLogger(...)` anywhere, `name = ...` in a class body, `self.x = ...` in `__init__`."""
        chain, frames = self._where()
        module_level = not self.frames
        for target in targets:
            if isinstance(target, cst.Name):
                attribute = (owner, target.value) if owner is not None and receiver is None else None
                self.found.loggers.append(LoggerBinding(factory, target, attribute, module_level, chain, frames))
            elif owner is not None and _is_receiver_attribute(target, receiver):
                attribute = (owner, target.attr.value)  # type: ignore[attr-defined]
                self.found.loggers.append(LoggerBinding(factory, None, attribute, False, chain, frames))

    def _where(self) -> tuple[tuple[cst.CSTNode, ...], tuple[Frame, ...]]:
        return tuple(self.stack[:-1]), tuple(self.frames)

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
            bound = alias.asname.name.value if alias.asname is not None and isinstance(alias.asname.name, cst.Name) else name
            joiner = "" if source.endswith(".") or not source else "."
            self._imported(bound, f"{source}{joiner}{name}")

    def _imported(self, bound: str, target: str) -> None:
        self._bind(bound, ("import", target))
        if not self.frames:
            self.found.imports[bound] = target

    def _as_name(self, node: cst.AsName) -> None:
        if not isinstance(self.stack[-2], cst.ImportAlias):  # imports are bound by their statement
            self._bind_target(node.name)  # type: ignore[arg-type]

    def _target(self, node: cst.AugAssign | cst.For | cst.Del | cst.NamedExpr) -> None:
        self._bind_target(node.target)

    def _comprehension_target(self, node: cst.CompFor) -> None:
        pending: list[cst.BaseExpression] = [node.target]
        while pending:  # bound in the comprehension's own scope
            current = pending.pop()
            if isinstance(current, cst.Name):
                self.found.scoped_names.add(current.value)
            elif isinstance(current, (cst.Tuple, cst.List)):
                pending.extend(element.value for element in current.elements)
            elif isinstance(current, cst.StarredElement):
                pending.append(current.value)

    def _declared(self, node: cst.Global | cst.Nonlocal) -> None:
        self.found.scoped_names.update(item.name.value for item in node.names)

    def _pattern_name(self, node: cst.MatchAs | cst.MatchStar | cst.MatchMapping) -> None:
        name = node.rest if isinstance(node, cst.MatchMapping) else node.name
        if isinstance(name, cst.Name):
            self._bind(name.value, ("local", id(name)))

    def _type_parameter(self, node: cst.TypeParam) -> None:
        name = getattr(node.param, "name", None)
        if isinstance(name, cst.Name):
            self.found.scoped_names.add(name.value)


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


_VISIT: dict[type, Callable[[Collector, cst.CSTNode], None]] = {
    cst.Call: Collector._call,  # type: ignore[dict-item]
    cst.Raise: Collector._raise,  # type: ignore[dict-item]
    cst.FunctionDef: Collector._function,  # type: ignore[dict-item]
    cst.Lambda: Collector._lambda,  # type: ignore[dict-item]
    cst.ClassDef: Collector._class,  # type: ignore[dict-item]
    cst.Yield: Collector._yield,  # type: ignore[dict-item]
    cst.Assign: Collector._assign,  # type: ignore[dict-item]
    cst.AnnAssign: Collector._assign,  # type: ignore[dict-item]
    cst.Import: Collector._import,  # type: ignore[dict-item]
    cst.ImportFrom: Collector._import_from,  # type: ignore[dict-item]
    # bindings, for resolving names without scope analysis when nothing but parameters and
    # module-level bindings are involved (`analyzer.python.resolve`)
    cst.AsName: Collector._as_name,  # type: ignore[dict-item]
    cst.AugAssign: Collector._target,  # type: ignore[dict-item]
    cst.For: Collector._target,  # type: ignore[dict-item]
    cst.Del: Collector._target,  # type: ignore[dict-item]
    cst.NamedExpr: Collector._target,  # type: ignore[dict-item]
    cst.CompFor: Collector._comprehension_target,  # type: ignore[dict-item]
    cst.Global: Collector._declared,  # type: ignore[dict-item]
    cst.Nonlocal: Collector._declared,  # type: ignore[dict-item]
    cst.MatchAs: Collector._pattern_name,  # type: ignore[dict-item]
    cst.MatchStar: Collector._pattern_name,  # type: ignore[dict-item]
    cst.MatchMapping: Collector._pattern_name,  # type: ignore[dict-item]
    cst.TypeParam: Collector._type_parameter,  # type: ignore[dict-item]
}
