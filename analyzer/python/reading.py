"""What a Python handler's body reads of the caught value: its name, the names the body binds to
a value that reads it (`message = str(e)`), as JavaScript's `const m = e.message`, and the
locals that hold a field of it for its tests (`code = e.errno`; docs/reference.md, "Branches")."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable

import libcst as cst

from analyzer.python.shadows import NESTED_SCOPES, ScopeNode, binds, outer_parts

#: nodes visited at most to tell whether an expression reads the caught value
MENTION_NODES = 4096
#: a field name as `getattr` is given it: a plain string of one identifier
_FIELD = re.compile(r"(['\"])[A-Za-z_][A-Za-z0-9_]*\1")


class Reading:
    """The names read as the caught value's, for one handler (none without a parameter)."""

    def __init__(self, param: str | None) -> None:
        self.param = param
        self.names: frozenset[str] = frozenset({param}) if param is not None else frozenset()

    def derive(self, nodes: Iterable[cst.CSTNode]) -> None:
        """Adds the names the body's `nodes` (its own, in source order) bind to a value that reads
        one of the names: `message = str(e)`, `for arg in e.args`, `(reason := e.reason)`."""
        if not self.names:
            return
        for node in nodes:
            value: cst.CSTNode | None
            if isinstance(node, (cst.Assign, cst.AnnAssign, cst.AugAssign)):
                targets: list[cst.CSTNode] = [t.target for t in node.targets] if isinstance(node, cst.Assign) \
                    else [node.target]
                value = node.value
            elif isinstance(node, cst.For):
                targets, value = [node.target], node.iter
            elif isinstance(node, cst.NamedExpr):
                targets, value = [node.target], node.value
            else:
                continue
            bound = {name for target in targets for name in _names(target)} - {self.param}
            if value is not None and bound - self.names and self.mentions(value):
                self.names |= bound

    def mentions(self, node: cst.CSTNode) -> bool:
        """Whether one of the names is read in `node`, outside the nested scopes that bind it again
        (`lambda e: log(e)` reads its own `e`)."""
        if not self.names:
            return False
        stack: list[tuple[cst.CSTNode, frozenset[str]]] = [(node, self.names)]
        visited = 0
        while stack and visited < MENTION_NODES:
            current, reading = stack.pop()
            visited += 1
            if isinstance(current, cst.Name) and current.value in reading:
                return True
            rebound = _rebound(current, reading) if isinstance(current, NESTED_SCOPES) else frozenset()
            if rebound:
                stack.extend((part, reading) for part in outer_parts(current))  # type: ignore[arg-type]
                if reading - rebound:
                    stack.extend((child, reading - rebound) for child in current.children)
            else:
                stack.extend((child, reading) for child in current.children)
        return False


def _rebound(scope: ScopeNode, names: frozenset[str]) -> frozenset[str]:
    return frozenset(name for name in names if binds(scope, name))


def _names(target: cst.CSTNode) -> list[str]:
    """The plain names an assignment target binds (`a`, `a, b`, `[a, *b]`), not attributes."""
    if isinstance(target, cst.Name):
        return [target.value]
    if isinstance(target, (cst.Tuple, cst.List)):
        return [name for element in target.elements for name in _names(element.value)]
    if isinstance(target, cst.StarredElement):
        return _names(target.value)
    return []


def held_fields(statements: list[cst.CSTNode], field_of: Callable[[cst.BaseExpression], object],
                body: cst.CSTNode, declared: Iterable[str]) -> dict[str, tuple[str, int]]:
    """The locals the clause's top-level `statements` bind once to a field path of the caught
    value (`code = e.errno`, `status = getattr(e, "status", None)`): name -> (the path, the
    index of its statement). `field_of` gives a value's path (a str when it is one); a name bound
    anywhere else in the clause's `body` (nested scopes too), or `global`/`nonlocal` (`declared`),
    may hold something else and is left out."""
    found: dict[str, tuple[str, int]] = {}
    for at, statement in enumerate(statements):
        if isinstance(statement, cst.Assign) and len(statement.targets) == 1 and \
                isinstance(statement.targets[0].target, cst.Name):
            path = field_of(statement.value)
            if isinstance(path, str):
                found.setdefault(statement.targets[0].target.value, (path, at))
    if not found:
        return {}
    bound = Counter(name for node in _nodes(body) for name in _bound(node))
    outer = set(declared)
    return {name: held for name, held in found.items() if bound[name] == 1 and name not in outer}


def _nodes(root: cst.CSTNode) -> Iterable[cst.CSTNode]:
    stack = [root]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(node.children)


def _bound(node: cst.CSTNode) -> list[str]:
    """The names a node binds: assignment and loop targets, `with ... as`, `:=`, `except ... as`,
    imports, `def`, `class` and `del`."""
    if isinstance(node, cst.Assign):
        return [name for t in node.targets for name in _names(t.target)]
    if isinstance(node, (cst.AugAssign, cst.AnnAssign, cst.For, cst.NamedExpr, cst.CompFor, cst.Del)):
        return _names(node.target)
    if isinstance(node, (cst.AsName, cst.FunctionDef, cst.ClassDef)):
        return _names(node.name)
    if isinstance(node, cst.ImportAlias) and node.asname is None:
        return [node.evaluated_name.split(".")[0]]
    return []


def getattr_field(node: cst.BaseExpression, is_getattr: Callable[[cst.BaseExpression], bool]) -> str | None:
    """The field `getattr(x, "name")` or `getattr(x, "name", None)` reads (an absent field is
    None), else None; `is_getattr` tells whether a callee is the builtin. Another default would
    stand for the field where it is absent."""
    if not isinstance(node, cst.Call) or len(node.args) not in (2, 3) or any(a.keyword or a.star for a in node.args):
        return None
    if len(node.args) == 3 and not (isinstance(node.args[2].value, cst.Name) and node.args[2].value.value == "None"):
        return None
    name = node.args[1].value
    if not isinstance(name, cst.SimpleString) or not _FIELD.fullmatch(name.value) or not is_getattr(node.func):
        return None
    return name.value[1:-1]
