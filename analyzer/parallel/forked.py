"""Work on the other core in a forked child, which sees the parent's memory copy-on-write and sends
its results back through a pipe as frames (docs/performance.md, "The design in one screen").
A lost child costs time, never output: the caller does the work itself. `Side(body)`: messages
as the child makes them; `run_to_end(body)`: a child the parent waits for (`isolated.py`);
`from_both_ends(work, count, prepare)`: a list of tasks shared with a child, each end taking its
own, with a value this process prepares while the child starts."""

from __future__ import annotations

import contextlib
import fcntl
import os
import pickle
import select
import signal
import struct
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from analyzer.parallel.claims import Claims
from analyzer.parallel.procs import die_with_parent
from analyzer.trace import mark

M = TypeVar("M")
T = TypeVar("T")
S = TypeVar("S")

_HEADER = struct.Struct("<Q")
_PIPE_BYTES = 1 << 20
#: frames bigger than this go through the spill file
_SPILL_OVER = 256 << 10
_SPILLED = "erratlas-spilled-frame"
#: the tag of a `Side` message frame
_MESSAGE = "message"
#: how long `run_to_end` waits for a frame before it asks its `watch` again
_WATCH_MS = 1000


class ChildLost(Exception):
    """A forked child ended without sending all of its results."""


#: a value the child did not send (a lost or stopped child), or a message not yet arrived
LOST: Any = object()


def can_fork() -> bool:
    return hasattr(os, "fork") and hasattr(os, "pipe2")


class _Child:
    """A forked child running `body(send)`; `send(value)` writes one frame to the parent."""

    def __init__(
        self, body: Callable[[Callable[[Any], None]], None], keep_stderr: bool = False, niceness: int = 0
    ) -> None:
        parent = os.getpid()
        read, write = os.pipe2(os.O_CLOEXEC)
        _widen(write)
        self._spill = _spill_file()
        pid = os.fork()
        if pid == 0:  # the child: never returns
            os.close(read)
            _run_child(parent, body, write, self._spill, keep_stderr, niceness)
        os.close(write)
        self._pid, self._read = pid, read
        self._open = True
        self._header = bytearray(_HEADER.size)
        self._body: bytearray | None = None  # the frame being read, once its header is in
        self._got = 0  # bytes of the header or body read so far
        self._ready: list[Any] = []
        self._ended = False  # the last frame read is `("end",)`, polled or not
        self._reaped = False
        os.set_blocking(read, False)

    def poll(self) -> list[Any]:
        """The frames that have arrived, without waiting."""
        self._pump()
        ready, self._ready = self._ready, []
        return ready

    def next_frame(self) -> bool:
        """Wait for one more frame (False: the child closed the pipe first)."""
        if not self._open:
            return False
        os.set_blocking(self._read, True)
        try:
            return self._pump(one=True)
        finally:
            if self._open:
                os.set_blocking(self._read, False)

    def _pump(self, one: bool = False) -> bool:
        """Read into exactly sized buffers until the pipe is empty (non-blocking), closed, or
        (`one`) a frame is complete; True when a frame completed."""
        completed = False
        while self._open:
            target = self._header if self._body is None else self._body
            try:
                count = os.readv(self._read, [memoryview(target)[self._got:]])
            except BlockingIOError:
                return completed
            if count == 0:
                self._open = False
                return completed
            self._got += count
            if self._got < len(target):
                continue
            self._got = 0
            if self._body is None:
                self._body = bytearray(_HEADER.unpack(self._header)[0])
            else:
                self._ready.append(self._value(pickle.loads(self._body)))
                self._ended = self._ready[-1] == ("end",)
                self._body = None
                completed = True
                if one:
                    return True
        return completed

    def _value(self, frame: Any) -> Any:
        """A frame, with a big one read back from the spill file."""
        if isinstance(frame, tuple) and frame and frame[0] == _SPILLED:
            _, offset, size = frame
            data = bytearray(size)
            view, done = memoryview(data), 0
            while done < size:
                count = os.preadv(self._spill, [view[done:]], offset + done)
                if count == 0:
                    raise ChildLost(f"worker {self._pid}: spilled frame cut short")
                done += count
            return pickle.loads(data)
        return frame

    def cancel(self) -> None:
        """Kill the child and reap it (the parent gave up on it)."""
        with contextlib.suppress(ProcessLookupError):
            os.kill(self._pid, signal.SIGKILL)
        self._close()
        self._reaped = True
        os.waitpid(self._pid, 0)

    def interrupt(self, *_: object) -> None:
        """Send the child SIGINT (a signal handler: `run_to_end`); never once it is reaped, when
        its pid may be another process's."""
        if not self._reaped:
            os.kill(self._pid, signal.SIGINT)

    def _close(self) -> None:
        if self._read >= 0:
            os.close(self._read)
            os.close(self._spill)
            self._read = self._spill = -1
        self._open = False


def _widen(fd: int) -> None:
    """A pipe that holds a megabyte: fewer waits on either side (Linux; elsewhere a no-op)."""
    with contextlib.suppress(AttributeError, OSError):
        fcntl.fcntl(fd, fcntl.F_SETPIPE_SZ, _PIPE_BYTES)


def _spill_file() -> int:
    """An unlinked temporary file shared with the child, for frames too big for the pipe: the
    child never waits for the parent to read them, and their bytes sit in the file cache (on
    disk where the temporary directory is), not in either process."""
    with tempfile.TemporaryFile(prefix="erratlas-worker-") as handle:
        return os.dup(handle.fileno())


def _run_child(
    parent: int, body: Callable[[Callable[[Any], None]], None], write: int, spill: int, keep_stderr: bool = False,
    niceness: int = 0,
) -> None:
    spilled = 0

    def send(value: Any) -> None:
        nonlocal spilled
        data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
        if len(data) > _SPILL_OVER:
            done = 0
            while done < len(data):
                done += os.pwrite(spill, memoryview(data)[done:], spilled + done)
            data = pickle.dumps((_SPILLED, spilled, len(data)))
            spilled += done
        view = memoryview(_HEADER.pack(len(data)) + data)
        while view:
            view = view[os.write(write, view):]

    code = 1
    try:
        _tie_to_parent(parent, keep_stderr)
        if niceness:
            os.nice(niceness)  # a worker takes idle cores, never the scan's own
        try:
            body(send)
            send(("end",))
        except Exception as exc:  # any failure is reported; the parent does the work
            send(("error", f"{type(exc).__name__}: {exc}"))
        code = 0
    finally:
        os._exit(code)  # no exit handlers, no flushing of the parent's buffers, no freeing


def _tie_to_parent(parent: int, keep_stderr: bool) -> None:
    """Die with the parent; hold none of its standard streams (but stderr with `keep_stderr`:
    a child the parent waits for to its end, which shows the work's progress); default signal
    handling."""
    die_with_parent(parent)
    devnull = os.open(os.devnull, os.O_RDWR)
    dropped = [0, 1] if keep_stderr or os.environ.get("ERRATLAS_TRACE") else [0, 1, 2, *_stderr_stream()]
    for fd in dropped:  # tracing keeps stderr
        os.dup2(devnull, fd)
    os.close(devnull)
    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, signal.SIG_DFL)


def _stderr_stream() -> list[int]:
    """The descriptor of Python's `sys.stderr` when it is not 2 (the isolated child's, see
    `analyzer.isolated`)."""
    try:
        fd = sys.stderr.fileno()
    except (AttributeError, ValueError, OSError):
        return []
    return [fd] if fd > 2 else []


@dataclass(frozen=True, slots=True)
class Ended:
    """A child run to its end: what it sent, how it ended."""

    #: every frame it sent, in order (`("end",)` last when `body` returned)
    frames: list[Any]
    #: its wait status (`os.waitpid`)
    status: int
    #: its peak resident set, in bytes
    peak_rss: int
    #: the caller's `watch` had it killed
    stopped: bool = False


def run_to_end(body: Callable[[Callable[[Any], None]], None], keep_stderr: bool = False,
               pass_interrupt: bool = False, watch: Callable[[int], bool] | None = None) -> Ended:
    """Run `body(send)` in a forked child (see `_Child`) and wait for its end, however it ends:
    the caller learns how from the frames and the status. The child's own children are tied
    to it (they die with it). `pass_interrupt`: the caller holds SIGINT; a SIGINT sent to this
    process alone (a supervisor's `kill -INT`) is passed on to the child while it runs, which
    decides as it does on Ctrl-C (SIGINT to the whole group). `watch(pid)`: called about once a
    second while the child runs; True kills it (SIGKILL), and `Ended.stopped` says so."""
    child = _Child(body, keep_stderr)
    stopped = False
    try:
        previous = signal.signal(signal.SIGINT, child.interrupt) if pass_interrupt else None
        try:
            if pass_interrupt:
                signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
            if watch is None:
                os.set_blocking(child._read, True)
                child._pump()
            else:
                stopped = _watched(child, watch)
        finally:
            if pass_interrupt:
                signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
                signal.signal(signal.SIGINT, previous)
    except BaseException:
        child.cancel()
        raise
    child._close()
    child._reaped = True
    _, status, usage = os.wait4(child._pid, 0)
    frames, child._ready = child._ready, []
    return Ended(frames, status, usage.ru_maxrss * 1024, stopped)


def _watched(child: _Child, watch: Callable[[int], bool]) -> bool:
    """Read `child`'s frames until it closes its pipe, asking `watch` about it whenever a second
    passes without a frame; True when `watch` said to stop it (it is killed, not reaped)."""
    waiting = select.poll()
    waiting.register(child._read, select.POLLIN)
    while child._open:
        if waiting.poll(_WATCH_MS):
            child._pump()
        elif watch(child._pid):
            os.kill(child._pid, signal.SIGKILL)
            child._pump()  # what it sent before; the kill closes its end
            return True
    return False


class Side:
    """A forked child that hands back typed messages as it makes them: `body(send)` calls
    `send(message)` (any picklable object; its type is its channel). The parent can look without
    waiting (`peek`), wait for a message of a type (`wait`), and stop the child (`stop`)."""

    def __init__(self, body: Callable[[Callable[[Any], None]], None], niceness: int = 0) -> None:
        self._child = _Child(lambda send: body(lambda message: send((_MESSAGE, message))), niceness=niceness)
        self._values: dict[type, Any] = {}
        self._stopped = False
        self._failure = "no error reported"

    def _take(self, frames: list[Any]) -> None:
        for frame in frames:
            if frame[0] == "error":
                self._failure = frame[1]
            elif frame[0] == _MESSAGE:
                self._values.setdefault(type(frame[1]), frame[1])

    def peek(self, kind: type[M]) -> M:
        """The first message of `kind` if it has arrived, else `LOST`; never waits."""
        if not self._stopped:
            self._take(self._child.poll())
        return self._values.get(kind, LOST)

    def wait(self, kind: type[M]) -> M:
        """The first message of `kind`, waiting for it; `ChildLost` when the child ended without it."""
        if not self._stopped:
            self._take(self._child.poll())
            while kind not in self._values and self._child.next_frame():
                self._take(self._child.poll())
        if kind not in self._values:
            raise ChildLost(f"worker ended without its {kind.__name__}: {self._failure}")
        return self._values[kind]

    def stop(self) -> None:
        """Kill the child (whatever it is still doing) and reap it."""
        if not self._stopped:
            self._stopped = True
            self._child.cancel()


def from_both_ends(
    work: Callable[[int, Callable[[], S]], T], count: int, prepare: Callable[[], S], niceness: int = 0,
    fatal: type[Exception] | None = None,
) -> list[T]:
    """`[work(i, need) for i in range(count)]`, this process taking the tasks from the front and a
    forked child from the back until they meet: on a busy machine the child (`niceness`) falls
    behind and this process does more. `need()` gives the value of `prepare()`, which this process
    makes once the child is forked and hands to it (`_Handoff`): a task does what it can before
    calling it (the child parses its first slice while this process prepares). A task the child
    started and did not send (it failed or was lost, the value never came) is done here, so the
    values are the same as this process alone would make. A task raising `fatal`, in the child as
    here, raises it here: the map ends."""
    handoff = _Handoff()
    claims = Claims(count)

    def body(send: Callable[[Any], None]) -> None:
        handoff.receiving()
        for index in reversed(range(count)):
            if not claims.back(index):  # this process has it, and all before it
                return
            try:
                value = work(index, handoff.receive)
            except Exception as exc:
                if fatal is None or not isinstance(exc, fatal):
                    raise
                send(("fatal", index, str(exc)))
                return
            send(("done", index, value))

    try:
        child = _Child(body, niceness=niceness)
    except BaseException:
        handoff.close()
        raise
    done: dict[int, T] = {}
    front = 0  # the next task this process needs
    theirs = 0
    try:
        handoff.sending()
        prepared = prepare()
        handoff.send(prepared)

        def need() -> S:
            return prepared

        while front < count:
            for frame in child.poll():
                if frame[0] == "done":
                    done[frame[1]] = frame[2]
                    theirs += 1
                elif frame[0] == "error":
                    mark(f"both ends: the child failed: {frame[1]}")
                elif frame[0] == "fatal" and fatal is not None:
                    mark(f"both ends: the child's task {frame[1]} ended the map")
                    raise fatal(frame[2])
            if front in done:
                front += 1
            elif not child._open or claims.front(front):
                done[front] = work(front, need)
                front += 1
            elif not child.next_frame():  # the child has this task: wait for it; if it ended, do it
                mark(f"both ends: the child ended before sending task {front}")
    finally:
        handoff.close()
        child.cancel()
    mark(f"both ends: {theirs} of {count} tasks from the child")
    return [done[index] for index in range(count)]


class _Handoff:
    """One value from the parent to a forked child, made after the fork: pickled into an unlinked
    temporary file, its size then written down a pipe, so the parent never waits for the child
    to read; the child waits for the size when it first needs the value."""

    def __init__(self) -> None:
        self._read, self._write = os.pipe2(os.O_CLOEXEC)
        self._file = _spill_file()
        self._value: Any = LOST

    def receiving(self) -> None:
        """In the child: the parent's end closed, so that the parent's end is an end of file."""
        os.close(self._write)
        self._write = -1

    def sending(self) -> None:
        """In the parent: the child's end closed."""
        os.close(self._read)
        self._read = -1

    def send(self, value: Any) -> None:
        """In the parent; a value that cannot be pickled is not sent (the child then ends, and its
        tasks are done here). The parent's end is closed either way."""
        try:
            data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
            done = 0
            while done < len(data):
                done += os.pwrite(self._file, memoryview(data)[done:], done)
            os.write(self._write, _HEADER.pack(len(data)))  # 8 bytes: the pipe takes them at once
        except Exception as exc:
            mark(f"both ends: the prepared value not handed over: {type(exc).__name__}: {exc}")
        finally:
            os.close(self._write)
            self._write = -1

    def receive(self) -> Any:
        """In the child: the value, waiting for it; `ChildLost` when the parent closed its end first."""
        if self._value is LOST:
            header = b""
            while len(header) < _HEADER.size:
                more = os.read(self._read, _HEADER.size - len(header))
                if not more:
                    raise ChildLost("the scan closed the hand-off before its value")
                header += more
            size = _HEADER.unpack(header)[0]
            data, done = bytearray(size), 0
            view = memoryview(data)
            while done < size:
                count = os.preadv(self._file, [view[done:]], done)
                if count == 0:
                    raise ChildLost("the hand-off's value cut short")
                done += count
            self._value = pickle.loads(data)
            mark("both ends: the prepared value in")
        return self._value

    def close(self) -> None:
        for fd in (self._read, self._write, self._file):
            if fd >= 0:
                os.close(fd)
        self._read = self._write = self._file = -1
