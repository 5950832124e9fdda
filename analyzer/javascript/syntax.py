"""Small facts about tree-sitter-javascript nodes, shared by the frontend's stages."""

from __future__ import annotations

from collections.abc import Iterator

from tree_sitter import Language, Node, Parser, Tree
import tree_sitter_javascript

from analyzer import progress

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


def new_parser() -> Parser:
    return Parser(LANGUAGE)


def parse(source: bytes) -> Tree:
    given, done = progress.parse_input(source, "parsing")  # the bytes themselves unless progress is shown
    try:
        return new_parser().parse(given)  # type: ignore[arg-type]
    finally:
        done()


def ancestors(node: Node) -> Iterator[Node]:
    """The node's parents, innermost first (iterative; minified code nests deep)."""
    parent = node.parent
    while parent is not None:
        yield parent
        parent = parent.parent


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
    """The field name under which `parent` holds `child`, if any."""
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
    for child in node.children[:limit]:
        if not child.is_named and child.type == token:
            return True
    return False


_IDENTIFIER_BYTES = frozenset(
    b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_$\\" + bytes(range(0x80, 0x100))
)


def starts_word(source: bytes, offset: int) -> bool:
    """Whether no identifier byte precedes `offset` (a regex lookbehind for this would disable
    the literal-prefix search that makes a pass over 27 MB cheap)."""
    return offset == 0 or source[offset - 1] not in _IDENTIFIER_BYTES
