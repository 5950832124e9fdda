"""Small facts about tree-sitter-javascript nodes, shared by the frontend's stages."""

from __future__ import annotations

import re
from collections.abc import Iterator

import tree_sitter_javascript
from tree_sitter import Language, Node, Parser, Tree

from analyzer import progress
from analyzer.errors import InvariantError

LANGUAGE = Language(tree_sitter_javascript.language())

FUNCTION_TYPES = frozenset(
    {
        "function_declaration",
        "generator_function_declaration",
        "function_expression",
        "generator_function",
        "arrow_function",
        "method_definition",
    }
)
CLASS_TYPES = frozenset({"class_declaration", "class"})
#: nodes that own a `var` binding
VAR_SCOPE_TYPES = FUNCTION_TYPES | {"program", "class_static_block"}
#: nodes that own a `let`/`const`/`class`/function-declaration binding
BLOCK_SCOPE_TYPES = frozenset(
    {"statement_block", "program", "switch_body", "class_static_block", "for_statement",
     "for_in_statement", "catch_clause"}
)
IDENTIFIER_TYPES = frozenset(
    {"identifier", "shorthand_property_identifier", "shorthand_property_identifier_pattern"}
)
#: binding-pattern wrappers between a declared name and its declaration
PATTERN_TYPES = frozenset(
    {"object_pattern", "array_pattern", "pair_pattern", "assignment_pattern",
     "object_assignment_pattern", "rest_pattern"}
)


def symbols_of(kinds: frozenset[str]) -> frozenset[int]:
    """The grammar symbols (`Node.kind_id`) of node types: an int per node, no string made."""
    return frozenset(i for i in range(LANGUAGE.node_kind_count) if LANGUAGE.node_kind_for_id(i) in kinds)


def new_parser() -> Parser:
    return Parser(LANGUAGE)


def parse(source: bytes) -> Tree:
    given, done = progress.parse_input(source, "parsing")  # the bytes themselves unless progress is shown
    try:
        return new_parser().parse(given)
    finally:
        done()


class DetachedNode(InvariantError):
    """A node that does not lie under the root it was looked for from (a bug, never input)."""


def ancestors(node: Node, root: Node) -> list[Node]:
    """The node's ancestors up to `root`, innermost first, found in one descent from `root`.

    tree-sitter keeps no parent pointers: `Node.parent` descends from the tree's root on every
    call, so climbing by it costs the square of the depth, and minified (or hostile) code nests
    tens of thousands of levels deep. `root` is the tree's root node whatever its type (error
    recovery can make it an ERROR node)."""
    chain: list[Node] = []
    current, target = root, node.id
    while current.id != target:
        chain.append(current)
        step = current.child_with_descendant(node)
        if step is None:
            raise DetachedNode(f"{node.type} at {node.start_byte} is not under {root.type} at {root.start_byte}")
        current = step
    chain.reverse()
    return chain


#: parents found by `Node.parent` before `climb` switches to one descent from the root
_DIRECT_STEPS = 6


def climb(node: Node, root: Node) -> Iterator[Node]:
    """`ancestors(node, root)`, lazily: the first few by `Node.parent` (cheap for the walks that
    stop near the node, which most do), the rest from one descent, so that a walk to the root
    costs the depth, never its square."""
    current, parent = node, node.parent
    for _ in range(_DIRECT_STEPS):
        if parent is None:
            return
        yield parent
        current, parent = parent, parent.parent
    if parent is not None:
        yield from ancestors(current, root)


def without_parentheses(node: Node) -> Node:
    while node.type == "parenthesized_expression" and node.named_child_count == 1:
        child = node.named_children[0]
        node = child
    return node


def same(a: Node | None, b: Node | None) -> bool:
    return a is not None and b is not None and a.id == b.id


def text(node: Node) -> str:
    data = node.text or b""
    return data.decode("utf-8", "replace")


def field_of(parent: Node, child: Node) -> str | None:
    """The field name under which `parent` holds `child`, if any. The child is found from its
    byte by a cursor (a node can have 10,000 children, an array of 5,000 errors: listing them
    for each callsite is quadratic), else by listing them (a zero-width child)."""
    cursor = parent.walk()
    if cursor.goto_first_child_for_byte(child.start_byte) is not None:
        while True:
            node = cursor.node
            if node is not None and node.id == child.id:
                return cursor.field_name
            if node is None or node.start_byte > child.start_byte or not cursor.goto_next_sibling():
                break
    for index, candidate in enumerate(parent.children):
        if candidate.id == child.id:
            return parent.field_name_for_child(index)
    return None


def named_index(parent: Node, child: Node) -> int:
    for index, candidate in enumerate(parent.named_children):
        if candidate.id == child.id:
            return index
    return -1


def has_token(node: Node, token: str, limit: int = 4) -> bool:
    """Whether one of the node's first `limit` children is the anonymous token `token`."""
    return any(not child.is_named and child.type == token for child in node.children[:limit])


_IDENTIFIER_BYTES = frozenset(
    b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_$\\" + bytes(range(0x80, 0x100))
)


#: the white space past ASCII that tree-sitter-javascript skips between tokens, in UTF-8: U+00A0,
#: U+1680, U+2000-U+200B, U+2028, U+2029, U+202F, U+205F, U+2060, U+3000, U+FEFF
_UNICODE_SPACE = re.compile(
    rb"\xc2\xa0|\xe1\x9a\x80|\xe2\x80[\x80-\x8b\xa8\xa9\xaf]|\xe2\x81[\x9f\xa0]|\xe3\x80\x80|\xef\xbb\xbf")
_ASCII = bytes(range(0x80))
#: the last source `spaced` was asked for and its answer (a unit's passes ask for the same one)
_spaced: tuple[bytes, bytes] = (b"", b"")


def spaced(source: bytes) -> bytes:
    """`source` with each white space past ASCII made as many ASCII spaces: the same offsets and
    names, for the byte passes that find names and the tokens around them (any byte past ASCII
    is part of a name to them). The source itself when it holds none (one pass over its bytes
    past ASCII); kept for the next call with the same object."""
    global _spaced
    if _spaced[0] is source:
        return _spaced[1]
    view = source
    if not source.isascii() and _UNICODE_SPACE.search(source.translate(None, _ASCII)) is not None:
        buffer = bytearray(source)
        for found in _UNICODE_SPACE.finditer(source):
            buffer[found.start():found.end()] = b" " * (found.end() - found.start())
        view = bytes(buffer)
    _spaced = (source, view)
    return view


def starts_word(source: bytes, offset: int) -> bool:
    """Whether no identifier byte precedes `offset` (a regex lookbehind for this would disable
    the literal-prefix search that makes a pass over 27 MB cheap)."""
    return offset == 0 or source[offset - 1] not in _IDENTIFIER_BYTES
