"""Where a handler may be, found by bytes before any descent (`find.handlers_on`): the `catch`
keyword, and the `.catch(` / `.then(` of a call, also `?.(` and `["catch"](`."""

from __future__ import annotations

from analyzer.javascript.syntax import starts_word

#: the words a handler is found by: the `catch` keyword, the `.catch(` and `.then(` of a call
_WORDS = (b"catch", b"then")
_SPACE = b" \t\r\n\f\v"


def places(source: bytes, start: int = 0, end: int | None = None) -> list[tuple[int, bytes | None]]:
    """Where a handler may be in the root's bytes `source[start:end]`, in source order: (offset
    of a `catch` keyword followed by `(` or `{`, None), or (offset of the `.`/`?.` before
    `catch(` or `then(`, the method). Byte searches: a regex over 13 MB costs ten times more."""
    out: list[tuple[int, bytes | None]] = []
    end = len(source) if end is None else end
    for word in _WORDS:
        at = source.find(word, start, end)
        while at >= 0:
            after = at + len(word)
            while after < len(source) and source[after] in _SPACE:
                after += 1
            follows = source[after:after + 1]
            before = at - 1
            while before >= 0 and source[before] in _SPACE:
                before -= 1
            if before >= 0 and source[before] == 0x2E and _called(source, after):  # `.`, then `(` or `?.(`
                out.append((before - 1 if before > 0 and source[before - 1] == 0x3F else before, word))
            elif word == b"catch" and follows in (b"(", b"{") and starts_word(source, at):
                out.append((at, None))
            elif before >= 1 and source[before] in b"\"'" and source[at - 1] == source[before] \
                    and source[after:after + 1] == source[before:before + 1] \
                    and (bracket := _bracket_before(source, before)) is not None \
                    and _called(source, _past_bracket(source, after + 1)):  # `p["catch"](f)`
                out.append((bracket, word))
            at = source.find(word, after, end)
    out.sort()
    return out


def _called(source: bytes, at: int) -> bool:
    """Whether a call's arguments open at `at`, past white space: `(`, or `?.(` (`p.catch?.(f)`)."""
    while at < len(source) and source[at] in _SPACE:
        at += 1
    if source.startswith(b"?.", at):
        at += 2
        while at < len(source) and source[at] in _SPACE:
            at += 1
    return source[at:at + 1] == b"("


def _bracket_before(source: bytes, quote: int) -> int | None:
    """The offset of the `[` right before a quoted key at `quote` (white space between), else None."""
    at = quote - 1
    while at >= 0 and source[at] in _SPACE:
        at -= 1
    return at if at >= 0 and source[at] == 0x5B else None


def _past_bracket(source: bytes, at: int) -> int:
    """Past the `]` closing a quoted key (white space before it), else `at` (no call follows)."""
    while at < len(source) and source[at] in _SPACE:
        at += 1
    return at + 1 if source[at:at + 1] == b"]" else len(source)
