"""A readable rendering of a unit: line breaks and indentation at statement and member
boundaries, so a one-line 13 MB bundle becomes something a reviewer can open at a line.

Lexing is local (strings, templates, comments and regular expressions are copied verbatim);
it is a view for people, never code to run. The same source always gives the same bytes.
"""

from __future__ import annotations

import bisect
import re
from array import array
from dataclasses import dataclass

_INDENT = b"  "
_MAX_DEPTH = 40
_TOKEN = re.compile(
    rb'"(?:[^"\\\n]|\\[\s\S])*"'
    rb"|'(?:[^'\\\n]|\\[\s\S])*'"
    rb"|/\*[\s\S]*?\*/|//[^\n]*"
    rb"|[`/{}()\[\];,]"
)
_TEMPLATE_CHUNK = re.compile(rb"(?:[^`\\$]|\\[\s\S]|\$(?!\{))*(`|\$\{)")
_REGEX = re.compile(rb"/(?:[^/\\\[\n]|\\.|\[(?:[^\]\\\n]|\\.)*\])+/[A-Za-z]*")
_REGEX_BEFORE = frozenset(b"(,=:[!&|?{};+-*%<>~^")
_REGEX_KEYWORDS = (b"return", b"typeof", b"case", b"do", b"else", b"in", b"of", b"new", b"delete", b"void", b"throw",
                   b"yield", b"await")
_STATEMENT_START = re.compile(rb"[A-Za-z_$]")
_WORD_TAIL = re.compile(rb"[A-Za-z_$][A-Za-z0-9_$]*$")


@dataclass(frozen=True, slots=True)
class Rendering:
    text: bytes
    #: offsets (into the original) before which a line break was inserted, ascending
    breaks: array
    #: offsets of the original's own newlines, ascending
    newlines: array

    def line_of(self, offset: int) -> int:
        """1-based line of the rendering that holds the original's `offset`."""
        return 1 + bisect.bisect_right(self.newlines, offset - 1) + bisect.bisect_right(self.breaks, offset)


def render(source: bytes) -> Rendering:
    pieces: list[bytes] = []
    breaks = array("q")
    frames = [0]  # open parens/brackets per brace level; a template hole is a level too
    holes: list[bool] = []  # for each open brace: does it close a template hole?
    at = 0
    position = 0
    length = len(source)
    depth = 0

    def newline_before(offset: int, level: int) -> None:
        nonlocal at
        pieces.append(source[at:offset])
        pieces.append(b"\n" + _INDENT * min(level, _MAX_DEPTH))
        breaks.append(offset)
        at = offset

    while position < length:
        match = _TOKEN.search(source, position)
        if match is None:
            break
        start, end = match.span()
        char = source[start]
        position = end
        if char in b"\"'" or (char == 0x2F and end - start > 1):  # string or comment
            continue
        if char == 0x60:  # `
            position = _template(source, end, holes, frames)
            if position < 0:
                break
            continue
        if char == 0x2F:  # / : a regular expression or a division
            if _starts_regex(source, start):
                literal = _REGEX.match(source, start)
                if literal is not None:
                    position = literal.end()
            continue
        if char in b"([":
            frames[-1] += 1
        elif char in b")]":
            frames[-1] = max(0, frames[-1] - 1)
        elif char == 0x7B:  # {
            holes.append(False)
            frames.append(0)
            depth += 1
            if end < length and source[end] != 0x7D:
                newline_before(end, depth)
        elif char == 0x7D:  # }
            if holes and holes[-1]:
                holes.pop()
                frames.pop()
                position = _template(source, end, holes, frames)
                if position < 0:
                    break
                continue
            if holes:
                holes.pop()
            if len(frames) > 1:
                frames.pop()
            depth = max(0, depth - 1)
            if start > 0 and source[start - 1] != 0x7B:
                newline_before(start, depth)
            if end < length and _STATEMENT_START.match(source, end):  # `}function f(){`
                newline_before(end, depth)
        elif frames[-1] == 0:  # ; or , outside parens and brackets
            if end < length and source[end] not in b"\n}":
                newline_before(end, depth)
    pieces.append(source[at:])
    newlines = array("q", (m.start() for m in re.finditer(rb"\n", source)))
    return Rendering(text=b"".join(pieces), breaks=breaks, newlines=newlines)


def _template(source: bytes, position: int, holes: list[bool], frames: list[int]) -> int:
    """Skip template text from `position`; returns where code resumes (after ` or ${)."""
    chunk = _TEMPLATE_CHUNK.match(source, position)
    if chunk is None:
        return -1
    if chunk.group(1) == b"${":
        holes.append(True)
        frames.append(0)
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


def readable_name(unit: str) -> str:
    """Where the rendering of `unit` lives in a scan directory."""
    safe = _UNSAFE.sub("_", unit).strip("._") or "unit"
    return f"readable/{safe}.js" if not safe.endswith(".js") else f"readable/{safe}"
