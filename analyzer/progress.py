"""Progress of long work, told to whoever listens; silent unless a listener is installed. A stage
says what it does in a `with progress.phase(name, total=..., unit=...) as step:` and calls
`step.advance(n)`; phases nest. Only the CLI installs a listener, so the pipeline never imports
rich (docs/performance.md, "Progress")."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator
from typing import Protocol


class Listener(Protocol):
    def start(self, label: str, total: int | None, unit: str) -> None: ...
    def advance(self, amount: int) -> None: ...
    def finish(self) -> None: ...


_listener: Listener | None = None
_pid = 0


@contextlib.contextmanager
def listening(listener: Listener | None) -> Iterator[None]:
    """Report the phases of this process to `listener` (None: stay silent) while in the block."""
    global _listener, _pid
    previous = (_listener, _pid)
    _listener, _pid = listener, os.getpid()
    try:
        yield
    finally:
        _listener, _pid = previous


def adopt() -> None:
    """Report to this process's listener from a child forked to do the work while the parent
    only waits for it (`analyzer.isolated`): the terminal is the child's until it ends."""
    global _pid
    if _listener is not None:
        _pid = os.getpid()


def _active() -> Listener | None:
    return _listener if _listener is not None and os.getpid() == _pid else None


class Step:
    """The running phase: `advance` by the amount of work just done (in the phase's unit)."""

    def __init__(self, listener: Listener | None) -> None:
        self._listener = listener

    def advance(self, amount: int) -> None:
        if self._listener is not None:
            self._listener.advance(amount)


@contextlib.contextmanager
def phase(label: str, total: int | None = None, unit: str = "bytes") -> Iterator[Step]:
    """A phase of work; `total` (in `unit`: bytes, files, callsites) when it can be measured."""
    listener = _active()
    if listener is not None:
        listener.start(label, total, unit)
    try:
        yield Step(listener)
    finally:
        if listener is not None:
            listener.finish()


#: how much of a source tree-sitter is handed at a time when progress is shown
_READ = 1 << 20


def parse_input(source: bytes, label: str) -> tuple[bytes | Callable[[int, object], bytes], Callable[[], None]]:
    """What to hand a tree-sitter parse of `source`: the bytes themselves when nobody listens,
    else a read callback that reports how far the parser has read; and a `done` to call after
    the parse. The tree is the same either way."""
    listener = _active()
    if listener is None:
        return source, lambda: None
    listener.start(label, len(source), "bytes")
    furthest = [0]

    def read(offset: int, point: object) -> bytes:
        end = min(len(source), offset + _READ)
        if end > furthest[0]:
            listener.advance(end - furthest[0])
            furthest[0] = end
        return source[offset:end]

    return read, listener.finish
