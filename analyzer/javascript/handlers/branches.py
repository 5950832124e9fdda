"""A handler body's branches: the statements each test of the caught value leads to (`if`
chains, `switch`, thrown or returned `?:` chains), and what each test reads of the value."""

from __future__ import annotations

from dataclasses import replace

from tree_sitter import Node

from analyzer.branch_tests import MOST, negated, product
from analyzer.handler_model import BranchTest
from analyzer.javascript.handlers.guards import Caught, conjuncts, field_of, implied, literal_value, nothing
from analyzer.javascript.handlers.shapes import ends, first_named, named, operator_of, short
from analyzer.javascript.syntax import same, text, without_parentheses
from analyzer.model import TestOp

_LEAVING = frozenset({"throw_statement", "return_statement", "break_statement", "continue_statement"})
#: statements that leave a `switch` case for somewhere other than after the `switch`
_CASE_LEAVING = _LEAVING - {"break_statement"}
_COMPARISONS: dict[str, TestOp] = {"===": "===", "!==": "!==", "==": "==", "!=": "!=", "<": "<", "<=": "<=",
                                   ">": ">", ">=": ">="}
_FLIPPED: dict[TestOp, TestOp] = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}
NEGATED: dict[TestOp, TestOp] = {"===": "!==", "!==": "===", "==": "!=", "!=": "==", "instanceof": "!instanceof",
                                  "truthy": "falsy", "includes": "!includes", "startsWith": "!startsWith",
                                  "endsWith": "!endsWith", "!includes": "includes", "!startsWith": "startsWith",
                                  "!endsWith": "endsWith", "predicate": "!predicate", "!predicate": "predicate",
                                  "in": "!in", "!in": "in", "typeof": "!typeof", "!typeof": "typeof"}
_PREDICATES = frozenset({"predicate", "!predicate"})
#: the comparisons a named constant is read in (`e.code === yc.MethodNotFound`)
_EQUALITIES = frozenset({"===", "!==", "==", "!="})
#: the most members read on the way to a named constant
_MOST_PARTS = 4
_STRING_TESTS: dict[str, TestOp] = {"includes": "includes", "startsWith": "startsWith", "endsWith": "endsWith"}

#: a branch before its dispositions: (test, statements, whether they leave, `?:` arms thrown or returned)
_Split = tuple[BranchTest | None, list[Node], bool, list[Node]]


def split(statements: list[Node], caught: Caught,
          ) -> list[tuple[BranchTest | None, list[Node], list[tuple[Node, str]]]]:
    """The body's statements per branch: the first top-level `if` chain, `switch`, or thrown or
    returned `?:` chain (how minifiers write `if (t) throw a; throw b`) that tests the caught
    value splits them; statements before it belong to every branch, statements after it to the
    branches that fall through to them. A `?:` branch's arm is thrown or returned (`values`)."""
    for at, statement in enumerate(statements):
        found = _chain(statement, caught)
        if found is None:
            continue
        chain, prefix = found
        # (test, statements, whether they leave, arms as (value, throw or return)) of each branch
        branches = [(test, prefix + body, ended, [(n, statement.type) for n in arms])
                    for test, body, ended, arms in chain]
        end, open_end = at + 1, _falls_through_alone(chain)
        while open_end:
            # `if (t1) return a; f(e); if (t2) return b; ...`, how minifiers write an `else if`
            # chain whose branches leave: only the last branch reaches what follows, up to the next test
            following, between = end, []
            while following < len(statements) and (found := _chain(statements[following], caught)) is None \
                    and statements[following].type not in _LEAVING:
                between.append(statements[following])
                following += 1
            if following == len(statements) or found is None:
                break
            more, prefix = found
            kind = statements[following].type
            carried = branches[-1][1]  # what runs before: the chain's first condition's own (`if (f(e), t)`)
            branches[-1:] = [(test, carried + between + prefix + body, ended, [(n, kind) for n in arms])
                             for test, body, ended, arms in more]
            end, open_end = following + 1, _falls_through_alone(more)
        before, after = statements[:at], statements[end:]
        return [(test, before + body + (after if not ended else []), values)
                for test, body, ended, values in branches]
    return [(None, statements, [])]


def _chain(statement: Node, caught: Caught) -> tuple[list[_Split], list[Node]] | None:
    """The branches a statement splits into when it tests the caught value, and the expressions
    run before its test in every branch (`if (f(e), t)`, how minifiers write `f(e); if (t)`);
    else None. An expression statement's `?:` chain splits as an `if` chain of its arms does,
    its arms run, not thrown or returned."""
    if statement.type == "if_statement":
        return _if_chain(statement, caught)
    if statement.type in ("throw_statement", "return_statement"):
        return _conditional_chain(statement, caught)
    if statement.type == "expression_statement":  # `t ? f(e) : g(e)`, how minifiers write an `if`/`else` of two
        found = _conditional_chain(statement, caught)
        return None if found is None else ([(test, body, False, []) for test, body, _, _ in found[0]], found[1])
    return _switch(statement, caught) if statement.type == "switch_statement" else None


def _falls_through_alone(chain: list[_Split]) -> bool:
    """Whether every branch leaves but the last, a test's missing `else`: what follows the
    statement runs only there."""
    *tested, (test, body, ended, _) = chain
    return test is None and not body and not ended and all(leaves for _, _, leaves, _ in tested)


def split_expression(expression: Node, caught: Caught,
                     ) -> list[tuple[BranchTest | None, list[Node], list[tuple[Node, str]]]] | None:
    """An arrow's expression body, returned, per branch when it is a `?:` chain that tests the
    caught value (`e => e.code === "ENOENT" ? null : Promise.reject(e)`), else None."""
    found = _conditional_chain(expression, caught, itself=True)
    if found is None:
        return None
    chain, prefix = found
    return [(test, prefix + body, [(n, "return_statement") for n in arms]) for test, body, _, arms in chain]


def _conditional_chain(statement: Node, caught: Caught, itself: bool = False,
                       ) -> tuple[list[_Split], list[Node]] | None:
    """`throw t1 ? a : t2 ? b : c` (or `return`): one branch per arm; `throw f(e), t ? a : b`
    runs `f(e)` in each. `itself`: `statement` is the value, an arrow's expression body."""
    value = statement if itself else first_named(statement)
    value = without_parentheses(value) if value is not None else None
    prefix: list[Node] = []
    if value is not None and value.type == "sequence_expression":
        *prefix, value = [member for member in value.named_children if member.type != "comment"]
    out: list[_Split] = []
    while value is not None:
        value = without_parentheses(value)
        if value.type != "ternary_expression":
            break
        condition = value.child_by_field_name("condition")
        tests = tests_of(condition, caught) if condition is not None else None
        consequence = value.child_by_field_name("consequence")
        alternative = value.child_by_field_name("alternative")
        if tests is None or consequence is None or alternative is None:
            break
        out.extend((test, [consequence], True, [without_parentheses(consequence)]) for test in tests)
        value = alternative
    if not out or value is None:
        return None
    out.append((None, [value], True, [value]))
    return out, prefix


def _if_chain(statement: Node, caught: Caught) -> tuple[list[_Split], list[Node]] | None:
    out: list[_Split] = []
    prefix: list[Node] = []
    node: Node | None = statement
    while node is not None:
        condition = node.child_by_field_name("condition")
        condition = without_parentheses(condition) if condition is not None else None
        if condition is not None and condition.type == "sequence_expression" and node is statement:
            *prefix, condition = [member for member in condition.named_children if member.type != "comment"]
        tests = tests_of(condition, caught) if condition is not None else None
        if tests is None:
            if not out:
                return None
            out.append((None, [node], ends([node]), []))  # an `else if` on something else: the rest
            return out, prefix
        consequence = node.child_by_field_name("consequence")
        body = [consequence] if consequence is not None else []
        out.extend((test, body, ends(body), []) for test in tests)
        alternative = node.child_by_field_name("alternative")
        inner = named(alternative)[:1] if alternative is not None else []
        if not inner:
            out.append((None, [], False, []))
            return out, prefix
        if inner[0].type == "expression_statement" and (arms := _conditional_chain(inner[0], caught)) is not None:
            # `else t ? f(e) : g(e)`, how minifiers write an `else if` chain of expressions: its arms run
            out.extend((test, arms[1] + body, False, []) for test, body, _, _ in arms[0])
            return out, prefix
        if inner[0].type != "if_statement":
            out.append((None, inner, ends(inner), []))
            return out, prefix
        node = inner[0]
    return out, prefix


def _switch(statement: Node, caught: Caught) -> tuple[list[_Split], list[Node]] | None:
    value, body = statement.child_by_field_name("value"), statement.child_by_field_name("body")
    subject = without_parentheses(value) if value is not None else None
    prefix: list[Node] = []
    if subject is not None and subject.type == "sequence_expression":  # `switch (log(e), e.code)`
        *prefix, subject = [member for member in subject.named_children if member.type != "comment"]
    path = field_of(subject, caught) if subject is not None else None
    through = None
    if path is None and subject is not None and (helper := helper_call(subject, caught)) is not None:
        through, path = helper[0], (True, helper[1])  # `switch (code(e))`
    if path is None or body is None:
        return None
    cases = named(body)
    out: list[_Split] = []
    has_default = False
    for at, case in enumerate(cases):
        if case.type == "switch_case":
            literal = case.child_by_field_name("value")
            label = without_parentheses(literal) if literal is not None else None
            ok, constant = literal_value(label) if label is not None else (False, None)
            compared = named_constant(label, caught) if label is not None and not ok else None
            if not ok and compared is None:
                return None
            test: BranchTest | None = BranchTest(path[1], "===", constant, through, compared=compared)
        elif case.type == "switch_default":
            has_default, test = True, None
        else:
            continue
        statements, ended = _case_statements(cases[at:])
        out.append((test, statements, ended, []))
    if not has_default:
        out.append((None, [], False, []))
    return out, prefix


def tests_of(condition: Node, caught: Caught, depth: int = 0) -> list[BranchTest] | None:
    """The tests a condition makes, one per branch it opens: its one test; one per operand of a `||`
    chain whose every operand is a test (`e.code === "A" || e.code === "B"`: a branch for each, with
    the same statements, as a `switch`'s case that falls into the next); a conjunction of tests
    (`e instanceof X && e.code === "E"`: one test whose `also` holds the rest), `&&` distributed over
    `||` and `!` over both (`!(e instanceof X && e.code === "E")` is `!instanceof` or `!==`); else
    None, as for any operand that tests something else."""
    test = test_of(condition, caught)
    if test is not None:
        return [test]
    node = without_parentheses(condition)
    if depth >= _DEPTH:
        return None
    argument = node.child_by_field_name("argument") if node.type == "unary_expression" else None
    if argument is not None and operator_of(node) == "!":
        inner = tests_of(argument, caught, depth + 1)
        return negated(inner, _negate) if inner is not None else None
    if node.type == "binary_expression" and operator_of(node) == "&&":
        return _conjunction(node, caught, depth)
    operands: list[Node] = []
    while node.type == "binary_expression" and operator_of(node) == "||":
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        if left is None or right is None:
            return None
        operands.append(right)
        node = without_parentheses(left)
    if not operands:
        return None
    operands.append(node)
    tests: list[BranchTest] = []
    for operand in reversed(operands):
        found = tests_of(operand, caught, depth + 1)
        if found is None:
            return None
        tests += found
    return tests


#: how deep conditions nest in a split (`a && (b || (c && ...))`)
_DEPTH = 8


def _conjunction(node: Node, caught: Caught, depth: int) -> list[BranchTest] | None:
    """An `&&` chain whose every operand is a test or a guard of another operand's tests (`e &&
    e.code === "A" && e.fatal` tests `code` and `fatal`): one test per choice of each operand's
    tests, the rest in its `also`."""
    parts = conjuncts(node)
    if len(parts) > MOST:
        return None
    options = [tests_of(part, caught, depth + 1) for part in parts]
    dropped: set[int] = set()
    for at, part in enumerate(parts):
        if any(other != at and other not in dropped and tests is not None
               and all(_there(part, t, caught) or (t.through is None and implied(t, [part], caught)) for t in tests)
               for other, tests in enumerate(options)):
            dropped.add(at)
    kept = [tests for at, tests in enumerate(options) if at not in dropped]
    return None if any(tests is None for tests in kept) else product(kept)  # type: ignore[arg-type]


def _negate(op: TestOp) -> TestOp | None:
    return NEGATED.get(op, "truthy" if op == "falsy" else None)


def test_of(condition: Node, caught: Caught) -> BranchTest | None:
    """The one test a condition makes, `!`s read iteratively (a minified `!!!...e` may be thousands long)."""
    node = without_parentheses(condition)
    negations = 0
    while node.type == "unary_expression" and operator_of(node) == "!" \
            and (argument := node.child_by_field_name("argument")) is not None:
        negations, node = negations + 1, without_parentheses(argument)
    test = _one_test(node, caught)
    if test is None or negations % 2 == 0:
        return test
    op = _negate(test.op)
    return replace(test, op=op) if op is not None else None


def _one_test(node: Node, caught: Caught) -> BranchTest | None:
    if node.type == "binary_expression":
        return _guarded(node, caught) if operator_of(node) == "&&" else _comparison(node, caught)
    if node.type == "call_expression":
        return _string_test(node, caught) or _in_list(node, caught) or _predicate(node, caught)
    path = field_of(node, caught)
    return BranchTest(path[1], "truthy", None) if path is not None else None


def _guarded(node: Node, caught: Caught) -> BranchTest | None:
    """The last conjunct's test when every conjunct before it only asks that what it reads be there:
    the caught value or a prefix of the test's field path tested for truthiness (`e && e.code ===
    "ENOENT"`, `e.response && e.response.status === 404`), or a guard the test's holding implies
    (`e != null && typeof e === "object" && "code" in e && e.code === "E"`); any other `&&` does not split."""
    *guards, last = conjuncts(node)
    test = test_of(last, caught)
    if test is None:
        return None
    others = [guard for guard in guards if not _there(guard, test, caught)]
    return test if not others or (test.through is None and implied(test, others, caught)) else None


def _there(guard: Node, test: BranchTest, caught: Caught) -> bool:
    """Whether a truthiness guard asks that the value the test reads from be there."""
    path = field_of(without_parentheses(guard), caught)
    if path is None:
        return False
    prefix, field = path[1], test.field
    if prefix is None or (field is not None and field.startswith(prefix + ".")):
        return True
    # `e.response && isRetryable(e.response)`: a helper given the field the guard asks for; `e.message &&
    # e.message.includes("x")`: a string that holds a non-empty one is no empty string
    return field == prefix and (test.through is not None or test.op in _PREDICATES
                                or (test.op in _STRING_TESTS.values() and bool(test.value)))


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
    typeof = _typeof_test(left, right, op, caught)
    if typeof is not None:
        return typeof
    path, (ok, value), other = field_of(left, caught), literal_value(right), right
    if path is None:
        path, (ok, value), other = field_of(right, caught), literal_value(left), left
        op = _FLIPPED.get(op, op)
    if path is not None:
        if ok:
            return BranchTest(path[1], op, value)
        compared = named_constant(other, caught) if op in _EQUALITIES else None
        return BranchTest(path[1], op, None, compared=compared) if compared is not None else None
    return _through(left, right, op, caught)


#: names that read no constant of the program's
_NOT_CONSTANTS = frozenset({"undefined", "NaN", "Infinity", "arguments"})


def named_constant(node: Node, caught: Caught) -> str | None:
    """A name's member as written (`yc.MethodNotFound`, `errors.codes.EPIPE`): what a test compares a
    field with when the build kept a named constant; not a read of the caught value, `this`'s or a call's."""
    whole, parts = node, 0
    while node.type == "member_expression" and parts < _MOST_PARTS:
        name, inner = node.child_by_field_name("property"), node.child_by_field_name("object")
        if name is None or name.type != "property_identifier" or inner is None or node.child(1) is None \
                or node.child(1).type != ".":
            return None
        node, parts = inner, parts + 1
    if node.type != "identifier" or caught(node) or (not parts and text(node) in _NOT_CONSTANTS):
        return None
    return text(whole)


def _typeof_test(left: Node, right: Node, op: TestOp, caught: Caught) -> BranchTest | None:
    """`typeof e.code === "string"`, the string on either side (`==` says the same of two strings):
    `typeof`, `!typeof` for `!==` and `!=`, `value` the string as written. `e.code === void 0` (or
    `undefined`) says what `typeof e.code === "undefined"` does, `e.code == undefined` what `e.code ==
    null` does (how minifiers write it)."""
    if op not in ("===", "==", "!==", "!="):
        return None
    for subject, other in ((left, right), (right, left)):
        path = field_of(subject, caught) if nothing(other) else None
        if path is not None and op in ("==", "!="):
            return BranchTest(path[1], op, None)
        if path is not None:
            return BranchTest(path[1], "typeof" if op == "===" else "!typeof", "undefined")
        argument = subject.child_by_field_name("argument") if subject.type == "unary_expression" else None
        if argument is None or operator_of(subject) != "typeof":
            continue
        ok, kind = literal_value(other)
        path = field_of(without_parentheses(argument), caught)
        if not ok or not isinstance(kind, str) or path is None:
            return None
        return BranchTest(path[1], "typeof" if op in ("===", "==") else "!typeof", kind)
    return None


def _through(left: Node, right: Node, op: TestOp, caught: Caught) -> BranchTest | None:
    """`code(e) === "ENOENT"`: what a call given the caught value (or a field of it) as its one
    argument returns, compared with a literal; `through` is the callee as written."""
    for called, other, as_written in ((left, right, op), (right, left, _FLIPPED.get(op, op))):
        ok, value = literal_value(other)
        helper = helper_call(called, caught) if ok else None
        if helper is not None:
            return BranchTest(helper[1], as_written, value, helper[0])
    return None


def helper_call(node: Node, caught: Caught) -> tuple[str, str | None] | None:
    """(callee as written, the argument's field path) of a call given the caught value or a field
    of it as its one argument, the callee a name or a property read (no computed callee)."""
    parts = _one_argument_call(node)
    path = field_of(parts[1], caught) if parts is not None else None
    return (short(parts[0]), path[1]) if parts is not None and path is not None else None


def _one_argument_call(node: Node) -> tuple[Node, Node] | None:
    """(callee, argument) of a call of a name or a property read (`(0, f)` read as `f`) given one argument."""
    if node.type != "call_expression":
        return None
    callee = indirect(node.child_by_field_name("function"))
    arguments = named(node.child_by_field_name("arguments"))
    if callee is None or callee.type not in ("identifier", "member_expression") or len(arguments) != 1:
        return None
    return callee, arguments[0]


def indirect(callee: Node | None) -> Node | None:
    """`f` of `(0, f)`, how TypeScript's CommonJS output calls an import (`(0, errors_1.isBusy)(e)`)."""
    inner = first_named(callee) if callee is not None and callee.type == "parenthesized_expression" else None
    parts = named(inner) if inner is not None and inner.type == "sequence_expression" else []
    return parts[1] if len(parts) == 2 and parts[0].type == "number" else callee


def _in_list(call: Node, caught: Caught) -> BranchTest | None:
    """`["ENOENT", "EACCES"].includes(e.code)`: `in`, the array's literals (two or more, all literals)."""
    callee = call.child_by_field_name("function")
    arguments = named(call.child_by_field_name("arguments"))
    if callee is None or callee.type != "member_expression" or len(arguments) != 1:
        return None
    method, array = callee.child_by_field_name("property"), callee.child_by_field_name("object")
    array = without_parentheses(array) if array is not None else None
    if method is None or text(method) != "includes" or array is None or array.type != "array":
        return None
    values = literals(named(array))
    path = field_of(arguments[0], caught) if values is not None else None
    return BranchTest(path[1], "in", values) if path is not None else None


def literals(nodes: list[Node]) -> tuple[str | int | float | bool | None, ...] | None:
    """The values of two or more literals (`literal_value`), in order; None when any is not one."""
    out = []
    for node in nodes:
        ok, value = literal_value(without_parentheses(node))
        if not ok:
            return None
        out.append(value)
    return tuple(out) if len(out) >= 2 else None


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


def _predicate(call: Node, caught: Caught) -> BranchTest | None:
    """`isNotFound(e)`, `or(e)`, `codes.has(e.code)`: a call given the caught value, or a field of
    it, as its one argument decides; `value` is the callee as written. A call given more (which
    the test would not show), or of a computed callee, does not split."""
    helper = helper_call(call, caught)
    if helper is not None:
        return BranchTest(helper[1], "predicate", helper[0])
    # `isRetryable(code(e))`: a predicate of what a helper returns, `through` that helper
    parts = _one_argument_call(call)
    inner = helper_call(without_parentheses(parts[1]), caught) if parts is not None else None
    return BranchTest(inner[1], "predicate", short(parts[0]), inner[0]) if parts is not None and inner else None


def _case_statements(cases: list[Node]) -> tuple[list[Node], bool]:
    """A switch case's statements, through the cases it falls into, without the `break` that ends
    them; True when they leave (return, throw, continue) rather than reach what follows the switch."""
    statements: list[Node] = []
    for case in cases:
        body = [n for n in named(case) if not same(n, case.child_by_field_name("value"))]
        statements.extend(body)
        if body and body[-1].type == "break_statement":
            return statements[:-1], False
        # an `if` or `try` whose arms return, throw or continue leaves; one whose arm breaks out of the
        # switch is not read so (the case is taken to fall through)
        if body and ends(body, _CASE_LEAVING):
            return statements, True
    return statements, False
