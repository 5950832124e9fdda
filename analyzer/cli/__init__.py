"""The `erratlas` command: parse options, call the pipeline, print. Nothing else.

One module per group of verbs, registered on the typer app by `analyzer.cli.verbs`; a plain
`gate` command line is read without typer (`analyzer.cli.gating`). `analyzer.cli.app` is the
app with every verb.
"""

from __future__ import annotations

import io
import sys
from typing import Any


def main() -> None:
    """The console script: a plain gate command line runs without importing typer (a tenth of
    the gate of a small scan, docs/performance.md, "The gate"); any other, the app."""
    from analyzer.cli.gating import run_plain

    if isinstance(sys.stdout, io.TextIOWrapper):  # a bundle's text on a stdout that cannot encode it (cp1252,
        sys.stdout.reconfigure(errors="backslashreplace")  # ASCII) is written escaped, as stderr writes it

    run_plain(sys.argv[1:])  # exits when the command line is a plain gate
    from analyzer.cli.verbs import main as run

    run()


def __getattr__(name: str) -> Any:
    """`analyzer.cli.app`: the typer app with every verb (registering them sets it)."""
    if name == "app":
        import analyzer.cli.verbs  # noqa: F401

        return globals()["app"]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["main"]
