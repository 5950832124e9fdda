"""Coverage: the top-level code outside every module (scope-hoisted ESM, runtime helpers),
which only a source map can split further."""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator
from itertools import pairwise

from tree_sitter import Node

from analyzer.javascript.modules.patterns import DECLARATIONS
from analyzer.javascript.modules.spans import ModuleIndex, ModuleSpan
from analyzer.javascript.modules.statements import StatementLists
from analyzer.javascript.syntax import text


def without_duplicates(modules: list[ModuleSpan]) -> list[ModuleSpan]:
    unique = {(m.start, m.end): m for m in modules}
    return sorted(unique.values(), key=lambda m: (m.start, -m.end))


def loose_pieces(lists: StatementLists, modules: list[ModuleSpan], source: bytes) -> list[tuple[int, int]]:
    """Top-level pieces outside every module: statements, or the declarators of a `var`
    statement (one minifier may merge a whole bundle into one `var`); the body of a
    top-level IIFE (webpack's runtime, esbuild's iife format) counts as top level."""
    index = ModuleIndex([(m.start, m.end) for m in modules])
    starts = [m.start for m in modules]  # sorted: `modules` is
    pieces: list[tuple[int, int]] = []
    pending = [(lists.get(lists.main), 0)]
    while pending:
        statements, depth = pending.pop()
        for position, node in enumerate(statements.nodes):
            first, last = node.start_byte, node.end_byte
            holder = index.find(first)
            if holder is not None and last <= modules[holder].end:
                continue  # inside a module (most statements of a wrapped bundle)
            if node.type == "comment":
                continue
            parts: list[tuple[int, int]] = [(first, last)]
            if node.type == "expression_statement" and node.named_children and depth < 4:
                # `a = 1, b = 2, (() => {...})()`: the IIFE's statements are top level too
                parts = []
                for element in _sequence(node.named_children[0]):
                    bodies = _iife_bodies(element)
                    pending.extend((lists.get(body), depth + 1) for body in bodies)
                    if not bodies:
                        parts.append((element.start_byte, element.end_byte))
            elif node.type in DECLARATIONS:
                declarators, _ = statements.declarators(position)
                if len(declarators) > 1:
                    bounds = [first] + [d.start_byte for d in declarators[1:]] + [last]
                    parts = list(pairwise(bounds))
            for start, end in parts:
                pieces.extend(_code_gaps(_gaps(start, end, modules, starts, index), source))
    return sorted(pieces)


def _gaps(
    start: int, end: int, modules: list[ModuleSpan], starts: list[int], index: ModuleIndex
) -> Iterator[tuple[int, int]]:
    """The parts of [start, end) outside every module (a UMD factory around a module table)."""
    holder = index.find(start)
    at = modules[holder].end if holder is not None else start
    following = bisect.bisect_left(starts, at)
    while following < len(starts) and starts[following] < end:
        module = modules[following]
        if module.start >= at:
            if module.start > at:
                yield (at, module.start)
            at = module.end
        following += 1
    if at < end:
        yield (at, end)


_NOT_CODE = re.compile(rb"(?:\s|[;,()]|\b(?:var|let|const)\b)*\Z")


def _code_gaps(gaps: Iterator[tuple[int, int]], source: bytes) -> Iterator[tuple[int, int]]:
    """Gaps holding code, not just the `var ` or `;` around a module."""
    for start, end in gaps:
        if _NOT_CODE.match(source, start, end) is None:
            yield start, end


def _sequence(expression: Node) -> list[Node]:
    """The elements of a comma sequence (nested to the left or right), else the expression."""
    out, pending = [], [expression]
    while pending:
        node = pending.pop()
        if node.type == "sequence_expression":
            pending.extend(reversed(node.named_children))
        else:
            out.append(node)
    return out


def _iife_bodies(expression: Node) -> list[Node]:
    """The bodies of `(() => {...})()`, `!function () {...}()`, `(function () {...}).call(this)`,
    and of the functions such a call is given (a UMD wrapper's factory)."""
    while expression.type in ("parenthesized_expression", "unary_expression") and expression.named_children:
        expression = expression.named_children[-1]
    if expression.type != "call_expression":
        return []
    function = expression.child_by_field_name("function")
    if function is not None and function.type == "member_expression":
        prop = function.child_by_field_name("property")
        function = (
            function.child_by_field_name("object") if prop is not None and text(prop) in ("call", "apply") else None
        )
    while function is not None and function.type == "parenthesized_expression" and function.named_children:
        function = function.named_children[0]
    if function is None or function.type not in ("arrow_function", "function_expression"):
        return []
    arguments = expression.child_by_field_name("arguments")
    functions = [function] + [a for a in (arguments.named_children if arguments is not None else ())
                              if a.type in ("arrow_function", "function_expression")]
    bodies = [f.child_by_field_name("body") for f in functions]
    return [b for b in bodies if b is not None and b.type == "statement_block"]
