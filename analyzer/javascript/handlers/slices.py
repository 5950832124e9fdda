"""The handlers and the sink of a unit read in slices (docs/slices.md, "Step 7 as built"): a
slice's handlers made under every choice of the merge (the logger's and the sink's) before its
tree is freed, and their merge under the unit's sites, sink and top-level bindings, with no tree."""

from __future__ import annotations

import bisect
import re
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace

from tree_sitter import Node, Parser

from analyzer.facts import BranchFacts, HandlerFacts
from analyzer.javascript import slices
from analyzer.javascript.handlers.body import param_name
from analyzer.javascript.handlers.compiled import sink_calls_on, span_of, written_param
from analyzer.javascript.handlers.dispositions import HandlerBody, SinkCalls
from analyzer.javascript.handlers.find import (
    Handler,
    TreeHandlers,
    Variants,
    handlers_on,
    protected_block,
    unit_handlers,
    with_compiled,
)
from analyzer.javascript.normalize import Anchor, Normalizer
from analyzer.javascript.resolve import Resolution
from analyzer.javascript.rules import JavaScriptRules
from analyzer.javascript.sink import MIN_CALLS, CalleeRow, SinkChoice, SinkRows, sink_names, slice_sink, unit_sink
from analyzer.javascript.site_rows import SliceSites
from analyzer.javascript.syntax import FUNCTION_TYPES
from analyzer.javascript.top_bindings import TopBindings, TopScopes, merged, top_bindings
from analyzer.javascript.unit_tree import UnitTree
from analyzer.trace import mark

#: the sites a slice's handler body may hold, as `known` holds them: ((start, end), (kind, offset))
Known = frozenset[tuple[tuple[int, int], tuple[str, int]]]


class Potential:
    """A slice's potential sites (docs/slices.md, 12b): the calls of its `site_rows.tree_sites`
    rows that the merge may keep as sites, so that a handler's branches can be made under each
    choice before the logger is chosen. A constructor's call the slice leaves at L's level or
    global is taken to be a site unless the slice declares that name in L's scope (the merge
    checks it); a call of a logger candidate is one only if its binding is chosen."""

    def __init__(self, rows: Iterable[tuple[str, int, int, bool, bool, tuple[str, int] | None]],
                 constructors: Iterable[str], logger_names: Iterable[str], declared: Iterable[str],
                 top: TopBindings | None = None) -> None:
        constructors, logger_names, declared = set(constructors), set(logger_names), set(declared)
        #: (start, end, kind, the logger binding that makes it a site or None), in start order
        self.rows: list[tuple[int, int, str, tuple[str, object] | None]] = []
        #: a logger candidate's call by (name, start: its callee's) -> its binding below L or None,
        #: and the sites' first declarations in L's scope: the sink's `Given`
        self.bound: dict[tuple[str, int], tuple[str, int] | None] = {}
        self.top = top if top is not None else TopBindings()
        for name, start, end, call, recovered, bound in rows:
            if call and name in logger_names:
                self.rows.append((start, end, "diagnostic", (name, bound)))
                if not recovered:
                    self.bound[(name, start)] = bound
            if name in constructors and bound is None and name not in declared:
                self.rows.append((start, end, "error", None))
        self.rows.sort(key=lambda row: (row[0], row[2]))  # as the merged sites: an error after a log
        self.starts = [row[0] for row in self.rows]

    def choices(self, start: int, end: int) -> list[dict[tuple[int, int], tuple[str, int]]]:
        """The `known` of a handler spanning (start, end) under each choice that differs for it:
        no logger binding of its calls chosen, or one of them."""
        first, last = bisect.bisect_left(self.starts, start), bisect.bisect_left(self.starts, end)
        inside = [row for row in self.rows[first:last] if row[1] <= end]
        groups = list(dict.fromkeys(row[3] for row in inside if row[3] is not None))
        return [{(s, e): (kind, s) for s, e, kind, group in inside if group is None or group == chosen}
                for chosen in [None, *groups]]


def known_key(known: dict[tuple[int, int], tuple[str, int]]) -> Known:
    return frozenset(known.items())


class SiteIndex:
    """The unit's merged sites, to tell each slice handler's choice: the sites inside it."""

    def __init__(self, sites: Iterable[tuple[int, int, str]]) -> None:
        self.known = {(start, end): (kind, start) for start, end, kind in sites}  # in order: as `known`
        self.spans = sorted(self.known)
        self.starts = [span[0] for span in self.spans]

    def inside(self, start: int, end: int) -> Known:
        first, last = bisect.bisect_left(self.starts, start), bisect.bisect_left(self.starts, end)
        return frozenset((span, self.known[span]) for span in self.spans[first:last] if span[1] <= end)


def slice_handlers(
    unit: str, part: UnitTree, sites: Sequence[tuple[Node, str]], span: tuple[int, int],
    potential: Potential | None = None, cut: tuple[bool, bool] = (False, False), scopes: TopScopes | None = None,
) -> TreeHandlers:
    """The per-tree half of a slice (`span`: its range): each handler made under every choice of
    the merge that differs for it, the sink's (none, or the candidates of one binding: a key the
    slice bound below L or a name the merge re-binds) and the logger's its `potential` sites can
    make (without them, `sites` are the unit's own: one choice). `cut`: whether a slice lies
    before and after this one (a module-level window must not reach them); `scopes`: L's scopes
    in the slice, for the first declarations of the sink's names. The tree's normalizer may hold
    the other halves' digests: what the handlers note does not depend on them (`_Noted`)."""
    source = part.normalizer.source
    noted = _Noted(part.normalizer)
    given = {(node.start_byte, node.end_byte): (kind, node.start_byte) for node, kind in sites}
    handlers: list[Handler] = []
    #: per handler, per choice: its known, and its candidates' places in `candidates` (None: made)
    pending: list[tuple[int, HandlerBody, list[tuple[Known, dict[tuple[int, int], tuple[str, int]], list[int]]]]] = []
    candidates: list[tuple[Node, bool]] = []
    placed: dict[tuple[int, bool], int] = {}
    left_out: list[int] = []
    blocks: list[Node] = []
    inexact: list[str] = []
    for handler in with_compiled(handlers_on(unit, part, left_out, cut, inexact, noted), unit, part, noted):
        if handler.form == "catch":
            block = protected_block(handler)
            if block is not None:
                blocks.append(block)
        param = param_name(handler)
        start, end = span_of(handler)
        choices = potential.choices(start, end) if potential is not None else [
            {span_: entry for span_, entry in given.items() if start <= span_[0] and span_[1] <= end}]
        body = HandlerBody(handler, choices[0], param)  # the choices differ in logger calls only: one walk
        param = written_param(handler, param)
        rethrow = body.lone_rethrow()
        variants: Variants = {}
        waits = []
        for known in choices:
            body.known = known
            called = sink_calls_on(handler, body.sink_candidates(), part.root)
            if called:
                places = []
                for callee, itself in called:
                    at = placed.setdefault((callee.start_byte, itself), len(candidates))
                    if at == len(candidates):
                        candidates.append((callee, itself))
                    places.append(at)
                waits.append((known_key(known), known, places))
            else:
                variants[known_key(known)] = ((), {frozenset(): body.branches()})
        if waits:
            pending.append((len(handlers), body, waits))
        else:
            handler.chain.clear()  # its ancestors are no longer needed: let them go
        handlers.append((start, end, handler.form, param, handler.scope, handler.in_error_region, handler.anchor,
                         handler.anchor_start, rethrow, None, (), variants))
    sink = slice_sink(part.tree, source, candidates, span, scopes, potential)
    # a binding below L has all its calls in the slice: one called with the caught value fewer
    # than MIN_CALLS times (over every choice) is never the sink, and makes no variant
    calls = Counter(row[4] for row in sink.callees if row[3] and row[4] is not None)
    local = frozenset(key for key, count in calls.items() if count >= MIN_CALLS)
    for at, body, waits in pending:
        made = handlers[at][11]
        assert made is not None
        for key, known, places in waits:
            body.known = known
            rows = tuple(sink.callees[place] for place in places)
            made[key] = (rows, _with_variants(body, rows, sink.resolved, local))
        body.handler.chain.clear()
    return TreeHandlers(handlers, sink, sum(left_out), blocks, inexact[0] if inexact else None, noted.scopes,
                        noted.digested)


class _Noted(Normalizer):
    """A slice's normalizer for its handlers that notes the node visits they would spend on the
    whole tree's budget instead of spending them: the scope entries `Descent.scope` counts, and
    each anchor node digested, (start, end, type) -> node count (the merge counts each once).
    The digests are the tree's normalizer's (`shared`, which spends nothing: no budget), cached
    or not: the notes are the same either way."""

    def __init__(self, shared: Normalizer) -> None:
        super().__init__(shared.source)
        assert shared.budget is None, "a slice's tree spends on no budget"
        self.shared = shared
        self.scopes = 0
        self.digested: dict[tuple[int, int, str], int] = {}

    def spend(self, nodes: int) -> None:
        self.scopes += nodes

    def digest(self, node: Anchor) -> bytes:
        if isinstance(node, Node):  # a window costs nothing (`Normalizer.digest`)
            self.digested[(node.start_byte, node.end_byte, node.type)] = node.descendant_count
        return self.shared.digest(node)


def _with_variants(body: HandlerBody, rows: Sequence[CalleeRow], resolved: frozenset[bytes],
                   local: frozenset[tuple[str, int]]) -> dict[frozenset[tuple[int, int]], tuple[BranchFacts, ...]]:
    """A waiting body's branches under each sink its candidate callees can make: none, or those
    of one binding (a key the tree bound, among `local` those that can be the sink, or a name
    the merge re-binds: one binding a name)."""
    groups: dict[object, set[tuple[int, int]]] = {}
    for name, start, end, _, key, _ in rows:
        if name in resolved and (key is None or key in local):
            groups.setdefault(key if key is not None else name, set()).add((start, end))
    body.sink = frozenset()
    body.recording = SinkCalls()
    made = body.branches()
    calls, body.recording = body.recording, None  # not while it is read again under a sink
    tests = [branch.test for branch in made]
    variants: dict[frozenset[tuple[int, int]], tuple[BranchFacts, ...]] = {frozenset(): made}
    for group in groups.values():
        variants[frozenset(group)] = body.under_sink(calls, tests, frozenset(group))
    return variants


def settle(parts: Sequence[TreeHandlers], sites: Iterable[tuple[int, int, str]]) -> list[TreeHandlers]:
    """The slices' handlers under the unit's merged `sites` (start, end, kind): each handler's
    choice picked by the sites inside it, its sink candidates those of that choice. Raises
    ValueError when a handler's sites are none of its choices' (a constructor the slice took
    for the global one is declared at L's level elsewhere)."""
    index = SiteIndex(sites)
    out = []
    for part in parts:
        handlers: list[Handler] = []
        callees: list[CalleeRow] = []
        for handler in part.handlers:
            variants = handler[11]
            if variants is None:
                handlers.append(handler)
                continue
            made = variants.get(index.inside(handler[0], handler[1]))
            if made is None:
                raise ValueError(f"the sites in the handler at {handler[0]} are none of its slice's choices")
            callees.extend(made[0])
            handlers.append((*handler[:11], {frozenset(): ((), made[1])}))
        sink = part.sink
        rows = SinkRows(tuple(callees), sink.resolved, sink.sliced, sink.common, sink.top, sink.declared)
        out.append(TreeHandlers(handlers, rows, part.left_out, part.blocks, part.inexact, part.scopes, part.digested))
    return out


@dataclass(frozen=True, slots=True)
class UnitHandling:
    """The slices' handlers merged, with no node: their records are made with the unit's
    positions (`find.unit_handlers`)."""

    #: each slice's handlers, settled (`settle`)
    parts: list[TreeHandlers]
    sink: SinkChoice
    #: the node visits the whole tree's handlers spend on its work bound (`unit_handling`)
    visits: int = 0

    def records(self, unit: str, positions: Callable[[list[int]], dict[int, tuple[int, int]]]
                ) -> list[HandlerFacts]:
        return unit_handlers(unit, self.parts, self.sink, positions)

    @property
    def left_out(self) -> int:
        """The catch clauses too deeply nested to record."""
        return sum(part.left_out for part in self.parts)


def potential_sites(rows: SliceSites, rules: JavaScriptRules) -> Potential:
    """A slice's potential sites from its `site_rows.tree_sites` rows: a constructor's call it
    leaves global, unless it declares the name in L's scope, and a call of a name it resolved
    as a logger candidate."""
    declared = set(rows.top.function) | set(rows.top.block)
    return Potential(rows.calls, rules.constructors, rows.logger.names, declared, rows.top)


def unit_handling(
    unit: str, source: bytes, ranges: Sequence[tuple[int, int]], parts: Sequence[TreeHandlers],
    sites: Sequence[tuple[int, int, str]], head: TopBindings,
    reread: Callable[[int, frozenset[str]], TopBindings],
    paid: Collection[tuple[int, int, str]] = frozenset(), classes: Collection[tuple[int, int]] = frozenset(),
) -> UnitHandling:
    """The merge of the slices' handlers (`ranges`: the slices'), the unit's merged `sites`
    (start, end, kind) picking each handler's choice. The sink's names a slice left to L's scope
    (a row without binding) are re-bound to their first declaration there (`head`: the head
    tree's part): a slice that did not resolve one whose bytes it holds as a word is read again
    (`reread(index, names)`: its top-level bindings of those names). Raises ValueError when a
    handler's sites are none of its choices. The visits are counted as the whole tree's
    handlers spend them after the classes and the sites' facts, whose digests they reuse:
    `paid`, the nodes the facts digested ((start, end, type), `UnitSiteFacts.digested`), and
    `classes`, the (start, end) of the error classes."""
    settled = settle(parts, sites)
    names = sink_names([part.sink for part in settled])
    # only a name some slice left to L's scope is re-bound there
    rebound = {row[0] for part in settled for row in part.sink.callees if row[4] is None} & set(names)
    tops = [head]
    for index, part in enumerate(settled):
        top = part.sink.top if part.sink.top is not None else TopBindings()
        start, end = ranges[index]
        lacked = frozenset(name.decode("utf-8", "replace") for name in rebound if name not in part.sink.declared
                           and next(_words(source, name, start, end), None) is not None)
        if lacked:
            top = merged([top, reread(index, lacked)])
            settled[index] = replace(part, sink=replace(part.sink, top=top))
        tops.append(top)
    return UnitHandling(settled, unit_sink(unit, source, [part.sink for part in settled], merged(tops)),
                        handler_visits(settled, paid, classes))


#: the nodes the error classes digest (`classes.error_classes`: a class, or an ES5 class's function)
_CLASS_NODES = FUNCTION_TYPES | {"class", "class_declaration"}


def handler_visits(parts: Iterable[TreeHandlers], paid: Collection[tuple[int, int, str]],
                   classes: Collection[tuple[int, int]]) -> int:
    """The node visits of the slices' handlers on the whole tree's budget: every scope entry,
    and each anchor node once, but those its one normalizer has digested already (`paid`, the
    sites' facts'; `classes`, the error classes' spans)."""
    digested: dict[tuple[int, int, str], int] = {}
    scopes = 0
    for part in parts:
        scopes += part.scopes
        digested.update(part.digested)
    return scopes + sum(count for key, count in digested.items()
                        if key not in paid and (key[2] not in _CLASS_NODES or key[:2] not in classes))


def statement_bindings(
    unit: str, parser: Parser, source: bytes, plan: slices.Plan, index: int, starts: Sequence[int],
    ends: Sequence[int], names: frozenset[str], head: Sequence[Node], list_type: str,
    types: Sequence[str] | None = None,
) -> TopBindings:
    """The first declarations in L's scope of `names` in slice `index` of `plan`, whose
    statements start and end at `starts` and `ends` (and are of `types`, when given): those
    holding a name as a word parsed again, each alone (a declaration of L's scope lies in one
    statement), but those whose type declares nothing in L's scope. Raises ValueError when one
    has an error alone."""
    start, end = plan.ranges[index]
    held = sorted(at for at in {bisect.bisect_right(starts, offset) - 1 for name in names
                                for offset in _words(source, name.encode(), start, end)} - {-1}
                  if types is None or (types[at] not in _DECLARE_NOTHING and not _declares_other(
                      source, starts[at], types[at], names)))
    if not held:
        return TopBindings()
    alone = replace(plan, ranges=tuple((starts[at], ends[at]) for at in held))
    mark(f"slices: {unit}: {len(held)} statements of slice {index + 1} read again for the sink's names "
         f"{sorted(names)}")
    found = []
    for at in range(len(alone.ranges)):
        tree = slices.parse_slice(parser, source, alone, at)
        if tree.root_node.has_error:
            raise ValueError(f"a statement at {alone.ranges[at][0]} read alone has an error")
        resolution = Resolution(tree, source, set(names), within=alone.ranges[at])
        found.append(top_bindings(resolution, TopScopes(tree.root_node, head, list_type)))
    return merged(found)


#: statements of L that declare nothing in L's scope: an expression's functions, classes and
#: their names have scopes of their own (`resolve.declaration`)
_DECLARE_NOTHING = frozenset({"expression_statement", "comment", "empty_statement", "debugger_statement",
                              "return_statement", "throw_statement", "break_statement", "continue_statement"})


#: a function's or class's declaration, which declares its own name only in L's scope (what its
#: body declares is its own), as its bytes start: plain ASCII words and spaces, else read again
_DECLARED_NAME = {
    kind: re.compile(pattern + rb"([A-Za-z_$][A-Za-z0-9_$]*)(?![A-Za-z0-9_$\\\x80-\xff])")
    for kind, pattern in (("function_declaration", rb"(?:async\s+)?function\s+"),
                          ("generator_function_declaration", rb"(?:async\s+)?function\s*\*\s*"),
                          ("class_declaration", rb"class\s+"))}


def _declares_other(source: bytes, start: int, kind: str, names: frozenset[str]) -> bool:
    """Whether the statement of L at `start`, of type `kind`, is a declaration whose one name in
    L's scope is none of `names` (its bytes hold them only inside it)."""
    pattern = _DECLARED_NAME.get(kind)
    found = pattern.match(source, start) if pattern is not None else None
    return found is not None and found.group(1).decode() not in names


def _words(source: bytes, name: bytes, start: int, end: int) -> Iterator[int]:
    """The offsets of `name` as a whole word in `source[start:end]` (a superset of its
    identifiers: any byte past ASCII may be part of one). The name is searched first: a
    lookbehind before it would make the regex engine try every byte."""
    for match in re.compile(re.escape(name) + rb"(?![A-Za-z0-9_$])").finditer(source, start, end):
        at = match.start()
        if at == 0 or source[at - 1] not in _WORD_BYTES:
            yield at


_WORD_BYTES = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_$")
