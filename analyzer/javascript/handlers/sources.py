"""The error callsites a handler catches through a call (`called_sources`, docs/reference.md,
"Sources"): a call in its protected block of a top-level function the reference graph resolves,
which throws them and does not catch them, at most `MAX_HOPS` calls deep. The direct ones
(thrown in the protected block itself) are the callsites' flow's (`flow.flow_of`)."""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from tree_sitter import Node, Query, QueryCursor

from analyzer.facts import SiteFacts
from analyzer.javascript.handlers.shapes import BOUNDARIES
from analyzer.javascript.occurrences import RawItem
from analyzer.javascript.syntax import LANGUAGE, same, without_parentheses

#: calls from the protected block to the throw: 1, a function called there throws it; 2, a function
#: that function calls does
MAX_HOPS = 2
_CALLS = Query(LANGUAGE, "(call_expression function: (identifier) @callee)")
#: its cursor, given the byte range of each name it looks at
_RANGED = QueryCursor(_CALLS)
#: occurrences past which a node is queried whole: a ranged query descends from the node, so on
#: code nested N deep K occurrences cost K x N (docs/performance.md, "What handlers cost")
_RANGED_LIMIT = 8
_FUNCTION_VALUES = frozenset({"function_expression", "arrow_function"})
#: every byte that cannot be part of a name made a space, so that `split` yields the words
_SPACES = bytes(b if b in b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_$" or b >= 0x80 else 0x20
                for b in range(256))


@dataclass(frozen=True, slots=True)
class _Function:
    """A top-level function: `function f() {}`, or `const f = function () {}` / `() => {}`."""

    node: Node
    #: its item's position in the unit's listing
    item: int
    is_async: bool


def called_sources(
    source: bytes, raw: Sequence[RawItem], shadowed: frozenset[tuple[int, bytes]], sites: Iterable[SiteFacts],
    blocks: Sequence[Node],
) -> dict[int, tuple[tuple[int, int], ...]]:
    """Handler offset -> (error callsite offset, hops) of the errors its protected block's calls
    let through, the fewest hops each. `raw`, `shadowed`: the reference graph's items and the
    (item, name) pairs where a name may be a local's; `sites`: the unit's callsites with their
    flow; `blocks`: the protected blocks of the unit's catch clauses (`find_handlers` found them)."""
    escaping: dict[int, list[int]] = {}
    for site in sites:
        flow = site.flow
        if flow is not None and flow.fate == "thrown" and flow.escapes and site.function_offset is not None:
            escaping.setdefault(site.function_offset, []).append(site.offset)
    if not escaping:
        return {}
    graph = _Graph(source, raw, shadowed, escaping)
    if not graph.throwing:
        return {}
    out: dict[int, dict[int, int]] = {}
    for block in _outermost(blocks):
        # the names in the block's bytes of the functions something escapes: most blocks call none
        hot = {name for name in graph.named(block) if graph.is_hot(name)}
        for callee in _calls_named(block, hot, source):
            _through(callee, graph, out)
    return {handler: tuple(sorted(found.items())) for handler, found in sorted(out.items()) if found}


def _through(callee: Node, graph: _Graph, out: dict[int, dict[int, int]]) -> None:
    """Adds to `out` what escapes the function `callee` names into the handler catching the call."""
    function = graph.resolve(callee)
    call = callee.parent
    if function is not None and call is not None:
        escapes = graph.escapes(function)
        handler, _ = _caught_above(call)
        if handler is None or (function.is_async and not _awaited(call)):
            return
        found = out.setdefault(handler, {})
        for offset, hops in escapes:
            if found.get(offset, MAX_HOPS + 1) > hops:
                found[offset] = hops


def _outermost(blocks: Sequence[Node]) -> list[Node]:
    """The outermost of the blocks, in source order (each node of a block is in one)."""
    ordered = sorted(blocks, key=lambda b: (b.start_byte, -b.end_byte))
    outermost: list[Node] = []
    for block in ordered:
        if not outermost or block.start_byte >= outermost[-1].end_byte:
            outermost.append(block)
    return outermost


def _calls_named(node: Node, names: Iterable[bytes], source: bytes) -> list[Node]:
    """The callees named one of `names` (plain names) of the calls in `node`, in source order:
    the query is run over each occurrence of a name's bytes only (a cursor given a byte range
    skips what lies outside it), not over all of `node`, unless they are many."""
    found: dict[int, Node] = {}
    begin, end = node.start_byte, node.end_byte
    names = list(names)
    if sum(source.count(name, begin, end) for name in names) > _RANGED_LIMIT:
        wanted = set(names)
        found = {c.id: c for c in QueryCursor(_CALLS).captures(node).get("callee", ()) if c.text in wanted}
        names = []
    for name in names:
        width = len(name)
        at = source.find(name, begin, end)
        while at >= 0:
            _RANGED.set_byte_range(at, at + width)
            for callee in _RANGED.captures(node).get("callee", ()):
                if callee.start_byte == at and callee.end_byte == at + width:
                    found[callee.id] = callee
            at = source.find(name, at + 1, end)
    return sorted(found.values(), key=lambda n: n.start_byte)


def _caught_above(node: Node) -> tuple[int | None, Node | None]:
    """(the offset of the catch clause of the innermost `try` whose block holds `node`, None
    when there is none in its function; the function or other boundary reached instead, else None)."""
    child, parent = node, node.parent
    while parent is not None:
        kind = parent.type
        if kind == "try_statement" and same(parent.child_by_field_name("body"), child):
            catcher = parent.child_by_field_name("handler")
            if catcher is not None:
                return catcher.start_byte, None
        elif kind in BOUNDARIES and kind != "catch_clause":
            return None, parent
        child, parent = parent, parent.parent
    return None, None


def _awaited(call: Node) -> bool:
    """Whether a call is awaited where it is (`await f()`, `await (f())`)."""
    parent = call.parent
    while parent is not None and parent.type == "parenthesized_expression":
        parent = parent.parent
    return parent is not None and parent.type == "await_expression"


class _Graph:
    """The top-level functions the calls may resolve to, and what escapes each."""

    def __init__(self, source: bytes, raw: Sequence[RawItem], shadowed: frozenset[tuple[int, bytes]],
                 escaping: Mapping[int, list[int]]) -> None:
        self.source, self.raw, self.shadowed, self.escaping = source, raw, shadowed, escaping
        self.starts = [item[0] for item in raw]
        #: names declared once, by an item that declares nothing else -> its position
        self.items = _declared_once(raw)
        self._functions: dict[bytes, _Function | None] = {}
        #: function start -> (error callsite offset, hops) of what escapes it
        self._escapes: dict[int, list[tuple[int, int]]] = {}
        self._hot: dict[bytes, bool] = {}
        #: the names of the top-level functions that throw errors of their own out of them
        self.throwing = frozenset(name for name in map(self._thrower, escaping) if name is not None)

    def _thrower(self, start: int) -> bytes | None:
        position = bisect.bisect_right(self.starts, start) - 1
        if position < 0 or len(self.raw[position][3]) != 1:
            return None
        name = self.raw[position][3][0][1]
        function = self.function(name)
        return name if function is not None and function.node.start_byte == start else None

    def is_hot(self, name: bytes) -> bool:
        """Whether `name` is a top-level function something escapes (asked once a name)."""
        hot = self._hot.get(name)
        if hot is None:
            function = self.function(name)
            hot = self._hot[name] = function is not None and bool(self.escapes(function))
        return hot

    def named(self, node: Node) -> set[bytes]:
        """The top-level names declared once whose bytes are words of `node`."""
        return self.items.keys() & self.source[node.start_byte:node.end_byte].translate(_SPACES).split()

    def resolve(self, callee: Node) -> _Function | None:
        """The top-level function a callee names, when its item has no local of that name."""
        name = callee.text or b""
        function = self.function(name)
        if function is None:
            return None
        position = bisect.bisect_right(self.starts, callee.start_byte) - 1
        if position < 0 or callee.start_byte >= self.raw[position][1] or (position, name) in self.shadowed:
            return None
        return function

    def function(self, name: bytes) -> _Function | None:
        if name in self._functions:
            return self._functions[name]
        position = self.items.get(name)
        node = _function_of(self.raw[position][2]) if position is not None else None
        found = _Function(node, position, _is_async(node)) if node is not None and position is not None else None
        self._functions[name] = found
        return found

    def escapes(self, function: _Function) -> list[tuple[int, int]]:
        """(error callsite offset, hops) of what escapes `function`: what it throws itself (1) and
        what the functions it calls outside its own handlers throw (2)."""
        start = function.node.start_byte
        known = self._escapes.get(start)
        if known is not None:
            return known
        out = [(offset, 1) for offset in self.escaping.get(start, [])]
        if MAX_HOPS > 1:
            for called, awaited in self._called_by(function):
                if called.node.start_byte != start and (awaited or not called.is_async):
                    out.extend((offset, 2) for offset in self.escaping.get(called.node.start_byte, []))
        self._escapes[start] = out
        return out

    def _called_by(self, function: _Function) -> list[tuple[_Function, bool]]:
        """The throwing top-level functions `function` calls outside its own handlers and nested
        functions, each with whether the call is awaited."""
        body = function.node.child_by_field_name("body")
        if body is None:
            return []
        # the throwing names are top-level names declared once: met with the body's words directly
        named = self.throwing.intersection(self.source[body.start_byte:body.end_byte].translate(_SPACES).split())
        if not named:  # the bytes name none of them: no query
            return []
        out = []
        for callee in _calls_named(body, sorted(named), self.source):
            called = self.resolve(callee)
            call = callee.parent
            if called is None or call is None:
                continue
            handler, boundary = _caught_above(call)
            if handler is None and boundary is not None and boundary.id == function.node.id:
                out.append((called, _awaited(call)))
        return out


def _declared_once(raw: Sequence[RawItem]) -> dict[bytes, int]:
    """The names declared once in the listing, by an item that declares nothing else -> the
    item's position; one pass (-1 marks a name declared more than once or beside others)."""
    seen: dict[bytes, int] = {}
    for position, (_, _, _, declared) in enumerate(raw):
        if len(declared) == 1:
            name = declared[0][1]
            seen[name] = position if name not in seen else -1
        else:
            for _, name in declared:
                seen[name] = -1
    return {name: position for name, position in seen.items() if position >= 0}


def _function_of(node: Node) -> Node | None:
    """The function an item is: a function declaration, or a `const` declarator's function value."""
    if node.type == "function_declaration":
        return node
    if node.type != "variable_declarator":
        return None
    value = node.child_by_field_name("value")
    declaration = node.parent
    if value is None or declaration is None or declaration.type != "lexical_declaration" \
            or (keyword := declaration.child(0)) is None or keyword.type != "const":
        return None
    value = without_parentheses(value)
    return value if value.type in _FUNCTION_VALUES else None


def _is_async(function: Node) -> bool:
    first = function.child(0)
    return first is not None and first.type == "async"
