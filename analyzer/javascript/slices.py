"""One unit parsed as N slices of its top-level statement list L (docs/slices.md): the plan (L,
its braces, the cuts, from the byte scanner's statement ends: `slice_scanner`), the head tree H
(the unit with L emptied) and the slice trees, parsed at the unit's offsets and points, and the
check that they stand for the whole tree, as a whole or one tree at a time (`check_head`,
`check_slice`). The driver (`sliced`) reads a unit so when the executor's cut count is above 1."""

from __future__ import annotations

import bisect
import itertools
import re
from array import array
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from tree_sitter import Parser, Point, Range, Tree

from analyzer.javascript.modules.statements import main_container
from analyzer.javascript.slice_scanner import PROGRAM, NestedList, Scanned, statement_ends

_SPACE = re.compile(rb"\s*+")
_NEWLINE = re.compile(rb"\n")
_WHITE = frozenset(b" \t\n\r\x0b\x0c")
ListKind = Literal["program", "bun-cjs-body"]

# Bun's CommonJS wrapper as `modules.statements.main_container` finds it, at the unit's start
_BUN_CJS_HEAD = re.compile(
    rb"(?:\s|//[^\n\r]*+|/\*[\s\S]*?\*/)*+\(\s*function\s*\(\s*exports\s*,\s*require\s*,\s*module\s*,"
    rb"\s*__filename\s*,\s*__dirname\s*\)\s*\{")
_BUN_CJS_TAIL = re.compile(rb"\s*\)(?:\s|;|//[^\n\r]*+|/\*[\s\S]*?\*/)*+")
#: bytes outside L always accepted (a small unit's wrapper is most of it), and the share beyond
_HEAD_ALLOWANCE = 4096
_MAX_OUTSIDE_SHARE = 0.1
#: a gap between two statement ends over this share of L is about one statement holding most of it
_MAX_STATEMENT_SHARE = 0.5
#: the sizes of the slices nearest the middle of L, against the others': two readers from both
#: ends meet there, and the one done first idles at most the other's last, small slice
#: (docs/slices.md, step 10); the middle one or two first, then their neighbours
_MEETING_SHARES = (0.36, 0.6)


@dataclass(frozen=True, slots=True)
class Plan:
    """How a unit is cut: L, and N ranges of its inside, each a run of whole statements."""

    #: which list L is: the program, or the body of Bun's CommonJS wrapper
    kind: ListKind
    #: L's `{` and `}` (None for the program)
    braces: tuple[int, int] | None
    #: each slice's bytes [start, end), in order, tiling L's inside
    ranges: tuple[tuple[int, int], ...]
    #: each slice's first statement's start and last statement's end, as the bytes say
    spans: tuple[tuple[int, int], ...]
    #: the statement ends the scanner found in L (the cuts are some of them)
    boundaries: int
    #: each of those ends in L, with where the next statement starts (none: unknown)
    ends: tuple[tuple[int, int], ...] = ()


def plan(source: bytes, count: int) -> Plan | None:
    """The plan for `count` slices, or None when the unit is parsed whole (`plan_of` says why)."""
    made = plan_of(source, count)
    return made if isinstance(made, Plan) else None


def plan_of(source: bytes, count: int, scanned: Scanned | None = None) -> Plan | str:
    """The plan for at most `count` slices cut by bytes, smaller toward the middle
    (`shares`; by bytes alone when that gives fewer slices), or why the unit stays one tree;
    `scanned`: the unit's `statement_ends`, when the caller keeps it."""
    if count < 2:
        return "fewer than 2 slices asked"
    scanned = scanned or statement_ends(source)
    if scanned.trouble is not None:
        return f"the scanner is unsure: {scanned.trouble}"
    list_of = _list_of(source, scanned)
    if isinstance(list_of, str):
        return list_of
    kind, braces, start, stop = list_of
    outside = len(source) - (stop - start)
    if outside > max(_HEAD_ALLOWANCE, len(source) * _MAX_OUTSIDE_SHARE):
        return f"L holds {stop - start} of {len(source)} bytes"
    first, last = _after_space(source, start), stop
    while last > first and source[last - 1] in _WHITE:  # L's trailing white space: a few bytes
        last -= 1
    # a cut is the byte after a `;`; the next slice starts at the next token (a comment or a statement)
    cuts = [(end, _after_space(source, end)) for end in scanned.ends.get(PROGRAM if braces is None else braces[0], ())]
    cuts = [(end, next_start) for end, next_start in cuts if first < end and next_start < last]
    edges = [first, *(end for end, _ in cuts), last]
    widest = max(b - a for a, b in itertools.pairwise(edges))
    if not cuts or widest > (last - first) * _MAX_STATEMENT_SHARE:
        return f"one stretch holds most of L: {widest} of its {last - first} bytes hold no statement end"
    ends = [end for end, _ in cuts]
    chosen = _balanced(ends, first, last, shares(count))
    if len(chosen) < count - 1:  # small middle slices on one statement end: by bytes alone
        chosen = max(chosen, _balanced(ends, first, last, [1.0] * count), key=len)
    starts = [start, *(cuts[i][1] for i in chosen)]
    ranges = tuple(zip(starts, [*starts[1:], stop], strict=True))
    spans = tuple(zip([first, *starts[1:]], [*(cuts[i][0] for i in chosen), last], strict=True))
    return Plan(kind, braces, ranges, spans, len(cuts), tuple(cuts))


def _after_space(source: bytes, at: int) -> int:
    found = _SPACE.match(source, at)
    return found.end() if found else at


def _list_of(source: bytes, scanned: Scanned) -> tuple[ListKind, tuple[int, int] | None, int, int] | str:
    """L: its kind, braces and inside [start, stop)."""
    head = _BUN_CJS_HEAD.match(source)
    if head is None:
        return "program", None, 0, len(source)
    opener = head.end() - 1
    closer = scanned.closers.get(opener, -1)
    tail = _BUN_CJS_TAIL.match(source, closer + 1)
    if closer < 0 or tail is None or tail.end() != len(source):
        return "the Bun CommonJS wrapper is followed by more code"
    return "bun-cjs-body", (opener, closer), opener + 1, closer


def shares(count: int) -> list[float]:
    """Each of `count` slices' share of L's bytes: the same, but the middle ones'
    (`_MEETING_SHARES`; the first and last slices' never)."""
    middle = (count - 1) // 2  # the nearer end's distance of the middle slice or two
    made = []
    for index in range(count):
        inward = min(index, count - 1 - index)
        toward = middle - inward  # 0 for the middle ones
        made.append(_MEETING_SHARES[toward] if inward and toward < len(_MEETING_SHARES) else 1.0)
    return made


def _balanced(ends: list[int], first: int, last: int, parts: list[float]) -> list[int]:
    """Indexes of the ends nearest to where `parts` (shares of [first, last)) meet, each once."""
    chosen: list[int] = []
    total, reached = sum(parts), 0.0
    for share in parts[:-1]:
        reached += share
        goal = first + round((last - first) * reached / total)
        at = bisect.bisect_left(ends, goal)
        near = min((i for i in (at - 1, at) if 0 <= i < len(ends)), key=lambda i: abs(ends[i] - goal))
        if not chosen or near > chosen[-1]:
            chosen.append(near)
    return chosen


def point(source: bytes, offset: int) -> Point:
    """The row and byte column of `offset`, as tree-sitter counts them (rows end at `\\n`)."""
    newlines = _newlines(source)
    row = bisect.bisect_left(newlines, offset)  # the line breaks before `offset`
    return Point(row, offset - (newlines[row - 1] + 1 if row else 0))


def _newlines(source: bytes) -> array[int]:
    """The offset of every `\\n` of the unit, found once (kept for the last unit asked of, known
    by identity: no hash of its bytes): each slice and statement run parsed alone needs two
    points, and counting from the unit's start each time read it whole."""
    global _last_newlines
    if _last_newlines is not None and _last_newlines[0] is source:
        return _last_newlines[1]
    found = array("q", [match.start() for match in _NEWLINE.finditer(source)])
    _last_newlines = (source, found)
    return found


#: the last unit `_newlines` was asked of, and its line breaks' offsets
_last_newlines: tuple[bytes, array[int]] | None = None


def parse_range_of(source: bytes, start: int, end: int) -> Range:
    """[start, end) as an included range of the parser, with its points."""
    return Range(point(source, start), point(source, end), start, end)


def parse_head(parser: Parser, source: bytes, plan: Plan) -> Tree | None:
    """H: the unit with L emptied, its nodes above L at the unit's offsets (None for a program
    list: nothing is above it but the root). Sets the parser's included ranges."""
    if plan.braces is None:
        return None
    opener, closer = plan.braces
    parser.included_ranges = [parse_range_of(source, 0, opener + 1), parse_range_of(source, closer, len(source))]
    return parser.parse(source)


def parse_slice(parser: Parser, source: bytes, plan: Plan, index: int) -> Tree:
    """Slice `index`: a `program` whose children are its statements, at the unit's offsets and
    points. `parser`: one from `syntax.new_parser`, as the scan's; its included ranges are set."""
    return parse_range(parser, source, plan.ranges[index])


def parse_range(parser: Parser, source: bytes, bytes_range: tuple[int, int]) -> Tree:
    """A run of L's whole statements (a slice's range, or a `statement_at`'s)."""
    parser.included_ranges = [parse_range_of(source, *bytes_range)]
    return parser.parse(source)


def statement_at(plan: Plan, offset: int) -> tuple[tuple[int, int], tuple[int, int]] | None:
    """The range and span (as a slice's) of the run of L between the statement ends around
    `offset`: one statement, or a few when the scanner saw no end between them; None when the
    plan does not know its ends."""
    if not plan.ends:
        return None
    at = bisect.bisect_right(plan.ends, offset, key=lambda end: end[0])  # the ends at or before it
    start = plan.ranges[0][0] if at == 0 else plan.ends[at - 1][1]
    first = plan.spans[0][0] if at == 0 else start
    at_end = at == len(plan.ends)
    stop, last = (plan.ranges[-1][1], plan.spans[-1][1]) if at_end else (plan.ends[at][1], plan.ends[at][0])
    return (start, stop), (first, last)


def nested_statement_at(
    source: bytes, lists: Sequence[NestedList], offset: int,
) -> tuple[tuple[int, int], tuple[int, int]] | None:
    """The innermost of `lists` (`slice_scanner.nested_lists`, by opener) holding `offset`, as
    its braces, and the run of its statements between the ends around `offset`, as a range to
    parse alone (its first statement's start, its last one's end); None when none holds it."""
    at = bisect.bisect_right(lists, offset, key=lambda entry: entry[0])
    for opener, closer, ends in reversed(lists[:at]):
        if not opener < offset < closer:
            continue
        index = bisect.bisect_right(ends, offset)
        start = _after_space(source, ends[index - 1] if index else opener + 1)
        stop = ends[index] if index < len(ends) else closer
        while stop > start and source[stop - 1] in _WHITE:
            stop -= 1
        return (opener, closer + 1), (start, stop)
    return None


def node_count(head: Tree | None, slices: Sequence[Tree]) -> int:
    """The whole tree's `descendant_count`: H's (1 for a program list: its root) plus each slice
    root's, less the slice's own `program`."""
    total = head.root_node.descendant_count if head is not None else 1
    return total + sum(tree.root_node.descendant_count - 1 for tree in slices)


def check(plan: Plan, head: Tree | None, slices: Sequence[Tree], whole_count: int | None = None) -> str | None:
    """None when the slices stand for the whole tree, else why not: no tree has an error, H's L
    is the plan's and empty, each slice's statements tile its span, and (given the whole tree's
    count) the node counts add up."""
    if len(slices) != len(plan.ranges):
        return "the trees are not the plan's"
    found = check_head(plan, head)
    for index, tree in enumerate(slices):
        found = found or check_slice(plan, index, tree)
    if found is None and whole_count is not None and node_count(head, slices) != whole_count:
        return f"the slices hold {node_count(head, slices)} nodes, the whole tree {whole_count}"
    return found


def check_head(plan: Plan, head: Tree | None) -> str | None:
    """`check`'s part on H alone: it has no error and its L is the plan's, empty."""
    if (head is None) != (plan.braces is None):
        return "the trees are not the plan's"
    if head is not None and plan.braces is not None:
        if head.root_node.has_error:
            return "the head tree has an error"
        body = main_container(head.root_node)
        opener, closer = plan.braces
        if (body.type, body.start_byte, body.end_byte, body.child_count) != ("statement_block", opener, closer + 1, 2):
            return f"the head tree's list is a {body.type} at {body.start_byte}-{body.end_byte}, not the plan's"
    return None


def check_slice(plan: Plan, index: int, tree: Tree) -> str | None:
    """`check`'s part on slice `index` alone (checked while it is the one tree alive): no error,
    and its statements tile its span."""
    return check_range(f"slice {index}", plan.spans[index], tree)


def check_range(name: str, span: tuple[int, int], tree: Tree) -> str | None:
    """A run of L's statements parsed alone has no error and its statements tile `span`."""
    first, last = span
    root = tree.root_node
    if root.has_error:
        return f"{name} has an error"
    named = root.named_child_count
    begins = root.named_child(0).start_byte if named else -1
    ends = root.named_child(named - 1).end_byte if named else -1
    if root.type != "program" or (begins, ends) != (first, last):
        return f"{name}'s statements span {begins}-{ends}, not {first}-{last}"
    return None
