"""Byte supersets of values a sliced extraction needs before any slice is read (docs/slices.md,
"The byte supersets"): the names L declares, the level-option calls per callee, the throwers
and the hot functions; read from the unit the cut scanner blanked, in the pass that reads L's
statement ends for the plan (`scanned_supersets`). Each holds the exact value the whole tree
gives: the merge checks it, a miss costs a re-parse."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial

from analyzer.javascript.slice_scanner import (
    _CONTINUES,
    _HARMLESS,
    _SKIPPED,
    _SKIPPED_DEPTH,
    PROGRAM,
    Scanned,
    _depths,
    _hide,
    _unmatched_brackets,
    statement_ends,
)
from analyzer.javascript.slices import _BUN_CJS_HEAD
from analyzer.javascript.syntax import spaced, starts_word

_NAME = rb"[A-Za-z_$\x80-\xff][\w$\x80-\xff]*+"
_GAP = rb"[\s\0]*+"  # white space, and comments blanked
# L's own tokens, groups and the literals left in the blanked bytes jumped whole, up to a
# declaring keyword (var, let, const: 1; function: 2; class: 3), an opener nested too deep to
# jump (4), a `;` (5), a closer (6: L's own) or the end (7); else a byte no token starts with
_TOP_KEYWORD = re.compile(
    rb"(?:[^(){}\[\];A-Za-z_$\x80-\xff\"'`]++|" + _HARMLESS + rb"|" + _SKIPPED
    + rb"|(?!(?:var|let|const|function|class)(?![\w$\x80-\xff]))" + _NAME + rb")*+"
    rb"(?:(?:(var|let|const)|(function)|(class))(?![\w$\x80-\xff])|([(\[{])|(;)|([)\]}])|(\Z))")
_SEMICOLON, _CLOSER = 5, 6
_DECLARED = re.compile(_GAP + rb"(?:(" + _NAME + rb")|([\[{]))")
_FUNCTION_NAME = re.compile(_GAP + rb"(?:\*" + _GAP + rb")?(" + _NAME + rb")")
# most functions in one match: the name (1), the parameters and the body (2) jumped whole
_FUNCTION_HEAD = re.compile(_GAP + rb"(?:\*" + _GAP + rb")?(" + _NAME + rb")" + _GAP + _SKIPPED + _GAP
                            + rb"(" + _SKIPPED + rb")")
_CLASS_NAME = re.compile(_GAP + rb"(" + _NAME + rb")")
_NAMES = re.compile(_NAME)
# a `const`'s value that may be a function or an arrow (in parentheses or not)
_FUNCTION_VALUE = re.compile(
    _GAP + rb"=" + _GAP + rb"(?:\(|(?:function|async)(?![\w$\x80-\xff])|" + _NAME + _GAP + rb"=>)")
#: where a statement can end without a `;` (ASI)
_LINE_BREAKS = (b"\n", b"\r", b"\xe2\x80\xa8", b"\xe2\x80\xa9")
_IDENTIFIER = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_$" + bytes(range(0x80, 0x100)))
# after white space, a group jumped whole (1), or its opener when nested too deep
_GROUP_AFTER = re.compile(_GAP + rb"(?:(" + _SKIPPED + rb")|[(\[{])")
# a declarator's initializer up to the `,` before the next (1), an opener nested too deep (2), or
# else where it stops (a `;`, a closer, the end)
_INITIALIZER_BYTES = rb"(?:[^(){}\[\],;\"'`]++|" + _HARMLESS + rb"|" + _SKIPPED + rb")*+"
_INITIALIZER = re.compile(_INITIALIZER_BYTES + rb"(?:(,)|([(\[{]))?")
# most declarators in one match: the name (1), its initializer as `_INITIALIZER` reads it (2: a
# `,`; 3: an opener nested too deep)
_NAMED_DECLARATOR = re.compile(_GAP + rb"(" + _NAME + rb")" + _INITIALIZER_BYTES + rb"(?:(,)|([(\[{]))?")
# the bytes of an argument list up to a `,` of its own (the literals left in the blanked bytes hold
# no bracket, but may hold a `,`)
_ARGUMENT = re.compile(rb"(?:[^,(){}\[\]\"'`]++|" + _HARMLESS + rb"|" + _SKIPPED + rb")*+")
_BRACKET = re.compile(rb"[^(){}\[\]]*+(?:([(\[{])|[)\]}])")
#: the `try` keyword with its block's opener (a longer word ending in `try` is told by the byte before)
_TRY = re.compile(rb"try" + _GAP + rb"\{")
_GROUP = re.compile(_SKIPPED)
#: every byte that cannot be part of a name made a space, so that `split` yields the words
_SPACES = bytes(b if b in _IDENTIFIER else 0x20 for b in range(256))


@dataclass(frozen=True, slots=True)
class Supersets:
    """Values a sliced extraction needs before any slice is read, from bytes: each holds the
    exact value the whole tree gives, which the merge checks (docs/slices.md, rows 5d, 10b, 13)."""

    #: the names L's statements may declare (`references.listing`'s `names` is a subset)
    names: frozenset[bytes]
    #: per callee, at least as many calls as `logger.level_options` finds for it
    level_option_calls: dict[str, int]
    #: the names of L's functions and declarators whose bytes hold a `throw` (`handlers.sources`'
    #: `_Graph.throwing` is a subset)
    throwers: frozenset[bytes]
    #: the throwers and the names of L's functions whose bytes name one of them as a word: the
    #: names a protected block's call may need (`handlers.sources`' `_Graph.is_hot` holds a subset)
    hot: frozenset[bytes] = frozenset()
    #: the name's offset -> the end of the bytes, of L's functions whose bytes from their name on
    #: name no thrower and whose name is not hot: their bodies call no thrower (`slice_sources`)
    cold: dict[int, int] = field(default_factory=dict)
    #: the words of every `try` block's bytes: the names a protected block's call may name, the
    #: only functions whose bodies the merge may ask of a slice (None: any)
    guarded: frozenset[bytes] | None = None


def scanned_supersets(source: bytes, level_key: str, options_argument: int) -> tuple[Scanned, Supersets | None]:
    """What `slices.plan_of` reads of `statement_ends` (the ends of L, the program or the body of
    Bun's wrapper, and the wrapper's closer; nothing else, and no blanked bytes), and the byte
    supersets of that L (None when the scanner is unsure), from one pass over L's tokens (docs/slices.md,
    "The byte supersets"). On a byte that pass cannot read, the scanner's own pass gives the ends."""
    scanned, rest = scanned_then_supersets(source, level_key, options_argument)
    return scanned, rest()


def scanned_then_supersets(source: bytes, level_key: str, options_argument: int
                           ) -> tuple[Scanned, Callable[[], Supersets | None]]:
    """`scanned_supersets`, its supersets made when the second value is called: the plan needs
    only the ends, and the rest of the supersets can wait until a slice worker has started."""
    source = spaced(source)  # white space past ASCII is no part of a name
    hidden = _hide(source)
    if hidden is None or _unmatched_brackets(hidden[0]):
        return statement_ends(source), lambda: None
    masked = hidden[0]
    head = _BUN_CJS_HEAD.match(source)
    opener = PROGRAM if head is None else head.end() - 1
    names, throwers, functions, ends, end = _declarations(source, masked, opener + 1, len(source))
    if end < 0:  # the names stop there too, as they would on L alone
        scanned = Scanned(*_depths(source, masked, hidden[1]), None, masked)
    else:
        scanned = Scanned({opener: ends} if ends else {}, {} if head is None else {opener: end}, None, masked)
    return scanned, partial(_supersets, source, masked, names, throwers, functions, level_key, options_argument)


def supersets(source: bytes, braces: tuple[int, int] | None, level_key: str, options_argument: int,
              masked: bytearray | None = None) -> Supersets | None:
    """The byte supersets of a unit whose L has these braces (`Plan.braces`: None for the
    program); None when the scanner is unsure of it. `masked`: the unit as the scanner blanked it
    (`Scanned.masked`), else blanked here (None when the scanner would be unsure)."""
    source = spaced(source)  # white space past ASCII is no part of a name
    if masked is None:
        hidden = _hide(source)
        if hidden is None or _unmatched_brackets(hidden[0]):
            return None
        masked = hidden[0]
    start, stop = (0, len(source)) if braces is None else (braces[0] + 1, braces[1])
    names, throwers, functions, _, _ = _declarations(source, masked, start, stop)
    return _supersets(source, masked, names, throwers, functions, level_key, options_argument)


def _supersets(source: bytes, masked: bytearray, names: set[bytes], throwers: set[bytes],
               functions: list[tuple[list[bytes], int, int]], level_key: str, options_argument: int) -> Supersets:
    hot, cold = _hot(source, throwers, functions)
    return Supersets(frozenset(names), _level_option_calls(source, masked, level_key, options_argument),
                     frozenset(throwers), hot, cold, _guarded(source, masked))


def _guarded(source: bytes, masked: bytearray) -> frozenset[bytes]:
    """The words of the unit's bytes (not blanked) inside each outermost `try` block, the block's
    braces matched on the blanked bytes: a regex jumps most blocks whole, a block nested deeper
    bracket by bracket."""
    spans: list[bytes] = []
    last = -1
    for found in _TRY.finditer(masked):
        at = found.end() - 1
        if at < last or (found.start() and masked[found.start() - 1] in _IDENTIFIER):
            continue  # inside the block before, or a longer word (`retry{`)
        group = _GROUP.match(masked, at)
        last = group.end() if group is not None else _past_group(masked, at)
        spans.append(source[at:last])
    return frozenset(b" ".join(spans).translate(_SPACES).split())


def _hot(source: bytes, throwers: set[bytes], functions: list[tuple[list[bytes], int, int]]
         ) -> tuple[frozenset[bytes], dict[int, int]]:
    """The throwers and the functions whose bytes (the unit's, not blanked, from the name on)
    hold one's name as a word: a function calling a thrower names it in its body. And the others
    of one name, by the name's offset: where their bytes end."""
    hot = set(throwers)
    others: list[tuple[int, int, bytes]] = []
    for these, start, stop in functions:
        if not throwers.isdisjoint(source[start:stop].translate(_SPACES).split()):
            hot.update(these)
        elif len(these) == 1 and source.startswith(these[0], start):
            others.append((start, stop, these[0]))
    return frozenset(hot), {start: stop for start, stop, name in others if name not in hot}


def _past_group(masked: bytearray, at: int) -> int:
    """After the closer of the opener at `at`, bracket by bracket (a group nested too deep)."""
    depth, pos = 0, at
    while (found := _BRACKET.match(masked, pos)) is not None:
        pos = found.end()
        depth += 1 if found.lastindex else -1
        if not depth:
            break
    return pos


def _declarations(source: bytes, masked: bytearray, start: int, stop: int
                  ) -> tuple[set[bytes], set[bytes], list[tuple[list[bytes], int, int]], list[int], int]:
    """The names L declares: after `var`, `let`, `const` among L's own tokens, the name or every
    name of the pattern that starts each declarator (a declarator ends at a `,` outside
    brackets); after `function`, `function*` and `class`, the name. And the throwers: the
    functions (`function NAME`, `const NAME =` a function or an arrow, as
    `handlers.sources._function_of` takes them) whose bytes hold a `throw` token. And those
    functions: their names and their bytes [start, stop) from the name (or pattern) on. And L's
    statement ends, as `statement_ends` finds them, and where L ends: its closer, or `stop`
    (-1: on a byte no token starts with, where the names stop too)."""
    names: set[bytes] = set()
    throwers: set[bytes] = set()
    functions: list[tuple[list[bytes], int, int]] = []
    ends: list[int] = []
    pos, continues = start, _CONTINUES.match
    while (found := _TOP_KEYWORD.match(masked, pos, stop)) is not None:
        pos = found.end()
        group = found.lastindex
        if group == _SEMICOLON:
            if not continues(source, pos):
                ends.append(pos)
        elif group is not None and group >= _CLOSER:
            return names, throwers, functions, ends, pos - 1 if group == _CLOSER else pos
        elif group == 4:
            pos = _past_group(masked, pos - 1)
        elif group == 1:
            at, constant = pos, masked[pos - 5:pos] == b"const"
            while True:
                if (declared := _NAMED_DECLARATOR.match(masked, at, stop)) is not None:
                    these = [source[declared.start(1):declared.end(1)]]
                    value, named_at, at = declared.end(1), declared.start(1), declared.end()
                    more = declared.lastindex == 2
                    if declared.lastindex == 3:
                        at, more = _initializer_end(masked, _past_group(masked, at - 1), stop)
                    names.add(these[0])
                elif (declared := _DECLARED.match(masked, at, stop)) is not None:  # a pattern
                    at = _past_group(masked, declared.end() - 1)
                    these = list(map(bytes, _NAMES.findall(masked, declared.end(), at - 1)))
                    names.update(these)
                    value, named_at = at, declared.start()
                    at, more = _initializer_end(masked, at, stop)
                else:
                    break
                if constant and _FUNCTION_VALUE.match(masked, value, at):
                    functions.append((these, named_at, at))
                    if _holds_throw(masked, value, at):
                        throwers.update(these)
                if not more:
                    break
            if all(masked.find(end, pos, at) < 0 for end in _LINE_BREAKS):  # no statement starts in it
                pos = at
        elif group == 3:
            named = _CLASS_NAME.match(masked, pos, stop)
            if named is not None:
                names.add(source[named.start(1):named.end(1)])
        elif (head := _FUNCTION_HEAD.match(masked, pos, stop)) is not None:
            name, pos = source[head.start(1):head.end(1)], head.end()
            names.add(name)
            functions.append(([name], head.start(1), pos))
            if _holds_throw(masked, head.start(2), pos):
                throwers.add(name)
        elif (named := _FUNCTION_NAME.match(masked, pos, stop)) is not None:
            name = source[named.start(1):named.end(1)]
            names.add(name)
            parameters = _GROUP_AFTER.match(masked, named.end(), stop)
            body = _GROUP_AFTER.match(masked, _group_end(masked, parameters), stop) if parameters else None
            if body is not None:  # L's tokens go on after it
                pos = _group_end(masked, body)
                functions.append(([name], named.start(1), pos))
                if _holds_throw(masked, body.start(1) if body.lastindex else body.end() - 1, pos):
                    throwers.add(name)
    return names, throwers, functions, ends, -1


def _holds_throw(masked: bytearray, start: int, stop: int) -> bool:
    """Whether `throw` is a word of masked[start:stop] (a word of a literal left there counts)."""
    at = masked.find(b"throw", start, stop)
    while at >= 0:
        before, after = masked[at - 1] if at else 0x20, masked[at + 5] if at + 5 < len(masked) else 0x20
        if before not in _IDENTIFIER and after not in _IDENTIFIER:
            return True
        at = masked.find(b"throw", at + 5, stop)
    return False


def _initializer_end(masked: bytearray, at: int, stop: int) -> tuple[int, bool]:
    """Where the declarator whose initializer may start at `at` ends, and whether a `,` says
    another follows."""
    while True:
        found = _INITIALIZER.match(masked, at, stop)
        if found is None:  # never: the pattern matches the empty initializer
            return at, False
        if found.lastindex != 2:
            return found.end(), found.lastindex == 1
        at = _past_group(masked, found.end() - 1)


def _group_end(masked: bytearray, found: re.Match[bytes]) -> int:
    """After the group whose opener `found` ends at (`_GROUP_AFTER`), jumped or stepped."""
    return found.end(1) if found.lastindex == 1 else _past_group(masked, found.end() - 1)


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


def _back_to_opener(backwards: bytearray, at: int) -> int:
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
    backwards = masked[::-1]
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
