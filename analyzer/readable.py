"""A readable rendering of a unit: line breaks and indentation at statement and member
boundaries, so a one-line 13 MB bundle becomes something a reviewer can open at a line.

Lexing is local (strings, templates, comments and regular expressions are copied verbatim);
it is a view for people, never code to run. The same source always gives the same bytes.
"""

from __future__ import annotations

import bisect
import hashlib
import re
from dataclasses import dataclass

# Literals are matched by "unrolled loops" (`"[^"\\]*(?:\\.[^"\\]*)*"`), never by a repeated
# alternation (`"(?:[^"\\]|\\.)*"`): the regex engine keeps a backtracking entry per repetition
# of a group, 140 bytes per character of a 10 MB string literal; a repeated character class
# costs nothing. The languages matched are the same.
_TOKEN = re.compile(
    rb'"[^"\\\n]*(?:\\[\s\S][^"\\\n]*)*"'
    rb"|'[^'\\\n]*(?:\\[\s\S][^'\\\n]*)*'"
    rb"|/\*[\s\S]*?\*/|//[^\n]*"
    rb"|[`/{}]"
)
#: the same without braces: outside template holes a brace cannot end a literal
_TOKEN_OUTSIDE_HOLES = re.compile(
    rb'"[^"\\\n]*(?:\\[\s\S][^"\\\n]*)*"'
    rb"|'[^'\\\n]*(?:\\[\s\S][^'\\\n]*)*'"
    rb"|/\*[\s\S]*?\*/|//[^\n]*"
    rb"|[`/]"
)
#: code and complete strings that hold no `;{}` (nothing to hide), skipped in one match: only
#: what `_literal_spans` must act on (a string to hide, a comment, `/`, a template, a brace in a
#: hole) reaches the loop. A string alternative here matches exactly what `_TOKEN` would, or
#: nothing; possessive, so no backtracking entry is kept per repetition.
_QUIET = rb"""(?:[^"'`/{}]++|"[^"\\\n;{}]*+(?:\\[^;{}][^"\\\n;{}]*+)*+"|'[^'\\\n;{}]*+(?:\\[^;{}][^'\\\n;{}]*+)*+')*+"""
_SKIP = re.compile(_QUIET)
#: the same outside template holes, where braces are plain code
_SKIP_OUTSIDE_HOLES = re.compile(_QUIET.replace(b"[^\"'`/{}]++", b"[^\"'`/]++", 1))
_TEMPLATE_CHUNK = re.compile(rb"[^`\\$]*(?:(?:\\[\s\S]|\$(?!\{))[^`\\$]*)*(`|\$\{)")
#: a whole template whose holes hold only code without `;{}`, `/` or a template, and strings
#: without `;{}` (what `_SKIP` passes over): one span, whose hiding is that of its pieces (the
#: holes have nothing to hide), matched at once instead of hole by hole
_PLAIN_TEMPLATE = re.compile(
    rb"`(?:[^`\\$]++|\\[\s\S]|\$(?!\{)|\$\{"
    rb"""(?:[^"'`/{};]++|"[^"\\\n;{}]*+(?:\\[^;{}][^"\\\n;{}]*+)*+"|'[^'\\\n;{}]*+(?:\\[^;{}][^'\\\n;{}]*+)*+')*+"""
    rb"\})*+`"
)
_REGEX = re.compile(
    rb"/(?=[^/\n])[^/\\\[\n]*(?:(?:\\.|\[[^\]\\\n]*(?:\\.[^\]\\\n]*)*\])[^/\\\[\n]*)*/[A-Za-z]*"
)
_REGEX_BEFORE = frozenset(b"(,=:[!&|?{};+-*%<>~^")
_REGEX_KEYWORDS = (b"return", b"typeof", b"case", b"do", b"else", b"in", b"of", b"new", b"delete", b"void", b"throw",
                   b"yield", b"await")
_WORD_TAIL = re.compile(rb"[A-Za-z_$][A-Za-z0-9_$]*$")
#: `;`, `{`, `}` inside strings, templates, comments and regular expressions are hidden as
#: these bytes while the breaks are inserted, then restored
_HIDE = bytes.maketrans(b";{}", b"\x01\x02\x03")
_SHOW = bytes.maketrans(b"\x01\x02\x03", b";{}")


@dataclass(frozen=True, slots=True)
class Slicing:
    """Where a rendering is cut into slices a code host displays: each slice holds whole
    top-level statements when it can (see `cut_points`), and is under `SLICE_LIMIT` bytes."""

    #: offsets into the original where each slice begins (the first is 0)
    cuts: tuple[int, ...]
    #: offsets into the rendering where each slice begins
    starts: tuple[int, ...]
    #: the rendering's line number of each slice's first line
    lines: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class ReadableUnit:
    """A unit's rendering as the files a scan directory holds."""

    rendering: Rendering
    slicing: Slicing
    #: `readable/...` of each slice
    files: list[str]

    def file_texts(self) -> dict[str, bytes]:
        return dict(zip(self.files, self.rendering.slice_texts(self.slicing)))


def readable_units(renderings: dict[str, Rendering], suffix: str = ".js") -> dict[str, ReadableUnit]:
    """Every unit's slicing and slice files, named together so that no two units collide;
    `suffix`: the extension of the language's source files (`.py`), so that a code host
    highlights the rendering as that language."""
    slicings = [r.slices() for r in renderings.values()]
    names = slice_names(list(renderings), [len(s.cuts) for s in slicings], suffix)
    return {unit: ReadableUnit(rendering, slicing, files)
            for (unit, rendering), slicing, files in zip(renderings.items(), slicings, names)}


@dataclass(frozen=True, slots=True)
class Place:
    """Where an offset of the original lies in the rendering."""

    #: 1-based line of the whole rendering
    line: int
    #: which slice (0-based) and its 1-based line and code-point column in that slice
    slice: int
    slice_line: int
    column: int


@dataclass(frozen=True, slots=True)
class Rendering:
    text: bytes
    #: the original with its literal `;{}` hidden; counting `;{}` in it counts inserted breaks
    hidden: bytes
    #: made with the rendering where it is cheap to (the worker that renders); else on demand
    slicing: Slicing | None = None

    def lines_of(self, offsets: list[int]) -> list[int]:
        """1-based lines of the rendering that hold the original's sorted `offsets`."""
        return [line for line, _ in self._positions(offsets)]

    def _positions(self, offsets: list[int]) -> list[tuple[int, int]]:
        """(line, offset into the rendering) of each of the original's sorted `offsets`."""
        out, newlines, breaks, at = [], 0, 0, 0
        hidden = self.hidden
        for offset in offsets:
            marks = _marks(hidden, at, offset)  # one pass over the stretch, not a count per byte value
            lines = marks.count(b"\n")
            newlines += lines
            breaks += len(marks) - lines
            at = offset
            out.append((1 + newlines + breaks, offset + breaks))
        return out

    def slices(self) -> Slicing:
        return self.slicing if self.slicing is not None else slicing_of(self.hidden)

    def places(self, offsets: list[int], slicing: Slicing) -> list[Place]:
        """Where each of the original's sorted `offsets` lies, in the rendering and its slices."""
        out = []
        for offset, (line, position) in zip(offsets, self._positions(offsets)):
            index = bisect.bisect_right(slicing.cuts, offset) - 1
            line_start = max(self.text.rfind(b"\n", 0, position) + 1, slicing.starts[index])
            before = self.text[line_start:position]
            column = len(before) - len(before.translate(None, _NOT_CONTINUATION)) + 1
            out.append(Place(line, index, line - slicing.lines[index] + 1, column))
        return out

    def slice_texts(self, slicing: Slicing) -> list[bytes]:
        ends = (*slicing.starts[1:], len(self.text))
        return [self.text[start:end] for start, end in zip(slicing.starts, ends)]


#: no slice of a rendering is this big or bigger (code hosts stop displaying files at 1 MB)
SLICE_LIMIT = 1_000_000
#: a slice holds at most this many bytes of the original, and at least `_SLICE_MIN` when a
#: top-level statement boundary allows
_SLICE_MAX = 800_000
_SLICE_MIN = 560_000
#: how far before the end of a window a statement boundary is looked for first
_NEAR_END = 128 << 10
#: a `;` followed by a declaration: where a statement of a statement list begins
_STATEMENT_AFTER = re.compile(rb";(?=(?:var|let|const|function|class|async\s+function)[\s{\[*(])")
_NOT_CONTINUATION = bytes(b for b in range(256) if not 0x80 <= b < 0xC0)
_NOT_MARK = bytes(b for b in range(256) if b not in b";{}\n")


def slicing_of(hidden: bytes, rendered: int | None = None) -> Slicing:
    """Cut the rendering of the original whose `hidden` form is given (`rendered`: the
    rendering's length, if known) into slices under `SLICE_LIMIT` bytes: at the start of a
    statement at the smallest brace depth found near the end of each window (top-level
    statements, or those of Bun's CJS wrapper body, in bundles), else after the last `;`, `{`
    or newline, else (a line of a megabyte) between two characters."""
    total = _rendered(hidden, 0, len(hidden)) if rendered is None else rendered
    cuts, starts, lines = [0], [0], [1]
    start, position, line, depth = 0, 0, 1, 0
    top: list[int] = []  # the smallest statement depth seen: the top level, once known
    while total - position >= SLICE_LIMIT:
        cut, marks = _cut(hidden, start, depth, top)
        grown = cut - start + len(marks) - marks.count(b"\n")
        depth += marks.count(b"{") - marks.count(b"}")
        line += len(marks)
        position += grown
        cuts.append(cut)
        starts.append(position)
        lines.append(line)
        start = cut
    return Slicing(tuple(cuts), tuple(starts), tuple(lines))


def _rendered(hidden: bytes, start: int, end: int) -> int:
    """Bytes of the rendering of the original's [start, end): each `;{}` gains a line break."""
    marks = _marks(hidden, start, end)
    return end - start + len(marks) - marks.count(b"\n")


def _marks(hidden: bytes, start: int, end: int) -> bytes:
    """The `;{}` and newlines of [start, end), in order (one pass: faster than four counts)."""
    return hidden[start:end].translate(None, _NOT_MARK)


def _cut(hidden: bytes, start: int, depth: int, top: list[int]) -> tuple[int, bytes]:
    """Where the slice that begins at `start` (at brace `depth`) ends, its rendering under
    SLICE_LIMIT, and the `_marks` of the slice."""
    reach = _SLICE_MAX
    while True:
        end = min(len(hidden), start + reach)
        cut = _statement_cut(hidden, start, depth, end, top) or _break_cut(hidden, start, end)
        if cut is None:
            cut = _character_cut(hidden, start, end)
        marks = _marks(hidden, start, cut)
        if cut - start + len(marks) - marks.count(b"\n") < SLICE_LIMIT or reach == 1:
            return cut, marks
        reach = max(1, reach // 2)  # dense `;{}` doubled the size: look nearer


def _statement_cut(hidden: bytes, start: int, depth: int, end: int, top: list[int]) -> int | None:
    """The last statement start at the smallest brace depth: first looked for in the window's
    last part (enough when it holds a top-level statement), then in [start + _SLICE_MIN, end),
    then anywhere in the window."""
    windows = (max(start + _SLICE_MIN, end - _NEAR_END), start + _SLICE_MIN, start + 1)
    for number, low in enumerate(windows):
        if low >= end:
            continue
        marks = _marks(hidden, start, low)
        at_low = depth + marks.count(b"{") - marks.count(b"}")
        found = _shallowest(hidden, low, at_low, end)
        if found is None:
            continue
        cut, depth = found
        if number == 0 and top and depth > top[0]:
            continue  # only inner statements near the end: look further back
        if not top or depth < top[0]:
            top[:] = [depth]
        return cut
    return None


def _shallowest(hidden: bytes, low: int, depth: int, end: int) -> tuple[int, int] | None:
    """(the last statement start of the smallest brace depth in [low, end), that depth);
    `depth`: the brace depth at `low`."""
    best: tuple[int, int] | None = None
    at = low
    for match in _STATEMENT_AFTER.finditer(hidden, low, end):
        position = match.start()
        depth += hidden.count(b"{", at, position) - hidden.count(b"}", at, position)
        at = position
        if best is None or depth <= best[1]:
            best = (position + 1, depth)
    return best


def _break_cut(hidden: bytes, start: int, end: int) -> int | None:
    """Just after the last line break of the rendering in the window."""
    found = max(hidden.rfind(b";", start + 1, end), hidden.rfind(b"{", start + 1, end),
                hidden.rfind(b"\n", start + 1, end))
    return found + 1 if found > start else None


def _character_cut(hidden: bytes, start: int, end: int) -> int:
    """A cut inside one long line, at the start of a UTF-8 character."""
    if end >= len(hidden):
        return len(hidden)
    cut = end
    while cut > start + 1 and 0x80 <= hidden[cut] < 0xC0:
        cut -= 1
    return cut


def render(source: bytes) -> Rendering:
    """A line break after every `;` and `{` and before every `}` of the code; text inside
    strings, templates, comments and regular expressions is copied verbatim."""
    if any(marker in source for marker in (b"\x01", b"\x02", b"\x03")):
        return as_written(source)  # cannot hide safely: no breaks at all rather than wrong ones
    buffer = bytearray(source)
    for start, end in _literal_spans(source):
        buffer[start:end] = source[start:end].translate(_HIDE)
    hidden = bytes(buffer).replace(b"{}", b"\x02\x03")  # an empty block stays on its line
    # each replacement inserts only a newline, so the three are independent of their order
    text = hidden.replace(b";", b";\n").replace(b"{", b"{\n").replace(b"}", b"\n}").translate(_SHOW)
    return Rendering(text=text, hidden=hidden, slicing=slicing_of(hidden, len(text)))


def as_written(source: bytes) -> Rendering:
    """The source as its own rendering, its lines unchanged (Python; JavaScript that cannot
    be broken safely): every `;{}` is hidden, so none counts as an inserted break."""
    hidden = source.translate(_HIDE)
    return Rendering(text=source, hidden=hidden, slicing=slicing_of(hidden, len(source)))


def _literal_spans(source: bytes) -> list[tuple[int, int]]:
    """Spans of strings, template text, comments and regular expressions (local lexing)."""
    spans: list[tuple[int, int]] = []
    # one per brace opened inside a template hole, and one per hole: does it close the hole?
    # (outside holes braces need no tracking, so the lexer skips them)
    holes: list[bool] = []
    position, length = 0, len(source)
    while position < length:
        quiet = (_SKIP if holes else _SKIP_OUTSIDE_HOLES).match(source, position)  # matches, if only empty
        position = quiet.end() if quiet is not None else position
        match = (_TOKEN if holes else _TOKEN_OUTSIDE_HOLES).search(source, position)
        if match is None:
            break
        start, end = match.span()
        char = source[start]
        position = end
        if char in b"\"'" or (char == 0x2F and end - start > 1):  # string or comment
            spans.append((start, end))
        elif char == 0x60:  # `
            plain = _PLAIN_TEMPLATE.match(source, start)
            if plain is not None:
                spans.append(plain.span())
                position = plain.end()
            else:
                position = _template(source, start, end, holes, spans)
        elif char == 0x2F:  # / : a regular expression or a division
            literal = _REGEX.match(source, start) if _starts_regex(source, start) else None
            if literal is not None:
                spans.append(literal.span())
                position = literal.end()
        elif char == 0x7B:  # {
            holes.append(False)
        elif holes and holes.pop():  # } closing a template hole: template text resumes
            position = _template(source, start, end, holes, spans)
        if position < 0:
            break
    return spans


def _template(source: bytes, start: int, position: int, holes: list[bool], spans: list[tuple[int, int]]) -> int:
    """Record template text from `position` up to the closing ` or the next ${."""
    chunk = _TEMPLATE_CHUNK.match(source, position)
    if chunk is None:
        spans.append((start, len(source)))
        return -1
    spans.append((start, chunk.end()))
    if chunk.group(1) == b"${":
        holes.append(True)
    return chunk.end()


def _starts_regex(source: bytes, slash: int) -> bool:
    before = slash - 1
    while before >= 0 and source[before] in b" \t\n\r":
        before -= 1
    if before < 0:
        return True
    if source[before] in _REGEX_BEFORE:
        return True
    word = _WORD_TAIL.search(source, max(0, before - 10), before + 1)
    return word is not None and word.group() in _REGEX_KEYWORDS


_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")
#: longest stem of a rendering's file name, in bytes (file systems allow 255 per name)
_STEM_LIMIT = 160


def slice_names(units: list[str], counts: list[int], suffix: str = ".js") -> list[list[str]]:
    """The files (`readable/...`) of each unit's slices (`counts[i]` slices for `units[i]`).

    A unit in one slice is `readable/<name>.js` (`.py` and so on: `suffix`), its name without
    that suffix and with every run of characters other than letters, digits, `.`, `_` and `-`
    made `_`; a unit in several is `readable/<name>~01.js`, `~02`, .... A name longer than 160
    bytes keeps its first 144 and gets `~` and 12 hex digits of the unit name's sha256. A name
    that another unit already has (ignoring case, for case-insensitive file systems) gets `~u2`,
    `~u3`, ... after it. `~` never comes from a unit's name, so no suffix can collide with one."""
    taken: set[str] = set()
    out = []
    for unit, count in zip(units, counts):
        stem = _UNSAFE.sub("_", unit).strip("._") or "unit"
        stem = stem.removesuffix(suffix) or stem
        if len(stem) > _STEM_LIMIT:
            digest = hashlib.sha256(unit.encode("utf-8", "surrogatepass")).hexdigest()[:12]
            stem = f"{stem[:_STEM_LIMIT - 16]}~{digest}"
        base, number = stem, 1
        while base.lower() in taken:
            number += 1
            base = f"{stem}~u{number}"
        taken.add(base.lower())
        width = max(2, len(str(count)))
        out.append([f"readable/{base}{suffix}"] if count == 1 else
                   [f"readable/{base}~{index:0{width}d}{suffix}" for index in range(1, count + 1)])
    return out
