"""What a helper tests (docs/reference.md, "What a helper tests"): a branch's test made through a
call, `isNotFound(e)` or `code(e) === "ENOENT"`, stated on the caught value itself when the
callee resolves by scope to a top-level function whose body is one of the read forms. Read after
the merge from the unit's items and bytes, with no tree of the unit: a helper's bytes are parsed
alone, so a unit read whole and one read in slices read the same."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from tree_sitter import Node, Parser

from analyzer.facts import HandlerFacts
from analyzer.handler_model import BranchTest, ReadTest
from analyzer.javascript.handlers.branches import NEGATED, helper_call, tests_of
from analyzer.javascript.handlers.constants import NAME as _NAME
from analyzer.javascript.handlers.constants import constant_members
from analyzer.javascript.handlers.guards import (
    conjuncts,
    field_of,
    guard_atom,
    implied,
    nothing,
    type_of,
)
from analyzer.javascript.handlers.shapes import named
from analyzer.javascript.handlers.sources import declared_once, top_level_at
from analyzer.javascript.syntax import new_parser, without_parentheses

#: helpers read through helpers (`or(e)` returns `vt(e) === "ENOENT"`, `vt` reads `code`)
MAX_DEPTH = 3
#: a helper's item longer than this is not read
MAX_BYTES = 2048
_PREDICATES = frozenset({"predicate", "!predicate"})
#: the comparisons an accessor's result can be read through: its `undefined` when a guard fails
#: equals no string or number, so `===`, `!==`, `in` and `!in` of them say the same of the field
_STRICT = frozenset({"===", "!==", "in", "!in"})
_WRITES = frozenset({"assignment_expression", "augmented_assignment_expression", "update_expression"})

Row = tuple[int, int, object, tuple[tuple[int, bytes], ...]]


@dataclass(frozen=True, slots=True)
class _Accessor:
    """A helper that returns a field of its parameter (or undefined when its guards fail)."""

    field: str
    #: the type a guard asks the field to have (`typeof e.code === "string"`), None: no such guard
    typeof: str | None


def with_reads(handlers: list[HandlerFacts], source: bytes, raw: Sequence[Row],
               shadowed: frozenset[tuple[int, bytes]]) -> list[HandlerFacts]:
    """The handlers, each test through a helper given what the helper tests (`BranchTest.reads`)."""
    helpers: _Helpers | None = None
    out = []
    for handler in handlers:
        branches, changed = list(handler.branches), False
        for at, branch in enumerate(branches):
            test = branch.test
            if test is None or not any(t.through is not None or t.op in _PREDICATES for t in (test, *test.also)):
                continue
            helpers = helpers or _Helpers(source, raw, shadowed)
            read = helpers.read_all(test, handler.offset)
            if read != test:
                branches[at], changed = replace(branch, test=read), True
        out.append(replace(handler, branches=tuple(branches)) if changed else handler)
    return out


class _Helpers:
    """The unit's top-level functions a test calls, each read once."""

    def __init__(self, source: bytes, raw: Sequence[Row], shadowed: frozenset[tuple[int, bytes]]) -> None:
        self.source, self.raw, self.shadowed = source, raw, shadowed
        self.starts = [item[0] for item in raw]
        self.once = declared_once(raw)
        self._read: dict[tuple[int, int], ReadTest | _Accessor | None] = {}
        self._functions: dict[int, tuple[bytes, list[Node], Node | None] | None] = {}
        self._constants: dict[int, tuple[str | int | float | bool | None, ...] | None] = {}
        self._parser: Parser | None = None

    def read_all(self, test: BranchTest, at: int) -> BranchTest:
        """`test` and each test of its `also`, those through a helper given what it reads."""
        def read(one: BranchTest) -> BranchTest:
            if one.through is None and one.op not in _PREDICATES:
                return one
            reads = self.read(one, at, 0)
            return replace(one, reads=reads) if reads is not None else one
        return replace(read(test), also=tuple(read(t) for t in test.also))

    def read(self, test: BranchTest, at: int, depth: int) -> ReadTest | None:
        """What `test`, made at `at`, tests through its helper, on the value the test gives it."""
        if depth >= MAX_DEPTH:
            return None
        if test.op not in _PREDICATES:  # `vt(e) === "EISDIR"`
            accessor = self._called(test.through, at, depth)
            kind = type_of(test.value)
            if not isinstance(accessor, _Accessor) or test.op not in _STRICT or kind is None \
                    or (accessor.typeof is not None and accessor.typeof != kind):
                return None
            return ReadTest(_joined(test.field, accessor.field), test.op, test.value)
        found = self._called(test.value, at, depth)
        if isinstance(found, _Accessor):  # `if (code(e))`: the field is truthy, when no guard asks its type
            found = ReadTest(found.field, "truthy", None) if found.typeof is None else None
        if found is not None and test.through is not None:  # `isRetryable(vt(e))`: of the accessor's field
            accessor = self._called(test.through, at, depth)
            kind = type_of(found.value)
            if not isinstance(accessor, _Accessor) or found.field is not None or found.op not in ("===", "in") \
                    or kind is None or (accessor.typeof is not None and accessor.typeof != kind):
                return None
            found = ReadTest(accessor.field, found.op, found.value)
        if found is None:
            return None
        op = found.op if test.op == "predicate" else NEGATED.get(found.op, "truthy" if found.op == "falsy" else None)
        return ReadTest(_joined(test.field, found.field), op, found.value) if op is not None else None

    def _called(self, callee: object, at: int, depth: int) -> ReadTest | _Accessor | None:
        """What a callee written at `at` says of its one argument: a helper's summary, or for
        `CODES.has` / `CODES.includes` membership in the literals a constant holds."""
        if not isinstance(callee, str):
            return None
        base, _, method = callee.rpartition(".")
        if base and method in ("has", "includes"):
            position = self._resolve(base, at)
            values = self._members(position, b"has" if method == "has" else b"includes") \
                if position is not None else None
            return ReadTest(None, "in", values) if values is not None else None
        position = self._resolve(callee, at)
        return self._summary(position, depth) if position is not None else None

    def _members(self, position: int, method: bytes) -> tuple[str | int | float | bool | None, ...] | None:
        if position not in self._constants:
            declared = self.raw[position][3][0]
            self._constants[position] = constant_members(self.source, declared[1], declared[0], method)
        return self._constants[position]

    def _resolve(self, callee: str, at: int) -> int | None:
        """The item position of the top-level function `callee` names at `at`: declared once, by an
        item declaring nothing else, and no local of its name in the item `at` lies in."""
        name = callee.encode()
        if not name or not _NAME.issuperset(name) or name[0] in b"0123456789":
            return None
        position = self.once.get(name)
        return position if position is not None and top_level_at(self.starts, self.raw, self.shadowed, name, at) \
            else None

    def _summary(self, position: int, depth: int) -> ReadTest | _Accessor | None:
        """What the helper at `position` says of its parameter, its own helpers read `depth` + 1
        deep (so a helper met deep first reads the same at the top later)."""
        key = (position, depth)
        if key in self._read:
            return self._read[key]
        self._read[key] = None  # a helper that calls itself reads nothing (`MAX_DEPTH` ends it)
        if position not in self._functions:
            self._functions[position] = self._function(position)
        function, found = self._functions[position], None
        if function is not None:
            param, statements, expression = function
            found = _body_reads(statements, expression, param,
                                lambda test: self.read(test, self.raw[position][0], depth + 1))
        self._read[key] = found
        return found

    def _function(self, position: int) -> tuple[bytes, list[Node], Node | None] | None:
        """(parameter, body statements, an arrow's expression body) of a plain function of one named
        parameter, the item parsed alone: `function f(e) {...}`, or `const f = function (e) {...}` /
        `(e) => ...`. Its body holds no function (whose parameter could hide this one's)."""
        start, end = self.raw[position][0], self.raw[position][1]
        data = self.source[start:end]
        if end - start > MAX_BYTES or not (data.startswith(b"function") or self._const(start)):
            return None
        self._parser = self._parser or new_parser()
        root = self._parser.parse(data).root_node
        if root.has_error or root.named_child_count != 1:
            return None
        node = root.named_children[0]
        if node.type == "expression_statement":  # a declarator, `f=(e)=>...`
            node = named(node)[0] if node.named_child_count == 1 else node
            if node.type != "assignment_expression" or (value := node.child_by_field_name("right")) is None:
                return None
            node = without_parentheses(value)
        if node.type not in ("function_declaration", "function_expression", "arrow_function"):
            return None
        first, param, body = node.child(0), _one_parameter(node), node.child_by_field_name("body")
        if param is None or body is None or (first is not None and first.type == "async") or b"*" in _head(node):
            return None
        inner = body.text or b""
        if b"function" in inner or b"=>" in inner:
            return None
        if body.type == "statement_block":
            return param, named(body), None
        return param, [], body

    def _const(self, start: int) -> bool:
        """Whether the declarator at `start` is the first of a `const` declaration."""
        at = start
        while at > 0 and self.source[at - 1] in b" \t\r\n":
            at -= 1
        return self.source[max(0, at - 5):at] == b"const" and (at < 6 or self.source[at - 6] not in _NAME)


def _head(function: Node) -> bytes:
    """A function's bytes before its parameters (`function*` says a generator)."""
    parameters = function.child_by_field_name("parameters") or function.child_by_field_name("parameter")
    return (function.text or b"")[:parameters.start_byte - function.start_byte] if parameters is not None else b""


def _one_parameter(function: Node) -> bytes | None:
    single = function.child_by_field_name("parameter")  # `e => ...`
    if single is not None:
        return single.text if single.type == "identifier" else None
    parameters = named(function.child_by_field_name("parameters"))
    return parameters[0].text if len(parameters) == 1 and parameters[0].type == "identifier" else None


def _body_reads(statements: list[Node], expression: Node | None, param: bytes,
                through: Callable[[BranchTest], ReadTest | None]) -> ReadTest | _Accessor | None:
    """What a helper's body (its statements, or an arrow's `expression`) says of its parameter:
    `return <a test of it>` (a `ReadTest`; a test through another helper read through it), or a
    field of it returned alone or when guards that the field's having a value implies hold (`if
    (e && typeof e === "object" && "code" in e) return e.code; return`, `return e ? e.code : void
    0`): an `_Accessor`."""
    statements = [s for s in statements if s.type != "empty_statement"]
    value: Node | None = expression
    local = _local(statements[0]) if len(statements) == 2 and statements[1].type == "return_statement" else None
    if local is not None:  # `let t = vt(e); return t === "ENOENT" || t === "ENOTDIR"`
        returned = _returned(statements[1])
        return _local_test(returned, local, param, through) if returned is not None else None
    if expression is None and len(statements) == 1 and statements[0].type == "return_statement":
        value = _returned(statements[0])
    elif expression is None and statements and len(statements) <= 2 and statements[0].type == "if_statement" \
            and (len(statements) == 1 or _returns_nothing(statements[1])):  # minifiers drop the `return;`
        condition = statements[0].child_by_field_name("condition")
        then = statements[0].child_by_field_name("consequence")
        if statements[0].child_by_field_name("alternative") is not None or condition is None or then is None:
            return None
        consequence = named(then) if then.type == "statement_block" else [then]
        if len(consequence) != 1 or consequence[0].type != "return_statement":
            return None
        returned = _returned(consequence[0])
        return _accessor(returned, condition, param) if returned is not None else None
    elif expression is None:  # any other body
        return None
    if value is None:
        return None
    value = without_parentheses(value)
    if value.type == "ternary_expression":
        condition, chosen, other = (value.child_by_field_name(f) for f in ("condition", "consequence", "alternative"))
        if condition is None or chosen is None or other is None or not nothing(other):
            return None
        return _accessor(chosen, condition, param)
    accessor = _accessor(value, None, param)
    if accessor is not None:
        return accessor
    found = _test(value, _caught(param))
    if found is None:
        return None
    read = _read_tests(found[0], through)
    return _guarded(read, found[1], param) if read is not None else None


def _read_tests(tests: list[BranchTest], through: Callable[[BranchTest], ReadTest | None]) -> ReadTest | None:
    """What a `||` of tests reads: one test, `in` the literals of `===` and `in` tests of one field
    (`e === "EISDIR" || CODES.has(e)`, a helper's read), else None."""
    reads = [through(t) if t.through is not None or t.op in _PREDICATES else ReadTest(t.field, t.op, t.value)
             for t in tests]
    if len(reads) == 1 or any(r is None for r in reads):
        return reads[0] if len(reads) == 1 else None
    values: list[str | int | float | bool | None] = []
    for read in reads:
        assert read is not None
        if read.op not in ("===", "in") or read.field != reads[0].field:  # type: ignore[union-attr]
            return None
        values += read.value if isinstance(read.value, tuple) else [read.value]
    distinct = tuple(dict.fromkeys(values))
    return ReadTest(reads[0].field, "in" if len(distinct) > 1 else "===",  # type: ignore[union-attr]
                    distinct if len(distinct) > 1 else distinct[0])


def _local(statement: Node) -> tuple[bytes, Node] | None:
    """(name, value) of a declaration of one local (`let t = vt(e)`)."""
    if statement.type not in ("lexical_declaration", "variable_declaration"):
        return None
    declarators = named(statement)
    if len(declarators) != 1 or declarators[0].type != "variable_declarator":
        return None
    name, value = declarators[0].child_by_field_name("name"), declarators[0].child_by_field_name("value")
    if name is None or name.type != "identifier" or value is None or not name.text:
        return None
    return name.text, without_parentheses(value)


def _local_test(returned: Node, local: tuple[bytes, Node], param: bytes,
                through: Callable[[BranchTest], ReadTest | None]) -> ReadTest | None:
    """The test returned of a local holding a field of the parameter (`let t = e.code`) or what a
    helper gives for it (`let t = vt(e)`), written nowhere else."""
    name, held = local
    if name == param or _writes(returned):
        return None
    caught = _caught(param)
    path = field_of(held, caught)
    if path is not None:  # the local is that field
        field: str | bool = path[1] or True
        found = _test(returned, lambda node: field if node.text == name else node.text == param)
        return _read_tests(found[0], through) if found is not None and not found[1] else None
    helper = helper_call(held, caught)
    found = _test(returned, _caught(name)) if helper is not None else None
    if helper is None or found is None or found[1] \
            or any(t.field is not None or t.through is not None for t in found[0]):
        return None
    # each test of the local is one of what the helper returns: through it
    return _read_tests([replace(t, field=helper[1], through=helper[0]) for t in found[0]], through)


def _test(value: Node, caught: Callable[[Node], bool | str]) -> tuple[list[BranchTest], list[Node]] | None:
    """The tests `value` makes, a test form of a handler's (`branches.test_of`) or a `||` of them
    (`===` tests of one value with literals made one `in`), and the guards before them (`e != null
    && typeof e === "object" && "code" in e && e.code === "E"`: `_guarded` checks them)."""
    *guards, last = conjuncts(value)
    tests = tests_of(last, caught)
    if tests is None or any(t.also for t in tests):  # a conjunction is no one test to state on the value
        return None
    combined = _in(tests) if len(tests) > 1 else None
    return ([combined] if combined is not None else tests), guards


def _guarded(read: ReadTest, guards: list[Node], param: bytes) -> ReadTest | None:
    """`read` when every guard is one that its holding implies, else None."""
    return read if implied(read, guards, _caught(param)) else None


def _in(tests: list[BranchTest]) -> BranchTest | None:
    """`t === "A" || t === "B"`: `in`, when every test is `===` of the same value with a literal."""
    first = tests[0]
    if any(t.op != "===" or t.field != first.field or t.through != first.through or isinstance(t.value, tuple)
           for t in tests):
        return None
    values = tuple(dict.fromkeys(t.value for t in tests if not isinstance(t.value, tuple)))
    if len(values) < 2:
        return first
    return BranchTest(first.field, "in", values, first.through)


def _writes(node: Node) -> bool:
    """Whether an expression assigns anything (it is small: a helper's return)."""
    stack = [node]
    while stack:
        current = stack.pop()
        if current.type in _WRITES:
            return True
        stack.extend(current.children)
    return False


def _caught(param: bytes) -> Callable[[Node], bool]:
    """The parameter as the caught value (no function inside the body can hide it)."""
    return lambda node: node.text == param


def _returned(statement: Node) -> Node | None:
    values = named(statement)
    return values[0] if len(values) == 1 else None


def _returns_nothing(statement: Node) -> bool:
    if statement.type != "return_statement":
        return False
    values = named(statement)
    return not values or nothing(values[0])


def _accessor(value: Node, guard: Node | None, param: bytes) -> _Accessor | None:
    """The field `value` reads of the parameter, when every guard atom is one its having a
    value implies: the parameter or a field on the way there truthy or not null, `typeof e ===
    "object"`, `"code" in e`, `typeof e.code === "string"` (the type kept)."""
    path = field_of(value, _caught(param))
    if path is None or path[1] is None:
        return None
    field = path[1]
    typeof: str | None = None
    atoms = conjuncts(guard) if guard is not None else []
    for atom in atoms:
        kind = guard_atom(atom, _caught(param), field)
        if kind is None:
            return None
        if kind != "":
            typeof = kind
    return _Accessor(field, typeof)


def _joined(given: str | None, read: str | None) -> str | None:
    """The field a helper given `given` (None: the caught value) reads as `read`, on the caught value."""
    if given is None or read is None:
        return read if given is None else given
    return f"{given}.{read}"


