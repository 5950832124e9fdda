"""Issue 13, the Python rows: hostile Python inputs end in an inventory or in one line naming
the file and the problem with exit 2, never a crash, a hang, a traceback or a partial output.
Regression fixtures live in `fixtures/hostile/python/`; inputs that cannot live in git
(names that are not UTF-8, a thousand nested directories) are built by the test."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import FIXTURES, SUMMARY, erratlas_command, records, scan

HOSTILE = FIXTURES / "hostile" / "python"
PACKAGE = FIXTURES / "python" / "shadowing"


def test_the_summary_states_the_python_anchor_limit(tmp_path: Path) -> None:
    summary = scan(PACKAGE, tmp_path / "scan")
    assert summary["fingerprint"] == {"version": "fp1", "anchorLimit": 2048}  # bytes of source, not syntax nodes


def test_lone_surrogate_escapes_in_messages_become_replacement_characters(tmp_path: Path) -> None:
    out = tmp_path / "scan"
    scan(HOSTILE / "surrogates.py", out)
    (error,) = records(out, "error")
    (warning,) = records(out, "diagnostic")
    assert error["message"]["text"] == "\ufffd lone low surrogate"  # type: ignore[index]
    assert warning["message"]["template"] == "\ufffd lone high surrogate in ${}"  # type: ignore[index]


def worker_env(**extra: str) -> dict[str, str]:
    return {**{k: v for k, v in os.environ.items() if k != "ERRATLAS_DEBUG"}, **extra}


def scan_child(bundle: Path, out: Path, env: dict[str, str] | None = None, *extra: str) -> tuple[int, str, int]:
    """(exit status, stderr, peak RSS in bytes of the scan and the workers it reaped)."""
    with (out.parent / "stderr").open("w+") as err:
        process = subprocess.Popen([erratlas_command(), "scan", str(bundle), "--out", str(out), *extra],
                                   stdout=subprocess.DEVNULL, stderr=err, env=env or worker_env())
        try:
            _, status, usage = os.wait4(process.pid, 0)
        finally:
            if process.poll() is None:
                process.kill()
        err.seek(0)
        return os.waitstatus_to_exitcode(status), err.read(), usage.ru_maxrss * 1024


def test_a_file_nested_beyond_the_bound_is_counted_not_parsed(tmp_path: Path) -> None:
    """1,300 nested parentheses in 2.6 kB crashed libcst's parser (exit 139, no message)."""
    out = tmp_path / "scan"
    code, stderr, _ = scan_child(HOSTILE / "nested-1300.py", out)
    assert code == 0, stderr
    summary = json.loads((out / SUMMARY).read_text())
    assert summary["errorRegions"]["count"] == 1
    (unit,) = summary["loggers"]
    assert unit["parseError"] == "not parsed: more than 200 brackets open at once (ERRATLAS_PYTHON_MAX_NESTING)"


SHAPES = {
    "parentheses": lambda n: "x = " + "(" * n + "1" + ")" * n,
    "lists": lambda n: "x = " + "[" * n + "1" + "]" * n,
    "calls": lambda n: "x = " + "f(" * n + "1" + ")" * n,
    "tuples": lambda n: "x = " + "(1," * n + ")" * n,
    "dicts": lambda n: "x = " + "{1:" * n + "1" + "}" * n,
    "subscripts": lambda n: "x = a" + "[0]" * n,
    "attributes": lambda n: "x = a" + ".b" * n,
    "call chain": lambda n: "x = f" + "()" * n,
    "additions": lambda n: "x = " + "+".join(["1"] * n),
    "powers": lambda n: "x = " + "**".join(["2"] * n),
    "negations": lambda n: "x = " + "-" * n + "1",
    "nots": lambda n: "x = " + "not " * n + "1",
    "lambdas": lambda n: "x = " + "lambda: " * n + "1",
    "conditionals": lambda n: "x = " + "1 if c else " * n + "1",
    "string joins": lambda n: "x = " + " ".join(['"a"'] * n),
    "indentation": lambda n: "".join(" " * i + "if x:\n" for i in range(n)) + " " * n + "pass",
}


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_ten_thousand_levels_of_any_shape_end_in_a_count_not_a_crash(shape: str, tmp_path: Path) -> None:
    """Every shape, 10,000 levels deep: refused before the parser, in bounded memory (the
    issue saw 5.5-17.3 GB before a crash)."""
    tree = tmp_path / "pkg"
    tree.mkdir()
    (tree / "__init__.py").write_text("raise ValueError('fine')\n")
    (tree / "deep.py").write_text(SHAPES[shape](10_000) + "\n")
    out = tmp_path / "scan"
    code, stderr, peak = scan_child(tree, out)
    assert code == 0, stderr
    summary = json.loads((out / SUMMARY).read_text())
    deep = next(u for u in summary["loggers"] if u["unit"] == "pkg/deep.py")
    assert deep["parseError"].startswith("not parsed: "), deep["parseError"]
    assert summary["counts"]["byKind"]["error"] == 1
    assert peak < 1 << 30


def test_a_worker_that_dies_ends_the_scan_with_exit_2_naming_its_file(tmp_path: Path) -> None:
    """With the bound lifted, the 1,300-level file crashes the parser in its worker: the pool
    notices at once (it used to wait forever), no output is written, one line names the file."""
    tree = tmp_path / "pkg"
    tree.mkdir()
    for index in range(6):
        (tree / f"fine{index}.py").write_text("raise ValueError('fine')\n" * 50)
    shutil.copy(HOSTILE / "nested-1300.py", tree / "nested.py")
    out = tmp_path / "scan"
    for jobs in ("1", "2"):
        code, stderr, _ = scan_child(tree, out, worker_env(ERRATLAS_PYTHON_MAX_NESTING="100000"), "--jobs", jobs)
        assert code == 2, stderr
        lines = stderr.strip().splitlines()
        assert len(lines) == 1 and "Traceback" not in stderr, stderr
        assert f"{tree}: nested.py: the Python parser died on this file (killed by signal" in lines[0]
        assert not out.exists()


def test_a_lone_file_whose_worker_dies_is_named_once(tmp_path: Path) -> None:
    code, stderr, _ = scan_child(HOSTILE / "nested-1300.py", tmp_path / "scan",
                                 worker_env(ERRATLAS_PYTHON_MAX_NESTING="100000"))
    assert code == 2
    assert stderr.strip() == (f"erratlas: error: {HOSTILE / 'nested-1300.py'}: the Python parser died on this "
                              "file (killed by signal SIGSEGV)")
