"""Evidence for owners: a Bun executable's embedded modules, suggestions, and accepting them."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from analyzer import progress
from analyzer.cli.app import err
from analyzer.cli.terminal import terminal_progress
from analyzer.errors import InputError

if TYPE_CHECKING:
    from analyzer.model import Suggestion
    from analyzer.owners.truth import MapTruth
    from analyzer.summary_model import Summary


def extract(
    binary: Annotated[Path, typer.Argument(help="A Bun single-file executable.")],
    out: Annotated[Path, typer.Option("--out", "-o", help="Directory to write the embedded modules to.")],
) -> None:
    """Write the embedded modules of a Bun executable (and manifest.json) to --out."""
    from analyzer.bundle.embedded import extract as run_extract

    if os.path.isdir(binary):
        raise InputError(binary, f"a directory, not a Bun executable: {_SCANNED_AS_IS}")
    try:
        rows = run_extract(binary, out)
    except InputError as refused:
        if refused.problem.startswith("not a Bun executable") and not _executable(binary):
            raise InputError(refused.path, f"{refused.problem}; {_SCANNED_AS_IS}") from None
        raise
    written = sum(1 for row in rows if row["file"] is not None)
    err.print(f"erratlas: {binary.name}: {len(rows)} embedded modules, {written} with source -> {out}", markup=False)


#: what to do with an input `extract` does not read
_SCANNED_AS_IS = ("`erratlas extract` reads what `bun build --compile` writes; a bundle, a directory or an archive is "
                  "scanned as it is (`erratlas scan PATH`)")
#: the first bytes of ELF, Mach-O (both orders, and universal) and PE files
_EXECUTABLES = (b"\x7fELF", b"\xcf\xfa\xed\xfe", b"\xfe\xed\xfa\xcf", b"\xca\xfe\xba\xbe", b"MZ")


def _executable(path: Path) -> bool:
    """`path` opens as an executable of some format (one without a Bun graph is still refused as such)."""
    try:
        with open(path, "rb") as file:
            return file.read(4).startswith(_EXECUTABLES)
    except OSError:
        return False


def suggest(
    directory: Annotated[Path, typer.Argument(help="A scan directory.")],
    out: Annotated[
        Path | None, typer.Option("--out", "-o", help="Write here instead of DIR/suggestions.jsonl.")
    ] = None,
    corpus: Annotated[
        Path | None,
        typer.Option("--corpus", help="Also match the bundle's functions against this corpus (`erratlas corpus add`)."),
    ] = None,
    bundle: Annotated[
        Path | None,
        typer.Option(
            "--bundle", help="With --corpus, for a scan made without --signatures: the scanned bundle, parsed again."
        ),
    ] = None,
    product_sources: Annotated[
        list[str] | None,
        typer.Option(
            "--product-sources",
            help="A directory of the map's sources, as map-sources.jsonl writes it (relative to the package root, "
            "e.g. ../src), that is the product's although it lies outside the package (repeatable).",
        ),
    ] = None,
) -> None:
    """Propose allowlist entries from source-map, module-map, banner, signature and corpus evidence."""
    from analyzer.owners.references import ReferenceGraph
    from analyzer.owners.suggest import load_scan, render, suggestions
    from analyzer.owners.truth import MapTruth
    from analyzer.scandir.files import SIGNATURES_FILE, SUGGESTIONS_FILE
    from analyzer.scandir.read import verified
    from analyzer.scandir.summary import with_output
    from analyzer.scandir.write import write_directory, write_file

    if "" in (product_sources or []):  # a str option: the empty-path refusal of the Path options does not see it
        raise InputError("--product-sources", "an empty path (an unset variable?); `.` is the package root")
    with terminal_progress():
        with progress.phase(f"reading and verifying {directory}"):
            files, summary = verified(directory)
        if corpus is not None:
            corpus_applies(summary, bundle)
        with progress.phase("suggesting owners"):
            records, modules = load_scan(files)
            truth = MapTruth.load(files, product_sources or [])
            rows = suggestions(records, modules, ReferenceGraph.load(files), truth)
            if corpus is not None:
                from analyzer.javascript.corpus import index_sources, signatures_of_bundle
                from analyzer.owners.corpus.suggest import render as render_with_corpus
                from analyzer.owners.corpus.suggest import with_corpus
                rows = with_corpus(rows, records, modules, files, summary, corpus, bundle, directory,
                                   index_sources, signatures_of_bundle, lambda line: err.print(line, markup=False))
                data = render_with_corpus(rows)
            elif bundle is not None:
                raise InputError("--bundle", "only used with --corpus")
            else:
                data = render(rows)
        with progress.phase("writing suggestions"):
            if out is None:
                write_directory(directory, with_output(files, SUGGESTIONS_FILE, data))
                out = directory / SUGGESTIONS_FILE
            else:
                write_file(out, data)
    for warning in [*truth.warnings(), *_idle_statements(truth)]:
        err.print(f"erratlas: warning: {warning}", markup=False)
    if not rows and corpus is None and "libcst" not in summary.fingerprint.grammar:
        err.print(_without_evidence(directory, SIGNATURES_FILE in files), markup=False)
    by = {c: sum(1 for r in rows if r.confidence == c) for c in ("exact", "likely", "possible", "ambiguous")}
    levels = {lv: sum(1 for r in rows if r.level == lv) for lv in ("callsite", "function", "module", "references")}
    counted = ", ".join(f"{k} {v}" for k, v in levels.items() if v)
    at = f"; {counted}" if counted else ""  # none at any level: no empty '; )'
    err.print(
        f"erratlas: {len(rows)} suggestions (exact {by['exact']}, likely {by['likely']}, possible {by['possible']}, "
        f"ambiguous {by['ambiguous']}{at}) -> {out}",
        markup=False,
    )


def corpus_applies(summary: Summary, bundle: Path | None) -> None:
    """Refuse `--corpus` where it cannot apply (a Python scan), and a `--bundle` that cannot be the
    bundle file the scan read, parsed again: missing, a directory, or given for a scan of a tree."""
    if "libcst" in summary.fingerprint.grammar:
        raise InputError("--corpus", "matches a JavaScript bundle's functions against npm package sources; this "
                                     "is a scan of Python sources")
    if bundle is None:
        return
    again = "a scan of a directory or an archive is matched when it is made with --signatures (`erratlas scan PATH " \
            "--signatures`)"
    if not os.path.lexists(bundle):
        raise InputError(bundle, "no such file")
    if os.path.isdir(bundle):
        raise InputError(bundle, f"a directory: --bundle is the bundle file the scan read, parsed again; {again}")
    inputs = summary.document.get("inputs")
    executable = isinstance(inputs, dict) and bool(inputs.get("embedded"))
    if not executable and [unit.name for unit in summary.units] != [summary.bundle.name]:
        raise InputError("--bundle", f"parses one bundle file again, and {summary.bundle.name} was scanned as a tree "
                                     f"of {len(summary.units)} files; {again}")


def _without_evidence(directory: Path, signed: bool) -> str:
    """What to do when a JavaScript scan holds no evidence of an owner (no source map, kept module
    path or licence banner): match it against real package sources (docs/corpus.md)."""
    import shlex

    from analyzer.owners.corpus.store import default_corpus

    scan = shlex.quote(str(directory))
    first = "" if signed else f"`erratlas scan BUNDLE --out {scan} --signatures` and "
    return (f"erratlas: {directory}: no source map, module path or licence banner here names an owner; a bundle "
            f"without a map is matched against real package sources (docs/corpus.md): `erratlas corpus names "
            f"{scan}` lists the packages it shows, `erratlas corpus add NAME... --for {scan}` fetches them, then "
            f"{first}`erratlas suggest {scan} --corpus {shlex.quote(str(default_corpus()))}`")


def _idle_statements(truth: MapTruth) -> list[str]:
    """A `--product-sources` directory that owns no source of the scan's maps: a typo (`../scr`), or a
    scan without a map, would otherwise suggest nothing without a word."""
    placed = {stated for row in truth.rows
              if (found := truth.of_source(row.unit, row.source)) is not None
              and any(kind == "product-sources" for kind, _ in found.evidence)
              and (stated := truth.stated(row.path)) is not None}
    return [f"--product-sources {stated}: no source of the scan's maps lies there outside the package and without a "
            "package named (map-sources.jsonl lists them): it changes no suggestion"
            for stated in dict.fromkeys(truth.product_sources) if stated not in placed]


def accept(
    context: typer.Context,
    directory: Annotated[Path, typer.Argument(help="A scan directory holding suggestions.jsonl.")],
    allowlist: Annotated[Path, typer.Option("--allowlist", "-a", help="The allowlist to write (created if absent).")],
    reviewer: Annotated[str, typer.Option("--reviewer", help="Who reviewed the suggestions.")],
    ids: Annotated[list[str] | None, typer.Option("--id", help="A suggestion id (repeatable).")] = None,
    confidence: Annotated[str, typer.Option("--confidence", help="Without --id: accept this or stronger.")] = "exact",
    package: Annotated[list[str] | None, typer.Option("--package", help="Without --id: only this package.")] = None,
    level: Annotated[
        str,
        typer.Option(
            "--level",
            help="Without --id: auto (the levels that carry best: a source "
            "map's truth per callsite and as product roots), or callsite, function, "
            "module, references.",
        ),
    ] = "auto",
    on: Annotated[str | None, typer.Option("--on", help="Review date YYYY-MM-DD (default today).")] = None,
    note: Annotated[str | None, typer.Option("--note", help="Added to every entry's reason.")] = None,
    suggestions_file: Annotated[
        Path | None, typer.Option("--suggestions", help="Default DIR/suggestions.jsonl.")
    ] = None,
    unowned: Annotated[
        bool,
        typer.Option(
            "--unowned",
            help="Without --id: only suggestions every callsite of which DIR's "
            "projection leaves Unresolved (project DIR with the allowlist first).",
        ),
    ] = False,
) -> None:
    """Copy chosen suggestions into a reviewed allowlist: only then do they change owners."""
    from analyzer.owners.suggest import accept as run_accept
    from analyzer.owners.suggest import chosen, load_suggestions, skipped, still_unowned
    from analyzer.scandir.files import SUGGESTIONS_FILE

    choosing = [name for name in ("confidence", "package", "level", "unowned")
                if getattr(context.get_parameter_source(name), "name", None) == "COMMANDLINE"]
    if ids and choosing:  # with --id they chose nothing, and accepting what they exclude would go unsaid
        raise InputError(f"--{choosing[0]}", "chooses suggestions without --id, and --id names them: give one or "
                                             "the other")
    if suggestions_file is not None and not os.path.lexists(suggestions_file):  # a file named: not a step missed
        raise InputError(suggestions_file, "suggestions file not found")
    rows = load_suggestions(suggestions_file or directory / SUGGESTIONS_FILE)
    picked = chosen(rows, list(dict.fromkeys(ids or [])), confidence, package or [], level)  # an id given twice: once
    if suggestions_file is not None:
        _refuse_foreign(picked, directory, suggestions_file)
    if unowned and not ids:
        picked = still_unowned(picked, directory)
    entries = run_accept(picked, allowlist, reviewer, on, note)
    covered = sum(r.callsites for r in picked)
    left = [] if ids else skipped(rows, picked, confidence, package or [], level)
    err.print(f"erratlas: {allowlist}: {len(entries)} entries accepted, covering {covered} callsites"
              + (f"; {len(rows) - len(picked)} of {len(rows)} suggestions skipped: " + "; ".join(left) if left else ""),
              markup=False)


def _refuse_foreign(picked: list[Suggestion], directory: Path, given: Path) -> None:
    """Refuse suggestions of another scan (`suggest`'s of another bundle, a diff's carried.jsonl
    given with its old directory): accepted, each would be a stale entry, counted as covering
    callsites the scan does not have."""
    from analyzer.scandir.load import load_callsites
    from analyzer.scandir.read import verified

    files, _ = verified(directory)
    ids = {record.id for record in load_callsites(files)}
    foreign = [row for row in picked if row.exampleIds and not ids.intersection(row.exampleIds)]
    if foreign:
        shown = ", ".join(row.exampleIds[0] for row in foreign[:3]) + (" …" if len(foreign) > 3 else "")
        raise InputError(given, f"{len(foreign)} of the {len(picked)} suggestions chosen name no callsite of "
                                f"{directory} (their examples {shown} are not in it): suggestions of another scan? "
                                f"`erratlas suggest {directory}` makes this one's")
