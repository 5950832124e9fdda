"""One unit parsed as N slices of its top-level statement list L (docs/slices.md): a byte scanner
for L's statement ends, the plan (L, its braces, the cuts), the head tree H (the unit with L
emptied) and the slice trees, parsed at the unit's offsets and points, and the check that they
stand for the whole tree. Nothing in the scan uses it yet: step 2 of docs/slices.md's order of
work threads a head chain through the stages, step 3 extracts slice by slice."""

from __future__ import annotations

import bisect
import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from tree_sitter import Parser, Point, Range, Tree

from analyzer.javascript.modules.statements import main_container
from analyzer.javascript.syntax import starts_word

# One token that matters, after a run of bytes that do not: its group says which. Openers and
# closers come first, a group each: `(`, `[`, `{`, then `)`, `]`, `}`.
_TOKEN = re.compile(
    rb"[^\"'`/(){}\[\];]*+(?:"
    rb"(\()|(\[)|(\{)|(\))|(\])|(\})"
    rb"|(\"(?:[^\"\\\n]|\\[\s\S])*+\"|'(?:[^'\\\n]|\\[\s\S])*+')"
    rb"|(;)"
    rb"|(//[^\n\r]*+|/\*[\s\S]*?\*/)"
    rb"|([\"']|/\*)"
    rb"|(/)"
    rb"|(`)"
    rb")")
_OPENS, _CLOSES = 3, 6  # groups 1-3 open, 4-6 close
_STRING, _SEMICOLON, _COMMENT, _UNTERMINATED, _SLASH, _TEMPLATE = range(7, 13)
_TEMPLATE_TEXT = re.compile(rb"(?:[^`\\$]|\\[\s\S]|\$(?!\{))*+")
_REGEX = re.compile(rb"/(?:[^/\\\[\n]|\\.|\[(?:[^\]\\\n]|\\.)*+\])++/[A-Za-z]*+")
_TRAILING_WORD = re.compile(rb"[A-Za-z_$][\w$]*$")
# `if(a)b();else c()`, `do b();while(c)`: the `;` ends no statement of the list
_CONTINUES = re.compile(rb"(?:\s|//[^\n\r]*+|/\*[\s\S]*?\*/)*+(?:else|while)\b")
_SPACE = re.compile(rb"\s*+")
_WHITE = frozenset(b" \t\n\r\x0b\x0c")
_HASH_BANG = re.compile(rb"#![^\n\r]*+")
_KEYWORDS_BEFORE_REGEX = frozenset({b"return", b"typeof", b"case", b"do", b"else", b"in", b"of", b"new", b"delete",
                                    b"void", b"throw", b"yield", b"await", b"instanceof"})
# a stack entry is `offset << 2 | kind`: the opener's group less one (0 to 2), or a template's `${`;
# a closer's kind must be its opener's, or a `${`'s for a `}`
_INTERPOLATION = 3
#: the deepest list whose statement ends are kept: the program (0), a wrapper's body (2)
_MAX_DEPTH = 2
#: the key of the program's ends in `Scanned.ends`
PROGRAM = -1


@dataclass(frozen=True, slots=True)
class Scanned:
    """What the byte scanner found in a unit."""

    #: the byte after each `;` that ends a statement of a list at depth 0 to 2, by the list's
    #: opener (`PROGRAM`: the program)
    ends: dict[int, list[int]]
    #: the closer of each opener at depth 0 or 1
    closers: dict[int, int]
    #: why the scanner cannot be trusted on this unit (an unterminated token, unbalanced brackets)
    trouble: str | None


def statement_ends(source: bytes) -> Scanned:
    """Two passes (docs/slices.md, "Step 1 as built"): one steps on what hides brackets (strings,
    comments, regexes, templates' text) and blanks it; the other reads the blanked bytes' brackets,
    skipping whole groups below L's depth. On any trouble, `_stepwise` says which, and where."""
    hidden = _hide(source)
    if hidden is not None:
        masked, interpolations = hidden
        if not _unmatched_brackets(masked):
            ends, closers = _depths(source, masked, interpolations)
            return Scanned(ends, closers, None)
    return _stepwise(source)


# strings and templates that hide no bracket nor `;`: the first pass jumps them
_HARMLESS = (rb"\"[^\"\\\n(){}\[\];]*+(?:\\[^(){}\[\];][^\"\\\n(){}\[\];]*+)*+\""
             rb"|'[^'\\\n(){}\[\];]*+(?:\\[^(){}\[\];][^'\\\n(){}\[\];]*+)*+'"
             rb"|`[^`\\$(){}\[\];]*+(?:(?:\\[^(){}\[\];]|\$(?!\{))[^`\\$(){}\[\];]*+)*+`")
# the first pass: a run of bytes and harmless strings and templates, then what does (or a `/`, or a backtick)
_HIDING = re.compile(
    rb"(?:[^\"'`/]++|" + _HARMLESS + rb")*+(?:"
    rb"(\"(?:[^\"\\\n]|\\[\s\S])*+\"|'(?:[^'\\\n]|\\[\s\S])*+')"
    rb"|(//[^\n\r]*+|/\*[\s\S]*?\*/)"
    rb"|([\"']|/\*)"
    rb"|(/)"
    rb"|(`)"
    rb")")
_HIDING_STRING, _HIDING_COMMENT, _HIDING_UNTERMINATED, _HIDING_SLASH = 1, 2, 3, 4
_GROUP_OF = {ord("("): 1, ord("["): 2, ord("{"): 3, ord(")"): 4, ord("]"): 5, ord("}"): 6, ord(";"): _SEMICOLON,
             ord('"'): _STRING, ord("'"): _STRING, ord("`"): _TEMPLATE}


def _hide(source: bytes) -> tuple[bytearray, set[int]] | None:
    """The unit with its strings, comments, regexes and templates' text (a `${`'s `$` too) as zero
    bytes, and the offset of each `${`'s `{`; None on an unterminated token or a bracket that does
    not match inside a template. Between templates, brackets and `;` are not stepped on: before a
    `/` or a comment, the last of them in the run before it stands for the token before."""
    masked = bytearray(source)
    interpolations: set[int] = set()
    hash_bang = _HASH_BANG.match(source)
    pos = hash_bang.end() if hash_bang else 0
    masked[:pos] = bytes(pos)
    last_end, last_group = pos, _SEMICOLON
    stack: list[int] = []  # inside a template's `${}`: the kinds open there, as `_stepwise` keeps them
    size = len(source)
    while True:
        if not stack:
            found = _HIDING.match(source, pos)
            if found is None:
                return masked, interpolations
            group = found.lastindex or 0
            at, end = found.start(group), found.end()
            if group == _HIDING_STRING:
                masked[at:end] = bytes(end - at)
                pos, last_end, last_group = end, end, _STRING
                continue
            if group <= _HIDING_SLASH:
                last = max(source.rfind(b"(", pos, at), source.rfind(b")", pos, at), source.rfind(b"[", pos, at),
                           source.rfind(b"]", pos, at), source.rfind(b"{", pos, at), source.rfind(b"}", pos, at),
                           source.rfind(b";", pos, at), source.rfind(b'"', pos, at), source.rfind(b"'", pos, at),
                           source.rfind(b"`", pos, at))
                if last >= 0:
                    last_end, last_group = last + 1, _GROUP_OF[source[last]]
            group = (_STRING, _COMMENT, _UNTERMINATED, _SLASH, _TEMPLATE)[group - 1]
        else:
            found = _TOKEN.match(source, pos)
            if found is None:
                return None
            group = found.lastindex or 0
            at, end = found.start(group), found.end()
            if group <= _OPENS:
                stack.append(group - 1)
            elif group <= _CLOSES:
                kind = stack.pop()
                if kind != group - _OPENS - 1 and not (kind == _INTERPOLATION and group == _CLOSES):
                    return None
                if kind == _INTERPOLATION:  # back in the template's text
                    pos, group = _hidden_text(source, masked, end, end, stack, interpolations)
                    if pos > size:
                        return None
                    last_end, last_group = pos, group
                    continue
            elif group == _STRING:
                masked[at:end] = bytes(end - at)
        pos = end
        if group == _COMMENT:
            masked[at:end] = bytes(end - at)
            continue
        if group == _SLASH:
            if _regex_allowed(source, last_end, last_group, at):
                regex = _REGEX.match(source, at)
                if regex is None:
                    return None
                pos = regex.end()
                masked[at:pos] = bytes(pos - at)
        elif group == _TEMPLATE:
            pos, group = _hidden_text(source, masked, at, at + 1, stack, interpolations)
            if pos > size:
                return None
        elif group == _UNTERMINATED:
            return None
        last_end, last_group = pos, group


def _hidden_text(source: bytes, masked: bytearray, hole: int, at: int, stack: list[int],
                 interpolations: set[int]) -> tuple[int, int]:
    """Past a template's text from `at`, blanked from `hole` (its backtick, or after a `${}`'s `}`),
    and the `${}`s that hide nothing: after its closing backtick (past the end when there is none)
    with the template's group, or after a `${` whose expression must be stepped, pushed on the
    stack, with an opener's."""
    while True:
        end = _TEMPLATE_TEXT.match(source, at).end()  # type: ignore[union-attr]  # matches the empty text
        masked[hole:end + 1] = bytes(end + 1 - hole)
        if not source.startswith(b"${", end):
            return end + 1, _TEMPLATE
        interpolations.add(end + 1)
        plain = _PLAIN_INTERPOLATION.match(source, end + 2)
        if plain is None:
            stack.append(_INTERPOLATION)
            return end + 2, 1
        hole = at = plain.end()


#: brackets nested this deep below a list at depth 2 are skipped in one match; deeper ones are stepped
_SKIPPED_DEPTH = 32


def _skipped_group(depth: int, atoms: bytes = rb"[^(){}\[\]]++") -> bytes:
    """A bracket group of `atoms` nesting at most `depth` deep, any closer for any opener: the
    kinds are matched on the blanked bytes (`_unmatched_brackets`)."""
    inner = rb"[(\[{](?:" + atoms + rb")*+[)\]}]"
    for _ in range(depth - 1):
        inner = rb"[(\[{](?:" + atoms + rb"|" + inner + rb")*+[)\]}]"
    return inner


_SKIPPED = _skipped_group(_SKIPPED_DEPTH)
# by the depth: a step per bracket and `;` at depth 0; at depth 1, a group whose own bytes hold no
# `;` in one step (its closer is kept, nothing below it is), others stepped into; at depth 2 (the
# deepest list read), the runs of groups between its `;`s; below it, only the brackets of groups
# nested too deep
# a `${}` whose expression holds no `/` and only harmless strings and templates, its brackets
# paired by position only (the second pass checks their kinds): it is left in the blanked bytes
_PLAIN_INTERPOLATION = re.compile(rb"(?:[^\"'`/(){}\[\]]++|" + _HARMLESS + rb"|"
                                  + _skipped_group(8, rb"[^\"'`/(){}\[\]]++|" + _HARMLESS) + rb")*+\}")
_DEPTH_STEPS = tuple(re.compile(run + rb"(?:(" + skipped + rb")|([(\[{])|([)\]}])|(;))").match for run, skipped in (
    (rb"[^(){}\[\];]*+", rb"(?!)"),
    (rb"[^(){}\[\];]*+", rb"[(\[{](?:[^(){}\[\];]++|" + _SKIPPED + rb")*+[)\]}]"),
    (rb"(?:[^(){}\[\];]++|" + _SKIPPED + rb")*+", rb"(?!)"),
    (rb"(?:[^(){}\[\]]++|" + _SKIPPED + rb")*+", rb"(?!)")))
_NOT_BRACKETS = bytes(set(range(256)) - set(b"()[]{}"))


def _unmatched_brackets(masked: bytearray) -> bytes:
    """The brackets of `masked` left when matched pairs are taken out: none when all match."""
    brackets = bytes(masked.translate(None, _NOT_BRACKETS))
    while True:
        fewer = brackets.replace(b"()", b"").replace(b"[]", b"").replace(b"{}", b"")
        if len(fewer) == len(brackets):
            return fewer
        brackets = fewer


def _depths(source: bytes, masked: bytearray, interpolations: set[int]) -> tuple[dict[int, list[int]], dict[int, int]]:
    """`Scanned.ends` and `closers` from the blanked unit, whose brackets all match. A `${}` is
    kept as its `$`'s offset, inverted: no closer is kept for it."""
    stack: list[int] = []
    ends: dict[int, list[int]] = {}
    closers: dict[int, int] = {}
    pos, steps, deepest, continues = 0, _DEPTH_STEPS, _DEPTH_STEPS[-1], _CONTINUES.match
    while (found := (steps[len(stack)] if len(stack) < 4 else deepest)(masked, pos)) is not None:
        pos = found.end()
        group = found.lastindex
        if group == 1:
            opened = found.start(1)
            if opened not in interpolations:
                closers[opened] = pos - 1
        elif group == 2:
            stack.append(pos - 1 if len(stack) >= _MAX_DEPTH or pos - 1 not in interpolations else ~(pos - 2))
        elif group == 3:
            opened = stack.pop()
            if len(stack) < _MAX_DEPTH and opened >= 0:
                closers[opened] = pos - 1
        elif not continues(source, pos):
            key = (stack[-1] if stack[-1] >= 0 else ~stack[-1]) if stack else PROGRAM
            ends.setdefault(key, []).append(pos)
    return ends, closers


def _stepwise(source: bytes) -> Scanned:
    """`statement_ends` one token at a time: strings, templates (their `${}`), comments, regexes
    (told from divisions by the token before the `/`) and brackets, one regex match per token, the
    runs between them jumped. It gives the trouble and the ends found before it."""
    stack: list[int] = []
    ends: dict[int, list[int]] = {}
    closers: dict[int, int] = {}
    hash_bang = _HASH_BANG.match(source)
    pos = hash_bang.end() if hash_bang else 0
    last_end, last_group = pos, _SEMICOLON  # the token before a `/`, comments left out
    match, size = _TOKEN.match, len(source)
    while (found := match(source, pos)) is not None:
        group = found.lastindex or 0
        pos = found.end()
        if group <= _OPENS:
            stack.append((pos - 1) << 2 | (group - 1))
        elif group <= _CLOSES:
            opened = stack.pop() if stack else -1
            kind = opened & 3
            if opened < 0 or (kind != group - _OPENS - 1 and not (kind == _INTERPOLATION and group == _CLOSES)):
                return Scanned(ends, closers, f"an unmatched {chr(source[pos - 1])!r} at {pos - 1}")
            if kind == _INTERPOLATION:  # back in the template's text
                pos = _template_text(source, pos, stack)
                if pos > size:
                    return Scanned(ends, closers, f"an unterminated template at {opened >> 2}")
                group = 1 if source[pos - 1] != ord("`") else _TEMPLATE
            elif len(stack) < _MAX_DEPTH:
                closers[opened >> 2] = pos - 1
        elif group == _STRING:
            pass
        elif group == _SEMICOLON:
            if len(stack) <= _MAX_DEPTH and not _CONTINUES.match(source, pos):
                ends.setdefault(stack[-1] >> 2 if stack else PROGRAM, []).append(pos)
        elif group == _COMMENT:
            continue
        elif group == _SLASH:
            if _regex_allowed(source, last_end, last_group, pos - 1):
                regex = _REGEX.match(source, pos - 1)
                if regex is None:
                    return Scanned(ends, closers, f"a '/' at {pos - 1} that starts no regex nor division")
                pos = regex.end()
        elif group == _TEMPLATE:
            at = pos - 1
            pos = _template_text(source, pos, stack)
            if pos > size:
                return Scanned(ends, closers, f"an unterminated template at {at}")
            group = 1 if source[pos - 1] != ord("`") else _TEMPLATE  # after a `${`: as after an opener
        else:
            return Scanned(ends, closers, f"an unterminated string or comment at {found.start(group)}")
        last_end, last_group = pos, group
    if stack:
        return Scanned(ends, closers, f"an unclosed {chr(source[stack[-1] >> 2])!r} at {stack[-1] >> 2}")
    return Scanned(ends, closers, None)


def _template_text(source: bytes, at: int, stack: list[int]) -> int:
    """Past a template's text from `at`: after its closing backtick (past the end when there is
    none), or after a `${`, pushed on the stack."""
    end = _TEMPLATE_TEXT.match(source, at).end()  # type: ignore[union-attr]  # matches the empty text
    if source.startswith(b"${", end):
        stack.append(end << 2 | _INTERPOLATION)
        return end + 2
    return end + 1


def _regex_allowed(source: bytes, last_end: int, last_group: int, at: int) -> bool:
    """Whether a `/` at `at` starts a regex, from the token before it."""
    gap = source[last_end:at].rstrip()
    if not gap:  # right after a token: an opener, `;`, `}` (a block's) start an expression
        return last_group <= _OPENS or last_group in (_SEMICOLON, _CLOSES)
    tail = gap[-1:]
    if tail.isalnum() or tail in (b"_", b"$"):
        word = _TRAILING_WORD.search(gap)
        return word is not None and word.group() in _KEYWORDS_BEFORE_REGEX
    return tail != b"." and not gap.endswith((b"++", b"--"))


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


def plan(source: bytes, count: int) -> Plan | None:
    """The plan for `count` slices, or None when the unit is parsed whole (`plan_of` says why)."""
    made = plan_of(source, count)
    return made if isinstance(made, Plan) else None


def plan_of(source: bytes, count: int) -> Plan | str:
    """The plan for at most `count` slices balanced by bytes, or why the unit stays one tree."""
    if count < 2:
        return "fewer than 2 slices asked"
    scanned = statement_ends(source)
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
    chosen = _balanced([end for end, _ in cuts], first, last, count)
    starts = [start, *(cuts[i][1] for i in chosen)]
    ranges = tuple(zip(starts, [*starts[1:], stop], strict=True))
    spans = tuple(zip([first, *starts[1:]], [*(cuts[i][0] for i in chosen), last], strict=True))
    return Plan(kind, braces, ranges, spans, len(cuts))


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


def _balanced(ends: list[int], first: int, last: int, count: int) -> list[int]:
    """Indexes of the ends nearest to `count` equal parts of [first, last), each once."""
    chosen: list[int] = []
    for part in range(1, count):
        goal = first + (last - first) * part // count
        at = bisect.bisect_left(ends, goal)
        near = min((i for i in (at - 1, at) if 0 <= i < len(ends)), key=lambda i: abs(ends[i] - goal))
        if not chosen or near > chosen[-1]:
            chosen.append(near)
    return chosen


def point(source: bytes, offset: int) -> Point:
    """The row and byte column of `offset`, as tree-sitter counts them (rows end at `\\n`)."""
    return Point(source.count(b"\n", 0, offset), offset - (source.rfind(b"\n", 0, offset) + 1))


def _range(source: bytes, start: int, end: int) -> Range:
    return Range(point(source, start), point(source, end), start, end)


def parse_head(parser: Parser, source: bytes, plan: Plan) -> Tree | None:
    """H: the unit with L emptied, its nodes above L at the unit's offsets (None for a program
    list: nothing is above it but the root). Sets the parser's included ranges."""
    if plan.braces is None:
        return None
    opener, closer = plan.braces
    parser.included_ranges = [_range(source, 0, opener + 1), _range(source, closer, len(source))]
    return parser.parse(source)


def parse_slice(parser: Parser, source: bytes, plan: Plan, index: int) -> Tree:
    """Slice `index`: a `program` whose children are its statements, at the unit's offsets and
    points. `parser`: one from `syntax.new_parser`, as the scan's; its included ranges are set."""
    parser.included_ranges = [_range(source, *plan.ranges[index])]
    return parser.parse(source)


def node_count(head: Tree | None, slices: Sequence[Tree]) -> int:
    """The whole tree's `descendant_count`: H's (1 for a program list: its root) plus each slice
    root's, less the slice's own `program`."""
    total = head.root_node.descendant_count if head is not None else 1
    return total + sum(tree.root_node.descendant_count - 1 for tree in slices)


def check(plan: Plan, head: Tree | None, slices: Sequence[Tree], whole_count: int | None = None) -> str | None:
    """None when the slices stand for the whole tree, else why not: no tree has an error, H's L
    is the plan's and empty, each slice's statements tile its span, and (given the whole tree's
    count) the node counts add up."""
    if (head is None) != (plan.braces is None) or len(slices) != len(plan.ranges):
        return "the trees are not the plan's"
    if head is not None and plan.braces is not None:
        if head.root_node.has_error:
            return "the head tree has an error"
        body = main_container(head.root_node)
        opener, closer = plan.braces
        if (body.type, body.start_byte, body.end_byte, body.child_count) != ("statement_block", opener, closer + 1, 2):
            return f"the head tree's list is a {body.type} at {body.start_byte}-{body.end_byte}, not the plan's"
    for index, (tree, (first, last)) in enumerate(zip(slices, plan.spans, strict=True)):
        root = tree.root_node
        if root.has_error:
            return f"slice {index} has an error"
        named = root.named_child_count
        begins = root.named_child(0).start_byte if named else -1
        ends = root.named_child(named - 1).end_byte if named else -1
        if root.type != "program" or (begins, ends) != (first, last):
            return f"slice {index}'s statements span {begins}-{ends}, not {first}-{last}"
    if whole_count is not None and node_count(head, slices) != whole_count:
        return f"the slices hold {node_count(head, slices)} nodes, the whole tree {whole_count}"
    return None


# ---- byte supersets (docs/slices.md, "The byte supersets") ------------------------------------

_NAME = rb"[A-Za-z_$\x80-\xff][\w$\x80-\xff]*+"
_GAP = rb"[\s\0]*+"  # white space, and comments blanked
# L's own tokens, groups and the literals left in the blanked bytes jumped whole, up to a
# declaring keyword (var, let, const: 1; function: 2; class: 3) or an opener nested too deep to
# jump (4); a closer or the end stops it
_TOP_KEYWORD = re.compile(
    rb"(?:[^(){}\[\]A-Za-z_$\x80-\xff\"'`]++|" + _HARMLESS + rb"|" + _SKIPPED
    + rb"|(?!(?:var|let|const|function|class)(?![\w$\x80-\xff]))" + _NAME + rb")*+"
    rb"(?:(?:(var|let|const)|(function)|(class))(?![\w$\x80-\xff])|([(\[{]))")
_DECLARED = re.compile(_GAP + rb"(?:(" + _NAME + rb")|([\[{]))")
_FUNCTION_NAME = re.compile(_GAP + rb"(?:\*" + _GAP + rb")?(" + _NAME + rb")")
_CLASS_NAME = re.compile(_GAP + rb"(" + _NAME + rb")")
_NAMES = re.compile(_NAME)
# a declarator's initializer up to the `,` before the next (1), or an opener nested too deep (2)
_INITIALIZER = re.compile(rb"(?:[^(){}\[\],;\"'`]++|" + _HARMLESS + rb"|" + _SKIPPED + rb")*+(?:(,)|([(\[{]))")
# the bytes of an argument list up to a `,` of its own (the literals left in the blanked bytes hold
# no bracket, but may hold a `,`)
_ARGUMENT = re.compile(rb"(?:[^,(){}\[\]\"'`]++|" + _HARMLESS + rb"|" + _SKIPPED + rb")*+")
_BRACKET = re.compile(rb"[^(){}\[\]]*+(?:([(\[{])|[)\]}])")


@dataclass(frozen=True, slots=True)
class Supersets:
    """Values a sliced extraction needs before any slice is read, from bytes: each holds the
    exact value the whole tree gives, which the merge checks (docs/slices.md, rows 5d and 10b)."""

    #: the names L's statements may declare (`references.listing`'s `names` is a subset)
    names: frozenset[bytes]
    #: per callee, at least as many calls as `logger.level_options` finds for it
    level_option_calls: dict[str, int]


def supersets(source: bytes, braces: tuple[int, int] | None, level_key: str, options_argument: int) -> Supersets | None:
    """The byte supersets of a unit whose L has these braces (`Plan.braces`: None for the
    program); None when the scanner is unsure of it. Its own pass: it blanks the unit again."""
    hidden = _hide(source)
    if hidden is None or _unmatched_brackets(hidden[0]):
        return None
    masked = hidden[0]
    start, stop = (0, len(source)) if braces is None else (braces[0] + 1, braces[1])
    return Supersets(_declared_names(source, masked, start, stop),
                     _level_option_calls(source, masked, level_key, options_argument))


def _past_group(masked: bytearray, at: int) -> int:
    """After the closer of the opener at `at`, bracket by bracket (a group nested too deep)."""
    depth, pos = 0, at
    while (found := _BRACKET.match(masked, pos)) is not None:
        pos = found.end()
        depth += 1 if found.lastindex else -1
        if not depth:
            break
    return pos


def _declared_names(source: bytes, masked: bytearray, start: int, stop: int) -> frozenset[bytes]:
    """After `var`, `let`, `const` among L's own tokens, the name or every name of the pattern
    that starts each declarator (a declarator ends at a `,` outside brackets); after `function`,
    `function*` and `class`, the name."""
    names: set[bytes] = set()
    pos = start
    while (found := _TOP_KEYWORD.match(masked, pos, stop)) is not None:
        pos = found.end()
        group = found.lastindex
        if group == 4:
            pos = _past_group(masked, pos - 1)
        elif group == 1:
            at = pos
            while (declared := _DECLARED.match(masked, at, stop)) is not None:
                if declared.lastindex == 1:
                    names.add(source[declared.start(1):declared.end(1)])
                    at = declared.end()
                else:
                    at = _past_group(masked, declared.end() - 1)
                    names.update(map(bytes, _NAMES.findall(masked, declared.end(), at - 1)))
                while (initializer := _INITIALIZER.match(masked, at, stop)) is not None and initializer.lastindex == 2:
                    at = _past_group(masked, initializer.end() - 1)
                if initializer is None:
                    break
                at = initializer.end()
        else:
            named = (_FUNCTION_NAME if group == 2 else _CLASS_NAME).match(masked, pos, stop)
            if named is not None:
                names.add(source[named.start(1):named.end(1)])
    return frozenset(names)


def _reversed_group(depth: int) -> bytes:
    """`_skipped_group` read backwards: a closer, then its group, then an opener."""
    inner = rb"[)\]}][^(){}\[\]]*+[(\[{]"
    for _ in range(depth - 1):
        inner = rb"[)\]}](?:[^(){}\[\]]++|" + inner + rb")*+[(\[{]"
    return inner


# backwards (on the reversed blanked bytes): to the opener around (1), or a closer nested too deep
# to jump (2)
_BACK_TO_OPENER = re.compile(rb"(?:[^(){}\[\]]++|" + _reversed_group(_SKIPPED_DEPTH) + rb")*+(?:([(\[{])|([)\]}]))")
_BACK_BRACKET = re.compile(rb"[^(){}\[\]]*+(?:([)\]}])|[(\[{])")
_BACK_GAP = re.compile(_GAP)
_BACK_CALLEE = re.compile(_GAP + rb"([\w$\x80-\xff]++)" + _GAP + rb"(\.)?")


def _back_to_opener(backwards: bytes, at: int) -> int:
    """From `at` (an offset of `backwards`), the offset of the opener around it; -1 if none."""
    while (found := _BACK_TO_OPENER.match(backwards, at)) is not None:
        at = found.end()
        if found.lastindex == 1:
            return at - 1
        depth = 1
        while depth and (bracket := _BACK_BRACKET.match(backwards, at)) is not None:
            at = bracket.end()
            depth += 1 if bracket.lastindex else -1
    return -1


def _arguments_before(masked: bytearray, start: int, stop: int) -> int:
    """The `,`s of an argument list between `start` and `stop`; -1 (as many as asked) past a group
    nested too deep to count them."""
    commas = 0
    while (pos := _ARGUMENT.match(masked, start, stop).end()) < stop:  # type: ignore[union-attr]  # matches empty
        if masked[pos] != ord(","):
            return -1
        commas, start = commas + 1, pos + 1
    return commas


def _level_option_calls(source: bytes, masked: bytearray, level_key: str, options_argument: int) -> dict[str, int]:
    """Per callee, the calls `X(…, {…, level: …})` whose object holds the key among its own and
    is the `options_argument`-th argument (at most that many `,`s before it when a comment may
    count as one, as `syntax.named_index` counts it), as `logger.level_options` finds them, and
    some more: keys in strings, `new X(…)`."""
    size = len(masked)
    backwards = bytes(masked[::-1])
    calls: dict[int, str] = {}
    for match in re.finditer(re.escape(level_key.encode()) + rb"[\"']?\s*:", source):
        start = match.start()
        if not (starts_word(source, start) or source[start - 1] in b"\"'") or not masked[start]:
            continue  # a key is a name or a whole string, never blanked
        quoted = source[start - 1] in b"\"'"
        if quoted and source[start + len(level_key):start + len(level_key) + 1] != source[start - 1:start]:
            continue
        before = _BACK_GAP.match(backwards, size - start + quoted).end()  # type: ignore[union-attr]  # matches empty
        if before == size or backwards[before] not in b"{,":  # not a key of an object
            continue
        opener = _back_to_opener(backwards, size - start)
        if opener < 0 or backwards[opener] != ord("{"):
            continue
        before = _BACK_GAP.match(backwards, opener + 1).end()  # type: ignore[union-attr]  # matches empty
        if before == size or backwards[before] not in b",(":  # not an argument
            continue
        paren = _back_to_opener(backwards, opener + 1)
        if paren < 0 or backwards[paren] != ord("("):
            continue
        obj, call = size - 1 - opener, size - 1 - paren
        commas = _arguments_before(masked, call + 1, obj)
        if commas not in (options_argument, -1) and not (commas < options_argument and b"/" in source[call:obj]):
            continue
        callee = _BACK_CALLEE.match(backwards, paren + 1)
        if callee is None or callee.group(2) is not None:
            continue
        first, last = size - callee.end(1), size - callee.start(1)
        if source[first] in b"0123456789":
            continue
        calls[call] = source[first:last].decode("utf-8", "replace")
    counts: dict[str, int] = {}
    for callee_name in calls.values():
        counts[callee_name] = counts.get(callee_name, 0) + 1
    return counts
