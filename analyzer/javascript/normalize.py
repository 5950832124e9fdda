"""The JavaScript token normalizer behind fp1 (docs/fingerprints.md): anchors (a node
or a window of siblings) and their alpha-normalized text, from tree-sitter trees. The digests
and forms themselves are portable (`analyzer.identity`)."""

from __future__ import annotations

import bisect
import re
from array import array
from collections.abc import Sequence
from operator import attrgetter

from tree_sitter import Node, Query, QueryCursor

from analyzer.identity import digest_of
from analyzer.javascript.syntax import FUNCTION_TYPES, LANGUAGE, named_index
from analyzer.limits import WorkBudget

#: largest anchor, in syntax nodes (about 2 bytes each in minified code); chosen by measurement
#: across platform builds (bench/fingerprint_pairing.py, docs/fingerprints.md)
ANCHOR_LIMIT = 1024
_RENAMEABLE = Query(
    LANGUAGE,
    """
    [(identifier) (shorthand_property_identifier) (shorthand_property_identifier_pattern)
     (private_property_identifier) (statement_identifier)] @name
    """,
)
_FOLDABLE = Query(
    LANGUAGE,
    """
    (member_expression object: [(object) (parenthesized_expression (object))]
                       property: (property_identifier)) @fold
    (subscript_expression object: [(object) (parenthesized_expression (object))]
                          index: (string)) @fold
    """,
)
#: what may separate a build-constant object's last value from the key read
_GAP = re.compile(rb"\s*\}\s*(?:\)\s*)?(?:\?\.\s*\[|\?\.|\.|\[)\s*")
#: the end of a possible constant read: a closing brace, an optional parenthesis and an accessor
#: (found from its `}`, a literal the regex engine scans for quickly)
_READ_TAIL = re.compile(rb"\}\s*(?:\)\s*)?(?:\?\.|\.|\[)")
#: what may stand right before that tail, but whitespace: the last character of a constant
#: literal (a quote, a backquote, a letter, a digit or `.`); with `_READ_TAIL`, a cheap
#: necessary condition for `_GAP` after a literal, so that the `_FOLDABLE` query is run only
#: around the few places it holds
_LITERAL_LAST = frozenset(b"\"'`._0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
_SPACE = frozenset(b" \t\n\r\f\v")  # `\s` of a bytes pattern
#: values of a build-constant object literal: literals without names or side effects
_CONSTANT_TYPES = frozenset({"string", "number", "true", "false", "null", "template_string"})
_ANCHOR_STOP = FUNCTION_TYPES | {"class_static_block", "program"}


class Window:
    """A run of consecutive siblings used as one anchor: the callsite's neighbourhood inside a
    node too large to be an anchor itself."""

    __slots__ = ("end_byte", "id", "members", "parent", "start_byte", "type")

    def __init__(self, parent: Node, members: Sequence[Node], kind: str | None = None) -> None:
        self.parent = parent
        #: the named siblings of the run, comments left out
        self.members = members
        #: `kind`: the parent's type as the whole tree has it (a slice's root stands for the list)
        self.type = f"{kind or parent.type}[]"
        self.start_byte = members[0].start_byte
        self.end_byte = members[-1].end_byte
        self.id = (parent.id, self.start_byte, self.end_byte)


class Siblings:
    """The named children (comments left out) of the nodes windows are cut from, with their
    starts and sizes, listed once per node: stepping by `next_named_sibling` costs a descent from
    the root at every step, and a statement list can hold a million statements."""

    def __init__(self) -> None:
        self._runs: dict[int, tuple[list[Node], list[int], list[int]]] = {}
        self._indexes: dict[int, dict[int, int]] = {}

    def named_index(self, parent: Node, child: Node) -> int:
        """`syntax.named_index` (comments counted), the named children of a wide node indexed
        once: an array of 100,000 errors is 100,000 lookups, not 100,000 scans."""
        if parent.named_child_count <= _WIDE:
            return named_index(parent, child)
        index = self._indexes.get(parent.id)
        if index is None:
            index = self._indexes[parent.id] = {c.id: at for at, c in enumerate(parent.named_children)}
        return index.get(child.id, -1)

    def of(self, parent: Node) -> tuple[list[Node], list[int], list[int]]:
        """(children, their start bytes, their sizes in syntax nodes)."""
        run = self._runs.get(parent.id)
        if run is None:
            nodes = [c for c in parent.named_children if c.type != "comment"]
            run = self._runs[parent.id] = (nodes, [c.start_byte for c in nodes], [c.descendant_count for c in nodes])
        return run


Anchor = Node | Window


#: nodes with more named children than this get them indexed (`Siblings.named_index`)
_WIDE = 64

#: the renameable names of a piece of a tree: (starts, stops), sorted by start
Names = tuple[list[int], list[int]]
_START, _END = attrgetter("start_byte"), attrgetter("end_byte")


class Normalizer:
    """Alpha-normalized digests of anchors (nodes or windows) of one tree, cached by node id:
    one per tree (`unit_tree.UnitTree`), since a freed tree's ids are reused by the next."""

    def __init__(self, source: bytes, budget: WorkBudget | None = None, names: KnownNames | None = None,
                 own: tuple[int, int] | None = None) -> None:
        self.source = source
        #: a slice's bytes: a head node past them (Bun's wrapper, L emptied) lacks L's names: never kept
        self.own = own
        #: node visits left for this tree's callsites (the work bound), None: unbounded
        self.budget = budget
        self._cache: dict[object, bytes] = {}
        #: the run of siblings each window is cut from (`anchor_of`)
        self.siblings = Siblings()
        #: the names of every node captured so far (callsites', handlers', bindings' anchors), by
        #: offset: the trees of one unit may share them (`names`)
        self._known = KnownNames() if names is None else names
        #: (start, end, type) of nodes whose digest's visits another tree counted (docs/slices.md, 10c)
        self.paid: frozenset[tuple[int, int, str]] = frozenset()

    def digest(self, node: Anchor) -> bytes:
        cached = self._cache.get(node.id)
        if cached is None:
            # a window is bounded by ANCHOR_LIMIT, a function is not
            if isinstance(node, Node) and not (self.paid and (node.start_byte, node.end_byte, node.type) in self.paid):
                self.spend(node.descendant_count)
            cached = self._cache[node.id] = digest_of(node.type, self.normalized_span(node, self.names(node)))
        return cached

    def unspent(self, node: Anchor) -> bytes:
        """`digest` without the node visits spent (a caller that notes them itself)."""
        cached = self._cache.get(node.id)
        if cached is None:
            cached = self._cache[node.id] = digest_of(node.type, self.normalized_span(node, self.names(node)))
        return cached

    def spend(self, nodes: int) -> None:
        """Count node visits against the work bound (BoundExceeded past it)."""
        if self.budget is not None:
            self.budget.spend(nodes)

    def normalized(self, node: Anchor) -> bytes:
        """The anchor's source with each renameable name replaced by `\\0N\\0`, N the index
        of the name's first occurrence in the anchor, and each read of a key of a literal object
        (`{VERSION:"2.1.98",...}.VERSION`, how bundlers inline a table of build-time constants)
        replaced by `\\0=KEY\\0` (docs/fingerprints.md): invariant under any consistent
        renaming and under the values of build constants, sensitive to everything else."""
        return self.normalized_span(node, self.names(node))

    def normalized_span(self, node: Anchor, names: Names) -> bytes:
        """`normalized` for a caller that already has the anchor's renameable names (`names`)."""
        source, begin, end = self.source, node.start_byte, node.end_byte
        starts, stops = names
        reads = _possible_reads(node, source)
        if reads:
            replaced: dict[int, bytes] = {}
            spans: list[tuple[int, int]] = []
            for read in reads:
                key = _constant_read(read, source)
                if key is not None:
                    spans.append((read.start_byte, read.end_byte))
                    replaced[read.start_byte] = b"\x00=%s\x00" % key
            if replaced:
                spans += zip(starts, stops)
                spans.sort()  # a read's start is never a name's start
                return _with_reads(source, begin, end, spans, replaced)
        if not starts:
            return source[begin:end]
        # one slice a piece (gap, name, gap, ..., gap), the names then swapped for their marks, each
        # name's index that of its text's first occurrence; all in C
        bounds = [begin] * (2 * len(starts) + 2)
        bounds[1:-1:2] = starts
        bounds[2:-1:2] = stops
        bounds[-1] = end
        pieces = list(map(source.__getitem__, map(slice, bounds, bounds[1:])))
        texts = pieces[1::2]
        first = dict.fromkeys(texts)
        index = dict(zip(first, _marks(len(first))))
        pieces[1::2] = map(index.__getitem__, texts)
        return b"".join(pieces)

    def names(self, node: Anchor) -> Names:
        """The renameable names inside the anchor (a window's, member by member), each node's
        read by bisection from a captured node holding it, else captured and kept: neighbouring
        windows share members, a function holds its callsites' windows, an item its bindings'."""
        if isinstance(node, Node):
            return self._node_names(node)
        starts: list[int] = []
        stops: list[int] = []
        for member in node.members:
            member_starts, member_stops = self._node_names(member)
            starts += member_starts
            stops += member_stops
        return starts, stops

    def _node_names(self, node: Node) -> Names:
        start, end = node.start_byte, node.end_byte
        if node.has_error:
            # a zero-width name (MISSING) may share a start, or touch an inner node without lying
            # in it: such a node's names are sorted as pairs and not kept
            captured = _captures(_RENAMEABLE, node)
            pairs = sorted(zip(map(_START, captured), map(_END, captured)))
            return [name for name, _ in pairs], [stop for _, stop in pairs]
        known = self._known
        first, last, within = known.spans(start, end)
        if within:
            return known.names_of(first, start, end)
        if first == last:
            captured = _captures(_RENAMEABLE, node)
            captured.sort(key=_START)  # the captures do not come in source order; names start apart
            starts, stops = list(map(_START, captured)), list(map(_END, captured))
        else:
            starts, stops = self._around(node, known, first, last)
        if self.own is None or self.own[0] <= start <= end <= self.own[1]:
            known.keep(first, last, start, end, starts, stops)
        return starts, stops

    def _around(self, node: Node, known: KnownNames, first: int, last: int) -> Names:
        """The names of a node holding the kept spans `first` to `last`: theirs read, only the
        bytes between them queried (a name, a leaf, lies in a span or between two)."""
        starts: list[int] = []
        stops: list[int] = []
        at = node.start_byte
        for span in range(first, last + 1):
            end = node.end_byte
            span_start, span_end, span_starts, span_stops = known.kept(span) if span < last else (end, end, (), ())
            if at < span_start:
                captured = _ranged_captures(_RENAMEABLE, node, at, span_start)
                captured.sort(key=_START)
                starts += map(_START, captured)
                stops += map(_END, captured)
            starts += span_starts
            stops += span_stops
            at = span_end
        return starts, stops


class KnownNames:
    """The renameable names of the nodes captured so far, by disjoint spans sorted by start (a
    node's span replaces those of the nodes inside it), so that a node inside one is read by
    bisection. Name offsets are kept in arrays: 16 bytes a name."""

    def __init__(self) -> None:
        self._starts: list[int] = []
        self._ends: list[int] = []
        self._names: list[tuple[array[int], array[int]]] = []

    def spans(self, start: int, end: int) -> tuple[int, int, bool]:
        """Where the bytes [start, end) stand among the kept spans: (the index of the span holding
        them, that index, True), else (first, last, False), the spans from first to last (excluded)
        lying inside them."""
        starts, ends = self._starts, self._ends
        at = bisect.bisect_right(starts, start) - 1
        if at >= 0 and end <= ends[at]:
            return at, at, True
        first = last = bisect.bisect_left(starts, start)
        while last < len(ends) and ends[last] <= end:
            last += 1
        return first, last, False

    def kept(self, at: int) -> tuple[int, int, array[int], array[int]]:
        return self._starts[at], self._ends[at], *self._names[at]

    def names_of(self, at: int, start: int, end: int) -> Names:
        """The names in [start, end), inside the span `at`."""
        starts, stops = self._names[at]
        first, last = bisect.bisect_left(starts, start), bisect.bisect_left(starts, end)
        return starts[first:last].tolist(), stops[first:last].tolist()

    def keep(self, first: int, last: int, start: int, end: int, starts: list[int], stops: list[int]) -> None:
        """Keep a node's names in place of the spans `first` to `last` (excluded), which lie inside
        it (it answers for them): `spans`' answer for it."""
        self._starts[first:last] = [start]
        self._ends[first:last] = [end]
        self._names[first:last] = [(array("q", starts), array("q", stops))]


def _with_reads(
    source: bytes, begin: int, end: int, names: list[tuple[int, int]], replaced: dict[int, bytes]
) -> bytes:
    """`normalized_span` of an anchor holding constant reads: the names inside a read are left
    out, the read itself replaced."""
    pieces, at = [], begin
    index: dict[bytes, int] = {}
    for start, stop in names:
        if start < at:
            continue  # inside a replaced read (or a nested capture, never in practice)
        pieces.append(source[at:start])
        replacement = replaced.get(start)
        if replacement is None:
            replacement = b"\x00%d\x00" % index.setdefault(source[start:stop], len(index))
        pieces.append(replacement)
        at = stop
    pieces.append(source[at:end])
    return b"".join(pieces)


#: `\0N\0` for the name indexes made so far
_MARKS: list[bytes] = []


def _marks(count: int) -> list[bytes]:
    """`_MARKS`, grown to hold the first `count` indexes."""
    while len(_MARKS) < count:
        _MARKS.append(b"\x00%d\x00" % len(_MARKS))
    return _MARKS


#: one cursor per query (never given a byte range, so reusable)
_NODE_CURSORS: dict[int, QueryCursor] = {}


def window(parent: Node, child: Node, limit: int, siblings: Siblings | None = None) -> Anchor:
    """The run of siblings around `child` inside `parent` within `limit` nodes (see anchor_of);
    `siblings` shared by the calls on one tree lists each parent's children once."""
    return _window(parent, child, limit, siblings if siblings is not None else Siblings())


def _captures(query: Query, node: Node) -> list[Node]:
    """The nodes a one-capture query captures inside `node`: the cursor's own list, not a copy
    (a window's names are read member by member: `Normalizer.names`)."""
    cursor = _NODE_CURSORS.get(id(query))
    if cursor is None:
        cursor = _NODE_CURSORS[id(query)] = QueryCursor(query)
    for nodes in cursor.captures(node).values():
        return nodes
    return []


def _ranged_captures(query: Query, node: Node, start: int, end: int) -> list[Node]:
    """`_captures` of the nodes inside `node` that overlap the bytes [start, end)."""
    cursor = _RANGED_CURSORS.get(id(query))
    if cursor is None:
        cursor = _RANGED_CURSORS[id(query)] = QueryCursor(query)
    cursor.set_byte_range(start, end)
    for nodes in cursor.captures(node).values():
        return nodes
    return []


def _possible_reads(anchor: Anchor, source: bytes) -> list[Node]:
    """The `_FOLDABLE` captures of the anchor that may be constant reads: the query is run only
    over the bytes around each place where a literal's last character, `}`, an optional `)`
    and an accessor follow each other (`_constant_read` needs them), each capture once. A read
    spans those bytes, so a cursor given their range captures it (and captures nothing the
    whole anchor's query would not)."""
    begin, end = anchor.start_byte, anchor.end_byte
    members = [anchor] if isinstance(anchor, Node) else anchor.members
    cursor = _RANGED_CURSORS.get(id(_FOLDABLE))
    if cursor is None:
        cursor = _RANGED_CURSORS[id(_FOLDABLE)] = QueryCursor(_FOLDABLE)
    found: dict[int, Node] = {}
    at = begin
    while (tail := _READ_TAIL.search(source, at, end)) is not None:
        brace = at = tail.start()
        before = brace - 1
        while before >= begin and source[before] in _SPACE:
            before -= 1
        at += 1
        if before < begin or source[before] not in _LITERAL_LAST:
            continue
        cursor.set_byte_range(before, tail.end())
        for member in members:
            if member.start_byte < tail.end() and before < member.end_byte:
                for nodes in cursor.captures(member).values():
                    found.update((read.id, read) for read in nodes)
    return list(found.values())


#: one cursor per query whose byte range is set before each use
_RANGED_CURSORS: dict[int, QueryCursor] = {}


def _constant_read(read: Node, source: bytes) -> bytes | None:
    """The key read, when `read` reads a key of an object literal (optionally in one pair of
    parentheses) whose members are all `key: literal` pairs, with plain keys (names, or strings
    without escapes; no `__proto__`), no comment, no trailing comma, and only whitespace
    between the last value, the closing brace, the parenthesis and the accessor."""
    target = read.child_by_field_name("object")
    key_node = read.child_by_field_name("property" if read.type == "member_expression" else "index")
    if target is None or key_node is None:
        return None
    if target.type == "parenthesized_expression":
        target = target.named_children[0]
    key = _key(key_node)
    members = target.named_children
    if key is None or not members:
        return None
    if not _GAP.fullmatch(source, members[-1].end_byte, key_node.start_byte):
        return None
    found = False
    for member in members:
        if member.type != "pair":
            return None
        name = _key(member.child_by_field_name("key"))
        value = member.child_by_field_name("value")
        if name is None or name == b"__proto__" or value is None or not _constant(value):
            return None
        found = found or name == key
    return key if found else None


def _key(node: Node | None) -> bytes | None:
    if node is None:
        return None
    raw = node.text or b""
    if node.type == "property_identifier":
        return raw
    if node.type == "string" and b"\\" not in raw:
        return raw[1:-1]
    return None


def _constant(value: Node) -> bool:
    if value.type == "template_string":
        return not any(c.type == "template_substitution" for c in value.named_children)
    if value.type == "unary_expression":
        argument = value.child_by_field_name("argument")
        operator = value.child_by_field_name("operator")
        return (
            argument is not None
            and argument.type == "number"
            and operator is not None
            and operator.type in ("!", "-", "+", "void")
        )
    return value.type in _CONSTANT_TYPES


def anchor_of(
    callsite: Node, chain: Sequence[Node], limit: int | None = None, siblings: Siblings | None = None,
    root: Node | None = None, list_type: str | None = None,
) -> Anchor:
    """The innermost enclosing function when it has at most `limit` syntax nodes. Otherwise,
    below the first enclosing node that has more, the child holding the callsite, grown over its
    neighbouring siblings (alternately the previous and the next) while the run stays within
    `limit` nodes; the callsite itself when even it has more. Sizes count syntax nodes, not
    bytes, so that renaming (which changes the length of names) never moves an anchor.
    `chain`: the callsite's ancestors up to the root, innermost first; `root`: the tree's root in
    it (default: its last), where a window is the last resort; `list_type`: the type of the
    statement list that root stands for, when it is a slice's (docs/slices.md)."""
    limit = ANCHOR_LIMIT if limit is None else limit
    if callsite.descendant_count > limit:
        return callsite
    inner = callsite
    if root is None:
        root = chain[-1] if chain else None
    for node in chain:
        # the root is the program, whatever its type (an ERROR node when the parser recovered
        # from the first bytes on)
        if node is root or node.type == "program" or node.descendant_count > limit:
            return _window(node, inner, limit, siblings if siblings is not None else Siblings(),
                           list_type if node is root else None)
        if node.type in _ANCHOR_STOP:
            return node
        inner = node
    return inner


def _window(parent: Node, child: Node, limit: int, siblings: Siblings, kind: str | None = None) -> Anchor:
    nodes, starts, sizes = siblings.of(parent)
    at = bisect.bisect_left(starts, child.start_byte)
    while at < len(nodes) and nodes[at].id != child.id:
        at += 1  # zero-width (MISSING) siblings can share a start
    if at == len(nodes):
        return child  # a comment (never a callsite's ancestor) or a child the run lacks
    first = last = at
    size = sizes[at]
    before = after = True
    while before or after:
        if before:
            before = first > 0 and size + sizes[first - 1] <= limit
            if before:
                first -= 1
                size += sizes[first]
        if after:
            after = last + 1 < len(nodes) and size + sizes[last + 1] <= limit
            if after:
                last += 1
                size += sizes[last]
    if first == last:
        return child
    return Window(parent, nodes[first:last + 1], kind)


def innermost_function(chain: Sequence[Node], stand_in: Node | None = None) -> Node | None:
    """The first function or static block of `chain`, None at the program; `stand_in`: a slice
    tree's root, passed over (it stands for the statement list, its head chain follows it)."""
    for node in chain:
        if node.type in _ANCHOR_STOP and node is not stand_in:
            return None if node.type == "program" else node
    return None
