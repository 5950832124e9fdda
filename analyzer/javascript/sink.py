"""The bundle's error sink: the binding most often called with a caught value, detected as the
logger is, from its calls (docs/reference.md, "Handler records", "The error sink": the
candidates, the counts it needs, and its calls that are `report`s)."""

from __future__ import annotations

import bisect
import re
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from tree_sitter import Node, Tree

from analyzer.facts import SinkCandidate, SinkEvidence
from analyzer.javascript.resolve import Binding, Resolution

if TYPE_CHECKING:  # top_bindings imports the module finders, which import the handlers
    from analyzer.javascript.top_bindings import TopBindings, TopScopes

#: calls with a caught value a binding needs to be the sink
MIN_CALLS = 3
#: names resolved, the most called first
_NAMES = 3
#: a name whose bytes occur more often than this is resolved from its candidate calls up their
#: scopes, not by a search of its occurrences (each is a descent from the root: 4,096 cost about
#: 0.15 s on a 13 MB bundle)
_MAX_OCCURRENCES = 4096
_RUNNER_UPS = 3
#: the kinds of binding a function's or a catch clause's parameter has (`resolve.Binding.kind`)
_PARAMETER_KINDS = frozenset({"param", "catch"})
#: the commonest bytes of minified code (each about 3% or more of the executable's 27 MB): a name
#: is searched for by a regex scanning for its first byte unless it is one of them
_COMMON = frozenset(b"etrnioasl")


@dataclass(frozen=True, slots=True)
class SinkChoice:
    #: (start, end) of the candidate callees that resolve to the sink: offsets, so that it can
    #: cross trees (docs/slices.md, "Node ids")
    calls: frozenset[tuple[int, int]]
    #: the summary's evidence: name, declaration, calls, runner-ups, reasons
    evidence: SinkEvidence


def detect_sink(unit: str, tree: Tree, source: bytes, candidates: Sequence[tuple[Node, bool]]) -> SinkChoice:
    """The sink among `candidates`: callee names called with something of a caught value, each
    with whether it is the caught value itself (only those choose the sink). The whole tree as
    the one part of `unit_sink`."""
    return unit_sink(unit, source, [slice_sink(tree, source, candidates)])


#: a candidate callee as a tree hands it to the merge: name, start, end, whether it is the caught
#: value itself, the key and kind of its binding when the tree resolved its name and bound it below
#: L's scope (a whole tree: anywhere), else None and None (the global or L's scope: re-bound)
CalleeRow = tuple[bytes, int, int, bool, tuple[str, int] | None, str | None]


class TopRow(Protocol):
    """A binding of L's scope, as the unit's top-level bindings give it at the merge."""

    @property
    def key(self) -> tuple[str, int]: ...

    @property
    def kind(self) -> str: ...


class TopLevel(Protocol):
    """The unit's top-level bindings (docs/slices.md, stage 5e): what a reference a slice bound
    at its root, or not at all, resolves to."""

    def binding(self, name: str) -> TopRow | None: ...


@dataclass(frozen=True, slots=True)
class SinkRows:
    """One tree's candidate callees with their bindings, node-free (docs/slices.md, "Step 7 as built")."""

    callees: tuple[CalleeRow, ...]
    #: the names whose callees carry their binding
    resolved: frozenset[bytes]
    #: a slice's: its references bound at its root or not at all are re-bound at the merge
    sliced: bool = False
    #: whether a name the tree ranked (a whole tree: its 3) is left unresolved: too common to
    #: search in a tree with an error, whose scopes no climb reads
    common: dict[bytes, bool] = field(default_factory=dict)
    #: a slice's first declarations in L's scope of the names `declared` (given its `TopScopes`)
    top: TopBindings | None = None
    #: the names whose declarations in L's scope `top` holds, all of the slice's
    declared: frozenset[bytes] = frozenset()


def slice_sink(tree: Tree, source: bytes, candidates: Sequence[tuple[Node, bool]],
               span: tuple[int, int] | None = None, scopes: TopScopes | None = None,
               given: Given | None = None) -> SinkRows:
    """The per-tree half. A whole tree resolves the 3 names most called with the caught value
    itself (their counts are the unit's). A slice (`span`: its range) resolves every name of
    its candidates (a superset of the names the merge resolves): the `_SPECULATED` most called
    with the caught value itself over its range, and with `scopes` (L's in it) their first
    declarations in L's scope; the others in each statement of L holding their calls (their
    bindings below L lie in it: one statement's bytes searched, not the slice's). A name whose
    bytes occur past `_MAX_OCCURRENCES` there is resolved by a climb from each of its calls
    (`_climbed`), a slice's with its first declarations in L's scope; `given`: calls the slice's
    sites bound already (a logger candidate's), not climbed from."""
    if span is None:
        by_name = Counter(node.text or b"" for node, itself in candidates if itself)
        ranked = sorted(by_name.items(), key=lambda item: (-item[1], item[0]))
        bound: dict[int, Binding] = {}
        resolved = []
        common: set[bytes] = set()
        for name, _ in ranked[:_NAMES]:  # one name a pass: a literal is searched fast, an alternation is not
            starts = _at_most(source, name, _MAX_OCCURRENCES)
            if starts is None:
                common.add(name)
                continue
            resolved.append(name)
            _resolve(tree, source, name, None, starts, bound)
        climbed = _climbed(tree, candidates, common, bound, True)
        verdicts = {name: name not in resolved and name not in climbed for name, _ in ranked[:_NAMES]}
        return SinkRows(_rows(tree, candidates, bound), frozenset(resolved) | climbed, False, verdicts)
    return _slice_rows(tree, source, candidates, span, scopes, given)


#: the names a slice resolves over its range, the most called with the caught value itself first
_SPECULATED = 3


def _slice_rows(tree: Tree, source: bytes, candidates: Sequence[tuple[Node, bool]], span: tuple[int, int],
                scopes: TopScopes | None, given: Given | None) -> SinkRows:
    """`slice_sink` of a slice."""
    from analyzer.javascript.sink_levels import LARGE_STATEMENT, LevelBindings, Undecided
    from analyzer.javascript.top_bindings import TopBindings, merged, top_bindings
    from analyzer.javascript.top_declared import top_declared

    by_name = Counter(node.text or b"" for node, itself in candidates if itself)
    bound: dict[int, Binding] = {}
    top = TopBindings() if scopes is not None else None
    wide: list[bytes] = []
    common: set[bytes] = set()
    for name in sorted(dict.fromkeys(node.text or b"" for node, _ in candidates), key=lambda n: (-by_name[n], n)):
        if len(wide) == _SPECULATED:
            break
        # a range's greedy count may pass the unit's by the occurrences its edges cut
        past = len(name) == 1 and _byte_past(source, name, _MAX_OCCURRENCES + 2, *span)
        starts = None if past else _at_most(source, name, _MAX_OCCURRENCES + 2, *span)
        if starts is None:
            common.add(name)
            continue
        wide.append(name)
        resolution = _resolve(tree, source, name, span, starts, bound)
        if top is not None and scopes is not None:
            top = merged([top, top_bindings(resolution, scopes)])
    # the others' in the statements of L holding their calls, their bytes counted there
    root = tree.root_node
    statements = root.children
    firsts = [statement.start_byte for statement in statements]
    held: dict[bytes, dict[int, list[Node]]] = {}
    for node, _ in candidates:
        name = node.text or b""
        if name in common or name in wide:
            continue
        if name not in held and len(name) == 1 and _byte_past(source, name, _MAX_OCCURRENCES + 2, *span):
            common.add(name)  # a byte: counted over the range at once, where it is most often common
            continue
        held.setdefault(name, {}).setdefault(bisect.bisect_right(firsts, node.start_byte) - 1, []).append(node)
    levels = None if root.has_error else LevelBindings(tree, frozenset(held), lambda name, within: _within(
        tree, source, name, within))
    for name, places in held.items():
        counted = 0
        for at in sorted(places):
            statement = statements[at]
            if levels is not None and statement.end_byte - statement.start_byte >= LARGE_STATEMENT:
                try:  # its calls' bindings without a search of its bytes
                    bound.update(levels.bindings(name, places[at]))
                    continue
                except Undecided:
                    pass
            within = (statement.start_byte, statement.end_byte)
            starts = _at_most(source, name, _MAX_OCCURRENCES + 2 - counted, *within)
            if starts is None:
                common.add(name)
                break
            counted += len(starts)
            _resolve(tree, source, name, within, starts, bound)
    taken: set[int] = set()
    climbed = _climbed(tree, candidates, common, bound, False, given, taken)
    # a climbed name with calls left to L's scope: its first declarations there, for the merge,
    # from the sites' rows when the sites bound all of them, else from the statements of L
    # holding it as a word (another slice's the merge reads again)
    left = [(node.text or b"", node.id in taken) for node, _ in candidates if node.id not in bound]
    walked = frozenset(name for name, took in left if not took) & climbed
    rebound = frozenset(name for name, _ in left) & climbed
    if rebound and top is not None and scopes is not None:
        holding = sorted({at for name in walked for at in _holding(source, name, firsts, statements, span)})
        found = top_declared(root, scopes, frozenset(n.decode("utf-8", "replace") for n in walked),
                             [statements[at] for at in holding])[0] if walked else TopBindings()
        top = merged([top, found, _only(given.top if given is not None else TopBindings(), rebound - walked)])
    resolved = frozenset(node.text or b"" for node, _ in candidates) - (common - climbed)
    return SinkRows(_rows(tree, candidates, bound, resolved), resolved, True,
                    dict.fromkeys(common - climbed, True), top, frozenset(wide) | rebound)


class Given(Protocol):
    """Calls a slice's sites bound already (`handlers.slices.Potential`): by (name, start of the
    callee), its binding below L's scope or None (L's scope or the global), and the first
    declarations in L's scope of those names the slice holds."""

    @property
    def bound(self) -> Mapping[tuple[str, int], tuple[str, int] | None]: ...

    @property
    def top(self) -> TopBindings: ...


def _only(top: TopBindings, names: frozenset[bytes]) -> TopBindings:
    """`top`'s rows of `names`."""
    from analyzer.javascript.top_bindings import TopBindings

    wanted = {name.decode("utf-8", "replace") for name in names}
    return TopBindings({n: row for n, row in top.function.items() if n in wanted},
                       {n: row for n, row in top.block.items() if n in wanted})


def _holding(source: bytes, name: bytes, firsts: list[int], statements: list[Node],
             span: tuple[int, int]) -> Iterator[int]:
    """The indices of the statements holding `name` as a whole word in `span` (a superset of
    those holding it as an identifier: a byte past ASCII may be part of one): one search a
    statement, from the end of the last one found."""
    word = re.compile(re.escape(name) + rb"(?<![A-Za-z0-9_$]" + re.escape(name) + rb")(?![A-Za-z0-9_$])")
    at, end = span
    while (match := word.search(source, at, end)) is not None:
        index = bisect.bisect_right(firsts, match.start()) - 1
        if index < 0 or statements[index].end_byte <= match.start():
            at = match.end()  # between statements (a comment): no statement holds it
            continue
        yield index
        at = statements[index].end_byte


def _climbed(tree: Tree, candidates: Sequence[tuple[Node, bool]], names: set[bytes], bound: dict[int, Binding],
             through_root: bool, given: Given | None = None, taken: set[int] | None = None) -> frozenset[bytes]:
    """`names`, too common to search, resolved from each candidate call of them up its scopes
    (`sink_levels.Climb`), its binding in `bound`; none when the tree has an error (a recovered
    tree's scopes are not read so). A call `given` binds in L's scope or to the global is not
    climbed from (its node id in `taken`)."""
    from analyzer.javascript.sink_levels import Climb

    if not names or tree.root_node.has_error:
        return frozenset()
    climb = Climb(tree, frozenset(names), through_root)
    known = given.bound if given is not None else {}
    root = tree.root_node
    for node, _ in candidates:
        name = node.text or b""
        if name not in names:
            continue
        found = None
        if known.get((name.decode("utf-8", "replace"), node.start_byte), ()) is None:
            if taken is not None:
                taken.add(node.id)
        else:
            # a compiled catch's clause is parsed alone at the region's offsets: its names are
            # climbed from the same name in this tree, where their scopes are
            own = root.descendant_for_byte_range(node.start_byte, node.end_byte)
            if own is not None and own.type == node.type and own.text == name:
                found = climb.binding(name, own)
        if found is None:
            bound.pop(node.id, None)
        else:
            bound[node.id] = found
    return frozenset(names)


def _byte_past(source: bytes, byte: bytes, limit: int, start: int, end: int) -> bool:
    """Whether the one byte `byte` occurs more than `limit` times in `source[start:end]`: counted
    in C over growing prefixes of the range, each byte once, each prefix past the length the
    byte's rate so far needs to pass the limit by a quarter (a common byte passes in the first)."""
    size, counted, at = 1 << 16, 0, start
    while True:
        stop = min(end, start + size)
        counted += source.count(byte, at, stop)
        if counted > limit:
            return True
        if stop == end:
            return False
        at, size = stop, max(size * 2, (stop - start) * (limit + 1) * 5 // (4 * max(counted, 1)))


def _within(tree: Tree, source: bytes, name: bytes, within: tuple[int, int]) -> Resolution | None:
    """`name` resolved in `within`; None when its bytes occur there too often to be."""
    starts = _at_most(source, name, _MAX_OCCURRENCES + 2, *within)
    if starts is None:
        return None
    given = starts if name and not _overlaps(name) else None
    return Resolution(tree, source, {name.decode("utf-8", "replace")}, within=within, starts=given)


def _resolve(tree: Tree, source: bytes, name: bytes, within: tuple[int, int] | None, starts: list[int],
             bound: dict[int, Binding]) -> Resolution:
    """The references of `name` in `within` (its bytes' offsets there, `starts`) bound in `bound`."""
    # the offsets counted are all the name's occurrences when no two of them can overlap
    given = starts if name and not _overlaps(name) else None
    resolution = Resolution(tree, source, {name.decode("utf-8", "replace")}, within=within, starts=given)
    bound.update({r.node.id: r.binding for r in resolution.references if r.binding is not None})
    return resolution


def _rows(tree: Tree, candidates: Sequence[tuple[Node, bool]], bound: dict[int, Binding],
          resolved: frozenset[bytes] | None = None) -> tuple[CalleeRow, ...]:
    """The candidates' rows; a slice's (`resolved`: its names resolved) leave the bindings of L's
    scope, and any of a name too common, to the merge (None)."""
    rows: list[CalleeRow] = []
    root_id = tree.root_node.id
    for node, itself in candidates:
        binding = bound.get(node.id)
        if binding is None or (resolved is not None and (binding.scope.id == root_id
                                                         or (node.text or b"") not in resolved)):
            rows.append((node.text or b"", node.start_byte, node.end_byte, itself, None, None))
        else:
            rows.append((node.text or b"", node.start_byte, node.end_byte, itself, binding.key, binding.kind))
    return tuple(rows)


def sink_names(parts: Sequence[SinkRows]) -> list[bytes]:
    """The names `unit_sink` resolves: the `_NAMES` most called with the caught value itself,
    but those a tree left unresolved."""
    return _ranked(parts)[1]


def _ranked(parts: Sequence[SinkRows]) -> tuple[Counter[bytes], list[bytes], list[bytes]]:
    """(calls with the caught value itself by name, the names resolved, those left unresolved:
    too common to search, in a tree with an error)."""
    by_name: Counter[bytes] = Counter()
    for part in parts:
        by_name.update(row[0] for row in part.callees if row[3])
    ranked = sorted(by_name.items(), key=lambda item: (-item[1], item[0]))
    names: list[bytes] = []
    skipped: list[bytes] = []
    for name, _ in ranked[:_NAMES]:
        (skipped if any(part.common.get(name) for part in parts) else names).append(name)
    return by_name, names, skipped


def unit_sink(unit: str, source: bytes, parts: Sequence[SinkRows], top: TopLevel | None = None) -> SinkChoice:
    """The merge, with no node: ranks the names and their bindings over every tree's rows as the
    whole tree's would be; `top` re-binds what a slice bound at its root or not at all (needed
    when any part is a slice)."""
    by_name, names, skipped = _ranked(parts)
    wanted = set(names)
    for part in parts:
        if not wanted <= part.resolved and any(row[0] in wanted - part.resolved for row in part.callees):
            raise ValueError(f"names a tree did not resolve: {sorted(wanted - part.resolved)}")
    calls: dict[tuple[str, int], list[tuple[int, int]]] = {}
    kinds: dict[tuple[str, int], str] = {}
    keyed: list[tuple[CalleeRow, tuple[str, int] | None]] = []
    for part in parts:
        for row in part.callees:
            name, start, end, itself, key, kind = row
            if name not in wanted:
                continue
            if key is None and part.sliced:
                if top is None:
                    raise ValueError("a slice's rows need the unit's top-level bindings")
                found = top.binding(name.decode("utf-8", "replace"))
                if found is not None:
                    key, kind = found.key, found.kind
            keyed.append((row, key))
            if itself and key is not None and kind is not None:
                calls.setdefault(key, []).append((start, end))
                kinds[key] = kind
    bindings = sorted(calls.items(), key=lambda item: (-len(item[1]), item[0]))
    # `.catch(noop)`: a function that does nothing is no sink, however often it is given the error (a
    # function declaration or a `const`: what a `var` or `let` holds may change)
    empty = [key for key, _ in bindings if kinds[key] in ("function", "const")
             and empty_function_at(source, key[1], key[0].encode())]
    # a parameter is the callback its caller passed: giving it the error passes the error on
    given = [(key, ids) for key, ids in bindings if kinds[key] in _PARAMETER_KINDS]
    bindings = [(key, ids) for key, ids in bindings if key not in empty and kinds[key] not in _PARAMETER_KINDS]
    left_out = tuple(f"{name} (declared at {offset}) left out: its body is empty" for name, offset in empty) + tuple(
        f"{name} (a parameter, declared at {offset}) left out: its caller's callback, {len(ids)} calls"
        for (name, offset), ids in given if len(ids) >= MIN_CALLS)
    described = [SinkCandidate(key[0], key[1], len(ids)) for key, ids in bindings]
    runner_ups = tuple(described[1:1 + _RUNNER_UPS])
    unresolved = tuple((n.decode("utf-8", "replace"), by_name[n]) for n in skipped)
    most = len(bindings[0][1]) if bindings else 0
    if most < MIN_CALLS or (len(bindings) > 1 and len(bindings[1][1]) == most) or any(
            by_name[n] >= most for n in skipped):
        why = (f"no binding is called with a caught value at least {MIN_CALLS} times, more than any other "
               f"and than any name too common to resolve" if bindings else "no resolved binding is called with a "
               "caught value")
        return SinkChoice(frozenset(), SinkEvidence(unit, None, None, 0, (why, *left_out),
                                                    tuple(described[:_RUNNER_UPS]), unresolved))
    (chosen, offset), ids = bindings[0]
    reports = [(row[1], row[2]) for row, key in keyed if not row[3] and key == (chosen, offset)]
    reasons = [f"called with a caught value in {len(ids)} handler calls"]
    if len(bindings) > 1:
        reasons.append(f"the runner-up, {bindings[1][0][0]}, in {len(bindings[1][1])}")
    reasons += left_out
    declaration = (offset, source.count(b"\n", 0, offset) + 1, kinds[(chosen, offset)])
    evidence = SinkEvidence(unit, chosen, declaration, len(ids), tuple(reasons), runner_ups, unresolved)
    return SinkChoice(frozenset(ids + reports), evidence)


#: after a declared name, a function that does nothing: `noop() {}` (after `function`), `noop = () => {}`,
#: `noop = function () {}`, its parameters plain names
_PARAMETERS = rb"\(\s*(?:[\w$]+\s*(?:,\s*[\w$]+\s*)*,?)?\s*\)"
_EMPTY_AFTER_NAME = re.compile(rb"\s*(?:" + _PARAMETERS + rb"|=\s*(?:async\s+)?(?:function\s*\*?\s*[\w$]*\s*"
                               + _PARAMETERS + rb"|(?:" + _PARAMETERS + rb"|[\w$]+)\s*=>))\s*\{\s*\}")


def empty_function_at(source: bytes, offset: int, name: bytes) -> bool:
    """Whether the declaration of `name` at `offset` is of a function whose body is empty."""
    return source.startswith(name, offset) and _EMPTY_AFTER_NAME.match(source, offset + len(name)) is not None


def _at_most(source: bytes, name: bytes, limit: int, start: int = 0, end: int | None = None) -> list[int] | None:
    """The offsets of `name`'s bytes in `source[start:end]`, each search starting past the
    previous occurrence, when they are at most `limit`; None past it (a common name occurs a
    hundred thousand times in a 27 MB bundle, and counting stops there)."""
    end = len(source) if end is None else end
    if not name:
        return [] if source.count(name, start, end) <= limit else None
    found: list[int] = []
    first = name[0] not in _COMMON
    if len(name) > 1 and (first or (name[-1] not in _COMMON and not _overlaps(name))):
        # the regex engine scans for one byte, `bytes.find` looks at every byte: the scan for a
        # rarer byte makes the search of 27 MB two to three times cheaper (docs/performance.md).
        # Else the last byte is scanned for, the rest of the name behind it: that finds every
        # occurrence when no two can overlap
        pattern = re.escape(name) if first else re.escape(name[-1:]) + b"(?<=" + re.escape(name) + b")"
        shift = 0 if first else len(name) - 1
        for match in re.compile(pattern).finditer(source, start, end):
            if len(found) == limit:
                return None
            found.append(match.start() - shift)
        return found
    at, step = source.find(name, start, end), len(name)
    while at >= 0:
        if len(found) == limit:
            return None
        found.append(at)
        at = source.find(name, at + step, end)
    return found


def _overlaps(name: bytes) -> bool:
    """Whether two occurrences of `name` can overlap: a proper prefix of it is also its suffix."""
    return any(name[:size] == name[-size:] for size in range(1, len(name)))

