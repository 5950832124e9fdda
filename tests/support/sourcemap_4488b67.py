"""The eager decoder of `analyzer/sourcemap.py` as erratlas 4488b67 wrote it (every line's columns and
origins made at load), kept as the oracle for tests/test_sourcemap.py: the lines made when asked
must be these."""

from __future__ import annotations

from itertools import accumulate, pairwise

from analyzer.sourcemap import MAX_SOURCES, SourceMapError, _Segments, normalize_source, with_root


def _decode(
    document: dict[str, object],
) -> tuple[list[str], dict[int, tuple[list[int], list[tuple[int, int, int] | None]]], list[str]]:
    version = document.get("version")
    if version != 3:
        raise SourceMapError(f"version {str(version)[:40]!r}, only version 3 is read")
    mappings = document.get("mappings")
    raw_sources = document.get("sources")
    if not isinstance(mappings, str) or not isinstance(raw_sources, list):
        raise SourceMapError("'mappings' or 'sources' missing")
    if len(raw_sources) > MAX_SOURCES:
        raise SourceMapError(f"{len(raw_sources)} sources, more than the bound of {MAX_SOURCES}")
    if not all(s is None or isinstance(s, str) for s in raw_sources):
        raise SourceMapError("'sources' holds something other than strings")
    root = document.get("sourceRoot")
    root = root if isinstance(root, str) else ""
    written = [with_root(s if s is not None else "", root) for s in raw_sources]
    sources = [normalize_source(s if s is not None else "", root) for s in raw_sources]
    memo = _Segments()
    lines: dict[int, tuple[list[int], list[tuple[int, int, int] | None]]] = {}
    source = original_line = original_column = 0
    for number, text in enumerate(mappings.split(";")):
        if not text:
            continue
        decoded = [memo[segment] for segment in text.split(",") if segment]
        columns = list(accumulate(d[0] for d in decoded))
        sources_run = list(accumulate((d[1] for d in decoded), initial=source))
        lines_run = list(accumulate((d[2] for d in decoded), initial=original_line))
        columns_run = list(accumulate((d[3] for d in decoded), initial=original_column))
        source, original_line, original_column = sources_run[-1], lines_run[-1], columns_run[-1]
        origins = [
            (src, line, column) if d[5] else None
            for d, src, line, column in zip(decoded, sources_run[1:], lines_run[1:], columns_run[1:])
        ]
        if any(b < a for a, b in pairwise(columns)):  # unsorted line: sort it (rare)
            order = sorted(range(len(columns)), key=columns.__getitem__)
            columns = [columns[i] for i in order]
            origins = [origins[i] for i in order]
        lines[number] = (columns, origins)
    return sources, lines, written
