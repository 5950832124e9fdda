"""Which binding a name in a handler's body is (docs/reference.md, "Which name is the caught
value"): a name declared again below the handler's own level (a nested function's parameter, a
block's `let`, a loop's `const`) is that scope's there. Asked only where the body's query met
such a place; elsewhere a name is the handler's own binding, as its text says."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence

from tree_sitter import Node

from analyzer.javascript.resolve import Paths, declaration

#: a binding of a handler's body: its name, and the start of the scope below the handler's own
#: level that declares it (-1: the handler's own level, or outside the handler)
Key = tuple[bytes, int]
#: what may declare a name (`resolve.declaration` decides)
DECLARABLE = frozenset({"identifier", "shorthand_property_identifier_pattern"})
#: bytes a name is made of, and those that may not come right before one as a word (a property
#: `.e`, a private name `#e`, an escape's tail) or right after it
_PART = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_$\\" + bytes(range(0x80, 0x100)))
_NOT_BEFORE = _PART | frozenset(b".#")
#: what names a binding where a word stands
_REFERENCES = DECLARABLE | {"shorthand_property_identifier"}


def _words(text: bytes, name: bytes, start: int, end: int) -> Iterator[int]:
    """The offsets in text[start:end] where `name` stands as a word."""
    size = len(name)
    at = text.find(name, start, end)
    while at >= 0:
        after = at + size
        if (at == 0 or text[at - 1] not in _NOT_BEFORE) and (after >= len(text) or text[after] not in _PART):
            yield at
        at = text.find(name, at + 1, end)


class Bindings:
    """The bindings of one handler's body. `regions`: where a name may be declared below its own
    level, as byte ranges apart and in order (`shadowing_regions`); none, and every name is the
    handler's own binding."""

    def __init__(self, handler: Node, body: Node | None, regions: list[tuple[int, int]]) -> None:
        self.handler, self.regions = handler, regions
        #: the handler's own scopes: its clause or function, and its body's block
        self._own = {handler.id} | ({body.id} if body is not None else set())
        #: per name, the scopes below the handler's own level that declare it, as byte ranges
        self._scopes: dict[bytes, list[tuple[int, int]]] = {}
        self._text: bytes | None = None  # the handler's bytes, read once a name is looked for

    def key(self, name: Node) -> Key:
        """The binding an identifier of the body names: the innermost scope below the handler's
        own level that declares its name and holds it, else the handler's own level."""
        written = name.text or b""
        if not self.regions:
            return written, -1
        ranges = self._scopes.get(written)
        if ranges is None:
            ranges = self._scopes[written] = self._nested_scopes(written)
        at, inner, size = name.start_byte, -1, -1
        for start, end in ranges:
            if start <= at < end and (size < 0 or end - start < size):
                inner, size = start, end - start
        return written, inner

    def refers(self, wanted: set[Key]) -> Callable[[Node], bool] | None:
        """What tells whether an identifier whose name is one of `wanted`'s is one of those
        bindings; None when the name alone tells (no name is declared again in the body)."""
        if not self.regions:
            return None
        return lambda name: self.key(name) in wanted

    def _nested_scopes(self, name: bytes) -> list[tuple[int, int]]:
        """The scopes of the declarations of `name` in the regions: each word `name` there looked
        up in order, and each declaring one's scope taken from `resolve.declaration`."""
        node = self.handler
        paths, out, begin = Paths(node), [], node.start_byte
        written = name.decode("utf-8", "surrogateescape")
        if self._text is None:
            self._text = node.text or b""
        text, size = self._text, len(name)
        for found in (at for start, end in self.regions for at in _words(text, name, start - begin, end - begin)):
            start, end = begin + found, begin + found + size
            at = paths.find(start, end)
            if at is None or at.start_byte != start or at.end_byte != end or at.type not in DECLARABLE:
                continue
            binding = declaration(written, at, node, paths.here())
            if binding is not None and binding.scope.id not in self._own:
                out.append((binding.scope.start_byte, binding.scope.end_byte))
        return out


def shadowing_regions(boundaries: Iterable[Node], scoping: Iterable[Node], statements: list[Node]
                      ) -> list[tuple[int, int]]:
    """Where a name may be declared below the level of `statements`, as byte ranges apart and in
    order: the `boundaries` (nested functions, classes and catch clauses), the `let`/`const`
    declarations of `scoping` not among the statements, and its `for (let|const x of ...)` loops'
    names."""
    own = {statement.id for statement in statements}
    regions = [(node.start_byte, node.end_byte) for node in boundaries]
    for node in scoping:
        if node.type == "lexical_declaration":
            if node.id not in own:
                regions.append((node.start_byte, node.end_byte))
        elif (named := _lexical_loop(node)) is not None:
            regions.append((named.start_byte, named.end_byte))
    regions.sort(key=lambda region: (region[0], -region[1]))
    apart: list[tuple[int, int]] = []
    for start, end in regions:  # the outermost ones
        if not apart or start >= apart[-1][1]:
            apart.append((start, end))
    return apart


def _lexical_loop(loop: Node) -> Node | None:
    """The name (or pattern) a `for (let|const x of|in ...)` declares for the loop, else None."""
    kind = loop.child_by_field_name("kind")
    return loop.child_by_field_name("left") if kind is not None and kind.type in ("let", "const") else None


def pattern_names(pattern: Node) -> list[Node]:
    """The names a destructuring pattern declares (not its keys, nor its defaults' values)."""
    out, stack = [], [pattern]
    while stack:
        node = stack.pop()
        kind = node.type
        if kind in DECLARABLE:
            out.append(node)
        elif kind == "pair_pattern":
            stack.extend(v for v in [node.child_by_field_name("value")] if v is not None)
        elif kind in ("assignment_pattern", "object_assignment_pattern"):
            stack.extend(v for v in [node.child_by_field_name("left")] if v is not None)
        elif kind in ("object_pattern", "array_pattern", "rest_pattern"):
            stack.extend(c for c in node.named_children if c.type != "comment")
    return out


def declared_names(declarator: Node) -> list[Node]:
    """The names a declarator declares: its identifier, or its pattern's names."""
    name = declarator.child_by_field_name("name")
    if name is None:
        return []
    return [name] if name.type == "identifier" else pattern_names(name)


_FUNCTIONS = frozenset({"function_declaration", "function_expression", "arrow_function", "method_definition",
                        "generator_function_declaration", "generator_function"})
#: how many statements from the end of the function a temporary's `var` is looked for (terser puts it last)
_TAIL = 8


def temporaries(handler: Node, chain: Sequence[Node], assignments: Iterable[Node],
                key: Callable[[Node], Key]) -> set[Key]:
    """The names `assignments` give a value that are terser's temporaries of an inlined function
    (`catch (n) { if (o = n, "X" === o.status) ... } var o`, its `isX(err)` inlined): declared by a
    `var` without value among the last statements of the function holding the handler (`chain`,
    innermost first), and written nowhere else in that function but in the handler. State that ends
    with the handler, as a local of its body: assigning the caught value to one is no `store`."""
    lefts = {left.text: left for node in assignments if (left := node.child_by_field_name("left")) is not None
             and left.type == "identifier"}
    function = next((node for node in chain if node.type in _FUNCTIONS), None) if lefts else None
    body = function.child_by_field_name("body") if function is not None else None
    if function is None or body is None or body.type != "statement_block":
        return set()
    declared: dict[bytes | None, int] = {}
    cursor, seen = body.walk(), 0
    stepped = cursor.goto_last_child()
    while stepped and seen < _TAIL:  # backwards from the end, a few statements (not every one of a bundle's)
        statement = cursor.node
        if statement is not None and statement.type == "variable_declaration":
            declared.update((name.text, name.start_byte) for declarator in statement.named_children
                            if declarator.child_by_field_name("value") is None
                            and (name := declarator.child_by_field_name("name")) is not None)
        seen += statement is not None and statement.is_named
        stepped = cursor.goto_previous_sibling()
    wanted = {written: left for written, left in lefts.items() if written in declared}
    text = (function.text or b"") if wanted else b""
    return {key(left) for written, left in wanted.items()
            if not _used_elsewhere(function, text, written or b"", handler, declared[written])}


def _used_elsewhere(function: Node, text: bytes, written: bytes, handler: Node, declared: int) -> bool:
    """Whether the function's own binding `written` (its `var` at `declared`) is named in it outside
    `handler`: a word that is no name (`o.c`, a string's) is not, nor one a nested scope declares again
    (`try { const c = url() } catch (e) { ... (c = e) ... } var c`, @sveltejs/kit's dev server)."""
    start, size, name = function.start_byte, len(written), written.decode("utf-8", "surrogateescape")
    paths, shadows, named = Paths(function), [], []
    for at in _words(text, written, 0, len(text)):
        begin = start + at
        if handler.start_byte <= begin < handler.end_byte or begin == declared:
            continue
        node = paths.find(begin, begin + size)
        if node is None or node.start_byte != begin or node.end_byte != begin + size \
                or node.type not in _REFERENCES:
            continue
        binding = declaration(name, node, function, paths.here()) if node.type in DECLARABLE else None
        if binding is not None and binding.scope.id != function.id:
            shadows.append((binding.scope.start_byte, binding.scope.end_byte))
        else:
            named.append(begin)
    return any(not any(low <= at < high for low, high in shadows) for at in named)
