"""Progress on a terminal: the phases of `analyzer.progress` drawn with rich on stderr."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import TYPE_CHECKING, Self

from analyzer import progress
from analyzer.cli.app import err

if TYPE_CHECKING:
    from rich.console import Console
    from rich.progress import TaskID


class _TerminalProgress:
    """`analyzer.progress` on a terminal (stderr): the innermost running phase, its elapsed time,
    and a bar with the amount done when the phase is measured. Redrawn when work is reported,
    never from a thread: a scan forks workers, and a thread holding a lock at the fork would
    leave the lock held in the child."""

    _EVERY = 0.1  # seconds between redraws

    def __init__(self, console: Console) -> None:
        from rich.progress import BarColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

        self._progress = Progress(SpinnerColumn(), TextColumn("{task.description}"), BarColumn(),
                                  TextColumn("{task.fields[amount]}"), TimeElapsedColumn(), console=console,
                                  transient=True, auto_refresh=False)
        self._tasks: list[tuple[TaskID, str]] = []
        self._drawn = 0.0

    def __enter__(self) -> Self:
        self._progress.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._progress.stop()

    def start(self, label: str, total: int | None, unit: str) -> None:
        if self._tasks:
            self._progress.update(self._tasks[-1][0], visible=False)
        task = self._progress.add_task(label, total=total, amount=self._amount(0, total, unit))
        self._tasks.append((task, unit))
        self._draw(force=True)

    def advance(self, amount: int) -> None:
        if not self._tasks:
            return
        task, unit = self._tasks[-1]
        self._progress.advance(task, amount)
        state = self._progress.tasks[-1] if self._progress.tasks[-1].id == task else None
        if state is not None:
            self._progress.update(task, amount=self._amount(int(state.completed), state.total, unit))
        self._draw()

    def finish(self) -> None:
        if not self._tasks:
            return
        task, _ = self._tasks.pop()
        self._progress.remove_task(task)
        if self._tasks:
            self._progress.update(self._tasks[-1][0], visible=True)
        self._draw(force=True)

    @staticmethod
    def _amount(done: int, total: float | None, unit: str) -> str:
        if total is None:
            return ""
        if unit == "bytes":
            return f"{done / 1e6:.1f}/{total / 1e6:.1f} MB"
        return f"{done}/{int(total)} {unit}"

    def _draw(self, force: bool = False) -> None:
        import time

        now = time.monotonic()
        if force or now - self._drawn >= self._EVERY:
            self._progress.refresh()
            self._drawn = now


@contextlib.contextmanager
def terminal_progress() -> Iterator[None]:
    """Phases of `analyzer.progress` shown on stderr when it is a terminal; nothing otherwise
    (then only a verb's final line is printed)."""

    if not err.is_terminal:
        yield
        return
    with _TerminalProgress(err.console) as shown, progress.listening(shown):
        yield
