"""Finding a unit's handlers without a pass over the whole tree: a byte search finds the few
places that can be a handler, one descent per place (sharing the ancestors of the previous one)
checks it, and each handler's own body is walked (`body`), stopping at nested functions and
nested catch clauses: every node of a unit is walked for at most one handler."""

from __future__ import annotations

import bisect
from collections.abc import Callable, Iterable, Sequence

from tree_sitter import Node, Tree

from analyzer.facts import BranchFacts, HandlerFacts
from analyzer.identity import IdentityInput
from analyzer.javascript.handlers.body import Found, param_name
from analyzer.javascript.handlers.dispositions import HandlerBody
from analyzer.javascript.normalize import Normalizer, Siblings, anchor_of
from analyzer.javascript.scopes import function_kind, function_name, is_bun_cjs_wrapper
from analyzer.javascript.sink import detect_sink
from analyzer.javascript.syntax import CLASS_TYPES, FUNCTION_TYPES, same, starts_word, without_parentheses
from analyzer.model import HandlerForm, Scope

#: the words a handler is found by: the `catch` keyword, the `.catch(` and `.then(` of a call
_WORDS = (b"catch", b"then")
_SPACE = b" \t\r\n\f\v"
#: named children above which a node's children are indexed by start (a program of 10,000 statements)
_WIDE = 64
#: ancestors handed to `anchor_of`: a node this far above has more than ANCHOR_LIMIT nodes
_ANCHOR_DEPTH = 1100
#: a catch clause inside more try statements than this is counted, not recorded: each record is
#: about 1 KB, and 100,000 nested `try` (1.4 MB of source) would write 100 MB past the memory bound
MAX_NESTED_TRIES = 256
#: ancestors kept once a handler is found: where its loop (retry) and the executor declaring a
#: `reject` parameter are looked for
_KEPT_DEPTH = 16


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
    waiting: list[tuple[Found, HandlerBody | None, tuple[BranchFacts, ...]]] = []
    candidates: list[tuple[Node, bool]] = []
    left_out: list[int] = []
    for handler in _handlers_on(unit, tree, normalizer, left_out):
        body = HandlerBody(handler, known)
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
            form=handler.form, param=param_name(handler), scope=handler.scope, branches=branches,
            in_error_region=handler.in_error_region,
            identity=IdentityInput(kind="handler", role=handler.form, comparison_key="", consumer_role="",
                                   anchor=handler.anchor, anchor_slot=(unit, handler.anchor_start),
                                   order=(unit, offset)),
        ))
    return out, sink.evidence, sum(left_out)


def _handlers_on(unit: str, tree: Tree, normalizer: Normalizer, left_out: list[int]) -> Iterable[Found]:
    """The handlers found, in source order; `left_out` gets the count of those not recorded."""
    descent = Descent(tree.root_node, normalizer.spend)
    siblings = _WideSiblings()
    for start, method in _places(normalizer.source):
        path = descent.to(start)
        found = _catch_clause(unit, descent, path) if method is None else _promise_handler(unit, descent, path, method)
        if found is not None:
            anchor = anchor_of(found.node, found.chain, siblings=siblings)
            yield Found(found.form, found.node, found.chain[:_KEPT_DEPTH], found.scope, found.in_error_region,
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


def _catch_clause(unit: str, descent: Descent, path: list[Node]) -> Found | None:
    if len(path) < 3 or path[-1].type != "catch" or path[-2].type != "catch_clause":
        return None
    node = path[-2]
    depth = len(path) - 2
    if descent.tries[depth - 1] > MAX_NESTED_TRIES:
        descent.left_out += 1
        return None
    return Found("catch", node, path[max(0, depth - _ANCHOR_DEPTH):depth][::-1], descent.scope(unit, depth),
                  _in_error(node, descent, depth))


def _promise_handler(unit: str, descent: Descent, path: list[Node], method: bytes) -> Found | None:
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
    return Found(form, node, chain, descent.scope(unit, depth), _in_error(node, descent, depth))


def _in_error(node: Node, descent: Descent, depth: int) -> bool:
    return node.has_error or node.is_missing or descent.errors[depth - 1]


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
