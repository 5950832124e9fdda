"""How deeply a Python unit nests, read from its tokens before any parser sees it: a unit nested
deeper than CPython accepts (brackets, indentation) or than libcst's recursive parser survives
(an estimate of the expression depth) is not parsed, and counted like one that does not parse
(docs/reference.md, "Bounds").
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from analyzer.python.tokens import Line, Tokens

MAX_BRACKETS = 200
MAX_INDENTATION = 100
MAX_EXPRESSION = 1000
#: `elif`s of one `if`: libcst nests each in the one before (30,000 took 0.9 GB and passed its walk's recursion)
MAX_ELIFS = 5000

#: operators by precedence class, lowest first: a chain of one class nests one level per
#: operator (left or right); an operator of a lower class ends the chains of the higher ones,
#: which become its operand. Comparisons make one flat node in libcst and are not counted.
_CLASSES: dict[str, int] = {
    "lambda": 0, "if": 1, "else": 1, "or": 2, "and": 3, "not": 4,
    "|": 6, "^": 7, "&": 8, "<<": 9, ">>": 9, "+": 10, "-": 10, "*": 11, "/": 11, "//": 11, "%": 11, "@": 11,
    "~": 12, "**": 13, "await": 14, ".": 15,
}
_UNARY, _TRAILER, _STRINGS = 12, 15, 16
_PREFIX = frozenset({"lambda", "not", "await", "~"})
_SEPARATORS = frozenset({
    ",", ";", ":", "=", ":=", "->", "for", "+=", "-=", "*=", "/=", "//=", "%=", "@=", "**=", "<<=",
    ">>=", "&=", "|=", "^=",
})
_OPEN, _CLOSE = frozenset("([{"), frozenset(")]}")
_OPERANDS = frozenset({"name", "string", "number"})


@dataclass(frozen=True, slots=True)
class TooDeep:
    #: character offset of the token where the limit is passed
    offset: int
    message: str


def limits() -> tuple[int, int, int, int]:
    """(brackets, indentation, expression depth, `elif`s), each N when `ERRATLAS_PYTHON_MAX_NESTING=N`."""
    configured = os.environ.get("ERRATLAS_PYTHON_MAX_NESTING", "")
    if configured.isdigit() and int(configured) > 0:
        return int(configured), int(configured), int(configured), int(configured)
    return MAX_BRACKETS, MAX_INDENTATION, MAX_EXPRESSION, MAX_ELIFS


def too_deep(tokens: Tokens, lines: list[Line]) -> TooDeep | None:
    """The first place where `tokens` (in logical `lines`) pass a limit, or None. A logical line
    of n tokens opens at most n brackets and nests at most 2n levels: only longer lines than
    the limits allow are read token by token."""
    max_brackets, max_indentation, max_expression, max_elifs = limits()
    shortest = min(max_brackets, max_expression // 2)
    indents = [0]
    elifs = [0]  # per open indentation level, the `elif`s in a row of its current `if`
    for line in lines:
        column = line.indent if line.indent >= 0 else indents[-1]
        while len(indents) > 1 and indents[-1] > column:
            indents.pop()
            elifs.pop()
        if column > indents[-1]:
            indents.append(column)
            elifs.append(0)
        if len(indents) - 1 > max_indentation:
            return TooDeep(tokens.starts[line.first], f"more than {max_indentation} levels of indentation")
        if tokens.values[line.first] == "elif" and tokens.kinds[line.first] == "name":
            elifs[-1] += 1
            if elifs[-1] > max_elifs:
                return TooDeep(tokens.starts[line.first], f"more than {max_elifs} elif branches in one if statement")
        elif tokens.values[line.first] != "else":
            elifs[-1] = 0
        if line.last - line.first > shortest:
            deep = _too_deep_line(tokens, line.first, line.last, max_brackets, max_expression)
            if deep is not None:
                return deep
    return None


def _too_deep_line(tokens: Tokens, first: int, last: int, max_brackets: int, max_expression: int) -> TooDeep | None:
    kinds, values, starts = tokens.kinds, tokens.values, tokens.starts
    levels = [_Level()]  # the statement, then one per open bracket
    total = 0  # the estimated depth: open brackets plus every level's chains
    previous = ""  # the previous token: its kind for an operand, else its text
    for position in range(first, last):
        kind, value = kinds[position], values[position]
        if kind == "newline":
            previous = kind
            continue
        operand_before = previous in _OPERANDS or previous in _CLOSE
        if kind == "op" and value in _OPEN:
            if operand_before:  # a call or a subscript nests in what it follows
                total += levels[-1].chain(_TRAILER)
            levels.append(_Level())
            total += 1
            if len(levels) - 1 > max_brackets:
                return TooDeep(starts[position], f"more than {max_brackets} brackets open at once")
        elif kind == "op" and value in _CLOSE:
            if len(levels) > 1:
                total -= levels.pop().reset() + 1
        else:
            total += _step(levels[-1], kind, value, previous, operand_before)
        if total > max_expression:
            return TooDeep(starts[position], f"an expression nested more than {max_expression} levels deep")
        previous = kind if kind in _OPERANDS else value
    return None


class _Level:
    """One bracket's (or the statement's) chains: per precedence class, the operators since
    the class's chain began; and the lambdas whose `:` is still to come."""

    __slots__ = ("counts", "depth", "lambdas")

    def __init__(self) -> None:
        self.counts = [0] * (_STRINGS + 1)
        self.depth = 0  # sum of counts
        self.lambdas = 0

    def chain(self, level: int) -> int:
        """One more operator of class `level`: the higher classes' chains end. The change of depth."""
        counts = self.counts
        before = self.depth
        ended = sum(counts[level + 1:])
        if ended:
            counts[level + 1:] = [0] * (len(counts) - level - 1)
        counts[level] += 1
        self.depth = before - ended + 1
        return self.depth - before

    def reset(self) -> int:
        """A separator: every chain ends. The depth that goes."""
        depth = self.depth
        self.counts = [0] * (_STRINGS + 1)
        self.depth = 0
        return depth


def _step(level: _Level, kind: str, value: str, previous: str, operand_before: bool) -> int:
    """What one token that opens and closes nothing does to the depth."""
    if value == ":" and level.lambdas:
        level.lambdas -= 1  # a lambda's colon separates nothing
        return 0
    if value in _SEPARATORS:
        return -level.reset()
    if kind == "string":
        return level.chain(_STRINGS) if previous == "string" else 0
    cls = _CLASSES.get(value)
    if cls is None or (kind == "name" and value not in ("lambda", "if", "else", "or", "and", "not", "await")):
        return 0
    if value in ("+", "-") and not operand_before:
        cls = _UNARY  # a sign, not an addition
    if value in _PREFIX or cls == _UNARY:
        level.lambdas += value == "lambda"
        level.counts[cls] += 1  # a prefix nests what follows; it ends no chain
        level.depth += 1
        return 1
    return level.chain(cls)
