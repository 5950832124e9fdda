"""The bindings of the sliced list L's scope, node-free (docs/slices.md, stage 5e, "TopBindings"):
each tree of a unit resolves its own references; one bound at the tree's top, or not at all, is
re-bound at the merge to the first declaration of its name in L's scope over every slice.

Bun's CJS wrapper gives L two scopes: the wrapper function F (its parameters, `var`) and its body
block B (`let`, `const`, `class`, function declarations), B the inner one. A program list has one,
the program, kept as B."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Literal

from tree_sitter import Node

from analyzer.javascript.modules.statements import main_container
from analyzer.javascript.resolve import Binding, Reference, Resolution
from analyzer.javascript.syntax import ancestors

#: the kinds of binding Bun's wrapper function F holds; L's others are its body block B's
_FUNCTION_KINDS = frozenset({"param", "var"})

#: a reference's binding as one tree knows it: the key of a binding below L's scope, or None
#: for one of L's scope or the global (re-bound at the merge)
Bound = tuple[str, int] | None


@dataclass(frozen=True, slots=True)
class BindingRow:
    """One declaration of a name, without its nodes."""

    name: str
    #: the declared identifier's offset
    offset: int
    #: as `resolve.Binding.kind`
    kind: str
    #: its scope's depth in the whole unit's tree (the number of the scope's ancestors), read
    #: only where it is asked for (`--logger`'s outermost binding): None otherwise
    depth: int | None = None

    @property
    def key(self) -> tuple[str, int]:
        return (self.name, self.offset)


@dataclass(slots=True)
class TopBindings:
    """Per name, the first declaration of L's scopes seen so far, in source order."""

    #: F's (Bun's wrapper function: parameters, `var`)
    function: dict[str, BindingRow] = field(default_factory=dict)
    #: B's (Bun's wrapper body: `let`, `const`, `class`, `function`), or the program's
    block: dict[str, BindingRow] = field(default_factory=dict)

    def binding(self, name: str) -> BindingRow | None:
        """What a reference of `name` bound at L's level or not at all resolves to: B's first
        declaration (the inner scope), else F's, else None (the global)."""
        found = self.block.get(name)
        return found if found is not None else self.function.get(name)

    def rebound(self, name: str, bound: Bound) -> tuple[str, int] | None:
        """The key of the binding a reference resolves to in the whole unit (None: the global)."""
        if bound is not None:
            return bound
        found = self.binding(name)
        return found.key if found is not None else None


def merged(parts: Iterable[TopBindings]) -> TopBindings:
    """The unit's TopBindings from the head's and each slice's, in source order."""
    out = TopBindings()
    for part in parts:
        for name, row in part.function.items():
            out.function.setdefault(name, row)
        for name, row in part.block.items():
            out.block.setdefault(name, row)
    return out


class TopScopes:
    """Which scopes of one tree are L's. A slice tree's root stands for L (`head`: L's
    ancestors in the head tree, innermost first; `list_type`: L's type); a whole tree's L is
    its program, or Bun's wrapper body B and its function F."""

    def __init__(self, root: Node, head: Sequence[Node] = (), list_type: str | None = None) -> None:
        self.root, self.head, self.sliced = root, tuple(head), list_type is not None
        self.root_id = root.id  # read for every binding and reference: `Node.id` is a call into C
        #: a slice of Bun's wrapper body: its root is both F and B, told apart by kind
        self.two_scopes = list_type == "statement_block"
        self.function_id = self.block_id = -1
        if not self.sliced:
            body = main_container(root)
            if body.id != root.id and body.parent is not None:
                self.block_id, self.function_id = body.id, body.parent.id

    def scope_of(self, binding: Binding) -> Literal["function", "block"] | None:
        """F or B for a binding of L's scope, else None."""
        scope = binding.scope.id
        if scope == self.root_id:
            return "function" if self.two_scopes and binding.kind in _FUNCTION_KINDS else "block"
        if scope == self.block_id:
            return "block"
        return "function" if scope == self.function_id else None

    def depth(self, binding: Binding) -> int:
        """The depth of the binding's scope in the whole unit's tree."""
        if self.sliced and self.scope_of(binding) == "function" and self.two_scopes:
            return len(self.head) - 1  # F is B's parent, and a slice's root stands for B
        return len(ancestors(binding.scope, self.root)) + len(self.head)

    def row(self, binding: Binding, deep: bool = False) -> BindingRow:
        """The binding's row; with its depth when `deep` (a descent from the root)."""
        return BindingRow(binding.name, binding.declaration.start_byte, binding.kind,
                          self.depth(binding) if deep else None)

    def bound(self, reference: Reference) -> Bound:
        """The reference's binding as this tree knows it (`Bound`)."""
        binding = reference.binding
        if binding is None or self.scope_of(binding) is not None:
            return None
        return binding.key


def top_bindings(resolution: Resolution, scopes: TopScopes) -> TopBindings:
    """The first declaration per name in L's scopes among the tree's bindings (of the names it
    resolved)."""
    out = TopBindings()
    for binding in resolution.bindings.values():  # in source order
        scope = scopes.scope_of(binding)
        if scope is not None:
            (out.function if scope == "function" else out.block).setdefault(binding.name, scopes.row(binding))
    return out


def head_bindings(head: Sequence[Node], list_type: str | None) -> TopBindings:
    """The head tree's part of L's scope: Bun's wrapper's parameters (F), none for a program."""
    out = TopBindings()
    if list_type != "statement_block" or not head:
        return out
    parameters = head[0].child_by_field_name("parameters")
    for parameter in parameters.named_children if parameters is not None else ():
        if parameter.type == "identifier" and parameter.text is not None:
            name = parameter.text.decode()
            out.function.setdefault(name, BindingRow(name, parameter.start_byte, "param", len(head) - 1))
    return out
