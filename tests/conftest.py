"""Shared helpers: every user-visible behaviour is driven through the installed `erratlas`."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
SUMMARY = "error-diagnostic-owner-summary.json"


def erratlas_command() -> str:
    beside = Path(sys.executable).parent / "erratlas"
    found = str(beside) if beside.exists() else shutil.which("erratlas")
    if found is None:
        raise RuntimeError("the erratlas command is not installed (pip install -e '.[test]')")
    return found


def ast_grep_command() -> str:
    beside = Path(sys.executable).parent / "ast-grep"
    found = str(beside) if beside.exists() else shutil.which("ast-grep")
    if found is None:
        raise RuntimeError("ast-grep is not installed (pip install ast-grep-cli)")
    return found


def run(*args: object, timeout: float = 600, **kwargs: object) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "ERRATLAS_DEBUG"}
    return subprocess.run(
        [erratlas_command(), *map(str, args)],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
        **kwargs,  # type: ignore[arg-type]
    )


def scan(bundle: Path, out: Path, *extra: object) -> dict[str, object]:
    result = run("scan", bundle, "--out", out, *extra)
    assert result.returncode == 0, result.stderr
    return json.loads((out / SUMMARY).read_text())


def records(out: Path, kind: str) -> list[dict[str, object]]:
    path = out / f"{kind}-message-callsites.jsonl"
    return [json.loads(line) for line in path.read_text(encoding="utf-8").split("\n") if line]


def tree_bytes(directory: Path) -> dict[str, bytes]:
    """Every file below `directory`, by relative path."""
    return {p.relative_to(directory).as_posix(): p.read_bytes() for p in sorted(directory.rglob("*")) if p.is_file()}


def processes_naming(path: Path) -> list[int]:
    """Live processes whose command line names `path` (a scan and the workers it forked)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes()
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if str(path).encode() in cmdline.split(b"\0") and state != "Z":
            found.append(int(entry.name))
    return found


@pytest.fixture
def demo_bundle() -> Path:
    return FIXTURES / "demo" / "demo.min.js"
