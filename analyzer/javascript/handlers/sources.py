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
from analyzer.javascript.syntax import LANGUAGE, same, spaced, without_parentheses

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

    start: int
    #: its item's position in the listing it was found in
    item: int
    is_async: bool


#: a call in a body or block: (callee name, callee start, awaited)
_Call = tuple[bytes, int, bool]


@dataclass(frozen=True, slots=True)
class SourceRows:
    """What one tree hands the merge (`unit_sources`), with no node (docs/slices.md, "Step 7 as
    built"): the function items it read, the calls of their bodies and of its protected blocks."""

    #: item start -> (function start, async), None when the item is no function
    functions: dict[int, tuple[int, bool] | None]
    #: function start -> the calls in its body outside its handlers and nested functions
    bodies: dict[int, tuple[_Call, ...]]
    #: calls in the outermost protected blocks caught there: (callee name, start, handler offset, awaited)
    calls: tuple[tuple[bytes, int, int, bool], ...]
    #: what the tree's graph found, when the tree is the whole unit (the merge goes on from it)
    answers: _Answers | None = None


def called_sources(
    source: bytes, raw: Sequence[RawItem], shadowed: frozenset[tuple[int, bytes]], sites: Iterable[SiteFacts],
    blocks: Sequence[Node],
) -> dict[int, tuple[tuple[int, int], ...]]:
    """Handler offset -> (error callsite offset, hops) of the errors its protected block's calls
    let through, the fewest hops each. `raw`, `shadowed`: the reference graph's items and the
    (item, name) pairs where a name may be a local's; `sites`: the unit's callsites with their
    flow; `blocks`: the protected blocks of the unit's catch clauses (`find_handlers` found them).
    The whole tree as the one part of `unit_sources`."""
    escaping = escaping_of(sites)
    return unit_sources([slice_sources(source, raw, shadowed, escaping, blocks)], raw, shadowed, escaping)


def escaping_of(sites: Iterable[SiteFacts]) -> dict[int, list[int]]:
    """Function start -> the error callsites thrown out of it, from the callsites' flow."""
    escaping: dict[int, list[int]] = {}
    for site in sites:
        flow = site.flow
        if flow is not None and flow.fate == "thrown" and flow.escapes and site.function_offset is not None:
            escaping.setdefault(site.function_offset, []).append(site.offset)
    return escaping


def slice_sources(
    source: bytes, raw: Sequence[RawItem], shadowed: frozenset[tuple[int, bytes]], escaping: Mapping[int, list[int]],
    blocks: Sequence[Node], callees: frozenset[bytes] | None = None, throwers: frozenset[bytes] | None = None,
    cold: Mapping[int, int] | None = None, guarded: frozenset[bytes] | None = None,
) -> SourceRows:
    """The per-tree half: `raw`, `shadowed`, `escaping`, `blocks` are the tree's own. With no
    `callees` the tree is the whole unit and only what the unit's graph reads is read; a slice is
    given `callees`, a superset of the names a block's call must be kept for (the hot functions:
    `Supersets.hot`), and `throwers`, a superset of the names whose functions throw
    (`slice_supersets`), and `cold`, the functions whose bytes from their name's offset to the
    given end name no thrower: an item of one name within those bytes gets no row (its body calls
    no thrower; the merge reads the unit whole if it asks for it), and `guarded`, a superset of
    the words of every protected block: only a function of one of those names gets its body's
    row (the merge asks for the body of a function a block calls). Raises ValueError when a block
    of the tree names a word outside `guarded`."""
    source = spaced(source)  # white space past ASCII is no part of a name
    graph = _TreeGraph(raw, shadowed, escaping, _Items.of(raw), source, throwers)
    calls: list[tuple[bytes, int, int, bool]] = []
    exact = callees is None
    if exact and (not escaping or not graph.throwing):
        return SourceRows(graph.functions, graph.bodies, (), graph.answers())
    for block in _outermost(blocks):
        words = source[block.start_byte:block.end_byte].translate(_SPACES).split()
        if guarded is not None and not guarded.issuperset(words):
            raise ValueError(f"the protected block at {block.start_byte} names words outside the superset: "
                             f"{sorted(set(words) - guarded)[:5]}")
        # the names of the functions something escapes: most blocks call none
        names = {n for n in graph.items.once.keys() & words if graph.is_hot(n)} if callees is None \
            else callees.intersection(words)
        for callee in _calls_named(block, names, source):
            call = callee.parent
            if call is not None:
                handler, _ = _caught_above(call)
                if handler is not None:
                    calls.append((callee.text or b"", callee.start_byte, handler, _awaited(call)))
    if not exact:  # any of its functions may be called from another slice's block
        for name, position in graph.items.once.items():
            item = raw[position]
            if cold is not None and cold.get(item[3][0][0], -1) >= item[1]:
                continue
            function = graph.function(name)
            if function is not None and (guarded is None or name in guarded):
                graph.body(function)
    return SourceRows(graph.functions, graph.bodies, tuple(calls), graph.answers() if exact else None)


def unit_sources(
    parts: Sequence[SourceRows], raw: Sequence[tuple[int, int, object, tuple[tuple[int, bytes], ...]]],
    shadowed: frozenset[tuple[int, bytes]], escaping: Mapping[int, list[int]],
    throwers: frozenset[bytes] | None = None, hot: frozenset[bytes] | None = None,
) -> dict[int, tuple[tuple[int, int], ...]]:
    """The merge, with no node: `raw` and `shadowed` the unit's (merged) listing's, `escaping` the
    unit's (`escaping_of` its callsites), `throwers` and `hot` the supersets the slices were given
    (the names whose functions throw, the names their blocks' calls were kept for), checked."""
    if not escaping:
        return {}
    answers = parts[0].answers if len(parts) == 1 else None
    if answers is not None:
        graph = _Graph(raw, shadowed, escaping, answers.items, parts[0].functions, parts[0].bodies, answers)
    else:
        functions: dict[int, tuple[int, bool] | None] = {}
        bodies: dict[int, tuple[_Call, ...]] = {}
        for part in parts:
            functions.update(part.functions)
            bodies.update(part.bodies)
        graph = _Graph(raw, shadowed, escaping, _Items.of(raw), functions, bodies)
    if not graph.throwing:
        return {}
    if throwers is not None and not graph.throwing <= throwers:
        raise ValueError(f"throwers missing from the superset: {sorted(graph.throwing - throwers)}")
    if hot is not None and (missed := _hot_missed(graph, hot)):
        raise ValueError(f"hot functions missing from the superset: {missed}")
    out: dict[int, dict[int, int]] = {}
    for part in parts:
        for name, start, handler, awaited in part.calls:
            if not graph.is_hot(name):
                continue
            function = graph.resolve(name, start)
            if function is None or (function.is_async and not awaited):
                continue
            found = out.setdefault(handler, {})
            for offset, hops in graph.escapes(function):
                if found.get(offset, MAX_HOPS + 1) > hops:
                    found[offset] = hops
    return {handler: tuple(sorted(found.items())) for handler, found in sorted(out.items()) if found}


def _hot_missed(graph: _Graph, hot: frozenset[bytes]) -> list[bytes]:
    """The hot names (`_Graph.is_hot`) not in `hot`, which holds the throwing ones (checked
    before): the others are functions whose body rows call a throwing name."""
    throwing = graph.throwing
    if not throwing <= hot:
        return sorted(throwing - hot)
    calling = {start for start, calls in graph.bodies.items() if any(call[0] in throwing for call in calls)}
    missed = []
    for item, row in graph.functions.items():
        if row is None or row[0] not in calling:
            continue
        declared = graph.raw[bisect.bisect_right(graph.items.starts, item) - 1][3]
        if len(declared) == 1 and declared[0][1] not in hot and graph.is_hot(declared[0][1]):
            missed.append(declared[0][1])
    return sorted(missed)


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


@dataclass(frozen=True, slots=True)
class _Items:
    """A listing's item starts and its names declared once (`declared_once`)."""

    starts: list[int]
    once: dict[bytes, int]

    @staticmethod
    def of(raw: Sequence[tuple[int, int, object, tuple[tuple[int, bytes], ...]]]) -> _Items:
        return _Items([item[0] for item in raw], declared_once(raw))


@dataclass(frozen=True, slots=True)
class _Answers:
    """A graph's answers so far: the listing's `_Items`, the functions by name, what escapes each
    function, the hot names and the throwing ones."""

    items: _Items
    functions: dict[bytes, _Function | None]
    escapes: dict[int, list[tuple[int, int]]]
    hot: dict[bytes, bool]
    throwing: frozenset[bytes] | None


class _Graph:
    """The top-level functions the calls may resolve to, and what escapes each, from rows."""

    def __init__(self, raw: Sequence[tuple[int, int, object, tuple[tuple[int, bytes], ...]]],
                 shadowed: frozenset[tuple[int, bytes]], escaping: Mapping[int, list[int]], items: _Items,
                 functions: dict[int, tuple[int, bool] | None], bodies: dict[int, tuple[_Call, ...]],
                 answers: _Answers | None = None) -> None:
        self.raw, self.shadowed, self.escaping, self.items = raw, shadowed, escaping, items
        self.functions, self.bodies = functions, bodies
        known = answers if answers is not None else _Answers(items, {}, {}, {}, None)
        self._functions: dict[bytes, _Function | None] = known.functions
        #: function start -> (error callsite offset, hops) of what escapes it
        self._escapes: dict[int, list[tuple[int, int]]] = known.escapes
        self._hot: dict[bytes, bool] = known.hot
        #: the names of the top-level functions that throw errors of their own out of them
        self.throwing = known.throwing if known.throwing is not None \
            else frozenset(name for name in map(self._thrower, escaping) if name is not None)

    def answers(self) -> _Answers:
        """What the graph found so far, node-free: a graph on the same rows goes on from it."""
        return _Answers(self.items, self._functions, self._escapes, self._hot, self.throwing)

    def _thrower(self, start: int) -> bytes | None:
        position = bisect.bisect_right(self.items.starts, start) - 1
        if position < 0 or len(self.raw[position][3]) != 1:
            return None
        name = self.raw[position][3][0][1]
        function = self.function(name)
        return name if function is not None and function.start == start else None

    def is_hot(self, name: bytes) -> bool:
        """Whether `name` is a top-level function something escapes (asked once a name)."""
        hot = self._hot.get(name)
        if hot is None:
            function = self.function(name)
            hot = self._hot[name] = function is not None and bool(self.escapes(function))
        return hot

    def resolve(self, name: bytes, start: int) -> _Function | None:
        """The top-level function a callee at `start` names, when its item has no local of that name."""
        function = self.function(name)
        if function is None:
            return None
        position = bisect.bisect_right(self.items.starts, start) - 1
        if position < 0 or start >= self.raw[position][1] or (position, name) in self.shadowed:
            return None
        return function

    def function(self, name: bytes) -> _Function | None:
        if name in self._functions:
            return self._functions[name]
        position = self.items.once.get(name)
        row = self._function_row(position) if position is not None else None
        found = _Function(row[0], position, row[1]) if row is not None and position is not None else None
        self._functions[name] = found
        return found

    def _function_row(self, position: int) -> tuple[int, bool] | None:
        row = self.functions.get(start := self.raw[position][0], False)
        if row is False:  # a cold function's (`slice_sources`): the supersets were wrong
            raise ValueError(f"no slice's row for the function item at {start}")
        return row  # type: ignore[return-value]

    def body(self, function: _Function) -> tuple[_Call, ...]:
        """The calls in `function`'s body outside its own handlers and nested functions."""
        found = self.bodies.get(function.start)
        if found is None:  # a cold function's (`slice_sources`): the supersets were wrong
            raise ValueError(f"no slice's row for the body of the function at {function.start}")
        return found

    def escapes(self, function: _Function) -> list[tuple[int, int]]:
        """(error callsite offset, hops) of what escapes `function`: what it throws itself (1) and
        what the functions it calls outside its own handlers throw (2)."""
        start = function.start
        known = self._escapes.get(start)
        if known is not None:
            return known
        out = [(offset, 1) for offset in self.escaping.get(start, [])]
        if MAX_HOPS > 1:
            throwing = self.throwing
            for name, at, awaited in self.body(function):
                called = self.resolve(name, at) if name in throwing else None
                if called is not None and called.start != start and (awaited or not called.is_async):
                    out.extend((offset, 2) for offset in self.escaping.get(called.start, []))
        self._escapes[start] = out
        return out


class _TreeGraph(_Graph):
    """The graph of one tree, reading its function items and their bodies as asked, and keeping
    each as a row: the rows the merge reads."""

    def __init__(self, raw: Sequence[RawItem], shadowed: frozenset[tuple[int, bytes]],
                 escaping: Mapping[int, list[int]], items: _Items, source: bytes,
                 throwers: frozenset[bytes] | None) -> None:
        self.tree_raw, self.source, self.given = raw, source, throwers
        self._nodes: dict[int, Node] = {}
        super().__init__(raw, shadowed, escaping, items, {}, {})

    def _function_row(self, position: int) -> tuple[int, bool] | None:
        item = self.tree_raw[position]
        known = self.functions.get(item[0], False)
        if known is not False:
            return known  # type: ignore[return-value]
        node = _function_of(item[2])
        row = (node.start_byte, _is_async(node)) if node is not None else None
        if node is not None:
            self._nodes[node.start_byte] = node
        self.functions[item[0]] = row
        return row

    def body(self, function: _Function) -> tuple[_Call, ...]:
        known = self.bodies.get(function.start)
        if known is not None:
            return known
        node = self._nodes[function.start]
        body = node.child_by_field_name("body")
        names = self.throwing if self.given is None else self.given
        # the throwing names are top-level names declared once: met with the body's words directly
        named = names.intersection(self.source[body.start_byte:body.end_byte].translate(_SPACES).split()) \
            if body is not None else ()
        out = []
        if named:  # the bytes name none of them: no query
            for callee in _calls_named(body, sorted(named), self.source):  # type: ignore[arg-type]
                call = callee.parent
                if call is None:
                    continue
                handler, boundary = _caught_above(call)
                if handler is None and boundary is not None and boundary.id == node.id:
                    out.append((callee.text or b"", callee.start_byte, _awaited(call)))
        found = self.bodies[function.start] = tuple(out)
        return found


def declared_once(raw: Sequence[tuple[int, int, object, tuple[tuple[int, bytes], ...]]]) -> dict[bytes, int]:
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


def top_level_at(starts: Sequence[int], raw: Sequence[tuple[int, int, object, object]],
                 shadowed: frozenset[tuple[int, bytes]], name: bytes, at: int) -> bool:
    """Whether `name`, written at `at` (`starts`: the items' starts), is the top-level binding there:
    `at` lies in an item, and no local of that name in the item may be meant (`shadowed`)."""
    here = bisect.bisect_right(starts, at) - 1
    return here >= 0 and at < raw[here][1] and (here, name) not in shadowed


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
