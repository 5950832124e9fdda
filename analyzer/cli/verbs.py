"""Every verb registered on the typer app, in the order `erratlas --help` lists them, and the
app run for a command line (`main`). Every verb imports its stage inside its body: a verb that
only reads a scan directory never loads a parser."""

from __future__ import annotations

import sys

from analyzer.cli.app import app
from analyzer.cli.app import main as _run
from analyzer.cli.given import CheckedCommand
from analyzer.cli.owning import allow, fmt, gate, project, prune
from analyzer.cli.reading import explain, sarif, version
from analyzer.cli.releases import corpus_app, diff_command
from analyzer.cli.scanning import scan
from analyzer.cli.suggesting import accept, extract, suggest

for _verb in (scan, project, allow, prune, fmt, gate, sarif, explain, version, extract, suggest, accept):
    app.command(cls=CheckedCommand)(_verb)
app.command("diff", cls=CheckedCommand)(diff_command)
app.add_typer(corpus_app, name="corpus")
# `analyzer.cli.app` is the app with every verb (importing the module `analyzer.cli.app` set it to the module)
sys.modules[__package__].__dict__["app"] = app


def main() -> None:
    """The app for this command line. typer builds the parameters of every command it holds
    before it parses (0.014 s for all of them, docs/performance.md, "The gate"): when the first
    argument names a verb, the app holds that verb and `version` only, still a group of
    commands, so that help, usage errors and exit statuses are those of the whole app."""
    named = {command.name or command.callback.__name__.lower().replace("_", "-"): command  # typer's own naming
             for command in app.registered_commands if command.callback is not None}
    verb = sys.argv[1] if len(sys.argv) > 1 else ""
    if verb in named:
        app.registered_commands = [named[verb]] + ([named["version"]] if verb != "version" else [named["scan"]])
        app.registered_groups = []
    _run()
