"""What each branch of a handler does with the caught value: its dispositions (rethrow, wrap and
what the new error keeps, log, report, reject, callback, retry, exit, store, swallow)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property
from typing import get_args

from tree_sitter import Node

from analyzer.facts import BranchFacts, BranchTest, DispositionFacts
from analyzer.javascript.handlers.branches import split, split_expression
from analyzer.javascript.handlers.causes import CAUSES, NewErrors
from analyzer.javascript.handlers.fallthrough import Fallthrough, undefined_arm
from analyzer.javascript.handlers.fields import Fields, held_fields
from analyzer.javascript.handlers.retry import in_retry_loop, loop_exits
from analyzer.javascript.handlers.shapes import (
    console_arms,
    each_value,
    either,
    field_owner,
    first_named,
    handler_parameter,
    is_object_assign,
    is_promise_reject_call,
    kept_argument,
    last_named,
    named,
    nodes_inside,
    operator_of,
    short,
    thrown_value,
    throws_name,
)
from analyzer.javascript.handlers.sink_calls import SinkCalls
from analyzer.javascript.syntax import FUNCTION_TYPES, symbols_of, text, without_parentheses
from analyzer.model import Disposition, made

#: builtins that read a value without passing it on (`String(e)` is a message, not a callback)
_READERS = frozenset({b"String", b"Number", b"Boolean", b"JSON.stringify", b"Array.isArray"})
_EXITS = frozenset({b"process.exit", b"global.process.exit", b"globalThis.process.exit"})  # end the process
#: statements after which none in the same list runs
_LEAVING = frozenset({"throw_statement", "return_statement", "break_statement", "continue_statement"})
_THROW, _RETURN, _BREAK, _CALL = (symbols_of(frozenset({kind})) for kind in (
    "throw_statement", "return_statement", "break_statement", "call_expression"))
_ASSIGNMENT = symbols_of(frozenset({"assignment_expression", "augmented_assignment_expression"}))
_YIELD = symbols_of(frozenset({"yield_expression"}))
#: `x ||= e`, `x ??= e`, `x &&= e`: the value is assigned on one path only
_LOGICAL_ASSIGNMENT = frozenset({"||=", "??=", "&&="})
#: the records a branch makes, by `model.made` (its fields in order, a third of a frozen `__init__`'s cost)
_branch, _disposition = made(BranchFacts), made(DispositionFacts)
_RETRY = DispositionFacts("retry", None, (), None)
_STORE = DispositionFacts("store", None, (), None)
_RETURN_ERROR = DispositionFacts("return-error", None, (), None)
_SWALLOW = DispositionFacts("swallow", None, (), None)
_ORDER: dict[str, int] = {kind: at for at, kind in enumerate(get_args(Disposition))}


class HandlerBody(NewErrors):
    """One handler's body: its branches and their dispositions."""

    #: the statements of the branch being read
    _parts: Sequence[Node] = ()
    #: the locals holding a field of the caught value (`fields.held_fields`), found once a split asks
    _fields: Fields | None = None
    #: where `branches`, with no sink, notes what the calls that may be the sink made (`SinkCalls`)
    recording: SinkCalls | None = None
    #: the walk's nodes and their starts, for `_inside`
    _starts: tuple[list[Node] | None, list[int]] = (None, [])

    def branches(self) -> tuple[BranchFacts, ...]:
        node = self.handler.node
        if self.recording is not None:
            self.recording.lists = []  # one per branch `_dispositions` reads: none for `.catch(f)` or an empty body
        if node.type in ("identifier", "member_expression"):  # `.catch(f)`: f is called with it
            callee = short(node)
            owner = node.child_by_field_name("object")
            kind: Disposition = "callback"
            if self._is_reject(node):
                kind = "reject"
            elif owner is not None and owner.text == b"console":  # `.catch(console.error)` logs it
                kind = "log"
            elif (node.start_byte, node.end_byte) in self.sink:
                kind = "report"
            return (_branch(None, (_disposition(kind, None, (), callee),)),)
        if self.expression is not None:
            arms = split_expression(self.expression, self._tested)
            if arms is not None:
                return tuple(_branch(test, self._dispositions(parts, values)) for test, parts, values in arms)
            return (_branch(None, self._dispositions([self.expression], [(self.expression, "return")])),)
        if not self.statements:  # what `_dispositions` makes of an empty body
            return (_branch(None, (_RETRY if self._in_retry_loop else _SWALLOW,)),)
        return tuple(_branch(test, self._dispositions(parts, values))
                     for test, parts, values in split(_reached(self.statements), self._tested))

    def under_sink(self, calls: SinkCalls, tests: Sequence[BranchTest | None], sink: frozenset[tuple[int, int]]
                   ) -> tuple[BranchFacts, ...]:
        """The branches under `sink`, from what `calls` noted when they were made with none, else read again."""
        lists = calls.under(sink)
        if lists is not None and len(lists) == len(tests):  # else a branch read no list: read them again
            return tuple(_branch(test, _merged(found) or (_SWALLOW,)) for test, found in zip(tests, lists, strict=True))
        self.sink = sink
        try:
            return self.branches()
        finally:
            self.sink = frozenset()

    def _tested(self, node: Node) -> bool | str:
        """What a test reads in an identifier: the caught value (True), the field path a local
        declared before it holds (`const {code} = e`), else nothing (False)."""
        if node.type != "identifier":
            return False
        if self._is_caught(node):
            return True
        if self._fields is None:
            self._fields = held_fields(self.handler.node, self.statements,
                                       handler_parameter(self.handler.node, self.handler.form), self._is_caught,
                                       self.key)
        held = self._fields.get(self.key(node)) if self._fields else None
        return held[0] if held is not None and held[1] <= node.start_byte else False

    @cached_property
    def _in_retry_loop(self) -> bool:
        """A catch clause whose try statement is the body of a `while`, `do` or `for(;;)` loop, or
        a statement of it, and whose protected block leaves the loop when it succeeds (a
        `return`, or a `break` of that loop): the loop runs again only after a failure. A loop
        whose protected block never leaves it walks items (`for (...; i < n; i++) try { f(a[i]) }
        catch {}`): each failure skips an item, it does not retry it."""
        return self.handler.form == "catch" and in_retry_loop(self.handler.chain)

    @cached_property
    def _may_exit_loop(self) -> bool:
        """A catch clause whose bytes hold `break` or `continue` (else no walk looks for them)."""
        text = (self.handler.node.text or b"") if self.handler.form == "catch" else b""
        return b"break" in text or b"continue" in text

    def _dispositions(self, parts: list[Node], values: list[tuple[Node, str]]) -> tuple[DispositionFacts, ...]:
        """What the branch made of `parts` does; `values`: expressions it throws or returns
        (`throw_statement`, `return_statement`) besides its own throw and return statements."""
        self._parts = parts  # where a name read in the branch may have been assigned (`held_values`)
        found: list[DispositionFacts] = []
        deciding: list[Node] = []  # the nodes that are a disposition, in source order
        ending: list[Node] = []  # returns that end a promise handler as reaching its end does
        leaves = False
        for node in self._inside(parts):
            symbol = node.kind_id  # an int: no string made for each node
            if symbol in _THROW:
                leaves = True
                deciding.append(node)  # a construct holding one is taken to decide
                found.extend(self._thrown(thrown_value(node)))
            elif symbol in _RETURN:
                leaves = True
                deciding.append(node)
                value = first_named(node)
                if self._resolves_undefined(value, arms=True):
                    ending.append(node)
                found.extend(self._returned(value))
            elif symbol in _BREAK:
                leaves = True
                deciding.append(node)
            elif symbol in _CALL:
                made = self._called(node)
                if made:
                    found.extend(made)
                    deciding.append(node)
                    if self.recording is not None and self.recording.last is not None \
                            and self.recording.last[1] is made:
                        self.recording.flip(self.recording.last[0], len(found) - 1)
            elif symbol in _YIELD and not _awaits(node):  # read as a `return` of its value that goes on after it
                deciding.append(node)
                found.extend(self._returned(first_named(node)))
            elif symbol in _ASSIGNMENT:
                stored = self._assigned(node)
                if stored is not None:
                    found.append(_STORE)
                    if stored:  # else a path assigns something else: the caught value may be dropped
                        deciding.append(node)
        for value, statement in values:
            leaves = True
            found.extend(self._thrown(value) if statement == "throw_statement" else self._returned(value))
        leaves = leaves or any(d.kind == "exit" for d in found)
        # a catch clause's `break` of the loop around its try drops the caught value, as reaching
        # the end does; a `continue` too, but in a retry loop: then both go on to the next attempt
        breaks, continues = loop_exits(parts) if self._may_exit_loop else ([], [])
        arms = [value for value, _ in values]  # what a split's branch throws or returns decides there
        if not leaves and self._in_retry_loop:
            found.append(_RETRY)
        elif found and self._in_retry_loop:
            if Fallthrough(arms, continues).silent_path(parts):
                found.append(_RETRY)  # a path goes on to the next attempt (having met them or not)
            if breaks and Fallthrough([*deciding, *arms], breaks).ends(parts):
                found.append(_SWALLOW)  # a path meets none of them and leaves the loop
        elif found and Fallthrough([*deciding, *arms], [*ending, *breaks, *continues]).silent_path(parts):
            found.append(_SWALLOW)  # a path that meets none of them
        if self.recording is not None:
            self.recording.lists.append(found)
        return _merged(found) or (_SWALLOW,)

    def _inside(self, parts: list[Node]) -> list[Node]:
        """The nodes the walk kept that lie in `parts` (all of them when `parts` are the body's
        statements, which hold every node the walk keeps)."""
        nodes = self.walked.nodes
        if parts is self.statements or parts == self.statements:
            return nodes
        return nodes_inside(nodes, self._node_starts, parts)

    def _node_starts(self) -> list[int]:
        """The starts of the walk's nodes, made once (`nodes_inside` bisects them)."""
        if self._starts[0] is not self.walked.nodes:
            self._starts = (self.walked.nodes, [n.start_byte for n in self.walked.nodes])
        return self._starts[1]

    def _thrown(self, value: Node | None) -> list[DispositionFacts]:
        return self._sent(value, None)

    def _sent(self, value: Node | None, rejecting: str | None) -> list[DispositionFacts]:
        """A value thrown (`rejecting` None) or rejected through the callee `rejecting`: the
        caught value itself is a `rethrow` or a `reject`, anything else a `wrap`; each value of a
        `?:` or of `throw t || e`, and each a local may hold there, on its own."""
        itself = _disposition("rethrow", None, (), None) if rejecting is None else \
            _disposition("reject", None, (), rejecting)
        return each_value(value, lambda one: self._sent_one(one, itself), _given,
                          held=lambda one: self._held_there(one, itself))

    def _sent_one(self, value: Node | None, itself: DispositionFacts) -> list[DispositionFacts]:
        if value is None:
            return [_disposition("wrap", "lost", (), None)]
        if self._is_caught(value):
            return [itself]
        if is_object_assign(value):
            target = first_named(value.child_by_field_name("arguments"))
            if target is not None and self._is_caught(without_parentheses(target)):
                return [itself]
        return [self._wrap(value)]

    def _held_there(self, value: Node, itself: DispositionFacts) -> list[Node | tuple[DispositionFacts, ...]] | None:
        """The values a local may hold where the branch reads it, the caught value as `itself`."""
        held = self.held_values(value, self._parts) if value.type == "identifier" else None
        return None if held is None else [(itself,) if one is None else one for one in held]

    def _resolves_undefined(self, value: Node | None, arms: bool = False) -> bool:
        """A promise handler function's `return`, `return undefined` or `return void x` (`arms`: or `c ? void 0 : x`):
        its promise resolves with undefined (there), as when the function's end is reached."""
        if self.handler.form == "catch" or self._root is None:
            return False
        value = without_parentheses(value) if value is not None else None
        return value is None or value.type == "undefined" or (
            value.type == "unary_expression" and operator_of(value) == "void") or (arms and undefined_arm(value))

    def _returned(self, value: Node | None) -> list[DispositionFacts]:
        return each_value(value, self._returned_one, _given, lambda one: [] if self._resolves_undefined(one) else None,
                          lambda one: self._held_there(one, _RETURN_ERROR))

    def _returned_one(self, value: Node | None) -> list[DispositionFacts]:
        if value is None:
            return [_disposition("return-value", None, (), None)]
        if self._is_caught(value):
            return [_RETURN_ERROR]
        if self._made(value) or (value.type == "identifier" and self.key(value) in self.walked.made):
            return [self._wrap(value)]
        if value.type == "identifier":  # `const r = f(e); return r` returns the call's value
            value = self.walked.calls.get(self.key(value), value)
        if value.type == "call_expression" and self._called(value):
            return []  # the call is a disposition of its own, counted where the walk meets it
        return [_disposition("return-value", None, (), None)]

    def _called(self, call: Node) -> list[DispositionFacts]:
        entry = self.known.get((call.start_byte, call.end_byte))
        if entry is not None:
            return [_disposition("log", None, (entry[1],), None)] if entry[0] == "diagnostic" else []
        callee = call.child_by_field_name("function")
        if callee is None:
            return []
        if callee.text in _EXITS:
            return [_disposition("exit", None, (), None)]
        if call.id not in self.walked.consumed:  # a call computing a value (`String(e)` in a message)
            return []
        arguments = named(call.child_by_field_name("arguments"))
        first = without_parentheses(arguments[0]) if arguments else None
        if callee.type == "parenthesized_expression" and console_arms(callee):  # a console method chosen: it logs
            return [_disposition("log", None, (), short(callee))]
        if callee.type == "member_expression":
            owner, method = callee.child_by_field_name("object"), callee.child_by_field_name("property")
            if owner is not None and owner.text == b"console" and method is not None:
                return [_disposition("log", None, (), short(callee))]
            if is_promise_reject_call(callee.text or b""):
                return self._rejected(first, short(callee))
            if (kept := kept_argument(method, arguments)) is not None and self._stored(kept):
                return [_STORE]
        elif self._is_reject(callee):  # rejecting with anything but the caught value is a `wrap`
            return self._rejected(first, text(callee))
        written = callee.text or b""
        if written in _READERS or (callee.type == "member_expression" and written.startswith(b"Object.")):
            return []
        span = (callee.start_byte, callee.end_byte)
        if span in self.sink:
            return [_disposition("report", None, (), short(callee))]
        if any(self._mentions(a) for a in arguments):
            made = [_disposition("callback", None, (), short(callee))]
            if self.recording is not None:
                self.recording.last = (span, made)
            return made
        if self.recording is not None:
            self.recording.unsafe.add(span)  # a `report` under a sink where nothing is now
        return []

    def _rejected(self, value: Node | None, callee: str) -> list[DispositionFacts]:
        """`Promise.reject(v)` or the executor's `reject(v)`: a `reject` of the caught value, a
        `wrap` of anything else (docs/reference.md, "Dispositions")."""
        return self._sent(value, callee)

    def _assigned(self, node: Node) -> bool | None:
        """Whether an assignment stores the caught value in state outliving the handler: on every
        path (True), on one only (False: `x = x || e`, `x = c ? e : null`, `x ||= e`), or not (None)."""
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        if left is None or right is None:
            return None
        stored = self._stored(without_parentheses(right))
        owner = field_owner(left)
        if stored is None or (left.type == "identifier" and (self.key(left) in self.walked.aliases
                                                            or self.bindings.key(left) in self.walked.owned)):
            return None  # a name of the handler's own (`let s; s = e`), not state outliving it
        if owner is not None and owner.type == "identifier" and (self.key(owner) in self.walked.made or (self.call_held(
                owner) is not None and throws_name(self.walked.nodes, self.key(owner), self.key))):
            return None  # `n.cause = e` of a new error of the handler (or a call's, thrown): its cause
        if node.type == "augmented_assignment_expression":
            return False if operator_of(node) in _LOGICAL_ASSIGNMENT else None
        return stored

    def _stored(self, value: Node) -> bool | None:
        """Whether a value assigned is the caught value, or holds it (`{reason: e}`, `[e]`, `new X(m, {cause: e})`):
        always (True), on one path of `?:` or the right of `||`, `??`, `&&` (False), or never (None); `e || x` is it.
        Read iteratively, each node after its arms or operands (a minified chain may be thousands long)."""
        found: dict[int, bool | None] = {}
        stack: list[tuple[Node, list[Node | None] | None]] = [(value, None)]
        while stack:
            node, parts = stack.pop()
            if parts is None:  # first met: kept itself (or a local's each value), or read after what it may give
                keeps = True if self._keeps(node) else self._held_kept(node) if node.type == "identifier" else None
                fields = ("consequence", "alternative") if node.type == "ternary_expression" else \
                    ("left", "right") if either(node) else ()
                if keeps is not None or not fields:
                    found[node.id] = keeps
                    continue
                parts = [without_parentheses(p) if (p := node.child_by_field_name(f)) is not None else None
                         for f in fields]
                stack += [(node, parts), *((p, None) for p in parts if p is not None)]
                continue
            results = [found[p.id] if p is not None else None for p in parts]
            if node.type == "ternary_expression":
                found[node.id] = False if any(r is not None for r in results) else None
            else:
                found[node.id] = True if results[0] and operator_of(node) != "&&" else \
                    False if results[1] is not None else None
        return found[value.id]

    def _held_kept(self, name: Node) -> bool | None:
        """A local that is the caught value on one path and another value on another, as `_stored` reads
        it: each value it may hold here kept (True: `const f = c ? e : new X(e); list.push(f)`, liquidjs'),
        some (False), none (None)."""
        kept = each_value(name, lambda one: [one is not None and self._keeps(one)], _given, held=lambda one: None if (
            values := self.held_values(one, self._parts)) is None else [(True,) if v is None else v for v in values])
        return True if all(kept) else False if any(kept) else None

    def _keeps(self, value: Node) -> bool:
        return bool(self._is_caught(value) or (value.type == "object" and self._object_keeps(value))
                    or self._array_keeps(value)
                    or (value.type == "new_expression" and self._made(value) and self._cause(value) == "kept")
                    or (value.type == "identifier" and self.key(value) in self.walked.made  # `n = new X(m, {cause: e})`
                        and self._wrap(value).cause == "kept"))


def _awaits(node: Node) -> bool:
    """Whether a `yield` is an `await`: its generator is a function expression, not `async`, given to a call,
    which drives it and awaits what it yields (an async function compiled to a generator, TypeScript's
    `__awaiter(this, void 0, void 0, function* () {...})`, esbuild's `__async(this, null, function* () {...})`,
    Babel's `_asyncToGenerator(function* () {...})`; a coroutine of `co(function* () {...})`)."""
    function = node.parent
    while function is not None and function.type not in FUNCTION_TYPES:
        function = function.parent
    if function is None or function.type != "generator_function" or function.children[0].type == "async":
        return False  # `async function* () {...}` given to a call (`hooks.map(async function* (h) {...})`) yields
    holder = function.parent
    while holder is not None and holder.type == "parenthesized_expression":
        holder = holder.parent
    return holder is not None and holder.type == "arguments"


def _reached(statements: list[Node]) -> list[Node]:
    """The statements up to the first `throw`, `return`, `break` or `continue` among them: those
    after it never run (esbuild keeps `throw e; return reject(e)`); the list itself when none is."""
    for at, statement in enumerate(statements[:-1]):
        if statement.type in _LEAVING:
            return statements[:at + 1]
    return statements


def _given(value: Node) -> Node:
    """What a thrown or returned value gives: `(log(x), e)` is `e`, `await f(e)` is `f(e)`, `return e = f(e), c ?
    a : b` the `?:`."""
    value = without_parentheses(value)
    while value.type in ("sequence_expression", "await_expression") and (inner := last_named(value)) is not None:
        value = without_parentheses(inner)
    return value


def _merged(found: list[DispositionFacts]) -> tuple[DispositionFacts, ...]:
    """One disposition per (kind, cause), their callsites together, the first callee written (a
    `throw t` of a local and a `throw new Error(...)` merge: how a minifier orders them must not
    lose the constructor), in the vocabulary's order."""
    if len(found) == 1:
        return (found[0],)
    merged: dict[tuple[str, str | None], DispositionFacts] = {}
    for item in found:
        key = (item.kind, item.cause)
        known = merged.get(key)
        if known is None:
            merged[key] = item
        else:
            merged[key] = _disposition(item.kind, item.cause, tuple(sorted(set(known.sites + item.sites))),
                                           known.callee if known.callee is not None else item.callee)
    return tuple(sorted(merged.values(), key=lambda d: (_ORDER[d.kind], CAUSES[d.cause])))

