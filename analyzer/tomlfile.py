"""One reading of a TOML file: its values (tomllib) and where each key and array element is.

People edit allowlists and rules in every form TOML allows; tomllib reads the values and
`positions` walks the same text's tokens to record the line and column of every key path, so a
message points at the right line whatever the form. Before any parser sees it, a file nested
deeper than MAX_DEPTH brackets, with a key of more than MAX_DEPTH dotted parts, or with more than
MAX_TOKENS tokens is refused. The tokens are kept in three arrays (docs/performance.md, "Reading
TOML")."""

from __future__ import annotations

import re
import tomllib
from array import array
from dataclasses import dataclass
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any, NamedTuple

from analyzer.bounded import MAX_TOML_BYTES, MAX_TOML_TOKENS, read_regular
from analyzer.errors import InputError

#: brackets and braces open at once, and parts of one dotted key; an allowlist needs 3
MAX_DEPTH = 32
MAX_TOKENS = MAX_TOML_TOKENS

Key = tuple[str | int, ...]
_SPACE = r"[ \t]"
_BARE = r"[^ \t\r\n\#\"'\[\]{}=,.]+"
_ONE_LINE_STRING = r"""\"[^"\\\n]*+(?:\\.[^"\\\n]*+)*+\"|'[^'\n]*'"""
#: one significant token after any spaces and comments (read past, never kept); its kind is the
#: number of the group that matched. After the spaces, the alternatives start with distinct
#: characters, so their order only matters for `other` (a lone `\r` or an unclosed quote), last.
#: First, a line that is only `key = value` (7 of an allowlist entry's 9 lines) is one `pair`
#: token: exactly the text of the four tokens it stands for (key, `=`, value, line end; a value
#: of one token, on one line: a `"""` string opens no pair), and only at a line's start, where
#: `key = value` can only be a pair of the current table (a line of a multi-line array holds
#: values, which `key = value` is not). String bodies repeat possessively (`*+`): a repetition
#: that could backtrack keeps a frame per repeat (4 GB for a 15 MiB string, with `(?:a|b)*`).
_TOKEN = re.compile(
    rf"""
    (?<![^\n]){_SPACE}*(?P<pair>(?P<pair_key>{_BARE}){_SPACE}*={_SPACE}*(?:{_ONE_LINE_STRING}|{_BARE})
                         {_SPACE}*(?:\#[^\n]*)?\r?\n)
    |(?>(?:{_SPACE}+|\#[^\n]*)*)
    (?:(?P<newline>\r?\n)
      |(?P<open_bracket>\[)|(?P<close_bracket>\])|(?P<open_brace>\{{)|(?P<close_brace>\}})
      |(?P<dot>\.)|(?P<equals>=)|(?P<comma>,)
      |(?P<string>\"\"\"[^"\\]*+(?:(?:\\[\s\S]|"(?!""))[^"\\]*+)*+\"\"\"\"{{0,2}}
                 |'''[\s\S]*?''''{{0,2}}
                 |{_ONE_LINE_STRING})
      |(?P<bare>{_BARE})
      |(?P<other>[\s\S])
      |\Z)
    """,
    re.VERBOSE,
)
_KIND = _TOKEN.groupindex
PAIR, PAIR_KEY, NEWLINE, DOT = _KIND["pair"], _KIND["pair_key"], _KIND["newline"], _KIND["dot"]
STRING, BARE = _KIND["string"], _KIND["bare"]
OPEN_BRACKET, CLOSE_BRACKET, COMMA = _KIND["open_bracket"], _KIND["close_bracket"], _KIND["comma"]
OPEN_BRACE, CLOSE_BRACE = _KIND["open_brace"], _KIND["close_brace"]
#: tokens a pair stands for: its key, `=`, its value and its line end
PAIR_TOKENS = 4
_KEY_PARTS = frozenset({BARE, STRING})
_OPENINGS, _CLOSINGS = frozenset({OPEN_BRACKET, OPEN_BRACE}), frozenset({CLOSE_BRACKET, CLOSE_BRACE})
#: the kind after the last token
END = 0
#: what ends a scalar value (END: the document)
_DELIMITERS = frozenset({NEWLINE, COMMA, CLOSE_BRACKET, CLOSE_BRACE, END})


@dataclass(frozen=True, slots=True)
class TomlFile:
    raw: bytes
    text: str
    data: dict[str, Any]
    #: key path (table names, keys and array indexes) -> (line, column), both 1-based
    positions: dict[Key, tuple[int, int]]

    def line(self, *path: str | int) -> int:
        """The line of the longest prefix of `path` that is located; 1 when none is."""
        for end in range(len(path), 0, -1):
            found = self.positions.get(path[:end])
            if found is not None:
                return found[0]
        return 1


def read_toml(path: Path | Traversable, what: str) -> TomlFile:
    """Read, bound, parse and locate a TOML file; every failure is one InputError line."""
    # a Traversable is a file shipped inside the package
    raw = read_regular(path, what, MAX_TOML_BYTES) if isinstance(path, Path) else path.read_bytes()
    return parse_toml(raw, path, what)


def parse_toml(raw: bytes, path: object, what: str) -> TomlFile:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(path, f"{what} is not valid UTF-8 (byte offset {exc.start})") from None
    if text.startswith("\ufeff"):  # what some editors write first; TOML has no place for it
        raise InputError(path, f"{what} starts with a byte order mark (U+FEFF), which TOML does not allow; "
                               "save it as UTF-8 without one")
    tokens = _checked_tokens(text, path, what)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise InputError(path, f"invalid TOML: {exc}") from None
    try:
        positions = _Locator(text, tokens).run()
    except _Unlocatable:
        raise InputError(
            path, f"{what}: cannot locate its keys in this TOML form; write tables with [headers]"
        ) from None
    return TomlFile(raw=raw, text=text, data=data, positions=positions)


# ---- tokens ----------------------------------------------------------------------------------


class _Tokens(NamedTuple):
    """A file's significant tokens, by index: kind (then END), where it starts and ends (a
    pair's: where its key does)."""

    kinds: bytearray
    starts: array[int]
    ends: array[int]


def _checked_tokens(text: str, path: object, what: str) -> _Tokens:
    """`text`'s significant tokens, read once. Refuses, at the line of the token past the bound,
    brackets nested or keys dotted more than MAX_DEPTH deep (each level costs the recursive
    parser frames and the positions a key path as long) and more than MAX_TOKENS tokens (each
    costs the pure-Python parser time); 9 bytes a token are held, at most 9 MB."""
    offsets = "i" if len(text) < 2**31 else "q"
    kinds, starts, ends = bytearray(), array(offsets), array(offsets)
    count = depth = dots = 0
    for match in _TOKEN.finditer(text):
        kind = match.lastindex
        if kind is None:  # only spaces and comments were left
            break
        if kind == PAIR:
            count += PAIR_TOKENS
            start, end = match.span(PAIR_KEY)
        else:
            count += 1
            start, end = match.span(kind)
        if count > MAX_TOKENS:  # a pair's tokens are on one line
            raise InputError(
                f"{path}:{_line(text, start)}", f"{what} has more than {MAX_TOKENS} keys, values and brackets"
            )
        kinds.append(kind)
        starts.append(start)
        ends.append(end)
        if kind in _KEY_PARTS:
            continue
        dots = dots + 1 if kind == DOT else 0
        if dots > MAX_DEPTH:
            raise InputError(f"{path}:{_line(text, start)}", f"{what} has a key of more than {MAX_DEPTH} dotted parts")
        if kind in _OPENINGS:
            depth += 1
            if depth > MAX_DEPTH:
                raise InputError(f"{path}:{_line(text, start)}", f"{what} nests brackets more than {MAX_DEPTH} deep")
        elif kind in _CLOSINGS and depth:
            depth -= 1
    kinds.append(END)
    return _Tokens(kinds, starts, ends)


def _line(text: str, offset: int) -> int:
    """The line `offset` is on (1-based), for a refusal."""
    return text.count("\n", 0, offset) + 1


# ---- positions -------------------------------------------------------------------------------


class _Unlocatable(Exception):
    """The walk ran out of tokens where a valid document has more."""


class _Locator:
    """Walks a valid document's tokens once, iteratively, recording positions by key path."""

    def __init__(self, text: str, tokens: _Tokens) -> None:
        self.text = text
        self.kinds, self.starts, self.ends = tokens
        #: index of the next token
        self.at = 0
        #: key path -> offset of the first token seen for it
        self.offsets: dict[Key, int] = {}
        #: array-of-tables path -> elements seen so far
        self.arrays: dict[Key, int] = {}

    def peek(self) -> int:
        """The next token's kind; END after the last."""
        return self.kinds[self.at]

    def take(self) -> int:
        at = self.at
        if self.kinds[at] == END:  # tomllib read a document this walk cannot follow
            raise _Unlocatable
        self.at = at + 1
        return at

    def skip(self, count: int = 1) -> None:
        for _ in range(count):
            self.take()

    def skip_newlines(self) -> None:
        while self.peek() == NEWLINE:
            self.at += 1

    def mark(self, path: Key, token: int) -> None:
        """The first token seen for `path` is where it is."""
        self.offsets.setdefault(path, self.starts[token])

    def key_text(self, token: int) -> str:
        """A key segment's name: bare, or a quoted string read the way tomllib reads it."""
        written = self.text[self.starts[token]:self.ends[token]]
        if self.kinds[token] == STRING:
            return str(tomllib.loads(f"k = {written}")["k"])
        return written

    def dotted_key(self) -> list[tuple[str, int]]:
        parts = [self.take()]
        while self.peek() == DOT:
            self.take()
            parts.append(self.take())
        return [(self.key_text(token), token) for token in parts]

    def resolve(self, segments: list[tuple[str, int]]) -> Key:
        """A header's path: a segment naming an array of tables means its latest element."""
        path: Key = ()
        for name, token in segments:
            path = (*path, name)
            self.mark(path, token)
            if path in self.arrays:
                path = (*path, self.arrays[path] - 1)
        return path

    def run(self) -> dict[Key, tuple[int, int]]:
        table: Key = ()
        while True:
            kind = self.peek()
            if kind == NEWLINE:
                self.at += 1
            elif kind == PAIR:  # a bare key, `=`, a one-token value and the line end
                pair = self.at
                self.mark((*table, self.text[self.starts[pair]:self.ends[pair]]), pair)
                self.at = pair + 1
            elif kind == OPEN_BRACKET:
                table = self.header()
            elif kind == END:
                return _lines_and_columns(self.text, self.offsets)
            else:
                self.key_value(table)

    def header(self) -> Key:
        opening = self.take()
        # `[[` is an array of tables only when written without a space between
        is_array = self.peek() == OPEN_BRACKET and self.starts[self.at] == self.starts[opening] + 1
        if is_array:
            self.take()
        segments = self.dotted_key()
        self.skip(2 if is_array else 1)  # the closing bracket(s)
        if not is_array:
            path = self.resolve(segments)
            self.mark(path, opening)
            return path
        parent = self.resolve(segments[:-1])
        array = (*parent, segments[-1][0])
        self.mark(array, opening)
        index = self.arrays.get(array, 0)
        self.arrays[array] = index + 1
        self.mark((*array, index), opening)
        return (*array, index)

    def key_value(self, table: Key) -> None:
        path = table
        for name, token in self.dotted_key():
            path = (*path, name)
            self.mark(path, token)
        self.take()  # =
        self.value(path)

    def value(self, path: Key) -> None:
        """One value at `path`; arrays and inline tables through an explicit stack."""
        #: (path, index of the next element, or -1 for an inline table)
        stack: list[tuple[Key, int]] = []
        pending: Key | None = path
        while True:
            if pending is not None:
                kind = self.peek()
                if kind in _OPENINGS:
                    self.take()
                    stack.append((pending, 0 if kind == OPEN_BRACKET else -1))
                else:
                    self.scalar()
                pending = None
            if not stack:
                return
            container, index = stack[-1]
            if index >= 0:
                self.skip_newlines()
                if self.peek() == COMMA:
                    self.take()
                    self.skip_newlines()
                kind = self.peek()
                if kind == END:
                    return
                if kind == CLOSE_BRACKET:
                    self.take()
                    stack.pop()
                    continue
                if kind == OPEN_BRACE:  # tables are located; scalars need not be
                    self.mark((*container, index), self.at)
                stack[-1] = (container, index + 1)
                pending = (*container, index)
            else:
                if self.peek() == COMMA:
                    self.take()
                kind = self.peek()
                if kind == END:
                    return
                if kind == CLOSE_BRACE:
                    self.take()
                    stack.pop()
                    continue
                key = container
                for name, part in self.dotted_key():
                    key = (*key, name)
                    self.mark(key, part)
                self.take()  # =
                pending = key

    def scalar(self) -> None:
        """A string, number, boolean or date: every token up to the next delimiter."""
        while self.peek() not in _DELIMITERS:
            self.at += 1


def _lines_and_columns(text: str, offsets: dict[Key, int]) -> dict[Key, tuple[int, int]]:
    """Each path's line and column, counting line ends once through the text, in order."""
    found: dict[int, tuple[int, int]] = {}
    line, line_start, counted = 1, 0, 0
    for offset in sorted(set(offsets.values())):
        if lines := text.count("\n", counted, offset):
            line += lines
            line_start = text.rfind("\n", counted, offset) + 1
        counted = offset
        found[offset] = (line, offset - line_start + 1)
    return {path: found[offset] for path, offset in offsets.items()}
