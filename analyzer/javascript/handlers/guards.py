"""What a test reads of the caught value, and the guards a test makes redundant: the field path an
expression reads (`e.response.status`), the literal it is compared with, and the conjuncts before
a test that its holding implies (`e != null && typeof e === "object" && "code" in e && e.code ===
"E"` tests what `e.code === "E"` does). Shared by a handler's own tests (`branches`) and what a
helper's body returns (`helpers`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from tree_sitter import Node

from analyzer.handler_model import BranchTest, ReadTest
from analyzer.javascript.handlers.shapes import operator_of
from analyzer.javascript.syntax import text, without_parentheses

#: whether an identifier is the caught value (`Body._is_caught`: by its binding, not its name alone);
#: where a split asks, a local holding a field of it gives that field's path (`fields.held_fields`)
Caught = Callable[[Node], bool | str]
_NOTHING = frozenset({"undefined"})


def implied(test: BranchTest | ReadTest, guards: Sequence[Node], caught: Caught) -> bool:
    """Whether every guard is one that the test's holding implies (none when the test can hold of a
    field with no value), a `typeof` guard asking the type the test's literals have."""
    if guards and not implies_a_value(test):
        return False
    wanted = test.value if test.op == "typeof" else type_of(test.value)
    for atom in guards:
        kind = guard_atom(atom, caught, test.field or "")
        if kind is None or (kind and kind != wanted):
            return False
    return True


def conjuncts(node: Node) -> list[Node]:
    """The operands of an `&&` chain, in order (iteratively: a minified chain may be thousands long)."""
    out: list[Node] = []
    stack = [node]
    while stack:
        current = without_parentheses(stack.pop())
        left = current.child_by_field_name("left") if current.type == "binary_expression" else None
        right = current.child_by_field_name("right") if left is not None else None
        if left is not None and right is not None and operator_of(current) == "&&":
            stack += (right, left)
        else:
            out.append(current)
    return out


def guard_atom(atom: Node, caught: Caught, field: str) -> str | None:
    """"" for a guard the field's having a value implies, the type name for `typeof <field> ===
    "<type>"`, None for any other. `caught`: what tells the caught value (or a local holding a field of it)."""

    def on_the_way(node: Node) -> bool:  # the parameter, or a field the path goes through
        path = field_of(node, caught)
        return path is not None and (path[1] is None or field.startswith(path[1] + "."))

    if on_the_way(atom):
        return ""
    if atom.type != "binary_expression":
        return None
    operator = operator_of(atom)
    left, right = atom.child_by_field_name("left"), atom.child_by_field_name("right")
    if left is None or right is None:
        return None
    left, right = without_parentheses(left), without_parentheses(right)
    if operator == "in":
        ok, key = literal_value(left)
        inside = field_of(right, caught)
        if not ok or not isinstance(key, str) or inside is None:
            return None
        reached = key if inside[1] is None else f"{inside[1]}.{key}"
        return "" if field == reached or field.startswith(reached + ".") else None
    if operator in ("!=", "!=="):
        for subject, other in ((left, right), (right, left)):
            path = field_of(subject, caught)
            if (on_the_way(subject) or (path is not None and path[1] == field)) \
                    and (nothing(other) or literal_value(other) == (True, None)):
                return ""
        return None
    if operator in ("===", "=="):  # `typeof` gives a string: both say the same
        for subject, other in ((left, right), (right, left)):
            ok, kind = literal_value(other)
            argument = subject.child_by_field_name("argument") if subject.type == "unary_expression" else None
            if not ok or argument is None or operator_of(subject) != "typeof":
                continue
            path = field_of(without_parentheses(argument), caught)
            if path is not None and kind == "object" and (path[1] is None or field.startswith(path[1] + ".")):
                return ""
            if path is not None and path[1] == field and kind in ("string", "number"):
                return str(kind)
        return None
    return None

def implies_a_value(test: BranchTest | ReadTest) -> bool:
    """Whether the test holding says the field it reads is there (so a guard of it adds nothing)."""
    values = test.value if isinstance(test.value, tuple) else (test.value,)
    if test.op in ("===", "==", "in"):
        return None not in values
    if test.op == "typeof":  # `typeof null` is "object"
        return test.value not in ("undefined", "object")
    return test.op in ("truthy", "instanceof")

def type_of(value: object) -> str | None:
    """The `typeof` of a test's literal(s), when they share one."""
    values = value if isinstance(value, tuple) else (value,)
    kinds = {"string" if isinstance(v, str) else "number" if isinstance(v, (int, float)) and not isinstance(v, bool)
             else None for v in values}
    return kinds.pop() if len(kinds) == 1 else None

def nothing(node: Node) -> bool:
    """`undefined`, `void 0`: what a failed guard returns."""
    node = without_parentheses(node)
    if node.type == "undefined" or (node.type == "identifier" and text(node) in _NOTHING):
        return True
    argument = node.child_by_field_name("argument") if node.type == "unary_expression" else None
    return argument is not None and operator_of(node) == "void" and literal_value(argument)[0]


def field_of(node: Node, caught: Caught) -> tuple[bool, str | None] | None:
    """(True, the property path) when `node` is the caught value (path None) or a chain of
    property reads from it (`e.response.status`), or from a local holding a field of it
    (`r.status`, `r` holding `e.response`), else None."""
    parts: list[str] = []
    while True:
        node = without_parentheses(node)
        if node.type == "member_expression":
            name = node.child_by_field_name("property")
            if name is None or name.type != "property_identifier":
                return None
            parts.append(text(name))
        elif node.type == "subscript_expression":
            index = node.child_by_field_name("index")
            ok, key = literal_value(without_parentheses(index)) if index is not None else (False, None)
            if not ok or not isinstance(key, str):
                return None
            parts.append(key)
        elif node.type == "identifier" and (held := caught(node)):
            if held is not True:  # a local holding the field path `held`
                parts.append(held)
            return True, ".".join(reversed(parts)) if parts else None
        else:
            return None
        inner = node.child_by_field_name("object")
        if inner is None:
            return None
        node = inner

def literal_value(node: Node) -> tuple[bool, str | int | float | bool | None]:
    """(True, the value) of a string without escapes, a number (`-2` too), true, false (`!0` and `!1`
    too, as minifiers write them) or null."""
    kind = node.type
    raw = node.text or b""
    argument = node.child_by_field_name("argument") if kind == "unary_expression" else None
    if argument is not None and argument.type == "number" and operator_of(node) in ("-", "!"):  # `case -2:`
        ok, value = literal_value(argument)
        if not ok or not isinstance(value, (int, float)):
            return False, None
        return (True, -value) if operator_of(node) == "-" else (True, value == 0)
    if kind == "string" and b"\\" not in raw:
        return True, raw[1:-1].decode("utf-8", "replace")
    if kind == "template_string" and node.named_child_count <= 1 and b"${" not in raw and b"\\" not in raw:
        return True, raw[1:-1].decode("utf-8", "replace")
    if kind == "number":
        value = raw.decode("ascii", "replace")
        try:
            return True, int(value, 0)
        except ValueError:
            try:
                return True, float(value)
            except ValueError:
                return False, None
    if kind in ("true", "false"):
        return True, kind == "true"
    if kind == "null":
        return True, None
    return False, None
