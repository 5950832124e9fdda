"""The `erratlas` typer app, its console and exit codes, and the console script `main`.

The verbs live beside it, one module per stage; `analyzer.cli` registers them all."""

from __future__ import annotations

import functools
import gc
import os
import signal
import sys
from typing import TYPE_CHECKING, Any

import typer

from analyzer.errors import ChildFailure, ExitCode, InputError, InvariantError

if TYPE_CHECKING:
    from rich.console import Console

app = typer.Typer(
    name="erratlas",
    help="Inventory every error and diagnostic callsite of a shipped bundle, with owners.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


class _Stderr:
    """The stderr console, made at its first use: a verb that says nothing there (a passing
    gate) never imports rich (docs/performance.md, "The gate")."""

    @functools.cached_property
    def console(self) -> Console:
        from rich.console import Console

        return Console(stderr=True, highlight=False, soft_wrap=True)

    def print(self, *objects: Any, **options: Any) -> None:
        self.console.print(*objects, **options)

    @property
    def is_terminal(self) -> bool:
        return self.console.is_terminal


err = _Stderr()


def fail(message: str, code: ExitCode) -> None:
    err.print(f"erratlas: error: {message}", markup=False)
    raise typer.Exit(int(code))


ALLOWLISTS = typer.Option("--allowlist", "-a", help="Reviewed allowlist TOML (repeatable).")


def cores() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def reading_a_scan() -> None:
    """A verb that reads a scan directory holds its records until it exits and makes few
    reference cycles: the collector's full passes over them would cost a fifth of its time."""
    gc.disable()


def github_escape(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _terminate(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)  # unwinds `finally` blocks: the staging directory is removed


def main() -> None:
    """The console script. Ends with `os._exit` once every output is written and the standard
    streams are flushed: freeing a big bundle's syntax trees and records object by object takes
    longer than the process exit that returns their memory at once."""
    for signum in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, _terminate)
    code = 0
    usage = _click_exceptions()
    try:
        result = app(standalone_mode=False)  # usage errors are raised, typer.Exit returns its code
        code = result if isinstance(result, int) else 0
    except usage.NoArgsIsHelpError as exc:  # `erratlas` alone: the help, as asked
        print(exc.format_message(), file=sys.stderr)
        code = int(ExitCode.BAD_INPUT)
    except usage.ClickException as exc:  # a usage error: one line, exit 2
        where = exc.ctx.command_path if getattr(exc, "ctx", None) is not None else "erratlas"
        message = " ".join(exc.format_message().split())
        err.print(f"erratlas: error: {where}: {message} (see `{where} --help`)", markup=False, soft_wrap=True)
        code = exc.exit_code
    except KeyboardInterrupt:  # Ctrl-C in a verb that says nothing more itself (`scan` says what it kept)
        err.print("erratlas: interrupted", markup=False)
        code = int(ExitCode.INTERRUPTED)
    except (getattr(usage, "Abort", typer.Abort), typer.Abort):
        err.print("erratlas: aborted", markup=False)
        code = 1
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        if not isinstance(exc.code, int) and exc.code is not None:
            print(exc.code, file=sys.stderr)
    except InputError as exc:
        err.print(f"erratlas: error: {exc}", markup=False)
        code = int(ExitCode.BAD_INPUT)
    except InvariantError as exc:
        err.print(f"erratlas: internal error: invariant broken: {exc}", markup=False)
        code = int(ExitCode.INTERNAL)
    except ChildFailure as exc:  # an internal error inside an isolated scan
        if os.environ.get("ERRATLAS_DEBUG"):
            print(exc.trace, file=sys.stderr, end="")
        err.print(f"erratlas: internal error: {exc} (ERRATLAS_DEBUG=1 for a traceback)", markup=False)
        code = int(ExitCode.INTERNAL)
    except Exception as exc:  # our own bugs: one line unless asked for the traceback
        if os.environ.get("ERRATLAS_DEBUG"):
            raise
        err.print(f"erratlas: internal error: {type(exc).__name__}: {exc} (ERRATLAS_DEBUG=1 for a traceback)",
                   markup=False)
        code = int(ExitCode.INTERNAL)
    _exit_now(code)


def _click_exceptions() -> Any:
    """The exceptions of the click that typer runs on (typer 0.2x carries its own copy)."""
    try:
        from typer._click import exceptions
    except ImportError:  # an earlier typer, on click itself
        from click import exceptions  # type: ignore[no-redef]
    return exceptions


def _exit_now(code: int) -> None:
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):  # a closed or broken stream: the exit status still tells
        code = code or 1
    os._exit(code)
