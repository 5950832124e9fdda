"""Bun single-file executables assembled by hand: the module graph as Bun 1.3-1.4 writes it,
in an ELF, Mach-O or PE container (for the reader's tests and the fuzzing harness)."""

from __future__ import annotations

import struct
from collections.abc import Callable
from dataclasses import dataclass, field

from analyzer.bundle.bun import TRAILER

JS, FILE, NAPI = 1, 5, 10
CJS = 2


@dataclass
class Module:
    #: the embedded name: text (written as UTF-8) or any bytes
    path: str | bytes
    contents: bytes = b""
    loader: int = JS
    bytecode: bytes = b""
    sourcemap: bytes = b""
    flags: tuple[int, int, int, int] | None = None  # encoding, loader, format, side
    extra: dict[str, bytes] = field(default_factory=dict)


def graph(modules: list[Module], entry_point: int = 0) -> bytes:
    """The module graph as Bun 1.3-1.4 writes it: data, Offsets, trailer."""
    data = bytearray()

    def add(raw: bytes, nul: bool = True) -> tuple[int, int]:
        if not raw:
            return 0, 0
        offset = len(data)
        data.extend(raw + (b"\0" if nul else b""))
        return offset, len(raw)

    records = []
    for module in modules:
        pointers = (
            add(module.path.encode() if isinstance(module.path, str) else module.path),
            add(module.contents),
            add(module.sourcemap, nul=False),
            add(module.bytecode, nul=False),
            (0, 0),
            add(module.extra.get("origin", b"")),
        )
        flags = module.flags or (1 if module.loader == JS else 0, module.loader, CJS, 0)
        records.append(struct.pack("<12I4B", *(n for p in pointers for n in p), *flags))
    table = b"".join(records)
    table_offset = len(data)
    data.extend(table)
    argv_offset = len(data)
    data.extend(b"\0")
    offsets = struct.pack(
        "<QIIIIII", len(data), table_offset, len(table), entry_point, argv_offset, 0, 0
    )
    return bytes(data) + offsets + TRAILER


def section(payload: bytes, header: str = "<Q") -> bytes:
    return struct.pack(header, len(payload)) + payload


def elf(payload: bytes, header: str = "<Q") -> bytes:
    """ELF64: header, .shstrtab, .bun, then the section header table."""
    names = b"\0.shstrtab\0.bun\0"
    body = section(payload, header)
    names_at = 64
    bun_at = names_at + len(names)
    table_at = bun_at + len(body)
    ident = b"\x7fELF" + bytes([2, 1, 1]) + bytes(9)
    head = ident + struct.pack("<HHIQQQIHHHHHH", 2, 62, 1, 0, 0, table_at, 0, 64, 0, 0, 64, 3, 1)
    null = bytes(64)
    shstrtab = struct.pack("<IIQQQQIIQQ", 1, 3, 0, 0, names_at, len(names), 0, 0, 1, 0)
    bun = struct.pack("<IIQQQQIIQQ", 11, 1, 3, 0, bun_at, len(body), 0, 0, 16384, 0)
    return head + names + body + null + shstrtab + bun


def elf_appended(payload: bytes) -> bytes:
    """Older Bun on Linux: the graph after the executable, then the file size as u64."""
    ident = b"\x7fELF" + bytes([2, 1, 1]) + bytes(9)
    head = ident + struct.pack("<HHIQQQIHHHHHH", 2, 62, 1, 0, 0, 0, 0, 64, 0, 0, 64, 0, 0)
    body = head + bytes(4096) + payload
    return body + struct.pack("<Q", len(body) + 8)


def macho(payload: bytes, header: str = "<Q") -> bytes:
    """Mach-O 64: one LC_SEGMENT_64 __BUN with the section __bun."""
    body = section(payload, header)
    commands_size = 72 + 80
    data_at = 32 + commands_size
    head = struct.pack("<IiiIIIII", 0xFEEDFACF, 0x0100000C, 0, 2, 1, commands_size, 0, 0)
    segment = struct.pack(
        "<II16sQQQQiiII",
        0x19,
        commands_size,
        b"__BUN",
        0,
        len(body),
        data_at,
        len(body),
        1,
        1,
        1,
        0,
    )
    sect = struct.pack(
        "<16s16sQQIIIIIIII", b"__bun", b"__BUN", 0, len(body), data_at, 0, 0, 0, 0, 0, 0, 0
    )
    return head + segment + sect + body


def pe(payload: bytes, header: str = "<Q") -> bytes:
    """PE32+: DOS stub, COFF header, optional header, one .bun section."""
    body = section(payload, header)
    raw_size = (len(body) + 0x1FF) // 0x200 * 0x200
    dos = b"MZ" + bytes(0x3A) + struct.pack("<I", 0x40)
    coff = b"PE\0\0" + struct.pack("<HHIIIHH", 0x8664, 1, 0, 0, 0, 0xF0, 0x22)
    optional = struct.pack("<H", 0x20B) + bytes(0xF0 - 2)
    headers_end = 0x40 + len(coff) + len(optional) + 40
    raw_at = (headers_end + 0x1FF) // 0x200 * 0x200
    bun = b".bun\0\0\0\0" + struct.pack(
        "<IIIIIIHHI", len(body), 0x1000, raw_size, raw_at, 0, 0, 0, 0, 0x40000040
    )
    head = dos + coff + optional + bun
    return head + bytes(raw_at - len(head)) + body + bytes(raw_size - len(body))


CONTAINERS: dict[str, Callable[..., bytes]] = {"elf": elf, "macho": macho, "pe": pe}
