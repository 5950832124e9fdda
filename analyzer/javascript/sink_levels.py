"""Where a sink candidate's name is bound without a search of its bytes: `LevelBindings` when the
statement of L holding its call is large (docs/slices.md, "A large statement's sink names": in a
scope inside T, T's bytes searched; at F's own level, walked once; with no scope between F and L,
L's scope or the global; else `Undecided`), `Climb` for a name too common to search at all, from
the call's scopes' levels (docs/reference.md, "The error sink")."""

from __future__ import annotations

from collections.abc import Callable

from tree_sitter import Node, Tree

from analyzer.javascript.resolve import Above, Binding, Resolution, declaration
from analyzer.javascript.syntax import (
    BLOCK_SCOPE_TYPES,
    FUNCTION_TYPES,
    IDENTIFIER_TYPES,
    VAR_SCOPE_TYPES,
    ancestors,
    same,
    symbols_of,
)
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



_VAR_SCOPE_SYMBOLS = symbols_of(VAR_SCOPE_TYPES)
#: nodes whose own binding no level walk finds: a catch clause's parameter, a class expression's name
_OWN_SYMBOLS = symbols_of(frozenset({"catch_clause", "class"}))
#: a function whose name is its own binding (a declaration's is the enclosing block's)
_NAMED_SELF = frozenset({"function_expression", "generator_function"})


class Climb:
    """The bindings of calls of names too common to search (docs/reference.md, "The error sink"):
    from each call up its ancestors to the innermost scope declaring its name. The declaring
    identifiers of each var scope met (a function, a class's static block, the root) are found by
    one walk of its level for every name asked (`level_declared`, with its parameters and own
    name); those of the name looked for are resolved by `resolve.declaration` (their ancestors
    climbed to that scope only) and the first of each scope kept, as a resolution keeps it. A
    catch clause's parameter and a class expression's name are read where met. With
    `through_root` False (a slice) the root's level is not walked: a call bound there or not at
    all gives None, as the slice's other rows leave L's scope to the merge."""

    def __init__(self, tree: Tree, names: frozenset[bytes], through_root: bool) -> None:
        self.root = tree.root_node
        self.names = frozenset(name.decode("utf-8", "replace") for name in names)
        self.through_root = through_root
        #: per node walked (a var scope, a catch clause or class, a statement of the root): the
        #: node its identifiers' ancestors are climbed to, and its declaring identifiers by name
        self._walked: dict[int, tuple[Node, dict[str, list[Node]]]] = {}
        #: (name, node walked) whose declarations are in `_first`
        self._resolved: set[tuple[str, int]] = set()
        #: (name, scope id) -> the first declaration of that scope
        self._first: dict[tuple[str, int], Binding] = {}

    def binding(self, name: bytes, node: Node) -> Binding | None:
        """The binding of `node`, a reference of `name` (None: the global, or for a slice L's scope)."""
        if node.type not in IDENTIFIER_TYPES:
            return None  # a resolution binds identifiers only
        text = name.decode("utf-8", "replace")
        chain = ancestors(node, self.root)  # innermost first, the root last
        begin, last = 0, len(chain) - 1
        for at, above in enumerate(chain[:last]):
            symbol = above.kind_id
            if symbol in _OWN_SYMBOLS:
                self._resolve(text, above, self._own)
            if symbol not in _VAR_SCOPE_SYMBOLS:
                continue
            self._resolve(text, above, self._level)  # every scope from `begin` to here lies in its level
            found = self._innermost(text, chain[begin:at + 1])
            if found is not None:
                return found
            begin = at + 1
        root = chain[last]
        if begin < last:  # the scopes below the root lie in the root's statement holding the call
            self._resolve(text, chain[last - 1], self._statement, root.id)
            found = self._innermost(text, chain[begin:last])
            if found is not None:
                return found
        if not self.through_root:
            return None
        self._resolve(text, root, self._level)
        return self._first.get((text, root.id))

    def _innermost(self, name: str, scopes: list[Node]) -> Binding | None:
        for scope in scopes:
            found = self._first.get((name, scope.id))
            if found is not None:
                return found
        return None

    def _resolve(self, name: str, node: Node, walk: Callable[[Node], list[Node]], besides: int | None = None) -> None:
        """The first declarations of `name` per scope among the identifiers `walk(node)` finds
        (but of the scope `besides`: a statement's walk does not see all of its root's level)."""
        if (name, node.id) in self._resolved:
            return
        self._resolved.add((name, node.id))
        walked = self._walked.get(node.id)
        if walked is None:
            by_name: dict[str, list[Node]] = {}
            for identifier in walk(node):
                text = identifier.text.decode("utf-8", "replace") if identifier.text else ""
                if text in self.names:
                    by_name.setdefault(text, []).append(identifier)
            # a statement of the root: its identifiers' ancestors are the root's
            walked = self._walked[node.id] = (self.root if besides is not None else node, by_name)
        top, by_name = walked
        for identifier in sorted(by_name.get(name, ()), key=lambda found: found.start_byte):
            binding = declaration(name, identifier, self.root, Above(identifier, top))
            if binding is not None and binding.scope.id != besides:
                self._first.setdefault((name, binding.scope.id), binding)

    def _statement(self, statement: Node) -> list[Node]:
        return [identifier for identifier, _ in level_declared(statement, self.names)]

    @staticmethod
    def _own(node: Node) -> list[Node]:
        held = node.child_by_field_name("parameter" if node.type == "catch_clause" else "name")
        return [] if held is None else identifiers_in(held)

    def _level(self, scope: Node) -> list[Node]:
        if scope.kind_id not in _FUNCTION_SYMBOLS:
            return [identifier for identifier, _ in level_declared(scope, self.names)]
        found = []
        for field in ("parameters", "parameter", *(("name",) if scope.type in _NAMED_SELF else ())):
            held = scope.child_by_field_name(field)
            if held is not None:
                found += identifiers_in(held)
        body = scope.child_by_field_name("body")
        if body is not None and body.type == "statement_block":
            found += [identifier for identifier, _ in level_declared(body, self.names)]
        return found
