"""Finding a unit's handlers without a pass over the whole tree: a byte search finds the few
places that can be a handler, one descent per place (sharing the ancestors of the previous one)
checks it, and each handler's own body is read (`body`: one query for what it keeps, a walk of its
statements for what it discards or returns), stopping at nested functions and nested catch
clauses: every node of a unit is read for at most one handler."""

from __future__ import annotations

import bisect
import heapq
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from tree_sitter import Node

from analyzer.facts import BranchFacts, HandlerFacts, SinkEvidence
from analyzer.identity import IdentityInput
from analyzer.javascript.handlers.body import Found, param_name
from analyzer.javascript.handlers.compiled import compiled_catches, sink_calls_on, span_of, written_param
from analyzer.javascript.handlers.dispositions import HandlerBody
from analyzer.javascript.handlers.places import places
from analyzer.javascript.handlers.shapes import functions_beyond
from analyzer.javascript.normalize import ANCHOR_LIMIT, Anchor, Normalizer, Siblings, Window, anchor_of
from analyzer.javascript.scopes import function_kind, function_name, is_bun_cjs_wrapper
from analyzer.javascript.sink import CalleeRow, SinkChoice, SinkRows, slice_sink, unit_sink
from analyzer.javascript.syntax import (
    CLASS_TYPES,
    FUNCTION_TYPES,
    LANGUAGE,
    same,
    spaced,
    symbols_of,
    without_parentheses,
)
from analyzer.model import HandlerForm, Scope, made

if TYPE_CHECKING:  # unit_tree imports the module finders, which import this package
    from analyzer.javascript.unit_tree import UnitTree

#: named children above which a node's children are indexed by start (a program of 10,000 statements)
_WIDE = 64
#: children above which the descent indexes a node's children by start instead of letting the cursor
#: step over them in C (a program of 40,000 statements, met by thousands of descents)
_INDEXED = 4096
#: ancestors handed to `anchor_of`: a node this far above has more than ANCHOR_LIMIT nodes
_ANCHOR_DEPTH = 1100
#: a catch clause inside more try statements than this is counted, not recorded: each record is
#: about 1 KB, and 100,000 nested `try` (1.4 MB of source) would write 100 MB past the memory bound
MAX_NESTED_TRIES = 256
#: ancestors kept once a handler is found: where its loop (retry) and the executor declaring a
#: `reject` parameter are looked for
_KEPT_DEPTH = 16


def find_handlers(
    unit: str, part: UnitTree, sites: Sequence[tuple[Node, str]],
    positions: Callable[[list[int]], dict[int, tuple[int, int]]],
) -> tuple[list[HandlerFacts], SinkEvidence, int, list[Node]]:
    """Every handler of the unit's tree `part` with its branches, in source order, the evidence of
    its error sink (`javascript/sink.py`), the count of catch clauses too deeply nested to record,
    and the protected blocks of the catch clauses recorded (what `sources` searches for calls).
    `sites`: the tree's callsites as (node, kind); `positions`: (line, column) of sorted offsets.
    The whole tree as the one part of `unit_handlers`."""
    found = tree_handlers(unit, part, sites)
    sink = unit_sink(unit, part.normalizer.source, [found.sink])
    return unit_handlers(unit, [found], sink, positions), sink.evidence, found.left_out, found.blocks


#: a slice handler's branches per choice the merge makes (docs/slices.md, 12b): per set of the
#: sites inside it, as `known` holds them ((start, end), (kind, offset)), its candidate callees
#: of the sink and its branches per set of sink calls among them
Variants = dict[frozenset[tuple[tuple[int, int], tuple[str, int]]],
                tuple[tuple[CalleeRow, ...], dict[frozenset[tuple[int, int]], tuple[BranchFacts, ...]]]]
#: a handler as its tree hands it on: offset, end, form, parameter, scope, in an error region, its
#: anchor's digest and start, lone rethrow; its body while it waits for the sink (a whole tree's), its
#: branches, and for a slice's handler its `Variants`
Handler = tuple[int, int, HandlerForm, str | None, Scope, bool, bytes, int, bool, HandlerBody | None,
                tuple[BranchFacts, ...], Variants | None]


@dataclass(slots=True)
class TreeHandlers:
    """One tree's handlers (docs/slices.md, "Step 7 as built"): node-free for a slice, but for
    `blocks`, which that tree's `sources.slice_sources` reads before it is freed."""

    handlers: list[Handler]
    #: the candidate callees of the sink with their bindings (a slice's: of every variant)
    sink: SinkRows
    #: catch clauses too deeply nested to record
    left_out: int
    #: the protected blocks of the catch clauses recorded
    blocks: list[Node]
    #: why a slice's handlers are not the whole tree's (a module-level anchor over a cut), or None
    inexact: str | None = None
    #: a slice's node visits as the whole tree's work bound counts them: its handlers' scope
    #: entries, and the anchor nodes it digested, (start, end, type) -> node count
    scopes: int = 0
    digested: dict[tuple[int, int, str], int] = field(default_factory=dict)


def tree_handlers(unit: str, part: UnitTree, sites: Sequence[tuple[Node, str]]) -> TreeHandlers:
    """The per-tree half of a whole tree (a slice's: `slices.slice_handlers`): the bodies that
    call a name that may be the sink wait for it."""
    source = part.normalizer.source
    # by (start, end), not node id, so that it can cross trees (docs/slices.md, "Node ids"): no
    # two sites share both, and no node looked up shares them with a site it is not
    known = {(node.start_byte, node.end_byte): (kind, node.start_byte) for node, kind in sites}
    # a handler's branches are made at once unless it calls a name that may be the sink: only
    # those bodies wait for the sink (100,000 waiting bodies would hold 300 MB)
    waiting: list[Handler] = []
    candidates: list[tuple[Node, bool]] = []
    left_out: list[int] = []
    blocks: list[Node] = []
    for handler in with_compiled(handlers_on(unit, part, left_out), unit, part):
        if handler.form == "catch":
            block = protected_block(handler)
            if block is not None:
                blocks.append(block)
        param = param_name(handler)
        body = HandlerBody(handler, known, param)
        called = sink_calls_on(handler, body.sink_candidates(), part.root)
        rethrow = body.lone_rethrow()
        (start, end), param = span_of(handler), written_param(handler, param)
        if called:
            candidates.extend(called)
            waiting.append((start, end, handler.form, param, handler.scope,
                            handler.in_error_region, handler.anchor, handler.anchor_start, rethrow, body, (), None))
        else:
            branches = body.branches()
            handler.chain.clear()  # its ancestors are no longer needed: let them go
            waiting.append((start, end, handler.form, param, handler.scope,
                            handler.in_error_region, handler.anchor, handler.anchor_start, rethrow, None, branches,
                            None))
    sink = slice_sink(part.tree, source, candidates)
    return TreeHandlers(waiting, sink, sum(left_out), blocks)


def unit_handlers(
    unit: str, parts: Sequence[TreeHandlers], sink: SinkChoice,
    positions: Callable[[list[int]], dict[int, tuple[int, int]]],
) -> list[HandlerFacts]:
    """The merge: every tree's handlers in order, each waiting body's branches under the unit's
    sink (a slice's `settle`d first)."""
    where = positions(sorted({h[0] for part in parts for h in part.handlers}))
    out = []
    calls = sink.calls
    for part in parts:
        for offset, end, form, param, scope, in_error, anchor, anchor_start, rethrow, pending, branches, variants \
                in part.handlers:
            if pending is not None:
                pending.sink = calls
                branches = pending.branches()
            elif variants is not None:
                if len(variants) != 1:
                    raise ValueError("a slice's handlers are settled before they are merged")
                by_sink = next(iter(variants.values()))[1]
                branches = by_sink[frozenset(call for call in set().union(*by_sink) if call in calls)]
            identity = _IDENTITY("handler", form, "", "", anchor, (unit, anchor_start), (unit, offset))
            out.append(_FACTS(offset, end, where[offset][0], where[offset][1], form, param, scope, branches, in_error,
                              identity, None, rethrow))
    return out


#: the records each handler makes, by `model.made` (its fields in order, a third of a frozen `__init__`'s cost)
_IDENTITY, _FACTS, _FOUND = made(IdentityInput), made(HandlerFacts), made(Found)


class Clause(Protocol):
    """Where a handler is and its form: a record, or a slice's row (`protected_blocks`)."""

    @property
    def offset(self) -> int: ...
    @property
    def end_offset(self) -> int: ...
    @property
    def form(self) -> str: ...


def protected_blocks(root: Node, handlers: Iterable[Clause]) -> list[Node]:
    """The protected blocks of the catch clauses among `handlers`, looked up in the tree of
    `root` by their spans (what `tree_handlers` hands back for the tree it reads)."""
    out = []
    for handler in handlers:
        if handler.form != "catch":
            continue
        node: Node | None = root.descendant_for_byte_range(handler.offset, handler.end_offset)
        while node is not None and not (node.type == "catch_clause" and node.start_byte == handler.offset
                                        and node.end_byte == handler.end_offset):
            node = node.parent
        statement = node.parent if node is not None else None
        block = statement.child_by_field_name("body") if statement is not None \
            and statement.type == "try_statement" else None
        if block is not None:
            out.append(block)
    return out


def protected_block(handler: Found) -> Node | None:
    """The block a catch clause's try statement protects (its first ancestor is the statement)."""
    statement = handler.chain[0] if handler.chain else None
    if statement is None or statement.type != "try_statement":
        return None
    return statement.child_by_field_name("body")


def handlers_on(unit: str, part: UnitTree, left_out: list[int], cut: tuple[bool, bool] = (False, False),
                 inexact: list[str] | None = None, normalizer: Normalizer | None = None) -> Iterable[Found]:
    """The handlers found, in source order; `left_out` gets the count of those not recorded. In a
    slice, `inexact` gets why a module-level anchor may not be the whole tree's (`cut`: whether
    slices lie before and after this one). `normalizer`: what digests the anchors and counts
    the scope entries (default: the tree's)."""
    normalizer = part.normalizer if normalizer is None else normalizer
    descent = Descent(part.root, normalizer.spend, part.head)
    siblings = _WideSiblings()
    root, list_type = part.root, part.list_type
    for start, method in places(spaced(normalizer.source), root.start_byte, root.end_byte):
        path = descent.to(start)
        found = _catch_clause(unit, descent, path) if method is None else _promise_handler(unit, descent, path, method)
        if found is not None:
            form, node, chain, scope, in_error = found
            anchor = anchor_of(node, chain, siblings=siblings, root=root, list_type=list_type)
            if inexact is not None and not inexact:
                why = _over_cut(anchor, root, siblings, cut, list_type)
                if why is not None:
                    inexact.append(f"a module-level handler at {node.start_byte}: {why}")
            yield _FOUND(form, node, chain[:_KEPT_DEPTH], scope, in_error, normalizer.digest(anchor), anchor.start_byte,
                         functions_beyond(chain, _KEPT_DEPTH))
    left_out.append(descent.left_out)


def with_compiled(found: Iterable[Found], unit: str, part: UnitTree, normalizer: Normalizer | None = None
                  ) -> Iterable[Found]:
    """`found`, a tree's handlers in source order, with its catch clauses compiled to state machines
    among them (`compiled`)."""
    normalizer = part.normalizer if normalizer is None else normalizer
    compiled = compiled_catches(unit, part, normalizer, Descent(part.root, normalizer.spend, part.head))
    return heapq.merge(found, compiled, key=lambda h: span_of(h)[0]) if compiled else found


def _over_cut(anchor: Anchor, root: Node, siblings: Siblings, cut: tuple[bool, bool],
              list_type: str | None) -> str | None:
    """Why a slice's anchor that is a window over its root (a handler at L's own level) may not
    be the whole tree's (docs/slices.md, step 8): it reaches a cut, or L is small enough for
    the whole tree to anchor it on Bun's wrapper. None for any other anchor."""
    if isinstance(anchor, Window):
        if anchor.parent is not root:
            return None
        members = anchor.members
    elif anchor.type in _ANCHOR_STOPS or anchor.parent != root:
        return None
    else:
        members = [anchor]
    if list_type != "program" and root.descendant_count <= ANCHOR_LIMIT:
        return "L may be small enough to anchor it on its function"
    nodes, starts, _ = siblings.of(root)
    first = bisect.bisect_left(starts, members[0].start_byte)
    last = bisect.bisect_left(starts, members[-1].start_byte)
    if (cut[0] and first == 0) or (cut[1] and last == len(nodes) - 1):
        return "its window over L reaches a cut"
    return None


#: a handler as the descent finds it: form, node, ancestors (innermost first), scope, in an error region
_Place = tuple[HandlerForm, Node, list[Node], Scope, bool]


def _catch_clause(unit: str, descent: Descent, path: list[Node]) -> _Place | None:
    if len(path) < 3 or path[-1].type != "catch" or path[-2].type != "catch_clause":
        return None
    node = path[-2]
    depth = len(path) - 2
    if descent.tries_above(depth) > MAX_NESTED_TRIES:
        descent.left_out += 1
        return None
    return ("catch", node, descent.chain(depth), descent.scope(unit, depth), _in_error(node, descent, depth))


def _promise_handler(unit: str, descent: Descent, path: list[Node], method: bytes) -> _Place | None:
    at = len(path) - 1
    while at > 0 and path[at].type not in ("member_expression", "subscript_expression"):
        at -= 1
    member, call = path[at], path[at - 1] if at > 0 else None
    if call is None or call.type != "call_expression" or not same(call.child_by_field_name("function"), member):
        return None
    if member.type == "member_expression":
        name = member.child_by_field_name("property")
        named_so = name is not None and name.text == method
    else:  # `p["catch"](f)`, as Babel writes a reserved word's member for old engines
        name = member.child_by_field_name("index")
        named_so = name is not None and name.type == "string" and (name.text or b"")[1:-1] == method
    arguments = call.child_by_field_name("arguments")
    if not named_so or arguments is None or arguments.type != "arguments":
        return None
    given = [a for a in arguments.named_children if a.type != "comment"]
    wanted = 1 if method == b"catch" else 2
    if len(given) != wanted or any(a.type == "spread_element" for a in given):  # `then(...a, f)`: f's place unknown
        return None
    node = without_parentheses(given[-1])
    if node.type not in ("function_expression", "arrow_function", "identifier", "member_expression") \
            or (node.type == "identifier" and node.text == b"undefined"):
        return None
    depth = at  # the call's position: the handler's ancestors are the arguments, the call and the path above
    chain = [arguments, *descent.chain(depth)]
    form: HandlerForm = "promise-catch" if method == b"catch" else "promise-then"
    return form, node, chain, descent.scope(unit, depth), _in_error(node, descent, depth)


def _in_error(node: Node, descent: Descent, depth: int) -> bool:
    return node.has_error or node.is_missing or descent.error_above(depth)


class Descent:
    """The ancestors of the nodes at increasing offsets, from one descent each that starts where the
    previous one's path still holds the offset; wide nodes' children are indexed once. The scopes
    on the path and whether an ERROR node lies at or above each node are kept as it changes, so
    that a handler 100,000 levels deep costs its own scopes, not its depth.

    `head`: the head chain above a slice's root, innermost first (`unit_tree.UnitTree`): its
    scopes are the outermost entries, its try statements are counted, and the ancestors handed
    out continue into it. One descent per tree: its wide nodes' index is keyed by node id."""

    def __init__(self, root: Node, spend: Callable[[int], None], head: Sequence[Node] = ()) -> None:
        #: counts work against the unit's bound: a scope path is as long as the functions around it
        self.spend = spend
        self.path: list[Node] = [root]
        self.head = tuple(head)
        #: the scopes on the path, outermost first: (its position in the path, `kind:name@offset`,
        #: name, kind, whether it is a class), as scopes.scope_of names them; the head chain's
        #: are at position -1, above the root, and never leave
        self.scopes: list[tuple[int, str, str, str, bool]] = []
        for at in range(len(self.head) - 1, -1, -1):
            node = self.head[at]
            if node.kind_id in _SCOPE_SYMBOLS:
                entry = _scope_entry(node, list(self.head[at + 1:at + 5]))
                if entry is not None:
                    self.scopes.append((-1, f"{entry[1]}:{entry[0]}@{node.start_byte}", entry[0], entry[1],
                                        node.type in CLASS_TYPES))
        #: the head chain's try statements
        self._head_tries = sum(1 for node in self.head if node.kind_id in _TRY_SYMBOLS)
        #: the position in the path of its first ERROR node (len(path) or more: none)
        self._error_at = 0 if root.type == "ERROR" else _NONE
        #: the positions in the path of its try statements, in order
        self._tries: list[int] = []
        #: catch clauses past MAX_NESTED_TRIES, not recorded
        self.left_out = 0
        self._wide: dict[int, tuple[list[int], list[Node]]] = {}
        self._cursor = root.walk()
        #: the last scope made for each count of entries, with the innermost entry it was made from
        self._made: dict[int, tuple[tuple[int, str, str, str, bool] | None, Scope]] = {}

    def to(self, offset: int) -> list[Node]:
        """The path from the root to the smallest node holding `offset` (the list is reused: copy
        what must outlive the next call). Offsets come in increasing order: every node on the
        path starts at or before the previous offset, so only its end is compared."""
        path, scopes, tries = self.path, self.scopes, self._tries
        depth = len(path)
        while depth > 1 and path[depth - 1].end_byte <= offset:
            depth -= 1
        if depth < len(path):
            del path[depth:]
            while scopes and scopes[-1][0] >= depth:
                scopes.pop()
            while tries and tries[-1] >= depth:
                tries.pop()
            if self._error_at >= depth:
                self._error_at = _NONE
        cursor, wide, special = self._cursor, _INDEXED, _SPECIAL_SYMBOLS
        node = path[-1]
        cursor.reset(node)
        while True:
            if node.child_count > wide:
                child = self._wide_child(node, offset)
                if child is None:
                    return path
                cursor.reset(child)
            else:  # the cursor finds the child in C; `node.children` would make every child
                if cursor.goto_first_child_for_byte(offset) is None:
                    return path
                child = cursor.node
                if child is None or not child.start_byte <= offset < child.end_byte:
                    cursor.goto_parent()
                    return path
            symbol = child.kind_id  # an int: no string made for each step
            if symbol in special:
                if symbol in _SCOPE_SYMBOLS:
                    above = path[-1:-5:-1]
                    if len(above) < 4 and self.head:  # near a slice's root: its nearest ancestors go on above it
                        above.extend(self.head[:4 - len(above)])
                    entry = _scope_entry(child, above)
                    if entry is not None:
                        name, scope_kind = entry
                        scopes.append((len(path), f"{scope_kind}:{name}@{child.start_byte}", name, scope_kind,
                                       child.type in CLASS_TYPES))
                elif symbol in _TRY_SYMBOLS:
                    tries.append(len(path))
                elif self._error_at == _NONE:
                    self._error_at = len(path)
            path.append(child)
            node = child

    def error_above(self, depth: int) -> bool:
        """Whether an ERROR node is among the path's first `depth` nodes."""
        return self._error_at < depth

    def tries_above(self, depth: int) -> int:
        """The try statements among the path's first `depth` nodes."""
        return bisect.bisect_left(self._tries, depth) + self._head_tries

    def chain(self, depth: int) -> list[Node]:
        """The ancestors of a node whose ancestors are the path's first `depth` nodes, innermost
        first, at most _ANCHOR_DEPTH of them: the path's, then the head chain's."""
        chain = self.path[max(0, depth - _ANCHOR_DEPTH):depth][::-1]
        if self.head and depth < _ANCHOR_DEPTH:
            chain.extend(self.head[:_ANCHOR_DEPTH - depth])
        return chain

    def _wide_child(self, node: Node, offset: int) -> Node | None:
        indexed = self._wide.get(node.id)
        if indexed is None:
            children = node.children
            indexed = self._wide[node.id] = ([c.start_byte for c in children], children)
        at = bisect.bisect_right(indexed[0], offset) - 1
        found = indexed[1][at] if at >= 0 else None
        return found if found is not None and found.end_byte > offset else None

    def scope(self, unit: str, depth: int) -> Scope:
        """The scope of a node whose ancestors are the path's first `depth` nodes."""
        count = len(self.scopes)
        while count and self.scopes[count - 1][0] >= depth:
            count -= 1
        self.spend(count)
        # the handlers of one function share its scope: an entry stays the same object while its
        # node is on the path, and so do the entries before it
        last = self.scopes[count - 1] if count else None
        known = self._made.get(count)
        if known is not None and known[0] is last:
            return known[1]
        entries = self.scopes[:count]
        innermost = next(((e[2], e[3]) for e in reversed(entries) if not e[4]), ("<module>", "module"))
        scope = Scope(scopePath=(f"module:{unit}@0", *(e[1] for e in entries)), function=innermost[0],
                      functionKind=innermost[1])
        self._made[count] = (last, scope)
        return scope


#: a path position past any path
_NONE = 1 << 62
#: the anchors a climb stops at (`normalize.anchor_of`)
_ANCHOR_STOPS = FUNCTION_TYPES | {"class_static_block", "program"}
_SCOPE_TYPES = FUNCTION_TYPES | CLASS_TYPES | {"class_static_block", "field_definition"}
_SCOPE_SYMBOLS = symbols_of(_SCOPE_TYPES)
_TRY_SYMBOLS = symbols_of(frozenset({"try_statement"}))
#: the `kind_id` of an ERROR node
_ERROR_SYMBOL = LANGUAGE.id_for_node_kind("ERROR", True)
#: the symbols the descent keeps track of
_SPECIAL_SYMBOLS = _SCOPE_SYMBOLS | _TRY_SYMBOLS | {_ERROR_SYMBOL}


def _scope_entry(node: Node, above: list[Node]) -> tuple[str, str] | None:
    """scopes.scope_of's entry for a scope node: None for Bun's CommonJS wrapper. `above`: its
    nearest ancestors, innermost first (4 are all that its name and the wrapper's shape read)."""
    if is_bun_cjs_wrapper(node, iter(above)):
        return None
    return function_name(node, iter(above)), function_kind(node)


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
