"""How deeply a Python unit nests, read from its tokens before any parser sees it.

libcst's native parser recurses once per level of nesting and overflows its stack (a
segfault) somewhere above a thousand levels, and some shapes (`(1,(1,(1,...`, `a[0][0]...`)
take time and memory that grow faster than the file. A unit is not parsed when it nests
deeper than CPython itself accepts, or builds an expression deeper than `MAX_EXPRESSION`:

- brackets: more than 200 open at once (CPython: "too many nested parentheses");
- indentation: more than 100 levels (CPython: "too many levels of indentation");
- expression: more than 1000 levels, counting each open bracket, and within each bracket (or
  statement) each operator, attribute dot, call or subscript, `not`/`await`/`lambda`,
  conditional and string joined to the one before since the last `,`, `:`, `=`, `;`, `for`.

Such a unit is counted like one that does not parse (an error region and the summary's
`parseError`, naming the limit), and the scan goes on: CPython would not compile it either, so
it is not code a program runs. `ERRATLAS_PYTHON_MAX_NESTING=N` sets the three limits to N, for
an expert who wants such a file parsed anyway, at the risk the limits exist for: a parser crash
then ends the scan with exit 2, naming the file.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from analyzer.python.tokens import Tokens

MAX_BRACKETS = 200
MAX_INDENTATION = 100
MAX_EXPRESSION = 1000

_CHAINING = frozenset({
    ".", "+", "-", "*", "/", "//", "%", "@", "**", "<<", ">>", "&", "|", "^", "~",
    "not", "and", "or", "if", "else", "lambda", "await",
})
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


def limits() -> tuple[int, int, int]:
    configured = os.environ.get("ERRATLAS_PYTHON_MAX_NESTING", "")
    if configured.isdigit() and int(configured) > 0:
        return int(configured), int(configured), int(configured)
    return MAX_BRACKETS, MAX_INDENTATION, MAX_EXPRESSION


def too_deep(tokens: Tokens) -> TooDeep | None:
    """The first place where `tokens` pass a limit, or None."""
    max_brackets, max_indentation, max_expression = limits()
    kinds, values, starts, text = tokens.kinds, tokens.values, tokens.starts, tokens.text
    chains = [0]  # per open bracket (and the statement): chaining tokens since the last separator
    lambdas = [0]  # per open bracket: `lambda`s whose `:` is still to come (that `:` separates nothing)
    total = 0  # sum of `chains` plus the open brackets
    indents = [0]
    line_start = True
    previous = ""
    for position, kind in enumerate(kinds):
        value = values[position]
        if kind == "newline":
            if len(chains) == 1:
                total -= chains[0]
                chains[0] = lambdas[0] = 0
                line_start = True
            previous = kind
            continue
        if line_start:
            line_start = False
            level = _indentation_level(indents, text, starts[position])
            if level > max_indentation:
                return TooDeep(starts[position], f"more than {max_indentation} levels of indentation")
        if kind == "op" and value in _OPEN:
            if previous in _OPERANDS or previous in _CLOSE:  # a call or a subscript nests in what it follows
                chains[-1] += 1
                total += 1
            chains.append(0)
            lambdas.append(0)
            total += 1
            if len(chains) - 1 > max_brackets:
                return TooDeep(starts[position], f"more than {max_brackets} brackets open at once")
        elif kind == "op" and value in _CLOSE:
            if len(chains) > 1:
                total -= chains.pop() + 1
                lambdas.pop()
        elif value == ":" and lambdas[-1]:
            lambdas[-1] -= 1
        elif value in _SEPARATORS:
            total -= chains[-1]
            chains[-1] = 0
        elif value in _CHAINING or (kind == "string" and previous == "string"):
            chains[-1] += 1
            total += 1
            lambdas[-1] += value == "lambda"
        if total > max_expression:
            return TooDeep(starts[position], f"an expression nested more than {max_expression} levels deep")
        previous = kind if kind in _OPERANDS else value
    return None


def _indentation_level(indents: list[int], text: str, at: int) -> int:
    start = max(text.rfind("\n", 0, at), text.rfind("\r", 0, at)) + 1
    prefix = text[start:at]
    column = len(prefix.expandtabs(8)) if not prefix.strip() else indents[-1]
    while len(indents) > 1 and indents[-1] > column:
        indents.pop()
    if column > indents[-1]:
        indents.append(column)
    return len(indents) - 1
