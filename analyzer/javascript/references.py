"""The reference graph of a unit: its top-level items, the top-level bindings each declares and
references, resolved through scopes (docs/references.md, "The reference graph"). Owners of kind
`references` follow it: every item that names a reviewed product binding is product code, and
so is every binding such an item declares."""

from __future__ import annotations

import bisect
from collections.abc import Iterator
from dataclasses import dataclass

from tree_sitter import Node, Tree

from analyzer.identity import digest_of
from analyzer.javascript.modules import ModuleMap, main_container
from analyzer.javascript.normalize import (
    ANCHOR_LIMIT,
    Anchor,
    Normalizer,
    Siblings,
    window,
)
from analyzer.javascript.occurrences import RawItem, references_of
from analyzer.javascript.syntax import PATTERN_TYPES, ancestors

_DECLARATIONS = frozenset({"variable_declaration", "lexical_declaration"})
_FUNCTION_DECLARATIONS = frozenset({"function_declaration", "generator_function_declaration", "class_declaration"})
_WRAPPER_FUNCTIONS = frozenset({"function_expression", "arrow_function", "function"})
SKIPPED = frozenset({"comment", "empty_statement", "hash_bang_line"})


@dataclass(frozen=True, slots=True)
class Item:
    """One piece of top-level code."""

    offset: int
    end_offset: int
    #: top-level names this item declares, in source order
    declares: tuple[str, ...]
    #: top-level names this item references (resolved), sorted
    references: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class UnitReferences:
    items: list[Item]
    #: names of bundler runtime helpers (found by shape), never owned by reference
    helpers: frozenset[str]
    #: (item, name) pairs resolved occurrence by occurrence because a local of the item
    #: shares a top-level name
    walked: int
    #: (item position, name) -> digest of the bindings that may root a `references` entry
    binding_digests: dict[tuple[int, str], bytes]
    #: the (item position, name) pairs of `walked`: in those items the name may be a local's
    shadowed: frozenset[tuple[int, bytes]] = frozenset()


@dataclass(frozen=True, slots=True)
class Listing:
    """A tree's items, listed, and what finding their references needs: the references
    themselves are found chunk by chunk (`chunk_references`, independent tasks). The tree is
    the unit's, or one slice's (docs/slices.md, "Step 5 as built")."""

    raw: list[RawItem]
    #: the names looked for: the unit's top-level names, or a superset of them
    names: frozenset[bytes]
    #: ids of the nodes whose bindings are top-level (the program, the wrapper body and function)
    tops: set[int]
    #: offsets of the names the items declare
    declared: set[int]
    #: [start, end) of the items of each chunk
    chunks: list[tuple[int, int]]
    helpers: frozenset[str]
    #: the names the items declare
    declares: frozenset[bytes]
    #: the bytes the words pass reads: the whole source, or a slice's range
    span: tuple[int, int]


#: bytes of items a chunk of the reference graph holds (a task of a few milliseconds)
CHUNK_BYTES = 64 << 10


def listing(
    tree: Tree, source: bytes, modules: ModuleMap, chunk_bytes: int = CHUNK_BYTES, *,
    span: tuple[int, int] | None = None, names: frozenset[bytes] | None = None,
    splits: dict[tuple[int, int], tuple[tuple[int, int], ...]] | None = None,
) -> Listing:
    """The items of a tree and the top-level names they declare, in chunks of about
    `chunk_bytes` of items. `span`: the range of the unit a slice tree holds (its root is the
    statement list, never unwrapped: docs/slices.md, stage 8); None for the unit's whole tree.
    `names`: the names to look for (default: those the items declare); a slice needs the
    unit's, declared in other slices too. `splits`: gets each item split into the modules
    inside it, and those modules' spans."""
    root = tree.root_node
    container = _top_list(root) if span is None else root
    raw = sorted(_items(container, sorted((m.start, m.end) for m in modules.modules), root, splits),
                 key=lambda i: i[0])
    tops = {root.id, container.id} | ({container.parent.id} if container.parent is not None else set())
    chunks, first, size = [], 0, 0
    for position, (start, end, _, _) in enumerate(raw):
        size += end - start
        if size >= chunk_bytes or position == len(raw) - 1:
            chunks.append((first, position + 1))
            first, size = position + 1, 0
    declares = frozenset(name for item in raw for _, name in item[3])
    span = span or (0, len(source))
    return Listing(
        raw=raw, names=declares if names is None else names, tops=tops,
        declared={offset for item in raw for offset, _ in item[3]}, chunks=chunks,
        helpers=frozenset(modules.helpers) | _runtime_helpers(raw, source, span), declares=declares, span=span,
    )


def chunk_references(listing: Listing, chunk: int, source: bytes, root: Node) -> Chunk:
    """The names each item of the chunk references, its scope walks (`references_of`), the
    (item position, name) pairs they were for, and its edges: the names of the locals declared
    before the tree's first item (the first chunk), and the names found in its last item (the
    last chunk)."""
    first, last = listing.chunks[chunk]
    # the last chunk reads to the span's end, not the source's: a slice reads only its bytes
    following = listing.raw[last][0] if last < len(listing.raw) else listing.span[1]
    shadowed: set[tuple[int, bytes]] = set()
    leading: set[bytes] = set()
    found: set[bytes] = set()
    referenced, walked = references_of(listing.raw[first:last], listing.names, source, root, listing.tops,
                                       listing.declared,
                                       (listing.span[0] if first == 0 else listing.raw[first][0], following),
                                       shadowed, (leading, found))
    return (referenced, walked, {(first + position, name) for position, name in shadowed},
            (frozenset(leading), frozenset(found) if last == len(listing.raw) else frozenset()))


#: a chunk's references, walks, walked pairs and edges (`chunk_references`)
Chunk = tuple[list[tuple[bytes, ...]], int, set[tuple[int, bytes]], tuple[frozenset[bytes], frozenset[bytes]]]


#: texts only bundler runtime helpers hold (esbuild's and Bun's `__using`, `__callDispose`,
#: private-member and `__require` helpers): the shapes the module map does not look for
RUNTIME_SIGNATURES = (
    b"An error was suppressed during disposal",
    b'Object expected to be assigned to \\"using\\" declaration',
    b"Object expected to be assigned to \"using\" declaration",
    b"Cannot add the same private member more than once",
    b"Cannot read from private field",
    b"Cannot write to private field",
    b"Cannot access private method",
    b"Dynamic require of ",
    b"Calling `require` for ",
)


def _runtime_helpers(raw: list[RawItem], source: bytes, span: tuple[int, int]) -> frozenset[str]:
    """Top-level bindings whose declaration holds a runtime helper's text. A helper is code the
    bundler writes once and every module calls: never evidence of who wrote its callers. Only
    `span` is read: the items lie in it."""
    at = sorted({found for signature in RUNTIME_SIGNATURES for found in _offsets(source, signature, *span)})
    starts = [item[0] for item in raw]
    found: set[str] = set()
    for offset in at:
        position = bisect.bisect_right(starts, offset) - 1
        if position < 0:
            continue
        start, end, _, declared = raw[position]
        # the whole signature inside a declaring item of under 4 KB
        if declared and end - start < 4096 and any(
                offset + len(s) <= end and source.startswith(s, offset) for s in RUNTIME_SIGNATURES):
            found.update(name_text(n) for _, n in declared)
    return frozenset(found)


def _offsets(source: bytes, text: bytes, start: int, end: int) -> list[int]:
    """Where `text` lies whole in [start, end)."""
    out, at = [], source.find(text, start, end)
    while at >= 0:
        out.append(at)
        at = source.find(text, at + 1, end)
    return out


def binding_digests(
    tree: Tree, normalizer: Normalizer, raw: list[RawItem], wanted: list[int]
) -> dict[tuple[int, str], bytes]:
    """The digest of each binding declared by the items at the positions `wanted`: the
    normalized text of the declaration's anchor (the whole item when it has at most
    `ANCHOR_LIMIT` syntax nodes, else the run of the item's children around the declared name
    within that limit, as for a callsite) and the index normalization gives the name in it.
    `normalizer`: the unit's, whose names of the callsites' anchors most of these lie in."""
    root, source = tree.root_node, normalizer.source
    siblings = Siblings()
    out: dict[tuple[int, str], bytes] = {}
    for position in wanted:
        start, end, _, declared_names = raw[position]
        node = _node_at(root, start, end)
        if node is None:
            continue  # the parser recovered around it: no portable identity
        for _, raw_name in declared_names:
            name = name_text(raw_name)
            declared = _declared_node(node, raw_name)
            if declared is None:
                continue
            anchor = _anchor(node, declared, siblings)
            names = normalizer.names(anchor)
            order: dict[bytes, int] = {}
            for name_start, name_end in zip(*names):
                order.setdefault(source[name_start:name_end], len(order))
            slot = order.get(source[declared.start_byte:declared.end_byte], -1)
            normalized = normalizer.normalized_span(anchor, names)
            out[(position, name)] = digest_of(f"binding:{anchor.type}:{slot}", normalized)
    return out


def _node_at(root: Node, start: int, end: int) -> Node | None:
    """The outermost node spanning exactly [start, end)."""
    node = root.descendant_for_byte_range(start, end)
    if node is None or node.start_byte != start or node.end_byte != end:
        return None
    while node.parent is not None and node.parent.start_byte == start and node.parent.end_byte == end:
        if node.parent.type in ("program", "statement_block"):
            break
        node = node.parent
    return node


def _declared_node(item: Node, name: bytes) -> Node | None:
    """The identifier that declares `name` at the top of the item."""
    kind = item.type
    if kind in _FUNCTION_DECLARATIONS:
        found = item.child_by_field_name("name")
        return found if found is not None and found.text == name else None
    if kind == "variable_declarator":
        stack = [item.child_by_field_name("name")]
        while stack:
            node = stack.pop()
            if node is None:
                continue
            if node.type in ("identifier", "shorthand_property_identifier_pattern"):
                if node.text == name:
                    return node
            elif node.type == "pair_pattern":
                stack.append(node.child_by_field_name("value"))
            elif node.type in ("assignment_pattern", "object_assignment_pattern"):
                stack.append(node.child_by_field_name("left"))
            elif node.type in PATTERN_TYPES:
                stack.extend(node.named_children)
        return None
    return None


def _anchor(item: Node, declared: Node, siblings: Siblings) -> Anchor:
    if item.descendant_count <= ANCHOR_LIMIT:
        return item
    chain = ancestors(declared, item)  # innermost first, `item` last: linear in the depth
    return window(item, chain[-2] if len(chain) > 1 else declared, ANCHOR_LIMIT, siblings)


def name_text(name: bytes) -> str:
    return name.decode("utf-8", "surrogateescape")


# ---- the top level ------------------------------------------------------------------------


def _top_list(root: Node) -> Node:
    """The statement list a bundle's top-level code lives in: Bun's CJS wrapper body, the body
    of an IIFE that is the program's only statement (recursively), or the program."""
    container = main_container(root)
    for _ in range(8):
        body = wrapper_body(container)
        if body is None:
            return container
        container = body
    return container


def wrapper_body(container: Node) -> Node | None:
    statements = [s for s in container.named_children if s.type not in SKIPPED and not directive(s)]
    if len(statements) != 1 or statements[0].type != "expression_statement":
        return None
    expression = _unwrapped(statements[0].named_children[0]) if statements[0].named_children else None
    if expression is not None and expression.type == "unary_expression":
        argument = expression.child_by_field_name("argument")
        expression = _unwrapped(argument) if argument is not None else None
    if expression is None or expression.type != "call_expression":
        return None
    function = _unwrapped(expression.child_by_field_name("function"))
    if function is not None and function.type == "member_expression":  # (function(){...}).call(this)
        function = _unwrapped(function.child_by_field_name("object"))
    if function is None or function.type not in _WRAPPER_FUNCTIONS:
        return None
    body = function.child_by_field_name("body")
    return body if body is not None and body.type == "statement_block" else None


def _unwrapped(node: Node | None) -> Node | None:
    while node is not None and node.type == "parenthesized_expression" and node.named_children:
        node = node.named_children[0]
    return node


def directive(statement: Node) -> bool:
    return (statement.type == "expression_statement" and statement.named_child_count == 1
            and statement.named_children[0].type == "string")


# ---- items --------------------------------------------------------------------------------


def _items(
    container: Node, modules: list[tuple[int, int]], root: Node,
    splits: dict[tuple[int, int], tuple[tuple[int, int], ...]] | None = None,
) -> Iterator[RawItem]:
    starts = sorted(modules)
    for statement in container.named_children:
        if statement.type in SKIPPED or directive(statement):
            continue
        for item in _statement_items(statement):
            inner = modules_inside(starts, item[0], item[1])
            if len(inner) > 1:  # a module table or a wrapper of modules: each module is an item
                if splits is not None:
                    splits[(item[0], item[1])] = tuple(inner)
                for start, end in inner:
                    node = root.descendant_for_byte_range(start, end)
                    if node is not None:
                        yield (start, end, node, ())
            else:
                yield item


def _statement_items(statement: Node) -> Iterator[RawItem]:
    kind = statement.type
    if kind == "export_statement":
        inner = statement.child_by_field_name("declaration")
        if inner is not None:
            yield from _statement_items(inner)
            return
    if kind in _DECLARATIONS:
        for declarator in statement.named_children:
            if declarator.type == "variable_declarator":
                target = declarator.child_by_field_name("name")
                yield (declarator.start_byte, declarator.end_byte, declarator, _pattern_names(target))
        return
    if kind in _FUNCTION_DECLARATIONS:
        name = statement.child_by_field_name("name")
        declares = ((name.start_byte, name.text or b""),) if name is not None else ()
        yield (statement.start_byte, statement.end_byte, statement, declares)
        return
    if kind == "import_statement":
        # an import of an external module: esbuild may merge the imports of several modules of
        # one path into one statement, so what it declares is nobody's in particular
        yield (statement.start_byte, statement.end_byte, statement, ())
        return
    if kind == "expression_statement" and statement.named_children:
        expression = statement.named_children[0]
        if expression.type == "sequence_expression":
            for element in _sequence(expression):
                yield (element.start_byte, element.end_byte, element, ())
            return
    yield (statement.start_byte, statement.end_byte, statement, ())


def _sequence(expression: Node) -> Iterator[Node]:
    stack = [expression]
    while stack:
        node = stack.pop()
        if node.type == "sequence_expression":
            stack.extend(reversed(node.named_children))
        else:
            yield node


def _pattern_names(target: Node | None) -> tuple[tuple[int, bytes], ...]:
    """(offset, name) of the names a declarator's binding pattern declares, in source order."""
    if target is None:
        return ()
    out: list[tuple[int, bytes]] = []
    stack = [target]
    while stack:
        node = stack.pop()
        kind = node.type
        if kind in ("identifier", "shorthand_property_identifier_pattern"):
            out.append((node.start_byte, node.text or b""))
        elif kind == "pair_pattern":
            value = node.child_by_field_name("value")
            if value is not None:
                stack.append(value)
        elif kind in ("assignment_pattern", "object_assignment_pattern"):
            left = node.child_by_field_name("left")
            if left is not None:
                stack.append(left)
        elif kind in PATTERN_TYPES:
            stack.extend(node.named_children)
    return tuple(sorted(out))


def modules_inside(modules: list[tuple[int, int]], start: int, end: int) -> list[tuple[int, int]]:
    """The module spans lying inside [start, end), when they do not cover it whole."""
    at = bisect.bisect_left(modules, (start, -1))
    inside = []
    while at < len(modules) and modules[at][0] < end:
        span = modules[at]
        if span[1] <= end and span != (start, end):
            inside.append(span)
        at += 1
    return inside
