"""Each worker of a JavaScript scan has its own switch, and no switch changes a byte of output
(analyzer/parallel/executor.py, docs/performance.md)."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import FIXTURES, records, run, scan, tree_bytes

from analyzer.errors import InputError
from analyzer.parallel.executor import WORKER_MIN_BYTES, Forked, Inline, executor_for

SWITCHES = ("ERRATLAS_TASK_WORKER", "ERRATLAS_RENDER_WORKER")


@pytest.fixture
def no_switches(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    for name in SWITCHES:
        monkeypatch.delenv(name, raising=False)
    return monkeypatch


def _workers(executor: Inline) -> tuple[bool, bool]:
    """(forks a worker ahead, forks a task worker for the task lists) of an executor."""
    return (isinstance(executor, Forked) and executor._ahead, isinstance(executor, Forked) and executor._tasks)


def test_one_job_forks_no_worker_whatever_the_switches(no_switches: pytest.MonkeyPatch) -> None:
    for name in SWITCHES:
        no_switches.setenv(name, "1")
    assert _workers(executor_for(1)) == (False, False)


def test_more_jobs_use_both_workers(no_switches: pytest.MonkeyPatch) -> None:
    assert _workers(executor_for(2)) == (True, True)


@pytest.mark.parametrize(
    ("switches", "expected"),
    [
        ({"ERRATLAS_TASK_WORKER": "0"}, (True, False)),
        ({"ERRATLAS_RENDER_WORKER": "0"}, (False, True)),
        ({"ERRATLAS_TASK_WORKER": "1", "ERRATLAS_RENDER_WORKER": "1"}, (True, True)),
        ({"ERRATLAS_TASK_WORKER": "0", "ERRATLAS_RENDER_WORKER": "0"}, (False, False)),
    ],
)
def test_each_worker_has_its_own_switch(
    no_switches: pytest.MonkeyPatch, switches: dict[str, str], expected: tuple[bool, bool]
) -> None:
    for name, value in switches.items():
        no_switches.setenv(name, value)
    assert _workers(executor_for(2)) == expected


def test_a_switch_is_0_or_1(no_switches: pytest.MonkeyPatch) -> None:
    no_switches.setenv("ERRATLAS_TASK_WORKER", "yes")
    with pytest.raises(InputError, match="must be 0 or 1"):
        executor_for(2)


def test_an_executor_gives_the_tasks_results_in_order() -> None:
    """Inline and Forked map to the same list; a task list too small for a worker stays here."""
    work = [i * i for i in range(100)].__getitem__
    assert Inline().map(work, 100, 0) == Forked(2).map(work, 100, WORKER_MIN_BYTES) == Forked(2).map(work, 100, 0)


WRAPPER = b"// @bun @bun-cjs\n(function(exports, require, module, __filename, __dirname) {"


def _big_bundle(path: Path, wrapped: bool) -> Path:
    """Top-level `var` modules made of the demo app (esbuild CommonJS build), optionally inside
    Bun's CommonJS wrapper: a unit over 1 MiB, big enough for every worker."""
    demo = (FIXTURES / "demo" / "demo.cjs.min.js").read_bytes().strip()
    demo = demo[: demo.rfind(b"\n//# sourceMappingURL")]
    body = b"".join(b"var M%d=(()=>{%s})();" % (i, demo) for i in range(40))
    path.write_bytes(WRAPPER + body + b"})\n" if wrapped else body)
    return path


@pytest.fixture(scope="module")
def one_process(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    """`one_process(wrapped)`: the big bundle and its `--jobs 1` scan, made once for the module
    (`--jobs 1` reads no switch: every parameter below compares with the same bytes). Read only."""
    done: dict[bool, tuple[Path, Path]] = {}

    def get(wrapped: bool) -> tuple[Path, Path]:
        if wrapped not in done:
            base = tmp_path_factory.mktemp("one-process")
            bundle = _big_bundle(base / "big.js", wrapped)
            scan(bundle, base / "one", "--jobs", "1")
            done[wrapped] = (bundle, base / "one")
        return done[wrapped]

    return get


@pytest.mark.parametrize(
    ("switches", "traced", "wrapped"),
    [
        ({"ERRATLAS_TASK_WORKER": "1", "ERRATLAS_RENDER_WORKER": "1"},
         {"runner: task worker forked", "scan: render worker forked"}, False),
        ({"ERRATLAS_TASK_WORKER": "1", "ERRATLAS_RENDER_WORKER": "1"},
         {"runner: task worker forked", "scan: render worker forked"}, True),
        ({"ERRATLAS_TASK_WORKER": "0", "ERRATLAS_RENDER_WORKER": "1"}, {"scan: render worker forked"}, False),
        ({"ERRATLAS_RENDER_WORKER": "0", "ERRATLAS_TASK_WORKER": "1"}, {"runner: task worker forked"}, False),
    ],
    ids=["all-on", "all-on-bun-cjs", "no-task-worker", "no-render-worker"],
)
def test_every_worker_switch_writes_the_bytes_of_one_process(
    tmp_path: Path, no_switches: pytest.MonkeyPatch, one_process, switches: dict[str, str], traced: set[str],  # type: ignore[no-untyped-def]
    wrapped: bool,
) -> None:
    """The switched-on workers run (their trace lines show), the others do not, and the output
    is the output of `--jobs 1` (scanned once per bundle: `one_process`)."""
    bundle, one = one_process(wrapped)
    for name, value in switches.items():
        no_switches.setenv(name, value)
    no_switches.setenv("ERRATLAS_TRACE", "1")
    result = run("scan", bundle, "--out", tmp_path / "two", "--jobs", "2")
    assert result.returncode == 0, result.stderr
    workers = {line for line in _WORKER_LINES if line in result.stderr}
    assert workers == traced
    assert tree_bytes(one) == tree_bytes(tmp_path / "two")
    assert len(records(tmp_path / "two", "error")) > 100


#: what the scan traces when it forks each worker (a worker that falls behind on a busy machine
#: is stopped before it says more)
_WORKER_LINES = ("runner: task worker forked", "scan: render worker forked")
