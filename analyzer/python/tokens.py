"""Alpha-normalized token streams of Python source, for fingerprints and comparison keys: fp1 for
Python (docs/fingerprints.md, "Python": what is dropped, what is kept verbatim and what renaming
leaves a digest unchanged). The JavaScript normalizer is `analyzer.javascript.normalize`."""

from __future__ import annotations

import keyword
import re
from bisect import bisect_left
from collections.abc import Callable
from dataclasses import dataclass

from analyzer import identity

#: one match per significant token, with the spaces, comments and continuations before it (a
#: match without a group is what trails the last token)
SIGNIFICANT = re.compile(
    r"""
    (?:[ \t\f]+|\#[^\r\n]*|\\\r?\n)*
    (?:(?P<string>(?:[rRbBuUfF]{1,2})?(?:'''(?:[^'\\]|\\.|'(?!''))*(?:'''|\Z)|\"\"\"(?:[^"\\]|\\.|"(?!""))*(?:\"\"\"|\Z)
                |'(?:[^'\\\r\n]|\\.)*'?|"(?:[^"\\\r\n]|\\.)*"?))
    |(?P<name>[^\W\d]\w*)
    |(?P<number>\.?\d(?:[\w.]|(?<=[eE])[+-])*)
    |(?P<newline>\r\n|\n|\r)
    |(?P<op>\*\*=?|//=?|>>=?|<<=?|->|:=|[-+*/%&|^@=!<>]=|\.\.\.|.)
    |\Z)
    """,
    re.DOTALL | re.VERBOSE,
)
#: the same, the skipped text a group of its own (the first), for `findall`
_TUPLES = re.compile(
    r"((?:[ \t\f]+|\#[^\r\n]*|\\\r?\n)*)" + SIGNIFICANT.pattern.split("\n", 2)[2], re.DOTALL | re.VERBOSE
)
_KEYWORDS = frozenset(keyword.kwlist)
_OPEN, _CLOSE = frozenset("([{"), frozenset(")]}")
_FIELD_NAME = re.compile(r"(?<![\w.])[^\W\d]\w*")
_PERSON = b"erratlas-py-fp1"


def digest(kind: str, normalized: bytes) -> bytes:
    """The digest of a piece: its libcst node class name, a NUL byte, its normalized code."""
    return identity.digest(_PERSON, kind.encode(), b"\x00", normalized)


class Tokens:
    """The significant tokens of one text (a whole unit: tokenized once, then every piece of
    it is normalized from its tokens), as parallel lists."""

    __slots__ = ("encoding", "kinds", "starts", "text", "values")

    def __init__(self, text: str, encoding: str = "utf-8") -> None:
        #: the unit's text, and the encoding it was decoded from
        self.text, self.encoding = text, encoding
        kinds: list[str] = []
        values: list[str] = []
        starts: list[int] = []
        position = 0
        # findall gives plain tuples (no match objects): positions are summed from the lengths
        for skipped, string, name, number, newline, op in _TUPLES.findall(text):
            position += len(skipped)
            if name:
                kind, value = "name", name
            elif op:
                kind, value = "op", op
            elif newline:
                kind, value = "newline", newline
            elif string:
                kind, value = "string", string
            elif number:
                kind, value = "number", number
            else:
                continue  # trailing whitespace or comments
            kinds.append(kind)
            values.append(value)
            starts.append(position)
            position += len(value)
        self.kinds, self.values, self.starts = kinds, values, starts

    def end(self, index: int) -> int:
        """Where token `index` ends."""
        return self.starts[index] + len(self.values[index])

    def normalized(self, start: int, end: int, base: int = 0) -> bytes:
        """`normalized_code(text[start:end], base)`, from these tokens when the piece starts
        and ends on token boundaries (node spans do), else by tokenizing the piece."""
        starts = self.starts
        first = bisect_left(starts, start)
        last = bisect_left(starts, end)
        starts_on_token = start == 0 or (first < len(starts) and starts[first] == start)
        tail = self.end(last - 1) if last > first else start
        if not starts_on_token or tail > end or "\\" in self.text[tail:end]:
            return normalized_code(self.text[start:end], base)
        return _normalize(self, first, last, base)


@dataclass(frozen=True, slots=True)
class Line:
    """A logical line: tokens `[first, last)` (its newline excluded) and its indentation."""

    first: int
    last: int
    indent: int
    #: its indentation is made of spaces only
    plain: bool


def logical_lines(stream: Tokens) -> list[Line]:
    """The unit's logical lines (a newline inside brackets does not end one)."""
    kinds, values, starts, text = stream.kinds, stream.values, stream.starts, stream.text
    lines: list[Line] = []
    depth, first = 0, 0
    for index, kind in enumerate(kinds):
        if kind == "newline":
            if depth == 0:
                if index > first:
                    lines.append(_line(text, starts, first, index))
                first = index + 1
        elif kind == "op":
            value = values[index]
            depth += value in _OPEN
            depth -= value in _CLOSE and depth > 0
    if len(kinds) > first:
        lines.append(_line(text, starts, first, len(kinds)))
    return lines


def _line(text: str, starts: list[int], first: int, last: int) -> Line:
    at = starts[first]
    begin = max(text.rfind("\n", 0, at), text.rfind("\r", 0, at)) + 1
    prefix = text[begin:at]
    plain = prefix.strip(" ") == ""
    return Line(first, last, len(prefix.expandtabs(8)) if not prefix.strip() else -1, plain)


def normalized_code(text: str, base: int = 0) -> bytes:
    """The anchor-normal form of `text` (a function, statement or expression) whose first
    line starts at column `base` of its unit."""
    tokens = Tokens(text)
    return _normalize(tokens, 0, len(tokens.kinds), base)


def _normalize(tokens: Tokens, first: int, last: int, base: int) -> bytes:
    """One pass: names renamed by first occurrence unless kept (after `.`, or `name=` right
    after `(` or `,` inside a call's parentheses), a line break and its relative indentation
    before each logical line, f-string fields renamed, everything else verbatim."""
    kinds, values, starts, text = tokens.kinds, tokens.values, tokens.starts, tokens.text
    out: list[str] = []
    append = out.append
    renamed: dict[str, str] = {}
    brackets: list[bool] = []  # per open bracket: is it a call's (or class bases') parenthesis
    depth = 0
    line_start = True
    previous = ""  # the previous token: "name" for a name that is not a keyword, else its text
    before, behind = "", ""  # the texts of the two tokens before this one
    for position in range(first, last):
        kind = kinds[position]
        value = values[position]
        if kind == "newline":
            line_start = depth == 0
        else:
            if line_start and out:
                append(f"\n{_indentation(text, starts[position]) - base}")
            line_start = False
            if kind == "name":
                if value in _KEYWORDS:
                    append(value)
                elif behind == "." or (
                    brackets and brackets[-1] and behind in ("(", ",")
                    and position + 1 < last and values[position + 1] == "="
                ):
                    append(value)  # an attribute or a keyword argument's name
                else:
                    rename = renamed.get(value)
                    if rename is None:
                        rename = renamed[value] = f"\x00{len(renamed)}"
                    append(rename)
            elif kind == "string" and _is_fstring(value):
                append(_fstring(value, lambda name: _rename(renamed, name)))
            else:
                if kind == "op":
                    if value in _OPEN:
                        depth += 1
                        brackets.append(value == "(" and (previous == "name" or previous in (")", "]"))
                                        and not (before == "def" and kinds[position - 1] == "name"))
                    elif value in _CLOSE:
                        depth -= depth > 0
                        if brackets:
                            brackets.pop()
                append(value)
        previous = "name" if kind == "name" and value not in _KEYWORDS else value
        before, behind = behind, value
    return "\x01".join(out).encode("utf-8", "surrogatepass")


def _rename(renamed: dict[str, str], name: str) -> str:
    rename = renamed.get(name)
    if rename is None:
        rename = renamed[name] = f"\x00{len(renamed)}"
    return rename


def _indentation(text: str, at: int) -> int:
    start = max(text.rfind("\n", 0, at), text.rfind("\r", 0, at)) + 1
    return len(text[start:at].expandtabs(8)) if text[start:at].strip() == "" else 0


def _is_fstring(token: str) -> bool:
    prefix = token[: len(token) - len(token.lstrip("rRbBuUfF"))]
    return "f" in prefix.lower()


def _fstring(token: str, rename: Callable[[str], str]) -> str:
    """The f-string with the names of its replacement fields' expressions renamed (conversion
    `!r` and format specs kept; nested fields in a spec are expressions too)."""
    body_start = len(token) - len(token.lstrip("rRbBuUfF"))
    out, at, depth, field_start = [token[:body_start]], body_start, 0, -1
    i = body_start
    while i < len(token):
        ch = token[i]
        if ch == "{":
            if depth == 0 and token.startswith("{{", i):
                i += 2
                continue
            if depth == 0:
                out.append(token[at:i + 1])
                at, field_start = i + 1, i + 1
            depth += 1
        elif ch == "}" and depth:
            depth -= 1
            if depth == 0:
                out.append(_rename_field(token[field_start:i], rename))
                at = i
        i += 1
    out.append(token[at:])
    return "".join(out)


def _rename_field(field: str, rename: Callable[[str], str]) -> str:
    def one(match: re.Match[str]) -> str:
        name = match.group()
        return name if name in _KEYWORDS else rename(name)

    expression, tail = _split_field(field)
    return _FIELD_NAME.sub(one, expression) + tail


def _split_field(field: str) -> tuple[str, str]:
    """(expression, `!conversion:spec` tail) of a replacement field, at bracket depth 0."""
    depth, quote = 0, ""
    for i, ch in enumerate(field):
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif depth == 0 and (ch == ":" or (ch == "!" and field[i + 1:i + 2] != "=")):
            return field[:i], field[i:]
    return field, ""


def expression_key(text: str) -> str:
    """An expression's source with every renameable name as `_` (attributes, keyword-argument
    names and literals stay), comments dropped and whitespace runs collapsed."""
    tokens = Tokens(text)
    kept = _kept_names(tokens)
    pieces: list[str] = []
    for position, (kind, value) in enumerate(zip(tokens.kinds, tokens.values)):
        if kind == "name" and value not in _KEYWORDS and position not in kept:
            pieces.append("_")
        elif kind == "newline":
            continue
        else:
            pieces.append(value)
    return _join(pieces)


def _kept_names(tokens: Tokens) -> set[int]:
    """Positions of names that are not renameable: attributes and keyword-argument names
    (the rules of `_normalize`)."""
    kinds, values = tokens.kinds, tokens.values
    kept: set[int] = set()
    brackets: list[bool] = []
    previous = ""
    for index, (kind, value) in enumerate(zip(kinds, values)):
        if kind == "op":
            if value in _OPEN:
                after_def = index >= 2 and values[index - 2] == "def" and kinds[index - 1] == "name"
                brackets.append(value == "(" and (previous == "name" or previous in (")", "]")) and not after_def)
            elif value in _CLOSE and brackets:
                brackets.pop()
        elif kind == "name" and index > 0 and (
            values[index - 1] == "."
            or (brackets and brackets[-1] and index + 1 < len(values) and values[index + 1] == "="
                and values[index - 1] in ("(", ","))
        ):
            kept.add(index)
        previous = "name" if kind == "name" and value not in _KEYWORDS else value
    return kept


_TIGHT_BEFORE = frozenset({".", "(", "[", ")", "]", ",", ":"})
_TIGHT_AFTER = frozenset({".", "(", "[", "~"})


def _join(pieces: list[str]) -> str:
    """Tokens separated by one space, except around brackets, dots, commas and colons."""
    out: list[str] = []
    for piece in pieces:
        if out and piece not in _TIGHT_BEFORE and out[-1] not in _TIGHT_AFTER:
            out.append(" ")
        out.append(piece)
    return "".join(out)
