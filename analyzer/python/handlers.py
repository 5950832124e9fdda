"""The `except` and `except*` clauses of one Python unit (a worker's job): where each is, the
classes it names as far as one file resolves them, its branches on tests of the caught value and
what each branch does with it; and, for an error callsite, the handlers of the `try` statements
it is raised directly in (docs/reference.md, "Handler records", Python).

Which handler catches a callsite needs the class hierarchy of the whole input: that is settled
by `analyzer.python.catching` once every module is read.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import get_args

import libcst as cst

from analyzer.branch_tests import MOST, negated, product, unguarded
from analyzer.facts import BranchFacts, DispositionFacts, HandlerFacts
from analyzer.handler_model import BranchTest
from analyzer.identity import IdentityInput
from analyzer.model import CauseKept, Disposition, PythonHandlerForm, TestOp
from analyzer.python.calls import call_target
from analyzer.python.collected import Candidate
from analyzer.python.fallthrough import Fallthrough, driven, in_loop_body, left_after_try
from analyzer.python.filefacts import PendingCatch, PendingHandler, SinkCall
from analyzer.python.literals import NOT_LITERAL, literal
from analyzer.python.raised import constructions, later_clauses_raise_alone, makes_message, param_of, raises_alone
from analyzer.python.raised import statements_of as _statements
from analyzer.python.reading import Reading, getattr_field, held_fields
from analyzer.python.retry import in_retry_loop
from analyzer.python.scopes import scope_of
from analyzer.python.sites import SiteBuilder
from analyzer.python.syntax import HANDLER_TYPES, SCOPE_TYPES, dotted

#: what ends the process (`exit`, `quit`: the site module's, bound in builtins)
_EXITS = frozenset({"sys.exit", "os._exit", "builtins.exit", "builtins.quit"})
#: builtins that read a value without passing it on (`str(e)` is a message, not a callback)
_READERS = frozenset({
    "builtins.str", "builtins.repr", "builtins.format", "builtins.isinstance", "builtins.type", "builtins.getattr",
    "builtins.hasattr", "builtins.len", "builtins.id", "builtins.print", "builtins.bool", "builtins.int",
    "typing.cast",
})
#: `future.set_exception(e)` (asyncio, concurrent.futures): whoever awaits the future gets it
_REJECTING = frozenset({"set_exception"})
#: methods that keep their argument in a container (`errors.append(e)`)
_KEEPERS = frozenset({"append", "add", "extend", "put", "put_nowait", "appendleft"})
_LEAVING = (cst.Raise, cst.Return, cst.Break)
_ENDING = (cst.Raise, cst.Return, cst.Break, cst.Continue)
_COMPARISONS: dict[type, TestOp] = {
    cst.Equal: "==", cst.NotEqual: "!=", cst.LessThan: "<", cst.LessThanEqual: "<=", cst.GreaterThan: ">",
    cst.GreaterThanEqual: ">=", cst.Is: "===", cst.IsNot: "!==",
}
_FLIPPED: dict[TestOp, TestOp] = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}
_NEGATED: dict[TestOp, TestOp] = {"==": "!=", "!=": "==", "===": "!==", "!==": "===", "instanceof": "!instanceof",
                                  "!instanceof": "instanceof", "truthy": "falsy", "falsy": "truthy", "<": ">=",
                                  "<=": ">", ">": "<=", ">=": "<", "predicate": "!predicate", "!predicate": "predicate",
                                  "in": "!in", "!in": "in"}
_SPACE = re.compile(r"\s+")

_ORDER: dict[str, int] = {kind: at for at, kind in enumerate(get_args(Disposition))}
_CAUSES: dict[str | None, int] = {kind: at for at, kind in enumerate(get_args(CauseKept))} | {None: 3}
_NOT_CAUGHT = NOT_LITERAL  # no field of the caught value, no literal


class HandlerReader:
    """One unit's handlers: `read` each `except` clause the collector found."""

    def __init__(self, builder: SiteBuilder, known: dict[int, tuple[str, int]], guarded: frozenset[str]) -> None:
        self.builder = builder
        #: builtin exceptions' names the module binds under a condition (`Collected.guarded`)
        self.guarded = guarded
        #: id of a candidate callsite node -> (kind, offset): the callsites a branch may link
        self.known = known

    def read(self, candidate: Candidate) -> PendingHandler:
        builder = self.builder
        node: cst.ExceptHandler | cst.ExceptStarHandler = candidate.node  # type: ignore[assignment]
        start, end = builder.spans[id(node)]
        offset = builder.map.byte(start)
        line, column = builder.map.line_column(start)
        form: PythonHandlerForm = "except*" if isinstance(node, cst.ExceptStarHandler) else "except"
        param = param_of(node)
        anchor = builder.anchor(node, candidate.path)
        unit = builder.task.unit.name
        body = _Body(self, candidate, param)
        facts = HandlerFacts(
            offset=offset, end_offset=builder.map.byte(end), line=line, column=column, form=form, param=param,
            scope=scope_of(builder.task.module, candidate.frames, builder.offset),
            branches=body.branches(), in_error_region=False,
            lone_rethrow=raises_alone(node, param) and later_clauses_raise_alone(node, candidate.path),
            identity=IdentityInput(kind="handler", role=form, comparison_key="", consumer_role="",
                                   anchor=builder.digest(anchor), anchor_slot=(unit, builder.offset(anchor)),
                                   order=(unit, offset)),
        )
        return PendingHandler(facts, self._catches(node.type, candidate), tuple(body.sink_calls))

    def _catches(self, named: cst.BaseExpression | None, candidate: Candidate) -> tuple[PendingCatch, ...] | None:
        if named is None:
            return None
        items = [e.value for e in named.elements] if isinstance(named, cst.Tuple) else [named]
        out = []
        for item in items:
            start, end = self.builder.spans[id(item)]
            written = _SPACE.sub("", self.builder.text[start:end])
            found = None
            if isinstance(item, cst.Name) and item.value in self.guarded \
                    and self.builder.resolver.sees_module(item, candidate.where):
                pass  # an import under a condition: where it did not run, the builtin is read
            elif isinstance(item, (cst.Name, cst.Attribute)):
                found = self.builder.error_class(self.builder.qualified(item, candidate.where))
            if found is None:
                out.append(PendingCatch(written, None, None))
            elif found[1] is None:
                out.append(PendingCatch(written, found[0], None))
            else:
                out.append(PendingCatch(written, None, found[1][1]))
        return tuple(out)


class _Body:
    """One handler's body: its branches and what each does with the caught value."""

    def __init__(self, reader: HandlerReader, candidate: Candidate, param: str | None) -> None:
        self.reader, self.builder = reader, reader.builder
        self.candidate, self.param = candidate, param
        self.handler: cst.ExceptHandler | cst.ExceptStarHandler = candidate.node  # type: ignore[assignment]
        #: id of each `raise` of the body -> what it throws (`analyzer.python.raised`)
        self.thrown: dict[int, cst.BaseExpression] = {}
        self.built: set[int] = set()
        #: the calls in another call's arguments (they make its value), of the branch read
        self.arguments: set[int] = set()
        #: the calls of `callback` dispositions, in order (the error sink's are `report`s)
        self.sink_calls: list[SinkCall] = []
        self._branch = 0
        #: the caught value's name and the names the body binds to what it reads of it
        self.reading = Reading(param)
        #: the locals holding a field of it (`reading.held_fields`), and the index of the
        #: top-level statement a split tests: a local is its field after its own statement only
        self.fields: dict[str, tuple[str, int]] = {}
        self._testing = 0

    # --- branches ---------------------------------------------------------------------------

    def branches(self) -> tuple[BranchFacts, ...]:
        statements = _statements(self.handler.body)
        self.thrown, self.built = constructions(self.handler.body, self._is_caught)  # a `wrap`, no `callback`
        self.reading.derive(_walk(statements))
        frames = self.candidate.frames
        self.fields = held_fields(statements, self._field, self.handler.body, frames[-1].overwrites if frames else ())
        out = []
        for at, (test, parts) in enumerate(self._split(statements)):
            self._branch = at
            out.append(BranchFacts(test, self._dispositions(parts)))
        return tuple(out)

    def _split(self, statements: list[cst.CSTNode]) -> list[tuple[BranchTest | None, list[cst.CSTNode]]]:
        """The statements of each branch: the first top-level `if` chain that tests the caught
        value splits them; statements before it belong to every branch, those after it to the
        branches that do not end in `raise`, `return`, `break` or `continue`. Tests in a row whose
        branches leave are one chain (`if a: return x` then `if b: raise y`, an `elif` chain):
        the statements between two belong to the next one's branches."""
        for at, statement in enumerate(statements):
            self._testing = at
            chain = self._chain(statement) if isinstance(statement, cst.If) else None
            if chain is None:
                continue
            end, open_end = at + 1, _falls_through_alone(chain)
            while open_end:
                following, between, more = end, [], None
                while following < len(statements):
                    candidate = statements[following]
                    self._testing = following
                    more = self._chain(candidate) if isinstance(candidate, cst.If) else None
                    if more is not None or isinstance(candidate, _ENDING):
                        break
                    between.append(candidate)
                    following += 1
                if more is None:
                    break
                chain[-1:] = [(test, between + body) for test, body in more]
                end, open_end = following + 1, _falls_through_alone(more)
            before, after = statements[:at], statements[end:]
            return [(test, before + body + ([] if _ends(body) else after)) for test, body in chain]
        return [(None, statements)]

    def _chain(self, statement: cst.If) -> list[tuple[BranchTest | None, list[cst.CSTNode]]] | None:
        out: list[tuple[BranchTest | None, list[cst.CSTNode]]] = []
        node: cst.If = statement
        while True:
            tests = self._tests(node.test)
            if tests is None:
                if not out:
                    return None
                out.append((None, [node]))  # an `elif` on something else: the rest
                return out
            out.extend((test, _statements(node.body)) for test in tests)
            orelse = node.orelse
            if isinstance(orelse, cst.If):
                node = orelse
                continue
            out.append((None, _statements(orelse.body) if orelse is not None else []))
            return out

    def _tests(self, test: cst.BaseExpression, depth: int = 0) -> list[BranchTest] | None:
        """Its one test; one per operand of an `or` whose every operand is one (as JavaScript's `||`);
        an `and` of tests one test and its `also`, a truthiness guard of what another reads left out
        (`e.response and e.response.status == 404`); `and` distributed over `or`, `not` over both."""
        one = self._test(test)
        if one is not None or depth >= 8:
            return [one] if one is not None else None
        if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
            inner = self._tests(test.expression, depth + 1)
            return negated(inner, _NEGATED.get) if inner is not None else None
        if not isinstance(test, cst.BooleanOperation):
            return None
        operands, kind = [], type(test.operator)
        node: cst.BaseExpression = test
        while isinstance(node, cst.BooleanOperation) and isinstance(node.operator, kind):  # a chain, iteratively
            operands.append(node.right)
            node = node.left
        options = [self._tests(operand, depth + 1) for operand in [node, *reversed(operands)]]
        if any(tests is None for tests in options):
            return None
        if kind is cst.Or:
            return [t for tests in options for t in tests]  # type: ignore[union-attr]
        made = product(options) if len(options) <= MOST else None  # type: ignore[arg-type]
        return None if made is None else [unguarded(t) for t in made]

    def _test(self, test: cst.BaseExpression) -> BranchTest | None:
        if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
            inner = self._test(test.expression)
            return BranchTest(inner.field, _NEGATED[inner.op], inner.value) if inner is not None else None
        if isinstance(test, cst.Call) and dotted(test.func) == "isinstance" and len(test.args) == 2 and \
                not any(a.keyword or a.star for a in test.args):
            target, cls = test.args[0].value, test.args[1].value
            written = dotted(cls) if isinstance(cls, (cst.Name, cst.Attribute)) else None
            field = self._field(target)  # the caught value (None) or a field of it (`e.__cause__`)
            if written is not None and field is not _NOT_CAUGHT:
                return BranchTest(field, "instanceof", written)  # type: ignore[arg-type]
            return None
        if isinstance(test, cst.Comparison) and len(test.comparisons) == 1:
            comparison = test.comparisons[0]
            if isinstance(comparison.operator, (cst.In, cst.NotIn)):  # `e.errno in (ENOENT, EACCES)`
                return self._in(test.left, comparison)
            op = _COMPARISONS.get(type(comparison.operator))
            if op is None:
                return None
            left, right = test.left, comparison.comparator
            field, value = self._field(left), literal(right)
            if field is not _NOT_CAUGHT and value is not _NOT_CAUGHT:
                return BranchTest(field, op, value)  # type: ignore[arg-type]
            field, value = self._field(right), literal(left)
            if field is not _NOT_CAUGHT and value is not _NOT_CAUGHT:
                return BranchTest(field, _FLIPPED.get(op, op), value)  # type: ignore[arg-type]
            return None
        field = self._field(test)
        if field is not _NOT_CAUGHT and field is not None:
            return BranchTest(field, "truthy", None)  # type: ignore[arg-type]
        if isinstance(test, cst.Call) and isinstance(test.func, (cst.Name, cst.Attribute)) and len(test.args) == 1 \
                and not test.args[0].keyword and not test.args[0].star:  # `is_not_found(e)`, as JavaScript's
            field = self._field(test.args[0].value)
            return BranchTest(field, "predicate", dotted(test.func)) if field is not _NOT_CAUGHT else None  # type: ignore[arg-type]
        return None

    def _in(self, left: cst.BaseExpression, comparison: cst.ComparisonTarget) -> BranchTest | None:
        """`field in (A, B)` / `not in`: a tuple, list or set of two or more literals."""
        field, values = self._field(left), comparison.comparator
        if field is _NOT_CAUGHT or not isinstance(values, (cst.Tuple, cst.List, cst.Set)) or len(values.elements) < 2:
            return None
        found = [literal(e.value) if isinstance(e, cst.Element) else _NOT_CAUGHT for e in values.elements]
        if any(value is _NOT_CAUGHT for value in found):
            return None
        return BranchTest(field, "in" if isinstance(comparison.operator, cst.In) else "!in",  # type: ignore[arg-type]
                          tuple(found))  # type: ignore[arg-type]

    def _field(self, node: cst.BaseExpression) -> object:
        """The path read from the caught value (`errno`, `response.status`, `args[0]`), None for
        the value itself, `_NOT_CAUGHT` when `node` is not read from it."""
        parts: list[str] = []
        while True:
            if isinstance(node, cst.Attribute):
                parts.append(f".{node.attr.value}")
                node = node.value
            elif isinstance(node, cst.Subscript) and len(node.slice) == 1 and \
                    isinstance(node.slice[0].slice, cst.Index) and isinstance(node.slice[0].slice.value, cst.Integer):
                parts.append(f"[{node.slice[0].slice.value.value}]")
                node = node.value
            elif (name := getattr_field(node, self._is_getattr)) is not None:  # `getattr(e, "code", None)`
                parts.append(f".{name}")
                node = node.args[0].value  # type: ignore[attr-defined]
            else:
                break
        if isinstance(node, cst.Name) and node.value in self.fields and self.fields[node.value][1] < self._testing:
            parts.append(f".{self.fields[node.value][0]}")  # a local holding a field of it
        elif not self._is_caught(node):
            return _NOT_CAUGHT
        return "".join(reversed(parts)).lstrip(".") or None

    # --- dispositions -------------------------------------------------------------------------

    def _dispositions(self, parts: list[cst.CSTNode]) -> tuple[DispositionFacts, ...]:
        found: list[DispositionFacts] = []
        deciding: set[int] = set()  # the ids of the nodes that are a disposition
        leaving: set[int] = set()  # the ids of the nodes that leave the function or the loop
        breaks: set[int] = set()
        exits: set[int] = set()  # the `break` and `continue` statements
        self.arguments = set()
        for node in _walk(parts):
            if isinstance(node, _LEAVING):
                leaving.add(id(node))
            if isinstance(node, cst.Break):
                breaks.add(id(node))
            if isinstance(node, (cst.Break, cst.Continue)):
                exits.add(id(node))
            if isinstance(node, _ENDING) or (isinstance(node, cst.Yield) and not driven(self.candidate.path)):
                deciding.add(id(node))  # a construct holding one is taken to decide
            if isinstance(node, cst.Raise):
                found.append(self._raised(node))
            elif isinstance(node, cst.Return):
                found.extend(self._returned(node.value))
            elif isinstance(node, cst.Yield) and id(node) in deciding:  # a `return` of its value that goes on
                found.extend(self._returned(node.value.item if isinstance(node.value, cst.From) else node.value))
            elif isinstance(node, cst.Call):
                made = self._called(node)
                found.extend(made)
                if made:
                    deciding.add(id(node))
                if any(d.kind == "exit" for d in made):
                    leaving.add(id(node))
            elif isinstance(node, (cst.Assign, cst.AugAssign, cst.AnnAssign)):
                made = self._assigned(node)
                found.extend(made)
                if made:
                    deciding.add(id(node))
        in_loop = in_loop_body(self.handler, self.candidate.path)
        if in_loop and not in_retry_loop(self.candidate.path):
            # a loop that goes on to the next item: a `continue` or a `break` drops the caught value
            # as the branch's end does
            if found and any(Fallthrough(deciding - exits, (cst.Break, cst.Continue)).turns(parts)):
                found.append(DispositionFacts("swallow", None, (), None))
            return merged(found) or (DispositionFacts("swallow", None, (), None),)
        around, through = Fallthrough(leaving).turns(parts) if in_loop else (False, True)
        ends_turn = in_loop and left_after_try(self.candidate.path)  # the handler's end leaves the loop too
        if around or (in_loop and through and not ends_turn):
            found.append(DispositionFacts("retry", None, (), None))  # a path goes on to the next turn
        if found and (not in_loop or ends_turn) and Fallthrough(deciding).silent_path(parts):
            found.append(DispositionFacts("swallow", None, (), None))  # a path that meets none of them
        elif found and in_loop and Fallthrough(deciding - breaks, cst.Break).turns(parts)[0]:
            found.append(DispositionFacts("swallow", None, (), None))  # a `break` that meets none of them
        return merged(found) or (DispositionFacts("swallow", None, (), None),)

    def _raised(self, node: cst.Raise) -> DispositionFacts:
        exc = node.exc
        if exc is None:
            return DispositionFacts("rethrow", None, (), None)
        construction = self.thrown.get(id(node), exc)  # `e = X(...); raise e`: X, even when `e` was caught
        if (construction is exc and self._is_caught(exc)) or self._is_traceback_of_caught(construction):
            return DispositionFacts("rethrow", None, (), None)
        if node.cause is None:
            return self._wrap(construction, "partial" if self._mentions(construction) else "lost")
        if self._is_caught(node.cause.item):
            return self._wrap(construction, "kept")
        return self._wrap(construction, "lost", suppressed=True)  # `from None` (or another value)

    def _wrap(self, construction: cst.BaseExpression, cause: CauseKept, suppressed: bool = False) -> DispositionFacts:
        known = self.reader.known.get(id(construction))
        sites = (known[1],) if known is not None and known[0] == "error" else ()
        callee = construction.func if isinstance(construction, cst.Call) else construction
        written = dotted(callee) if isinstance(callee, (cst.Name, cst.Attribute)) else None
        return DispositionFacts("wrap", cause, sites, written, suppressed)

    def _returned(self, value: cst.BaseExpression | None) -> list[DispositionFacts]:
        if value is None:
            return [DispositionFacts("return-value", None, (), None)]
        if self._is_caught(value):
            return [DispositionFacts("return-error", None, (), None)]
        known = self.reader.known.get(id(value))
        if known is not None and known[0] == "error":  # a new error: `wrap` if its class settles as one
            wrap = self._wrap(value, "partial" if self._mentions(value) else "lost")
            return [DispositionFacts("return-value", wrap.cause, (known[1],), wrap.callee)]
        return [DispositionFacts("return-value", None, (), None)]

    def _called(self, call: cst.Call) -> list[DispositionFacts]:
        self.arguments.update(id(inner) for a in call.args for inner in _calls_in(a.value))
        if id(call) in self.built:
            return []
        known = self.reader.known.get(id(call))
        # a candidate callsite: a `callback` until it settles as one (`analyzer.python.catching`)
        pending = () if known is None else (known[1],)
        logged = [DispositionFacts("log", None, pending, None)] if known and known[0] == "diagnostic" else []
        qualified = self.builder.qualified(call.func, self.candidate.where)
        if _EXITS.intersection(qualified):
            return [*logged, DispositionFacts("exit", None, (), dotted(call.func))]
        if isinstance(call.func, cst.Attribute) and call.func.attr.value in _KEEPERS and call.args and \
                self._holds_caught(call.args[0].value):
            return [*logged, DispositionFacts("store", None, (), None)]
        if isinstance(call.func, cst.Attribute) and call.func.attr.value in _REJECTING and call.args and \
                self._is_caught(call.args[0].value):
            return [*logged, DispositionFacts("reject", None, (), dotted(call.func))]
        if _READERS.intersection(qualified) or makes_message(call.func) or id(call) in self.arguments or \
                not any(self._mentions(a.value) for a in call.args):
            return logged
        written = dotted(call.func)
        if not pending:  # the sink is a function of the input, never a candidate callsite
            target = call_target(self.builder, call.func, self.candidate.where)
            itself = any(self._is_caught(a.value) for a in call.args)
            self.sink_calls.append(SinkCall(self._branch, target, itself, written))
        return [*logged, DispositionFacts("callback", None, pending, written)]

    def _assigned(self, node: cst.Assign | cst.AugAssign | cst.AnnAssign) -> list[DispositionFacts]:
        value = node.value
        if value is None or not self._mentions(value):
            return []
        targets = [t.target for t in node.targets] if isinstance(node, cst.Assign) else [node.target]
        declared = self.candidate.frames[-1].overwrites if self.candidate.frames else {}
        for target in targets:
            if (isinstance(target, (cst.Attribute, cst.Subscript)) and not self._is_caught(_base(target))) or (
                    isinstance(target, cst.Name) and target.value in declared):
                return [DispositionFacts("store", None, (), None)]
        return []

    def _is_getattr(self, callee: cst.BaseExpression) -> bool:
        return "builtins.getattr" in self.builder.qualified(callee, self.candidate.where)

    def _is_caught(self, node: cst.BaseExpression) -> bool:
        return self.param is not None and isinstance(node, cst.Name) and node.value == self.param

    def _holds_caught(self, node: cst.BaseExpression) -> bool:
        """The caught value, or a tuple, list, set or dict literal holding it as an element or a
        value (`errors.append((server, e))` keeps it as `errors.append(e)` does)."""
        if isinstance(node, (cst.Tuple, cst.List, cst.Set)):
            return any(self._is_caught(e.value) for e in node.elements)
        if isinstance(node, cst.Dict):
            return any(isinstance(e, cst.DictElement) and self._is_caught(e.value) for e in node.elements)
        return self._is_caught(node)

    def _is_traceback_of_caught(self, node: cst.BaseExpression) -> bool:
        """`e.with_traceback(tb)`: the caught value itself."""
        return isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and \
            node.func.attr.value == "with_traceback" and self._is_caught(node.func.value)

    def _mentions(self, node: cst.CSTNode) -> bool:
        return self.reading.mentions(node)


def _walk(parts: list[cst.CSTNode]) -> Iterator[cst.CSTNode]:
    """Every node of `parts`, outside nested functions, lambdas, classes and the bodies of nested
    `except` clauses (their own handlers)."""
    stack = list(reversed(parts))
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, SCOPE_TYPES):
            continue
        children = [c for c in node.children if not isinstance(c, HANDLER_TYPES)]
        stack.extend(reversed(children))


def _calls_in(node: cst.CSTNode) -> Iterator[cst.Call]:
    """The outermost calls in `node` (not in a nested function, lambda or class)."""
    stack = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, cst.Call):
            yield current
        elif not isinstance(current, SCOPE_TYPES):
            stack.extend(current.children)


def _base(target: cst.Attribute | cst.Subscript) -> cst.BaseExpression:
    """What a field is set on: `e` of `e.args[0]` (`e.args = (...)` changes the error, stores it nowhere)."""
    node: cst.BaseExpression = target
    while isinstance(node, (cst.Attribute, cst.Subscript)):
        node = node.value
    return node


def _ends(statements: list[cst.CSTNode]) -> bool:
    return bool(statements) and isinstance(statements[-1], _ENDING)


def _falls_through_alone(chain: list[tuple[BranchTest | None, list[cst.CSTNode]]]) -> bool:
    """Whether every branch of an `if` chain leaves but the last, a missing `else`."""
    *tested, (test, body) = chain
    return test is None and not body and all(_ends(statements) for _, statements in tested)


def merged(found: list[DispositionFacts]) -> tuple[DispositionFacts, ...]:
    """One disposition per (kind, cause, suppressed), their callsites together, the first callee
    written, in the vocabulary's order (a suppressed cause after the same cause not suppressed);
    a `callback` on a candidate callsite stays apart until the callsite settles."""
    merged: dict[tuple[str, str | None, bool, tuple[int, ...]], DispositionFacts] = {}
    for item in found:
        key = (item.kind, item.cause, item.suppressed, item.sites if item.kind == "callback" else ())
        known = merged.get(key)
        merged[key] = item if known is None else DispositionFacts(
            item.kind, item.cause, tuple(sorted(set(known.sites + item.sites))),
            known.callee if known.callee is not None else item.callee, item.suppressed)
    return tuple(sorted(merged.values(), key=lambda d: (_ORDER[d.kind], _CAUSES[d.cause], d.suppressed)))
