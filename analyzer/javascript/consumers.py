"""What happens to a callsite's value next: the immediate consumer and its role."""

from __future__ import annotations

from collections.abc import Callable

from tree_sitter import Node

from analyzer.javascript.handlers.shapes import makes_promise
from analyzer.javascript.syntax import FUNCTION_TYPES, field_of, named_index, same, text
from analyzer.model import Consumer, ConsumerRole

# parent type -> role, when the relation does not matter
_ROLE_BY_PARENT: dict[str, ConsumerRole] = {
    "throw_statement": "throw",
    "return_statement": "return",
    "await_expression": "await",
    "yield_expression": "yield",
    "expression_statement": "statement",
    "variable_declarator": "declare",
    "assignment_expression": "assign",
    "augmented_assignment_expression": "assign",
    "pair": "property",
    "field_definition": "property",
    "binary_expression": "operand",
    "unary_expression": "operand",
    "member_expression": "operand",
    "subscript_expression": "operand",
    "template_substitution": "operand",
    "spread_element": "argument",
}


def consumer_of(callsite: Node, chain: list[Node], index: Callable[[Node, Node], int] = named_index) -> Consumer:
    """`chain`: the callsite's ancestors, innermost first, to the whole unit's root (a slice's
    through its head chain, `unit_tree.UnitTree.chain`: `_parameter_callee_role` meets Bun's
    wrapper's parameters there); every climb here walks it, since a walk by `Node.parent` costs
    the depth at every step; `index`: `named_index`, or one that
    indexes a wide node's children once (`normalize.Siblings.named_index`)."""
    at, child = _skip_parentheses(chain, -1, callsite)
    if at >= len(chain):
        return Consumer(node="program", relation="body", role="statement")
    parent = chain[at]
    relation = _relation(parent, child, index)
    return Consumer(node=parent.type, relation=relation, role=_role(callsite, chain))


def _skip_parentheses(chain: list[Node], at: int, node: Node) -> tuple[int, Node]:
    """(position in `chain` of the first ancestor above position `at` (-1: the callsite) that
    is not a parenthesized expression, the node right below it)."""
    child, at = node, at + 1
    while at < len(chain) and chain[at].type == "parenthesized_expression":
        child, at = chain[at], at + 1
    return at, child


# the slot a parent holds its one unnamed child in, named as ESTree names it
_UNNAMED_SLOT = {
    "throw_statement": "argument",
    "return_statement": "argument",
    "expression_statement": "expression",
    "await_expression": "argument",
    "yield_expression": "argument",
    "spread_element": "argument",
    "template_substitution": "expression",
}


def _relation(parent: Node, child: Node, index: Callable[[Node, Node], int]) -> str:
    if parent.type == "arguments":
        return f"arguments[{index(parent, child)}]"
    if parent.type in ("array", "sequence_expression"):
        return f"{'elements' if parent.type == 'array' else 'expressions'}[{index(parent, child)}]"
    return field_of(parent, child) or _UNNAMED_SLOT.get(parent.type, "child")


def _role(callsite: Node, chain: list[Node]) -> ConsumerRole:
    """Role of the effective consumer: parentheses, ?: branches, `||`/`&&`/`??` right operands
    and the last expression of a sequence pass the value through unchanged."""
    at, child = _skip_parentheses(chain, -1, callsite)
    while at < len(chain):
        parent = chain[at]
        if parent.type == "ternary_expression" and not same(
            parent.child_by_field_name("condition"), child
        ):
            at, child = _skip_parentheses(chain, at, parent)
            continue
        if parent.type == "binary_expression" and _passes_right(parent, child):
            at, child = _skip_parentheses(chain, at, parent)
            continue
        if parent.type == "sequence_expression":
            if parent.named_children and same(parent.named_children[-1], child):
                at, child = _skip_parentheses(chain, at, parent)
                continue
            return "statement"
        break
    if at >= len(chain):
        return "statement"
    parent = chain[at]
    if parent.type == "arguments":
        return _argument_role(chain, at, child)
    if parent.type == "arrow_function" and same(parent.child_by_field_name("body"), child):
        return "return"
    if parent.type in ("assignment_expression", "augmented_assignment_expression"):
        return "assign" if same(parent.child_by_field_name("right"), child) else "other"
    if parent.type == "call_expression":
        return "operand"  # the error value itself is called
    return _ROLE_BY_PARENT.get(parent.type, "other")


def _passes_right(parent: Node, child: Node) -> bool:
    operator = parent.child_by_field_name("operator")
    return (
        operator is not None
        and operator.type in ("||", "&&", "??")
        and same(parent.child_by_field_name("right"), child)
    )


def _argument_role(chain: list[Node], at: int, child: Node) -> ConsumerRole:
    """The role of `child` passed in the arguments at `chain[at]`."""
    call = chain[at + 1] if at + 1 < len(chain) else None
    if call is None or call.type != "call_expression":
        return "argument"
    callee = call.child_by_field_name("function")
    while callee is not None and callee.type == "parenthesized_expression" and callee.named_children:
        callee = callee.named_children[0]
    if callee is None:
        return "argument"
    if callee.type == "member_expression":
        prop = callee.child_by_field_name("property")
        return "reject" if prop is not None and text(prop) == "reject" else "argument"
    if callee.type != "identifier":
        return "argument"
    return _parameter_callee_role(text(callee), chain, at + 2)


def _parameter_callee_role(name: str, chain: list[Node], start: int) -> ConsumerRole:
    """`rej(e)` where `rej` is a Promise executor's second parameter is a reject; a call of any
    other parameter of an enclosing function is a callback (`chain[start:]`: the call's
    ancestors)."""
    for at in range(start, len(chain)):
        node = chain[at]
        if node.type in FUNCTION_TYPES:
            index = _parameter_index(node, name)
            if index is not None:
                return "reject" if index == 1 and _is_promise_executor(node, chain[at + 1:at + 3]) else "callback"
            if _declares_locally(node, name):
                return "argument"
    return "argument"


def _parameter_index(function: Node, name: str) -> int | None:
    single = function.child_by_field_name("parameter")
    if single is not None:
        return 0 if text(single) == name else None
    params = function.child_by_field_name("parameters")
    if params is None:
        return None
    for index, param in enumerate(params.named_children):
        if param.type == "identifier" and text(param) == name:
            return index
    return None


def _declares_locally(function: Node, name: str) -> bool:
    """A function whose own name is `name` (a named function expression) shadows outer params."""
    own = function.child_by_field_name("name")
    return own is not None and own.type == "identifier" and text(own) == name


def _is_promise_executor(function: Node, above: list[Node]) -> bool:
    """The function is the executor of `new Promise(...)`, `new this.Promise(...)` or TypeScript's
    `new (P || (P = Promise))(...)` (`shapes.makes_promise`); `above`: its parent and grandparent."""
    holder = above[0] if above else None
    if holder is None or holder.type != "arguments" or named_index(holder, function) != 0:
        return False
    new = above[1] if len(above) > 1 else None
    if new is None or new.type != "new_expression":
        return False
    return makes_promise(new.child_by_field_name("constructor"))
