"""Scope resolution for a few names at a time.

Minified bundles reuse short names in every scope, so whether `T(...)` calls the
top-level logger depends on every binding of `T` between the call and the top.
Instead of walking the whole tree, we find every occurrence of the names we care
about (a byte regex, then the node at that offset), classify each occurrence as a
declaration (with the scope node it binds in) or a reference, and resolve a
reference by walking its few ancestors to the innermost scope that binds it.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from tree_sitter import Node, Tree

from analyzer.javascript.syntax import (
    BLOCK_SCOPE_TYPES,
    IDENTIFIER_TYPES,
    PATTERN_TYPES,
    VAR_SCOPE_TYPES,
    ancestors,
    climb,
    same,
    spaced,
    starts_word,
    symbols_of,
)

_IDENT_BYTE = rb"A-Za-z0-9_$\x80-\xff\\"


@dataclass(frozen=True, slots=True)
class Binding:
    """One declaration of a name: where it binds, and what declares it."""

    name: str
    #: the node whose range the binding covers
    scope: Node
    #: the declared identifier
    declaration: Node
    #: param, var, let, const, function, class, catch, import, function-name, class-name
    kind: str

    @property
    def key(self) -> tuple[str, int]:
        return (self.name, self.declaration.start_byte)


@dataclass(frozen=True, slots=True)
class Reference:
    name: str
    node: Node
    #: None when the name resolves to the global binding
    binding: Binding | None


class Resolution:
    """Bindings and references of a set of names in one tree."""

    def __init__(
        self, tree: Tree, source: bytes, names: set[str], within: tuple[int, int] | None = None,
        starts: list[int] | None = None,
    ) -> None:
        """Resolve every occurrence of `names`; with `within`, only occurrences in that byte
        range (exact for a binding whose scope is that range: nothing outside can shadow it);
        with `starts`, the offsets of every occurrence of the one name's bytes, found by the
        caller, instead of a pass of its own."""
        self.names = frozenset(names)
        #: the tree's root: the program, or an ERROR node when the parser recovered from the start
        self.root = tree.root_node
        self.bindings: dict[tuple[str, int], Binding] = {}
        self.references: list[Reference] = []
        #: names followed by `(` that the parser left loose in an ERROR region, resolved from
        #: where they stand (their binding: None for the global)
        self.recovered: list[Reference] = []
        if not names:
            return
        root = tree.root_node
        loose: list[tuple[str, Node]] = []
        occurrences = _occurrences(root, source, names, within or (0, len(source)), loose, starts)
        by_scope: dict[tuple[str, int], Binding] = {}
        pending: list[tuple[str, Node]] = []
        for name, node in occurrences:
            binding = declaration(name, node, root)
            if binding is None:
                pending.append((name, node))
                continue
            self.bindings[binding.key] = binding
            # the first declaration of a name in a scope is the one references resolve to
            by_scope.setdefault((name, binding.scope.id), binding)
        scopes: dict[str, set[int]] = {}
        for name, scope in by_scope:
            scopes.setdefault(name, set()).add(scope)
        root_id = root.id
        references: list[tuple[str, Node, Binding | None]] = []
        nested: list[int] = []  # positions of the references of names bound below the top
        for name, node in pending:
            found = scopes.get(name)
            if found is None:  # never declared: global, no need to climb
                binding = None
            elif found == {root_id}:  # declared only at the top: every reference's binding
                binding = by_scope[(name, root_id)]
            else:
                binding = None
                nested.append(len(references))
            references.append((name, node, binding))
        for name, node in loose:
            nested.append(len(references))
            references.append((name, node, None))
        innermost = _innermost_bindings([references[i][:2] for i in nested], by_scope, root)
        for at, binding in zip(nested, innermost):
            references[at] = (references[at][0], references[at][1], binding)
        self.references = [Reference(*reference) for reference in references[:len(pending)]]
        self.recovered = [Reference(*reference) for reference in references[len(pending):]]

    def calls(self) -> list[tuple[Reference, Node]]:
        """References used as the callee of `C(...)` or the constructor of `new C(...)`."""
        out = []
        for reference in self.references:
            parent = reference.node.parent
            if parent is None:
                continue
            kind = parent.type
            if kind == "call_expression":
                # the callee is the child a call starts with (the field check covers the rest)
                node = reference.node
                if node.start_byte == parent.start_byte or same(parent.child_by_field_name("function"), node):
                    out.append((reference, parent))
            elif kind == "new_expression" and same(parent.child_by_field_name("constructor"), reference.node):
                out.append((reference, parent))
        return out


def _occurrences(
    root: Node, source: bytes, names: set[str], within: tuple[int, int], recovered: list[tuple[str, Node]],
    starts: list[int] | None = None,
) -> list[tuple[str, Node]]:
    found = []
    source = spaced(source)  # white space past ASCII is no part of a name
    recovering = root.has_error  # a tree without ERROR nodes has no loose names to look for
    for start, end in _matches(source, names, within, starts):
        if not starts_word(source, start):
            continue
        node = root.descendant_for_byte_range(start, end)
        if node is None or node.start_byte != start or node.end_byte != end:
            continue
        if node.type in IDENTIFIER_TYPES:
            found.append((source[start:end].decode(), node))
        if recovering and _recovered_call(source, node):
            recovered.append((source[start:end].decode(), node))
    return found


#: the bytes of `_IDENT_BYTE`
_IDENT_BYTES = frozenset(
    b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_$\\" + bytes(range(0x80, 0x100)))


def _matches(
    source: bytes, names: set[str], within: tuple[int, int], starts: list[int] | None
) -> Iterable[tuple[int, int]]:
    """The spans of the names' bytes in `within` not followed by a name's byte; from `starts`
    (every occurrence of the one name) when given, else by one regex pass."""
    if starts is None:
        alternation = b"|".join(re.escape(n.encode()) for n in sorted(names, key=len, reverse=True))
        pattern = re.compile(rb"(?:" + alternation + rb")(?![" + _IDENT_BYTE + rb"])")
        return (match.span() for match in pattern.finditer(source, within[0], within[1]))
    (name,) = names
    width = len(name.encode())
    low, high = within
    return ((start, start + width) for start in starts if low <= start and start + width <= high
            and (start + width == high or source[start + width] not in _IDENT_BYTES))


_NEXT_IS_PAREN = re.compile(rb"\s*\(")
_PREVIOUS_IS_DOT = re.compile(rb"[.#]\s*$")


def _recovered_call(source: bytes, node: Node) -> bool:
    """A name followed by `(` that the parser left loose in an ERROR region: neither a call nor
    a `new`, nor a declaration's name (its parent is the ERROR node itself)."""
    if node.type not in ("identifier", "property_identifier"):
        return False
    parent = node.parent
    if parent is None or parent.type != "ERROR":
        return False
    if not _NEXT_IS_PAREN.match(source, node.end_byte):
        return False
    return not _PREVIOUS_IS_DOT.search(source, max(0, node.start_byte - 8), node.start_byte)


def _nearest(node: Node, types: frozenset[str], root: Node) -> Node:
    """The innermost ancestor of one of `types`; the root when there is none (error recovery
    can give a tree whose root is an ERROR node: the root is the program scope then)."""
    for ancestor in climb(node, root):
        if ancestor.type in types:
            return ancestor
    return root


class Above:
    """The ancestors of one node, as `declaration` asks for them: `at(k)` the k-th (0: the
    parent; None past the root) and `nearest(k, types)` the innermost strict ancestor of the
    k-th one of `types` (the root when there is none). This one climbs from the node, the
    first steps by `Node.parent`; `Paths` answers from a path kept across nodes found in byte order."""

    def __init__(self, node: Node, root: Node) -> None:
        self.node, self.root = node, root
        self._chain: list[Node] | None = None

    def _ancestors(self) -> list[Node]:
        if self._chain is None:
            self._chain = ancestors(self.node, self.root)
        return self._chain

    def at(self, k: int) -> Node | None:
        if k == 0:
            return self.node.parent
        chain = self._ancestors()
        return chain[k] if k < len(chain) else None

    def nearest(self, k: int, types: frozenset[str]) -> Node:
        if k == 0:
            parent = self.node.parent
            return _nearest(parent, types, self.root) if parent is not None else self.root
        for ancestor in self._ancestors()[k + 1:]:
            if ancestor.type in types:
                return ancestor
        return self.root


class Paths:
    """`Above` for many nodes visited in byte order, in one descent shared by neighbours: the
    path from the root is kept between nodes, cut back to the deepest node still holding the
    next one, then extended down to it. Each node of the tree joins the path at most once per
    visit of its subtree, so code nested 100,000 deep costs its depth, not its square; the
    innermost scope of each kind along the path is kept with it."""

    _KINDS = (VAR_SCOPE_TYPES, BLOCK_SCOPE_TYPES)
    #: the grammar symbols of each kind (a symbol is an int: no string made per node)
    _SYMBOLS = tuple(symbols_of(kinds) for kinds in _KINDS)

    def __init__(self, root: Node) -> None:
        self.root = root
        self._path: list[Node] = [root]
        #: per kind, the index in the path of the innermost node of that kind at or above each
        self._innermost: list[list[int]] = [[0 if root.type in kinds else -1] for kinds in self._KINDS]

    def find(self, start: int, end: int) -> Node | None:
        """`root.descendant_for_byte_range(start, end)`, looked for from the deepest node of the
        path that holds the range (ranges in increasing order); the path then ends at the
        found node's parent (`here`)."""
        path = self._path
        var, block = self._innermost
        while len(path) > 1 and not (path[-1].start_byte <= start and end <= path[-1].end_byte):
            path.pop()
            var.pop()
            block.pop()
        current = path[-1]
        node = current.descendant_for_byte_range(start, end)
        if node is None or node.id == current.id:
            return node
        var_symbols, block_symbols = self._SYMBOLS
        target = node.id
        while True:
            step = current.child_with_descendant(node)
            if step is None or step.id == target:
                break
            symbol = step.kind_id
            var.append(len(path) if symbol in var_symbols else var[-1])
            block.append(len(path) if symbol in block_symbols else block[-1])
            path.append(step)
            current = step
        return node

    def here(self) -> _PathAbove:
        """The ancestors of the node `find` returned last."""
        return _PathAbove(self, len(self._path))


class _PathAbove(Above):
    """`Above` answered from a `Paths` path of length `depth` (valid until the next node)."""

    def __init__(self, paths: Paths, depth: int) -> None:
        self.paths, self.depth, self.root = paths, depth, paths.root

    def at(self, k: int) -> Node | None:
        index = self.depth - 1 - k
        return self.paths._path[index] if index >= 0 else None

    def nearest(self, k: int, types: frozenset[str]) -> Node:
        index = self.depth - 2 - k  # the strict ancestors of the k-th
        if index < 0:
            return self.root
        kind = Paths._KINDS.index(types)
        found = self.paths._innermost[kind][index]
        return self.paths._path[found] if found >= 0 else self.root


def declaration(name: str, node: Node, root: Node, above: Above | None = None) -> Binding | None:
    """The binding `node` declares, or None when it is a reference (`above`: its ancestors,
    when the caller keeps them)."""
    up = above if above is not None else Above(node, root)
    child, parent, level = node, up.at(0), 0
    if parent is not None and parent.type in PATTERN_TYPES:
        # climb through destructuring patterns while `child` stays in a binding position
        while parent is not None and parent.type in PATTERN_TYPES:
            if parent.type == "pair_pattern" and not same(parent.child_by_field_name("value"), child):
                return None
            if parent.type in ("assignment_pattern", "object_assignment_pattern") and not same(
                parent.child_by_field_name("left"), child
            ):
                return None
            level += 1
            child, parent = parent, up.at(level)
    if parent is None:
        return None
    kind = parent.type
    if kind == "variable_declarator":
        if not same(parent.child_by_field_name("name"), child):
            return None
        declaration = up.at(level + 1)
        if declaration is None:
            return None
        if declaration.type == "variable_declaration":
            return Binding(name, up.nearest(level + 1, VAR_SCOPE_TYPES), node, "var")
        word = "const" if declaration.children and declaration.children[0].type == "const" else "let"
        holder = up.at(level + 2)
        if holder is not None and holder.type in ("for_statement", "for_in_statement"):
            return Binding(name, holder, node, word)
        return Binding(name, up.nearest(level + 1, BLOCK_SCOPE_TYPES), node, word)
    if kind == "formal_parameters":
        function = up.at(level + 1)
        return Binding(name, function, node, "param") if function is not None else None
    if kind == "arrow_function" and same(parent.child_by_field_name("parameter"), child):
        return Binding(name, parent, node, "param")
    if kind == "catch_clause" and same(parent.child_by_field_name("parameter"), child):
        return Binding(name, parent, node, "catch")
    if kind == "for_in_statement" and same(parent.child_by_field_name("left"), child):
        word_node = parent.child_by_field_name("kind")
        if word_node is None:
            return None
        if word_node.type == "var":
            return Binding(name, up.nearest(level, VAR_SCOPE_TYPES), node, "var")
        return Binding(name, parent, node, word_node.type)
    if child is not node:
        return None  # a pattern in an assignment expression declares nothing
    if kind in ("function_declaration", "generator_function_declaration") and same(
        parent.child_by_field_name("name"), node
    ):
        return Binding(name, up.nearest(0, BLOCK_SCOPE_TYPES), node, "function")
    if kind in ("function_expression", "generator_function") and same(
        parent.child_by_field_name("name"), node
    ):
        return Binding(name, parent, node, "function-name")
    if kind == "class_declaration" and same(parent.child_by_field_name("name"), node):
        return Binding(name, up.nearest(0, BLOCK_SCOPE_TYPES), node, "class")
    if kind == "class" and same(parent.child_by_field_name("name"), node):
        return Binding(name, parent, node, "class-name")
    if kind in ("import_specifier", "namespace_import", "import_clause"):
        return _import_binding(name, node, parent, root)
    return None


def _import_binding(name: str, node: Node, parent: Node, root: Node) -> Binding | None:
    if parent.type == "import_specifier":
        alias = parent.child_by_field_name("alias")
        local = alias if alias is not None else parent.child_by_field_name("name")
        if not same(local, node):
            return None
    return Binding(name, root, node, "import")


def _innermost_bindings(
    references: list[tuple[str, Node]], by_scope: dict[tuple[str, int], Binding], root: Node
) -> list[Binding | None]:
    """The binding each reference resolves to: that of the innermost scope binding its name
    and holding it (None: the global), found by byte ranges, never by climbing the tree
    (climbing from each of thousands of references in code nested thousands deep is
    quadratic). A scope node holds a reference exactly when its range holds the reference's
    (a name is never empty, and syntax nodes that are not nested never overlap), and scopes'
    ranges nest, so one sweep per name over its scopes and references in byte order, with
    a stack of the scopes open, finds them all; two scopes of one range (one inside the
    other) are told apart by climbing from the reference (`_resolve`), which such ties keep rare."""
    out: list[Binding | None] = [None] * len(references)
    by_name: dict[str, list[int]] = {}
    for position, (name, _) in enumerate(references):
        by_name.setdefault(name, []).append(position)
    for name, positions in by_name.items():
        scopes = sorted(((b.scope.start_byte, -b.scope.end_byte, b) for (n, _), b in by_scope.items() if n == name),
                        key=lambda item: (item[0], item[1]))
        ranges = [(start, -negative_end) for start, negative_end, _ in scopes]
        tied = {r for r, count in Counter(ranges).items() if count > 1}
        open_scopes: list[tuple[int, int, Binding]] = []
        at = 0
        for position in sorted(positions, key=lambda p: references[p][1].start_byte):
            node = references[position][1]
            start, end = node.start_byte, node.end_byte
            while at < len(scopes) and scopes[at][0] <= start:
                scope_start, negative_end, binding = scopes[at]
                while open_scopes and open_scopes[-1][1] <= scope_start:
                    open_scopes.pop()
                open_scopes.append((scope_start, -negative_end, binding))
                at += 1
            while open_scopes and open_scopes[-1][1] < end:
                open_scopes.pop()
            if open_scopes and (open_scopes[-1][0], open_scopes[-1][1]) in tied:
                out[position] = _resolve(name, node, root, by_scope)
            else:
                out[position] = open_scopes[-1][2] if open_scopes else None
    return out


def _resolve(name: str, node: Node, root: Node, by_scope: dict[tuple[str, int], Binding]) -> Binding | None:
    for ancestor in climb(node, root):
        binding = by_scope.get((name, ancestor.id))
        if binding is not None:
            return binding
    return None
