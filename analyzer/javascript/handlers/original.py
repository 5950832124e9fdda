"""What the original body of a catch clause held, when the bundle's is empty (docs/reference.md,
"Handler records", `sourceBody`): the source map's `sourcesContent` read at the clause's origin by a
byte lexer (whitespace and comments, to the body's first token), never parsed."""

from __future__ import annotations

import re
from collections.abc import Sequence

from analyzer.model import Origin, SourceBody
from analyzer.sourcemap import SourceMap

_SPACE = frozenset(b" \t\n\r\f\v")
#: the non-ASCII white space and line terminators JavaScript skips, as UTF-8
_WIDE_SPACE = (b"\xc2\xa0", b"\xef\xbb\xbf", b"\xe2\x80\xa8", b"\xe2\x80\xa9", b"\xe3\x80\x80")
_WORD = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_$")
#: line terminators as source maps count lines (ECMAScript's: CR LF is one)
_LINE_END = re.compile(rb"\r\n|[\r\n]|\xe2\x80[\xa8\xa9]")
_COMMENT_END = re.compile(rb"[\r\n]|\xe2\x80[\xa8\xa9]")
#: bytes a catch clause's parameter list may hold that the lexer does not follow (a string, a
#: template, a regular expression in a default value): the clause is not read
_UNREAD = frozenset(b"\"'`/")


def source_bodies(source: bytes, source_map: SourceMap, clauses: Sequence[tuple[int, int]],
                  origins: dict[int, Origin]) -> dict[int, SourceBody]:
    """For each catch clause of `source` (`catch` keyword's offset, end) whose body holds no
    statement and that `origins` places: what its original body holds, where the map carries the
    source's text and that text, at the origin, is a catch clause (the keyword, or the `}` of the
    try block before it, where esbuild and terser map the keyword). Clauses it cannot tell are left
    out."""
    texts = _Texts(source_map)
    out: dict[int, SourceBody] = {}
    for offset, end in clauses:
        origin = origins.get(offset)
        if origin is None:
            continue
        read = clause_body(source, offset)
        if read is None or read[0] == "code" or read[1] != end - 1:
            continue
        found = texts.at(origin)
        if found is not None:
            kind = _original_body(*found)
            if kind is not None:
                out[offset] = kind
    return out


def clause_body(data: bytes, at: int) -> tuple[SourceBody, int] | None:
    """What the body of the catch clause whose `catch` keyword is at `at` holds, and the offset of
    its closing `}` (-1 for `code`: not looked for); None when the text is not such a clause or
    not read (a parameter with a string, template or `/` in it)."""
    if not _keyword(data, at):
        return None
    at, _ = _skip(data, at + 5)
    if at < len(data) and data[at] == 0x28:  # `(`: the parameter, to its matching `)`
        at = _after_parameter(data, at)
        if at < 0:
            return None
        at, _ = _skip(data, at)
    if at >= len(data) or data[at] != 0x7B:  # `{`
        return None
    at, commented = _skip(data, at + 1)
    if at < 0 or at >= len(data):
        return None
    if data[at] != 0x7D:  # `}`
        return "code", -1
    return ("comments" if commented else "empty"), at


def _original_body(data: bytes, at: int) -> SourceBody | None:
    """`clause_body` of the clause at `at`: its `catch` keyword, or the `}` just before it."""
    if data[at:at + 1] == b"}":
        at, _ = _skip(data, at + 1)
        if at < 0:
            return None
    read = clause_body(data, at)
    return read[0] if read is not None else None


def _keyword(data: bytes, at: int) -> bool:
    return (data[at:at + 5] == b"catch" and (at == 0 or data[at - 1] not in _WORD)
            and (at + 5 >= len(data) or data[at + 5] not in _WORD))


def _skip(data: bytes, at: int) -> tuple[int, bool]:
    """The offset of the first byte from `at` that is not white space or a comment (len(data) at
    the end, -1 inside an unclosed comment), and whether a comment was skipped."""
    commented = False
    size = len(data)
    while at < size:
        byte = data[at]
        if byte in _SPACE:
            at += 1
        elif byte == 0x2F and data[at + 1:at + 2] == b"/":
            found = _COMMENT_END.search(data, at + 2)
            at, commented = (found.start() if found else size), True
        elif byte == 0x2F and data[at + 1:at + 2] == b"*":
            close = data.find(b"*/", at + 2)
            if close < 0:
                return -1, commented
            at, commented = close + 2, True
        elif byte >= 0x80 and data.startswith(_WIDE_SPACE, at):
            at += 3 if byte != 0xC2 else 2
        else:
            break
    return at, commented


def _after_parameter(data: bytes, at: int) -> int:
    """The offset after the `)` that closes the `(` at `at`, -1 when not read (`_UNREAD`)."""
    depth = 0
    while at < len(data):
        at, _ = _skip(data, at)
        if at < 0 or at >= len(data) or data[at] in _UNREAD:
            return -1
        byte = data[at]
        if byte in b"([{":
            depth += 1
        elif byte in b")]}":
            depth -= 1
            if depth == 0:
                return at + 1 if byte == 0x29 else -1
        at += 1
    return -1


class _Texts:
    """The map's source texts as UTF-8 with their line starts, made when first asked for."""

    def __init__(self, source_map: SourceMap) -> None:
        self._map = source_map
        self._index: dict[str, int] | None = None
        self._made: dict[int, tuple[bytes, list[int]]] = {}

    def at(self, origin: Origin) -> tuple[bytes, int] | None:
        """The source's text and the byte offset of `origin` in it, None when the map carries no
        text for it or the position is outside it."""
        if self._index is None:
            self._index = {}
            for number, name in enumerate(self._map.sources):
                if self._map.contents[number] is not None:
                    self._index.setdefault(name, number)
        index = self._index.get(origin.source)
        if index is None:
            return None
        if index not in self._made:
            text = (self._map.contents[index] or "").encode("utf-8", "surrogatepass")
            self._made[index] = (text, [0, *(m.end() for m in _LINE_END.finditer(text))])
        data, starts = self._made[index]
        if origin.line > len(starts):
            return None
        begin = starts[origin.line - 1]
        end = starts[origin.line] if origin.line < len(starts) else len(data)
        units, line = origin.column - 1, data[begin:end]
        if line[:units].isascii():
            return (data, begin + units) if units < len(line) else None
        at = begin
        for char in line.decode("utf-8", "surrogatepass"):
            if units <= 0:
                return data, at
            units -= 2 if ord(char) > 0xFFFF else 1
            at += len(char.encode("utf-8", "surrogatepass"))
        return None
