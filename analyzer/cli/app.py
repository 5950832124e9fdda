"""The `erratlas` typer app, its console and exit codes, and the console script `main`.

The verbs live beside it, one module per stage; `analyzer.cli.verbs` registers them all."""

from __future__ import annotations

import os
import sys
from typing import Any

import typer

from analyzer.cli.outcome import Outcome, err, exit_now, github_escape, on_signals, one_line, reading_a_scan
from analyzer.errors import ExitCode

app = typer.Typer(
    name="erratlas",
    help="Inventory every error and diagnostic callsite of a shipped bundle, with owners.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _version(asked: bool) -> None:
    if asked:
        from analyzer import __version__

        typer.echo(__version__)
        raise typer.Exit()


@app.callback()
def _options(
    version: bool = typer.Option(False, "--version", "-V", help="Print the version and exit (as `erratlas version`).",
                                 is_eager=True, callback=_version),
) -> None:
    # the options every command line may begin with (`erratlas --version`)
    pass

__all__ = ["ALLOWLISTS", "app", "cores", "err", "fail", "github_escape", "main", "processes", "reading_a_scan"]


def fail(message: str, code: ExitCode) -> None:
    err.print(f"erratlas: error: {one_line(message)}", markup=False)
    raise typer.Exit(int(code))


ALLOWLISTS = typer.Option("--allowlist", "-a", help="Reviewed allowlist TOML (repeatable).")


def cores() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def processes(jobs: int | None) -> int:
    """The worker processes for `--jobs`: the cores by default, and no more than the cores (2 at
    least): more would only wait, each holding a pipe, past the open-file limit a failure
    (docs/reference.md, "Bounds")."""
    return cores() if jobs is None else min(jobs, max(2, cores()))


def main() -> None:
    """The app run as the console script: usage errors are one line and exit 2, every other
    outcome is `analyzer.cli.outcome`'s; ends with `outcome.exit_now` once the streams are flushed."""
    on_signals()
    usage = _click_exceptions()
    with Outcome() as outcome:
        try:
            result = app(standalone_mode=False)  # usage errors are raised, typer.Exit returns its code
            outcome.code = result if isinstance(result, int) else 0
        except usage.NoArgsIsHelpError as exc:  # `erratlas` alone: the help, as asked
            print(exc.format_message(), file=sys.stderr)
            outcome.code = int(ExitCode.BAD_INPUT)
        except usage.ClickException as exc:  # a usage error: one line, exit 2
            where = exc.ctx.command_path if getattr(exc, "ctx", None) is not None else _command_path(sys.argv[1:])
            message = " ".join(exc.format_message().split())
            err.print(f"erratlas: error: {where}: {message} (see `{where} --help`)", markup=False, soft_wrap=True)
            outcome.code = exc.exit_code
        except (getattr(usage, "Abort", typer.Abort), typer.Abort):
            err.print("erratlas: aborted", markup=False)
            outcome.code = 1
    exit_now(outcome.code)


def _command_path(argv: list[str]) -> str:
    """The verb a command line names (`erratlas corpus add`), for a usage error click raises
    without its context: an option given last without its value (`erratlas scan app.js --out`)."""
    from typer.main import get_command

    command, path = get_command(app), ["erratlas"]
    for token in argv:
        if token.startswith("-"):  # the app's and a group's own options take no value
            continue
        commands = getattr(command, "commands", None)
        if not commands or token not in commands:
            break
        command = commands[token]
        path.append(token)
    return " ".join(path)


def _click_exceptions() -> Any:
    """The exceptions of the click that typer runs on (typer 0.2x carries its own copy)."""
    try:
        from typer._click import exceptions
    except ImportError:  # an earlier typer, on click itself
        from click import exceptions  # type: ignore[no-redef]
    return exceptions
