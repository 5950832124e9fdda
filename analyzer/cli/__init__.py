"""The `erratlas` command: parse options, call the pipeline, print. Nothing else.

One module per group of verbs; they are registered here, in the order `erratlas --help` lists
them. Every verb imports its stage inside its body: a verb that only reads a scan directory
never loads a parser.
"""

from __future__ import annotations

from analyzer.cli.app import app, main
from analyzer.cli.owning import allow, fmt, gate, project, prune
from analyzer.cli.reading import explain, sarif, version
from analyzer.cli.releases import corpus_app, diff_command
from analyzer.cli.scanning import scan
from analyzer.cli.suggesting import accept, extract, suggest

for _verb in (scan, project, allow, prune, fmt, gate, sarif, explain, version, extract, suggest, accept):
    app.command()(_verb)
app.command("diff")(diff_command)
app.add_typer(corpus_app, name="corpus")

__all__ = ["app", "main"]
