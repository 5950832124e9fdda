"""What every verb shares without typer: the stderr console made at its first use, what an
exception becomes (one line on stderr and an exit status), and the exit that frees nothing.

`analyzer.cli.app` runs the typer app through it, and `analyzer.cli.gating` a plain gate command
line (docs/performance.md, "The gate")."""

from __future__ import annotations

import functools
import gc
import os
import signal
import sys
from typing import TYPE_CHECKING, Any

from analyzer.errors import ChildFailure, ExitCode, InputError, InvariantError, visible

if TYPE_CHECKING:
    from rich.console import Console


class _Stderr:
    """The stderr console, made at its first use: a verb that says nothing there (a passing
    gate) never imports rich (docs/performance.md, "The gate")."""

    @functools.cached_property
    def console(self) -> Console:
        from rich.console import Console

        return Console(stderr=True, highlight=False, soft_wrap=True)

    def print(self, *objects: Any, **options: Any) -> None:
        """Each text as one line a terminal shows as written (`errors.visible`): a name in it (a
        file's, an embedded module's) may hold a line break or an escape sequence."""
        self.console.print(*(visible(o) if isinstance(o, str) else o for o in objects), **options)

    @property
    def is_terminal(self) -> bool:
        return self.console.is_terminal


err = _Stderr()


def reading_a_scan() -> None:
    """A verb that reads a scan directory holds its records until it exits and makes few
    reference cycles: the collector's full passes over them would cost a fifth of its time."""
    gc.disable()


def github_escape(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _terminate(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)  # unwinds `finally` blocks: the staging directory is removed


def on_signals() -> None:
    """SIGTERM and SIGHUP end a verb as an exit does, `finally` blocks run."""
    for signum in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, _terminate)


#: what `str.splitlines` ends a line at: a value quoted in a message (an allowlist's `owner = "a\nb"`)
#: is written escaped, so that an error stays the one line a caller reads (docs/reference.md)
_LINE_BREAKS = {ord(c): c.encode("unicode_escape").decode() for c in "\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029"}


def one_line(text: str) -> str:
    """An error line as the terminal shows it: line breaks and every other control escaped."""
    return visible(text)


def one_line_value(value: str | None) -> str | None:
    """An option's value that is written into outputs and messages as a name (`--logger`, a
    diff's labels): refused when it would break a line or is blank (a usage error, exit 2)."""
    if value is not None and value.translate(_LINE_BREAKS) != value:
        import typer

        raise typer.BadParameter(f'must be one line, not "{one_line(value)}"')
    if value is not None and not value.strip():  # a title of nothing: `--new-label "$TAG"` with TAG unset
        import typer

        raise typer.BadParameter(f"a blank name, {value!r} (an unset variable?)")
    return value


class Outcome:
    """A verb's exit status: `with Outcome() as outcome:` around it, `outcome.code` after; an
    exception is one line on stderr and its status (a usage error is the app's to say). Our own
    bugs propagate as they are under ERRATLAS_DEBUG, for a traceback."""

    def __init__(self) -> None:
        self.code = 0

    def __enter__(self) -> Outcome:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, trace: object) -> bool:
        if exc is None or not isinstance(exc, (KeyboardInterrupt, SystemExit, Exception)):
            return False
        status = self._status(exc)
        if status is None:
            return False
        self.code = status
        return True

    @staticmethod
    def _status(exc: BaseException) -> int | None:
        if isinstance(exc, KeyboardInterrupt):  # Ctrl-C in a verb that says nothing more (`scan` says what it kept)
            err.print("erratlas: interrupted", markup=False)
            return int(ExitCode.INTERRUPTED)
        if isinstance(exc, SystemExit):
            if not isinstance(exc.code, int) and exc.code is not None:
                print(exc.code, file=sys.stderr)
            return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        if isinstance(exc, InputError):
            err.print(f"erratlas: error: {one_line(str(exc))}", markup=False)
            return int(ExitCode.BAD_INPUT)
        if isinstance(exc, InvariantError):
            err.print(f"erratlas: internal error: invariant broken: {one_line(str(exc))}", markup=False)
            return int(ExitCode.INTERNAL)
        if isinstance(exc, ChildFailure):  # an internal error inside an isolated scan
            if os.environ.get("ERRATLAS_DEBUG"):
                print(exc.trace, file=sys.stderr, end="")
            err.print(f"erratlas: internal error: {one_line(str(exc))} (ERRATLAS_DEBUG=1 for a traceback)",
                      markup=False)
            return int(ExitCode.INTERNAL)
        if os.environ.get("ERRATLAS_DEBUG"):  # our own bug: its traceback
            return None
        err.print(f"erratlas: internal error: {type(exc).__name__}: {one_line(str(exc))} "
                  "(ERRATLAS_DEBUG=1 for a traceback)", markup=False)
        return int(ExitCode.INTERNAL)


def exit_now(code: int) -> None:
    """Exit once the standard streams are flushed, freeing nothing: freeing a big bundle's syntax
    trees and records object by object takes longer than the process exit that returns their
    memory at once."""
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):  # a closed or broken stream: the exit status still tells
        code = code or 1
    os._exit(code)
