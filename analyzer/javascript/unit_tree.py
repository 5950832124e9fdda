"""One tree of a unit as the extraction reads it: the whole unit's tree or, once a large unit is
parsed in slices (docs/slices.md), one slice's, with the head chain above its root and the caches
that are keyed by node id."""

from __future__ import annotations

from collections.abc import Sequence

from tree_sitter import Node, Tree

from analyzer.javascript.modules.statements import StatementLists, main_container
from analyzer.javascript.normalize import Anchor, KnownNames, Normalizer, anchor_of, innermost_function
from analyzer.javascript.scopes import scope_of
from analyzer.javascript.syntax import ancestors
from analyzer.limits import WorkBudget
from analyzer.model import Scope


class UnitTree:
    """A tree of one unit, with what the stages read of it by node id.

    `Node.id` is an address inside a tree: once a tree is freed, the next one parsed may reuse
    it, and a cache keyed by it would hand a freed node's value to a node of the next tree
    without any error. So every such cache (the normalizer's digests and sibling runs, the
    scope entries, the statement lists) is made from its tree here and dropped with it; what
    several trees of a unit share is keyed by offset (`names`: the renameable names).

    `head`: the head chain, the ancestors of the sliced statement list L in the head tree,
    innermost first (docs/slices.md, "Words used below"); empty for a whole tree, whose chains
    reach the root by themselves. `list_type`: L's type when the root is a slice's `program`
    standing for L, None for a whole tree."""

    def __init__(
        self, tree: Tree, source: bytes, budget: WorkBudget | None = None, head: Sequence[Node] = (),
        list_type: str | None = None, names: KnownNames | None = None,
    ) -> None:
        self.tree = tree
        #: one object for the root: `anchor_of` knows it by identity in the chains made here
        self.root = tree.root_node
        self.head = tuple(head)
        self.list_type = list_type
        self.normalizer = Normalizer(source, budget, names,
                                     (self.root.start_byte, self.root.end_byte) if self.head else None)
        #: each scope node's (name, kind) by node id (`scopes.scope_of`'s `known`)
        self.scopes: dict[int, tuple[str, str] | None] = {}

    def statement_lists(self) -> StatementLists:
        """The tree's statement lists, for the module finders (made on each call, and freed with
        them: the main list's statements are 41,000 nodes on the executable). A slice's main
        list is its root, never unwrapped (docs/slices.md, stage 8)."""
        return StatementLists(self.root, self.root if self.list_type is not None else main_container(self.root))

    def chain(self, node: Node) -> list[Node]:
        """The node's ancestors, innermost first, as the whole unit's tree has them: up to this
        tree's root (one descent), then the head chain."""
        found = ancestors(node, self.root)
        if self.head:
            found.extend(self.head)
        return found

    def scope_of(self, unit: str, chain: list[Node]) -> Scope:
        """`scopes.scope_of` of a chain made by `chain`: the head chain's scope entries (an IIFE
        list's function; none for Bun's wrapper or a program) are the outermost."""
        return scope_of(unit, chain, self.scopes)

    def anchor_of(self, node: Node, chain: Sequence[Node]) -> Anchor:
        """`normalize.anchor_of`, windows over this tree's root typed as the list it stands for."""
        return anchor_of(node, chain, siblings=self.normalizer.siblings, root=self.root, list_type=self.list_type)

    def innermost_function(self, chain: Sequence[Node]) -> Node | None:
        """`normalize.innermost_function`, a slice's root passed over for its head chain."""
        return innermost_function(chain, self.root if self.list_type is not None else None)
