"""Oracles for the throwers' and hot names' byte supersets (docs/slices.md, "The byte
supersets"), read from a whole tree: the exact sets the supersets must hold."""

from __future__ import annotations

from tree_sitter import Node

from analyzer.javascript.handlers.sources import _function_of, declared_once
from analyzer.javascript.occurrences import RawItem
from analyzer.javascript.syntax import FUNCTION_TYPES


def may_throw(tree_root: Node, raw: list[RawItem]) -> set[bytes]:
    """The top-level functions `_Graph` would take (`_function_of` an item declared once) whose
    own code holds a `throw` statement: `_Graph.throwing` is a subset."""
    starts, stack = set(), [tree_root]
    while stack:  # every throw statement's innermost function
        node = stack.pop()
        if node.type == "throw_statement":
            above = node.parent
            while above is not None and above.type not in FUNCTION_TYPES:
                above = above.parent
            if above is not None:
                starts.add(above.start_byte)
        stack.extend(node.named_children)
    out = set()
    for name, position in declared_once(raw).items():
        function = _function_of(raw[position][2])
        if function is not None and function.start_byte in starts:
            out.add(name)
    return out


def may_be_hot(raw: list[RawItem], throwing: set[bytes]) -> set[bytes]:
    """`throwing` and the top-level functions `_Graph` would take with a call of one of them
    anywhere in their code: `_Graph.is_hot`'s names are a subset."""
    out = set(throwing)
    for name, position in declared_once(raw).items():
        function = _function_of(raw[position][2])
        stack = [function] if function is not None else []
        while stack:
            node = stack.pop()
            callee = node.child_by_field_name("function") if node.type == "call_expression" else None
            if callee is not None and callee.type == "identifier" and callee.text in throwing:
                out.add(name)
                break
            stack.extend(node.named_children)
    return out
