"""The reference pass of analyzer/javascript/references.py as it was at 883a09a: every
occurrence of a top-level name looked up in the tree, in byte order, along one path from the
root. Kept as the oracle the byte-level pass (analyzer/javascript/occurrences.py) is compared
with (tests/test_occurrences.py)."""

from __future__ import annotations

import bisect
import re
from collections import defaultdict

from tree_sitter import Node

from analyzer.javascript.resolve import Binding, Paths, declaration
from analyzer.javascript.syntax import same

RawItem = tuple[int, int, Node, tuple[bytes, ...]]
_REFERRING = frozenset({"identifier", "shorthand_property_identifier", "shorthand_property_identifier_pattern"})


def _text(name: bytes) -> str:
    return name.decode("utf-8", "surrogateescape")


#: a word that may be a name: not after `.`, `?.` or `#` (member and private names), but after
#: a spread's or rest's `...`
_WORD = re.compile(rb"(?:(?<=\.\.\.)|(?<![.#\w$\x80-\xff\\]))[A-Za-z_$\x80-\xff][\w$\x80-\xff]*")


def _references(
    raw: list[RawItem], top: dict[bytes, list[int]], source: bytes, root: Node, tops: set[int]
) -> tuple[list[set[bytes]], int]:
    """For each item, the top-level names it references; and how many (item, name) pairs needed
    a scope walk because the item declares a local of that name.

    Every occurrence of a top-level name is found by a byte search and its node looked up in
    byte order along one path from the root (`Paths`): a query over the whole tree, or a
    descent from the root per occurrence, costs the square of the nesting, and code can nest
    100,000 deep. The occurrences in a declaring position are declarations (`declaration`
    decides); the others may be references."""
    names = frozenset(top)
    paths = Paths(root)
    nodes: dict[int, Node] = {}
    starts = [item[0] for item in raw]
    inner: dict[tuple[int, bytes], list[Binding]] = defaultdict(list)
    top_declarations: set[int] = set()
    for match in _WORD.finditer(source):
        name = match.group()
        if name not in names:
            continue
        start, end = match.span()
        node = paths.find(start, end)
        if node is None or node.start_byte != start or node.end_byte != end:
            continue
        nodes[start] = node
        above = paths.here()
        parent = above.at(0)
        if parent is None or not _may_declare(node, parent):
            continue
        binding = declaration(_text(name), node, root, above)
        if binding is None:
            continue
        if binding.scope.id in tops:
            top_declarations.add(start)
            continue
        position = bisect.bisect_right(starts, start) - 1
        if position >= 0:
            inner[(position, name)].append(binding)
    referenced: list[set[bytes]] = [set() for _ in raw]
    walked = 0
    for position, (start, end, node, _) in enumerate(raw):
        if node.type == "import_statement":
            continue  # its names are the imported module's and their local aliases, no reference
        found: dict[bytes, list[int]] = {}
        for match in _WORD.finditer(source, start, end):
            word = match.group()
            if word in names:
                found.setdefault(word, []).append(match.start())
        for name, offsets in found.items():
            shadows = inner.get((position, name))
            walked += shadows is not None
            if _refers(nodes, name, offsets, shadows, top_declarations):
                referenced[position].add(name)
    return referenced, walked


#: where an identifier may declare: parent type -> the field it must stand in (None: any child)
_DECLARING_FIELDS: dict[str, str | None] = {
    "variable_declarator": "name", "function_declaration": "name", "generator_function_declaration": "name",
    "function_expression": "name", "generator_function": "name", "class_declaration": "name", "class": "name",
    "arrow_function": "parameter", "catch_clause": "parameter", "for_in_statement": "left",
    "pair_pattern": "value", "assignment_pattern": "left",
    "formal_parameters": None, "import_specifier": None, "import_clause": None, "namespace_import": None,
    "array_pattern": None, "rest_pattern": None,
}


def _may_declare(node: Node, parent: Node) -> bool:
    """An identifier in a position that may declare: a superset of `declaration`'s positive
    cases, which then decides each."""
    if node.type == "shorthand_property_identifier_pattern":
        return True
    if node.type != "identifier" or parent.type not in _DECLARING_FIELDS:
        return False
    field = _DECLARING_FIELDS[parent.type]
    return field is None or same(parent.child_by_field_name(field), node)


def _refers(
    nodes: dict[int, Node], name: bytes, offsets: list[int], shadows: list[Binding] | None, top_declarations: set[int]
) -> bool:
    """Whether one of the occurrences of `name` (whole words, not after `.` or `#`) is a
    reference to the top-level binding: an identifier that declares nothing and lies in no
    scope of a local `name`."""
    shadowed = _union(sorted((b.scope.start_byte, b.scope.end_byte) for b in shadows)) if shadows else []
    starts = [start for start, _ in shadowed]
    declared = {b.declaration.start_byte for b in shadows} if shadows else set()
    for at in offsets:
        if at in top_declarations or at in declared:
            continue
        node = nodes.get(at)
        if node is None or node.type not in _REFERRING:
            continue
        # a name (a leaf, never empty) lies in a scope exactly when the scope's range holds it
        inside = bisect.bisect_right(starts, at) - 1
        if inside < 0 or shadowed[inside][1] < at + len(name):
            return True
    return False


def _union(ranges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Sorted ranges merged where they overlap (scopes nest or lie apart)."""
    out: list[tuple[int, int]] = []
    for start, end in ranges:
        if out and start <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], end))
        else:
            out.append((start, end))
    return out
