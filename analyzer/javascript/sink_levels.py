"""Where a sink candidate's name is bound when the statement of L holding its call is large (a
release wrapped in a function), told without a search of the statement's bytes (docs/slices.md,
"A large statement's sink names"): in a scope inside T, the statement of F's body holding the
call (F its outermost function), T's bytes searched; else at F's own level, walked once for every
name; else, with no scope between F and L, in L's scope or the global. Any other shape is
`Undecided`: the caller searches the statement."""

from __future__ import annotations

from collections.abc import Callable

from tree_sitter import Node, Tree

from analyzer.javascript.resolve import Binding, Resolution, declaration
from analyzer.javascript.syntax import BLOCK_SCOPE_TYPES, FUNCTION_TYPES, VAR_SCOPE_TYPES, ancestors, same, symbols_of
from analyzer.javascript.top_declared import identifiers_in, level_declared

#: a statement of L this large has its candidates' names bound here, not by a search of its bytes
LARGE_STATEMENT = 1 << 16

_FUNCTION_SYMBOLS = symbols_of(FUNCTION_TYPES)
#: every type a binding's scope can have (`resolve.declaration`)
_SCOPE_SYMBOLS = symbols_of(FUNCTION_TYPES | VAR_SCOPE_TYPES | BLOCK_SCOPE_TYPES | frozenset(
    {"class", "catch_clause", "for_statement", "for_in_statement"}))


class Undecided(Exception):
    """A call whose binding the levels cannot tell: the statement is searched."""


#: `resolve(name, (start, end))`: the name's resolution within the range, None when its bytes
#: occur there too often to resolve
Resolver = Callable[[bytes, tuple[int, int]], Resolution | None]


class LevelBindings:
    """The bindings below L of the candidates of one slice tree's large statements."""

    def __init__(self, tree: Tree, names: frozenset[bytes], resolve: Resolver) -> None:
        self.root = tree.root_node
        #: every name asked of the levels, walked for at once
        self.names = frozenset(name.decode("utf-8", "replace") for name in names)
        self._resolve = resolve
        #: (name, T's id) -> each reference's binding by node id, None: too common in T
        self._inner: dict[tuple[bytes, int], dict[int, Binding | None] | None] = {}
        #: F's id -> (name, scope id) -> the first binding of F's own level
        self._levels: dict[int, dict[tuple[str, int], Binding]] = {}

    def bindings(self, name: bytes, nodes: list[Node]) -> dict[int, Binding]:
        """The bindings below L of `nodes`, calls of `name` in one large statement, by node id
        (none for a call bound in L's scope or the global); Undecided when any is not told."""
        out: dict[int, Binding] = {}
        for node in nodes:
            found, _, _ = self._binding(name, node)
            if found is not None:
                out[node.id] = found
        return out

    def with_global(self, source: bytes, name: bytes, node: Node) -> Binding | None:
        """`node`'s binding for a caller that needs L's binding too: None for the global, when
        the name is bound above F and its bytes are nowhere in F's statement of L outside F
        (only a declaration of L's level there could bind it); Undecided when they are."""
        found, function, statement = self._binding(name, node)
        if found is None and (source.find(name, statement.start_byte, function.start_byte) >= 0
                              or source.find(name, function.end_byte, statement.end_byte) >= 0):
            raise Undecided
        return found

    def _binding(self, name: bytes, node: Node) -> tuple[Binding | None, Node, Node]:
        """The call's binding below L (None: L's or the global), F, and F's statement of L."""
        chain = ancestors(node, self.root)  # innermost first, the root last
        outermost = None
        for at in range(len(chain) - 2, -1, -1):
            if chain[at].kind_id in _FUNCTION_SYMBOLS:
                outermost = at
                break
        if outermost is None or outermost < 2:
            raise Undecided
        function, body, statement = chain[outermost], chain[outermost - 1], chain[outermost - 2]
        if body.type != "statement_block" or not same(function.child_by_field_name("body"), body):
            raise Undecided  # the call is in F's parameters
        if any(above.kind_id in _SCOPE_SYMBOLS for above in chain[outermost + 1:-1]):
            raise Undecided
        inner = self._inner_bindings(name, statement)
        if node.id not in inner:
            raise Undecided  # never: a callee is an occurrence of its name wherever it is searched
        found = inner[node.id]
        scope = found.scope if found is not None else None
        if scope is None or not statement.start_byte <= scope.start_byte <= scope.end_byte <= statement.end_byte:
            level = self._level(function, body)
            text = name.decode("utf-8", "replace")
            found = level.get((text, body.id)) or level.get((text, function.id))
        return found, function, chain[-2]

    def _inner_bindings(self, name: bytes, statement: Node) -> dict[int, Binding | None]:
        key = (name, statement.id)
        if key not in self._inner:
            resolution = self._resolve(name, (statement.start_byte, statement.end_byte))
            self._inner[key] = None if resolution is None else {
                reference.node.id: reference.binding for reference in resolution.references}
        inner = self._inner[key]
        if inner is None:
            raise Undecided
        return inner

    def _level(self, function: Node, body: Node) -> dict[tuple[str, int], Binding]:
        level = self._levels.get(function.id)
        if level is not None:
            return level
        found = level_declared(body, self.names)
        for field in ("parameters", "parameter", "name"):
            held = function.child_by_field_name(field)
            if held is not None:
                found += [(identifier, name) for identifier in identifiers_in(held)
                          if (name := identifier.text.decode("utf-8", "replace") if identifier.text else "")
                          in self.names]
        level = self._levels[function.id] = {}
        for identifier, name in sorted(found, key=lambda pair: pair[0].start_byte):
            binding = declaration(name, identifier, self.root)
            if binding is not None and binding.scope.id in (function.id, body.id):
                level.setdefault((name, binding.scope.id), binding)
        return level

