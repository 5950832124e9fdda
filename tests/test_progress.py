"""Issue 15: progress that tells the truth. On a terminal, `scan` and `suggest` show their
phases with rich (a bar in bytes while the bundle is parsed); when stderr is not a terminal,
nothing but the final line. Both driven through the installed command, the terminal through a
pseudo-terminal."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import FIXTURES, erratlas_command, run


def on_a_terminal(*args: object) -> tuple[int, str]:
    """Run erratlas with its stderr on a pseudo-terminal; (exit status, what the terminal got)."""
    primary, secondary = pty.openpty()
    env = {**os.environ, "COLUMNS": "120", "TERM": "xterm-256color"}
    env.pop("ERRATLAS_DEBUG", None)
    process = subprocess.Popen([erratlas_command(), *map(str, args)], stdout=subprocess.DEVNULL, stderr=secondary,
                               env=env)
    os.close(secondary)
    chunks = []
    while True:
        try:
            data = os.read(primary, 65536)
        except OSError:  # every writer closed its end
            break
        if not data:
            break
        chunks.append(data)
    os.close(primary)
    return process.wait(timeout=600), b"".join(chunks).decode("utf-8", "replace")


def test_scan_on_a_terminal_shows_its_phases_and_a_byte_bar(tmp_path: Path) -> None:
    bundle = tmp_path / "big.js"
    demo = (FIXTURES / "demo" / "demo.cjs.min.js").read_bytes()
    bundle.write_bytes(b"\n".join([b"(function(){" + demo + b"})();"] * 40))  # parsed in several reads
    status, screen = on_a_terminal("scan", bundle, "--out", tmp_path / "out")
    assert status == 0, screen
    assert "\x1b[" in screen  # drawn by rich
    for phase in ("reading big.js", "parsing", "finding callsites in big.js", "making reports", "writing"):
        assert phase in screen, phase
    size = bundle.stat().st_size / 1e6
    assert f"/{size:.1f} MB" in screen  # the parse's bar is measured in bytes
    assert screen.rstrip().splitlines()[-1].startswith("erratlas: big.js: ")


def test_scan_and_suggest_print_only_their_final_line_when_not_on_a_terminal(tmp_path: Path, demo_bundle: Path) -> None:
    result = run("scan", demo_bundle, "--out", tmp_path / "out")
    assert result.returncode == 0
    assert len(result.stderr.splitlines()) == 1 and result.stderr.startswith("erratlas: demo.min.js: ")
    assert "\x1b" not in result.stderr
    result = run("suggest", tmp_path / "out")
    assert result.returncode == 0
    assert len(result.stderr.splitlines()) == 1 and " suggestions (exact " in result.stderr


def test_suggest_on_a_terminal_shows_its_phases(tmp_path: Path, demo_bundle: Path) -> None:
    assert run("scan", demo_bundle, "--out", tmp_path / "out").returncode == 0
    status, screen = on_a_terminal("suggest", tmp_path / "out")
    assert status == 0, screen
    assert "\x1b[" in screen and "reading and verifying" in screen and "suggesting owners" in screen
    assert screen.rstrip().splitlines()[-1].startswith("erratlas: ")


def test_a_trace_line_is_one_write(monkeypatch: pytest.MonkeyPatch) -> None:
    """The scan's processes share stderr: each trace line, newline included, is one write, so
    that lines never interleave mid-line (two writes did, under load, in the parser-crash test)."""
    from analyzer import trace

    writes: list[str] = []

    class Recorder:
        def write(self, text: str) -> int:
            writes.append(text)
            return len(text)

        def flush(self) -> None:
            pass

    monkeypatch.setattr(trace, "_ON", True)
    monkeypatch.setattr(sys, "stderr", Recorder())
    trace.mark("a stage")
    assert len(writes) == 1 and writes[0].startswith("erratlas-trace ") and writes[0].endswith(" a stage\n")
