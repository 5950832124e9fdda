"""Source maps as evidence (docs/modules.md): where a generated position came from. A map is found
beside the bundle or through its last `sourceMappingURL` comment; an unreadable map is reported,
never fatal. Each distinct `mappings` segment is decoded once (docs/performance.md, "Source
maps")."""

from __future__ import annotations

import base64
import binascii
import bisect
import hashlib
import os
import posixpath
import re
import urllib.parse
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import accumulate, pairwise
from pathlib import Path

import orjson

from analyzer.errors import InputError
from analyzer.limits import (
    MAX_SOURCE_MAP_BYTES,
    MEMORY_PER_MAP_BYTE,
    grow_memory_limit,
    read_regular_file,
)
from analyzer.model import Origin

_BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
_DIGIT = {char: value for value, char in enumerate(_BASE64)}
_OPENING = re.compile(rb"(?://|/\*)[@#][ \t]*\Z")
_URL = re.compile(rb"sourceMappingURL=[ \t]*([^\s'\"*]+)[ \t]*(?:\*/)?\s*\Z")
#: a URL's scheme and authority; webpack's namespace is the package's name, scoped ones included
#: (`webpack://@scope/name/./src/x.js`)
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://(?:@[^/]+/(?!\.{1,2}/))?[^/]*/")
_NODE_MODULES = re.compile(r"(?<![^/])node_modules/((?:@[^/]+/)?[^/@.][^/]*)/")
#: entries of a map's `sources` (a real map names a few thousand files)
MAX_SOURCES = 1_000_000
#: an index map section's offset line or column
_MAX_POSITION = 1 << 31


#: a generated line: its segments' columns, sorted, and their original (source, line, column) or None
Line = tuple[list[int], list[tuple[int, int, int] | None]]


class SourceMapError(Exception):
    """The map is not a usable source map (reported as evidence status, never fatal)."""


@dataclass(frozen=True, slots=True)
class LocatedMap:
    """A decoded map and where it was found."""

    #: `inline`, or the map file's name relative to the bundle's directory
    where: str
    map: SourceMap
    #: sha256 of the map's bytes (an input of the scan)
    sha256: str


class _Segments(dict[str, tuple[int, ...]]):
    """Memo of decoded VLQ segments: each distinct segment string is decoded once."""

    def __missing__(self, segment: str) -> tuple[int, ...]:
        values = []
        value = shift = 0
        for char in segment:
            digit = _DIGIT.get(char)
            if digit is None:
                raise SourceMapError(f"invalid Base64-VLQ character {char!r} in mappings")
            value += (digit & 31) << shift
            if digit & 32:
                shift += 5
                if shift > 60:  # past any position a map can hold (and each step costs the shift)
                    raise SourceMapError(f"VLQ value of more than 60 bits in segment {segment[:40]!r}")
                continue
            values.append(-(value >> 1) if value & 1 else value >> 1)
            value = shift = 0
        if shift:
            raise SourceMapError(f"truncated VLQ segment {segment[:40]!r}")
        if len(values) not in (1, 4, 5):
            raise SourceMapError(f"segment {segment[:40]!r} has {len(values)} fields (1, 4 or 5 expected)")
        decoded = tuple(values) + (0,) * (5 - len(values)) + ((len(values) > 1),)
        self[segment] = decoded
        return decoded


class SourceMap:
    """A decoded (flattened) source map: for each generated line, the segments' columns and
    original positions, sorted by generated column."""

    def __init__(self, sources: list[str], lines: _Lines | dict[int, Line],
                 written: list[str] | None = None, contents: list[str | None] | None = None):
        #: normalized source paths, by index
        self.sources = sources
        #: each source as the map writes it, its `sourceRoot` joined (a URL's scheme kept), by index
        self.written = written if written is not None else list(sources)
        #: each source's text from `sourcesContent`, by index; None where the map carries none
        self.contents = contents if contents is not None else [None] * len(sources)
        self._lines = lines

    @classmethod
    def from_json(cls, raw: bytes) -> SourceMap:
        try:
            document = orjson.loads(raw)
        except orjson.JSONDecodeError as exc:
            raise SourceMapError(f"not JSON ({exc})") from None
        if not isinstance(document, dict):
            raise SourceMapError("not a JSON object")
        if "sections" in document:
            return cls._from_sections(document["sections"])
        sources, lines, written = _decode(document)
        return cls(sources, lines, written, _contents(document, len(sources)))

    @classmethod
    def _from_sections(cls, sections: object) -> SourceMap:
        """An index map: each section's map shifted to its offset (columns only on its first line)."""
        if not isinstance(sections, list):
            raise SourceMapError("'sections' is not a list")
        sources: list[str] = []
        written: list[str] = []
        contents: list[str | None] = []
        lines: dict[int, Line] = {}
        for number, section in enumerate(sections):
            if not isinstance(section, dict) or not isinstance(section.get("map"), dict):
                raise SourceMapError(f"index map section {number} without an inline 'map'")
            base_line, base_column = _section_offset(section.get("offset"), number)
            part_sources, part_lines, part_written = _decode(section["map"])
            shift = len(sources)
            sources.extend(part_sources)
            written.extend(part_written)
            contents.extend(_contents(section["map"], len(part_sources)))
            for line, (columns, origins) in part_lines.items():
                extra = base_column if line == 0 else 0
                target = lines.setdefault(base_line + line, ([], []))
                for column, origin in zip(columns, origins):
                    target[0].append(column + extra)
                    target[1].append(None if origin is None else (origin[0] + shift, origin[1], origin[2]))
        for columns, origins in lines.values():
            if any(b < a for a, b in pairwise(columns)):  # sections that overlap on a line
                order = sorted(range(len(columns)), key=columns.__getitem__)
                columns[:] = [columns[i] for i in order]
                origins[:] = [origins[i] for i in order]
        return cls(sources, lines, written, contents)

    def origin(self, line: int, column: int) -> Origin | None:
        """The original position of generated (0-based line, 0-based UTF-16 column): the
        segment at or before it on its line; None when unmapped."""
        found = self._lines.get(line)
        if found is None:
            return None
        columns, origins = found
        at = bisect.bisect_right(columns, column) - 1
        if at < 0 or origins[at] is None:
            return None
        source, original_line, original_column = origins[at]  # type: ignore[misc]
        if not 0 <= source < len(self.sources) or original_line < 0 or original_column < 0:
            return None  # an index or a position the map's deltas drove out of range
        return Origin(source=self.sources[source], line=original_line + 1, column=original_column + 1)

    def origins(self, source: bytes, offsets: Sequence[int]) -> list[Origin | None]:
        """Origins of byte offsets of the generated `source`, in the order given."""
        positions = utf16_positions(source, offsets)
        return [self.origin(*positions[offset]) for offset in offsets]

    def first_origins(self, source: bytes, ranges: Sequence[tuple[int, int]]) -> list[Origin | None]:
        """For each byte range of `source`, the origin of the first mapped segment inside it."""
        positions = utf16_positions(source, [o for r in ranges for o in r])
        return [self._first(positions[start], positions[end]) for start, end in ranges]

    def sole_sources(self, source: bytes, ranges: Sequence[tuple[int, int]]) -> list[str | None]:
        """For each byte range of `source`, the one source every mapped segment inside it names;
        None when no segment is mapped there or they name several."""
        positions = utf16_positions(source, [o for r in ranges for o in r])
        return [self._sole(positions[start], positions[end]) for start, end in ranges]

    def _sole(self, start: tuple[int, int], end: tuple[int, int]) -> str | None:
        found: int | None = None
        for _, _, origin in self._mapped(start, end):
            if 0 <= origin[0] < len(self.sources):
                if found is not None and origin[0] != found:
                    return None  # several files' code: no one source
                found = origin[0]
        return None if found is None else self.sources[found]

    def _first(self, start: tuple[int, int], end: tuple[int, int]) -> Origin | None:
        for line, column, _ in self._mapped(start, end):
            return self.origin(line, column)
        return None

    def _mapped(self, start: tuple[int, int], end: tuple[int, int]) -> Iterator[tuple[int, int, tuple[int, int, int]]]:
        """(line, column, the segment's origin) of each mapped segment from `start` to `end`, in order."""
        line, column = start
        while line <= end[0]:
            found = self._lines.get(line)
            if found is not None:
                columns, origins = found
                at = bisect.bisect_left(columns, column)
                while at < len(columns) and (line < end[0] or columns[at] < end[1]):
                    origin = origins[at]
                    if origin is not None:
                        yield line, columns[at], origin
                    at += 1
            line, column = line + 1, 0


def _section_offset(offset: object, number: int) -> tuple[int, int]:
    """(line, column) of an index map section's `offset`: non-negative integers."""
    if offset is None:
        return 0, 0
    if not isinstance(offset, dict):
        raise SourceMapError(f"index map section {number}: 'offset' is not an object")
    values = (offset.get("line", 0), offset.get("column", 0))
    if not all(type(v) is int and 0 <= v < _MAX_POSITION for v in values):
        raise SourceMapError(
            f"index map section {number}: 'offset' line and column are not small non-negative integers"
        )
    return values[0], values[1]


def _decode(
    document: dict[str, object],
) -> tuple[list[str], _Lines, list[str]]:
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
    #: line -> the running sums at its start, its decoded segments
    pending: dict[int, tuple[tuple[int, int, int], list[tuple[int, ...]]]] = {}
    source = original_line = original_column = 0
    for number, text in enumerate(mappings.split(";")):
        if not text:
            continue
        decoded = [memo[segment] for segment in text.split(",") if segment]
        if not decoded:
            continue
        # every segment is decoded (and checked) here; a line's columns and origins are made when asked
        pending[number] = ((source, original_line, original_column), decoded)
        _, sources_delta, lines_delta, columns_delta, _, _ = zip(*decoded, strict=True)
        source += sum(sources_delta)
        original_line += sum(lines_delta)
        original_column += sum(columns_delta)
    return sources, _Lines(pending), written


class _Lines:
    """A map's generated lines: each line's columns and original positions, sorted by column,
    made from its decoded segments and the running sums at its start when first asked (a scan
    asks for the lines of its callsites, a few of a map's hundred thousand)."""

    def __init__(self, pending: dict[int, tuple[tuple[int, int, int], list[tuple[int, ...]]]]) -> None:
        self._pending = pending
        self._made: dict[int, Line] = {}

    def get(self, line: int) -> Line | None:
        made = self._made.get(line)
        if made is None:
            found = self._pending.get(line)
            if found is None:
                return None
            made = self._made[line] = _line(found[1], *found[0])
        return made

    def items(self) -> Iterator[tuple[int, Line]]:
        for line in self._pending:
            yield line, self.get(line)  # type: ignore[misc]


def _line(decoded: list[tuple[int, ...]], source: int, original_line: int, original_column: int,
          ) -> Line:
    """One line's columns (running from 0) and origins (running from the sums at its start)."""
    columns = list(accumulate(d[0] for d in decoded))
    sources_run = accumulate((d[1] for d in decoded), initial=source)
    lines_run = accumulate((d[2] for d in decoded), initial=original_line)
    columns_run = accumulate((d[3] for d in decoded), initial=original_column)
    next(sources_run), next(lines_run), next(columns_run)
    origins = [(src, line, column) if d[5] else None
               for d, src, line, column in zip(decoded, sources_run, lines_run, columns_run)]
    if any(b < a for a, b in pairwise(columns)):  # unsorted line: sort it (rare)
        order = sorted(range(len(columns)), key=columns.__getitem__)
        columns = [columns[i] for i in order]
        origins = [origins[i] for i in order]
    return columns, origins


def _contents(document: dict[str, object], count: int) -> list[str | None]:
    """`sourcesContent` by source index: a text, or None for a missing or non-string entry."""
    found = document.get("sourcesContent")
    given = found if isinstance(found, list) else []
    return [text if isinstance(text, str) else None for text in given[:count]] + [None] * (count - len(given))


def with_root(source: str, root: str = "") -> str:
    """`sourceRoot` joined to a source that is not a URL of its own."""
    return posixpath.join(root, source) if root and not _SCHEME.match(source) else source


def url_parts(source: str) -> tuple[str, str, str] | None:
    """(scheme, authority, path) of a source written as a URL (`webpack://name/./src/x.js`),
    else None."""
    found = _SCHEME.match(source)
    if found is None:
        return None
    scheme, _, rest = found.group(0).partition("://")
    return scheme.lower(), rest[:-1], source[found.end():]


def normalize_source(source: str, root: str = "") -> str:
    """`sourceRoot` joined, a `webpack://name/`-style scheme and `./` removed; `..` kept
    (the path stays as the map wrote it, never made absolute)."""
    path = with_root(source, root)
    path = _SCHEME.sub("", path).replace("\\", "/")
    path = path.removeprefix("file://")
    normalized = posixpath.normpath(path) if path else path
    return "" if normalized == "." else normalized


def package_of(source: str) -> str | None:
    """The npm package a source path lies in (its last `node_modules/<pkg>/`), else None."""
    matches = _NODE_MODULES.findall(source)
    return matches[-1] if matches else None


def utf16_positions(source: bytes, offsets: Sequence[int]) -> dict[int, tuple[int, int]]:
    """(0-based line, 0-based UTF-16 column) of byte offsets, in one pass over the source."""
    out: dict[int, tuple[int, int]] = {}
    line, at, column = 0, 0, 0
    for offset in sorted(set(offsets)):
        newlines = source.count(b"\n", at, offset)
        if newlines:
            line += newlines
            at, column = source.rfind(b"\n", at, offset) + 1, 0
        chunk = source[at:offset]
        column += len(chunk) if chunk.isascii() else len(chunk.decode("utf-8", "replace").encode("utf-16-le")) // 2
        at = offset
        out[offset] = (line, column)
    return out


def find_source_map(bundle: Path | None, source: bytes) -> LocatedMap | None:
    """The map of `source`: its sourceMappingURL (inline, or a file beside `bundle`), else
    `bundle`.map beside it; None when there is none. Raises SourceMapError for a map that is
    there but unusable. A file is read only when it is a regular file inside the bundle's
    directory (a URL with `..` that leaves it, or a symlink out of it, is never opened), of
    at most MAX_SOURCE_MAP_BYTES."""
    url = _mapping_url(source)
    if url is not None and url.startswith("data:"):
        raw = _data_url(url)
        return LocatedMap("inline", _decoded(raw), hashlib.sha256(raw).hexdigest())
    if bundle is None:
        return None
    candidates: list[str] = []
    refused: SourceMapError | None = None
    if url is not None:
        relative = urllib.parse.unquote(url.split("?", 1)[0].split("#", 1)[0])
        if "://" not in relative and not relative.startswith("/"):
            candidates.append(relative)
    candidates.append(bundle.name + ".map")
    for name in candidates:
        try:
            found = _read_beside(bundle.parent, name)
        except SourceMapError as exc:
            refused = refused or exc
            continue
        if found is None:
            continue
        try:
            return LocatedMap(posixpath.normpath(name), _decoded(found), hashlib.sha256(found).hexdigest())
        except SourceMapError as exc:
            raise SourceMapError(f"{_shown(name)}: {exc}") from None
    if refused is not None:
        raise refused
    return None


def _read_beside(directory: Path, name: str) -> bytes | None:
    """The bytes of the file `name` (relative) in `directory`, None when there is no such
    file; SourceMapError when it leaves the directory or is not a readable regular file."""
    shown = _shown(name)
    normal = posixpath.normpath(name)
    if normal.startswith("../") or normal == ".." or "\x00" in name:
        raise SourceMapError(f"{shown}: the sourceMappingURL leaves the bundle's directory; not read")
    path = directory / normal
    try:
        real, home = os.path.realpath(path), os.path.realpath(directory)
        if os.path.commonpath([real, home]) != home:
            raise SourceMapError(f"{shown}: a link out of the bundle's directory; not read")
        try:
            os.lstat(path)
        except (FileNotFoundError, NotADirectoryError):
            return None
        return read_regular_file(path, MAX_SOURCE_MAP_BYTES, "source map")
    except InputError as exc:
        raise SourceMapError(f"{shown}: {exc.problem}") from None
    except (OSError, ValueError) as exc:
        raise SourceMapError(f"{shown}: cannot read ({getattr(exc, 'strerror', None) or exc})") from None


def _shown(name: str) -> str:
    """A map's name as a status shows it: at most 120 characters."""
    return name if len(name) <= 120 else f"{name[:100]}…({len(name)} characters)"


def _decoded(raw: bytes) -> SourceMap:
    """`SourceMap.from_json`, within the memory bound: an isolated scan's bound grows by
    MEMORY_PER_MAP_BYTE per byte of the map, and a map that still does not fit is unusable."""
    grow_memory_limit(MEMORY_PER_MAP_BYTE * len(raw))
    try:
        return SourceMap.from_json(raw)
    except MemoryError:
        raise SourceMapError(f"a {len(raw)}-byte map does not decode within the memory bound") from None
    except RecursionError:
        raise SourceMapError("nested too deep") from None


def _mapping_url(source: bytes) -> str | None:
    """The URL of the bundle's last `//# sourceMappingURL=` comment, when only whitespace
    follows it (an inline map can be megabytes long, so the comment is found by `rfind`)."""
    cut = source.rfind(b"sourceMappingURL=")
    opening = _OPENING.search(source, max(0, cut - 8), cut) if cut >= 0 else None
    if opening is None:
        return None
    found = _URL.match(source, cut)
    return found.group(1).decode("utf-8", "replace") if found else None


def _data_url(url: str) -> bytes:
    header, _, payload = url.partition(",")
    try:
        if header.endswith(";base64"):
            return base64.b64decode(payload, validate=False)
        return urllib.parse.unquote_to_bytes(payload)
    except (binascii.Error, ValueError) as exc:
        raise SourceMapError(f"inline map: bad data URL ({exc})") from None
