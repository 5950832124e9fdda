"""The `erratlas` command: parse options, call the pipeline, print. Nothing else."""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.console import Console

from analyzer import __version__
from analyzer.errors import ExitCode, InputError, InvariantError

app = typer.Typer(
    name="erratlas",
    help="Inventory every error and diagnostic callsite of a shipped bundle, with owners.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
_err = Console(stderr=True, highlight=False, soft_wrap=True)


def _fail(message: str, code: ExitCode) -> None:
    _err.print(f"erratlas: error: {message}", markup=False)
    raise typer.Exit(int(code))


@app.command()
def scan(
    bundle: Annotated[Path, typer.Argument(help="A .js/.mjs/.cjs bundle or a Bun executable.")],
    out: Annotated[Path, typer.Option("--out", "-o", help="Output directory (replaced atomically).")] = Path(
        "erratlas-out"
    ),
    rules: Annotated[Optional[Path], typer.Option("--rules", help="Rules file (default rules/javascript.toml).")] = None,
    logger: Annotated[Optional[str], typer.Option("--logger", help="The logger's name; skips detection.")] = None,
) -> None:
    """Scan BUNDLE and write the inventory to --out."""
    from analyzer.javascript.syntax import LANGUAGE  # noqa: F401  (fail fast if the grammar is missing)
    from analyzer.reports.inventory import inventory_files
    from analyzer.reports.output import write_directory
    from analyzer.reports.summary import SUMMARY_FILE, summary
    from analyzer.rules import load_javascript_rules
    from analyzer.scan import scan as run_scan

    with _progress("scanning") as status:
        loaded_rules = load_javascript_rules(rules)
        result = run_scan(bundle, loaded_rules, logger)
        status.update("writing reports")
        files = inventory_files(result)
        files[SUMMARY_FILE] = summary(result, files)
        write_directory(out, files)
    errors = sum(1 for r in result.callsites if r.kind == "error")
    diagnostics = len(result.callsites) - errors
    loggers = ", ".join(f"{u.logger['name']}" for u in result.units)
    _err.print(
        f"erratlas: {bundle.name}: {errors} error callsites, {diagnostics} diagnostic callsites "
        f"(logger: {loggers}), {len(result.classes)} error classes -> {out}",
        markup=False,
    )


@app.command()
def version() -> None:
    """Print the version."""
    typer.echo(__version__)


class _progress:
    """A rich status line on a terminal; nothing otherwise."""

    def __init__(self, label: str) -> None:
        self._status = _err.status(label) if sys.stderr.isatty() else None

    def __enter__(self) -> "_progress":
        if self._status is not None:
            self._status.__enter__()
        return self

    def update(self, label: str) -> None:
        if self._status is not None:
            self._status.update(label)

    def __exit__(self, *exc: object) -> None:
        if self._status is not None:
            self._status.__exit__(None, None, None)


def _terminate(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)  # unwinds `finally` blocks: the staging directory is removed


def main() -> None:
    for signum in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, _terminate)
    try:
        app(standalone_mode=False)
    except InputError as exc:
        _err.print(f"erratlas: error: {exc}", markup=False)
        sys.exit(int(ExitCode.BAD_INPUT))
    except InvariantError as exc:
        _err.print(f"erratlas: internal error: invariant broken: {exc}", markup=False)
        sys.exit(int(ExitCode.INTERNAL))
    except typer.Exit as exc:
        sys.exit(exc.exit_code)
    except (typer.Abort, KeyboardInterrupt):
        _err.print("erratlas: interrupted", markup=False)
        sys.exit(130)
    except Exception as exc:  # click usage errors and our own bugs
        import click

        if isinstance(exc, click.ClickException):
            exc.show()
            sys.exit(int(ExitCode.BAD_INPUT))
        if os.environ.get("ERRATLAS_DEBUG"):
            raise
        _err.print(f"erratlas: internal error: {type(exc).__name__}: {exc} (ERRATLAS_DEBUG=1 for a traceback)",
                   markup=False)
        sys.exit(int(ExitCode.INTERNAL))
