"""What becomes of a Python error callsite's error in its function, as far as one file tells
(`follow`): its fate past the immediate consumer, the attributes set on it and the statement
that raises it; `analyzer.python.catching` settles the handler and whether it leaves its
function (docs/reference.md, "Flow"). The flow is local and exact: anything else leaves the fate
None."""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from analyzer.model import Fate
from analyzer.python.collected import Frame

#: methods that keep their argument in the container they are called on (`errors.append(e)`)
_STORING = frozenset({"append", "appendleft", "add", "insert", "put", "put_nowait"})
#: `future.set_exception(e)` hands the error to whoever awaits the future
_REJECTING = frozenset({"set_exception"})
#: syntax nodes of the statements after a local's assignment searched for another use of it
_FOLLOW_NODES = 4096
_BLOCKS = (cst.IndentedBlock, cst.Module)


@dataclass(frozen=True, slots=True)
class Followed:
    """One error callsite's flow as far as its file tells."""

    #: the fate, `logged` aside: a call that may be a diagnostic callsite gives `passed` here
    fate: Fate | None
    #: attributes set on it before its fate (`e.errno = ...`), sorted
    fields: tuple[str, ...]
    #: the position in the callsite's path of the statement that raises it (a `raise` of it, or
    #: the line of `e = X(...)` whose block raises `e` later), else None
    raised_at: int | None = None
    #: the offset of the call it is given to when that call is a diagnostic callsite (its fate
    #: is `logged` if that callsite settles as one)
    logged_by: int | None = None


_NOT_FOLLOWED = Followed(None, ())


def follow(node: cst.CSTNode, path: tuple[cst.CSTNode, ...], frames: tuple[Frame, ...],
           known: dict[int, tuple[str, int]]) -> Followed:
    """The flow of the error made at `node`; `path`: its ancestors, outermost first; `known`: id
    of a callsite's node -> (kind, offset)."""
    if not path:
        return _NOT_FOLLOWED
    at = len(path) - 1
    parent = path[at]
    if isinstance(parent, cst.Raise) and parent.exc is node:
        return Followed("thrown", (), at)
    if (isinstance(parent, cst.Return) and parent.value is node) or \
            (isinstance(parent, cst.Lambda) and parent.body is node):
        return Followed("returned", ())
    if isinstance(parent, cst.Expr) and parent.value is node:
        return Followed("discarded", ())
    call = path[at - 1] if at > 0 else None
    if isinstance(parent, cst.Arg) and parent.value is node and isinstance(call, cst.Call):
        return _given(call, parent, known, ())
    if isinstance(parent, (cst.Assign, cst.AnnAssign)) and parent.value is node:
        targets = [t.target for t in parent.targets] if isinstance(parent, cst.Assign) else [parent.target]
        if all(isinstance(t, (cst.Attribute, cst.Subscript)) for t in targets):
            return Followed("stored", ())
        if len(targets) == 1 and isinstance(targets[0], cst.Name):
            return _local(targets[0].value, path, at, frames, known)
    return _NOT_FOLLOWED


def _given(call: cst.Call, arg: cst.Arg, known: dict[int, tuple[str, int]], fields: tuple[str, ...]) -> Followed:
    """The error is the argument `arg` of `call`."""
    if arg.star:
        return Followed(None, fields)
    func = call.func
    fate: Fate = "passed"
    if isinstance(func, cst.Attribute) and func.attr.value in _REJECTING:
        fate = "rejected"
    elif isinstance(func, cst.Attribute) and func.attr.value in _STORING:
        fate = "stored"
    seen = known.get(id(call))
    return Followed(fate, fields, None, seen[1] if seen is not None and seen[0] == "diagnostic" else None)


def _local(name: str, path: tuple[cst.CSTNode, ...], at: int, frames: tuple[Frame, ...],
           known: dict[int, tuple[str, int]]) -> Followed:
    """`name = <error>` (path[at] the assignment): a later small statement `raise name` of the
    same block decides `thrown`; else the first later statement that returns it or gives it to a
    call; a statement that reads it otherwise leaves the fate None; none that reads it,
    `discarded` (in a function's body itself: a nested block's local is read after the block
    too). A module's, class's or `global` name holding it is `stored`."""
    if at < 2:
        return _NOT_FOLLOWED
    line, block = path[at - 1], path[at - 2]
    if not isinstance(line, cst.SimpleStatementLine) or not isinstance(block, _BLOCKS):
        return _NOT_FOLLOWED
    later = _later(line, path[at], block)
    frame = frames[-1] if frames else None
    scoped = frame is not None and frame.kind == "function"
    declared = frame.overwrites.get(name) if frame is not None else None
    fields: set[str] = set()
    first: Followed | None = None
    unknown = False
    budget = [_FOLLOW_NODES]
    for statement in later:
        if isinstance(statement, cst.Raise) and _is_name(statement.exc, name):
            return Followed("thrown", tuple(sorted(fields)), at - 1)
        if first is not None or unknown:
            continue  # only a later raise can still change the fate
        use = _use(statement, name, fields, known, budget)
        if use == "unknown":
            unknown = True
        elif isinstance(use, Followed):
            first = use
    if not scoped or declared == "global":
        return Followed("stored", tuple(sorted(fields))) if declared != "nonlocal" else _NOT_FOLLOWED
    if declared is not None:
        return _NOT_FOLLOWED
    if first is not None:
        return first
    if unknown or budget[0] <= 0 or not (isinstance(block, cst.IndentedBlock) and at >= 3
                                         and path[at - 3] is frame.node):  # type: ignore[union-attr]
        return _NOT_FOLLOWED
    return Followed("discarded", tuple(sorted(fields)))


def _later(line: cst.SimpleStatementLine, assignment: cst.CSTNode,
           block: cst.IndentedBlock | cst.Module) -> list[cst.CSTNode]:
    """The statements after `assignment`: the rest of its line, then the block's next statements
    (the small statements of a simple line one by one)."""
    out: list[cst.CSTNode] = []
    small = list(line.body)
    out.extend(small[next(i for i, s in enumerate(small) if s is assignment) + 1:])
    seen = False
    for statement in block.body:
        if seen:
            out.extend(statement.body if isinstance(statement, cst.SimpleStatementLine) else [statement])
        seen = seen or statement is line
    return out


def _use(statement: cst.CSTNode, name: str, fields: set[str], known: dict[int, tuple[str, int]],
         budget: list[int]) -> Followed | str | None:
    """What one statement does with the local `name`: its fate, an attribute set on it (into
    `fields`, None), "unknown" for another read of it, None when it does not read it."""
    value: cst.BaseExpression | None = None
    if isinstance(statement, cst.Assign):
        targets = [t.target for t in statement.targets]
        if len(targets) == 1 and isinstance(targets[0], cst.Attribute) and _is_name(targets[0].value, name):
            fields.add(targets[0].attr.value)
            return "unknown" if _reads(statement.value, name, budget) is not False else None
        if _is_name(statement.value, name) and all(isinstance(t, (cst.Attribute, cst.Subscript)) for t in targets) \
                and not any(_reads(t, name, budget) is not False for t in targets):
            return Followed("stored", tuple(sorted(fields)))
    elif isinstance(statement, cst.Return):
        if _is_name(statement.value, name):
            return Followed("returned", tuple(sorted(fields)))
        value = statement.value
    elif isinstance(statement, cst.Expr):
        value = statement.value
    if isinstance(value, cst.Call):
        given = [a for a in value.args if _is_name(a.value, name)]
        rest = [value.func, *(a.value for a in value.args if not _is_name(a.value, name))]
        if len(given) == 1 and not any(_reads(r, name, budget) is not False for r in rest):
            return _given(value, given[0], known, tuple(sorted(fields)))
    return "unknown" if _reads(statement, name, budget) is not False else None


def _is_name(node: cst.CSTNode | None, name: str) -> bool:
    return isinstance(node, cst.Name) and node.value == name


def _reads(node: cst.CSTNode, name: str, budget: list[int]) -> bool | None:
    """Whether `name` occurs as a Name in `node` (nested functions included: a closure keeps
    it); None when the budget of nodes ran out first."""
    stack = [node]
    while stack:
        if budget[0] <= 0:
            return None
        current = stack.pop()
        budget[0] -= 1
        if isinstance(current, cst.Name) and current.value == name:
            return True
        stack.extend(current.children)
    return False
