"""Where a unit's shared work runs: the one seam between the sequential extraction and the
workers, as LibCST's codemod CLI picks its executor in one place.

The extraction states its work once: `first()` (work that needs only the tree: the module map,
error regions, the reference items), `prepare(first value, payload)` (work that needs that
and the callsites the extraction found: the module evidence, and the task list) and `work(i)`
(the facts of callsite i). A runner runs exactly that: `InProcess` in order, in this process;
`Forked` in a helper forked after the parse, which does `first()` and tasks from the back
while this process does tasks from the front (`analyzer.parallel.forked.Helper`); a helper that has
not begun its tasks when this process has done the rest is stopped, and its work done here.
Either way `join` gives the same values, so the output never depends on the runner.

Which workers a scan may use is decided from `--jobs` and the environment in `workers_for`
(docs/performance.md gives each switch's measured worth):

- `ERRATLAS_HELPER=0|1`: the helper forked after the parse (`Forked`);
- `ERRATLAS_RENDER_WORKER=0|1`: the worker forked before the parse that hashes the input and
  makes the readable renderings (`analyzer.javascript.frontend`).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from analyzer.errors import InputError
from analyzer.parallel.forked import LOST, Helper, can_fork
from analyzer.trace import mark

A = TypeVar("A")
B = TypeVar("B")
R = TypeVar("R")
A_co = TypeVar("A_co", covariant=True)
B_co = TypeVar("B_co", covariant=True)

Prepare = Callable[[A, Any], tuple[B, int, Callable[[int], R]]]


@dataclass(frozen=True, slots=True)
class Workers:
    """The worker processes a JavaScript scan may fork (all off: everything in one process)."""

    #: the helper forked after the parse: module map, module evidence, half of the callsites
    helper: bool
    #: the worker forked before the parse: the input's hash and the readable renderings
    render: bool


#: how much lower a worker's scheduling priority is than the scan's: a worker takes idle cores;
#: on a busy machine it falls behind and the scan does the work itself, as with `--jobs 1`
WORKER_NICENESS = 10

#: each worker's default when `--jobs` allows more than one process (docs/performance.md)
DEFAULT_WORKERS = Workers(helper=True, render=True)
NO_WORKERS = Workers(helper=False, render=False)


def workers_for(jobs: int) -> Workers:
    """The workers of a scan with `jobs` processes: none for one process (or without `fork`),
    else the defaults, each switched by its environment variable (`0` off, `1` on)."""
    if jobs <= 1 or not can_fork():
        return NO_WORKERS
    return Workers(
        helper=_switch("ERRATLAS_HELPER", DEFAULT_WORKERS.helper),
        render=_switch("ERRATLAS_RENDER_WORKER", DEFAULT_WORKERS.render),
    )


def _switch(name: str, default: bool) -> bool:
    value = os.environ.get(name, "")
    if value not in ("", "0", "1"):
        raise InputError(name, f"must be 0 or 1, not {value!r} (an environment variable)")
    return default if value == "" else value == "1"


class Shared(Protocol[A_co, B_co, R]):
    """A unit's shared work, begun (`first()` may already be running)."""

    def hand_over(self, payload: Any, count: int) -> None:
        """The task list: `payload` describes `count` tasks (for `prepare`)."""

    def join(self, work: Callable[[int], R]) -> tuple[A_co, B_co, list[R]]:
        """(`first()`, `prepare`'s value, every task's result in order); `work(i)` is this
        process's way to do task i."""

    def cancel(self) -> None:
        """Give up (this process failed before joining)."""


class Runner(Protocol):
    def __call__(self, first: Callable[[], A], prepare: Prepare[A, B, R]) -> Shared[A, B, R]: ...


class InProcess(Generic[A, B, R]):
    """Everything in this process, in order, when joined."""

    def __init__(self, first: Callable[[], A], prepare: Prepare[A, B, R]) -> None:
        self._first, self._prepare = first, prepare
        self._payload: Any = None

    def hand_over(self, payload: Any, count: int) -> None:
        self._payload = payload

    def join(self, work: Callable[[int], R]) -> tuple[A, B, list[R]]:
        own = self._first()
        extra, count, _ = self._prepare(own, self._payload)
        mark("runner: module evidence made")
        return own, extra, [work(i) for i in range(count)]

    def cancel(self) -> None:
        pass


class Forked(Generic[A, B, R]):
    """`first()` and tasks from the back in a helper forked now (it sees this process's tree
    copy-on-write); what a lost helper did not send is done here."""

    def __init__(self, first: Callable[[], A], prepare: Prepare[A, B, R]) -> None:
        self._first, self._prepare = first, prepare
        self._payload: Any = None
        self._helper: Helper[R] = Helper(first, prepare, WORKER_NICENESS)
        mark("runner: helper forked")

    def hand_over(self, payload: Any, count: int) -> None:
        self._payload = payload
        self._helper.hand_over(payload, count)

    def join(self, work: Callable[[int], R]) -> tuple[A, B, list[R]]:
        own, extra, results = self._helper.join(work)
        if own is LOST:
            own = self._first()
        if extra is LOST:
            extra = self._prepare(own, self._payload)[0]
        return own, extra, results

    def cancel(self) -> None:
        self._helper.cancel()
