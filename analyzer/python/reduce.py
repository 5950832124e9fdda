"""Parse only what can hold a callsite: code that cannot change any output is replaced, before
libcst parses the unit, by a string literal of the same length (offsets, lines and columns
kept). What is replaced, and why it is safe: docs/performance.md, "What a Python scan does not
parse"."""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass

from analyzer.python.tokens import Line, Tokens

#: a string literal needs its two triple quotes
_SHORTEST = 6
_COMPOUND = frozenset({
    "if", "elif", "else", "for", "while", "try", "except", "finally", "with", "def", "class", "async", "match",
    "case", "import", "from", "global", "nonlocal", "del", "assert", "raise", "pass", "break", "continue", "type",
    "yield", "await", "lambda", "print", "exec",
})
_BINDING = frozenset({"class", "global", "nonlocal"})
#: modules whose dotted callees are counted as shadowed when they resolve elsewhere
_SHADOW_ROOTS = frozenset({"logging", "warnings"})
_UNSAFE_IN_VALUES = frozenset({"yield", "lambda", "for", "async", "await", ":=", ";"})
_AUGMENTED = frozenset({"+=", "-=", "*=", "/=", "//=", "%=", "@=", "**=", "<<=", ">>=", "&=", "|=", "^=", "="})
#: words that, inside an f-string's fields, bind or raise: such an f-string is not replaced
_IN_FSTRINGS = frozenset({"lambda", "for", "class", "global", "nonlocal", "raise", "yield"})
_WORD = re.compile(r"[^\W\d]\w*")
_OPEN, _CLOSE = frozenset("([{"), frozenset(")]}")


@dataclass(frozen=True, slots=True)
class Hits:
    """What code must not be replaced for: `names` (a call or `raise` of one, a use in a value),
    and the calls that may lead to a function that raises (`analyzer.python.vocabulary`): of
    `functions` (`f(...)`, `m.f(...)`) and `methods` (`self.m(...)`) anywhere, and in a `try`
    block also of `calling_functions` and `calling_methods` (functions that call them)."""

    names: frozenset[str]
    functions: frozenset[str] = frozenset()
    methods: frozenset[str] = frozenset()
    calling_functions: frozenset[str] = frozenset()
    calling_methods: frozenset[str] = frozenset()

    @property
    def words(self) -> frozenset[str]:
        return self.names | self.functions | self.methods | self.calling_functions | self.calling_methods

    def in_try(self) -> Hits:
        """In a `try` block: the calls of functions that call one that raises too."""
        return Hits(self.names, self.functions | self.calling_functions, self.methods | self.calling_methods)


@dataclass(slots=True)
class Reduction:
    stream: Tokens
    #: replaced character ranges, in order
    regions: list[tuple[int, int]]

    def text(self) -> str:
        """The unit with every region replaced by a string literal of the same length."""
        text = self.stream.text
        parts, at = [], 0
        for start, end in self.regions:
            parts += [text[at:start], '"""', _blank(text[start + 3:end - 3]), '"""']
            at = end
        parts.append(text[at:])
        return "".join(parts)


def reduce(stream: Tokens, lines: list[Line], hits: Hits) -> Reduction | None:
    """What to replace in the unit (of logical `lines`); None when nothing can be (or on Python
    3.12 and later, whose f-strings the tokenizer here does not split: such a unit is parsed
    whole)."""
    if sys.version_info >= (3, 12) and any(
        _is_fstring(v) for k, v in zip(stream.kinds, stream.values) if k == "string"
    ):
        return None
    reduction = Reduction(stream, [])
    trying, looping = _in_try_blocks(stream, lines)
    in_try = hits.in_try()
    at = 0
    while at < len(lines):
        at = _reduce_line(reduction, lines, at, in_try if trying[at] else hits, in_try, looping[at])
    return reduction if reduction.regions else None


def _in_try_blocks(stream: Tokens, lines: list[Line]) -> tuple[list[bool], list[bool]]:
    """For each logical line, whether it is in the block of a `try:`, and whether it is in the body
    of a `for` or `while` that holds a `try` (whether the loop retries it reads that body's values)."""
    values = stream.values
    trying = [False] * len(lines)
    looping = [False] * len(lines)
    for at, line in enumerate(lines):
        head = values[line.first + 1] if values[line.first] == "async" and line.last - line.first > 1 \
            else values[line.first]
        if values[line.last - 1] != ":" or head not in ("try", "for", "while"):
            continue
        end = _body_end(lines, at)
        if head != "try" and not any(values[lines[inside].first] == "try" for inside in range(at + 1, end)):
            continue
        for inside in range(at + 1, end):
            (trying if head == "try" else looping)[inside] = True
    return trying, looping


def _reduce_line(reduction: Reduction, lines: list[Line], at: int, hits: Hits, in_try: Hits,
                 looping: bool = False) -> int:
    """Reduce `lines[at]` (a whole body after a `def` line); the index of the next line to look at.
    `hits` for the line, `in_try` for a body that holds a `try`; `looping`: the line is in the
    body of a loop that holds a `try`, whose values are kept."""
    stream, line = reduction.stream, lines[at]
    values = stream.values
    head = values[line.first]
    is_def = head == "def" or (head == "async" and line.last - line.first > 1 and values[line.first + 1] == "def")
    if is_def:
        body_end = _body_end(lines, at)
        if body_end > at + 1 and _blankable_body(reduction, lines, at, body_end, hits, in_try):
            return body_end
        return at + 1
    if head == "except" and values[line.last - 1] == ":":
        return _body_end(lines, at)  # a handler's body says what it does with what it catches
    if not looping:
        _reduce_value(reduction, line, hits)
    return at + 1


def _blankable_body(reduction: Reduction, lines: list[Line], at: int, body_end: int, hits: Hits,
                    in_try: Hits) -> bool:
    stream, header = reduction.stream, lines[at]
    values = stream.values
    name_at = header.first + (2 if values[header.first] == "async" else 1)
    if name_at + 1 >= header.last or values[header.last - 1] != ":":
        return False  # not a block on the lines below
    if values[name_at] == "__init__" or values[name_at + 1] == "[":
        return False  # `__init__` sets the class's fields; `def f[T]` has type parameters
    if not all(line.plain for line in lines[at:body_end + 1]):
        return False  # indentation with tabs or form feeds: not read here
    first, last = lines[at + 1].first, lines[body_end - 1].last
    start, end = stream.starts[first], stream.end(last - 1)
    if "try" in values[first:last]:
        hits = in_try
    if end - start < _SHORTEST or _holds_hit(stream, first, last, hits):
        return False
    reduction.regions.append((start, end))
    return True


def _reduce_value(reduction: Reduction, line: Line, hits: Hits) -> None:
    stream = reduction.stream
    kinds, values = stream.kinds, stream.values
    head = values[line.first]
    if kinds[line.first] == "name" and head in _COMPOUND and head != "return":
        return
    if head == "@" or values[line.last - 1] == ":":
        return
    first = _value_start(stream, line)
    if first is None or first >= line.last or _is_dotted(stream, first, line.last):
        return
    for index in range(line.first, line.last):
        value = values[index]
        if value in _UNSAFE_IN_VALUES or (kinds[index] == "name" and (
                value in hits.names or value in _SHADOW_ROOTS or _reaching(stream, index, line.last, hits))):
            return
        if (
            kinds[index] == "string"
            and _is_fstring(value)
            and _words_meet(value, hits.words | _UNSAFE_IN_VALUES | _SHADOW_ROOTS)
        ):
            return
    start, end = stream.starts[first], stream.end(line.last - 1)
    if end - start >= _SHORTEST and not (line.last - first == 1 and kinds[first] == "string"):
        reduction.regions.append((start, end))


def _value_start(stream: Tokens, line: Line) -> int | None:
    """The first token of the value: after `return`, after the last `=` (or augmented `op=`)
    outside brackets, else the whole line (an expression statement)."""
    values = stream.values
    if values[line.first] == "return":
        return line.first + 1
    depth, start = 0, line.first
    for index in range(line.first, line.last):
        value = values[index]
        if value in _OPEN:
            depth += 1
        elif value in _CLOSE:
            depth -= 1
        elif depth == 0 and value in _AUGMENTED and stream.kinds[index] == "op":
            start = index + 1
    return start


def _is_dotted(stream: Tokens, first: int, last: int) -> bool:
    """Only names, dots and parentheses: an alias (`X = errors.Y`) the hierarchy may follow."""
    return all(
        (k == "name") or v in (".", "(", ")") for k, v in zip(stream.kinds[first:last], stream.values[first:last])
    )


def _holds_hit(stream: Tokens, first: int, last: int, hits: Hits) -> bool:
    """A call of a hit, a `raise` of one, a binding keyword, an `except` clause, a type parameter,
    or a hit in an f-string, within tokens `[first, last)`."""
    kinds, values = stream.kinds, stream.values
    raising, depth = False, 0
    for index in range(first, last):
        kind, value = kinds[index], values[index]
        if kind == "newline":
            raising = raising and depth > 0  # a `raise` ends with its logical line
            continue
        if kind == "op":
            depth += value in _OPEN
            depth -= value in _CLOSE and depth > 0
        elif kind == "name":
            if value == "raise":
                raising = True
            elif _name_hits(stream, index, last, hits, raising):
                return True
        elif kind == "string" and _is_fstring(value) and _words_meet(value, hits.words | _IN_FSTRINGS | _SHADOW_ROOTS):
            return True
    return False


def _name_hits(stream: Tokens, index: int, last: int, hits: Hits, raising: bool) -> bool:
    values = stream.values
    value = values[index]
    if value in _BINDING or value == "except" or (value == "type" and _is_type_statement(stream, index, last)):
        return True
    if value == "def":
        return index + 2 < last and values[index + 2] == "["  # a type parameter
    if value in _SHADOW_ROOTS and index + 1 < last and values[index + 1] == ".":
        return True
    return (value in hits.names and (raising or _called(stream, index, last))) or _reaching(stream, index, last, hits)


def _reaching(stream: Tokens, index: int, last: int, hits: Hits) -> bool:
    """A call that may reach a function that raises (`Hits`)."""
    values = stream.values
    value = values[index]
    if value in hits.functions:
        return _called(stream, index, last)
    return value in hits.methods and index >= 2 and values[index - 1] == "." and values[index - 2] == "self" and \
        _called(stream, index, last)


def _called(stream: Tokens, index: int, last: int) -> bool:
    """The name is followed (past line breaks and closing parentheses) by an opening one."""
    values, kinds = stream.values, stream.kinds
    index += 1
    while index < last and (kinds[index] == "newline" or values[index] == ")"):
        index += 1
    return index < last and values[index] == "("


def _is_type_statement(stream: Tokens, index: int, last: int) -> bool:
    """`type X = ...` or `type X[T] = ...` (PEP 695), at the start of a logical line."""
    kinds, values = stream.kinds, stream.values
    starts_line = index == 0 or kinds[index - 1] == "newline"
    return starts_line and index + 2 < last and kinds[index + 1] == "name" and values[index + 2] in ("=", "[")


def _body_end(lines: list[Line], at: int) -> int:
    """The index after the last line of the block after `lines[at]` (a header ending in `:`)."""
    header = lines[at]
    if header.indent < 0:
        return at + 1
    end = at + 1
    while end < len(lines) and lines[end].indent > header.indent:
        end += 1
    return end


def _is_fstring(token: str) -> bool:
    return "f" in token[: len(token) - len(token.lstrip("rRbBuUfF"))].lower()


def _words_meet(token: str, words: frozenset[str]) -> bool:
    return not words.isdisjoint(_WORD.findall(token))


def _blank(text: str) -> str:
    return re.sub(r"[^\r\n]", " ", text)
