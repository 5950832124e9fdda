"""Small readings of a node's shape that a handler's finding, branches and dispositions share."""

from __future__ import annotations

import bisect
from collections.abc import Callable, Iterable, Sequence
from typing import TypeVar

from tree_sitter import Node

from analyzer.javascript.syntax import CLASS_TYPES, FUNCTION_TYPES, same, symbols_of, text, without_parentheses

_T = TypeVar("_T")
#: nodes a handler's walk does not enter: their own scopes and handlers
BOUNDARIES = FUNCTION_TYPES | CLASS_TYPES | {"class_static_block", "catch_clause"}
#: the longest callee or class text a record keeps
TEXT_LIMIT = 200
#: built-in classes, by name, whose instances are no errors: `return new Promise(...)` returns a value,
#: as `return new Response("Bad Request", {status: 400})` and `new stream.PassThrough()` do
NOT_ERRORS = frozenset({b"Promise", b"Date", b"Map", b"Set", b"WeakMap", b"WeakSet", b"Array", b"Object", b"RegExp",
                        b"URL", b"URLSearchParams", b"ArrayBuffer", b"Uint8Array", b"Proxy", b"Response", b"Request",
                        b"Headers", b"PassThrough", b"Readable", b"Writable", b"Duplex", b"Transform"})
#: nodes of an argument searched for the caught value (a message, an object, a small callback)
MENTION_NODES = 4096
#: what reads a name: `e`, and `{e}` (a shorthand property passes the value on)
_IDENTIFIER_SYMBOLS = symbols_of(frozenset({"identifier", "shorthand_property_identifier"}))
_CATCH_SYMBOLS = symbols_of(frozenset({"catch_clause"}))
_COMMENT_SYMBOLS = symbols_of(frozenset({"comment"}))


def makes_no_error(constructor: Node | None) -> bool:
    """A built-in class of no error (`NOT_ERRORS`), by its name or as a module's member
    (`new stream.PassThrough()`, @google-cloud/spanner's; `new this.Promise(...)`), in parentheses
    too (terser's `new (r().URL)(...)` of esbuild's `new (r()).URL(...)`)."""
    constructor = without_parentheses(constructor) if constructor is not None else None
    name = constructor.child_by_field_name("property") if constructor is not None \
        and constructor.type == "member_expression" else constructor
    return name is not None and name.text in NOT_ERRORS


#: methods that keep an argument in the collection they are called on, by its place: `list.push(e)`,
#: `list.unshift(e)`, `set.add(e)`, `map.set(key, e)` (the error callsites' `stored` fate, flow.py's)
_KEEPING = {b"push": 0, b"unshift": 0, b"add": 0, b"set": 1}


def kept_argument(method: Node | None, arguments: list[Node]) -> Node | None:
    """The argument a collection's method keeps (`push`, `unshift`, `add`; `set`'s value), else None."""
    at = _KEEPING.get(method.text or b"") if method is not None else None
    return without_parentheses(arguments[at]) if at is not None and at < len(arguments) else None


def is_object_assign(call: Node) -> bool:
    callee = call.child_by_field_name("function") if call.type == "call_expression" else None
    return callee is not None and callee.type == "member_expression" and callee.text == b"Object.assign"


def thrown_value(throw: Node) -> Node | None:
    """What a throw statement throws, past parentheses and a sequence's earlier members."""
    value = first_named(throw)
    while value is not None:
        value = without_parentheses(value)
        if value.type != "sequence_expression":
            return value
        value = last_named(value)
    return None


def throws_name(nodes: Iterable[Node], name: object, key: Callable[[Node], object]) -> bool:
    """Whether one of `nodes` is a `throw` of the binding `name` (`key` tells an identifier's)."""
    return any(node.type == "throw_statement" and (value := thrown_value(node)) is not None
               and value.type == "identifier" and key(value) == name for node in nodes)


def keeps_as_field(literal: Node, names: set[bytes], key: bytes | None = None,
                   refers: Callable[[Node], bool] | None = None) -> bool:
    """An object literal with one of `names` as the value of a field (the field `key` when given)
    that a later field of the same static key does not override (`{cause: e}`, `{e}`; not `{cause:
    e, cause: null}`); `refers`, when given, tells whether a value of one of those names is the
    binding meant (a handler's body may declare the name again)."""
    if literal.type != "object":
        return False
    members = named(literal)
    later: set[bytes] = set()
    for member in reversed(members):
        written = _static_key(member)
        value = member.child_by_field_name("value") if member.type == "pair" else member
        if value is not None and member.type in ("pair", "shorthand_property_identifier") \
                and value.text in names and (written is None or written not in later) \
                and (key is None or written == key) and (refers is None or refers(value)):
            return True
        if written is not None:
            later.add(written)
    return False


def _static_key(member: Node) -> bytes | None:
    """The key a member of an object literal sets, when it is written out (`a`, `"a"`, `["a"]`)."""
    if member.type == "shorthand_property_identifier":
        return member.text
    key = member.child_by_field_name("key") if member.type in ("pair", "method_definition") else None
    if key is not None and key.type == "computed_property_name":
        key = first_named(key)
    if key is None:
        return None
    if key.type in ("property_identifier", "number"):
        return key.text
    if key.type == "string":
        fragments = named(key)
        return b"".join(f.text or b"" for f in fragments) if all(f.type == "string_fragment" for f in fragments) \
            else None
    return None


def operator_of(node: Node) -> str | None:
    operator = node.child_by_field_name("operator")
    return operator.type if operator is not None else None


def mentions(node: Node, names: set[bytes], refers: Callable[[Node], bool] | None = None) -> bool:
    """Whether one of `names` is read in `node` (`queueMicrotask(() => cb(e))` passes it on),
    within its first MENTION_NODES nodes and outside nested catch clauses (their own handlers):
    nested handlers would otherwise each walk all the ones inside them. `refers`, when given,
    tells whether an identifier of one of those names is the binding meant (`(e) => f(e)`
    declares its own `e`)."""
    if not names:
        return False
    stack = [node]
    pop, extend = stack.pop, stack.extend
    for _ in range(MENTION_NODES):
        if not stack:
            break
        current = pop()
        symbol = current.kind_id  # an int: no string made for each node
        if symbol in _IDENTIFIER_SYMBOLS:
            if current.text in names and (refers is None or refers(current)):
                return True
        elif symbol not in _CATCH_SYMBOLS:
            extend(current.named_children)
    return False


def named(node: Node | None) -> list[Node]:
    return [c for c in node.named_children if c.kind_id not in _COMMENT_SYMBOLS] if node is not None else []


def first_named(node: Node | None) -> Node | None:
    """The first named child that is no comment, found without listing the children (a
    statement list of the whole bundle may be asked)."""
    if node is None:
        return None
    for at in range(node.named_child_count):
        child = node.named_child(at)
        if child is not None and child.kind_id not in _COMMENT_SYMBOLS:
            return child
    return None


def last_named(node: Node | None) -> Node | None:
    """The last named child that is no comment (`first_named` from the end)."""
    if node is None:
        return None
    for at in range(node.named_child_count - 1, -1, -1):
        child = node.named_child(at)
        if child is not None and child.kind_id not in _COMMENT_SYMBOLS:
            return child
    return None


def short(node: Node) -> str:
    written = text(node)
    return written if len(written) <= TEXT_LIMIT else written[:TEXT_LIMIT] + "…"


def handler_parameter(node: Node, form: str) -> Node | None:
    """The parameter of a catch clause, or the first of a handler function (`e => ...`)."""
    if form == "catch":
        return node.child_by_field_name("parameter")
    if node.type not in ("function_expression", "arrow_function"):
        return None
    parameter = node.child_by_field_name("parameter")  # `e => ...`
    if parameter is None:
        parameters = node.child_by_field_name("parameters")
        first = [p for p in parameters.named_children if p.type != "comment"][:1] if parameters else []
        parameter = first[0] if first else None
    return parameter


def parameter_names(function: Node) -> list[bytes]:
    """A function's parameter names by position; b"" for a destructured or defaulted one."""
    single = function.child_by_field_name("parameter")
    if single is not None:
        return [single.text or b""]
    parameters = function.child_by_field_name("parameters")
    return [p.text or b"" if p.type == "identifier" else b"" for p in named(parameters)]


#: functions above a handler's kept ancestors kept for `reject` (`functions_beyond`), each with
#: the ancestors an executor's call reads: parentheses, the arguments, the `new Promise`
_FUNCTIONS_BEYOND = 64
_EXECUTOR_DEPTH = 8
_FUNCTION_SYMBOLS = symbols_of(FUNCTION_TYPES)
_PARENTHESES_SYMBOLS = symbols_of(frozenset({"parenthesized_expression"}))
_ARGUMENTS_SYMBOLS = symbols_of(frozenset({"arguments"}))
_NEW_SYMBOLS = symbols_of(frozenset({"new_expression"}))


def functions_beyond(chain: Sequence[Node], kept: int) -> tuple[tuple[Node, ...], ...]:
    """The functions of `chain` (ancestors, innermost first) whose ancestors an executor's call
    reads go past its first `kept`, each with those ancestors (`is_promise_reject`'s `beyond`);
    none when no `new Promise` executor is among them (then none can make a `reject`)."""
    out = []
    executor = False
    for at in range(max(0, kept - _EXECUTOR_DEPTH), len(chain)):
        if chain[at].kind_id in _FUNCTION_SYMBOLS:
            part = tuple(chain[at:at + _EXECUTOR_DEPTH])
            out.append(part)
            executor = executor or _executor(part)
            if len(out) == _FUNCTIONS_BEYOND:
                break
    return tuple(out) if executor else ()


def _executor(part: Sequence[Node]) -> bool:
    """Whether `part[0]`, a function, is the first argument of `new Promise(...)` (`part`: it and
    its ancestors)."""
    above = 1
    while above < len(part) and part[above].kind_id in _PARENTHESES_SYMBOLS:
        above += 1
    return above + 1 < len(part) and part[above].kind_id in _ARGUMENTS_SYMBOLS \
        and part[above + 1].kind_id in _NEW_SYMBOLS \
        and makes_promise(part[above + 1].child_by_field_name("constructor"))


def makes_promise(constructor: Node | None) -> bool:
    """Whether `new C(...)` makes a promise: `Promise`, a class held as a property named Promise
    (`new this.Promise(...)`), or TypeScript's `__awaiter` choice `new (P || (P = Promise))(...)`."""
    if constructor is None:
        return False
    if constructor.kind_id in _PARENTHESES_SYMBOLS:
        either = without_parentheses(constructor)
        left, right = either.child_by_field_name("left"), either.child_by_field_name("right")
        if left is None or right is None or operator_of(either) != "||" or left.type != "identifier":
            return False
        right = without_parentheses(right)
        target = right.child_by_field_name("left") if right.type == "assignment_expression" else None
        value = right.child_by_field_name("right")
        return target is not None and target.text == left.text and value is not None and value.text == b"Promise"
    if constructor.type == "member_expression":
        constructor = constructor.child_by_field_name("property")
    return constructor is not None and constructor.text == b"Promise"


def is_promise_reject_call(written: bytes) -> bool:
    """`Promise.reject`, or the `reject` of a promise class held as a property (`this.Promise.reject`)."""
    return written == b"Promise.reject" or written.endswith(b".Promise.reject")


def is_promise_reject(name: bytes, chain: Sequence[Node], beyond: Iterable[Sequence[Node]] = (),
                      names_of: Callable[[Node], list[bytes]] = parameter_names) -> bool:
    """Whether `name` is the second parameter of the nearest function of `chain` (ancestors,
    innermost first) that declares it, and that function is the executor of `new Promise(...)`
    (terser writes `new Promise(((resolve, reject) => ...))`) or of another promise class
    (`makes_promise`). `beyond`: the functions further up, each with its next ancestors, when
    `chain` stops short of the root. `names_of`: a function's parameter names."""
    for part in (chain, *beyond):
        for at, node in enumerate(part):
            if node.type not in FUNCTION_TYPES:
                continue
            names = names_of(node)
            if name not in names:
                continue
            if names.index(name) != 1:
                return False
            above = at + 1
            while above < len(part) and part[above].type == "parenthesized_expression":
                above += 1
            if above + 1 >= len(part):
                break  # its ancestors go on past `part`: `beyond` holds it with them
            holder, made = part[above], part[above + 1]
            constructor = made.child_by_field_name("constructor") if made.type == "new_expression" else None
            if holder.type != "arguments" or not makes_promise(constructor):
                return False
            first = first_named(holder)
            return first is not None and same(without_parentheses(first), node)
    return False


class RejectNames:
    """`is_promise_reject` asked once per name: a handler's calls are all in its own scope (nested
    functions are not read), so a name is the executor's `reject` at every call or at none."""

    def __init__(self, chain: Sequence[Node], beyond: Iterable[Sequence[Node]]) -> None:
        self._chain = chain
        self._beyond = beyond
        self._known: dict[bytes, bool] = {}
        self._parameters: dict[int, list[bytes]] = {}  # each function's, read once for every name asked

    def _names_of(self, function: Node) -> list[bytes]:
        names = self._parameters.get(function.id)
        if names is None:
            names = self._parameters[function.id] = parameter_names(function)
        return names

    def __call__(self, callee: Node) -> bool:
        if callee.type != "identifier":
            return False
        name = callee.text or b""
        known = self._known.get(name)
        if known is None:
            known = self._known[name] = is_promise_reject(name, self._chain, self._beyond, self._names_of)
        return known


def either(value: Node) -> bool:
    """`a || b`, `a && b` or `a ?? b`: its value is one operand or the other."""
    if value.type != "binary_expression":
        return False
    operator = value.child_by_field_name("operator")
    return operator is not None and operator.type in ("||", "&&", "??")


def console_arms(callee: Node) -> bool:
    """A callee whose every value is a `console.<method>`: `(c ? console.error : console.warn)`, an operand of `||`,
    `&&`, `??` too (docs/reference.md, "Dispositions", `log`)."""
    return all(each_value(callee, lambda node: [_console_method(node)], without_parentheses))


def _console_method(node: Node | None) -> bool:
    if node is None or node.type != "member_expression":
        return False
    owner = node.child_by_field_name("object")
    return owner is not None and owner.text == b"console" and node.child_by_field_name("property") is not None


def each_value(value: Node | None, leaf: Callable[[Node | None], list[_T]], strip: Callable[[Node], Node],
               early: Callable[[Node | None], list[_T] | None] | None = None,
               held: Callable[[Node], list[Node | tuple[_T, ...]] | None] | None = None) -> list[_T]:
    """What `leaf` says of each value an expression can have, in source order: a `?:`'s arms and an
    `||`, `&&` or `??`'s operands spread iteratively (a minified chain may be thousands long).
    `strip` takes a node to the value it gives (its parentheses, a sequence's last member); `early`
    answers for a node before it is stripped, when it can (None: it cannot); `held` gives what a
    name may hold there, each a value to read in turn or what is said of it (a local assigned
    from another: each assignment lies before the read, so the chain ends)."""
    out: list[_T] = []
    stack: list[Node | tuple[_T, ...] | None] = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, tuple):
            out += node
            continue
        found = early(node) if early is not None else None
        if found is not None:
            out += found
        elif node is None:
            out += leaf(None)
        elif (node := strip(node)).type == "ternary_expression":
            stack += [node.child_by_field_name("alternative"), node.child_by_field_name("consequence")]
        elif either(node):
            stack += [node.child_by_field_name("right"), node.child_by_field_name("left")]
        elif held is not None and (values := held(node)) is not None:
            stack += reversed(values)
        else:
            out += leaf(node)
    return out


#: nodes a branch's walk reads one by one: fewer than bisection pays for
_FEW = 64


def nodes_inside(nodes: list[Node], starts_of: Callable[[], list[int]], parts: Sequence[Node]) -> list[Node]:
    """The nodes (sorted by start; `starts_of` gives their starts) that lie in `parts`, in order: each
    in the last part that starts at or before it, when that part holds it. Parts in order and apart
    are read by bisection (a branch of a long `else if` chain holds few of the body's nodes)."""
    ranges = [(n.start_byte, n.end_byte) for n in parts]
    firsts = [r[0] for r in ranges]
    if len(nodes) > _FEW and all(ranges[at][1] <= firsts[at + 1] for at in range(len(ranges) - 1)):
        starts = starts_of()
        found = sorted({at for start, end in ranges
                        for at in range(bisect.bisect_left(starts, start), bisect.bisect_right(starts, end))
                        if nodes[at].end_byte <= end})
        return [nodes[at] for at in found]
    out = []
    for node in nodes:
        at = bisect.bisect_right(firsts, node.start_byte) - 1
        if at >= 0 and node.end_byte <= ranges[at][1]:
            out.append(node)
    return out


#: statements after which control never runs on
_LEAVES = frozenset({"throw_statement", "return_statement", "break_statement", "continue_statement"})


def ends(statements: list[Node], leaving: frozenset[str] = _LEAVES) -> bool:
    """Whether control never runs past the statements: their last one leaves (is of a type of
    `leaving`), or is an `if` whose two arms end, or a `try` whose block and `catch` end
    (google-gax's `try { await resume(); return } catch (e2) { fail(e2); return }`); blocks in
    blocks read iteratively. A `finally` that leaves is not read: such a `try` is taken to run past
    (what follows is read as reached)."""
    pending = [statements]
    while pending:
        current = pending.pop()
        while current and current[-1].type == "statement_block":
            current = named(current[-1])
        if not current:
            return False
        last = current[-1]
        if last.type in leaving:
            continue
        if last.type == "if_statement":
            consequence, alternative = last.child_by_field_name("consequence"), last.child_by_field_name("alternative")
            if consequence is None or alternative is None:
                return False
            pending += [[consequence], named(alternative)[:1]]
            continue
        if last.type != "try_statement":
            return False
        block, handler = last.child_by_field_name("body"), last.child_by_field_name("handler")
        body = handler.child_by_field_name("body") if handler is not None else None
        if block is None or (handler is not None and body is None):
            return False
        pending += [[block]] + ([[body]] if body is not None else [])
    return True


def field_owner(left: Node) -> Node | None:
    """The object whose field, at any depth, an assignment's left side is: `n` of `n.cause`,
    `n.errors[k]` (mongoose's `validationError.errors[err.path] = err`) and `n["x"]`; `None` for a
    name."""
    owner = None
    while left.type in ("member_expression", "subscript_expression"):
        inner = left.child_by_field_name("object")
        if inner is None:
            return None
        owner = left = without_parentheses(inner)
    return owner
