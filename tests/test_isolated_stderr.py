"""The isolated child's descriptor 2: the interpreter's fatal lines (written there by C) are shown
after the child ends, unless it ran into the memory bound, where the one line tells it all; what
Python writes to `sys.stderr` (the progress, the trace) reaches the terminal as it is written, and
a worker that drops stderr drops it."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

PRELUDE = """
import os, sys
from pathlib import Path
from analyzer import isolated
from analyzer.errors import InputError
from analyzer.parallel.forked import run_to_end

def fatal_after(bound, said=b"Fatal Python error: made up\\nCurrent thread (most recent call first):\\n"):
    def work():
        if bound:
            isolated.report("memory", bound)
        sys.stderr.write("python says\\n")
        os.write(2, said)
        os.abort()
    return work

def failing_on_memory():
    isolated.report("memory", 1 << 40)
    try:
        raise MemoryError
    except MemoryError:
        raise RuntimeError("handling it failed too")

def failing_without_an_exception():
    isolated.report("memory", 1 << 40)
    raise SystemError("error return without exception set")

def failing_so_unbounded():
    raise SystemError("error return without exception set")

def worker_then_child():
    run_to_end(lambda send: print("worker", file=sys.stderr))
    print("child", file=sys.stderr)
    return 7

try:
    print(isolated.isolated(WORK, Path("bundle.js")))
except InputError as exc:
    print(f"error: {exc}")
"""


def run_isolated(work: str) -> subprocess.CompletedProcess[str]:
    code = textwrap.dedent(PRELUDE).replace("WORK", work)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False)


def test_fatal_lines_past_the_memory_bound_are_dropped() -> None:
    ended = run_isolated("fatal_after(1)")  # a bound of one byte: any child is past it
    assert ended.stdout.startswith("error: bundle.js: exceeded the memory bound"), ended.stdout
    assert ended.stderr == "python says\n"


def test_an_allocation_that_failed_far_below_the_bound_is_the_bound() -> None:
    """A bound on data counts what was asked for, touched or not: the resident set at the end may
    be far below it. What the child said (Python's fatal MemoryError, tree-sitter's allocator)
    or the failure it sent names the allocation that failed."""
    for said in (b"Fatal Python error: _PyErr_NormalizeException: Cannot recover from MemoryErrors\n",
                 b"tree-sitter failed to allocate 1048576 bytes"):
        ended = run_isolated(f"fatal_after(1 << 40, {said!r})")
        assert ended.stdout.startswith("error: bundle.js: exceeded the memory bound"), ended.stdout
        assert ended.stderr == "python says\n"
    for failing in ("failing_on_memory", "failing_without_an_exception"):  # a C function's failed allocation
        ended = run_isolated(failing)
        assert ended.stdout.startswith("error: bundle.js: exceeded the memory bound"), ended.stdout + ended.stderr
    with pytest.raises(subprocess.CalledProcessError) as failed:  # without a bound: an internal error
        subprocess.run([sys.executable, "-c", textwrap.dedent(PRELUDE).replace("WORK", "failing_so_unbounded")],
                       capture_output=True, text=True, timeout=60, check=True)
    assert "ChildFailure: SystemError: error return without exception set" in failed.value.stderr


def test_fatal_lines_of_any_other_death_are_shown_after_the_one_line_is_made() -> None:
    ended = run_isolated("fatal_after(None)")
    assert ended.stdout == "error: bundle.js: the parser crashed on this input (SIGABRT); nothing was written\n"
    assert ended.stderr == "python says\nFatal Python error: made up\nCurrent thread (most recent call first):\n"


def test_a_worker_that_drops_stderr_drops_what_python_writes_there() -> None:
    ended = run_isolated("worker_then_child")
    assert ended.stdout == "7\n", ended.stdout + ended.stderr
    assert ended.stderr == "child\n"
