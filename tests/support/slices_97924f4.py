"""The byte scanner of `analyzer/javascript/slices.py` as erratlas 97924f4 wrote it (a Python step
per token; `slice_scanner.py` now), kept as the oracle for `tests/test_slices_scanner.py`: the
faster scanner must give the same `Scanned` (ends, closers, trouble) for every input. One change
to 97924f4's text, made in both scanners: the comments between the token before a `/` and the `/`
are left out when telling a regex from a division (`_regex_allowed`; tree-sitter is the oracle of
that, `test_a_comment_before_a_slash_tells_nothing`)."""

from __future__ import annotations

import re
from dataclasses import dataclass

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
_COMMENTS = re.compile(rb"//[^\n\r]*+|/\*[\s\S]*?\*/")
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
    """Strings, templates (their `${}`), comments, regexes (told from divisions by the token
    before the `/`) and brackets, one regex match per token, the runs between them jumped."""
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
    """Whether a `/` at `at` starts a regex, from the token before it, comments left out."""
    gap = source[last_end:at]
    if b"/" in gap:
        gap = _COMMENTS.sub(b" ", gap)
    gap = gap.rstrip()
    if not gap:  # right after a token: an opener, `;`, `}` (a block's) start an expression
        return last_group <= _OPENS or last_group in (_SEMICOLON, _CLOSES)
    tail = gap[-1:]
    if tail.isalnum() or tail in (b"_", b"$"):
        word = _TRAILING_WORD.search(gap)
        return word is not None and word.group() in _KEYWORDS_BEFORE_REGEX
    return tail != b"." and not gap.endswith((b"++", b"--"))
