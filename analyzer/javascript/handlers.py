"""The handlers of one JavaScript unit: `catch` clauses, `.catch(fn)` and the rejection argument of
`.then(ok, fn)`, each split into branches on tests of the caught value, each branch with what it
does with it (docs/reference.md, "Handler records").

Found without a pass over the whole tree: a byte regex finds the few places that can be a
handler, one descent per place (sharing the ancestors of the previous one) checks it, and each
handler's own body is walked, stopping at nested functions and nested catch clauses (their own
handlers): every node of a unit is walked for at most one handler. The errors a handler catches
directly are found from the callsites' side (`direct_handler`), on the ancestors each callsite
already has.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import get_args

from tree_sitter import Node, Tree

from analyzer.facts import BranchFacts, DispositionFacts, HandlerFacts
from analyzer.identity import IdentityInput
from analyzer.javascript.normalize import Normalizer, Siblings, anchor_of
from analyzer.javascript.scopes import function_kind, function_name, is_bun_cjs_wrapper
from analyzer.javascript.sink import detect_sink
from analyzer.javascript.syntax import CLASS_TYPES, FUNCTION_TYPES, same, starts_word, text, without_parentheses
from analyzer.model import BranchTest, CauseKept, Disposition, HandlerForm, Scope, TestOp

#: the words a handler is found by: the `catch` keyword, the `.catch(` and `.then(` of a call
_WORDS = (b"catch", b"then")
_SPACE = b" \t\r\n\f\v"
#: nodes a handler's walk does not enter: their own scopes and handlers
_BOUNDARIES = FUNCTION_TYPES | CLASS_TYPES | {"class_static_block", "catch_clause"}
_LEAVING = frozenset({"throw_statement", "return_statement", "break_statement", "continue_statement"})
#: loops a `retry` may be made of: a `for...of`/`for...in` walks items, it does not retry
_RETRY_LOOPS = frozenset({"while_statement", "do_statement", "for_statement"})
#: statements an unlabelled `break` inside them leaves instead of the enclosing loop
_BREAK_TARGETS = frozenset({"for_statement", "for_in_statement", "while_statement", "do_statement",
                            "switch_statement"})
#: the properties of a loop condition that steps through items
_STEPPING = frozenset({b"length", b"pop", b"shift", b"next"})
#: what a branch's walk keeps
_COLLECTED = frozenset({"throw_statement", "return_statement", "call_expression", "assignment_expression",
                        "variable_declarator", "break_statement"})
#: expressions whose operands are where the expression is (`(a, cb(e))`, `await cb(e)`)
_PASS_POSITION = frozenset({"parenthesized_expression", "sequence_expression", "await_expression"})
#: statements whose expression's value is discarded or returned
_STATEMENT_OF_VALUE = frozenset({"expression_statement", "return_statement"})
_SHORT_CIRCUIT = frozenset({"&&", "||", "??"})
#: builtins that read a value without passing it on (`String(e)` is a message, not a callback)
_READERS = frozenset({b"String", b"Number", b"Boolean", b"JSON.stringify", b"Array.isArray"})
_COMPARISONS: dict[str, TestOp] = {"===": "===", "!==": "!==", "==": "==", "!=": "!=", "<": "<", "<=": "<=",
                                   ">": ">", ">=": ">="}
_FLIPPED: dict[TestOp, TestOp] = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}
_NEGATED: dict[TestOp, TestOp] = {"===": "!==", "!==": "===", "==": "!=", "!=": "==", "instanceof": "!instanceof",
                                  "truthy": "falsy"}
_STRING_TESTS: dict[str, TestOp] = {"includes": "includes", "startsWith": "startsWith", "endsWith": "endsWith"}
_ORDER: dict[str, int] = {kind: at for at, kind in enumerate(get_args(Disposition))}
_CAUSES: dict[str | None, int] = {kind: at for at, kind in enumerate(get_args(CauseKept))} | {None: 3}
#: the longest callee or class text a record keeps
_TEXT_LIMIT = 200
#: named children above which a node's children are indexed by start (a program of 10,000 statements)
_WIDE = 64
#: ancestors handed to `anchor_of`: a node this far above has more than ANCHOR_LIMIT nodes
_ANCHOR_DEPTH = 1100
#: nodes of an argument searched for the caught value (a message, an object, a small callback)
_MENTION_NODES = 4096
#: a catch clause inside more try statements than this is counted, not recorded: each record is
#: about 1 KB, and 100,000 nested `try` (1.4 MB of source) would write 100 MB past the memory bound
MAX_NESTED_TRIES = 256
#: ancestors kept once a handler is found: where its loop (retry) and the executor declaring a
#: `reject` parameter are looked for
_KEPT_DEPTH = 16


# ---- the callsites a handler catches directly -------------------------------------------------

def direct_handler(site: Node, chain: Sequence[Node]) -> int | None:
    """The offset of the catch clause whose protected block throws this error callsite in the same
    function: `throw X`, `throw (a, X)`, `throw Object.assign(X, ...)`, or X bound by `const e = X`
    and `throw e` in a later statement of the same block. `chain`: its ancestors, innermost first."""
    at, child = _holder(site, chain)
    if at is None:
        return None
    if chain[at].type == "variable_declarator":
        at = _thrown_later(chain, at)
        if at is None:
            return None
        child = chain[at - 1] if at > 0 else site
    for node in chain[at:]:
        if node.type == "try_statement" and same(node.child_by_field_name("body"), child):
            catcher = node.child_by_field_name("handler")
            if catcher is not None:
                return catcher.start_byte
        elif node.type in _BOUNDARIES and node.type != "catch_clause":
            return None
        child = node
    return None


def _holder(site: Node, chain: Sequence[Node]) -> tuple[int | None, Node]:
    """(the position in `chain` of the throw statement or declarator that holds the callsite's
    value, the child of it on the way), else (None, site)."""
    child = site
    for at, node in enumerate(chain):
        kind = node.type
        if kind == "parenthesized_expression":
            pass
        elif kind == "sequence_expression" and same(_last_named(node), child):
            pass
        elif kind == "arguments" and at + 1 < len(chain) and _is_object_assign(chain[at + 1]) \
                and same(_first_named(node), child):
            pass
        elif kind == "call_expression" and at > 0 and chain[at - 1].type == "arguments":
            pass
        elif kind == "throw_statement":
            return at, child
        elif kind == "variable_declarator" and same(node.child_by_field_name("value"), child):
            name = node.child_by_field_name("name")
            return (at, child) if name is not None and name.type == "identifier" else (None, site)
        else:
            return None, site
        child = node
    return None, site


def _thrown_later(chain: Sequence[Node], at: int) -> int | None:
    """For `const e = X` at chain[at]: the position in `chain` of the statement list holding a
    later `throw e` (its own position is the list's child, whose ancestors the chain has)."""
    name = chain[at].child_by_field_name("name")
    if at + 2 >= len(chain) or name is None:
        return None
    declaration, holder = chain[at + 1], chain[at + 2]
    if declaration.type not in ("lexical_declaration", "variable_declaration"):
        return None
    if holder.type not in ("statement_block", "program", "switch_case", "switch_default"):
        return None
    wanted = name.text
    later = False
    for statement in holder.named_children:
        if later and statement.type == "throw_statement":
            thrown = _thrown_value(statement)
            if thrown is not None and thrown.type == "identifier" and thrown.text == wanted:
                return at + 2
        if same(statement, declaration):
            later = True
    return None


def _is_object_assign(call: Node) -> bool:
    callee = call.child_by_field_name("function") if call.type == "call_expression" else None
    return callee is not None and callee.type == "member_expression" and callee.text == b"Object.assign"


# ---- finding handlers --------------------------------------------------------------------------

class Descent:
    """The ancestors of the nodes at increasing offsets, from one descent each that starts where the
    previous one's path still holds the offset; wide nodes' children are indexed once. The scopes
    on the path and whether an ERROR node lies at or above each node are kept as it changes, so
    that a handler 100,000 levels deep costs its own scopes, not its depth."""

    def __init__(self, root: Node, spend: Callable[[int], None]) -> None:
        #: counts work against the unit's bound: a scope path is as long as the functions around it
        self.spend = spend
        self.path: list[Node] = [root]
        #: the scopes on the path, outermost first: (its position in the path, `kind:name@offset`,
        #: name, kind, whether it is a class), as scopes.scope_of names them
        self.scopes: list[tuple[int, str, str, str, bool]] = []
        self.errors: list[bool] = [root.type == "ERROR"]
        #: per path node: the try statements at or above it
        self.tries: list[int] = [0]
        #: catch clauses past MAX_NESTED_TRIES, not recorded
        self.left_out = 0
        self._wide: dict[int, tuple[list[int], list[Node]]] = {}
        self._cursor = root.walk()

    def to(self, offset: int) -> list[Node]:
        """The path from the root to the smallest node holding `offset` (the list is reused: copy
        what must outlive the next call)."""
        path, scopes = self.path, self.scopes
        while len(path) > 1 and not (path[-1].start_byte <= offset < path[-1].end_byte):
            path.pop()
            self.errors.pop()
            self.tries.pop()
            if scopes and scopes[-1][0] == len(path):
                scopes.pop()
        while True:
            child = self._child_at(path[-1], offset)
            if child is None:
                return path
            if child.type in _SCOPE_TYPES:
                entry = _scope_entry(child, reversed(path))
                if entry is not None:
                    name, kind = entry
                    scopes.append((len(path), f"{kind}:{name}@{child.start_byte}", name, kind,
                                   child.type in CLASS_TYPES))
            self.errors.append(self.errors[-1] or child.type == "ERROR")
            self.tries.append(self.tries[-1] + (child.type == "try_statement"))
            path.append(child)

    def _child_at(self, node: Node, offset: int) -> Node | None:
        if node.child_count > _WIDE:
            indexed = self._wide.get(node.id)
            if indexed is None:
                children = node.children
                indexed = self._wide[node.id] = ([c.start_byte for c in children], children)
            at = bisect.bisect_right(indexed[0], offset) - 1
            found = indexed[1][at] if at >= 0 else None
            return found if found is not None and found.end_byte > offset else None
        cursor = self._cursor  # not `node.children`: a node keeps the list it made, and a path is 300,000 deep
        cursor.reset(node)
        if cursor.goto_first_child_for_byte(offset) is None:
            return None
        child = cursor.node
        return child if child is not None and child.start_byte <= offset < child.end_byte else None

    def scope(self, unit: str, depth: int) -> Scope:
        """The scope of a node whose ancestors are the path's first `depth` nodes."""
        count = len(self.scopes)
        while count and self.scopes[count - 1][0] >= depth:
            count -= 1
        self.spend(count)
        entries = self.scopes[:count]
        innermost = next(((e[2], e[3]) for e in reversed(entries) if not e[4]), ("<module>", "module"))
        return Scope(scopePath=(f"module:{unit}@0", *(e[1] for e in entries)), function=innermost[0],
                     functionKind=innermost[1])


_SCOPE_TYPES = FUNCTION_TYPES | CLASS_TYPES | {"class_static_block", "field_definition"}


def _scope_entry(node: Node, parents: Iterable[Node]) -> tuple[str, str] | None:
    """scopes.scope_of's entry for a scope node: None for Bun's CommonJS wrapper."""
    above = list(_first(parents, 4))
    if is_bun_cjs_wrapper(node, iter(above)):
        return None
    return function_name(node, iter(above)), function_kind(node)


def _first(items: Iterable[Node], count: int) -> Iterable[Node]:
    for at, item in enumerate(items):
        if at >= count:
            return
        yield item


class _WideSiblings(Siblings):
    """The runs windows are cut from, kept only for wide nodes: the anchors of 100,000 nested
    handlers are windows in 100,000 small try statements, whose lists would outlive them."""

    def of(self, parent: Node) -> tuple[list[Node], list[int], list[int]]:
        if parent.named_child_count > _WIDE:
            return super().of(parent)
        nodes = []
        cursor = parent.walk()  # not `named_children`: the node would keep that list
        if cursor.goto_first_child():
            while True:
                node = cursor.node
                if node is not None and node.is_named and node.type != "comment":
                    nodes.append(node)
                if not cursor.goto_next_sibling():
                    break
        return nodes, [c.start_byte for c in nodes], [c.descendant_count for c in nodes]


@dataclass(frozen=True, slots=True)
class _Found:
    """A handler found on the tree, before its body is read."""

    form: HandlerForm
    #: the catch clause, or the handler argument of `.catch`/`.then`
    node: Node
    #: its ancestors, innermost first: at most _ANCHOR_DEPTH while it is found, then the
    #: _KEPT_DEPTH nearest (what retry and reject read), so that 100,000 nested handlers do not
    #: hold 100,000 chains
    chain: list[Node]
    scope: Scope
    in_error_region: bool
    #: the digest of its fp1h anchor and the anchor's start
    anchor: bytes = b""
    anchor_start: int = 0


def find_handlers(
    unit: str, tree: Tree, sites: Sequence[tuple[Node, str]], normalizer: Normalizer,
    positions: Callable[[list[int]], dict[int, tuple[int, int]]],
) -> tuple[list[HandlerFacts], dict[str, object], int]:
    """Every handler of the unit with its branches, in source order, the evidence of its error
    sink (`javascript/sink.py`), and the count of catch clauses too deeply nested to record.
    `sites`: the unit's callsites as (node, kind); `positions`: (line, column) of sorted offsets."""
    source = normalizer.source
    known = {node.id: (kind, node.start_byte) for node, kind in sites}
    # a handler's branches are made at once unless it calls a name that may be the sink: only
    # those bodies wait for the sink (100,000 waiting bodies would hold 300 MB)
    waiting: list[tuple[_Found, _Body | None, tuple[BranchFacts, ...]]] = []
    candidates: list[tuple[Node, bool]] = []
    left_out: list[int] = []
    for handler in _handlers_on(unit, tree, normalizer, left_out):
        body = _Body(handler, known)
        called = body.sink_candidates()
        if called:
            candidates.extend(called)
            waiting.append((handler, body, ()))
        else:
            branches = body.branches()
            handler.chain.clear()  # its ancestors are no longer needed: let them go
            waiting.append((handler, None, branches))
    sink = detect_sink(unit, tree, source, candidates)
    where = positions(sorted({h.node.start_byte for h, _, _ in waiting}))
    out = []
    for handler, pending, branches in waiting:
        if pending is not None:
            pending.sink = sink.calls
            branches = pending.branches()
        offset = handler.node.start_byte
        out.append(HandlerFacts(
            offset=offset, end_offset=handler.node.end_byte, line=where[offset][0], column=where[offset][1],
            form=handler.form, param=_param(handler), scope=handler.scope, branches=branches,
            in_error_region=handler.in_error_region,
            identity=IdentityInput(kind="handler", role=handler.form, comparison_key="", consumer_role="",
                                   anchor=handler.anchor, anchor_slot=(unit, handler.anchor_start),
                                   order=(unit, offset)),
        ))
    return out, sink.evidence, sum(left_out)


def _handlers_on(unit: str, tree: Tree, normalizer: Normalizer, left_out: list[int]) -> Iterable[_Found]:
    """The handlers found, in source order; `left_out` gets the count of those not recorded."""
    descent = Descent(tree.root_node, normalizer.spend)
    siblings = _WideSiblings()
    for start, method in _places(normalizer.source):
        path = descent.to(start)
        found = _catch_clause(unit, descent, path) if method is None else _promise_handler(unit, descent, path, method)
        if found is not None:
            anchor = anchor_of(found.node, found.chain, siblings=siblings)
            yield _Found(found.form, found.node, found.chain[:_KEPT_DEPTH], found.scope, found.in_error_region,
                         normalizer.digest(anchor), anchor.start_byte)
    left_out.append(descent.left_out)


def _places(source: bytes) -> list[tuple[int, bytes | None]]:
    """Where a handler may be, in source order: (offset of a `catch` keyword followed by `(` or
    `{`, None), or (offset of the `.`/`?.` before `catch(` or `then(`, the method). Byte
    searches: a regex over 13 MB costs ten times more."""
    out: list[tuple[int, bytes | None]] = []
    for word in _WORDS:
        at = source.find(word)
        while at >= 0:
            after = at + len(word)
            while after < len(source) and source[after] in _SPACE:
                after += 1
            follows = source[after:after + 1]
            before = at - 1
            while before >= 0 and source[before] in _SPACE:
                before -= 1
            if before >= 0 and source[before] == 0x2E and follows == b"(":  # `.`
                out.append((before - 1 if before > 0 and source[before - 1] == 0x3F else before, word))
            elif word == b"catch" and follows in (b"(", b"{") and starts_word(source, at):
                out.append((at, None))
            at = source.find(word, after)
    out.sort()
    return out


def _catch_clause(unit: str, descent: Descent, path: list[Node]) -> _Found | None:
    if len(path) < 3 or path[-1].type != "catch" or path[-2].type != "catch_clause":
        return None
    node = path[-2]
    depth = len(path) - 2
    if descent.tries[depth - 1] > MAX_NESTED_TRIES:
        descent.left_out += 1
        return None
    return _Found("catch", node, path[max(0, depth - _ANCHOR_DEPTH):depth][::-1], descent.scope(unit, depth),
                  _in_error(node, descent, depth))


def _promise_handler(unit: str, descent: Descent, path: list[Node], method: bytes) -> _Found | None:
    at = len(path) - 1
    while at > 0 and path[at].type != "member_expression":
        at -= 1
    member, call = path[at], path[at - 1] if at > 0 else None
    if call is None or call.type != "call_expression" or not same(call.child_by_field_name("function"), member):
        return None
    name = member.child_by_field_name("property")
    arguments = call.child_by_field_name("arguments")
    if name is None or name.text != method or arguments is None or arguments.type != "arguments":
        return None
    given = [a for a in arguments.named_children if a.type != "comment"]
    wanted = 1 if method == b"catch" else 2
    if len(given) != wanted:
        return None
    node = without_parentheses(given[-1])
    if node.type not in ("function_expression", "arrow_function", "identifier", "member_expression") \
            or (node.type == "identifier" and node.text == b"undefined"):
        return None
    depth = at  # the call's position: the handler's ancestors are the arguments, the call and the path above
    chain = [arguments, *path[max(0, depth - _ANCHOR_DEPTH):depth][::-1]]
    form: HandlerForm = "promise-catch" if method == b"catch" else "promise-then"
    return _Found(form, node, chain, descent.scope(unit, depth), _in_error(node, descent, depth))


def _in_error(node: Node, descent: Descent, depth: int) -> bool:
    return node.has_error or node.is_missing or descent.errors[depth - 1]


def _param(handler: _Found) -> str | None:
    node = handler.node
    if handler.form == "catch":
        parameter = node.child_by_field_name("parameter")
    elif node.type in ("function_expression", "arrow_function"):
        parameter = node.child_by_field_name("parameter")  # `e => ...`
        if parameter is None:
            parameters = node.child_by_field_name("parameters")
            first = [p for p in parameters.named_children if p.type != "comment"][:1] if parameters else []
            parameter = first[0] if first else None
    else:
        return None
    return text(parameter) if parameter is not None and parameter.type == "identifier" else None


# ---- a handler's body -------------------------------------------------------------------------

#: a branch before its dispositions: (test, statements, whether they leave, `?:` arms thrown or returned)
_Split = tuple[BranchTest | None, list[Node], bool, list[Node]]


@dataclass(slots=True)
class _Walked:
    """What the walk of a handler's body keeps, in source order."""

    nodes: list[Node] = field(default_factory=list)
    #: names bound to the caught value (`const t = e`), the parameter included
    aliases: set[bytes] = field(default_factory=set)
    #: names bound to a new error in the body: name -> the construction
    made: dict[bytes, Node] = field(default_factory=dict)
    #: names bound to a value read from the caught one (`const m = e.message`, `let j = f(e)`)
    derived: set[bytes] = field(default_factory=set)
    #: calls whose value is discarded or returned (`cb(e);`, `return cb(e)`, `x && cb(e)`), by node id
    consumed: set[int] = field(default_factory=set)


class _Body:
    """One handler's body: its branches and their dispositions."""

    def __init__(self, handler: _Found, known: dict[int, tuple[str, int]]) -> None:
        self.handler = handler
        self.known = known
        node = handler.node
        self.statements: list[Node] = []
        self.expression: Node | None = None  # an arrow's expression body
        if handler.form == "catch" or node.type in ("function_expression", "arrow_function"):
            body = node.child_by_field_name("body")
            if body is not None and body.type == "statement_block":
                self.statements = _named(body)
            elif body is not None:
                self.expression = body
        param = _param(handler)
        self.walked = self._walk(param.encode() if param is not None else None)
        #: node ids of the callees that are the bundle's error sink (`report`)
        self.sink: frozenset[int] = frozenset()

    def sink_candidates(self) -> list[tuple[Node, bool]]:
        """The names called, as a statement or returned, with the caught value or something read
        from it, each with whether it is given the caught value itself (the error sink is the
        binding most of those resolve to); and a handler given by name."""
        node = self.handler.node
        if node.type == "identifier":
            return [(node, True)]
        out = []
        for call in self.walked.nodes:
            if call.type != "call_expression" or call.id not in self.walked.consumed or call.id in self.known:
                continue
            callee = call.child_by_field_name("function")
            if callee is None or callee.type != "identifier":
                continue
            arguments = [without_parentheses(a) for a in _named(call.child_by_field_name("arguments"))]
            if any(self._is_caught(a) for a in arguments):
                out.append((callee, True))
            elif any(self._mentions(a) for a in arguments):
                out.append((callee, False))
        return out

    def _walk(self, param: bytes | None) -> _Walked:
        walked = _Walked(aliases={param} if param is not None else set())
        # (node, whether its value is discarded or returned: a call there consumes what it is given)
        stack = [(n, False) for n in self.statements] + ([(self.expression, True)] if self.expression else [])
        while stack:
            node, consumed = stack.pop()
            kind = node.type
            if kind in _BOUNDARIES:
                continue
            if kind in _COLLECTED:
                walked.nodes.append(node)
                if consumed and kind == "call_expression":
                    walked.consumed.add(node.id)
            children = node.named_children
            voided = kind == "unary_expression" and _operator(node) == "void"
            if kind in _PASS_POSITION or voided:
                stack.extend((child, consumed) for child in children)
            elif kind in _STATEMENT_OF_VALUE:
                stack.extend((child, True) for child in children)
            elif kind == "throw_statement" and children and children[0].type == "sequence_expression":
                members = children[0].named_children  # `throw (report(e), e)`: all but the last are discarded
                stack.extend([(m, True) for m in members[:-1]] + [(m, False) for m in members[-1:]])
            elif kind == "binary_expression" and len(children) == 2 and _operator(node) in _SHORT_CIRCUIT:
                stack.extend(((children[0], False), (children[1], consumed)))
            elif kind == "ternary_expression" and len(children) == 3:
                stack.extend(((children[0], False), (children[1], consumed), (children[2], consumed)))
            else:
                stack.extend((child, False) for child in children)
        walked.nodes.sort(key=lambda n: n.start_byte)
        for node in walked.nodes:  # aliases and local errors, in source order
            if node.type != "variable_declarator":
                continue
            name, value = node.child_by_field_name("name"), node.child_by_field_name("value")
            if name is None or value is None or name.type != "identifier":
                continue
            value = without_parentheses(value)
            declared = name.text or b""
            if value.type == "identifier" and value.text in walked.aliases:
                walked.aliases.add(declared)
            elif self._made(value):
                walked.made[declared] = value
            elif _mentions(value, walked.aliases | walked.derived):
                walked.derived.add(declared)
        return walked

    # -- branches

    def branches(self) -> tuple[BranchFacts, ...]:
        if self.handler.node.type in ("identifier", "member_expression"):  # `.catch(f)`: f is called with it
            callee = _short(self.handler.node)
            kind: Disposition = "reject" if self._is_reject(self.handler.node) else (
                "report" if self.handler.node.id in self.sink else "callback")
            return (BranchFacts(None, (DispositionFacts(kind, None, (), callee),)),)
        if self.expression is not None:
            return (BranchFacts(None, self._dispositions([self.expression], [(self.expression, "return")])),)
        return tuple(BranchFacts(test, self._dispositions(parts, values)) for test, parts, values in self._split())

    def _split(self) -> list[tuple[BranchTest | None, list[Node], list[tuple[Node, str]]]]:
        """The body's statements per branch: the first top-level `if` chain, `switch`, or thrown or
        returned `?:` chain (how minifiers write `if (t) throw a; throw b`) that tests the caught
        value splits them; statements before it belong to every branch, statements after it to the
        branches that fall through to them. A `?:` branch's arm is thrown or returned (`values`)."""
        statements = self.statements
        for at, statement in enumerate(statements):
            if statement.type == "if_statement":
                split = self._if_chain(statement)
            elif statement.type == "switch_statement":
                split = self._switch(statement)
            elif statement.type in ("throw_statement", "return_statement"):
                split = self._conditional_chain(statement)
            else:
                continue
            if split is None:
                continue
            before, after = statements[:at], statements[at + 1:]
            return [(test, before + body + (after if not ended else []), [(n, statement.type) for n in arms])
                    for test, body, ended, arms in split]
        return [(None, statements, [])]

    def _conditional_chain(self, statement: Node) -> list[_Split] | None:
        """`throw t1 ? a : t2 ? b : c` (or `return`): one branch per arm."""
        value = _first_named(statement)
        out: list[_Split] = []
        while value is not None:
            value = without_parentheses(value)
            if value.type != "ternary_expression":
                break
            condition = value.child_by_field_name("condition")
            test = self._test(condition) if condition is not None else None
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

    def _if_chain(self, statement: Node) -> list[_Split] | None:
        out: list[_Split] = []
        node: Node | None = statement
        while node is not None:
            condition = node.child_by_field_name("condition")
            test = self._test(condition) if condition is not None else None
            if test is None:
                if not out:
                    return None
                out.append((None, [node], _ends([node]), []))  # an `else if` on something else: the rest
                return out
            consequence = node.child_by_field_name("consequence")
            body = [consequence] if consequence is not None else []
            out.append((test, body, _ends(body), []))
            alternative = node.child_by_field_name("alternative")
            inner = _named(alternative)[:1] if alternative is not None else []
            if not inner:
                out.append((None, [], False, []))
                return out
            if inner[0].type != "if_statement":
                out.append((None, inner, _ends(inner), []))
                return out
            node = inner[0]
        return out

    def _switch(self, statement: Node) -> list[_Split] | None:
        value, body = statement.child_by_field_name("value"), statement.child_by_field_name("body")
        path = self._field(without_parentheses(value)) if value is not None else None
        if path is None or body is None:
            return None
        cases = _named(body)
        out: list[_Split] = []
        has_default = False
        for at, case in enumerate(cases):
            if case.type == "switch_case":
                literal = case.child_by_field_name("value")
                ok, constant = _literal(without_parentheses(literal)) if literal is not None else (False, None)
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

    # -- tests of the caught value

    def _test(self, condition: Node) -> BranchTest | None:
        node = without_parentheses(condition)
        argument = node.child_by_field_name("argument") if node.type == "unary_expression" else None
        if argument is not None and _operator(node) == "!":
            inner = self._test(argument)
            negated = _NEGATED.get(inner.op) if inner is not None else None
            if inner is None or negated is None:
                if inner is not None and inner.op == "falsy":
                    return BranchTest(inner.field, "truthy", None)
                return None
            return BranchTest(inner.field, negated, inner.value)
        if node.type == "binary_expression":
            return self._comparison(node)
        if node.type == "call_expression":
            return self._string_test(node)
        path = self._field(node)
        return BranchTest(path[1], "truthy", None) if path is not None else None

    def _comparison(self, node: Node) -> BranchTest | None:
        operator = node.child_by_field_name("operator")
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        if operator is None or left is None or right is None:
            return None
        left, right = without_parentheses(left), without_parentheses(right)
        if operator.type == "instanceof":
            path = self._field(left)
            return BranchTest(path[1], "instanceof", _short(right)) if path is not None else None
        op = _COMPARISONS.get(operator.type)
        if op is None:
            return None
        path, (ok, value) = self._field(left), _literal(right)
        if path is None:
            path, (ok, value) = self._field(right), _literal(left)
            op = _FLIPPED.get(op, op)
        return BranchTest(path[1], op, value) if path is not None and ok else None

    def _string_test(self, call: Node) -> BranchTest | None:
        callee = call.child_by_field_name("function")
        arguments = _named(call.child_by_field_name("arguments"))
        if callee is None or callee.type != "member_expression" or len(arguments) != 1:
            return None
        method = callee.child_by_field_name("property")
        op = _STRING_TESTS.get(text(method)) if method is not None else None
        target = callee.child_by_field_name("object")
        path = self._field(without_parentheses(target)) if target is not None else None
        ok, value = _literal(without_parentheses(arguments[0]))
        if op is None or path is None or not ok or not isinstance(value, str):
            return None
        return BranchTest(path[1], op, value)

    def _field(self, node: Node) -> tuple[bool, str | None] | None:
        """(True, the property path) when `node` is the caught value (path None) or a chain of
        property reads from it (`e.response.status`), else None."""
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
                ok, key = _literal(without_parentheses(index)) if index is not None else (False, None)
                if not ok or not isinstance(key, str):
                    return None
                parts.append(key)
            elif node.type == "identifier" and node.text in self.walked.aliases:
                return True, ".".join(reversed(parts)) if parts else None
            else:
                return None
            inner = node.child_by_field_name("object")
            if inner is None:
                return None
            node = inner

    # -- dispositions

    def _dispositions(self, parts: list[Node], values: list[tuple[Node, str]]) -> tuple[DispositionFacts, ...]:
        """What the branch made of `parts` does; `values`: expressions it throws or returns
        (`throw_statement`, `return_statement`) besides its own throw and return statements."""
        ranges = [(n.start_byte, n.end_byte) for n in parts]
        starts = [r[0] for r in ranges]
        found: list[DispositionFacts] = []
        leaves = False
        for node in self.walked.nodes:
            at = bisect.bisect_right(starts, node.start_byte) - 1
            if at < 0 or node.end_byte > ranges[at][1]:
                continue
            kind = node.type
            if kind in ("throw_statement", "return_statement", "break_statement"):
                leaves = True
            if kind == "throw_statement":
                found.extend(self._thrown(_thrown_value(node)))
            elif kind == "return_statement":
                found.extend(self._returned(_first_named(node)))
            elif kind == "call_expression":
                found.extend(self._called(node))
            elif kind == "assignment_expression":
                found.extend(self._assigned(node))
        for value, statement in values:
            leaves = True
            found.extend(self._thrown(value) if statement == "throw_statement" else self._returned(value))
        if any(d.kind == "exit" for d in found):
            leaves = True
        if not leaves and self._in_retry_loop():
            found.append(DispositionFacts("retry", None, (), None))
        return _merged(found) or (DispositionFacts("swallow", None, (), None),)

    def _thrown(self, value: Node | None) -> list[DispositionFacts]:
        if value is None:
            return [DispositionFacts("wrap", "lost", (), None)]
        value = without_parentheses(value)
        if value.type == "ternary_expression":
            return self._arms(value, self._thrown)
        if self._is_caught(value):
            return [DispositionFacts("rethrow", None, (), None)]
        if _is_object_assign(value):
            target = _first_named(value.child_by_field_name("arguments"))
            if target is not None and self._is_caught(without_parentheses(target)):
                return [DispositionFacts("rethrow", None, (), None)]
        return [self._wrap(value)]

    @staticmethod
    def _arms(value: Node, classify: Callable[[Node | None], list[DispositionFacts]]) -> list[DispositionFacts]:
        """Both arms of a thrown or returned `?:`."""
        consequence, alternative = value.child_by_field_name("consequence"), value.child_by_field_name("alternative")
        return classify(consequence) + classify(alternative)

    def _wrap(self, value: Node) -> DispositionFacts:
        """A new error thrown, returned or rejected; its cause from what it is given."""
        local = value.text or b""
        made = self.walked.made.get(local) if value.type == "identifier" else None
        construction = made if made is not None else value
        if _is_object_assign(construction):
            construction = without_parentheses(_first_named(construction.child_by_field_name("arguments"))
                                               or construction)
        cause = self._cause(construction)
        if made is not None:
            cause = _best(cause, self._cause_assigned(local))
        entry = self.known.get(construction.id)
        sites = (entry[1],) if entry is not None and entry[0] == "error" else ()
        slot = "constructor" if construction.type == "new_expression" else "function"
        callee = construction.child_by_field_name(slot)
        return DispositionFacts("wrap", cause, sites, _short(callee) if callee is not None else None)

    def _cause(self, construction: Node) -> CauseKept:
        """`kept` when the caught value is an argument or a field of an object argument
        (`{cause: e}`), `partial` when it occurs otherwise (`e.message`, `${e}`), else `lost`."""
        if construction.type in ("new_expression", "call_expression"):
            arguments = _named(construction.child_by_field_name("arguments"))
        else:
            arguments = [construction]
        for argument in arguments:
            argument = without_parentheses(argument)
            if self._is_caught(argument):
                return "kept"
            if argument.type == "object":
                for member in _named(argument):
                    value = member.child_by_field_name("value") if member.type == "pair" else member
                    if value is not None and member.type in ("pair", "shorthand_property_identifier") \
                            and value.text in self.walked.aliases:
                        return "kept"
        return "partial" if any(self._mentions(a) for a in arguments) else "lost"

    def _cause_assigned(self, name: bytes) -> CauseKept:
        """What `n.field = ...` assignments in the body carry of the caught value into the local error n."""
        out: CauseKept = "lost"
        for node in self.walked.nodes:
            if node.type != "assignment_expression":
                continue
            left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
            is_field = left is not None and left.type == "member_expression"
            target = left.child_by_field_name("object") if is_field and left is not None else None
            if target is None or right is None or target.text != name:
                continue
            right = without_parentheses(right)
            out = _best(out, "kept" if self._is_caught(right) else "partial" if self._mentions(right) else "lost")
        return out

    def _returned(self, value: Node | None) -> list[DispositionFacts]:
        if value is None:
            return [DispositionFacts("return-value", None, (), None)]
        value = without_parentheses(value)
        if value.type == "ternary_expression":
            return self._arms(value, self._returned)
        while value.type in ("await_expression", "sequence_expression"):
            inner = _last_named(value)
            if inner is None:
                break
            value = without_parentheses(inner)
        if self._is_caught(value):
            return [DispositionFacts("return-error", None, (), None)]
        if self._made(value) or (value.type == "identifier" and value.text in self.walked.made):
            return [self._wrap(value)]
        if value.type == "call_expression" and self._called(value):
            return []  # the call is a disposition of its own, counted where the walk meets it
        return [DispositionFacts("return-value", None, (), None)]

    def _called(self, call: Node) -> list[DispositionFacts]:
        entry = self.known.get(call.id)
        if entry is not None:
            return [DispositionFacts("log", None, (entry[1],), None)] if entry[0] == "diagnostic" else []
        callee = call.child_by_field_name("function")
        if callee is None:
            return []
        if callee.text == b"process.exit":
            return [DispositionFacts("exit", None, (), None)]
        if call.id not in self.walked.consumed:  # a call computing a value (`String(e)` in a message)
            return []
        arguments = _named(call.child_by_field_name("arguments"))
        first = without_parentheses(arguments[0]) if arguments else None
        if callee.type == "member_expression":
            owner, method = callee.child_by_field_name("object"), callee.child_by_field_name("property")
            if owner is not None and owner.text == b"console" and method is not None:
                return [DispositionFacts("log", None, (), _short(callee))]
            if callee.text == b"Promise.reject":
                return self._rejected(first, "Promise.reject")
            if method is not None and method.text == b"push" and first is not None and self._is_caught(first):
                return [DispositionFacts("store", None, (), None)]
        elif callee.type == "identifier" and first is not None and (
                self._is_caught(first) or self._made(first)) and self._is_reject(callee):
            return self._rejected(first, text(callee))
        written = callee.text or b""
        if written in _READERS or (callee.type == "member_expression" and written.startswith(b"Object.")):
            return []
        if callee.id in self.sink:
            return [DispositionFacts("report", None, (), _short(callee))]
        if any(self._mentions(a) for a in arguments):
            return [DispositionFacts("callback", None, (), _short(callee))]
        return []

    def _rejected(self, value: Node | None, callee: str) -> list[DispositionFacts]:
        if value is None or self._is_caught(value):
            return [DispositionFacts("reject", None, (), callee)]
        if self._made(value) or (value.type == "identifier" and value.text in self.walked.made):
            return [self._wrap(value)]
        return [DispositionFacts("reject", None, (), callee)]

    def _assigned(self, node: Node) -> list[DispositionFacts]:
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        if left is None or right is None or not self._is_caught(without_parentheses(right)):
            return []
        if left.type == "identifier" and left.text in self.walked.aliases:
            return []
        return [DispositionFacts("store", None, (), None)]

    # -- small facts

    def _is_caught(self, node: Node) -> bool:
        return node.type == "identifier" and node.text in self.walked.aliases

    def _mentions(self, node: Node) -> bool:
        """Whether the caught value, or a name bound to what was read from it, is read in `node`."""
        return _mentions(node, self.walked.aliases | self.walked.derived)

    def _made(self, value: Node) -> bool:
        """A new error: `new X(...)`, or an error callsite of the inventory."""
        if value.type == "new_expression":
            return True
        entry = self.known.get(value.id)
        return entry is not None and entry[0] == "error"

    def _is_reject(self, callee: Node) -> bool:
        """Whether the name is the second parameter of the nearest enclosing function declaring it,
        and that function is the executor of `new Promise(...)`."""
        if callee.type != "identifier":
            return False
        chain = self.handler.chain
        for at, node in enumerate(chain):
            if node.type not in FUNCTION_TYPES:
                continue
            names = _parameter_names(node)
            if callee.text not in names:
                continue
            if names.index(callee.text) != 1 or at + 2 >= len(chain):
                return False
            holder, made = chain[at + 1], chain[at + 2]
            constructor = made.child_by_field_name("constructor") if made.type == "new_expression" else None
            return (holder.type == "arguments" and same(_first_named(holder), node) and constructor is not None
                    and constructor.text == b"Promise")
        return False

    def _in_retry_loop(self) -> bool:
        """A catch clause whose try statement is the body of a `while`, `do` or `for(;;)` loop, or
        a statement of it, and whose protected block leaves the loop when it succeeds (a
        `return`, or a `break` of that loop): the loop runs again only after a failure. A loop
        whose protected block never leaves it walks items (`for (...; i < n; i++) try { f(a[i]) }
        catch {}`): each failure skips an item, it does not retry it."""
        if self.handler.form != "catch":
            return False
        chain = self.handler.chain
        if len(chain) < 2:
            return False
        statement, holder = chain[0], chain[1]
        if holder.type == "statement_block" and len(chain) > 2:
            statement, holder = holder, chain[2]
        if holder.type not in _RETRY_LOOPS or not same(holder.child_by_field_name("body"), statement):
            return False
        protected = chain[0].child_by_field_name("body")
        return protected is not None and _leaves_loop(protected) and not _walks_items(holder)


# ---- helpers -------------------------------------------------------------------------------------

def _leaves_loop(block: Node) -> bool:
    """Whether a `return`, or a `break` not inside a nested loop or switch, is in the block
    (nested functions left out)."""
    stack = [(block, False)]
    while stack:
        node, nested = stack.pop()
        kind = node.type
        if kind == "return_statement" or (kind == "break_statement" and not nested):
            return True
        if kind in _BOUNDARIES and kind != "catch_clause":
            continue
        inner = nested or kind in _BREAK_TARGETS
        stack.extend((child, inner) for child in node.named_children)
    return False


def _walks_items(loop: Node) -> bool:
    """Whether a loop steps through items rather than attempts: its condition assigns or reads a
    `.length` or calls `.pop()`/`.shift()`/`.next()` (`while (x = stack.pop())`), or a `for`
    loop's variable indexes something in its body (`a[i]`)."""
    condition = loop.child_by_field_name("condition")
    stack = [condition] if condition is not None else []
    while stack:
        node = stack.pop()
        if node.type in ("assignment_expression", "augmented_assignment_expression"):
            return True
        if node.type == "member_expression" and (node.child_by_field_name("property") or node).text in _STEPPING:
            return True
        stack.extend(node.named_children)
    if loop.type != "for_statement":
        return False
    names: set[bytes] = set()
    for part in _named(loop.child_by_field_name("initializer")):  # `let i = 0, n = 3` or `i = 0`
        for member in [part, *_named(part)]:
            name = member.child_by_field_name("name" if member.type == "variable_declarator" else "left")
            if member.type in ("variable_declarator", "assignment_expression") and name is not None:
                names.add(name.text or b"")
    body = loop.child_by_field_name("body")
    stack = [body] if body is not None else []
    while stack:
        node = stack.pop()
        if node.type == "subscript_expression":
            index = node.child_by_field_name("index")
            if index is not None and _mentions(index, names):
                return True
        stack.extend(node.named_children)
    return False


def _operator(node: Node) -> str | None:
    operator = node.child_by_field_name("operator")
    return operator.type if operator is not None else None


def _mentions(node: Node, names: set[bytes]) -> bool:
    """Whether one of `names` is read in `node` (`queueMicrotask(() => cb(e))` passes it on),
    within its first _MENTION_NODES nodes and outside nested catch clauses (their own handlers):
    nested handlers would otherwise each walk all the ones inside them."""
    if not names:
        return False
    stack = [node]
    visited = 0
    while stack and visited < _MENTION_NODES:
        current = stack.pop()
        visited += 1
        if current.type == "identifier" and current.text in names:
            return True
        if current.type != "catch_clause":
            stack.extend(current.named_children)
    return False


def _case_statements(cases: list[Node]) -> tuple[list[Node], bool]:
    """A switch case's statements, through the cases it falls into, without the `break` that ends
    them; True when they leave (return, throw, continue) rather than reach what follows the switch."""
    statements: list[Node] = []
    for case in cases:
        body = [n for n in _named(case) if not same(n, case.child_by_field_name("value"))]
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
        return _ends(_named(last))
    return last.type in _LEAVING


def _merged(found: list[DispositionFacts]) -> tuple[DispositionFacts, ...]:
    """One disposition per (kind, cause), their callsites together, in the vocabulary's order."""
    merged: dict[tuple[str, str | None], DispositionFacts] = {}
    for item in found:
        key = (item.kind, item.cause)
        known = merged.get(key)
        if known is None:
            merged[key] = item
        else:
            merged[key] = DispositionFacts(item.kind, item.cause, tuple(sorted(set(known.sites + item.sites))),
                                           known.callee)
    return tuple(sorted(merged.values(), key=lambda d: (_ORDER[d.kind], _CAUSES[d.cause])))


def _best(a: CauseKept, b: CauseKept) -> CauseKept:
    return a if _CAUSES[a] <= _CAUSES[b] else b


def _literal(node: Node) -> tuple[bool, str | int | float | bool | None]:
    """(True, the value) of a string without escapes, a number, true, false or null."""
    kind = node.type
    raw = node.text or b""
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


def _thrown_value(throw: Node) -> Node | None:
    """What a throw statement throws, past parentheses and a sequence's earlier members."""
    value = _first_named(throw)
    while value is not None:
        value = without_parentheses(value)
        if value.type != "sequence_expression":
            return value
        value = _last_named(value)
    return None


def _parameter_names(function: Node) -> list[bytes]:
    single = function.child_by_field_name("parameter")
    if single is not None:
        return [single.text or b""]
    parameters = function.child_by_field_name("parameters")
    return [p.text or b"" if p.type == "identifier" else b"" for p in _named(parameters)]


def _named(node: Node | None) -> list[Node]:
    return [c for c in node.named_children if c.type != "comment"] if node is not None else []


def _first_named(node: Node | None) -> Node | None:
    named = _named(node)
    return named[0] if named else None


def _last_named(node: Node | None) -> Node | None:
    named = _named(node)
    return named[-1] if named else None


def _short(node: Node) -> str:
    written = text(node)
    return written if len(written) <= _TEXT_LIMIT else written[:_TEXT_LIMIT] + "…"
