"""The Bun executable reader, on hand-assembled ELF, Mach-O and PE files and on a real build."""

from __future__ import annotations

import mmap
import pathlib
import struct

import pytest
from support import npm_cache
from support.bunexe import (
    CONTAINERS,
    FILE,
    NAPI,
    Module,
    elf,
    elf_appended,
    graph,
    macho,
    pe,
)

from analyzer.bundle.bun import (
    TRAILER,
    EmbeddedModule,
    is_bun_executable,
    read_bun_executable,
)
from analyzer.errors import InputError

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
        encoding="latin1",
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


def test_name_that_is_not_utf8_is_kept_with_its_other_bytes_escaped(tmp_path: pathlib.Path) -> None:
    data = elf(graph([Module(b"/$bunfs/root/\xff\xfe.js", b"x")]))
    assert read_bun_executable(write(tmp_path, data))[0].path == "/$bunfs/root/\\xff\\xfe.js"


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
