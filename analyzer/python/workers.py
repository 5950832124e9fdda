"""Per-file work in worker processes: biggest files first, results put back in file order, and a
worker that dies is noticed at once and named with the file it was on. Every file is parsed in a
worker, whatever `--jobs` says, so that a parser crash ends a worker, never the scan
(docs/performance.md, "Python workers")."""

from __future__ import annotations

import contextlib
import gc
import multiprocessing
import os
import signal
import sys
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from typing import Any, Generic, TypeVar

from analyzer.parallel.procs import StallWatch, die_with_parent

Task = TypeVar("Task")
Result = TypeVar("Result")

#: address space a worker may add to what it holds when it starts
WORKER_MEMORY = 2 * 2**30
#: the work runs on a thread with this stack, and this recursion limit: libcst's codegen and
#: parser recurse once per level of nesting, and a big table of strings joined implicitly
#: (the standard library's pydoc_data/topics.py) is a thousand levels deep. Only the pages
#: used count as memory; the address space counts against `WORKER_MEMORY`.
DEEP_STACK = 512 * 2**20
DEEP_RECURSION = 60_000


class WorkerLost(Exception):
    """A worker ended while it worked on a file (killed by a signal, or exited)."""

    def __init__(self, index: int, how: str) -> None:
        super().__init__(how)
        self.index, self.how = index, how


class WorkerFailed(Exception):
    """`work` raised on a file: `kind` is `memory` (MemoryError) or `error` (anything else)."""

    def __init__(self, index: int, kind: str, message: str) -> None:
        super().__init__(message)
        self.index, self.kind, self.message = index, kind, message


@dataclass(slots=True)
class _Worker:
    pid: int
    conn: Connection
    process: Any  # multiprocessing.Process where workers are spawned, else None
    task: int | None = None


class Pool(Generic[Task, Result]):
    """`work(task)` for every task, in `jobs` workers; `prepare()` runs once in each worker."""

    def __init__(self, tasks: Sequence[Task], work: Callable[[Task], Result], jobs: int,
                 prepare: Callable[[], None] = lambda: None, fork: bool = True) -> None:
        self.tasks, self.work, self.prepare = tasks, work, prepare
        self.jobs = max(1, min(jobs, len(tasks)))
        self.fork = fork

    def run(self, order: Sequence[int]) -> list[Result]:
        """The results in task order; tasks are handed out in `order` (biggest first)."""
        results: list[Result | None] = [None] * len(self.tasks)
        pending = list(reversed(order))
        workers: list[_Worker] = []
        try:
            workers = [self._start() for _ in range(self.jobs)]
            for worker in workers:
                self._hand(worker, pending)
            busy = [w for w in workers if w.task is not None]
            stalled = StallWatch()
            while busy:
                ready = wait([w.conn for w in busy], timeout=1.0)
                for conn in ready:
                    worker = next(w for w in busy if w.conn is conn)
                    index, result = self._receive(worker)
                    results[index] = result
                    self._hand(worker, pending)
                if not ready:
                    for worker in busy:
                        if worker.task is not None and stalled(worker.pid):
                            raise WorkerFailed(worker.task, "memory", "stalled at its memory bound")
                busy = [w for w in workers if w.task is not None]
        finally:
            _stop(workers)
        return results  # type: ignore[return-value]

    def _hand(self, worker: _Worker, pending: list[int]) -> None:
        worker.task = pending.pop() if pending else None
        if worker.task is not None:
            worker.conn.send(worker.task if self.fork else (worker.task, self.tasks[worker.task]))

    def _receive(self, worker: _Worker) -> tuple[int, Result]:
        index = worker.task
        assert index is not None
        try:
            answer = worker.conn.recv()
        except (EOFError, OSError):
            raise WorkerLost(index, _how_it_ended(worker)) from None
        kind, value = answer
        if kind != "ok":
            raise WorkerFailed(index, kind, value)
        return index, value

    def _start(self) -> _Worker:
        parent_end, child_end = multiprocessing.Pipe()
        if not self.fork:
            context = multiprocessing.get_context("spawn")
            process = context.Process(target=_spawned, args=(child_end, self.work, self.prepare), daemon=True)
            process.start()
            child_end.close()
            return _Worker(process.pid or 0, parent_end, process)
        parent = os.getpid()
        pid = os.fork()
        if pid == 0:  # the worker: never returns
            parent_end.close()
            _serve(parent, child_end, lambda index: self.work(self.tasks[index]), self.prepare)
        child_end.close()
        return _Worker(pid, parent_end, None)


def _serve(parent: int, conn: Connection, work: Callable[[Any], Any], prepare: Callable[[], None]) -> None:
    """The worker: files one at a time, on a thread with a deep stack (see `DEEP_STACK`)."""
    ended = [1]
    try:
        _tie_to_parent(parent)
        prepare()
        threading.stack_size(DEEP_STACK)
        thread = threading.Thread(target=_answer_all, args=(conn, work, ended))
        thread.start()
        thread.join()
    except BaseException:  # a worker never prints; its end is the report
        pass
    finally:
        os._exit(ended[0])  # no exit handlers, no flushing of the parent's buffers, no freeing


def _answer_all(conn: Connection, work: Callable[[Any], Any], ended: list[int]) -> None:
    sys.setrecursionlimit(DEEP_RECURSION)
    try:
        while True:
            job = conn.recv()
            if job is None:
                break
            try:
                answer: tuple[str, Any] = ("ok", work(job))
            except MemoryError:
                answer = ("memory", "MemoryError")
            except Exception as exc:  # reported with the file; the parent decides
                answer = ("error", f"{type(exc).__name__}: {exc}")
            conn.send(answer)
        ended[0] = 0
    except BaseException:  # the parent sees the socket close
        pass


def _spawned(conn: Connection, work: Callable[[Any], Any], prepare: Callable[[], None]) -> None:
    _serve(os.getppid(), conn, lambda job: work(job[1]), prepare)


def _tie_to_parent(parent: int) -> None:
    """Die with the parent (Linux); hold none of its standard streams; Ctrl-C is the parent's."""
    die_with_parent(parent)
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(devnull, fd)
    os.close(devnull)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for signum in (signal.SIGTERM, getattr(signal, "SIGHUP", signal.SIGTERM)):
        signal.signal(signum, signal.SIG_DFL)


def limit_memory(extra: int = WORKER_MEMORY) -> None:
    """Cap this process's address space at what it holds now plus `extra` (where rlimits exist)."""
    try:
        import resource
    except ImportError:  # pragma: no cover - no rlimits here
        return
    with open("/proc/self/statm") as handle:
        held = int(handle.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    resource.setrlimit(resource.RLIMIT_AS, (held + extra, held + extra))


def quiet_gc() -> None:
    """libcst allocates millions of small acyclic nodes: collect the young generation less often
    (cycles, from scope objects, are still collected)."""
    gc.freeze()
    gc.set_threshold(50_000, 50, 100)


def _how_it_ended(worker: _Worker) -> str:
    if worker.process is not None:
        worker.process.join(5)
        status = worker.process.exitcode
    else:
        _, raw = os.waitpid(worker.pid, 0)
        worker.pid = 0
        status = os.waitstatus_to_exitcode(raw)
    if status is not None and status < 0:
        try:
            return f"killed by signal {signal.Signals(-status).name}"
        except ValueError:
            return f"killed by signal {-status}"
    return f"exited with status {status}"


def _stop(workers: list[_Worker]) -> None:
    """End every worker: idle ones are told to stop, busy ones are killed; all are reaped."""
    for worker in workers:
        try:
            if worker.task is None:
                worker.conn.send(None)
            elif worker.pid:
                os.kill(worker.pid, signal.SIGKILL)
        except OSError:
            pass
        worker.conn.close()
    for worker in workers:
        if worker.process is not None:
            worker.process.join(5)
            if worker.process.is_alive():
                worker.process.kill()
        elif worker.pid:
            with contextlib.suppress(ChildProcessError):
                os.waitpid(worker.pid, 0)
