"""A scan child that stalls at its memory bound is stopped and named as past the bound. CPython
before 3.13 can loop forever when it cannot allocate the integer it pushes while unwinding a
MemoryError through a `with` block (python/cpython#132508): `erratlas scan` on 32,000 catch
clauses hung so about one run in ten, until CI's timeout."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

STALLS = textwrap.dedent("""
    import contextlib, resource, sys, _testcapi
    from pathlib import Path
    from analyzer import isolated
    from analyzer.errors import InputError

    def data_memory():
        with open("/proc/self/status") as handle:
            return next(int(line.split()[1]) * 1024 for line in handle if line.startswith("VmData:"))

    # past 256 instructions into the `with` block: the integer unwinding pushes is not a cached one
    SOURCE = ("def stall():\\n    with contextlib.nullcontext():\\n" + "        x = 0\\n" * 200
              + "        _testcapi.set_nomemory(0)\\n        return [object()]\\n")
    names = {"contextlib": contextlib, "_testcapi": _testcapi}
    exec(SOURCE, names)

    def work():
        bound = data_memory() + (2 << 20)
        resource.setrlimit(resource.RLIMIT_DATA, (bound, resource.getrlimit(resource.RLIMIT_DATA)[1]))
        isolated.report("memory", bound)
        names["stall"]()

    try:
        isolated.isolated(work, Path("stalls.js"))
    except InputError as exc:
        print(exc)
""")


@pytest.mark.skipif(sys.platform != "linux", reason="the watch reads /proc")
def test_a_child_stalled_at_its_bound_is_stopped_and_named_past_the_bound() -> None:
    pytest.importorskip("_testcapi").set_nomemory  # noqa: B018  # the interpreter's test hook makes the stall
    # the watch stops it in about 10 s; without it, it never ends
    result = subprocess.run([sys.executable, "-c", STALLS], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert "stalls.js: exceeded the memory bound" in result.stdout
    assert "(the scan stalled there and was stopped)" in result.stdout
    assert result.stderr == ""  # the interpreter's last words there are its allocations failing


POOL_STALLS = textwrap.dedent("""
    import contextlib, resource, _testcapi
    from analyzer.python.workers import Pool, WorkerFailed

    SOURCE = ("def stall():\\n    with contextlib.nullcontext():\\n" + "        x = 0\\n" * 200
              + "        _testcapi.set_nomemory(0)\\n        return [object()]\\n")
    names = {"contextlib": contextlib, "_testcapi": _testcapi}
    exec(SOURCE, names)

    def work(task):
        if task == 1:
            with open("/proc/self/status") as handle:
                held = next(int(line.split()[1]) * 1024 for line in handle if line.startswith("VmSize:"))
            resource.setrlimit(resource.RLIMIT_AS, (held + (2 << 20), resource.getrlimit(resource.RLIMIT_AS)[1]))
            names["stall"]()
        return task

    try:
        Pool([0, 1, 2], work, jobs=2).run([0, 1, 2])
    except WorkerFailed as exc:
        print(exc.index, exc.kind, exc.message)
""")


@pytest.mark.skipif(sys.platform != "linux", reason="the watch reads /proc")
def test_a_python_worker_stalled_at_its_bound_is_a_file_past_the_memory_bound() -> None:
    pytest.importorskip("_testcapi").set_nomemory  # noqa: B018
    result = subprocess.run([sys.executable, "-c", POOL_STALLS], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "1 memory stalled at its memory bound\n"
