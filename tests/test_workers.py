"""The worker ahead of a JavaScript scan has a switch, and the switch changes no byte of output
(analyzer/parallel/executor.py, docs/performance.md)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from conftest import FIXTURES, records, run, scan, tree_bytes

from analyzer.errors import InputError
from analyzer.parallel.executor import WORKER_MIN_BYTES, Forked, Inline, executor_for
from analyzer.scandir.write import open_staging, write_staged

SWITCH = "ERRATLAS_RENDER_WORKER"


@pytest.fixture
def no_switches(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    monkeypatch.delenv(SWITCH, raising=False)
    return monkeypatch


def _ahead(executor: Inline) -> bool:
    """Whether an executor forks a worker ahead."""
    return isinstance(executor, Forked) and executor._ahead


def test_one_job_forks_no_worker_whatever_the_switch(no_switches: pytest.MonkeyPatch) -> None:
    no_switches.setenv(SWITCH, "1")
    assert not _ahead(executor_for(1))


@pytest.mark.parametrize(("value", "expected"), [(None, True), ("1", True), ("0", False)])
def test_more_jobs_fork_the_worker_ahead_unless_switched_off(
    no_switches: pytest.MonkeyPatch, value: str | None, expected: bool
) -> None:
    if value is not None:
        no_switches.setenv(SWITCH, value)
    assert _ahead(executor_for(2)) == expected


def test_a_switch_is_0_or_1(no_switches: pytest.MonkeyPatch) -> None:
    no_switches.setenv(SWITCH, "yes")
    with pytest.raises(InputError, match="must be 0 or 1"):
        executor_for(2)


def test_an_executor_gives_the_tasks_results_in_order() -> None:
    """Inline and Forked map to the same list, in this process."""
    work = [i * i for i in range(100)].__getitem__
    assert Inline().map(work, 100) == Forked(2).map(work, 100) == [i * i for i in range(100)]


def _pid_or_lost(parent: int) -> int:
    """This process's id; in a worker, the worker is lost first (it ends without a value)."""
    if os.getpid() != parent:
        os._exit(1)
    return os.getpid()


def test_work_beside_is_made_by_a_worker_with_more_jobs() -> None:
    assert Forked(2).beside(os.getpid, WORKER_MIN_BYTES).take() != os.getpid()
    assert Forked(1).beside(os.getpid, WORKER_MIN_BYTES).take() == os.getpid()
    assert Forked(2).beside(os.getpid, WORKER_MIN_BYTES - 1).take() == os.getpid()  # not worth a fork
    assert Inline().beside(os.getpid, WORKER_MIN_BYTES).take() == os.getpid()


def test_work_beside_whose_worker_is_lost_is_made_here() -> None:
    parent = os.getpid()
    assert Forked(2).beside(lambda: _pid_or_lost(parent), WORKER_MIN_BYTES).take() == parent


def test_staged_again_replaces_what_a_lost_writer_wrote(tmp_path: Path) -> None:
    target, staging = tmp_path / "out", tmp_path / "staging"
    open_staging(target, staging)
    write_staged(target, staging, {"a": b"cut sh", "d/b": b"whole"})
    with pytest.raises(InputError, match="cannot write"):
        write_staged(target, staging, {"a": b"again"})
    write_staged(target, staging, {"a": b"cut short no more", "d/b": b"whole"}, again=True)
    assert (staging / "a").read_bytes() == b"cut short no more"
    assert (staging / "d" / "b").read_bytes() == b"whole"


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
    ("switch", "traced", "wrapped"),
    [("1", {"scan: render worker forked"}, False), ("1", {"scan: render worker forked"}, True), ("0", set(), False)],
    ids=["worker", "worker-bun-cjs", "no-worker"],
)
def test_the_worker_switch_writes_the_bytes_of_one_process(
    tmp_path: Path, no_switches: pytest.MonkeyPatch, one_process, switch: str, traced: set[str],  # type: ignore[no-untyped-def]
    wrapped: bool,
) -> None:
    """The worker ahead runs when switched on (its trace line shows), not when off, and the output
    is the output of `--jobs 1` (scanned once per bundle: `one_process`)."""
    bundle, one = one_process(wrapped)
    no_switches.setenv(SWITCH, switch)
    no_switches.setenv("ERRATLAS_TRACE", "1")
    result = run("scan", bundle, "--out", tmp_path / "two", "--jobs", "2")
    assert result.returncode == 0, result.stderr
    workers = {line for line in _WORKER_LINES if line in result.stderr}
    assert workers == traced
    assert "scan: worker beside forked" in result.stderr  # the inventory, beside the owners
    assert tree_bytes(one) == tree_bytes(tmp_path / "two")
    assert len(records(tmp_path / "two", "error")) > 100


#: what the scan traces when it forks the worker ahead (a worker that falls behind on a busy
#: machine is stopped before it says more)
_WORKER_LINES = ("scan: render worker forked",)
