"""Two tree-sitter subtrees compared node by node, walked in step by cursors (no recursion: minified
code nests thousands deep): the oracle of a sliced parse (docs/slices.md)."""

from __future__ import annotations

from tree_sitter import Node, TreeCursor


def _fields(cursor: TreeCursor, shift: int) -> tuple[object, ...]:
    node = cursor.node
    assert node is not None
    return (node.kind_id, node.start_byte - shift, node.end_byte - shift, node.is_missing, node.is_named,
            cursor.field_id)


def _points(cursor: TreeCursor) -> tuple[object, ...]:
    node = cursor.node
    assert node is not None
    return node.start_point, node.end_point


def first_difference(whole: Node, part: Node, shift: int = 0, points: bool = True) -> str | None:
    """None when `part` (its offsets less `shift`) equals `whole` node by node: kind, byte range,
    MISSING, named, field, children, and (`points`) start and end points; else the first
    difference."""
    left, right = whole.walk(), part.walk()
    depth = 0
    while True:
        a, b = _fields(left, 0), _fields(right, shift)
        if depth == 0:  # the roots' fields are their parents'
            a, b = a[:-1], b[:-1]
        if a != b or (points and _points(left) != _points(right)):
            return f"{left.node!r} against {right.node!r}"
        if left.goto_first_child():
            if not right.goto_first_child():
                return f"{left.node!r} has children, {right.node!r} none"
            depth += 1
            continue
        if right.goto_first_child():
            return f"{right.node!r} has children, {left.node!r} none"
        while not left.goto_next_sibling():
            if right.goto_next_sibling():
                return f"{right.node!r} is one child too many"
            if depth == 0:
                return None
            left.goto_parent()
            right.goto_parent()
            depth -= 1
        if not right.goto_next_sibling():
            return f"{left.node!r} is missing"
