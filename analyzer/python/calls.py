"""What one file tells of calls between the input's functions (docs/reference.md, "Handler
records", Python): the functions a call may resolve to exactly, and the calls that may reach
them, each with its callee, its function and the `try` blocks holding it.
`analyzer.python.callsources` links them once every module is read. A call that resolves to no
function exactly reaches nothing."""

from __future__ import annotations

import libcst as cst

from analyzer.python.collected import Candidate, Collected, Frame, Where
from analyzer.python.filefacts import CallRecord, FunctionRecord
from analyzer.python.scopes import innermost_function
from analyzer.python.sites import SiteBuilder
from analyzer.python.syntax import SCOPE_TYPES, TRY_TYPES

Callee = str | tuple[str, str]


def raised_in(builder: SiteBuilder, path: tuple[cst.CSTNode, ...], at: int | None) -> tuple[tuple[int, ...], ...]:
    """For an error callsite that is raised (`analyzer.python.flow.Followed.raised_at`: `at` is
    the position in its `path` of the statement that raises it): the handler offsets of every
    `try` whose block (not its handlers, `else` or `finally`) holds that statement in the same
    function, innermost first."""
    if at is None:
        return ()
    groups = []
    child = path[at]
    for parent in reversed(path[:at]):
        if isinstance(parent, SCOPE_TYPES):
            break
        if isinstance(parent, TRY_TYPES) and parent.body is child:
            groups.append(tuple(builder.offset(h) for h in parent.handlers))
        child = parent
    return tuple(groups)


def function_records(builder: SiteBuilder, found: Collected) -> list[FunctionRecord]:
    """The functions of the file a call may resolve to exactly: a `def` at module level or in the
    body of a class that is not inside a function, the only binding of its name there,
    undecorated (a decorator may wrap or replace it) and not a generator (a call runs none of it)."""
    module = builder.task.module
    out = []
    for scope in found.scopes.values():
        if not isinstance(scope, Frame) or scope.kind != "function" or "<" in scope.qualname:
            continue
        node: cst.FunctionDef = scope.node  # type: ignore[assignment]
        if node.decorators or scope.generator:
            continue
        parent = scope.parent
        if parent is not None and not (isinstance(parent, Frame) and parent.kind == "class"):
            continue
        bindings = found.module_bindings if parent is None else parent.bindings
        if len(bindings.get(node.name.value, ())) != 1:
            continue
        owner = f"{module}.{parent.qualname}" if parent is not None else None
        start = builder.spans[id(node)][0]
        line = builder.map.line_column(start)[0]
        out.append(FunctionRecord(f"{module}.{scope.qualname}", builder.map.byte(start), line,
                                  node.asynchronous is not None, owner))
    out.sort(key=lambda f: f.offset)
    return out


def call_records(builder: SiteBuilder, calls: list[Candidate]) -> list[CallRecord]:
    """The calls (`Collected.calls`) that resolve, in a `try` block or in a function."""
    out = []
    for candidate in calls:
        call: cst.Call = candidate.node  # type: ignore[assignment]
        path = candidate.path
        tries = raised_in(builder, (*path, call), len(path))
        function = innermost_function(path)
        if function is None and not tries:
            continue
        callee = call_target(builder, call.func, candidate.where)
        if callee is None:
            continue
        parent = path[-1] if path else None
        awaited = isinstance(parent, cst.Await) and parent.expression is call
        out.append(CallRecord(builder.offset(call), callee, builder.offset(function) if function is not None else None,
                              tries, awaited))
    return out


def call_target(builder: SiteBuilder, func: cst.BaseExpression, where: Where) -> Callee | None:
    """What a callee resolves to in its file: `self.m` in a method of a class that is not inside a
    function, `self` its first parameter and bound nowhere else -> (the class, "m"); a name or an
    attribute of an import -> its one qualified name (a module-level function's, settled later);
    else None."""
    if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and func.value.value == "self":
        owner = _receiver_class(where.frames, "self")
        if owner is not None:
            return (f"{builder.task.module}.{owner.qualname}", func.attr.value)
    if not isinstance(func, (cst.Name, cst.Attribute)):
        return None
    qualified = builder.qualified(func, where)
    if len(qualified) != 1 or qualified[0].startswith("builtins."):
        return None
    return qualified[0]


def _receiver_class(frames: tuple[Frame, ...], receiver: str) -> Frame | None:
    """The class whose method has `receiver` as its first parameter, when no scope between
    rebinds it and the class is not inside a function."""
    for index in range(len(frames) - 1, 0, -1):
        frame = frames[index]
        if frame.kind == "class":
            return None
        if frame.receiver == receiver:
            owner = frames[index - 1]
            if owner.kind != "class" or "<" in owner.qualname or len(frame.bindings.get(receiver, ())) != 1:
                return None
            return owner
        if receiver in frame.bindings:
            return None
    return None
