"""A handler's body read once: what it keeps (`Body`: one compiled query, docs/performance.md,
"What handlers cost"), the names it calls that may be the error sink, and the small facts its
branches and dispositions ask of it (the caught value, a new error, a promise's `reject`, a retry
loop)."""

from __future__ import annotations

import bisect
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from operator import attrgetter

from tree_sitter import Node, Query, QueryCursor

from analyzer.javascript.handlers.assigned import Held, Versions, either_value, held_at, merged, straight_line, valued
from analyzer.javascript.handlers.bindings import (
    Bindings,
    Key,
    declared_names,
    pattern_names,
    shadowing_regions,
    temporaries,
)
from analyzer.javascript.handlers.passing import CONSUMED, KEPT_VALUE, PASSING_SYMBOLS, push_children
from analyzer.javascript.handlers.shapes import (
    BOUNDARIES,
    RejectNames,
    first_named,
    handler_parameter,
    keeps_as_field,
    makes_no_error,
    mentions,
    named,
    operator_of,
)
from analyzer.javascript.syntax import LANGUAGE, same, symbols_of, text, without_parentheses
from analyzer.model import HandlerForm, Scope

#: what a branch's walk keeps
_COLLECTED = frozenset({"throw_statement", "return_statement", "call_expression", "assignment_expression",
                        "augmented_assignment_expression", "variable_declarator", "break_statement",
                        "yield_expression"})
_BOUNDARY_SYMBOLS = symbols_of(BOUNDARIES)
_COLLECTED_SYMBOLS = symbols_of(_COLLECTED)
_CALL_SYMBOLS = symbols_of(frozenset({"call_expression"}))
_EMPTY_SYMBOLS = symbols_of(frozenset({"empty_statement"}))
_DECLARATOR_SYMBOLS = symbols_of(frozenset({"variable_declarator"}))
#: what gives a name a value: a declarator, a plain assignment or `m += e.message` (`m = m + e.message`)
_NAMING = symbols_of(frozenset({"variable_declarator", "assignment_expression", "augmented_assignment_expression"}))
#: expressions and their parts: below one, outside nested functions and classes, an error-free tree
#: holds no statement, so nothing below one not itself discarded or returned is
_EXPRESSIONS = frozenset({
    "identifier", "property_identifier", "private_property_identifier", "shorthand_property_identifier", "number",
    "string", "template_string", "template_substitution", "regex", "true", "false", "null", "undefined", "this",
    "super", "call_expression", "new_expression", "arguments", "member_expression", "subscript_expression",
    "optional_chain", "assignment_expression", "augmented_assignment_expression", "binary_expression",
    "unary_expression", "update_expression", "ternary_expression", "sequence_expression", "parenthesized_expression",
    "await_expression", "yield_expression", "object", "pair", "array", "spread_element", "computed_property_name",
    "variable_declarator", "object_pattern", "array_pattern", "assignment_pattern", "object_assignment_pattern",
    "pair_pattern", "rest_pattern", "shorthand_property_identifier_pattern", "meta_property", "comment"})
_EXPRESSION_SYMBOLS = symbols_of(_EXPRESSIONS)
_KEPT = Query(LANGUAGE, f"[{' '.join(f'({t})' for t in sorted(_COLLECTED))}] @kept "
                        f"[{' '.join(f'({t})' for t in sorted(BOUNDARIES))}] @boundary "
                        "[(lexical_declaration) (for_in_statement)] @scoping")
_KEPT_CURSOR = QueryCursor(_KEPT)
_START = attrgetter("start_byte")


def _span(node: Node) -> tuple[int, int]:
    """Sorts nodes by start, an ancestor before the nodes it holds that start with it."""
    return node.start_byte, -node.end_byte


@dataclass(frozen=True, slots=True)
class Found:
    """A handler found on the tree, before its body is read."""

    form: HandlerForm
    #: the catch clause, or the handler argument of `.catch`/`.then`
    node: Node
    #: its ancestors, innermost first: `find._ANCHOR_DEPTH` at most while found, then the `find._KEPT_DEPTH` nearest
    #: (what retry and reject read): 100,000 nested handlers hold no 100,000 chains
    chain: list[Node]
    scope: Scope
    in_error_region: bool
    #: the digest of its fp1h anchor and the anchor's start
    anchor: bytes = b""
    anchor_start: int = 0
    #: the functions above `chain`, each with its next ancestors: where a `reject` parameter may
    #: be declared further up (a callback nested in the executor, 16 levels down)
    beyond: tuple[tuple[Node, ...], ...] = ()


def param_name(handler: Found) -> str | None:
    parameter = handler_parameter(handler.node, handler.form)
    return text(parameter) if parameter is not None and parameter.type == "identifier" else None


@dataclass(slots=True)
class _Walked:
    """What the walk of a handler's body keeps, in source order."""

    nodes: list[Node] = field(default_factory=list)
    #: bindings of the caught value (`const t = e`), the parameter included
    aliases: set[Key] = field(default_factory=set)
    #: bindings of a new error in the body: binding -> the construction
    made: dict[Key, Node] = field(default_factory=dict)
    #: bindings of a value read from the caught one (`const m = e.message`, `let j = f(e)`)
    derived: set[Key] = field(default_factory=set)
    #: of those, bindings of an object literal holding the caught value as a field (`const o =
    #: {cause: e}`), binding -> the literal: an error given one as its options may keep the cause
    keeping: dict[Key, Node] = field(default_factory=dict)
    #: calls whose value is discarded or returned (`cb(e);`, `return cb(e)`, `x && cb(e)`), by node id
    consumed: set[int] = field(default_factory=set)
    #: the parameter's own binding and the locals the body declares: state that ends with the handler
    owned: set[Key] = field(default_factory=set)
    #: locals declared once as a call's value and never assigned: binding -> the call
    calls: dict[Key, Node] = field(default_factory=dict)
    #: a followed name's assignments that may not run, and each local's declaration and assignments:
    #: binding -> (declarator or assignment, value), in source order (`Body.held_values`)
    assigned: dict[Key, list[tuple[Node, Node]]] = field(default_factory=dict)
    #: the locals given the caught value and something else
    mixed: set[Key] = field(default_factory=set)


class Body:
    """One handler's body as its walk finds it: the statements, the names bound to the caught value
    and to new errors, and the calls whose value is discarded or returned."""

    _part_starts: tuple[Sequence[Node] | None, list[int]] = (None, [])  # a branch's parts, their starts

    def __init__(self, handler: Found, known: dict[tuple[int, int], tuple[str, int]], param: str | None) -> None:
        """`known`: the tree's callsites by (start, end), as (kind, offset); `param`: the handler's
        `param_name`."""
        self.handler = handler
        self.known = known
        self._rejects = RejectNames(handler.chain, handler.beyond)
        node = handler.node
        self.statements: list[Node] = []
        self.expression: Node | None = None  # an arrow's expression body
        self._root: Node | None = None  # the block of the statements, or the expression
        if handler.form == "catch" or node.type in ("function_expression", "arrow_function"):
            body = self._root = node.child_by_field_name("body")
            if body is not None and body.type == "statement_block":
                self.statements = named(body)
            elif body is not None:
                self.expression = body
        self.param = param
        #: which binding each name of the body is (set by the walk: where names are declared again)
        self.bindings = Bindings(node, self._root, [])
        #: the parameter's values after each assignment of it (found by the walk)
        self._versions = Versions(param.encode() if param is not None else None)
        # an empty body keeps nothing: neither its query nor its walk is run
        empty = not self.statements and self.expression is None
        self.walked = _Walked(aliases={(param.encode(), -1)} if param is not None else set()) if empty \
            else self._walk(param.encode() if param is not None else None)
        #: `_mentions` by node id: a call's arguments are asked of by its sink candidacy and its disposition
        self._mentioned: dict[int, bool] = {}
        self._reading: tuple[set[bytes], Callable[[Node], bool] | None] | None = None
        #: (start, end) of the callees that are the bundle's error sink (`report`)
        self.sink: frozenset[tuple[int, int]] = frozenset()

    def lone_rethrow(self) -> bool:
        """Whether the body is one statement, `throw` of the caught value's own name (`catch (e) { throw e }`,
        `e => { throw e }`; comments and empty statements aside): nothing else runs, ESLint's no-useless-catch.
        `throw (cleanup(), e)`, how minifiers write `cleanup(); throw e`, runs other code."""
        body, param = self._root, self.param
        if param is None or body is None or body.type != "statement_block":
            return False
        statements = [child for child in self.statements if child.kind_id not in _EMPTY_SYMBOLS]
        if len(statements) != 1 or statements[0].type != "throw_statement":
            return False
        thrown = first_named(statements[0])
        thrown = without_parentheses(thrown) if thrown is not None else None
        return thrown is not None and thrown.type == "identifier" and text(thrown) == param

    def key(self, name: Node) -> Key:
        """The binding an identifier of the body names (`bindings.Bindings.key`), the parameter
        past an assignment of it being the value assigned (`assigned.Versions`)."""
        return self._versions.key(self.bindings.key(name), name.start_byte)

    def refers(self, wanted: set[Key]) -> Callable[[Node], bool] | None:
        """What tells whether an identifier is one of the bindings `wanted`; None when its name tells."""
        if not self._versions.ends:
            return self.bindings.refers(wanted)
        return lambda name: self.key(name) in wanted

    def sink_candidates(self) -> list[tuple[Node, bool]]:
        """The names called, as a statement or returned, with the caught value or something read
        from it, each with whether it is given the caught value itself (the error sink is the
        binding most of those resolve to); and a handler given by name."""
        node = self.handler.node
        if node.type == "identifier":
            return [(node, True)]
        out = []
        consumed = self.walked.consumed
        for call in self.walked.nodes:
            if call.id not in consumed or (call.start_byte, call.end_byte) in self.known:  # only calls are consumed
                continue
            callee = call.child_by_field_name("function")
            if callee is None or callee.type != "identifier":
                continue
            arguments = [without_parentheses(a) for a in named(call.child_by_field_name("arguments"))]
            if any(self._is_caught(a) for a in arguments):
                out.append((callee, True))
            elif any(self._mentions(a) for a in arguments):
                out.append((callee, False))
        return out

    def _walk(self, param: bytes | None) -> _Walked:
        walked = _Walked(aliases={(param, -1)} if param is not None else set())
        if self._root is not None and self._root.has_error:
            _walk_every_node(self.statements, self.expression, walked)
            self.bindings = Bindings(self.handler.node, self._root, [(self._root.start_byte, self._root.end_byte)])
        elif self._root is not None:
            # a block is neither kept nor a boundary: its statements'
            walked.nodes, regions = _kept_in(self._root, self.statements)
            self.bindings = Bindings(self.handler.node, self._root, regions)
            _walk_consumed(self.statements, self.expression, walked.consumed)
        # the parameter's own binding and the body's locals: an assignment to one is no `store`
        # the body's declarators and assignments, told by symbol (no type string made per node)
        naming = [n for n in walked.nodes if n.kind_id in _NAMING]
        walked.owned = {self.bindings.key(n) for d in naming if d.kind_id in _DECLARATOR_SYMBOLS
                        for n in declared_names(d)} | ({self._versions.own} if self._versions.own else set())
        walked.owned |= temporaries(self.handler.node, self.handler.chain, naming, self.bindings.key)
        parameter = handler_parameter(self.handler.node, self.handler.form)
        if parameter is not None and parameter.type != "identifier":  # `catch ({message})`: each read from it
            destructured = [self.bindings.key(n) for n in pattern_names(parameter)]
            walked.derived.update(destructured)
            walked.owned.update(destructured)
        held: dict[Key, set[Held]] = {}  # per local, what its declaration and assignments give it
        for node in sorted(naming, key=lambda n: (n.end_byte, -n.start_byte)):  # aliases, local errors: as each ends
            if node.kind_id in _DECLARATOR_SYMBOLS:
                self._declared(node, walked, held)
            else:
                self._reassigned(node, walked, held)
        if walked.calls:
            self._returned_calls(walked)
        return walked

    def _returned_calls(self, walked: _Walked) -> None:
        """`const r = f(e); return r`, as minifiers keep or fold it: a return of a local declared
        by a statement before it in the same list returns the call's value (`return f(e)`)."""
        for node in walked.nodes:
            value = first_named(node) if node.type == "return_statement" else None
            value = without_parentheses(value) if value is not None else None
            call = walked.calls.get(self.key(value)) if value is not None and value.type == "identifier" else None
            declaration = call.parent.parent if call is not None and call.parent is not None else None
            if call is not None and declaration is not None and same(declaration.parent, node.parent) \
                    and declaration.end_byte <= node.start_byte:
                walked.consumed.add(call.id)

    def call_held(self, name: Node) -> Node | None:
        """The call that a local declared once as its value, never assigned, holds where `name` reads it
        (after the declaration, in the statement list holding it): `const n = toError(e); throw n` throws
        what `throw toError(e)`, how minifiers fold a local used once, does."""
        call = self.walked.calls.get(self.key(name))
        declaration = call.parent.parent if call is not None and call.parent is not None else None
        scope = declaration.parent if declaration is not None else None
        if declaration is None or scope is None or not declaration.end_byte <= name.start_byte < scope.end_byte:
            return None
        return call

    def _declared(self, node: Node, walked: _Walked, held: dict[Key, set[Held]]) -> None:
        name, value = node.child_by_field_name("name"), node.child_by_field_name("value")
        if name is None or value is None:
            return
        value = without_parentheses(value)
        if name.type != "identifier":  # `const {status: s, body} = read(e)`: each name read from it
            if self._reads(value, walked.aliases | walked.derived):
                walked.derived.update(map(self.key, pattern_names(name)))
            return
        declared = self.key(name)
        walked.assigned.setdefault(declared, []).append((node, value))
        if declared in held:  # declared again (`var`): no one value
            walked.calls.pop(declared, None)
        elif value.type == "call_expression" and not self._made(value):
            walked.calls[declared] = value
        held[declared] = {self._record(declared, self._held(value, walked), value, walked)}
        if held[declared] == {"read"} and any(v.type == "identifier" and self.key(v) in walked.aliases | walked.mixed
                                              for v in either_value(value) or [value]):
            walked.mixed.add(declared)  # `const t = c ? new X(m, e) : e`, `const u = t`: thrown, each value it may be
        if held[declared] == {"caught"}:  # followed as the parameter is
            self._versions.followed.add(declared)

    def _reassigned(self, node: Node, walked: _Walked, held: dict[Key, set[Held]]) -> None:
        """`name = value` (`m += e.message`: `m + e.message`; not `||=`): the parameter, or a local declared as the
        caught value, holds the value from there on when the assignment always runs; another local of the body holds
        each value assigned to it (`assigned.merged`); a name the body does not declare, a new error from there on."""
        name, value = node.child_by_field_name("left"), node.child_by_field_name("right")
        if name is None or value is None or name.type != "identifier" or operator_of(node) in ("||=", "&&=", "??="):
            return
        value = without_parentheses(value if node.type == "assignment_expression" else node)
        bound, now = self.bindings.key(name), self._held(value, walked)
        if bound in self._versions.followed:
            if straight_line(node, self._root):
                self._record(self._versions.assigned(bound, node), now, value, walked)
            else:  # still the caught value on some path
                walked.assigned.setdefault(bound, []).append((node, value))
        elif bound in walked.owned:
            values = held.setdefault(bound, set())
            values.add(now)
            walked.assigned.setdefault(bound, []).append((node, value))
            if ("caught" in values and len(values) > 1) or any(v.type == "identifier" and self.key(v) in walked.aliases
                                                               | walked.mixed for v in either_value(value) or [value]):
                walked.mixed.add(bound)  # given the caught value and another, or a local that is (`error = cause`)
            for kept in (walked.aliases, walked.derived):
                kept.discard(bound)
            walked.made.pop(bound, None)
            walked.keeping.pop(bound, None)
            walked.calls.pop(bound, None)
            self._record(bound, merged(values), value, walked)
        else:  # a name the body does not declare holds a new error from an assignment that always runs on
            always = straight_line(node, self._root)
            if bound in self._versions.ends or (always and now in ("made", "made-reading")):
                key = self._versions.assigned(bound, node)
                if always:
                    self._record(key, now, value, walked)

    def held_values(self, name: Node, parts: Sequence[Node]) -> list[Node | None] | None:
        """The values an identifier may hold where a branch made of `parts` reads it, when it is
        the caught value on one path and another value on another (`assigned.held_at`)."""
        walked, bound = self.walked, self.bindings.key(name)
        followed = bound in self._versions.followed
        if not (followed and bound in walked.assigned) and bound not in walked.mixed:
            return None
        since = -2 - version if (version := self.key(name)[1]) <= -2 else -1  # past the assignment that always runs
        if self._part_starts[0] is not parts:  # a branch's reads ask of the same parts: their starts once
            self._part_starts = (parts, [part.start_byte for part in parts])
        return held_at(walked.assigned[bound], name.start_byte, since, parts, followed, self._part_starts[1])

    def _held(self, value: Node, walked: _Walked) -> Held:
        """What a value given to a name is (`assigned.Held`)."""
        if value.type == "identifier" and self.key(value) in walked.aliases:
            return "caught"
        reads = self._reads(value, walked.aliases | walked.derived)
        if self._made(value):
            return "made-reading" if reads else "made"
        return "read" if reads else "other"

    def _record(self, name: Key, held: Held, value: Node, walked: _Walked) -> Held:
        """Keeps what `name` holds in the walk's bindings."""
        if held == "caught":
            walked.aliases.add(name)
        elif held in ("made", "made-reading"):
            walked.made[name] = value
            if held == "made-reading":  # given to a call, it passes on what it was made of
                walked.derived.add(name)
        elif held == "read":
            walked.derived.add(name)
            if keeps_as_field(value, {key[0] for key in walked.aliases}, refers=self.refers(walked.aliases)):
                walked.keeping[name] = value
        return held

    def _reads(self, node: Node, wanted: set[Key]) -> bool:
        """Whether one of the bindings `wanted` is read in `node` (`shapes.mentions`)."""
        return any(mentions(part, {key[0] for key in wanted}, self.refers(wanted)) for part in valued(node))

    def _is_caught(self, node: Node) -> bool:
        return node.type == "identifier" and self.key(node) in self.walked.aliases

    def _mentions(self, node: Node) -> bool:
        """Whether the caught value, or a name bound to what was read from it, is read in `node`."""
        known = self._mentioned.get(node.id)
        if known is None:
            if self._reading is None:  # the walk's bindings, asked of once it is done
                wanted = self.walked.aliases | self.walked.derived
                self._reading = ({key[0] for key in wanted}, self.refers(wanted))
            known = self._mentioned[node.id] = any(mentions(part, *self._reading) for part in valued(node))
        return known

    def _made(self, value: Node) -> bool:
        """A new error: `new X(...)` (but a built-in class of no error, `new Promise(...)`), or an
        error callsite of the inventory."""
        if value.type == "new_expression":
            return not makes_no_error(value.child_by_field_name("constructor"))
        entry = self.known.get((value.start_byte, value.end_byte))
        return entry is not None and entry[0] == "error"

    def _is_reject(self, callee: Node) -> bool:
        """Whether the name is the reject parameter of the `new Promise(...)` executor the handler is in."""
        return self._rejects(callee)


def _kept_in(root: Node, statements: list[Node]) -> tuple[list[Node], list[tuple[int, int]]]:
    """The nodes of `_COLLECTED` types in `root` (error-free) outside the boundaries in it, in
    source order, an ancestor before the nodes it holds: one compiled query. And where a name may
    be declared below the level of `statements` (`root`'s), as byte ranges apart and in order: the
    boundaries (nested functions, classes and catch clauses), the `let`/`const` declarations not
    among them, and the names of `for (let|const x of ...)` loops."""
    captured = _KEPT_CURSOR.captures(root)
    kept = captured.get("kept", [])
    boundaries = captured.get("boundary", [])
    apart = shadowing_regions(boundaries, captured.get("scoping", []), statements)
    kept.sort(key=_span)  # no two of them share a span in an error-free tree
    if not kept or not boundaries:
        return kept, apart
    starts: list[int] = []
    ends: list[int] = []
    for boundary in sorted(boundaries, key=_span):  # the outermost boundaries
        if not ends or boundary.start_byte >= ends[-1]:
            starts.append(boundary.start_byte)
            ends.append(boundary.end_byte)
    out = []
    for found in kept:
        at = bisect.bisect_right(starts, found.start_byte) - 1
        if at < 0 or found.end_byte > ends[at]:
            out.append(found)
    return out, apart


def _walk_consumed(statements: list[Node], expression: Node | None, consumed_calls: set[int]) -> None:
    """Adds to `consumed_calls` the calls whose value is discarded or returned, in an error-free
    body: only statements and the expressions that pass such a position on are walked."""
    stack = [(n, KEPT_VALUE) for n in statements] + ([(expression, CONSUMED)] if expression else [])
    pop, extend = stack.pop, stack.extend
    while stack:
        node, consumed = pop()
        symbol = node.kind_id  # an int: no string made for each node
        if symbol in _BOUNDARY_SYMBOLS:
            continue
        if consumed == CONSUMED and symbol in _CALL_SYMBOLS:
            consumed_calls.add(node.id)
        if symbol in _EXPRESSION_SYMBOLS and (not consumed or symbol not in PASSING_SYMBOLS):
            continue  # nothing below is discarded or returned
        push_children(node, symbol, consumed, extend)


def _walk_every_node(statements: list[Node], expression: Node | None, walked: _Walked) -> None:
    """`_kept_in` and `_walk_consumed` in one walk of every node, for a body with parse errors
    (where an ERROR node may hold statements anywhere)."""
    kept, consumed_calls = walked.nodes, walked.consumed
    # (node, whether its value is discarded or returned: a call there consumes what it is given)
    stack = [(n, KEPT_VALUE) for n in statements] + ([(expression, CONSUMED)] if expression else [])
    pop, extend = stack.pop, stack.extend
    while stack:
        node, consumed = pop()
        symbol = node.kind_id
        if symbol in _BOUNDARY_SYMBOLS:
            continue
        if symbol in _COLLECTED_SYMBOLS:
            kept.append(node)
            if consumed == CONSUMED and symbol in _CALL_SYMBOLS:
                consumed_calls.add(node.id)
        push_children(node, symbol, consumed, extend)
    kept.sort(key=_START)  # stable: an ancestor before the nodes it holds that start with it
