"""A JavaScript scan runs in a forked child, where nothing can take the command down: a crash
of the parser (tree-sitter is C; it ends with SIGSEGV when the memory bound refuses it an
allocation), a breach of the memory bound, or a kill. The parent gets the child's result, or
one line naming the file and what happened (exit status 2), and writes nothing.

The child's own workers (`parallel/forked.py`) are tied to it: they die with it.
"""

from __future__ import annotations

import os
import re
import signal
import sys
import tempfile
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from analyzer import limits, progress
from analyzer.errors import ChildFailure, InputError, InvariantError
from analyzer.parallel.forked import run_to_end
from analyzer.parallel.procs import StallWatch

T = TypeVar("T")

#: `send` of the isolated child, in that child only (its workers inherit the module, not the role)
_channel: tuple[int, Callable[[Any], None]] | None = None

#: a child that died (by a signal, an exit without a result, or a failure that names a
#: MemoryError) with at least this share of the memory bound resident is taken to have run into
#: the bound: Python meets the bound wherever it allocates, in its own error handling too
_NEAR_BOUND = 0.8
#: what says an allocation failed: the interpreter (a MemoryError, fatal or not), tree-sitter's allocator,
#: and a C function that failed to allocate and set no exception (its caller's SystemError)
_MEMORY_FAILED = re.compile(r"MemoryError|failed to allocate|[Oo]ut of memory|"
                            r"error return without exception set|NULL without setting an exception")


def report(kind: str, value: object) -> None:
    """Tell the parent where the scan is (`unit`: the unit being parsed; `memory`: the bound
    set), so that a crash can be reported against the right file. A no-op elsewhere."""
    if _channel is not None and _channel[0] == os.getpid():
        _channel[1]((kind, value))


def isolated(work: Callable[[], T], subject: Path) -> T:
    """`work()` run in a forked child (`analyzer.parallel.executor.Forked` asks). Exceptions
    travel back: InputError as InputError, InvariantError as InvariantError, anything else as
    ChildFailure; a child that dies becomes an InputError naming the unit it was on. What the
    child's interpreter wrote to its descriptor 2 (a fatal error) is shown after, unless the child
    ran into the memory bound: then its allocations failing anywhere is the one line's to tell.

    Ctrl-C (SIGINT to the process group) ends the child, and then this raises KeyboardInterrupt;
    this process only passes SIGINT on to the child while it waits (a supervisor may signal this
    process alone), so that the child alone decides: once `work` blocks SIGINT (the scan writing
    its files), the child finishes, and SIGINT stays held here (the caller swaps the files in and
    exits, which drops it)."""
    held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    with tempfile.TemporaryFile(prefix="erratlas-fatal-") as fatal:
        # the child keeps stderr: it shows the progress
        ended = run_to_end(lambda send: _child(work, send, held, fatal.fileno()), keep_stderr=True,
                           pass_interrupt=_interruptible(), watch=StallWatch())
        if os.WIFSIGNALED(ended.status) and os.WTERMSIG(ended.status) == signal.SIGINT:
            signal.pthread_sigmask(signal.SIG_SETMASK, held)
            raise KeyboardInterrupt
        fatal.seek(0)
        said = fatal.read(1 << 20)  # a fatal error, a dump: never more
    past_the_bound = False
    try:
        return _outcome(ended, subject, said)
    except _PastTheBound:
        past_the_bound = True  # the interpreter's last words there are its own allocations failing
        raise
    finally:
        if said and not past_the_bound:
            sys.stderr.flush()
            os.write(2, said)


def _interruptible() -> bool:
    """Whether this process takes SIGINT at all (not ignored, as a shell leaves a background job)
    and may pass it on (a handler is set from the main thread only)."""
    import threading

    main = threading.current_thread() is threading.main_thread()
    return main and signal.getsignal(signal.SIGINT) is not signal.SIG_IGN


def _outcome(ended: Any, subject: Path, said: bytes) -> Any:
    """The child's result, or the exception that tells how it ended (`said`: what its interpreter
    wrote to its descriptor 2)."""
    notes = _Notes()
    for frame in ended.frames:
        kind = frame[0]
        if kind == "result":
            return frame[1]
        if kind == "input":
            raise InputError(frame[1], frame[2])
        if kind == "invariant":
            raise InvariantError(frame[1])
        if kind == "internal":
            if notes.memory is not None and _MEMORY_FAILED.search(frame[2]):
                raise _PastTheBound(notes.unit if notes.unit is not None else subject, f"exceeded {_bound_text(notes)}")
            raise ChildFailure(frame[1], frame[2])
        if kind == "out-of-memory":
            raise _PastTheBound(notes.unit if notes.unit is not None else subject, f"exceeded {_bound_text(notes)}")
        if kind == "unit":
            notes.unit = str(frame[1])
        elif kind in ("memory", "javascript"):
            setattr(notes, kind, int(frame[1]))
    if ended.stopped:
        where = notes.unit if notes.unit is not None else subject
        raise _PastTheBound(where, f"exceeded {_bound_text(notes)} (the scan stalled there and was stopped)")
    memory_failed = _MEMORY_FAILED.search(said.decode("utf-8", "replace")) is not None
    raise _death(ended.status, ended.peak_rss, notes, subject, memory_failed)


class _PastTheBound(InputError):
    """The child ran into the memory bound."""


def _keep_fatal_errors(fatal: int) -> None:
    """The child's file descriptor 2 goes to `fatal`, its Python `sys.stderr` (the progress, the
    trace) stays the terminal: the interpreter's fatal errors (written to 2 by C) are the
    parent's to show or drop, as the one line it prints tells of them."""
    try:
        stream = sys.stderr.fileno() == 2
    except (AttributeError, ValueError, OSError):
        stream = False  # a stream that is not the descriptor (a test's capture): only the descriptor moves
    if stream:
        sys.stderr.flush()
        terminal = os.dup(2)
        # the child's stderr until it exits, line-buffered as Python's own
        sys.stderr = open(terminal, "w", buffering=1, encoding=sys.stderr.encoding, errors=sys.stderr.errors)  # noqa: SIM115
    os.dup2(fatal, 2)


def _child(
    work: Callable[[], Any], send: Callable[[Any], None], mask: set[int | signal.Signals], fatal: int
) -> None:
    global _channel
    _channel = (os.getpid(), send)
    _keep_fatal_errors(fatal)
    signal.pthread_sigmask(signal.SIG_SETMASK, mask)  # the parent's mask before it held SIGINT
    progress.adopt()  # the parent only waits: the child shows the scan's phases
    limits.isolate(_on_limit)
    try:
        value = work()
    except InputError as exc:
        send(("input", exc.path, exc.problem))
    except InvariantError as exc:
        send(("invariant", str(exc)))
    except MemoryError:
        send(("out-of-memory",))
    except Exception as exc:  # reported to the parent as an internal error
        send(("internal", f"{type(exc).__name__}: {exc}", traceback.format_exc()))
    else:
        try:
            send(("result", value))
        except MemoryError:
            send(("out-of-memory",))


def _on_limit(bound: int, javascript_bytes: int) -> None:
    report("memory", bound)
    if javascript_bytes >= 0:
        report("javascript", javascript_bytes)


@dataclass(slots=True)
class _Notes:
    """What the child reported of where it was: the unit being parsed, the memory bound set and
    the JavaScript bytes that bound was set for."""

    unit: str | None = None
    memory: int | None = None
    javascript: int | None = None


def _near_bound(peak_rss: int, notes: _Notes, memory_failed: bool) -> bool:
    """Whether a child under a memory bound ran into it: an allocation failed (`memory_failed`:
    what it said names the failure; its resident set may be well under the bound, as a bound on
    data counts what was asked for, touched or not), or it died with most of the bound resident."""
    return notes.memory is not None and (memory_failed or peak_rss >= _NEAR_BOUND * notes.memory)


def _death(status: int, peak_rss: int, notes: _Notes, subject: Path, memory_failed: bool) -> InputError:
    where = notes.unit if notes.unit is not None else subject
    if os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        name = signal.Signals(number).name if number in signal.Signals._value2member_map_ else f"signal {number}"
        if _near_bound(peak_rss, notes, memory_failed):
            return _PastTheBound(where, f"exceeded {_bound_text(notes)} (the scan ended by {name})")
        if number == signal.SIGKILL:
            return InputError(where, "the scan was killed (SIGKILL, by the system's out-of-memory killer?)")
        return InputError(where, f"the parser crashed on this input ({name}); nothing was written")
    code = os.WEXITSTATUS(status) if os.WIFEXITED(status) else status
    if _near_bound(peak_rss, notes, memory_failed):
        return _PastTheBound(where, f"exceeded {_bound_text(notes)} (the scan ended with exit status {code})")
    return InputError(where, f"the scan ended without a result (exit status {code}); nothing was written")


def _bound_text(notes: _Notes) -> str:
    javascript, bound = notes.javascript, notes.memory
    if javascript is None or bound is None:
        return "the memory bound"
    text = limits.describe_memory_bound(javascript)
    grown = bound - limits.memory_bound(javascript)
    return text if grown <= 0 else f"{text[:-1]} + {grown // limits.MiB} MiB for a source map)"
