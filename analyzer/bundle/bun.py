"""Bun single-file executables: find and read the embedded standalone module graph (`bun build
--compile`) in an ELF, Mach-O or PE file. The layout read is Bun 1.3.13 to 1.4.4's
(docs/reference.md, "Bun executables"); older layouts are refused with a clear message rather
than guessed at."""

from __future__ import annotations

import mmap
import os
import pathlib
import struct
from collections.abc import Callable
from dataclasses import dataclass

from analyzer.errors import InputError

TRAILER = b"\n---- Bun! ----\n"

#: what the reader accepts: bytes, a view of them, or a read-only mapping of the file
Buffer = bytes | memoryview | mmap.mmap

#: `bun.options.Loader`, Bun 1.3+ (jsonc sits at 7; js=1, file=5, napi=10 checked on real files)
LOADERS = (
    "jsx", "js", "ts", "tsx", "css", "file", "json", "jsonc", "toml", "wasm", "napi",
    "base64", "dataurl", "text", "bunsh", "sqlite", "sqlite_embedded", "html", "yaml",
    "json5", "md",
)  # fmt: skip

#: `StandaloneModuleGraph.Encoding`: how Bun stored a module's contents. Bun writes JavaScript it
#: can hold in 8 bits as `latin1`, and from Bun 1.4.4 text it cannot (`\u2192`, a prompt's em dash)
#: as UTF-16LE under 2 (which Bun 1.3 named `utf8` and never wrote); assets are `binary`
ENCODINGS = ("binary", "latin1", "utf16")

_U16x3 = struct.Struct("<HHH")
_U32 = struct.Struct("<I")
_U64 = struct.Struct("<Q")
_OFFSETS = struct.Struct("<QIIIIII")
_MODULE = struct.Struct("<12I4B")
_POINTERS = ("name", "contents", "sourcemap", "bytecode", "module_info", "bytecode_origin_path")
_ELF_SECTION = struct.Struct("<IIQQQQIIQQ")
_MACHO_SEGMENT_64 = 0x19
_UNSUPPORTED = "unsupported Bun version (this reader knows the Bun 1.3-1.4 layout)"


@dataclass(frozen=True, slots=True)
class EmbeddedModule:
    """One file of the module graph, as Bun stored it."""

    #: embedded path, e.g. "/$bunfs/root/cli" or "B:/~BUN/root/cli"
    path: str
    #: source bytes; empty when the module carries only bytecode
    contents: bytes
    #: length of `contents` in bytes
    size: int
    #: how Bun stored `contents`: one of ENCODINGS
    encoding: str
    #: Bun loader name: "js", "file", "napi", ...; "unknown-N" for a value Bun has not named
    loader: str
    #: the module carries source text
    has_source: bool
    #: the module carries JavaScriptCore bytecode (not read: it can be hundreds of MB)
    has_bytecode: bool
    #: Bun's serialized source map (binary header, zstd-compressed sources), not JSON
    sourcemap: bytes | None


class _Malformed(Exception):
    """A structural problem: InputError when reading, False when sniffing."""


@dataclass(frozen=True, slots=True)
class _Region:
    """Where the graph lies: `end` is just past the trailer; `start` when a section says."""

    start: int | None
    end: int
    where: str


@dataclass(frozen=True, slots=True)
class _GraphData:
    """The `data` part of the graph, which every StringPointer is relative to."""

    buf: Buffer
    start: int
    byte_count: int

    def check(self, offset: int, length: int, what: str, hint: str = "") -> None:
        if length and offset + length > self.byte_count:
            raise _Malformed(
                f"{what} ({offset}+{length}) runs past the {self.byte_count}-byte graph{hint}"
            )

    def require_nul(self, offset: int, length: int, what: str) -> None:
        end = offset + length
        if end >= self.byte_count or self.buf[self.start + end] != 0:
            raise _Malformed(f"{what} is not NUL-terminated; {_UNSUPPORTED} or corrupt graph")

    def take(self, offset: int, length: int) -> bytes:
        return _slice(self.buf, self.start + offset, self.start + offset + length)


def is_bun_executable(data: bytes | memoryview) -> bool:
    """True when `data` has a Bun module graph trailer where its container puts the graph.

    Only headers and the trailer are looked at; the graph itself is not validated.
    """
    buf = data if isinstance(data, bytes) else memoryview(data).cast("B")
    try:
        _locate(buf)
    except _Malformed:
        return False
    return True


def read_bun_executable(path: pathlib.Path) -> list[EmbeddedModule]:
    """The modules of the executable at `path`: the entry point first, then graph order.

    Raises InputError with a one-line problem for anything unreadable or malformed.
    """
    try:
        with open(path, "rb") as file:
            if os.fstat(file.fileno()).st_size == 0:
                raise InputError(path, "empty file, not a Bun executable")
            with mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ) as mapped:
                return _read_graph(mapped)
    except _Malformed as problem:
        raise InputError(path, str(problem)) from None
    except OSError as error:
        raise InputError(path, f"cannot read: {error.strerror or error}") from None


def _read_graph(buf: Buffer) -> list[EmbeddedModule]:
    """The modules of an executable already in memory; raises _Malformed."""
    try:
        return _parse_graph(buf, _locate(buf))
    except (struct.error, IndexError, ValueError, OverflowError) as error:
        # bounds are checked before every read; this only keeps a missed case one line long
        raise _Malformed(f"malformed Bun module graph ({type(error).__name__}: {error})") from None


def _locate(buf: Buffer) -> _Region:
    head = _slice(buf, 0, 4)
    for magic, where, find_section in _CONTAINERS:
        if head.startswith(magic):
            section = find_section(buf)
            if section is not None:
                return _section_region(buf, section, where)
            break
    return _appended_region(buf)


def _section_region(buf: Buffer, section: tuple[int, int], where: str) -> _Region:
    offset, size = section
    if offset + size > len(buf):
        raise _Malformed(f"{where} runs past the end of the file, to byte {offset + size} (truncated? the file ends "
                         f"at {len(buf)} bytes)")
    for header in (_U64, _U32):
        if size < header.size:
            continue
        (length,) = header.unpack_from(buf, offset)
        start = offset + header.size
        end = start + length
        fits = len(TRAILER) <= length and end <= offset + size
        if fits and _slice(buf, end - len(TRAILER), end) == TRAILER:
            return _Region(start=start, end=end, where=where)
    raise _Malformed(f"{where} holds no module graph trailer (truncated or corrupt)")


def _appended_region(buf: Buffer) -> _Region:
    size = len(buf)
    end = size - _U64.size
    if end < len(TRAILER) or _slice(buf, end - len(TRAILER), end) != TRAILER:
        raise _Malformed("not a Bun executable: no Bun section and no module graph trailer "
                         f"({TRAILER.strip().decode()!r})")
    return _Region(start=None, end=end, where="graph appended to the file")


def _parse_graph(buf: Buffer, region: _Region) -> list[EmbeddedModule]:
    at = region.end - len(TRAILER) - _OFFSETS.size
    byte_count, table_offset, table_length, entry_point, *_ = _unpack(
        _OFFSETS, buf, at, "module graph offsets"
    )
    start = at - byte_count
    if region.start is not None and start != region.start:
        held = region.end - region.start
        raise _Malformed(
            f"{region.where} holds {held} bytes but Offsets says {byte_count}"
            f" + {_OFFSETS.size + len(TRAILER)}; {_UNSUPPORTED} or corrupt graph"
        )
    if start < 0:
        raise _Malformed(f"module graph of {byte_count} bytes is larger than the file (truncated?)")
    data = _GraphData(buf, start, byte_count)
    data.check(table_offset, table_length, "module table")
    if table_length == 0 or table_length % _MODULE.size:
        raise _Malformed(
            f"module table of {table_length} bytes is not a whole number of"
            f" {_MODULE.size}-byte entries; {_UNSUPPORTED}"
        )
    count = table_length // _MODULE.size
    if entry_point >= count:
        raise _Malformed(f"entry point {entry_point} is outside the {count}-module table")
    first = start + table_offset
    order = [entry_point, *(index for index in range(count) if index != entry_point)]
    return [_read_module(data, first + index * _MODULE.size, index) for index in order]


def _read_module(data: _GraphData, at: int, index: int) -> EmbeddedModule:
    fields = _MODULE.unpack_from(data.buf, at)
    pointers = dict(zip(_POINTERS, zip(fields[0:12:2], fields[1:12:2], strict=True), strict=True))
    encoding, loader, module_format, side = fields[12:]
    what = f"module {index}"
    for name, (offset, length) in pointers.items():
        data.check(offset, length, f"{what} {name}", f"; {_UNSUPPORTED} or corrupt graph")
    if encoding > 2 or module_format > 2 or side > 1:
        raise _Malformed(
            f"{what} has flags encoding={encoding} format={module_format} side={side};"
            f" {_UNSUPPORTED} or corrupt graph"
        )
    name_offset, name_length = pointers["name"]
    if name_length == 0:
        raise _Malformed(f"{what} has an empty name")
    data.require_nul(name_offset, name_length, f"{what} name")
    contents_offset, contents_length = pointers["contents"]
    if contents_length:
        data.require_nul(contents_offset, contents_length, f"{what} contents")
    if ENCODINGS[encoding] == "utf16" and contents_length % 2:
        raise _Malformed(f"{what} contents are UTF-16 of an odd length ({contents_length} bytes); corrupt graph")
    return EmbeddedModule(
        path=decode_name(data.take(name_offset, name_length)),
        contents=data.take(contents_offset, contents_length),
        size=contents_length,
        encoding=ENCODINGS[encoding],
        loader=LOADERS[loader] if loader < len(LOADERS) else f"unknown-{loader}",
        has_source=contents_length > 0,
        has_bytecode=pointers["bytecode"][1] > 0,
        sourcemap=data.take(*pointers["sourcemap"]) if pointers["sourcemap"][1] else None,
    )


def text_bytes(module: EmbeddedModule) -> bytes:
    """A module's contents as the text Bun runs, in UTF-8: UTF-16 and Latin-1 contents are
    transcoded (an ASCII Latin-1 module, all of JavaScript's until Bun 1.4.4, is its bytes);
    `binary` contents are their bytes, which Bun reads as UTF-8 (docs/reference.md, "Bun
    executables")."""
    if module.encoding == "utf16":
        return module.contents.decode("utf-16-le", "surrogatepass").encode("utf-8", "surrogatepass")
    if module.encoding == "latin1" and not module.contents.isascii():
        return module.contents.decode("latin-1").encode("utf-8")
    return module.contents


def decode_name(raw: bytes) -> str:
    """An embedded or file name as text: its UTF-8, with each byte that is not UTF-8 written
    `\\xNN` (Python's `backslashreplace`), so that such a name is kept, readably, in every record
    and JSON file (a name is bytes to the file system and to Bun)."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("utf-8", "backslashreplace")


def _elf_bun_section(buf: Buffer) -> tuple[int, int] | None:
    ident = _slice(buf, 0, 16)
    if len(ident) < 16:
        raise _Malformed(f"truncated ELF header: the file ends at {len(buf)} bytes")
    if ident[4] != 2 or ident[5] != 1:
        raise _Malformed("ELF file is not 64-bit little-endian, which Bun always builds")
    (table,) = _unpack(_U64, buf, 0x28, "ELF header")
    entry_size, count, names_index = _unpack(_U16x3, buf, 0x3A, "ELF header")
    if table == 0 or count == 0:
        return None
    if entry_size < _ELF_SECTION.size or names_index >= count:
        raise _Malformed("ELF section header table is malformed")
    sections = [
        _unpack(_ELF_SECTION, buf, table + index * entry_size, "ELF section header")
        for index in range(count)
    ]
    names_offset, names_size = sections[names_index][4:6]
    for section in sections:
        name = _cstring(buf, names_offset + section[0], names_offset + names_size)
        if name == b".bun":
            return section[4], section[5]
    return None


def _macho_bun_section(buf: Buffer) -> tuple[int, int] | None:
    (command_count,) = _unpack(_U32, buf, 16, "Mach-O header")
    at = 32
    for _ in range(command_count):
        command, command_size = _unpack(struct.Struct("<II"), buf, at, "Mach-O load command")
        if command_size < 8:
            raise _Malformed(f"Mach-O load command at offset {at} has size {command_size}")
        if (
            command == _MACHO_SEGMENT_64
            and _fixed_name(buf, at + 8, 16, "Mach-O load command") == b"__BUN"
        ):
            return _macho_section(buf, at)
        at += command_size
    return None


def _macho_section(buf: Buffer, segment: int) -> tuple[int, int] | None:
    (section_count,) = _unpack(_U32, buf, segment + 64, "Mach-O __BUN segment")
    for index in range(section_count):
        at = segment + 72 + index * 80
        if _fixed_name(buf, at, 16, "Mach-O section header") == b"__bun":
            (size,) = _unpack(_U64, buf, at + 40, "Mach-O __bun section")
            (offset,) = _unpack(_U32, buf, at + 48, "Mach-O __bun section")
            return offset, size
    return None


def _pe_bun_section(buf: Buffer) -> tuple[int, int] | None:
    (header,) = _unpack(_U32, buf, 0x3C, "DOS header")
    if _slice(buf, header, header + 4) != b"PE\0\0":
        raise _Malformed("MZ file without a PE signature")
    (section_count,) = _unpack(struct.Struct("<H"), buf, header + 6, "PE file header")
    (optional_size,) = _unpack(struct.Struct("<H"), buf, header + 20, "PE file header")
    table = header + 24 + optional_size
    for index in range(section_count):
        at = table + index * 40
        if _fixed_name(buf, at, 8, "PE section header") == b".bun":
            raw_size, raw_offset = _unpack(struct.Struct("<II"), buf, at + 16, "PE section")
            return raw_offset, raw_size
    return None


_CONTAINERS: tuple[tuple[bytes, str, Callable[[Buffer], tuple[int, int] | None]], ...] = (
    (b"\x7fELF", "ELF section .bun", _elf_bun_section),
    (b"\xcf\xfa\xed\xfe", "Mach-O section __BUN,__bun", _macho_bun_section),
    (b"MZ", "PE section .bun", _pe_bun_section),
)


def _unpack(layout: struct.Struct, buf: Buffer, offset: int, what: str) -> tuple[int, ...]:
    if offset < 0 or offset + layout.size > len(buf):
        raise _Malformed(f"truncated {what} at offset {offset}: the file ends at {len(buf)} bytes")
    return layout.unpack_from(buf, offset)


def _slice(buf: Buffer, start: int, end: int) -> bytes:
    return bytes(buf[start:end])


def _fixed_name(buf: Buffer, at: int, width: int, what: str) -> bytes:
    raw = _slice(buf, at, at + width)
    if len(raw) < width:
        raise _Malformed(f"truncated {what} at offset {at}: the file ends at {len(buf)} bytes")
    return raw.rstrip(b"\0")


def _cstring(buf: Buffer, start: int, limit: int) -> bytes:
    raw = _slice(buf, start, min(limit, start + 256))
    return raw.split(b"\0", 1)[0]
