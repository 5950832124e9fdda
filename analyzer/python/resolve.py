"""What a name at a callsite refers to, as absolute dotted names of the input. Two resolvers with
one interface: `ModuleNames` answers from the bindings the collector recorded in its one pass,
`ScopeNames` asks libcst's scope analysis itself, for the few files that bind a name the walk
does not model (docs/performance.md, "One pass over a module")."""

from __future__ import annotations

import builtins
from collections.abc import Mapping

import libcst as cst
from libcst.metadata import QualifiedName, QualifiedNameSource
from libcst.metadata.scope_provider import GlobalScope
from libcst.metadata.scope_provider import Scope as LibcstScope

from analyzer.python.collected import Binding, Collected, Frame, Scope, Where, visible_parent
from analyzer.python.syntax import dotted

BUILTIN_NAMES = frozenset(dir(builtins))


class NeedScopes(Exception):
    """A name the one-pass resolver cannot decide."""


class Names:
    """libcst-style names (relative imports, module-local names) -> absolute dotted names."""

    def __init__(self, module: str, package: str) -> None:
        self.module, self.package = module, package

    def absolute_import(self, name: str) -> str:
        if not name.startswith("."):
            return name
        dots = len(name) - len(name.lstrip("."))
        base = self.package.split(".") if self.package else []
        base = base[: max(len(base) - (dots - 1), 0)]
        rest = name[dots:]
        return ".".join([*base, rest] if rest else base)

    def absolute(self, qualified: QualifiedName) -> str:
        if qualified.source is QualifiedNameSource.BUILTIN:
            return qualified.name
        if qualified.source is QualifiedNameSource.IMPORT:
            return self.absolute_import(qualified.name)
        return f"{self.module}.{qualified.name}"


class ScopeNames:
    def __init__(self, scopes: Mapping[cst.CSTNode, LibcstScope | None], names: Names, star_imports: bool) -> None:
        self.scopes, self.names, self.star_imports = scopes, names, star_imports

    def qualified(self, node: cst.CSTNode, where: Where) -> list[str]:
        scope = self.scopes.get(node)
        if scope is None:
            return []
        found = sorted({self.names.absolute(q) for q in scope.get_qualified_names_for(node)})
        if not found and self.star_imports and isinstance(node, (cst.Name, cst.Attribute)):
            written = dotted(node)  # bound by nothing here: maybe by `from x import *`, settled later
            return [f"{self.names.module}.{written}"] if written else []
        return found

    def bindings(self, name: cst.Name, where: Where) -> list[tuple[str, str | int]]:
        scope = self.scopes.get(name)
        if scope is None:
            return []
        out: list[tuple[str, str | int]] = []
        for access in scope.accesses[name]:
            for referent in access.referents:
                kind = type(referent).__name__
                if kind == "ImportAssignment":
                    out.append(("import", ""))
                elif kind == "Assignment":
                    out.append(("local", id(getattr(referent, "node", None))))
                else:
                    out.append(("other", 0))
        return out

    def sees_module(self, name: cst.Name, where: Where) -> bool:
        """Whether the read may see a module-level binding of the name."""
        scope = self.scopes.get(name)
        if scope is None:
            return False
        return any(isinstance(r.scope, GlobalScope) for a in scope.accesses[name] for r in a.referents)


class ModuleNames:
    """Resolution from the recorded bindings (see the module's docstring). As in libcst, a
    name (not an attribute) sees only the bindings of its own scope made before it, and its
    enclosing scope's when there are none: `TimeoutError = TimeoutError` reads the builtin."""

    def __init__(self, found: Collected, names: Names) -> None:
        self.found, self.names = found, names
        self.star_imports = bool(found.star_imports)

    def qualified(self, node: cst.CSTNode, where: Where) -> list[str]:
        written = dotted(node) if isinstance(node, (cst.Name, cst.Attribute)) else None
        if written is None:
            return []  # as libcst: a call's or subscript's attribute has no qualified name
        root, _, rest = written.partition(".")
        tail = f".{rest}" if rest else ""
        scope, bound = self._binding(root, where, flow=isinstance(node, cst.Name))
        if bound:
            prefix = self.names.module if scope is None or not scope.prefix else f"{self.names.module}.{scope.prefix}"
            local = f"{prefix}.{written}"
            return sorted({self.names.absolute_import(str(t)) + tail if k == "import" else local for k, t, _ in bound})
        if root in BUILTIN_NAMES:
            return [f"builtins.{written}"]
        return [f"{self.names.module}.{written}"] if self.star_imports else []

    def bindings(self, name: cst.Name, where: Where) -> list[tuple[str, str | int]]:
        _, bound = self._binding(name.value, where, flow=True)
        if bound:
            return [("import", "") if kind == "import" else ("local", target) for kind, target, _ in bound]
        return [("other", 0)] if name.value in BUILTIN_NAMES else []

    def sees_module(self, name: cst.Name, where: Where) -> bool:
        """Whether the read sees the module-level bindings of the name."""
        scope, bound = self._binding(name.value, where, flow=True)
        return scope is None and bool(bound)

    def _binding(self, name: str, where: Where, flow: bool) -> tuple[Scope | None, list[Binding]]:
        """(the scope whose bindings of `name` the access at `where` sees, None for the module;
        those bindings)."""
        if name in self.found.type_parameters:
            raise NeedScopes(name)
        around = self._around(where)
        scope, bound = self._resolve(name, around, 0)
        access = around[0] if around else None
        if not (flow and bound and scope is access):
            return scope, bound
        previous = [b for b in bound if b[2] < where.index]
        if previous:
            return scope, previous
        return (None, []) if access is None else self._resolve(name, around, 1)

    def _resolve(self, name: str, around: list[Scope], start: int) -> tuple[Scope | None, list[Binding]]:
        """libcst's `_resolve_scope_for_access` from `around[start]` outwards: the first scope's
        own bindings, then those of enclosing scopes but class bodies; `global` goes to the
        module, `nonlocal` to the enclosing function."""
        at = start
        while at < len(around):
            scope = around[at]
            kind = scope.overwrites.get(name)
            if kind == "global":
                break
            if kind == "nonlocal":
                target = visible_parent(scope)
                if target is None or target not in around[at + 1:]:
                    break
                at = around.index(target, at + 1)
                continue
            if at == start or not (isinstance(scope, Frame) and scope.kind == "class"):
                bound = scope.bindings.get(name, [])
                if bound:
                    return scope, bound
            at += 1
        return None, self.found.module_bindings.get(name, [])

    def _around(self, where: Where) -> list[Scope]:
        """The scopes `where` is inside (not in their headers), innermost first."""
        scopes = self.found.scopes
        out: list[Scope] = []
        child, grandchild = where.origin, None
        for node in reversed(where.path):
            scope = scopes.get(id(node))
            if scope is not None and scope.node is node and child is not None and scope.inside(child, grandchild):
                out.append(scope)
            child, grandchild = node, child
        return out

