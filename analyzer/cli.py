"""The `erratlas` command: parse options, call the pipeline, print. Nothing else."""

from __future__ import annotations

import contextlib
import gc
import os
import signal
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Optional, Self

import typer
from rich.console import Console

from analyzer import __version__, progress
from analyzer.errors import ExitCode, InputError, InvariantError
from analyzer.isolated import ChildFailure
from analyzer.trace import mark

if TYPE_CHECKING:
    from rich.progress import TaskID

    from analyzer.owners.gate import Thresholds
    from analyzer.reports.explain import Story
    from analyzer.reports.sarif import Selection
    from analyzer.scan import ScanResult


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


_ALLOWLISTS = typer.Option("--allowlist", "-a", help="Reviewed allowlist TOML (repeatable).")


@app.command()
def scan(
    bundle: Annotated[Path, typer.Argument(help="A .js/.mjs/.cjs bundle, a Bun executable, or Python: a .py file, "
                                           "a directory, a wheel, an sdist or a .pyz.")],
    out: Annotated[Path, typer.Option("--out", "-o", help="Output directory (replaced atomically).")] = Path(
        "erratlas-out"
    ),
    allowlist: Annotated[Optional[list[Path]], _ALLOWLISTS] = None,
    rules: Annotated[Optional[Path], typer.Option("--rules", help="Rules file (default rules/javascript.toml, rules/python.toml for Python).")] = None,
    logger: Annotated[Optional[str], typer.Option("--logger", help="The logger's name; skips detection.")] = None,
    jobs: Annotated[Optional[int], typer.Option("--jobs", "-j", min=1, help="Worker processes (default: the number of "
                                                "cores). Python inputs parse files in N processes; a JavaScript scan "
                                                "with N > 1 uses a second process. The output is identical for any N.")] = None,
    signatures: Annotated[bool, typer.Option("--signatures", help="Also write function-signatures.jsonl, what "
                                             "`suggest --corpus` matches against package sources (docs/corpus.md).")] = False,
) -> None:
    """Scan BUNDLE and write the inventory, owners, index and summary to --out."""
    from analyzer.owners.allowlist import load_allowlists
    from analyzer.bundle.load import is_python_input
    from analyzer.reports.inventory import inventory_files
    from analyzer.reports.output import check_replaceable, write_directory
    from analyzer.reports.owners import owner_files
    from analyzer.reports.summary import scan_summary
    from analyzer.isolated import isolated
    from analyzer.rules import load_javascript_rules, load_python_rules
    from analyzer.scan import scan as run_scan

    mark("cli: arguments parsed")
    check_replaceable(Path(os.path.abspath(out)))  # refuse a directory of the user's before minutes of work
    python = is_python_input(bundle)
    if not python:
        # a JavaScript scan makes few reference cycles and exits right after: the collector's
        # passes over millions of live objects would cost a tenth of its time for nothing
        gc.disable()
    with _progress():
        with progress.phase("reading rules and allowlists"):
            loaded_rules = load_python_rules(rules) if python else load_javascript_rules(rules)
            allowlists = load_allowlists(allowlist or [])

        def outputs() -> tuple[dict[str, bytes], str]:
            result = run_scan(bundle, loaded_rules, logger, jobs=jobs or _cores(), signatures=signatures)
            mark("scan: done")
            with progress.phase("making reports"):
                made = inventory_files(result)
                if result.signatures is not None:
                    from analyzer.owners.corpus.bundle import SIGNATURES_FILE

                    made[SIGNATURES_FILE] = result.signatures
                mark("reports: inventory made")
                made |= owner_files(made, allowlists, scan_summary(result))
                mark("reports: made")
            return made, _scanned(bundle, result, out, made)

        # a JavaScript scan runs where a parser crash or the memory bound cannot take this
        # process down (analyzer/isolated.py); nothing is written unless it ends well
        files, line = outputs() if python else isolated(outputs, bundle)
        with progress.phase(f"writing {len(files)} files to {out}"):
            write_directory(out, files)
        mark("reports: written")
    _err.print(line, markup=False)


def _scanned(bundle: Path, result: ScanResult, out: Path, files: dict[str, bytes]) -> str:
    """The line a scan ends with."""
    errors = sum(1 for r in result.callsites if r.kind == "error")
    diagnostics = len(result.callsites) - errors
    loggers = ", ".join(dict.fromkeys(f"{u.logger['name']}" for u in result.units))
    return (f"erratlas: {bundle.name}: {errors} error callsites, {diagnostics} diagnostic callsites "
            f"(logger: {loggers}), {len(result.classes)} error classes; {_owners_line(files)} -> {out}")


def _cores() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def _reading_a_scan() -> None:
    """A verb that reads a scan directory holds its records until it exits and makes few
    reference cycles: the collector's full passes over them would cost a fifth of its time."""
    gc.disable()


@app.command()
def project(
    directory: Annotated[Path, typer.Argument(help="A scan directory.")],
    allowlist: Annotated[Optional[list[Path]], _ALLOWLISTS] = None,
) -> None:
    """Re-project an existing scan with allowlists, without parsing the bundle again."""
    from analyzer.owners.allowlist import load_allowlists
    from analyzer.owners.gate import verify
    from analyzer.reports.output import read_directory, write_directory
    from analyzer.reports.owners import is_derived, owner_files

    _reading_a_scan()
    allowlists = load_allowlists(allowlist or [])
    files = read_directory(directory)
    base = verify(directory, files)
    inventory = {name: data for name, data in files.items() if not is_derived(name)}
    inventory |= owner_files(inventory, allowlists, base)
    write_directory(directory, inventory)
    _say_owners(inventory)


def _say_owners(files: dict[str, bytes]) -> None:
    _err.print(f"erratlas: {_owners_line(files)}", markup=False)


def _owners_line(files: dict[str, bytes]) -> str:
    import orjson

    from analyzer.reports.summary import SUMMARY_FILE

    summary = orjson.loads(files[SUMMARY_FILE])
    coverage = summary["coverage"]["overall"]
    return (f"owners: {coverage['owned']} of {coverage['total']} owned ({coverage['display']}), "
            f"{len(summary['stale'])} stale, {len(summary['drifted'])} drifted, "
            f"{len(summary.get('ambiguous', []))} ambiguous entries")


@app.command()
def allow(
    directory: Annotated[Path, typer.Argument(help="A scan directory.")],
    target: Annotated[str, typer.Argument(help="A callsite id (e:cli.js@123) or fingerprint (fp1:/fp1f:/fp1m:/fp1b:).")],
    allowlist: Annotated[Path, typer.Option("--allowlist", "-a", help="The allowlist to write (created if absent).")],
    owner: Annotated[str, typer.Option("--owner", help="Product or Dependency.")],
    reason: Annotated[str, typer.Option("--reason", help="Why this owner: what you checked.")],
    reviewer: Annotated[str, typer.Option("--reviewer", help="Who reviewed it.")],
    name: Annotated[Optional[str], typer.Option("--name", help="Reviewed function name, e.g. ZodType._parse.")] = None,
    package: Annotated[Optional[str], typer.Option("--package", help="Exact npm/PyPI package (Dependency).")] = None,
    function_scope: Annotated[bool, typer.Option("--function", help="Cover the callsite's whole function.")] = False,
    module_scope: Annotated[bool, typer.Option("--module", help="Cover the callsite's whole module.")] = False,
    references_scope: Annotated[bool, typer.Option("--references", help="Product by reference: root the top-level "
                                                   "binding declared where the callsite is (or TARGET fp1b:...).")] = False,
    all_copies: Annotated[bool, typer.Option("--all-copies", help="The code has identical copies in the scan: own "
                                             "all of them, reviewed together.")] = False,
    catch_owner: Annotated[Optional[str], typer.Option("--catch-owner")] = None,
    retry_owner: Annotated[Optional[str], typer.Option("--retry-owner")] = None,
    tool_result_owner: Annotated[Optional[str], typer.Option("--tool-result-owner")] = None,
    user_surface_owner: Annotated[Optional[str], typer.Option("--user-surface-owner")] = None,
    on: Annotated[Optional[str], typer.Option("--on", help="Review date YYYY-MM-DD (default today).")] = None,
) -> None:
    """Write a reviewed entry for a callsite (or its function/module) into an allowlist."""
    from analyzer.owners.review import add_entry

    if function_scope and module_scope:
        raise InputError("--function", "and --module: an entry covers one scope, choose one")
    extra = {"catchOwner": catch_owner, "retryOwner": retry_owner, "toolResultOwner": tool_result_owner,
             "userSurfaceOwner": user_surface_owner}
    entry = add_entry(
        directory, target, allowlist, owner=owner, package=package, function=name, reason=reason,
        reviewer=reviewer, scope="references" if references_scope else "module" if module_scope
        else "function" if function_scope else "callsite",
        owner_fields={k: v for k, v in extra.items() if v is not None}, reviewed_on=on, all_copies=all_copies,
    )
    _err.print(f"erratlas: {allowlist}: {entry.level} {entry.fingerprint} -> {entry.owner}"
               + (f" {entry.package}" if entry.package else ""), markup=False)


@app.command()
def prune(
    directory: Annotated[Path, typer.Argument(help="A scan directory.")],
    allowlist: Annotated[list[Path], _ALLOWLISTS],
) -> None:
    """Remove the entries that match nothing in the scan (stale), and nothing else."""
    from analyzer.owners.review import prune_stale

    for path, removed in prune_stale(directory, allowlist):
        _err.print(f"erratlas: {path}: removed {len(removed)} stale entries", markup=False)
        for entry in removed:
            _err.print(f"  - {entry.level} {entry.fingerprint} ({entry.owner} {entry.function or ''})".rstrip(),
                       markup=False)


@app.command()
def fmt(
    allowlists: Annotated[list[Path], typer.Argument(help="Allowlist TOML files.")],
    check: Annotated[bool, typer.Option("--check", help="Change nothing; exit 1 naming each file that is not in "
                                        "canonical form (for a pre-commit hook or CI).")] = False,
) -> None:
    """Write allowlists in the canonical form `allow` and `accept` write (entries sorted, keys in a
    fixed order; comments are not kept), so that review diffs stay small."""
    from analyzer.owners.allowlist import load_allowlist, render, write_allowlist

    off = []
    for path in allowlists:
        entries = list(load_allowlist(path).entries)
        if render(entries) == path.read_bytes():
            continue
        off.append(path)
        if check:
            typer.echo(f"{path}: not in canonical form (erratlas fmt {path})")
        else:
            write_allowlist(path, entries)
            _err.print(f"erratlas: {path}: rewritten in canonical form", markup=False)
    raise typer.Exit(int(ExitCode.FINDINGS if check and off else ExitCode.OK))


@app.command()
def gate(
    directory: Annotated[Path, typer.Argument(help="A scan directory.")],
    min_coverage: Annotated[Optional[float], typer.Option("--min-coverage", help="Overall (Product+Dependency)/total.")] = None,
    min_kind: Annotated[Optional[list[str]], typer.Option("--min-coverage-kind", help="KIND=F, e.g. error=0.9 (repeatable).")] = None,
    baseline: Annotated[Optional[Path], typer.Option("--baseline", help="A summary: fail on new Unresolved callsites.")] = None,
    allowlist: Annotated[Optional[list[Path]], typer.Option("--allowlist", "-a", help="The allowlists the scan used "
                         "(repeatable; default: the paths its summary records, from the current directory). "
                         "Given, they must be exactly the scan's, by sha256.")] = None,
    allow_stale: Annotated[bool, typer.Option("--allow-stale", help="Do not fail on stale, drifted or ambiguous entries.")] = False,
    output_format: Annotated[str, typer.Option("--format", help="text, github (workflow annotations) or sarif "
                                               "(SARIF 2.1.0 of the failing callsites on stdout).")] = "text",
) -> None:
    """Exit 0 when every threshold holds, 1 when one fails, 2 when the directory is unusable:
    the gate recomputes the owners from the inventory and the allowlists, and believes only
    what it recomputed."""
    from analyzer.owners.gate import (
        KINDS,
        Thresholds,
        checked_summary,
        coverage_threshold,
        failures,
    )

    _reading_a_scan()
    if output_format not in ("text", "github", "sarif"):
        raise InputError("--format", f"unknown format '{output_format}' (text, github or sarif)")
    if min_coverage is not None:
        coverage_threshold("--min-coverage", min_coverage)
    kinds: dict[str, float] = {}
    for item in min_kind or []:
        kind, _, value = item.partition("=")
        try:
            kinds[kind] = coverage_threshold("--min-coverage-kind", float(value))
        except ValueError:
            raise InputError("--min-coverage-kind", f"'{item}' is not KIND=NUMBER") from None
        if kind not in KINDS:
            raise InputError("--min-coverage-kind", f"unknown kind '{kind}' (error or diagnostic)")
    summary = checked_summary(directory, allowlist or [])  # the gate verifies, it does not trust
    thresholds = Thresholds(min_coverage, kinds, baseline, allow_stale)
    if output_format == "sarif":
        _gate_sarif(directory, thresholds)
    failed = failures(summary, thresholds)
    for line in failed:
        typer.echo(f"::error title=erratlas gate::{_github_escape(line)}" if output_format == "github" else f"FAIL {line}")
    coverage = summary["coverage"]["overall"]
    status = "failed" if failed else "passed"
    typer.echo(
        f"::notice title=erratlas gate::{status}, coverage {coverage['display']}" if output_format == "github"
        else f"gate {status}: coverage {coverage['display']} ({coverage['owned']} of {coverage['total']})"
    )
    raise typer.Exit(int(ExitCode.FINDINGS if failed else ExitCode.OK))


def _gate_sarif(directory: Path, thresholds: "Thresholds") -> None:
    """`gate --format sarif`: the SARIF log of the failing set on stdout (every Unresolved
    callsite when a coverage threshold fails, else those new against the baseline), the failed
    thresholds as notifications; the exit status is the gate's."""
    from analyzer.owners.gate import failures
    from analyzer.reports.sarif import Selection

    _, summary, records, rows = _scan_outputs(directory)
    failed = failures(summary, thresholds)
    coverage = summary["coverage"]
    checks = ([("overall", thresholds.min_coverage)] if thresholds.min_coverage is not None else [])
    checks += sorted(thresholds.min_kind_coverage.items())
    below = any(coverage[kind]["value"] < minimum for kind, minimum in checks if kind in coverage)
    baseline = _baseline(thresholds.baseline)
    new = baseline is not None and bool(Counter(summary["unresolvedFingerprints"]) - baseline)
    results = "unresolved" if below else "new" if new else "none"
    _write_sarif(directory, summary, records, rows, Selection(results, baseline, failing=True), None, failed)
    status = "failed" if failed else "passed"
    _err.print(f"erratlas: gate {status}: coverage {coverage['overall']['display']}"
               + "".join(f"\nFAIL {line}" for line in failed), markup=False)
    raise typer.Exit(int(ExitCode.FINDINGS if failed else ExitCode.OK))


def _scan_outputs(directory: Path) -> tuple[dict[str, bytes], dict[str, Any], list[dict[str, Any]], list[dict[str, Any]]]:
    """A verified scan directory's files, summary, callsite records and projection rows (paired)."""
    import orjson

    from analyzer.owners.gate import verify
    from analyzer.reports.output import read_directory
    from analyzer.reports.owners import PROJECTION_FILE, load_records

    files = read_directory(directory)
    summary = verify(directory, files)
    records = load_records(files)
    by_id = {row["id"]: row for row in (orjson.loads(line) for line in files[PROJECTION_FILE].splitlines() if line)}
    missing = [r["id"] for r in records if r["id"] not in by_id]
    if missing:
        raise InputError(directory / PROJECTION_FILE, f"no projection row for {missing[0]}")
    return files, summary, records, [by_id[r["id"]] for r in records]


def _baseline(path: Optional[Path]) -> Optional["Counter[str]"]:
    from analyzer.owners.gate import load_summary
    from analyzer.versions import check_same

    if path is None:
        return None
    baseline = load_summary(path)
    check_same(baseline, path)
    return Counter(baseline.get("unresolvedFingerprints", []))


def _write_sarif(directory: Path, summary: dict[str, Any], records: list[dict[str, Any]], rows: list[dict[str, Any]],
                 selection: "Selection", out: Optional[Path], notifications: list[str]) -> int:
    import orjson

    from analyzer.reports.sarif import sarif_log

    log = sarif_log(records, rows, summary, directory, selection, notifications)
    data = orjson.dumps(log) + b"\n"  # compact: a big scan gives tens of megabytes indented
    if out is None:
        sys.stdout.buffer.write(data)
    else:
        staging = out.with_name(f".{out.name}.tmp")
        try:
            staging.write_bytes(data)
            staging.replace(out)
        except OSError as exc:
            raise InputError(out, f"cannot write: {exc.strerror}") from None
    return len(log["runs"][0]["results"])


@app.command()
def sarif(
    directory: Annotated[Path, typer.Argument(help="A scan directory.")],
    out: Annotated[Optional[Path], typer.Option("--out", "-o", help="Write here instead of stdout.")] = None,
    baseline: Annotated[Optional[Path], typer.Option("--baseline", help="A summary: mark each Unresolved result new "
                                                      "or unchanged (SARIF baselineState).")] = None,
    results: Annotated[str, typer.Option("--results", help="unresolved (default), new (Unresolved callsites new "
                                         "against --baseline) or all (every callsite, owned ones as notes).")] = "unresolved",
) -> None:
    """Write SARIF 2.1.0: one result per callsite the gate cares about, tracked by fingerprint."""
    from analyzer.reports.sarif import SELECTIONS, Selection

    _reading_a_scan()
    if results not in SELECTIONS:
        raise InputError("--results", f"unknown selection '{results}' ({', '.join(SELECTIONS)})")
    if results == "new" and baseline is None:
        raise InputError("--results", "'new' needs --baseline SUMMARY")
    _, summary, records, rows = _scan_outputs(directory)
    count = _write_sarif(directory, summary, records, rows, Selection(results, _baseline(baseline)), out, [])
    _err.print(f"erratlas: {count} SARIF results ({results}) -> {out if out is not None else 'stdout'}", markup=False)


@app.command()
def explain(
    directory: Annotated[Path, typer.Argument(help="A scan directory.")],
    target: Annotated[str, typer.Argument(help="A callsite id (e:cli.js@123) or fingerprint (fp1:...).")],
) -> None:
    """Tell one callsite's whole story: record, readable code, owner and evidence, suggestions,
    and the command that would own it."""
    from analyzer.reports.explain import explain as story_of
    from analyzer.reports.explain import find_record, plain

    _reading_a_scan()
    files, summary, records, rows = _scan_outputs(directory)
    record = find_record(records, target, directory)
    story = story_of(directory, files, summary, record, rows[records.index(record)])
    out = Console(highlight=False, soft_wrap=True)
    if not out.is_terminal:
        sys.stdout.write(plain(story))
        return
    _rich_story(out, story)


def _rich_story(out: Console, story: "Story") -> None:
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


def _github_escape(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


@app.command()
def version() -> None:
    """Print the version."""
    typer.echo(__version__)


class _TerminalProgress:
    """`analyzer.progress` on a terminal (stderr): the innermost running phase, its elapsed time,
    and a bar with the amount done when the phase is measured. Redrawn when work is reported,
    never from a thread: a scan forks workers, and a thread holding a lock at the fork would
    leave the lock held in the child."""

    _EVERY = 0.1  # seconds between redraws

    def __init__(self, console: Console) -> None:
        from rich.progress import BarColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

        self._progress = Progress(SpinnerColumn(), TextColumn("{task.description}"), BarColumn(),
                                  TextColumn("{task.fields[amount]}"), TimeElapsedColumn(), console=console,
                                  transient=True, auto_refresh=False)
        self._tasks: list[tuple[TaskID, str]] = []
        self._drawn = 0.0

    def __enter__(self) -> Self:
        self._progress.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._progress.stop()

    def start(self, label: str, total: int | None, unit: str) -> None:
        if self._tasks:
            self._progress.update(self._tasks[-1][0], visible=False)
        task = self._progress.add_task(label, total=total, amount=self._amount(0, total, unit))
        self._tasks.append((task, unit))
        self._draw(force=True)

    def advance(self, amount: int) -> None:
        if not self._tasks:
            return
        task, unit = self._tasks[-1]
        self._progress.advance(task, amount)
        state = self._progress.tasks[-1] if self._progress.tasks[-1].id == task else None
        if state is not None:
            self._progress.update(task, amount=self._amount(int(state.completed), state.total, unit))
        self._draw()

    def finish(self) -> None:
        if not self._tasks:
            return
        task, _ = self._tasks.pop()
        self._progress.remove_task(task)
        if self._tasks:
            self._progress.update(self._tasks[-1][0], visible=True)
        self._draw(force=True)

    @staticmethod
    def _amount(done: int, total: float | None, unit: str) -> str:
        if total is None:
            return ""
        if unit == "bytes":
            return f"{done / 1e6:.1f}/{total / 1e6:.1f} MB"
        return f"{done}/{int(total)} {unit}"

    def _draw(self, force: bool = False) -> None:
        import time

        now = time.monotonic()
        if force or now - self._drawn >= self._EVERY:
            self._progress.refresh()
            self._drawn = now


@contextlib.contextmanager
def _progress() -> Iterator[None]:
    """Phases of `analyzer.progress` shown on stderr when it is a terminal; nothing otherwise
    (then only a verb's final line is printed)."""
    from analyzer import progress

    if not _err.is_terminal:
        yield
        return
    with _TerminalProgress(_err) as shown, progress.listening(shown):
        yield


def _terminate(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)  # unwinds `finally` blocks: the staging directory is removed


# ---- issue 4: Bun executables, module map, source-map evidence, suggestions ----------------


@app.command()
def extract(
    binary: Annotated[Path, typer.Argument(help="A Bun single-file executable.")],
    out: Annotated[Path, typer.Option("--out", "-o", help="Directory to write the embedded modules to.")],
) -> None:
    """Write the embedded modules of a Bun executable (and manifest.json) to --out."""
    from analyzer.bundle.embedded import extract as run_extract

    rows = run_extract(binary, out)
    written = sum(1 for row in rows if row["file"] is not None)
    _err.print(f"erratlas: {binary.name}: {len(rows)} embedded modules, {written} with source -> {out}", markup=False)


@app.command()
def suggest(
    directory: Annotated[Path, typer.Argument(help="A scan directory.")],
    out: Annotated[Optional[Path], typer.Option("--out", "-o", help="Write here instead of DIR/suggestions.jsonl.")] = None,
    corpus: Annotated[Optional[Path], typer.Option("--corpus", help="Also match the bundle's functions against this "
                                                   "corpus (`erratlas corpus add`).")] = None,
    bundle: Annotated[Optional[Path], typer.Option("--bundle", help="With --corpus, for a scan made without "
                                                   "--signatures: the scanned bundle, parsed again.")] = None,
) -> None:
    """Propose allowlist entries from source-map, module-map, banner, signature and corpus evidence."""
    from analyzer.owners.gate import verify
    from analyzer.reports.output import read_directory, write_directory, write_file
    from analyzer.reports.summary import SUMMARY_FILE
    from analyzer.owners.suggest import SUGGESTIONS_FILE, load_scan, render, suggestions, with_suggestions

    from analyzer.owners.references import ReferenceGraph

    with _progress():
        with progress.phase(f"reading and verifying {directory}"):
            files = read_directory(directory)
            summary = verify(directory, files)
        with progress.phase("suggesting owners"):
            records, modules = load_scan(files)
            rows = suggestions(records, modules, ReferenceGraph.load(files))
            if corpus is not None:
                from analyzer.owners.corpus.suggest import with_corpus

                rows = with_corpus(rows, records, modules, files, summary, corpus, bundle, directory)
            elif bundle is not None:
                raise InputError("--bundle", "only used with --corpus")
            data = render(rows)
        with progress.phase("writing suggestions"):
            if out is None:
                write_directory(directory, with_suggestions(files, data, SUMMARY_FILE))
                out = directory / SUGGESTIONS_FILE
            else:
                write_file(out, data)
    by = {c: sum(1 for r in rows if r["confidence"] == c) for c in ("exact", "likely", "possible", "ambiguous")}
    levels = {lv: sum(1 for r in rows if r["level"] == lv) for lv in ("callsite", "function", "module", "references")}
    _err.print(
        f"erratlas: {len(rows)} suggestions (exact {by['exact']}, likely {by['likely']}, possible {by['possible']}, "
        f"ambiguous {by['ambiguous']}; " + ", ".join(f"{k} {v}" for k, v in levels.items() if v) + f") -> {out}",
        markup=False,
    )


@app.command()
def accept(
    directory: Annotated[Path, typer.Argument(help="A scan directory holding suggestions.jsonl.")],
    allowlist: Annotated[Path, typer.Option("--allowlist", "-a", help="The allowlist to write (created if absent).")],
    reviewer: Annotated[str, typer.Option("--reviewer", help="Who reviewed the suggestions.")],
    ids: Annotated[Optional[list[str]], typer.Option("--id", help="A suggestion id (repeatable).")] = None,
    confidence: Annotated[str, typer.Option("--confidence", help="Without --id: accept this or stronger.")] = "exact",
    package: Annotated[Optional[list[str]], typer.Option("--package", help="Without --id: only this package.")] = None,
    level: Annotated[str, typer.Option("--level", help="Without --id: auto (the levels that carry best: a source "
                                       "map's truth per callsite and as product roots), or callsite, function, "
                                       "module, references.")] = "auto",
    on: Annotated[Optional[str], typer.Option("--on", help="Review date YYYY-MM-DD (default today).")] = None,
    note: Annotated[Optional[str], typer.Option("--note", help="Added to every entry's reason.")] = None,
    suggestions_file: Annotated[Optional[Path], typer.Option("--suggestions", help="Default DIR/suggestions.jsonl.")] = None,
    unowned: Annotated[bool, typer.Option("--unowned", help="Without --id: only suggestions for callsites DIR's "
                                          "projection leaves Unresolved (project DIR with the allowlist first).")] = False,
) -> None:
    """Copy chosen suggestions into a reviewed allowlist: only then do they change owners."""
    from analyzer.owners.suggest import SUGGESTIONS_FILE, chosen, load_suggestions, still_unowned
    from analyzer.owners.suggest import accept as run_accept

    rows = load_suggestions(suggestions_file or directory / SUGGESTIONS_FILE)
    picked = chosen(rows, ids or [], confidence, package or [], level)
    if unowned and not ids:
        picked = still_unowned(picked, directory)
    entries = run_accept(picked, allowlist, reviewer, on, note)
    covered = sum(r["callsites"] for r in picked)
    _err.print(f"erratlas: {allowlist}: {len(entries)} entries accepted, covering {covered} callsites", markup=False)


@app.command("diff")
def diff_command(
    old: Annotated[Path, typer.Argument(help="The earlier release's scan directory (projected).")],
    new: Annotated[Path, typer.Argument(help="The later release's scan directory.")],
    out: Annotated[Path, typer.Option("--out", "-o", help="Where diff.json, diff.md and carried.jsonl go.")] = Path(
        "erratlas-diff"
    ),
    old_label: Annotated[Optional[str], typer.Option("--old-label", help="Name of the earlier release (e.g. 2.1.98).")] = None,
    new_label: Annotated[Optional[str], typer.Option("--new-label", help="Name of the later release.")] = None,
) -> None:
    """Pair the callsites of two releases; propose carrying reviewed owners to moved and changed ones."""
    import orjson

    import hashlib

    from analyzer.owners.diff import carried, carried_logger_roots, diff, diff_outputs, document
    from analyzer.owners.references import ReferenceGraph
    from analyzer.owners.gate import verify
    from analyzer.owners.projection import neighbours
    from analyzer.owners.suggest import render as render_suggestions
    from analyzer.owners.suggest import suggestion_row
    from analyzer.reports.diff import render_diff
    from analyzer.reports.output import read_directory, write_directory
    from analyzer.reports.owners import PROJECTION_FILE, load_records
    from analyzer.versions import check_same

    _reading_a_scan()
    sides = []
    for directory, label in ((old, old_label), (new, new_label)):
        files = read_directory(directory)
        summary = verify(directory, files)
        bundle = summary["inputs"]["bundle"]
        records = load_records(files)
        side = {"label": label or f"{bundle['name']} {bundle['sha256'][:12]}", "bundle": bundle["name"],
                "sha256": bundle["sha256"], "callsites": len(records)}
        sides.append((files, summary, records, side))
    check_same(sides[1][1], new, sides[0][1], old)
    (old_files, _, old_records, old_side), (_, _, new_records, new_side) = sides
    old_rows = {row["id"]: row for row in (orjson.loads(line) for line in
                                           old_files.get(PROJECTION_FILE, b"").splitlines() if line)}
    result = diff(old_records, new_records)
    rows = carried(result, old_rows, old_side["label"], suggestion_row, neighbours(new_records))
    rows += carried_logger_roots(sides[0][1], old_rows, sides[1][1], ReferenceGraph.load(sides[1][0]),
                                 old_side["label"], suggestion_row)
    doc = document(result, old_side, new_side, rows)
    files = {"diff.md": render_diff(doc), "carried.jsonl": render_suggestions(rows)}
    doc["outputs"] = {name: hashlib.sha256(data).hexdigest() for name, data in sorted(files.items())}
    files["diff.json"] = orjson.dumps(doc, option=orjson.OPT_INDENT_2) + b"\n"
    write_directory(out, files, manifest="diff.json", owned=diff_outputs)
    c = doc["counts"]
    _err.print(
        f"erratlas: {old_side['label']} -> {new_side['label']}: {c['unchanged']} unchanged, {c['moved']} moved, "
        f"{c['changed']} changed, {c['added']} added, {c['removed']} removed, {c['ambiguous']} ambiguous; "
        f"{len(rows)} owners to carry -> {out}",
        markup=False,
    )


# ---- issue 11: a corpus of real package sources ---------------------------------------------

corpus_app = typer.Typer(help="Real package sources that identify bundled dependency code.", no_args_is_help=True)
app.add_typer(corpus_app, name="corpus")
_CORPUS = typer.Option("--corpus", help="Corpus directory (default $ERRATLAS_CACHE/corpus or ~/.cache/erratlas/corpus).")


@corpus_app.command("add")
def corpus_add(
    specs: Annotated[list[str], typer.Argument(help="name, name@version, a lockfile (package-lock.json, bun.lock, "
                                               "pnpm-lock.yaml, yarn.lock), a node_modules directory, or a bundle "
                                               "with a source map.")],
    corpus: Annotated[Optional[Path], _CORPUS] = None,
    before: Annotated[Optional[str], typer.Option("--before", help="A plain name's candidates are published before "
                                                  "this date (YYYY-MM-DD or ISO time), e.g. the bundle's release.")] = None,
    candidates: Annotated[int, typer.Option("--candidates", min=1, help="Versions fetched for a plain name; "
                                            "matching picks the best.")] = 3,
    jobs: Annotated[Optional[int], typer.Option("--jobs", "-j", min=1, help="Indexing processes.")] = None,
) -> None:
    """Fetch (through npm), verify and index package sources."""
    from analyzer.owners.corpus.add import add_specs
    from analyzer.owners.corpus.store import Corpus, default_corpus

    root = corpus or default_corpus()
    added = add_specs(Corpus(root), specs, before, candidates, jobs or _cores(),
                      lambda line: _err.print(line, markup=False))
    for item in added:
        _err.print(f"  {item.name}@{item.version}: {item.how}, {item.functions} distinctive functions", markup=False)
    _err.print(f"erratlas: {root}: {len(added)} package versions added", markup=False)


@corpus_app.command("list")
def corpus_list(corpus: Annotated[Optional[Path], _CORPUS] = None) -> None:
    """What the corpus holds: one line per package, its versions and how they were asked for."""
    from analyzer.owners.corpus.store import Corpus, default_corpus

    found = Corpus(corpus or default_corpus())
    for name in sorted(found.packages):
        entry = found.packages[name]
        typer.echo(f"{name}\t{' '.join(entry.versions)}\t{entry.source}\t{entry.requested}")


def main() -> None:
    """The console script. Ends with `os._exit` once every output is written and the standard
    streams are flushed: freeing a big bundle's syntax trees and records object by object takes
    longer than the process exit that returns their memory at once."""
    for signum in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, _terminate)
    code = 0
    try:
        app()  # standalone: usage errors print the usage and exit 2; typer.Exit exits
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        if not isinstance(exc.code, int) and exc.code is not None:
            print(exc.code, file=sys.stderr)
    except InputError as exc:
        _err.print(f"erratlas: error: {exc}", markup=False)
        code = int(ExitCode.BAD_INPUT)
    except InvariantError as exc:
        _err.print(f"erratlas: internal error: invariant broken: {exc}", markup=False)
        code = int(ExitCode.INTERNAL)
    except ChildFailure as exc:  # an internal error inside an isolated scan
        if os.environ.get("ERRATLAS_DEBUG"):
            print(exc.trace, file=sys.stderr, end="")
        _err.print(f"erratlas: internal error: {exc} (ERRATLAS_DEBUG=1 for a traceback)", markup=False)
        code = int(ExitCode.INTERNAL)
    except Exception as exc:  # our own bugs: one line unless asked for the traceback
        if os.environ.get("ERRATLAS_DEBUG"):
            raise
        _err.print(f"erratlas: internal error: {type(exc).__name__}: {exc} (ERRATLAS_DEBUG=1 for a traceback)",
                   markup=False)
        code = int(ExitCode.INTERNAL)
    _exit_now(code)


def _exit_now(code: int) -> None:
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):  # a closed or broken stream: the exit status still tells
        code = code or 1
    os._exit(code)
