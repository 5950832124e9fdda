"""What a Python handler's body reads of the caught value: its name, and the names the body
binds to a value that reads it (`message = str(e)`), as JavaScript's `const m = e.message`
(docs/reference.md, "Dispositions")."""

from __future__ import annotations

from collections.abc import Iterable

import libcst as cst

from analyzer.python.shadows import NESTED_SCOPES, ScopeNode, binds, outer_parts

#: nodes visited at most to tell whether an expression reads the caught value
MENTION_NODES = 4096


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
