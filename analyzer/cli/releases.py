"""Across releases and packages: diff of two scans, and the corpus of real package sources."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from analyzer.cli.app import err, processes, reading_a_scan
from analyzer.cli.given import CheckedCommand
from analyzer.cli.outcome import one_line_value
from analyzer.errors import InputError


def diff_command(
    old: Annotated[Path, typer.Argument(help="The earlier release's scan directory (projected).")],
    new: Annotated[Path, typer.Argument(help="The later release's scan directory.")],
    out: Annotated[Path, typer.Option("--out", "-o", help="Where diff.json, diff.md and carried.jsonl go.")] = Path(
        "erratlas-diff"
    ),
    old_label: Annotated[
        str | None, typer.Option("--old-label", help="Name of the earlier release (e.g. 2.1.98).",
                                 callback=one_line_value)
    ] = None,
    new_label: Annotated[str | None, typer.Option("--new-label", help="Name of the later release.",
                                                  callback=one_line_value)] = None,
) -> None:
    """Pair the callsites of two releases; propose carrying reviewed owners to moved and changed ones."""
    import hashlib
    from dataclasses import replace

    import orjson

    from analyzer.diff_model import DiffSide
    from analyzer.owners.diff import carried, carried_logger_roots, diff, diff_outputs, document
    from analyzer.owners.projection import neighbours
    from analyzer.owners.references import ReferenceGraph
    from analyzer.owners.suggest import render as render_suggestions
    from analyzer.owners.suggest import suggestion_row
    from analyzer.reports.diff import render_diff
    from analyzer.scandir.load import in_bundle_order, load_callsites, load_projection
    from analyzer.scandir.read import verified
    from analyzer.scandir.write import write_directory
    from analyzer.versions import check_same

    reading_a_scan()
    sides = []
    for directory, label in ((old, old_label), (new, new_label)):
        files, summary = verified(directory)
        bundle = summary.bundle
        records = in_bundle_order(load_callsites(files))
        side = DiffSide(label or f"{bundle.name} {bundle.sha256[:12]}", bundle.name, bundle.sha256, len(records))
        sides.append((files, summary, records, side))
    check_same(sides[1][1].document, new, sides[0][1].document, old)
    (old_files, _, old_records, old_side), (_, _, new_records, new_side) = sides
    old_rows = {row.id: row for row in load_projection(old_files)}
    result = diff(old_records, new_records)
    rows = carried(result, old_rows, old_side.label, suggestion_row, neighbours(new_records))
    rows += carried_logger_roots(sides[0][1], old_rows, sides[1][1], ReferenceGraph.load(sides[1][0]),
                                 old_side.label, suggestion_row)
    doc = document(result, old_side, new_side, rows)
    files = {"diff.md": render_diff(doc), "carried.jsonl": render_suggestions(rows)}
    doc = replace(doc, outputs={name: hashlib.sha256(data).hexdigest() for name, data in sorted(files.items())})
    files["diff.json"] = orjson.dumps(doc, option=orjson.OPT_INDENT_2) + b"\n"
    write_directory(out, files, manifest="diff.json", owned=diff_outputs)
    c = doc.counts
    err.print(
        f"erratlas: {old_side.label} -> {new_side.label}: {c.unchanged} unchanged, {c.moved} moved, "
        f"{c.changed} changed, {c.added} added, {c.removed} removed, {c.ambiguous} ambiguous; "
        f"{len(rows)} owners to carry -> {out}",
        markup=False,
    )


corpus_app = typer.Typer(help="Real package sources that identify bundled dependency code.", no_args_is_help=True)




_CORPUS = typer.Option(
    "--corpus", help="Corpus directory (default $ERRATLAS_CACHE/corpus or ~/.cache/erratlas/corpus)."
)


@corpus_app.command("add", cls=CheckedCommand)
def corpus_add(
    specs: Annotated[
        list[str],
        typer.Argument(
            help="name, name@version, a lockfile (package-lock.json, npm-shrinkwrap.json, bun.lock, "
            "pnpm-lock.yaml, yarn.lock), a node_modules directory, or a bundle "
            "with a source map."
        ),
    ],
    corpus: Annotated[Path | None, _CORPUS] = None,
    before: Annotated[
        str | None,
        typer.Option(
            "--before",
            help="A plain name's candidates are published before "
            "this date (YYYY-MM-DD or ISO time), e.g. the bundle's release.",
        ),
    ] = None,
    candidates: Annotated[
        int, typer.Option("--candidates", min=1, help="Highest versions fetched for a plain name; matching picks "
                          "the best.")
    ] = 3,
    older_lines: Annotated[
        int, typer.Option("--older-lines", min=0, help="And the highest version of each of this many release lines "
                          "(majors) below those: for a bundle that may ship an older major.")
    ] = 0,
    jobs: Annotated[int | None, typer.Option("--jobs", "-j", min=1, help="Indexing processes (default and most: "
                                             "the number of cores, 2 at least).")] = None,
    for_bundle: Annotated[
        Path | None,
        typer.Option("--for", help="The bundle the corpus is for (the file, its npm tarball, or its scan directory): "
                     "a plain name's candidates are chosen in its time window, found from its package's publish time "
                     "or from the versions its matches prove; --before overrides."),
    ] = None,
) -> None:
    """Fetch (through npm), verify and index package sources."""
    from analyzer.javascript.corpus import index_sources
    from analyzer.owners.corpus.add import add_specs
    from analyzer.owners.corpus.registry import Candidates
    from analyzer.owners.corpus.store import Corpus, default_corpus

    if "" in specs:  # a text argument: the empty-path refusal of the path options does not see it
        raise InputError("SPECS", "an empty spec (an unset variable?); `.` is the current directory")
    root = corpus or default_corpus()
    added = add_specs(Corpus(root, index_sources), specs, before, Candidates(candidates, older_lines), processes(jobs),
                      lambda line: err.print(line, markup=False), for_bundle)
    for item in added:
        err.print(f"  {item.name}@{item.version}: {item.how}, {item.functions} distinctive functions", markup=False)
    err.print(f"erratlas: {root}: {len(added)} package versions added", markup=False)


@corpus_app.command("names", cls=CheckedCommand)
def corpus_names(
    directory: Annotated[Path, typer.Argument(help="A scan directory.")],
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object per name, with every kind of evidence.")]
    = False,
    names_only: Annotated[bool, typer.Option("--names-only", help="Only the names, one per line "
                                             "(for `corpus add $(erratlas corpus names DIR --names-only)`).")] = False,
) -> None:
    """The package names the bundle shows, each with its evidence: module paths, licence banners,
    inlined package.json objects, kept paths, package-name strings, messages. Never an owner."""
    from analyzer.owners.corpus.names import package_names, render
    from analyzer.owners.suggest import load_scan
    from analyzer.scandir.read import verified

    if as_json and names_only:  # which form is written would be the code's choice, not yours
        raise InputError("--names-only", "and --json: one form of output, choose one")
    files, summary = verified(directory)
    if "libcst" in summary.fingerprint.grammar:
        raise InputError(directory, "a scan of Python sources: corpus names reads JavaScript bundles")
    records, modules = load_scan(files)
    texts = [data for name, data in sorted(files.items()) if name.startswith("readable/")]
    messages = [r.message.text or r.message.comparisonKey or "" for r in records]
    found = package_names(modules.values(), texts, messages)
    if names_only:
        typer.echo("\n".join(f.name for f in found))
    else:
        typer.echo(render(found, as_json).decode(), nl=False)
    err.print(f"erratlas: {directory}: {len(found)} package names the bundle shows (evidence only: "
              "add them with `erratlas corpus add`)", markup=False)


@corpus_app.command("list", cls=CheckedCommand)
def corpus_list(corpus: Annotated[Path | None, _CORPUS] = None) -> None:
    """What the corpus holds: one line per package, its versions and how they were asked for."""
    from analyzer.owners.corpus.store import MANIFEST, Corpus, default_corpus

    root = corpus or default_corpus()
    if not (root / MANIFEST).is_file():  # a mistyped --corpus listed nothing and passed
        raise InputError(root, "not a corpus (no corpus.json; fill it with `erratlas corpus add`)")
    found = Corpus(root)
    for name in sorted(found.packages):
        entry = found.packages[name]
        typer.echo(f"{name}\t{' '.join(entry.versions)}\t{entry.source}\t{entry.requested}")
