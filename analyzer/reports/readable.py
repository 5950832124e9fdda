"""A readable rendering of a unit: line breaks and indentation at statement and member
boundaries, so a one-line 13 MB bundle becomes something a reviewer can open at a line.

Lexing is local (strings, templates, comments and regular expressions are copied verbatim);
it is a view for people, never code to run. The same source always gives the same bytes.
"""

from __future__ import annotations

import functools
import hashlib
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from analyzer.errors import InvariantError

_TOKEN = re.compile(
    rb'"(?:[^"\\\n]|\\[\s\S])*"'
    rb"|'(?:[^'\\\n]|\\[\s\S])*'"
    rb"|/\*[\s\S]*?\*/|//[^\n]*"
    rb"|[`/{}]"
)
#: the same without braces: outside template holes a brace cannot end a literal
_TOKEN_OUTSIDE_HOLES = re.compile(
    rb'"(?:[^"\\\n]|\\[\s\S])*"'
    rb"|'(?:[^'\\\n]|\\[\s\S])*'"
    rb"|/\*[\s\S]*?\*/|//[^\n]*"
    rb"|[`/]"
)
_TEMPLATE_CHUNK = re.compile(rb"(?:[^`\\$]|\\[\s\S]|\$(?!\{))*(`|\$\{)")
_REGEX = re.compile(rb"/(?:[^/\\\[\n]|\\.|\[(?:[^\]\\\n]|\\.)*\])+/[A-Za-z]*")
_REGEX_BEFORE = frozenset(b"(,=:[!&|?{};+-*%<>~^")
_REGEX_KEYWORDS = (b"return", b"typeof", b"case", b"do", b"else", b"in", b"of", b"new", b"delete", b"void", b"throw",
                   b"yield", b"await")
_WORD_TAIL = re.compile(rb"[A-Za-z_$][A-Za-z0-9_$]*$")
#: `;`, `{`, `}` inside strings, templates, comments and regular expressions are hidden as
#: these bytes while the breaks are inserted, then restored
_HIDE = bytes.maketrans(b";{}", b"\x01\x02\x03")
_SHOW = bytes.maketrans(b"\x01\x02\x03", b";{}")


@dataclass(frozen=True, slots=True)
class Rendering:
    text: bytes
    #: the original with its literal `;{}` hidden; counting `;{}` in it counts inserted breaks
    hidden: bytes

    def lines_of(self, offsets: list[int]) -> list[int]:
        """1-based lines of the rendering that hold the original's sorted `offsets`."""
        out, line, at = [], 1, 0
        for offset in offsets:
            segment = self.hidden[at:offset]
            line += segment.count(b"\n") + segment.count(b";") + segment.count(b"{") + segment.count(b"}")
            at = offset
            out.append(line)
        return out


def render(source: bytes) -> Rendering:
    """A line break after every `;` and `{` and before every `}` of the code; text inside
    strings, templates, comments and regular expressions is copied verbatim."""
    if any(marker in source for marker in (b"\x01", b"\x02", b"\x03")):
        # cannot hide safely: no breaks at all rather than wrong ones
        return Rendering(text=source, hidden=source.translate(None, b";{}"))
    buffer = bytearray(source)
    for start, end in _literal_spans(source):
        buffer[start:end] = source[start:end].translate(_HIDE)
    hidden = bytes(buffer).replace(b"{}", b"\x02\x03")  # an empty block stays on its line
    # each replacement inserts only a newline, so the three are independent of their order
    text = hidden.replace(b";", b";\n").replace(b"{", b"{\n").replace(b"}", b"\n}").translate(_SHOW)
    return Rendering(text=text, hidden=hidden)


def _literal_spans(source: bytes) -> list[tuple[int, int]]:
    """Spans of strings, template text, comments and regular expressions (local lexing)."""
    spans: list[tuple[int, int]] = []
    # one per brace opened inside a template hole, and one per hole: does it close the hole?
    # (outside holes braces need no tracking, so the lexer skips them)
    holes: list[bool] = []
    position, length = 0, len(source)
    while position < length:
        match = (_TOKEN if holes else _TOKEN_OUTSIDE_HOLES).search(source, position)
        if match is None:
            break
        start, end = match.span()
        char = source[start]
        position = end
        if char in b"\"'" or (char == 0x2F and end - start > 1):  # string or comment
            spans.append((start, end))
        elif char == 0x60:  # `
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
#: longest rendering file name before `.js` (a file name may not exceed 255 bytes)
_LONGEST = 160


def readable_names(units: Iterable[str]) -> dict[str, str]:
    """Where the rendering of each unit of a scan lives in its scan directory: the unit's name
    with every run of other characters than letters, digits, `.`, `_`, `-` made one `_`, and
    `.js` added. That is not one-to-one (`pkg/a/b.py`, `pkg/a_b.py`): names that would be
    shared, and names too long for a file system, end in a digest of the exact unit name
    instead, so every unit of a scan has its own short file."""
    units = sorted(set(units))
    plain = {unit: _safe(unit) for unit in units}
    names = {unit: name if len(name) <= _LONGEST else _digested(unit, name) for unit, name in plain.items()}
    while True:
        users = Counter(names.values())
        shared = [unit for unit, name in names.items() if users[name] > 1 and name == plain[unit]]
        if not shared:
            break
        names.update((unit, _digested(unit, plain[unit])) for unit in shared)
    if len(set(names.values())) != len(names):
        raise InvariantError("two units share a readable rendering name (a digest collision)")
    return {unit: f"readable/{name}.js" if not name.endswith(".js") else f"readable/{name}" for unit, name in names.items()}


def _safe(unit: str) -> str:
    return _UNSAFE.sub("_", unit).strip("._") or "unit"


def _digested(unit: str, name: str) -> str:
    digest = hashlib.sha256(unit.encode("utf-8", "surrogatepass")).hexdigest()[:16]
    stem, dot, suffix = name.rpartition(".")
    if not dot or len(suffix) > 8:
        stem, suffix = name, ""
    keep = _LONGEST - 18 - len(suffix)
    return f"{stem[-keep:].lstrip('._')}-{digest}" + (f".{suffix}" if suffix else "")


@functools.lru_cache(maxsize=256)
def readable_name(unit: str) -> str:
    """Where the rendering of `unit` lives when no other unit shares its name (`readable_names`)."""
    return readable_names([unit])[unit]
