"""The located TOML reader as erratlas 73a828f wrote it (analyzer/tomlfile.py before one
tokenizing pass replaced its two), kept verbatim below this line as the oracle for
`tests/test_tomlfile.py`: the faster reader must give the same positions and the same errors
for every text."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

from analyzer.bounded import MAX_TOML_BYTES, read_regular
from analyzer.errors import InputError

#: brackets and braces open at once, and parts of one dotted key; an allowlist needs 3
MAX_DEPTH = 32
#: keys, values, brackets and line ends (an allowlist entry has about 40)
MAX_TOKENS = 1_000_000

Key = tuple[str | int, ...]
_TOKEN = re.compile(
    r"""
    (?P<space>[ \t]+)
    |(?P<newline>\r?\n)
    |(?P<comment>\#[^\n]*)
    |(?P<string>\"\"\"(?:[^"\\]|\\[\s\S]|"(?!""))*\"\"\"\"{0,2}
               |'''[\s\S]*?''''{0,2}
               |"(?:[^"\\\n]|\\.)*"
               |'[^'\n]*')
    |(?P<punct>[\[\]{}=,.])
    |(?P<bare>[^ \t\r\n\#"'\[\]{}=,.]+)
    |(?P<other>[\s\S])
    """,
    re.VERBOSE,
)


@dataclass(frozen=True, slots=True)
class Token:
    kind: str
    text: str
    offset: int
    line: int
    column: int


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
    _check_depth(tokenize(text), path, what)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise InputError(path, f"invalid TOML: {exc}") from None
    try:
        positions = locate(tokenize(text))
    except _Unlocatable:
        raise InputError(
            path, f"{what}: cannot locate its keys in this TOML form; write tables with [headers]"
        ) from None
    return TomlFile(raw=raw, text=text, data=data, positions=positions)


def tokenize(text: str) -> Iterator[Token]:
    """The significant tokens of `text` (no spaces, no comments), each with its position; made
    as they are read, so that a file of millions of tokens is never held as tokens."""
    line, line_start = 1, 0
    for match in _TOKEN.finditer(text):
        kind = match.lastgroup or "other"
        start, value = match.start(), match.group()
        if kind not in ("space", "comment"):
            yield Token(kind, value, start, line, start - line_start + 1)
        breaks = value.count("\n")
        if breaks:
            line += breaks
            line_start = start + value.rindex("\n") + 1


def _check_depth(tokens: Iterable[Token], path: object, what: str) -> None:
    """Refuse brackets nested, or keys dotted, more than MAX_DEPTH deep (each level costs the
    recursive parser frames and the positions a key path as long), and more than MAX_TOKENS
    tokens (each costs the pure-Python parser time)."""
    depth = dots = 0
    for count, token in enumerate(tokens, start=1):
        if count > MAX_TOKENS:
            raise InputError(f"{path}:{token.line}", f"{what} has more than {MAX_TOKENS} keys, values and brackets")
        if token.kind in ("bare", "string"):
            continue
        dots = dots + 1 if token.text == "." else 0
        if dots > MAX_DEPTH:
            raise InputError(f"{path}:{token.line}", f"{what} has a key of more than {MAX_DEPTH} dotted parts")
        if token.kind != "punct":
            continue
        if token.text in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                raise InputError(f"{path}:{token.line}", f"{what} nests brackets more than {MAX_DEPTH} deep")
        elif token.text in "]}":
            depth = max(0, depth - 1)


# ---- positions -------------------------------------------------------------------------------


def _key_text(token: Token) -> str:
    """A key segment's name: bare, or a quoted string read the way tomllib reads it."""
    if token.kind == "string":
        return str(tomllib.loads(f"k = {token.text}")["k"])
    return token.text


class _Unlocatable(Exception):
    """The walk ran out of tokens where a valid document has more."""


class _Locator:
    """Walks a valid document's tokens once, iteratively, recording positions by key path."""

    def __init__(self, tokens: Iterator[Token]) -> None:
        self.tokens = tokens
        self.next: Token | None = next(tokens, None)
        self.positions: dict[Key, tuple[int, int]] = {}
        #: array-of-tables path -> elements seen so far
        self.arrays: dict[Key, int] = {}

    def peek(self) -> Token | None:
        return self.next

    def take(self) -> Token:
        token = self.next
        if token is None:  # tomllib read a document this walk cannot follow
            raise _Unlocatable
        self.next = next(self.tokens, None)
        return token

    def skip(self, count: int = 1) -> None:
        for _ in range(count):
            self.take()

    def skip_newlines(self) -> None:
        while (token := self.peek()) is not None and token.kind == "newline":
            self.take()

    def mark(self, path: Key, token: Token) -> None:
        self.positions.setdefault(path, (token.line, token.column))

    def dotted_key(self) -> list[tuple[str, Token]]:
        parts = [self.take()]
        while (token := self.peek()) is not None and token.text == "." and token.kind == "punct":
            self.take()
            parts.append(self.take())
        return [(_key_text(t), t) for t in parts]

    def resolve(self, segments: list[tuple[str, Token]]) -> Key:
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
            self.skip_newlines()
            token = self.peek()
            if token is None:
                return self.positions
            if token.kind == "punct" and token.text == "[":
                table = self.header()
            else:
                self.key_value(table)

    def header(self) -> Key:
        opening = self.take()
        following = self.peek()
        is_array = following is not None and following.text == "[" and following.offset == opening.offset + 1
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
                token = self.peek()
                if token is not None and token.kind == "punct" and token.text in "[{":
                    self.take()
                    stack.append((pending, 0 if token.text == "[" else -1))
                else:
                    self.scalar()
                pending = None
            if not stack:
                return
            container, index = stack[-1]
            if index >= 0:
                self.skip_newlines()
                token = self.peek()
                if token is None:
                    return
                if token.text == ",":
                    self.take()
                    self.skip_newlines()
                    token = self.peek()
                if token is None:
                    return
                if token.text == "]":
                    self.take()
                    stack.pop()
                    continue
                if token.text == "{":  # tables are located; scalars need not be
                    self.mark((*container, index), token)
                stack[-1] = (container, index + 1)
                pending = (*container, index)
            else:
                token = self.peek()
                if token is not None and token.text == ",":
                    self.take()
                    token = self.peek()
                if token is None:
                    return
                if token.text == "}":
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
        while (token := self.peek()) is not None:
            if token.kind == "newline" or (token.kind == "punct" and token.text in ",]}"):
                return
            self.take()


def locate(tokens: Iterator[Token]) -> dict[Key, tuple[int, int]]:
    """Positions of every key path of a document tomllib has accepted."""
    return _Locator(tokens).run()
