"""Callsite facts of a unit made ahead, piece by piece, by the worker that renders the unit,
while the main process is still parsing the whole unit.

The worker cuts the unit's top statement list (the program, or the body of Bun's CommonJS
wrapper) into chunks at statement boundaries, parses each chunk alone (tree-sitter's included
ranges keep every byte offset), finds the callsites in it the way the main process does, works
out their facts and sends them, chunk after chunk, until the main process no longer wants them.
The main process uses a chunk only when its own tree has the same top statements, at the same
bytes and without parser errors, as the chunk's tree (the last statement: the same start), and
a fact only when

- it lies between the chunk's first statement (unless the chunk begins the list) and its last:
  the callsite, its anchor and its function all do (so no anchor window was cut short by the
  chunk's ends, and no statement whose parse could depend on what lies beyond is used);
- the main process found the same callsite (start, end, kind) itself.

A statement strictly inside a chunk is parsed from the same bytes, after the same `;`, with
the same next token as in the whole unit: its facts are the facts the main process would make.
Anything else is worked out as usual, so speculation can only save time, never change output.
"""

from __future__ import annotations

import bisect
import ctypes
import re
from collections.abc import Callable
from dataclasses import dataclass

from tree_sitter import Node, Point, Range, Tree

from analyzer.javascript.modules import main_container
from analyzer.javascript.normalize import ANCHOR_LIMIT, Normalizer, anchor_of, innermost_function
from analyzer.javascript.syntax import ancestors, new_parser
from analyzer.model import Unit
from analyzer.rules import JavaScriptRules

#: a `;` followed by a declaration: a statement boundary when it is at the list's brace depth
_DECLARATION_AFTER = re.compile(rb";(?=(?:var|let|const|function|class|async\s+function)[\s{\[*])")
_BUN_CJS_OPEN = re.compile(rb"\(function\s*\(exports,\s*require,\s*module,\s*__filename,\s*__dirname\)\s*\{")
#: how far past the target byte to look for a boundary
_SEARCH = 4 << 20
#: chunk size, as a share of the unit (at least 1 MiB)
CHUNK_SHARE = 0.05

SiteKey = tuple[int, int, str]


@dataclass(frozen=True, slots=True)
class ChunkFacts:
    unit: str
    #: (start, end) of every top statement of the chunk's tree
    statements: list[tuple[int, int]]
    #: (start, end, kind) -> facts (SiteFacts) of the callsites that may be used
    sites: dict[SiteKey, object]


def is_wrapped(source: bytes) -> bool:
    """Bun's `// @bun @bun-cjs` form: the code is the body of one function expression."""
    end = source.find(b"\n", 0, 200)
    return end > 0 and source.startswith(b"// @bun") and b"@bun-cjs" in source[:end]


def top_statements(tree: Tree, wrapped: bool) -> Node | None:
    """The node whose named children are the unit's top statements (None: a wrapped unit whose
    tree has no wrapper)."""
    root = tree.root_node
    holder = main_container(root)
    return None if wrapped == (holder is root) else holder


def choose_cut(hidden: bytes, depth: int, target: int, limit: int) -> int | None:
    """The byte after the first `;` in [target, limit) that is at brace `depth` and followed by
    a declaration (`hidden`: the source with literal braces hidden, as the readable rendering
    makes it)."""
    level = hidden.count(b"{", 0, target) - hidden.count(b"}", 0, target)
    at = target
    for match in _DECLARATION_AFTER.finditer(hidden, target, min(limit, target + _SEARCH)):
        position = match.start()
        level += hidden.count(b"{", at, position) - hidden.count(b"}", at, position)
        at = position
        if level == depth:
            return position + 1
    return None


@dataclass(frozen=True, slots=True)
class Chunk:
    """Where one chunk lies: its byte range and the ranges tree-sitter is given for it."""

    start: int
    ranges: list[tuple[int, int]]
    first: bool  # it begins the top statement list
    wrapped: bool


def chunks_of(unit: Unit, hidden: bytes, step: int | None = None) -> list[Chunk]:
    """The unit's top statement list cut into chunks of about `step` bytes at statement
    boundaries (`hidden`: the source with literal braces hidden, from the readable rendering)."""
    source = unit.source
    wrapped = is_wrapped(source)
    frame = _wrapper_frame(source) if wrapped else (0, len(source))
    if frame is None:
        return []
    body, close = frame
    step = step or max(1 << 20, int(len(source) * CHUNK_SHARE))
    chunks, start = [], body
    while start < close:
        cut = choose_cut(hidden, 1 if wrapped else 0, start + step, close)
        end = cut if cut is not None else close
        ranges = [(0, body), (start, end), (close, len(source))] if wrapped else [(start, end)]
        chunks.append(Chunk(start, ranges, start == body, wrapped))
        start = end
    return chunks


def facts_ahead(
    unit: Unit, chunks: list[Chunk], rules: JavaScriptRules, forced_logger: str | None,
    send: Callable[[int, ChunkFacts], None], wanted: Callable[[], bool],
) -> None:
    """Chunk after chunk (from `chunks_of`), while `wanted()`: `send(number, facts)`."""
    for number, chunk in enumerate(chunks):
        if not wanted():
            break
        send(number, chunk_facts(unit, chunk, rules, forced_logger))
        _give_back_freed_memory()


def _give_back_freed_memory() -> None:
    """Return the freed pages of a chunk's tree to the system (glibc keeps them otherwise)."""
    try:
        ctypes.CDLL(None).malloc_trim(0)
    except (AttributeError, OSError):
        pass


def _wrapper_frame(source: bytes) -> tuple[int, int] | None:
    """(first byte of the wrapper's body, its closing brace) of a `@bun-cjs` unit."""
    opened = _BUN_CJS_OPEN.search(source, 0, 400)
    close = source.rstrip().rfind(b"})")
    if opened is None or close < opened.end():
        return None
    return opened.end(), close


def chunk_facts(unit: Unit, chunk: Chunk, rules: JavaScriptRules, forced_logger: str | None) -> ChunkFacts:
    """The facts of the callsites in one chunk that the main process may use."""
    from analyzer.javascript.extract import RecoveredShape, _columns, _find_sites, _site

    source = unit.source
    parser = new_parser()
    parser.included_ranges = [_range(source, a, b) for a, b in _merged(chunk.ranges)]
    tree = parser.parse(source)
    holder = top_statements(tree, chunk.wrapped)
    if tree.root_node.has_error or holder is None or holder.descendant_count <= ANCHOR_LIMIT:
        return ChunkFacts(unit.name, [], {})
    statements = [(s.start_byte, s.end_byte) for s in holder.named_children if s.start_byte >= chunk.start]
    if len(statements) < 3:
        return ChunkFacts(unit.name, [], {})
    low = statements[0][0] if chunk.first else statements[1][0]
    high = statements[-1][0]
    _, _, _, sites, _ = _find_sites(tree, source, rules, forced_logger, within=(low, high))
    normalizer = Normalizer(source)
    columns = _columns(source, [node.start_byte for node, _ in sites])
    facts: dict[SiteKey, object] = {}
    for node, kind in sites:
        chain = ancestors(node, tree.root_node)
        anchor, function = anchor_of(node, chain, siblings=normalizer.siblings), innermost_function(chain)
        reach = [node, anchor] if function is None else [node, anchor, function]
        if all(low <= part.start_byte and part.end_byte <= high for part in reach):
            try:
                facts[(node.start_byte, node.end_byte, kind)] = _site(
                    unit, tree.root_node, node, kind, rules, normalizer, columns[node.start_byte]
                )
            except RecoveredShape:
                pass  # left out by the main process, which decides that itself
    return ChunkFacts(unit.name, statements, facts)


def _merged(ranges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for a, b in ranges:
        if a >= b:
            continue
        if out and out[-1][1] == a:
            out[-1] = (out[-1][0], b)
        else:
            out.append((a, b))
    return out


def _range(source: bytes, start: int, end: int) -> Range:
    return Range(_point(source, start), _point(source, end), start, end)


def _point(source: bytes, offset: int) -> Point:
    row = source.count(b"\n", 0, offset)
    return Point(row, offset - (source.rfind(b"\n", 0, offset) + 1))


class TopStatements:
    """The main process's top statements of a unit, to check chunks against."""

    def __init__(self, tree: Tree, source: bytes) -> None:
        holder = top_statements(tree, is_wrapped(source))
        children = holder.named_children if holder is not None else []
        self._starts = [c.start_byte for c in children]
        self._spans = [(c.start_byte, c.end_byte) for c in children]
        self._errors = [c.has_error for c in children]

    def usable(self, chunk: ChunkFacts) -> dict[SiteKey, object]:
        """The chunk's facts when this tree agrees with the chunk's; else none."""
        count = len(chunk.statements)
        if not count:
            return {}
        at = bisect.bisect_left(self._starts, chunk.statements[0][0])
        if at + count > len(self._spans) or self._starts[at] != chunk.statements[0][0]:
            return {}
        if self._spans[at:at + count - 1] != chunk.statements[:-1] or any(self._errors[at:at + count - 1]):
            return {}
        if self._starts[at + count - 1] != chunk.statements[-1][0]:
            return {}
        return chunk.sites
