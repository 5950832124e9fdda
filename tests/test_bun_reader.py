"""The Bun executable reader, on hand-assembled ELF, Mach-O and PE files and on a real build."""

from __future__ import annotations

import mmap
import pathlib
import struct
from collections.abc import Callable
from dataclasses import dataclass, field

import pytest

from support import npm_cache

from analyzer.bundle.bun import (
    TRAILER,
    EmbeddedModule,
    is_bun_executable,
    read_bun_executable,
)
from analyzer.errors import InputError

JS, FILE, NAPI = 1, 5, 10
CJS = 2


@dataclass
class Module:
    path: str
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
            add(module.path.encode()),
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
MAIN_JS = b"// @bun @bytecode @bun-cjs\n(function(exports){throw new Error('x')})\n"


def claude_like() -> list[Module]:
    return [
        Module("/$bunfs/root/cli", MAIN_JS, bytecode=b"\xfa" * 300, extra={"origin": b"/$bunfs/x"}),
        Module("/$bunfs/root/image-processor.js", b"module.exports = 1;\n"),
        Module(
            "/$bunfs/root/image-processor.node",
            b"\x7fELF" + bytes(40),
            loader=NAPI,
            flags=(0, NAPI, 0, 1),
        ),
        Module("/$bunfs/root/mermaid.min.js", b'"use strict";var a=1;', loader=FILE),
    ]


def write(tmp_path: pathlib.Path, data: bytes, name: str = "claude") -> pathlib.Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


def input_error(path: pathlib.Path) -> InputError:
    with pytest.raises(InputError) as caught:
        read_bun_executable(path)
    assert "\n" not in str(caught.value)
    assert str(caught.value).startswith(f"{path}: ")
    return caught.value


@pytest.mark.parametrize("container", sorted(CONTAINERS))
def test_reads_every_module_with_its_facts(tmp_path: pathlib.Path, container: str) -> None:
    path = write(tmp_path, CONTAINERS[container](graph(claude_like())))
    modules = read_bun_executable(path)
    assert [m.path for m in modules] == [m.path for m in claude_like()]
    main = modules[0]
    assert main == EmbeddedModule(
        path="/$bunfs/root/cli",
        contents=MAIN_JS,
        size=len(MAIN_JS),
        loader="js",
        has_source=True,
        has_bytecode=True,
        sourcemap=None,
    )
    assert [m.loader for m in modules] == ["js", "js", "napi", "file"]
    assert not modules[1].has_bytecode


@pytest.mark.parametrize("container", sorted(CONTAINERS))
def test_older_u32_section_length_is_read(tmp_path: pathlib.Path, container: str) -> None:
    path = write(tmp_path, CONTAINERS[container](graph(claude_like()), "<I"))
    assert read_bun_executable(path)[0].contents == MAIN_JS


def test_graph_appended_to_the_end_of_an_elf_file_is_read(tmp_path: pathlib.Path) -> None:
    path = write(tmp_path, elf_appended(graph(claude_like())))
    assert read_bun_executable(path)[0].path == "/$bunfs/root/cli"


def test_windows_paths_are_kept_as_embedded(tmp_path: pathlib.Path) -> None:
    path = write(tmp_path, pe(graph([Module("B:/~BUN/root/cli", MAIN_JS)])), "claude.exe")
    assert read_bun_executable(path)[0].path == "B:/~BUN/root/cli"


def test_entry_point_comes_first_then_graph_order(tmp_path: pathlib.Path) -> None:
    modules = [
        Module("/$bunfs/root/a.js", b"a"),
        Module("/$bunfs/root/b.js", b"b"),
        Module("/$bunfs/root/c.js", b"c"),
    ]
    path = write(tmp_path, elf(graph(modules, entry_point=2)))
    assert [m.path for m in read_bun_executable(path)] == [
        "/$bunfs/root/c.js",
        "/$bunfs/root/a.js",
        "/$bunfs/root/b.js",
    ]


def test_bytecode_only_module_has_no_source(tmp_path: pathlib.Path) -> None:
    path = write(tmp_path, elf(graph([Module("/$bunfs/root/cli", b"", bytecode=b"\1" * 64)])))
    (module,) = read_bun_executable(path)
    assert (module.contents, module.size, module.has_source, module.has_bytecode) == (
        b"",
        0,
        False,
        True,
    )


def test_sourcemap_bytes_are_returned_as_stored(tmp_path: pathlib.Path) -> None:
    blob = struct.pack("<II", 0, 4) + b"AAAA"
    path = write(tmp_path, macho(graph([Module("/$bunfs/root/cli", MAIN_JS, sourcemap=blob)])))
    assert read_bun_executable(path)[0].sourcemap == blob


def test_loader_unknown_to_this_reader_is_named_by_number(tmp_path: pathlib.Path) -> None:
    module = Module("/$bunfs/root/x", b"x", flags=(0, 200, 0, 0))
    path = write(tmp_path, elf(graph([module])))
    assert read_bun_executable(path)[0].loader == "unknown-200"


@pytest.mark.parametrize("container", sorted(CONTAINERS))
def test_is_bun_executable_accepts_bytes_and_views(container: str) -> None:
    data = CONTAINERS[container](graph(claude_like()))
    assert is_bun_executable(data)
    assert is_bun_executable(memoryview(data))
    assert is_bun_executable(memoryview(bytearray(data)))


@pytest.mark.parametrize(
    "data",
    [b"", b"\x7fELF", b"MZ" + bytes(100), b"hello world", bytes(4096), b"\xcf\xfa\xed\xfe"],
    ids=["empty", "elf-magic-only", "mz-without-pe", "text", "zeros", "macho-magic-only"],
)
def test_is_bun_executable_is_false_for_other_data(data: bytes) -> None:
    assert not is_bun_executable(data)


def test_plain_executable_is_not_a_bun_executable(tmp_path: pathlib.Path) -> None:
    plain = elf(b"")[:-64]  # drop the .bun section header: a plain ELF
    plain = plain[:0x3C] + struct.pack("<H", 2) + plain[0x3E:]
    assert not is_bun_executable(plain)
    assert "not a Bun executable" in input_error(write(tmp_path, plain)).problem


@pytest.mark.parametrize("container", sorted(CONTAINERS))
@pytest.mark.parametrize("keep", [0.0, 0.1, 0.5, 0.9, 0.999])
def test_truncated_file_raises_input_error(
    tmp_path: pathlib.Path, container: str, keep: float
) -> None:
    data = CONTAINERS[container](graph(claude_like()))
    cut = data[: max(1, int(len(data) * keep))]
    input_error(write(tmp_path, cut))
    assert not is_bun_executable(cut)


def test_empty_missing_and_directory_paths_raise_input_error(tmp_path: pathlib.Path) -> None:
    assert "empty file" in input_error(write(tmp_path, b"")).problem
    assert "cannot read" in input_error(tmp_path / "absent").problem
    assert "cannot read" in input_error(tmp_path).problem


def test_section_running_past_the_file_end_is_reported(tmp_path: pathlib.Path) -> None:
    data = elf(graph(claude_like()))
    table_at = struct.unpack_from("<Q", data, 0x28)[0]
    bun_header = table_at + 2 * 64
    corrupt = bytearray(data)
    struct.pack_into("<Q", corrupt, bun_header + 32, 10**9)  # sh_size
    assert "runs past the end" in input_error(write(tmp_path, bytes(corrupt))).problem


def patch_offsets(data: bytes, **fields: int) -> bytes:
    """Rewrite Offsets fields of the graph that ends data (after the container)."""
    names = (
        "byte_count",
        "table_offset",
        "table_length",
        "entry_point",
        "argv",
        "argv_len",
        "flags",
    )
    end = data.rindex(TRAILER)
    values = dict(zip(names, struct.unpack_from("<QIIIIII", data, end - 32), strict=True))
    values.update(fields)
    return data[: end - 32] + struct.pack("<QIIIIII", *values.values()) + data[end:]


@pytest.mark.parametrize(
    ("fields", "problem"),
    [
        ({"byte_count": 7}, "Offsets says 7"),
        ({"table_length": 51}, "not a whole number of 52-byte entries"),
        ({"table_length": 0}, "not a whole number"),
        ({"table_offset": 10**6}, "module table"),
        ({"entry_point": 4}, "entry point 4 is outside the 4-module table"),
    ],
)
def test_corrupt_offsets_raise_input_error(
    tmp_path: pathlib.Path, fields: dict[str, int], problem: str
) -> None:
    data = patch_offsets(elf(graph(claude_like())), **fields)
    assert problem in input_error(write(tmp_path, data)).problem


def patch_module(data: bytes, index: int, offset: int, raw: bytes) -> bytes:
    end = data.rindex(TRAILER)
    byte_count, table_offset = struct.unpack_from("<QI", data, end - 32)
    at = end - 32 - byte_count + table_offset + index * 52 + offset
    return data[:at] + raw + data[at + len(raw) :]


@pytest.mark.parametrize(
    ("offset", "raw", "problem"),
    [
        (0, struct.pack("<II", 10**6, 5), "module 1 name"),
        (12, struct.pack("<I", 10**6), "module 1 contents"),
        (4, struct.pack("<I", 0), "module 1 has an empty name"),
        (4, struct.pack("<I", 3), "module 1 name is not NUL-terminated"),
        (48, bytes([9]), "encoding=9"),
        (50, bytes([7]), "format=7"),
    ],
)
def test_corrupt_module_entry_raises_input_error(
    tmp_path: pathlib.Path, offset: int, raw: bytes, problem: str
) -> None:
    data = patch_module(macho(graph(claude_like())), 1, offset, raw)
    assert problem in input_error(write(tmp_path, data)).problem


def test_name_that_is_not_utf8_raises_input_error(tmp_path: pathlib.Path) -> None:
    data = elf(graph([Module("/$bunfs/root/zzz", b"x")]).replace(b"zzz", b"\xff\xfe\xfd"))
    assert "not UTF-8" in input_error(write(tmp_path, data)).problem


def bun_1_2_graph(count: int) -> bytes:
    """Bun 1.2 layout: 36-byte modules (4 pointers, 4 flag bytes), 32-byte Offsets."""
    data = bytearray()
    records = []
    for index in range(count):
        name = f"/$bunfs/root/m{index}.js".encode()
        name_at = len(data)
        data.extend(name + b"\0")
        body_at = len(data)
        data.extend(b"x=1\0")
        records.append(struct.pack("<8I4B", name_at, len(name), body_at, 3, 0, 0, 0, 0, 1, 1, 2, 0))
    table_at = len(data)
    data.extend(b"".join(records))
    data.extend(b"\0")
    offsets = struct.pack("<QIIIIII", len(data), table_at, 36 * count, 0, len(data) - 1, 0, 0)
    return bytes(data) + offsets + TRAILER


@pytest.mark.parametrize("count", [1, 13])
def test_older_bun_layout_is_refused_clearly(tmp_path: pathlib.Path, count: int) -> None:
    # 13 x 36 bytes == 9 x 52 bytes: the table size alone cannot tell the layouts apart
    problem = input_error(write(tmp_path, elf(bun_1_2_graph(count)))).problem
    assert "unsupported Bun version" in problem


@pytest.mark.parametrize("container", sorted(CONTAINERS))
def test_any_single_corrupt_byte_gives_modules_or_input_error(
    tmp_path: pathlib.Path, container: str
) -> None:
    data = CONTAINERS[container](graph(claude_like()))
    path = tmp_path / "claude"
    for at in range(len(data)):
        for value in (0x00, 0xFF):
            path.write_bytes(data[:at] + bytes([value]) + data[at + 1 :])
            try:
                modules = read_bun_executable(path)
            except InputError as error:
                assert "\n" not in str(error)
            else:
                assert all(isinstance(m, EmbeddedModule) for m in modules)


@pytest.mark.network
def test_real_claude_code_linux_build_has_main_javascript_over_20_mb() -> None:
    REAL_LINUX = npm_cache.main_file("@anthropic-ai/claude-code-linux-x64", "2.1.235")
    with (
        open(REAL_LINUX, "rb") as file,
        mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ) as mapped,
        memoryview(mapped) as view,
    ):
        assert is_bun_executable(view)
    modules = read_bun_executable(REAL_LINUX)
    main = modules[0]
    assert main.path == "/$bunfs/root/cli"
    assert main.loader == "js" and main.has_source and main.has_bytecode
    assert main.size == len(main.contents) > 20_000_000
    assert main.contents.startswith(b"// @bun @bytecode @bun-cjs\n")
    assert {m.path for m in modules} >= {"/$bunfs/root/image-processor.js"}
