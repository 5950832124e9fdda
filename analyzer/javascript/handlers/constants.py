"""A constant's members (docs/reference.md, "What a helper tests"): the literals of a `Set` or
an array that a name holds once and nothing changes, read in the unit's bytes."""

from __future__ import annotations

import re

from analyzer.javascript.handlers.branches import literals
from analyzer.javascript.handlers.shapes import named
from analyzer.javascript.syntax import new_parser

#: the bytes of an ASCII name
NAME = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_$")
#: after a constant's name: a read of a method (`.has(`), an assignment (`=`, not `==` or `=>`)
_MEMBER_READ = re.compile(rb"\s*\.\s*(has|includes)\s*\(")
_ASSIGNED = re.compile(rb"\s*=(?![=>])\s*")
#: a list of simple literals, `[...]` or `new Set([...])`, read again by the parser
_LITERAL = rb"(?:\"[^\"\\\n]*\"|'[^'\\\n]*'|-?\d+(?:\.\d+)?)"
_LIST = re.compile(rb"(new\s+Set\s*\(\s*)?(\[\s*" + _LITERAL + rb"(?:\s*,\s*" + _LITERAL + rb")*\s*,?\s*\])(\s*\))?")


def constant_members(source: bytes, name: bytes, declared: int,
                     method: bytes) -> tuple[str | int | float | bool | None, ...] | None:
    """The literals of a constant `Set` (read by `has`) or array (by `includes`): the binding
    made once, `new Set([...])` or `[...]` of literals, and every other occurrence of its name's
    word in the unit's bytes a read of that method (strings and comments included: any other
    occurrence, another binding of the name too, leaves it unread). `declared`: the offset
    of the name's declaration."""
    found, made = None, 0
    at = source.find(name)
    while at >= 0:
        end = at + len(name)
        before = source[at - 1] if at else 0x20
        if before in NAME or before in b"#\\" or (end < len(source) and source[end] in NAME) \
                or (before == 0x2E and source[at - 3:at] != b"..."):  # another word, or a property
            pass
        elif (read := _MEMBER_READ.match(source, end)) is not None and read.group(1) == method:
            pass
        elif (assigned := _ASSIGNED.match(source, end)) is not None and source[at - 3:at] != b"...":
            found, made = _literals_at(source, assigned.end(), method == b"has"), made + 1
            if found is None:
                break
        elif at != declared:
            made = 2  # any other use: unread
            break
        at = source.find(name, end)
    return found if made == 1 else None


def _literals_at(source: bytes, at: int, as_set: bool) -> tuple[str | int | float | bool | None, ...] | None:
    """The literals of `new Set([...])` (`as_set`) or `[...]` written at `at`; None for anything else."""
    made = _LIST.match(source, at)
    if made is None or bool(made.group(1)) != as_set or bool(made.group(3)) != as_set:
        return None
    root = new_parser().parse(made.group(2)).root_node
    statement = root.named_children[0] if root.named_child_count == 1 and not root.has_error else None
    array = named(statement)[0] if statement is not None and statement.named_child_count == 1 else None
    return literals(named(array)) if array is not None and array.type == "array" else None
