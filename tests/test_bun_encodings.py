"""Modules a Bun executable stores as UTF-16 or Latin-1 text (docs/reference.md, "Bun executables"):
Bun 1.4.4 writes a module it cannot hold in 8 bits as UTF-16LE (encoding 2), as opencode 1.19.5's
`chunk-9ggzvbn0.js` and its prompts are. Such an executable was refused whole ('binary data (NUL
byte at offset 1)'); its modules are scanned and extracted as their text, in UTF-8."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from conftest import records, run
from support import npm_cache
from support.bunexe import CJS, JS, Module, elf, graph

from analyzer.bundle.bun import read_bun_executable, text_bytes

TEXT = 13  # Bun's `text` loader
UTF16_JS = ('function f(x){if(!x)throw new Error("\u2192 not ready");return x}\n'
            'function g(){throw new TypeError("caf\u00e9")}\n')
LATIN1_JS = 'function h(){throw new RangeError("na\u00efve")}\n'
PROMPT = "You are a reviewer \u2014 be brief.\n"


def _executable(tmp_path: Path, *extra: Module) -> Path:
    path = tmp_path / "app"
    path.write_bytes(elf(graph([
        Module("/$bunfs/root/cli", b'import "./u16.js";import "./l1.js";throw new Error("plain")\n'),
        Module("/$bunfs/root/u16.js", UTF16_JS.encode("utf-16-le"), flags=(2, JS, CJS, 0)),
        Module("/$bunfs/root/l1.js", LATIN1_JS.encode("latin-1"), flags=(1, JS, CJS, 0)),
        Module("/$bunfs/root/prompt.txt", PROMPT.encode("utf-16-le"), loader=TEXT, flags=(2, TEXT, 0, 0)),
        *extra,
    ])))
    return path


def test_the_reader_gives_each_module_its_encoding_and_text(tmp_path: Path) -> None:
    modules = {m.path: m for m in read_bun_executable(_executable(tmp_path))}
    assert {p: m.encoding for p, m in modules.items()} == {
        "/$bunfs/root/cli": "latin1", "/$bunfs/root/u16.js": "utf16", "/$bunfs/root/l1.js": "latin1",
        "/$bunfs/root/prompt.txt": "utf16"}
    assert text_bytes(modules["/$bunfs/root/u16.js"]) == UTF16_JS.encode("utf-8")
    assert text_bytes(modules["/$bunfs/root/l1.js"]) == LATIN1_JS.encode("utf-8")
    assert text_bytes(modules["/$bunfs/root/cli"]) is modules["/$bunfs/root/cli"].contents  # ASCII: no copy


def test_a_scan_reads_utf16_and_latin1_modules_as_their_text(tmp_path: Path) -> None:
    executable = _executable(tmp_path)
    scanned = run("scan", executable, "--out", tmp_path / "out")
    assert scanned.returncode == 0, scanned.stderr
    found = {(r["unit"], r["message"]["text"]): r for r in records(tmp_path / "out", "error")}  # type: ignore[index]
    assert set(found) == {("/$bunfs/root/cli", "plain"), ("/$bunfs/root/u16.js", "\u2192 not ready"),
                          ("/$bunfs/root/u16.js", "caf\u00e9"), ("/$bunfs/root/l1.js", "na\u00efve")}
    extracted = run("extract", executable, "--out", tmp_path / "x")
    assert extracted.returncode == 0, extracted.stderr
    manifest = {m["path"]: m for m in json.loads((tmp_path / "x" / "manifest.json").read_text())["modules"]}
    for path, text, encoding in (("/$bunfs/root/u16.js", UTF16_JS, "utf16"),
                                 ("/$bunfs/root/l1.js", LATIN1_JS, "latin1"),
                                 ("/$bunfs/root/prompt.txt", PROMPT, "utf16")):
        row = manifest[path]
        written = (tmp_path / "x" / row["file"]).read_bytes()
        assert written == text.encode("utf-8")
        assert (row["encoding"], row["size"]) == (encoding, len(written))
        assert row["sha256"] == hashlib.sha256(written).hexdigest()
        assert row["storedSize"] == len(text.encode("utf-16-le" if encoding == "utf16" else "latin-1"))
    # each record's offsets are bytes of the module's UTF-8 text, the file `extract` writes
    u16 = (tmp_path / "x" / manifest["/$bunfs/root/u16.js"]["file"]).read_bytes()
    record = found[("/$bunfs/root/u16.js", "\u2192 not ready")]
    assert u16[record["offset"]:record["endOffset"]].decode() == 'new Error("\u2192 not ready")'  # type: ignore[misc]


def test_utf16_contents_of_an_odd_length_are_refused_in_one_line(tmp_path: Path) -> None:
    executable = _executable(tmp_path, Module("/$bunfs/root/cut.js", b"t\x00h\x00r", flags=(2, JS, CJS, 0)))
    refused = run("scan", executable, "--out", tmp_path / "out")
    assert refused.returncode == 2
    assert refused.stderr == (f"erratlas: error: {executable}: module 4 contents are UTF-16 of an odd length "
                              "(5 bytes); corrupt graph\n")
    assert not (tmp_path / "out").exists()


@pytest.mark.network
@pytest.mark.long
def test_opencode_a_bun_1_4_4_executable_with_a_utf16_module(tmp_path: Path) -> None:
    """opencode 1.19.5 (Bun 1.4.4, 341 JavaScript modules, code split): its UTF-16 chunk holds 288
    error callsites, as many as ast-grep finds in the extracted file."""
    binary = npm_cache.main_file("opencode-linux-x64", "1.19.5")
    scanned = run("scan", binary, "--out", tmp_path / "out", timeout=1800)
    assert scanned.returncode == 0, scanned.stderr
    units = [r["unit"] for r in records(tmp_path / "out", "error")]
    assert units.count("/$bunfs/root/chunk-9ggzvbn0.js") == 288
