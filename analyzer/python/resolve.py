"""What a name at a callsite refers to, as absolute dotted names of the bundle.

Two resolvers with one interface. `ScopeNames` asks libcst's scope analysis
(ExpressionContextProvider -> ScopeProvider: `get_qualified_names_for`, access referents).
`ModuleNames` answers from the bindings the collector recorded during its walk (per function
and class body, and at module level) with the same rules and the same names libcst gives:
the innermost enclosing function binding the name (or the class body the site is directly
in), else the module, else builtins. Names it does not model (bound in a comprehension or a
lambda, declared global/nonlocal, type parameters) raise `NeedScopes`, and that file is
resolved again with `ScopeNames`. On the pip tree 30 files of 491 need the scope analysis and
a scan takes half the time; `ERRATLAS_PYTHON_SCOPES=libcst` forces it everywhere, and the
tests check that both give byte-identical outputs.
"""

from __future__ import annotations

import builtins
import os
from collections.abc import Mapping, Sequence

import libcst as cst
from libcst.metadata import QualifiedName, QualifiedNameSource
from libcst.metadata.scope_provider import Scope

from analyzer.python.collect import Collected, Frame
from analyzer.python.syntax import dotted

BUILTIN_NAMES = frozenset(dir(builtins))
Binding = tuple[str, "str | int"]  # ("import", dotted) | ("local", id of the bound Name, or 0) | ("other", 0)


def scopes_everywhere() -> bool:
    return os.environ.get("ERRATLAS_PYTHON_SCOPES", "") == "libcst"


class NeedScopes(Exception):
    """A name the module-level resolver cannot decide."""


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
    def __init__(self, scopes: Mapping[cst.CSTNode, Scope | None], names: Names, star_imports: bool) -> None:
        self.scopes, self.names, self.star_imports = scopes, names, star_imports

    def qualified(self, node: cst.CSTNode, chain: Sequence[cst.CSTNode], frames: Sequence[Frame]) -> list[str]:
        scope = self.scopes.get(node)
        if scope is None:
            return []
        found = sorted({self.names.absolute(q) for q in scope.get_qualified_names_for(node)})
        if not found and self.star_imports and isinstance(node, (cst.Name, cst.Attribute)):
            written = dotted(node)  # bound by nothing here: maybe by `from x import *`, settled later
            return [f"{self.names.module}.{written}"] if written else []
        return found

    def bindings(self, name: cst.Name, chain: Sequence[cst.CSTNode], frames: Sequence[Frame]) -> list[Binding]:
        scope = self.scopes.get(name)
        if scope is None:
            return []
        out: list[Binding] = []
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


class ModuleNames:
    """Resolution from recorded bindings: the innermost enclosing function (or the class body
    the site is directly in) that binds the name, else the module, else builtins."""

    def __init__(self, found: Collected, names: Names) -> None:
        self.found, self.names = found, names
        self.star_imports = bool(found.star_imports)

    def qualified(self, node: cst.CSTNode, chain: Sequence[cst.CSTNode], frames: Sequence[Frame]) -> list[str]:
        written = dotted(node) if isinstance(node, (cst.Name, cst.Attribute)) else None
        if written is None:
            return []  # as libcst: a call's or subscript's attribute has no qualified name
        root, _, rest = written.partition(".")
        tail = f".{rest}" if rest else ""
        frame, bound = self._binding(root, chain, frames)
        if bound:
            prefix = self.names.module if frame is None else f"{self.names.module}.{frame.qualname}"
            local = f"{prefix}.{written}" if frame is None or frame.kind == "class" else f"{prefix}.<locals>.{written}"
            return sorted({self.names.absolute_import(str(t)) + tail if k == "import" else local for k, t in bound})
        if root in BUILTIN_NAMES:
            return [f"builtins.{written}"]
        return [f"{self.names.module}.{written}"] if self.star_imports else []

    def bindings(self, name: cst.Name, chain: Sequence[cst.CSTNode], frames: Sequence[Frame]) -> list[Binding]:
        _, bound = self._binding(name.value, chain, frames)
        if bound:
            return [(kind, "" if kind == "import" else target) for kind, target in bound]
        return [("other", 0)] if name.value in BUILTIN_NAMES else []

    def _binding(
        self, name: str, chain: Sequence[cst.CSTNode], frames: Sequence[Frame]
    ) -> tuple[Frame | None, list[tuple[str, str | int]]]:
        """(the frame binding `name` as seen from the site, None for the module; its bindings)."""
        if name in self.found.scoped_names:
            raise NeedScopes(name)
        innermost = True
        for frame in reversed(frames):
            inside = any(node is frame.node.body for node in chain)  # not in its header
            if inside and (frame.kind != "class" or innermost):
                bound = frame.bindings.get(name)
                if bound:
                    if frame.kind == "lambda":
                        raise NeedScopes(name)
                    return frame, bound
            if inside:
                innermost = False
        return None, self.found.module_bindings.get(name, [])
