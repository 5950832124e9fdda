"""What one pass over a module collects, as records: the scopes (frames and comprehensions)
with their bindings, where each node is, the candidate callsites and the logger bindings
(`analyzer.python.collect` fills them; `analyzer.python.resolve` reads them)."""

from __future__ import annotations

from dataclasses import dataclass, field

import libcst as cst

#: `("import", dotted target, index)` or `("local", id of the bound Name node or 0, index)`; the
#: index counts the assignment-like statements of its scope before it, as libcst does. `del x`
#: and match patterns bind nothing: libcst's scope analysis sees a use there.
Binding = tuple[str, "str | int", int]
#: the index of an access that sees every binding of its scope (a comprehension's element)
LAST = 1 << 62


@dataclass(slots=True, eq=False)
class Frame:
    """An enclosing function, lambda or class while the traversal is inside it."""

    node: cst.FunctionDef | cst.Lambda | cst.ClassDef
    #: `function`, `lambda` or `class`
    kind: str
    #: Python's `__qualname__` (`C.m.<locals>.f`), relative to the module
    qualname: str
    #: libcst's name prefix for names bound here (`C.m.<locals>`; `f.<locals>.<locals>` in a lambda)
    prefix: str = ""
    #: the scope this one is in (None: the module)
    parent: Frame | Comprehension | None = None
    #: a method's first parameter (`self`, `cls`), else None
    receiver: str | None = None
    #: the function yields
    generator: bool = False
    #: classes: names set in the class body and `self.<name>` set in `__init__`
    fields: set[str] = field(default_factory=set)
    #: every binding of a name in this function or class body (parameters included)
    bindings: dict[str, list[Binding]] = field(default_factory=dict)
    #: names declared `global` or `nonlocal` here
    overwrites: dict[str, str] = field(default_factory=dict)
    #: assignment-like statements of this scope so far (libcst's `_assignment_count`)
    count: int = 0

    def inside(self, child: cst.CSTNode, grandchild: cst.CSTNode | None) -> bool:
        """Is what lies below `child` evaluated in this scope (not in the header)?"""
        return child is self.node.body

    def access_index(self, child: cst.CSTNode) -> int:
        return self.count


@dataclass(slots=True, eq=False)
class Comprehension:
    """A list/set/dict comprehension or generator expression: its own scope (targets, walrus)
    except for the first `for`'s iterable, which the enclosing scope evaluates."""

    node: cst.ListComp | cst.SetComp | cst.DictComp | cst.GeneratorExp
    prefix: str
    parent: Frame | Comprehension | None
    bindings: dict[str, list[Binding]] = field(default_factory=dict)
    overwrites: dict[str, str] = field(default_factory=dict)
    count: int = 0

    def inside(self, child: cst.CSTNode, grandchild: cst.CSTNode | None) -> bool:
        first = self.node.for_in
        return not (child is first and grandchild is first.iter)

    def access_index(self, child: cst.CSTNode) -> int:
        """libcst visits the element (or key and value) after every `for` and `if`."""
        return self.count if child is self.node.for_in else LAST


Scope = Frame | Comprehension


@dataclass(frozen=True, slots=True)
class Where:
    """Where a node is: its path (its ancestors, outermost first, itself excluded) and its frames."""

    path: tuple[cst.CSTNode, ...]
    frames: tuple[Frame, ...]
    #: the node whose ancestors `path` holds (what lies directly below `path[-1]`)
    origin: cst.CSTNode | None = None
    #: the access's index in the scope it is in (see `Binding`)
    index: int = LAST


@dataclass(frozen=True, slots=True)
class Candidate:
    node: cst.CSTNode
    #: `call` (a Call node), `raise` (the Name/Attribute of a bare `raise C`) or `class`
    form: str
    where: Where

    @property
    def path(self) -> tuple[cst.CSTNode, ...]:
        return self.where.path

    @property
    def frames(self) -> tuple[Frame, ...]:
        return self.where.frames


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
    #: where the assignment is, for resolving the factory's name
    where: Where


@dataclass(slots=True)
class Collected:
    candidates: list[Candidate] = field(default_factory=list)
    #: `except` and `except*` clauses (form `except`), in source order
    handlers: list[Candidate] = field(default_factory=list)
    classes: list[Candidate] = field(default_factory=list)
    #: calls whose callee's last name may name a function that raises (`Vocabulary.raising_names`)
    calls: list[Candidate] = field(default_factory=list)
    loggers: list[LoggerBinding] = field(default_factory=list)
    #: module-level `import`/`from ... import`: bound name -> dotted target (relative kept)
    imports: dict[str, str] = field(default_factory=dict)
    #: module-level `from X import *`
    star_imports: list[str] = field(default_factory=list)
    #: module-level `NAME = <name or attribute>` (aliases of classes or loggers), and where
    assignments: list[tuple[str, cst.BaseExpression, Where]] = field(default_factory=list)
    #: every module-level binding of a name (and every one `global` sends there)
    module_bindings: dict[str, list[Binding]] = field(default_factory=dict)
    #: the scope each function, lambda, class and comprehension node opens, by id of the node
    scopes: dict[int, Scope] = field(default_factory=dict)
    #: type parameters (PEP 695): their names need libcst's own scope analysis
    type_parameters: set[str] = field(default_factory=set)
    #: module-level names that may be error classes, bound under a condition (`if`, `try`, a
    #: loop, `with`, `match`, a function's `global`) by anything but `NAME = NAME`: where the
    #: binding did not run, a read finds the builtin of that name, if any
    guarded: set[str] = field(default_factory=set)


def visible_parent(scope: Scope) -> Scope | None:
    """The enclosing scope whose names `scope` sees: class bodies are skipped."""
    parent = scope.parent
    while isinstance(parent, Frame) and parent.kind == "class":
        parent = parent.parent
    return parent
