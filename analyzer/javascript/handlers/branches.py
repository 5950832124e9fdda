"""A handler body's branches: the statements each test of the caught value leads to (`if`
chains, `switch`, thrown or returned `?:` chains), and what each test reads of the value."""

from __future__ import annotations

from collections.abc import Callable

from tree_sitter import Node

from analyzer.handler_model import BranchTest
from analyzer.javascript.handlers.shapes import first_named, named, operator_of, short
from analyzer.javascript.syntax import same, text, without_parentheses
from analyzer.model import TestOp

_LEAVING = frozenset({"throw_statement", "return_statement", "break_statement", "continue_statement"})
_COMPARISONS: dict[str, TestOp] = {"===": "===", "!==": "!==", "==": "==", "!=": "!=", "<": "<", "<=": "<=",
                                   ">": ">", ">=": ">="}
_FLIPPED: dict[TestOp, TestOp] = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}
_NEGATED: dict[TestOp, TestOp] = {"===": "!==", "!==": "===", "==": "!=", "!=": "==", "instanceof": "!instanceof",
                                  "truthy": "falsy", "includes": "!includes", "startsWith": "!startsWith",
                                  "endsWith": "!endsWith", "!includes": "includes", "!startsWith": "startsWith",
                                  "!endsWith": "endsWith"}
_STRING_TESTS: dict[str, TestOp] = {"includes": "includes", "startsWith": "startsWith", "endsWith": "endsWith"}

#: the property path an identifier stands for: "" for the caught value itself (`Body._is_caught`: by
#: its binding, not its name alone), `code` for a name destructured from it (`const {code} = e`),
#: None for any other name
Caught = Callable[[Node], str | None]
#: a branch before its dispositions: (test, statements, whether they leave, `?:` arms thrown or returned)
_Split = tuple[BranchTest | None, list[Node], bool, list[Node]]


def split(statements: list[Node], caught: Caught,
          ) -> list[tuple[BranchTest | None, list[Node], list[tuple[Node, str]]]]:
    """The body's statements per branch: the first top-level `if` chain, `switch`, or thrown or
    returned `?:` chain (how minifiers write `if (t) throw a; throw b`) that tests the caught
    value splits them; statements before it belong to every branch, statements after it to the
    branches that fall through to them. A `?:` branch's arm is thrown or returned (`values`)."""
    for at, statement in enumerate(statements):
        prefix: list[Node] = []
        if statement.type == "if_statement":
            prefix, head = _condition_prefix(statement)
            chain = _if_chain(statement, caught, head)
        elif statement.type == "switch_statement":
            chain = _switch(statement, caught)
        elif statement.type in ("throw_statement", "return_statement"):
            chain = _conditional_chain(first_named(statement), caught)
        else:
            continue
        if chain is None:
            continue
        before, after = statements[:at] + prefix, statements[at + 1:]
        return [(test, before + body + (after if not ended else []), [(n, statement.type) for n in arms])
                for test, body, ended, arms in chain]
    return [(None, statements, [])]


def split_returned(value: Node, caught: Caught) -> list[tuple[BranchTest | None, list[Node], list[tuple[Node, str]]]]:
    """An arrow's expression body per branch, as `return value` is split: one per arm of a `?:`
    chain that tests the caught value (`e => e.code === "A" ? null : Promise.reject(e)`)."""
    chain = _conditional_chain(value, caught)
    if chain is None:
        return [(None, [value], [(value, "return_statement")])]
    return [(test, body, [(n, "return_statement") for n in arms]) for test, body, _, arms in chain]


def _conditional_chain(value: Node | None, caught: Caught) -> list[_Split] | None:
    """`throw t1 ? a : t2 ? b : c` (or `return`): one branch per arm."""
    out: list[_Split] = []
    while value is not None:
        value = without_parentheses(value)
        if value.type != "ternary_expression":
            break
        condition = value.child_by_field_name("condition")
        test = test_of(condition, caught) if condition is not None else None
        consequence = value.child_by_field_name("consequence")
        alternative = value.child_by_field_name("alternative")
        if test is None or consequence is None or alternative is None:
            break
        out.append((test, [consequence], True, [without_parentheses(consequence)]))
        value = alternative
    if not out or value is None:
        return None
    out.append((None, [value], True, [value]))
    return out


def _condition_prefix(statement: Node) -> tuple[list[Node], Node | None]:
    """`if (cb(e), t)`, how minifiers write `cb(e); if (t)`: the members before the last, which run
    on every branch, and the last, the test; none and the condition for any other `if`."""
    condition = statement.child_by_field_name("condition")
    inner = without_parentheses(condition) if condition is not None else None
    if inner is None or inner.type != "sequence_expression":
        return [], condition
    members = named(inner)
    return members[:-1], members[-1] if members else None


def _if_chain(statement: Node, caught: Caught, head: Node | None) -> list[_Split] | None:
    """An `if` / `else if` chain per branch; `head`: the first `if`'s test (`_condition_prefix`)."""
    out: list[_Split] = []
    node: Node | None = statement
    while node is not None:
        condition = head if same(node, statement) else node.child_by_field_name("condition")
        test = test_of(condition, caught) if condition is not None else None
        if test is None:
            if not out:
                return None
            out.append((None, [node], _ends([node]), []))  # an `else if` on something else: the rest
            return out
        consequence = node.child_by_field_name("consequence")
        body = [consequence] if consequence is not None else []
        out.append((test, body, _ends(body), []))
        alternative = node.child_by_field_name("alternative")
        inner = named(alternative)[:1] if alternative is not None else []
        if not inner:
            out.append((None, [], False, []))
            return out
        if inner[0].type != "if_statement":
            out.append((None, inner, _ends(inner), []))
            return out
        node = inner[0]
    return out


def _switch(statement: Node, caught: Caught) -> list[_Split] | None:
    value, body = statement.child_by_field_name("value"), statement.child_by_field_name("body")
    path = field_of(without_parentheses(value), caught) if value is not None else None
    if path is None or body is None:
        return None
    cases = named(body)
    out: list[_Split] = []
    has_default = False
    for at, case in enumerate(cases):
        if case.type == "switch_case":
            literal = case.child_by_field_name("value")
            ok, constant = literal_value(without_parentheses(literal)) if literal is not None else (False, None)
            if not ok:
                return None
            test: BranchTest | None = BranchTest(path[1], "===", constant)
        elif case.type == "switch_default":
            has_default, test = True, None
        else:
            continue
        statements, ended = _case_statements(cases[at:])
        out.append((test, statements, ended, []))
    if not has_default:
        out.append((None, [], False, []))
    return out


def test_of(condition: Node, caught: Caught) -> BranchTest | None:
    node = without_parentheses(condition)
    argument = node.child_by_field_name("argument") if node.type == "unary_expression" else None
    if argument is not None and operator_of(node) == "!":
        inner = test_of(argument, caught)
        negated = _NEGATED.get(inner.op) if inner is not None else None
        if inner is None or negated is None:
            if inner is not None and inner.op == "falsy":
                return BranchTest(inner.field, "truthy", None)
            return None
        return BranchTest(inner.field, negated, inner.value)
    if node.type == "binary_expression":
        return _comparison(node, caught)
    if node.type == "call_expression":
        return _string_test(node, caught)
    path = field_of(node, caught)
    return BranchTest(path[1], "truthy", None) if path is not None else None


def _comparison(node: Node, caught: Caught) -> BranchTest | None:
    operator = node.child_by_field_name("operator")
    left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
    if operator is None or left is None or right is None:
        return None
    left, right = without_parentheses(left), without_parentheses(right)
    if operator.type == "instanceof":
        path = field_of(left, caught)
        return BranchTest(path[1], "instanceof", short(right)) if path is not None else None
    op = _COMPARISONS.get(operator.type)
    if op is None:
        return None
    path, (ok, value) = field_of(left, caught), literal_value(right)
    if path is None:
        path, (ok, value) = field_of(right, caught), literal_value(left)
        op = _FLIPPED.get(op, op)
    return BranchTest(path[1], op, value) if path is not None and ok else None


def _string_test(call: Node, caught: Caught) -> BranchTest | None:
    callee = call.child_by_field_name("function")
    arguments = named(call.child_by_field_name("arguments"))
    if callee is None or callee.type != "member_expression" or len(arguments) != 1:
        return None
    method = callee.child_by_field_name("property")
    op = _STRING_TESTS.get(text(method)) if method is not None else None
    target = callee.child_by_field_name("object")
    path = field_of(without_parentheses(target), caught) if target is not None else None
    ok, value = literal_value(without_parentheses(arguments[0]))
    if op is None or path is None or not ok or not isinstance(value, str):
        return None
    return BranchTest(path[1], op, value)


def field_of(node: Node, caught: Caught) -> tuple[bool, str | None] | None:
    """(True, the property path) when `node` is the caught value (path None) or a chain of
    property reads from it (`e.response.status`, or `status` destructured from `e.response`),
    else None."""
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
        elif node.type == "identifier" and (base := caught(node)) is not None:
            path = ".".join([base] * bool(base) + parts[::-1])
            return True, path or None
        else:
            return None
        inner = node.child_by_field_name("object")
        if inner is None:
            return None
        node = inner


def _case_statements(cases: list[Node]) -> tuple[list[Node], bool]:
    """A switch case's statements, through the cases it falls into, without the `break` that ends
    them; True when they leave (return, throw, continue) rather than reach what follows the switch."""
    statements: list[Node] = []
    for case in cases:
        body = [n for n in named(case) if not same(n, case.child_by_field_name("value"))]
        statements.extend(body)
        if body and body[-1].type in _LEAVING:
            if body[-1].type == "break_statement":
                return statements[:-1], False
            return statements, True
    return statements, False


def _ends(statements: list[Node]) -> bool:
    """Whether control never runs past the statements (their last one leaves)."""
    if not statements:
        return False
    last = statements[-1]
    if last.type == "statement_block":
        return _ends(named(last))
    return last.type in _LEAVING


def literal_value(node: Node) -> tuple[bool, str | int | float | bool | None]:
    """(True, the value) of a string without escapes, a number (`-2` too), true, false or null."""
    kind = node.type
    raw = node.text or b""
    argument = node.child_by_field_name("argument") if kind == "unary_expression" else None
    if argument is not None and argument.type == "number" and operator_of(node) == "-":  # `case -2:`
        ok, value = literal_value(argument)
        return (True, -value) if ok and isinstance(value, (int, float)) else (False, None)
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
