"""The byte scanner that finds where a unit may be cut (docs/slices.md, "Step 1 as built"): the
byte after each `;` that ends a statement of a list at depth 0 to 2, and the closers of the
brackets at depth 0 and 1. Two passes: one blanks what hides brackets (strings, comments,
regexes, templates' text), one reads the brackets, skipping whole groups below the lists read;
on any trouble the token-by-token scan says which."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

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
    #: the unit blanked by the first pass, when the second read it (the byte supersets read it
    #: too: `slice_supersets.supersets`)
    masked: bytearray | None = field(default=None, compare=False, repr=False)


def statement_ends(source: bytes) -> Scanned:
    """Two passes (docs/slices.md, "Step 1 as built"): one steps on what hides brackets (strings,
    comments, regexes, templates' text) and blanks it; the other reads the blanked bytes' brackets,
    skipping whole groups below L's depth. On any trouble, `_stepwise` says which, and where."""
    hidden = _hide(source)
    if hidden is not None:
        masked, interpolations = hidden
        if not _unmatched_brackets(masked):
            ends, closers = _depths(source, masked, interpolations)
            return Scanned(ends, closers, None, masked)
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


#: a list nested in a run of L (`nested_lists`): its opener, its closer, its statement ends
NestedList = tuple[int, int, tuple[int, ...]]


def nested_lists(source: bytes, masked: bytearray, start: int, stop: int) -> list[NestedList]:
    """The statement lists in `[start, stop)` (a run of L's whole statements, a wrapper function
    say) whose ends `statement_ends` would keep if the run were the program: its lists at depth 1
    and 2, as a wrapper's body is; by opener. From the unit's blanked bytes (`Scanned.masked`),
    a template's `${` taken for a `{`: the caller checks what the list is."""
    ends, closers = _depths(source, masked, set(), start, stop)
    return [(opener, closers[opener], tuple(found)) for opener, found in sorted(ends.items())
            if opener != PROGRAM and opener in closers]


def _depths(source: bytes, masked: bytearray, interpolations: set[int], start: int = 0, stop: int | None = None,
            ) -> tuple[dict[int, list[int]], dict[int, int]]:
    """`Scanned.ends` and `closers` from the blanked unit, whose brackets all match (or of its
    bytes `[start, stop)`, whole groups). A `${}` is kept as its `$`'s offset, inverted: no closer
    is kept for it."""
    stack: list[int] = []
    ends: dict[int, list[int]] = {}
    closers: dict[int, int] = {}
    pos, steps, deepest, continues = start, _DEPTH_STEPS, _DEPTH_STEPS[-1], _CONTINUES.match
    stop = len(masked) if stop is None else stop
    while (found := (steps[len(stack)] if len(stack) < 4 else deepest)(masked, pos, stop)) is not None:
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
    """Whether a `/` at `at` starts a regex, from the token before it: the comments since it are
    left out (every `/` between the two starts or lies in a comment: any other is a token)."""
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
