"""Verbs that tell what a verified scan directory holds: sarif, explain; and version."""

from __future__ import annotations

import os
import sys
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from analyzer import __version__
from analyzer.cli.app import err, reading_a_scan
from analyzer.errors import InputError

if TYPE_CHECKING:
    from rich.console import Console

    from analyzer.handler_model import Handler, HandlerOwnerRow
    from analyzer.model import Callsite, ProjectionRow
    from analyzer.reports.explain import Story
    from analyzer.reports.sarif import OriginalSources, Selection
    from analyzer.summary_model import InputFile, Summary


def verified_outputs(
    directory: Path,
) -> tuple[dict[str, bytes], Summary, list[Callsite], list[ProjectionRow]]:
    """A verified scan directory's files, summary, callsites and projection rows (paired)."""
    from analyzer.scandir.files import PROJECTION_FILE
    from analyzer.scandir.load import in_bundle_order, load_callsites, load_projection
    from analyzer.scandir.read import verified

    files, summary = verified(directory)
    records = in_bundle_order(load_callsites(files))
    by_id = {row.id: row for row in load_projection(files)}
    missing = [r.id for r in records if r.id not in by_id]
    if missing:
        raise InputError(directory / PROJECTION_FILE, f"no projection row for {missing[0]}")
    return files, summary, records, [by_id[r.id] for r in records]


def baseline_of(path: Path | None, scan: Summary) -> Counter[str] | None:
    from analyzer.scandir.read import load_baseline

    return None if path is None else Counter(load_baseline(path, scan).unresolvedFingerprints)


def original_sources(files: dict[str, bytes], summary: Summary, bundle: Path | None,
                     where: Path) -> OriginalSources:
    """Where results point in the original sources; `bundle` (the scanned input, as seen from
    here) must be what the scan read: the bundle file, the archive, or a directory whose files
    are the scanned units."""
    from analyzer.reports.sarif import OriginalSources
    from analyzer.scandir.files import MAP_SOURCES_FILE

    located = None
    expected = summary.bundle
    if bundle is not None and bundle.is_dir():
        if [u.name for u in summary.units] == [expected.name]:  # a bundle file's one unit bears its name
            raise InputError(bundle, f"a directory; this scan read the file {expected.name}: give that file")
        for unit in summary.units:
            if "\\" in unit.name:  # escaped to be text (trees.portable_name): it names no file here
                raise InputError(bundle, f"{unit.name}: a file name that is not text; give no --bundle")
            if not os.path.lexists(bundle / unit.name):
                raise InputError(bundle, f"is not the directory this scan read (it holds no {unit.name})")
            if not _same_file(bundle / unit.name, unit):
                raise InputError(bundle, f"is not the directory this scan read ({unit.name} differs)")
        located = bundle
    elif bundle is not None:
        if not os.path.lexists(bundle):
            raise InputError(bundle, f"no such file (the bundle this scan read, {expected.name}, as seen from here)")
        if not _same_file(bundle, expected):
            raise InputError(bundle, f"is not the bundle this scan read ({expected.name}: its sha256 differs)")
        # a bundle file's units lie beside it; an archive's files are on no disk
        located = bundle.parent if any(u.name == expected.name for u in summary.units) else None
    return OriginalSources(files.get(MAP_SOURCES_FILE, b""), summary, located)


def _same_file(path: Path, expected: InputFile) -> bool:
    """`path` is a regular file with the `bytes` and `sha256` the summary records."""
    import hashlib
    import os
    import stat

    from analyzer.limits import read_regular_file

    try:
        info = os.stat(path)
    except OSError:
        raise InputError(path, "cannot be read") from None
    if not stat.S_ISREG(info.st_mode) or info.st_size != expected.bytes:
        return False
    return hashlib.sha256(read_regular_file(path, max(expected.bytes, 1), "file")).hexdigest() == expected.sha256


def write_sarif(directory: Path, summary: Summary, records: list[Callsite], rows: list[ProjectionRow],
                 selection: Selection, out: Path | None, notifications: list[str],
                 sources: OriginalSources | None = None,
                 flow: tuple[list[Handler], list[HandlerOwnerRow]] | None = None) -> tuple[int, int]:
    """Write the log; its callsite results and its handler (flow rule) results, counted."""
    import orjson

    from analyzer.reports.sarif import FLOW_RULES, sarif_log

    log = sarif_log(records, rows, summary, directory, selection, notifications, sources, flow)
    data = orjson.dumps(log) + b"\n"  # compact: a big scan gives tens of megabytes indented
    if out is None:
        sys.stdout.buffer.write(data)
    else:  # a device, a FIFO or a symlink at `out` is refused, never replaced (/dev/full was)
        from analyzer.scandir.write import write_file

        write_file(out, data)
    if sources is not None and sources.bases:  # said once written: a refused write is its one error line
        bases = " and ".join(sorted(sources.bases))
        err.print(f"erratlas: results point at the maps' original sources relative to {bases} "
                  "(run.originalUriBaseIds); --bundle PATH, the bundle file or directory scanned, makes them paths "
                  "from here", markup=False)
    results = log["runs"][0]["results"]
    handlers = sum(1 for result in results if result["ruleId"] in FLOW_RULES)
    return len(results) - handlers, handlers


def sarif(
    directory: Annotated[Path, typer.Argument(help="A scan directory.")],
    out: Annotated[Path | None, typer.Option("--out", "-o", help="Write here instead of stdout.")] = None,
    baseline: Annotated[
        Path | None,
        typer.Option(
            "--baseline", help="A summary: mark each Unresolved result new or unchanged (SARIF baselineState)."
        ),
    ] = None,
    results: Annotated[
        str,
        typer.Option(
            "--results",
            help="unresolved (default), new (Unresolved callsites new "
            "against --baseline) or all (every callsite, owned ones as notes).",
        ),
    ] = "unresolved",
    bundle: Annotated[
        Path | None,
        typer.Option("--bundle", help="The bundle DIR scanned, as seen from here: results point at the original "
                     "sources its map names, as paths from here."),
    ] = None,
    flow: Annotated[
        bool,
        typer.Option("--flow", help="Add the flow rules (off by default): swallowed-error, wrap-loses-cause and "
                     "useless-catch, one result per handler they flag, tracked by its fp1h fingerprint."),
    ] = False,
) -> None:
    """Write SARIF 2.1.0: one result per callsite the gate cares about, tracked by fingerprint."""
    from analyzer.reports.sarif import SELECTIONS, Selection

    reading_a_scan()
    if results not in SELECTIONS:
        raise InputError("--results", f"unknown selection '{results}' ({', '.join(SELECTIONS)})")
    if results == "new" and baseline is None:
        raise InputError("--results", "'new' needs --baseline SUMMARY")
    if out is not None:  # refused before the work, as it is when written (one line, no notice first)
        from analyzer.scandir.write import replaceable_file

        replaceable_file(out)
    files, summary, records, rows = verified_outputs(directory)
    sources = original_sources(files, summary, bundle, directory)
    handlers = None
    if flow:
        from analyzer.scandir.load import load_owned_handlers

        handlers = load_owned_handlers(files)
        if handlers is None:
            raise InputError("--flow", f"{directory} has no handlers.jsonl (its frontend does not look for "
                                       "handlers)")
    callsites, flagged = write_sarif(directory, summary, records, rows,
                                     Selection(results, baseline_of(baseline, summary)), out, [], sources, handlers)
    counted = f"{callsites} SARIF results ({results})"
    if flow:  # the flow rules' results are handlers', counted apart: the sum is the log's
        counted += f" and {flagged} handler results (flow rules)"
    err.print(f"erratlas: {counted} -> {out if out is not None else 'stdout'}", markup=False)


def explain(
    directory: Annotated[Path, typer.Argument(help="A scan directory.")],
    target: Annotated[str, typer.Argument(help="A callsite id (e:cli.js@123, d:...), a handler id (h:...) or a "
                                                        "fingerprint (fp1:, fp1f:, fp1m:, fp1h:).")],
    corpus: Annotated[
        Path | None,
        typer.Option("--corpus", help="A corpus: tell which corpus functions the callsite's functions equal, or, "
                     "when none does, which corpus files hold its message and how their function differs "
                     "(the scan needs --signatures)."),
    ] = None,
) -> None:
    """Tell one callsite's whole story: record, readable code, the handlers that catch it, owner
    and evidence, suggestions, and the command that would own it; or a handler's (h:... or fp1h:...):
    place, parameter, branches, sources and owner."""
    from rich.console import Console

    from analyzer.reports.explain import explain as story_of
    from analyzer.reports.explain import find_record
    from analyzer.reports.explain_flow import find_handler, flow_section, handler_story, is_handler_target
    from analyzer.scandir.load import load_handler_projection, load_handlers

    reading_a_scan()
    files, summary, records, rows = verified_outputs(directory)
    handlers, handler_rows = load_handlers(files), load_handler_projection(files)
    by_id = {r.id: r for r in records}
    out = Console(highlight=False, soft_wrap=True)
    if is_handler_target(target):
        if corpus is not None:
            raise InputError("--corpus", "tells a callsite's functions, not a handler's")
        handler = find_handler(handlers, target, directory)
        owner = next((row for row in handler_rows or [] if row.id == handler.id), None)
        _tell(out, handler_story(files, summary, handler, owner, by_id))
        return
    record = find_record(records, target, directory)
    told = None
    if corpus is not None:
        from analyzer.cli.suggesting import corpus_applies

        corpus_applies(summary, None)

        from analyzer.javascript.corpus import index_sources
        from analyzer.owners.corpus.nearest import corpus_story
        from analyzer.owners.corpus.store import MANIFEST, Corpus
        from analyzer.reports.explain import Section

        if not (corpus / MANIFEST).is_file():
            raise InputError(corpus, "not a corpus (no corpus.json; fill it with `erratlas corpus add`)")
        found = corpus_story(record, files, summary, Corpus(corpus, index_sources))
        told = Section("Corpus", found.facts, found.notes)
    flow = flow_section(record, handlers, handler_rows, by_id)
    _tell(out, story_of(directory, files, summary, record, rows[records.index(record)], told, flow))


def _tell(out: Console, story: Story) -> None:
    from analyzer.reports.explain import plain, visible_story

    story = visible_story(story)
    if not out.is_terminal:
        sys.stdout.write(plain(story))
        return
    _rich_story(out, story)


def _rich_story(out: Console, story: Story) -> None:
    from rich.panel import Panel
    from rich.table import Table
    from rich.text import Text

    out.print(Text(story.heading, style="bold"))
    for section in story.sections:
        body = Table.grid(padding=(0, 2))
        body.add_column(style="cyan", no_wrap=True)
        body.add_column()
        for label, value in section.facts:
            body.add_row(label, Text(value))
        parts: list[object] = [body] if section.facts else []
        for code in section.code:
            line = Text(f"{code.number:>7} ", style="dim")
            if code.at is None:
                line.append(code.text)
            else:
                line.append(code.text[:code.at])
                line.append(code.text[code.at:], style="bold yellow")
            parts.append(line)
        parts += [Text(note) for note in section.notes]
        parts += [Text(f"$ {command}", style="green") for command in section.commands]
        from rich.console import Group

        out.print(Panel(Group(*parts), title=section.title, title_align="left"))  # type: ignore[arg-type]


def version() -> None:
    """Print the version."""
    typer.echo(__version__)
