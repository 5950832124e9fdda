"""Which top-level names each item of a unit references (`references.py` says what an item is).
Occurrences are found by bytes, the words of the items met with the top-level names; the tree
is asked only what the bytes cannot tell: whether an occurrence declares a binding, and whether
an item's occurrences hold a reference. In a tree where the parser recovered, every occurrence
is looked up (docs/references.md, "How occurrences are found")."""

from __future__ import annotations

import bisect
import re
from collections import defaultdict

from tree_sitter import Node

from analyzer.javascript.resolve import Binding, Paths, declaration
from analyzer.javascript.syntax import same, spaced, symbols_of

#: (start, end, node, (offset, name) of each top-level name it declares) of one item
RawItem = tuple[int, int, Node, tuple[tuple[int, bytes], ...]]

#: names that can refer to a binding (labels and `#private` names cannot)
REFERRING = frozenset({"identifier", "shorthand_property_identifier", "shorthand_property_identifier_pattern"})
_IDENTIFIER = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_$" + bytes(range(0x80, 0x100)))
#: what may not come right before a name's first byte: `a.b`, `#b` and `\u0062` name nothing
_NOT_BEFORE = _IDENTIFIER | frozenset(b".#\\")
#: every byte that cannot be part of a word made a space, so that `split` yields the words and
#: a search for a name between two spaces meets only whole words
_SPACES = bytes(b if b in _IDENTIFIER else 0x20 for b in range(256))
#: what follows a name that cannot be declaring it (a member, a call, an operator, a key ...)
_NEVER_DECLARING = re.compile(
    rb"[ \t]*(?:[.\[`:?+\-*%&|^<>~!\"'#@0-9]|==|/(?![/*])|(?!(?:in|of|as|from|extends)(?![\w$\x80-\xff]))[A-Za-z_$])"
)
_CALL = re.compile(rb"[ \t]*\(")
_FUNCTION_BEFORE = re.compile(rb"(?<![\w$\x80-\xff\\])function\Z")
#: a byte right before a name followed by `(` that leaves `_function_before` no case (most calls)
_NO_FUNCTION_BEFORE = frozenset(range(256)) - _IDENTIFIER - frozenset(b" \t*/\n\r")
#: what the byte right after a name says: it may be declared, it cannot be, or look further
_DECLARING, _NOT_DECLARING, _LOOK = 0, 1, 2
_AFTER_NAME = bytes(
    _NOT_DECLARING if b in b".[`:?+-*%&|^<>~!\"'#@0123456789" else _LOOK if b in b" \t=/(_$" or 0x61 <= b | 0x20 <= 0x7A
    else _DECLARING for b in range(256)
)
#: nodes that hold no code: an occurrence inside one is no name, nor is any other in it (not a
#: template, whose substitutions are code)
_TEXT_TYPES = frozenset({"string_fragment", "string", "comment", "regex", "regex_pattern", "regex_flags",
                         "escape_sequence", "html_comment", "hash_bang_line", "jsx_text"})

_REFERRING_SYMBOLS = symbols_of(REFERRING)
_TEXT_SYMBOLS = symbols_of(_TEXT_TYPES)

#: where an identifier may declare: parent type -> the field it must stand in (None: any child)
_DECLARING_FIELDS: dict[str, str | None] = {
    "variable_declarator": "name", "function_declaration": "name", "generator_function_declaration": "name",
    "function_expression": "name", "generator_function": "name", "class_declaration": "name", "class": "name",
    "arrow_function": "parameter", "catch_clause": "parameter", "for_in_statement": "left",
    "pair_pattern": "value", "assignment_pattern": "left",
    "formal_parameters": None, "import_specifier": None, "import_clause": None, "namespace_import": None,
    "array_pattern": None, "rest_pattern": None,
}


def references_of(
    raw: list[RawItem], names: frozenset[bytes], source: bytes, root: Node, tops: set[int], declared: set[int],
    around: tuple[int, int] | None = None, shadowed: set[tuple[int, bytes]] | None = None,
    edges: tuple[set[bytes], set[bytes]] | None = None,
) -> tuple[list[tuple[bytes, ...]], int]:
    """For each item, the top-level names (`names`) it references, each once; and how many (item, name)
    pairs needed a scope walk because a declaration of a local of that name is counted with
    the item (one inside it, or, outside every item, after it and before the next).
    `declared`: the offsets of the names the items declare (top-level declarations, known
    without a look). `around`: the range the items lie in when they are some of a unit's
    (the code outside every item there is counted with them; default: the whole source).
    `shadowed`: gets the (item, name) pairs of those walks. `edges`: gets the names of the locals
    declared in `around` before the first item, and the names found in the last item (a slice's
    merge counts the walks its neighbours would have made across the cut)."""
    words = _Words(spaced(source), names, declared, trusted=not root.has_error)  # white space past ASCII: no name
    found = _read(words, raw, around or (0, len(source)))
    words.suspects.sort()
    nodes: dict[int, Node | None] = {}
    top_declarations, inner = _declarations(raw, words.suspects, root, tops, nodes,  # besides `declared`
                                            None if edges is None else edges[0])
    if edges is not None and found:
        edges[1].update(found[-1])
    referenced: list[tuple[bytes, ...]] = []
    walked = 0
    for position, (_, _, node, _) in enumerate(raw):
        hits: list[bytes] = []
        if node.type != "import_statement":  # an import's names are the imported module's and their aliases
            for name, offsets in found[position].items():
                shadows = inner.get((position, name))
                walked += shadows is not None
                if shadows is not None and shadowed is not None:
                    shadowed.add((position, name))
                if _refers(node, name, offsets, shadows, (declared, top_declarations), nodes):
                    hits.append(name)
        referenced.append(tuple(hits) if hits else ())  # held until the unit's items are made: no set per item
    return referenced, walked


class _Words:
    """The occurrences of the top-level names in ranges of the source (`of`, `ranges`), and among
    them, in `suspects`, those that may declare a binding (all of them when the bytes are not
    `trusted`), but those `declared` at the top level."""

    def __init__(self, source: bytes, names: frozenset[bytes], declared: set[int], trusted: bool) -> None:
        self.source, self.names, self.declared, self.trusted = source, names, declared, trusted
        self.suspects: list[tuple[int, bytes]] = []
        self.needles: dict[bytes, bytes] = {}  # name -> the name between two spaces

    def of(self, start: int, end: int) -> dict[bytes, list[int]]:
        """The offsets of every occurrence in [start, end) of each name it holds as a word not
        after `.` (but `...`), `#` or `\\`, in byte order."""
        return self.ranges([start, end])[0]

    def ranges(self, bounds: list[int]) -> list[dict[bytes, list[int]]]:
        """`of` each range between consecutive `bounds` (increasing), in one pass over their
        bytes: the words met with the names, each name's word found from the last one's end (a
        name between two spaces: the next whole word), so the bytes are searched once. A word a
        bound cuts is in no range."""
        source, declared, suspects, trusted = self.source, self.declared, self.suspects, self.trusted
        needles = self.needles
        last = len(source)
        if len(bounds) < 2:
            return []
        start, end = bounds[0], bounds[-1]
        out: list[dict[bytes, list[int]]] = [defaultdict(list) for _ in range(len(bounds) - 1)]
        # each `...` made spaces (same offsets): a name after a spread's or rest's dots is a word
        # (`f(...a)`, `(...a) =>`), not a member's name; a run of dots cut at `start` is read
        # from its first dot, as a replacement over the whole source would read it
        first = start
        while first > 0 and source[first - 1] == 0x2E:
            first -= 1
        # `text[k]` is `source[first - 1 + k]` (a space before the source's first byte)
        text = source[first - 1:end] if first else b" " + source[:end]
        if b"..." in text:
            text = text.replace(b"...", b"   ")
        cut_end = end < last and source[end] in _IDENTIFIER  # the last word goes on past `end`
        # the words between spaces: `words[at]` is the byte before `source[start + at]`, which is
        # `text[shift + at]`
        words = b" " + text[start - first + 1:].translate(_SPACES) + b" "
        shift = start - first
        index, bound = 0, bounds[1]
        current = out[0]
        at = 0
        for name in filter(self.names.__contains__, words.split()):
            needle = needles.get(name)
            if needle is None:
                needle = needles[name] = b" " + name + b" "
            at = words.find(needle, at)
            offset = start + at
            if text[shift + at] in _NOT_BEFORE:  # inside the range, only `.`, `#` or `\\` can be
                at += len(name) + 1  # the space after a name may be the next one's before
                continue
            size = len(name)
            at += size + 1
            after = offset + size
            while offset >= bound:
                index += 1
                bound = bounds[index + 1]
                current = out[index]
            if after > bound or (after == end and cut_end):
                continue
            current[name].append(offset)
            if offset not in declared:
                decided = _AFTER_NAME[source[after]] if after < last and trusted else _DECLARING
                if decided == _DECLARING or (decided == _LOOK and (
                        (offset == 0 or source[offset - 1] not in _NO_FUNCTION_BEFORE
                         ) and _function_before(source, offset) if source[after] == 0x28  # (
                        else _maybe_declaring(source, offset, after))):
                    suspects.append((offset, name))
        return out


def _read(words: _Words, raw: list[RawItem], around: tuple[int, int]) -> list[dict[bytes, list[int]]]:
    """The occurrences in each item (`_Words.of`), the ranges of `around` outside every item read
    too (for their suspects); in one pass when the items lie apart in `around`, as a listing's do."""
    bounds, mine = [around[0]], []
    for start, end, _, _ in raw:
        if start < bounds[-1]:  # items that overlap, or one before `around`: each read alone
            found = [words.of(start, end) for start, end, _, _ in raw]
            for start, end in _gaps(raw, around):
                words.of(start, end)
            return found
        if start > bounds[-1]:
            bounds.append(start)
        mine.append(len(bounds) - 1)
        bounds.append(end)
    if around[1] > bounds[-1]:
        bounds.append(around[1])
    ranges = words.ranges(bounds)
    return [ranges[index] for index in mine]


def _gaps(raw: list[RawItem], around: tuple[int, int]) -> list[tuple[int, int]]:
    """The byte ranges of `around` outside every item."""
    gaps, at = [], around[0]
    for start, end, _, _ in raw:
        if start > at:
            gaps.append((at, start))
        at = max(at, end)
    if at < around[1]:
        gaps.append((at, around[1]))
    return gaps


def _maybe_declaring(source: bytes, start: int, end: int) -> bool:
    """Whether the bytes around the name at [start, end) allow it to be declared there, when
    the byte after it leaves that open (`_LOOK`)."""
    if _CALL.match(source, end) is not None:
        return _function_before(source, start)
    return _NEVER_DECLARING.match(source, end) is None


def _function_before(source: bytes, start: int) -> bool:
    """Whether a name followed by `(` may be a function's or generator's: after `function`, `*`
    or a comment (`/`), or after a line break."""
    at = start - 1
    while at >= 0 and source[at] in b" \t":
        at -= 1
    if at < 0 or source[at] in b"*/\n\r":
        return True
    return source[at] in _IDENTIFIER and _FUNCTION_BEFORE.search(source, max(0, at - 8), at + 1) is not None


def _declarations(
    raw: list[RawItem], suspects: list[tuple[int, bytes]], root: Node, tops: set[int], nodes: dict[int, Node | None],
    leading: set[bytes] | None = None,
) -> tuple[set[int], dict[tuple[int, bytes], list[Binding]]]:
    """(offsets of names declared at the top level, bindings of locals by (item, name)) among the
    `suspects` (sorted); the occurrences looked up are kept in `nodes` (None: no node spans
    exactly the name). `leading`: gets the names of the locals declared before the first item."""
    starts = [item[0] for item in raw]
    paths = Paths(root)
    top_declarations: set[int] = set()
    inner: dict[tuple[int, bytes], list[Binding]] = defaultdict(list)
    for start, name in suspects:
        end = start + len(name)
        node = paths.find(start, end)
        if node is None or node.start_byte != start or node.end_byte != end:
            nodes[start] = None
            continue
        nodes[start] = node
        above = paths.here()
        parent = above.at(0)
        if parent is None or not _may_declare(node, parent):
            continue
        binding = declaration(name.decode("utf-8", "surrogateescape"), node, root, above)
        if binding is None:
            continue
        if binding.scope.id in tops:
            top_declarations.add(start)
            continue
        position = bisect.bisect_right(starts, start) - 1
        if position >= 0:
            inner[(position, name)].append(binding)
        elif leading is not None:
            leading.add(name)
    return top_declarations, inner


def _may_declare(node: Node, parent: Node) -> bool:
    """An identifier in a position that may declare: a superset of `declaration`'s positive
    cases, which then decides each."""
    if node.type == "shorthand_property_identifier_pattern":
        return True
    if node.type != "identifier" or parent.type not in _DECLARING_FIELDS:
        return False
    field = _DECLARING_FIELDS[parent.type]
    return field is None or same(parent.child_by_field_name(field), node)


def _refers(
    item: Node, name: bytes, offsets: list[int], shadows: list[Binding] | None,
    top_declarations: tuple[set[int], set[int]], nodes: dict[int, Node | None],
) -> bool:
    """Whether one of the occurrences of `name` in the item is a reference to the top-level
    binding: an identifier that declares nothing and lies in no scope of a local `name`."""
    if shadows:
        shadowed = _union(sorted((b.scope.start_byte, b.scope.end_byte) for b in shadows))
        starts = [start for start, _ in shadowed]
        declared = {b.declaration.start_byte for b in shadows}
    size, skip_to = len(name), -1
    declared_here, declared_found = top_declarations  # the items' own, those found by a look
    for at in offsets:
        if at < skip_to or at in declared_here or at in declared_found:
            continue
        if at in nodes:
            node = nodes[at]
        else:
            found = item.descendant_for_byte_range(at, at + size)
            if found is None:
                continue
            if found.start_byte != at or found.end_byte != at + size:
                if found.kind_id in _TEXT_SYMBOLS:
                    skip_to = found.end_byte  # no other occurrence in this literal is a name either
                continue
            node = found
        if node is None or node.kind_id not in _REFERRING_SYMBOLS:
            continue
        if not shadows:
            return True
        if at in declared:
            continue
        # a name (a leaf, never empty) lies in a scope exactly when the scope's range holds it
        inside = bisect.bisect_right(starts, at) - 1
        if inside < 0 or shadowed[inside][1] < at + size:
            return True
    return False


def _union(ranges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Sorted ranges merged where they overlap (scopes nest or lie apart)."""
    out: list[tuple[int, int]] = []
    for start, end in ranges:
        if out and start <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], end))
        else:
            out.append((start, end))
    return out
