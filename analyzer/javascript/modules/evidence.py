"""With source-map evidence: the modules of a unit after its map splits the loose code by
original file, and each callsite's module and original position."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from analyzer.javascript.modules.spans import ModuleIndex, ModuleMap, ModuleSpan, runs_digest
from analyzer.model import Origin
from analyzer.sourcemap import LocatedMap, SourceMap


@dataclass(frozen=True, slots=True)
class UnitModules:
    """The modules of one unit after source-map evidence, and each callsite's place."""

    #: structural modules, plus top-level runs a source map splits by original file
    spans: list[ModuleSpan]
    #: per span: the original source most of it maps to, else None
    sources: list[str | None]
    #: per span: the index of the innermost span holding it, else None
    parents: list[int | None]
    #: callsite offset -> index into `spans`
    site_modules: dict[int, int]
    #: callsite offset -> original position
    site_origins: dict[int, Origin]
    #: handler offset -> index into `spans`, and its original position (placed like a callsite;
    #: never counted, never used to split)
    handler_modules: dict[int, int] = field(default_factory=dict)
    handler_origins: dict[int, Origin] = field(default_factory=dict)


def with_evidence(
    source: bytes, found: ModuleMap | None, located: LocatedMap | None, site_offsets: Sequence[int],
    handler_offsets: Sequence[int] = (),
) -> UnitModules:
    """Structural modules hold what lies in their span. With a source map, the top-level code
    no wrapper delimits (scope-hoisted ESM) is split by original file: one module per file,
    made of the runs of top-level code that map to it, and a callsite there belongs to the
    module of the file its own code maps to (a minifier may inline one file's function into
    another's code)."""
    structural = list(found.modules) if found is not None else []
    origins: dict[int, Origin] = {}
    hoisted: list[ModuleSpan] = []
    structural.sort(key=lambda m: (m.start, -m.end))
    index = ModuleIndex([(m.start, m.end) for m in structural])
    if located is not None:
        origins = {o: origin for o, origin in zip(site_offsets, located.map.origins(source, site_offsets)) if origin}
        if found is not None:
            unwrapped = {o: origins[o].source for o in site_offsets if o in origins and index.find(o) is None}
            hoisted = _split_by_origin(source, found.loose, located.map, unwrapped)
    spans = structural + hoisted
    runs = ModuleIndex([r for m in hoisted for r in m.ranges])
    run_module = [len(structural) + i for i, m in enumerate(hoisted) for _ in m.ranges]
    by_source = {m.key: len(structural) + i for i, m in enumerate(hoisted)}
    def place(offsets: Sequence[int], origins: dict[int, Origin]) -> dict[int, int]:
        holders: dict[int, int] = {}
        for offset in offsets:
            holder = index.find(offset)
            if holder is None:
                origin = origins.get(offset)
                holder = by_source.get(origin.source) if origin is not None else None
            if holder is None:
                run = runs.find(offset)
                holder = run_module[run] if run is not None else None
            if holder is not None:
                holders[offset] = holder
        return holders

    site_modules = place(site_offsets, origins)
    handler_origins: dict[int, Origin] = {}
    if located is not None and handler_offsets:
        handler_origins = {o: origin for o, origin in zip(handler_offsets, located.map.origins(source, handler_offsets))
                           if origin}
    sources: list[str | None] = [None] * len(spans)
    if located is not None:
        sources = _dominant_sources(source, spans, located.map, site_modules, origins)
    parents = [index.find(m.start - 1) if m.start > 0 and i < len(structural) else None for i, m in enumerate(spans)]
    parents = [p if p is not None and spans[p].end >= m.end and p != i else None
               for i, (p, m) in enumerate(zip(parents, spans))]
    return UnitModules(spans, sources, parents, site_modules, origins, place(handler_offsets, handler_origins),
                       handler_origins)


def _split_by_origin(
    source: bytes, loose: list[tuple[int, int]], source_map: SourceMap, unwrapped: dict[int, str]
) -> list[ModuleSpan]:
    """One module per original file that top-level code maps to: its runs of consecutive
    top-level pieces (the first mapped segment of each piece names the file). A file whose
    code survives only inlined into another's (`unwrapped`: callsite offset -> its file)
    is a module made of those callsites."""
    firsts = source_map.first_origins(source, loose)
    runs: list[tuple[int, int, str]] = []
    previous_end = -1
    for (start, end), origin in zip(loose, firsts):
        if origin is None:
            previous_end = -1
            continue
        if runs and runs[-1][2] == origin.source and previous_end >= 0 and _only_space(source, previous_end, start):
            runs[-1] = (runs[-1][0], end, origin.source)
        else:
            runs.append((start, end, origin.source))
        previous_end = end
    by_file: dict[str, list[tuple[int, int]]] = {}
    for start, end, file in runs:
        by_file.setdefault(file, []).append((start, end))
    inlined: dict[str, list[tuple[int, int]]] = {}
    for offset, file in sorted(unwrapped.items()):
        if file not in by_file:
            inlined.setdefault(file, []).append((offset, offset + 1))
    by_file.update(inlined)
    modules = []
    for file, ranges in sorted(by_file.items(), key=lambda item: item[1][0]):
        modules.append(
            ModuleSpan(
                kind="esm",
                start=ranges[0][0],
                end=ranges[-1][1],
                body=ranges[0][0],
                key=file,
                binding=None,
                evidence="source map: top-level code of one original file",
                digest=runs_digest(source, ranges),
                ranges=tuple(ranges),
            )
        )
    return modules


def _only_space(source: bytes, start: int, end: int) -> bool:
    return end - start < 4096 and not source[start:end].strip(b" \t\r\n;")


def _dominant_sources(
    source: bytes, spans: list[ModuleSpan], source_map: SourceMap, site_modules: dict[int, int],
    origins: dict[int, Origin],
) -> list[str | None]:
    """Per span, the original file most of its evidence points to: the first mapped position
    of its own code, and its callsites."""
    votes: list[Counter[str]] = [Counter() for _ in spans]
    for offset, index in sorted(site_modules.items()):
        origin = origins.get(offset)
        if origin is not None:
            votes[index][origin.source] += 1
    silent = [i for i, v in enumerate(votes) if not v]  # no mapped callsite: the module's own first code
    for index, origin in zip(silent, source_map.first_origins(source, [(spans[i].body, spans[i].end) for i in silent])):
        if origin is not None:
            votes[index][origin.source] += 1
    return [v.most_common(1)[0][0] if v else None for v in votes]
