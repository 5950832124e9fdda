"""Where a scan's work runs, decided once (`executor_for`), as LibCST's codemod CLI picks its
executor: the pipeline hands its work to the executor it is given and never knows whether
another process does some of it; the output is the same on any executor. `Inline` runs
everything here, `Forked(jobs)` isolates a JavaScript scan and forks a worker ahead that takes an
idle core (docs/performance.md, "The design in one screen")."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Generic, TypeVar

from analyzer.errors import InputError
from analyzer.parallel.forked import LOST, ChildLost, Side, can_fork, from_both_ends
from analyzer.trace import mark

T = TypeVar("T")
S = TypeVar("S")

#: how much lower a worker's scheduling priority is than the scan's: a worker takes idle cores;
#: on a busy machine it falls behind and the scan does the work itself, as with `--jobs 1`
WORKER_NICENESS = 10
#: work over fewer input bytes than this is not worth a worker (a fork and its pickles)
WORKER_MIN_BYTES = 1 << 20
#: a JavaScript unit this large is read in slices when the scan has a worker to share them with;
#: each slice about `SLICE_BYTES` (docs/performance.md, "The design in one screen")
SLICED_MIN_BYTES = 4 << 20
SLICE_BYTES = 3 << 20
#: the slices a unit shared with a worker has beyond one per `SLICE_BYTES`: its middle slices
#: are smaller (`slices.shares`), and these keep the others about `SLICE_BYTES`
MEETING_SLICES = 2


class Ahead(Generic[T]):
    """Work started ahead: `take()` gives its value, made now if it is not there."""

    def __init__(self, task: Callable[[], T]) -> None:
        self._task = task

    def take(self) -> T:
        return self._task()


class Inline:
    """Every task in this process, in order."""

    #: worker processes a Python scan parses its files in
    jobs: int = 1
    #: whether those workers are forked (else spawned)
    forks: bool = hasattr(os, "fork")
    #: how many slices every JavaScript unit is read as, one tree at a time (docs/slices.md):
    #: 1, the whole tree; None, by the unit's size (`slices_for`)
    slices: int | None = None

    def isolated(self, work: Callable[[], T], subject: Path) -> T:
        """`work()`, where a crash or a breach of the memory bound cannot take the command down."""
        return work()

    def ahead(self, task: Callable[[], T], weight: int) -> Ahead[T]:
        """`task`, which `take()` on the value returned runs (`weight`: the input bytes it reads)."""
        return Ahead(task)

    def map(self, work: Callable[[int], T], count: int) -> list[T]:
        """`[work(i) for i in range(count)]`: a unit's independent tasks after its parse, here on
        every executor (a worker sharing them gained less than the noise: docs/performance.md)."""
        return [work(i) for i in range(count)]

    def beside(self, task: Callable[[], T], weight: int) -> Ahead[T]:
        """`task`, whose value `take()` gives, made beside what this process does until then
        (`weight`: the bytes it makes); here, it runs when taken."""
        return Ahead(task)

    def slices_for(self, size: int) -> int:
        """How many slices a JavaScript unit of `size` bytes is read as: the count asked, else
        the whole tree here (no worker shares the slices)."""
        return self.slices if self.slices is not None else 1

    def map_slices(self, work: Callable[[int, Callable[[], S]], T], count: int, prepare: Callable[[], S],
                   fatal: type[Exception] | None = None) -> list[T]:
        """`[work(i, need) for i in range(count)]`: a unit's slices, each parsed, read and freed by
        `work`, whose value holds no node (docs/slices.md); `need()` gives `prepare()`'s value,
        the unit-wide values every slice's reading needs (made once, first, here). `work` raising
        `fatal` ends the map wherever it runs: the same exception, here."""
        prepared = prepare()
        return [work(i, lambda: prepared) for i in range(count)]


class Forked(Inline):
    """An isolated child for a JavaScript scan; with `jobs` above 1, a worker ahead."""

    forks = True

    def __init__(self, jobs: int, ahead: bool = True) -> None:
        self.jobs = jobs
        self._ahead = ahead and jobs > 1

    def isolated(self, work: Callable[[], T], subject: Path) -> T:
        from analyzer.isolated import isolated

        return isolated(work, subject)

    def slices_for(self, size: int) -> int:
        """With `jobs` above 1, a unit of `SLICED_MIN_BYTES` or more is read as one slice per
        `SLICE_BYTES`, and two more: the plan's middle slices are smaller, so that the scan and
        its worker, reading from both ends, meet with little left to wait for (docs/slices.md,
        step 10; `slices.shares`)."""
        if self.slices is not None:
            return self.slices
        if self.jobs < 2 or size < SLICED_MIN_BYTES:
            return 1
        return max(2, round(size / SLICE_BYTES)) + MEETING_SLICES

    def map_slices(self, work: Callable[[int, Callable[[], S]], T], count: int, prepare: Callable[[], S],
                   fatal: type[Exception] | None = None) -> list[T]:
        """With `jobs` above 1, a forked worker reads the slices from the last while this process
        reads them from the first, until they meet (docs/slices.md, step 10). The worker is forked
        first: it parses its first slice while this process makes `prepare()`'s value, which it
        is then handed. It is not niced: its work is the scan's own, not ahead of it."""
        if self.jobs < 2 or count < 2:
            return super().map_slices(work, count, prepare, fatal)
        mark("scan: slice worker forked")
        return from_both_ends(work, count, prepare, fatal=fatal)

    def ahead(self, task: Callable[[], T], weight: int) -> Ahead[T]:
        if not self._ahead or weight < WORKER_MIN_BYTES:
            return Ahead(task)
        side = Side(lambda send: _send_value(task, send), WORKER_NICENESS)
        mark("scan: render worker forked")
        return _Forked(side, task)


    def beside(self, task: Callable[[], T], weight: int) -> Ahead[T]:
        """With `jobs` above 1, `task` runs now in a forked worker, not niced (its work is the
        scan's own), and `take()` waits for its value; a lost worker's task is run here."""
        if self.jobs < 2 or weight < WORKER_MIN_BYTES:
            return Ahead(task)
        side = Side(lambda send: _send_value(task, send, "beside"))
        mark("scan: worker beside forked")
        return _Beside(side, task)


def _send_value(task: Callable[[], T], send: Callable[[object], None], role: str = "ahead") -> None:
    mark(f"{role}: working")
    send(_Value(task()))
    mark(f"{role}: value sent")


class _Value(Generic[T]):
    """A worker's one message: the value of its task."""

    __slots__ = ("value",)

    def __init__(self, value: T) -> None:
        self.value = value


class _Forked(Ahead[T]):
    """Work ahead in a forked worker: its value if it has come when taken, else (a worker that
    fell behind on a busy machine) the worker is stopped and the task run here."""

    def __init__(self, side: Side, task: Callable[[], T]) -> None:
        super().__init__(task)
        self._side = side

    def take(self) -> T:
        try:
            made = self._side.peek(_Value)
        finally:
            self._side.stop()
        if made is LOST:
            mark("scan: render worker late, stopped")
            return self._task()
        return made.value


class _Beside(Ahead[T]):
    """Work in a forked worker beside this process: its value, waited for when taken; a worker
    that ended without it (failed or lost) has its task run here, which must allow for what the
    worker did of it."""

    def __init__(self, side: Side, task: Callable[[], T]) -> None:
        super().__init__(task)
        self._side = side

    def take(self) -> T:
        try:
            made = self._side.wait(_Value)
        except ChildLost as lost:
            made = LOST
            mark(f"scan: worker beside lost, its task run here: {lost}")
        finally:
            self._side.stop()
        return self._task() if made is LOST else made.value


def executor_for(jobs: int, slices: int | None = None) -> Inline:
    """The executor of a scan with `jobs` processes: `Forked` where `fork` exists. The worker
    ahead has a switch, for measuring what it is worth (docs/performance.md):
    `ERRATLAS_RENDER_WORKER=0|1`. `slices`: the cut count of every JavaScript unit (`--slices`,
    for measuring); None, by the unit's size (`slices_for`)."""
    executor = Forked(jobs, ahead=_switch("ERRATLAS_RENDER_WORKER")) if can_fork() else Inline()
    executor.jobs = jobs
    executor.slices = slices
    return executor


def _switch(name: str) -> bool:
    value = os.environ.get(name, "")
    if value not in ("", "0", "1"):
        raise InputError(name, f"must be 0 or 1, not {value!r} (an environment variable)")
    return value != "0"
