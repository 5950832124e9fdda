"""Whether a scope nested in an expression of an `except` clause (a lambda, a comprehension)
binds the caught value's name again (docs/reference.md, "Which name is the caught value"): then
a read of that name inside it is the scope's own, and only what the enclosing scope evaluates of
it (a lambda's defaults, a comprehension's first iterable) can read the caught value. A `def` or
`class` is a statement: no expression holds one."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from analyzer.python.syntax import COMPREHENSION_TYPES

#: the scopes an expression can hold
ScopeNode = cst.Lambda | cst.ListComp | cst.SetComp | cst.DictComp | cst.GeneratorExp
NESTED_SCOPES = (cst.Lambda, *COMPREHENSION_TYPES)


def binds(scope: ScopeNode, name: str) -> bool:
    """Whether `scope` binds `name` for the code inside it: a lambda's parameter, a
    comprehension's `for` target (a `:=` in a comprehension binds in the enclosing scope)."""
    if isinstance(scope, cst.Lambda):
        params = scope.params
        every = [*params.posonly_params, *params.params, *params.kwonly_params,
                 *(star for star in (params.star_arg, params.star_kwarg) if isinstance(star, cst.Param))]
        return any(p.name.value == name for p in every)
    return any(name in _targets(part.target) for part in _fors(scope.for_in))


def outer_parts(scope: ScopeNode) -> list[cst.CSTNode]:
    """What the enclosing scope evaluates of a nested one: a lambda's defaults, a comprehension's
    first iterable."""
    if isinstance(scope, cst.Lambda):
        params = scope.params
        return [p.default for p in (*params.posonly_params, *params.params, *params.kwonly_params)
                if p.default is not None]
    return [scope.for_in.iter]


def _fors(clause: cst.CompFor) -> Iterator[cst.CompFor]:
    current: cst.CompFor | None = clause
    while current is not None:
        yield current
        current = current.inner_for_in


def _targets(target: cst.CSTNode) -> set[str]:
    """The names a target binds (`a`, `a, (b, *c)`; not `a.b` or `a[0]`)."""
    if isinstance(target, cst.Name):
        return {target.value}
    if isinstance(target, (cst.Tuple, cst.List)):
        return set().union(*(_targets(element.value) for element in target.elements))
    if isinstance(target, cst.StarredElement):
        return _targets(target.value)
    return set()
