"""Coverage: the top-level code outside every module (scope-hoisted ESM, runtime helpers),
which only a source map can split further."""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator

from analyzer.javascript.modules.spans import ModuleIndex, ModuleSpan
from analyzer.javascript.modules.statement_rows import Nested, StatementRows


def without_duplicates(modules: list[ModuleSpan]) -> list[ModuleSpan]:
    unique = {(m.start, m.end): m for m in modules}
    return sorted(unique.values(), key=lambda m: (m.start, -m.end))


def loose_pieces(rows: StatementRows, modules: list[ModuleSpan], source: bytes) -> list[tuple[int, int]]:
    """Top-level pieces outside every module, from the main list's rows: statements, or the
    declarators of a `var` statement (one minifier may merge a whole bundle into one `var`); the
    body of a top-level IIFE (webpack's runtime, esbuild's iife format) counts as top level."""
    index = ModuleIndex([(m.start, m.end) for m in modules])
    starts = [m.start for m in modules]  # sorted: `modules` is
    pieces: list[tuple[int, int]] = []
    pending: list[Nested] = []
    find = index.find
    for position, (first, last) in enumerate(zip(rows.starts, rows.ends, strict=True)):
        holder = find(first)
        if holder is not None and last <= modules[holder].end:
            continue  # inside a module (most statements of a wrapped bundle)
        parts, nested = rows.pieces(position)
        pending.extend(nested)
        for start, end in parts:
            pieces.extend(_code_gaps(_gaps(start, end, modules, starts, index), source))
    while pending:
        first, last, parts, nested = pending.pop()
        if _inside(first, last, modules, index):
            continue
        pending.extend(nested)
        for start, end in parts:
            pieces.extend(_code_gaps(_gaps(start, end, modules, starts, index), source))
    return sorted(pieces)


def _inside(first: int, last: int, modules: list[ModuleSpan], index: ModuleIndex) -> bool:
    holder = index.find(first)
    return holder is not None and last <= modules[holder].end


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
