"""The Python fp1 normalizer as erratlas bfb6b60 wrote it (analyzer/python/tokens.py before issue
14), kept verbatim as the oracle for `tests/test_python_tokens.py`: the faster normalizer must
give the same bytes for every piece of every file."""
from __future__ import annotations

import hashlib
import keyword
import re
from collections.abc import Callable

_TOKEN = re.compile(
    r"""
     (?P<comment>\#[^\r\n]*)
    |(?P<string>(?:[rRbBuUfF]{1,2})?(?:'''(?:[^'\\]|\\.|'(?!''))*(?:'''|\Z)|\"\"\"(?:[^"\\]|\\.|"(?!""))*(?:\"\"\"|\Z)
                |'(?:[^'\\\r\n]|\\.)*'?|"(?:[^"\\\r\n]|\\.)*"?))
    |(?P<name>[^\W\d]\w*)
    |(?P<number>\.?\d(?:[\w.]|(?<=[eE])[+-])*)
    |(?P<newline>\r\n|\n|\r)
    |(?P<continuation>\\\r?\n)
    |(?P<space>[ \t\f]+)
    |(?P<op>\*\*=?|//=?|>>=?|<<=?|->|:=|[-+*/%&|^@=!<>]=|\.\.\.|.)
    """,
    re.DOTALL | re.VERBOSE,
)
_KEYWORDS = frozenset(keyword.kwlist)
_OPEN, _CLOSE = frozenset("([{"), frozenset(")]}")
_FIELD_NAME = re.compile(r"(?<![\w.])[^\W\d]\w*")
_PERSON = b"erratlas-py-fp1"


def digest(kind: str, normalized: bytes) -> bytes:
    h = hashlib.blake2b(digest_size=16, person=_PERSON)
    h.update(kind.encode())
    h.update(b"\x00")
    h.update(normalized)
    return h.digest()


def _tokens(text: str) -> list[tuple[str, str, int]]:
    """(kind, text, start) of every token but comments, whitespace and continuations."""
    return [
        (m.lastgroup, m.group(), m.start())  # type: ignore[misc]
        for m in _TOKEN.finditer(text)
        if m.lastgroup not in ("comment", "space", "continuation")
    ]


def _kept_names(tokens: list[tuple[str, str, int]]) -> set[int]:
    """Positions of names that are not renameable: attributes and keyword-argument names."""
    kept: set[int] = set()
    brackets: list[bool] = []  # per open bracket: is it a call's (or class bases') parenthesis
    previous = ""
    for index, (kind, value, _) in enumerate(tokens):
        if kind == "op":
            if value in _OPEN:
                is_call = (
                    value == "(" and (previous == "name" or previous in (")", "]")) and not _after_def(tokens, index)
                )
                brackets.append(is_call)
            elif value in _CLOSE and brackets:
                brackets.pop()
        elif kind == "name" and (_is_attribute(tokens, index) or _is_keyword_argument(tokens, index, brackets)):
            kept.add(index)
        previous = kind if kind == "name" and value not in _KEYWORDS else value
    return kept


def _is_attribute(tokens: list[tuple[str, str, int]], index: int) -> bool:
    return index > 0 and tokens[index - 1][0] == "op" and tokens[index - 1][1] == "."


def _is_keyword_argument(tokens: list[tuple[str, str, int]], index: int, brackets: list[bool]) -> bool:
    """`name=` right after `(` or `,` inside a call's parentheses."""
    return (
        bool(brackets) and brackets[-1] and index + 1 < len(tokens)
        and tokens[index + 1][1] == "=" and tokens[index - 1][1] in ("(", ",")
    )


def _after_def(tokens: list[tuple[str, str, int]], index: int) -> bool:
    return index >= 2 and tokens[index - 2][1] == "def" and tokens[index - 1][0] == "name"


def _indentation(text: str, at: int) -> int:
    start = max(text.rfind("\n", 0, at), text.rfind("\r", 0, at)) + 1
    return len(text[start:at].expandtabs(8)) if text[start:at].strip() == "" else 0


def normalized_code(text: str, base: int = 0) -> bytes:
    """The anchor-normal form of `text` (a function, statement or expression) whose first
    line starts at column `base` of its unit."""
    tokens = _tokens(text)
    kept = _kept_names(tokens)
    index: dict[str, int] = {}
    out: list[str] = []
    depth = 0
    line_start = True
    for position, (kind, value, start) in enumerate(tokens):
        if kind == "newline":
            line_start = depth == 0
            continue
        if line_start and out:
            out.append(f"\n{_indentation(text, start) - base}")
        line_start = False
        if kind == "name" and value not in _KEYWORDS and position not in kept:
            out.append(f"\x00{index.setdefault(value, len(index))}")
        elif kind == "string" and _is_fstring(value):
            out.append(_fstring(value, lambda name: f"\x00{index.setdefault(name, len(index))}"))
        else:
            if kind == "op":
                depth += value in _OPEN
                depth -= value in _CLOSE and depth > 0
            out.append(value)
    return "\x01".join(out).encode("utf-8", "surrogatepass")


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
    tokens = _tokens(text)
    kept = _kept_names(tokens)
    pieces: list[str] = []
    for position, (kind, value, _) in enumerate(tokens):
        if kind == "name" and value not in _KEYWORDS and position not in kept:
            pieces.append("_")
        elif kind == "newline":
            continue
        else:
            pieces.append(value)
    return _join(pieces)


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
