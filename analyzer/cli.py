"""The `erratlas` command: parse options, call the pipeline, print. Nothing else."""

from __future__ import annotations

import gc
import os
import signal
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Optional

import typer
from rich.console import Console

from analyzer import __version__
from analyzer.errors import ExitCode, InputError, InvariantError
from analyzer.isolated import ChildFailure
from analyzer.trace import mark

if TYPE_CHECKING:
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
) -> None:
    """Scan BUNDLE and write the inventory, owners, index and summary to --out."""
    from analyzer.owners.allowlist import load_allowlists
    from analyzer.bundle.load import is_python_input
    from analyzer.reports.inventory import inventory_files
    from analyzer.reports.output import write_directory
    from analyzer.reports.owners import owner_files
    from analyzer.reports.summary import scan_summary
    from analyzer.isolated import isolated
    from analyzer.rules import load_javascript_rules, load_python_rules
    from analyzer.scan import scan as run_scan

    mark("cli: arguments parsed")
    python = is_python_input(bundle)
    if not python:
        # a JavaScript scan makes few reference cycles and exits right after: the collector's
        # passes over millions of live objects would cost a tenth of its time for nothing
        gc.disable()
    with _progress("scanning") as status:
        loaded_rules = load_python_rules(rules) if python else load_javascript_rules(rules)
        allowlists = load_allowlists(allowlist or [])

        def outputs() -> tuple[dict[str, bytes], str]:
            result = run_scan(bundle, loaded_rules, logger, jobs=jobs or _cores())
            mark("scan: done")
            made = inventory_files(result)
            mark("reports: inventory made")
            made |= owner_files(made, allowlists, scan_summary(result))
            mark("reports: made")
            return made, _scanned(bundle, result, out)

        # a JavaScript scan runs where a parser crash or the memory bound cannot take this
        # process down (analyzer/isolated.py); nothing is written unless it ends well
        files, line = outputs() if python else isolated(outputs, bundle)
        status.update("writing reports")
        write_directory(out, files)
        mark("reports: written")
    _err.print(line, markup=False)
    _say_owners(files)


def _scanned(bundle: Path, result: ScanResult, out: Path) -> str:
    """The line a scan ends with."""
    errors = sum(1 for r in result.callsites if r.kind == "error")
    diagnostics = len(result.callsites) - errors
    loggers = ", ".join(dict.fromkeys(f"{u.logger['name']}" for u in result.units))
    return (f"erratlas: {bundle.name}: {errors} error callsites, {diagnostics} diagnostic callsites "
            f"(logger: {loggers}), {len(result.classes)} error classes -> {out}")


def _cores() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


@app.command()
def project(
    directory: Annotated[Path, typer.Argument(help="A scan directory.")],
    allowlist: Annotated[Optional[list[Path]], _ALLOWLISTS] = None,
) -> None:
    """Re-project an existing scan with allowlists, without parsing the bundle again."""
    from analyzer.owners.allowlist import load_allowlists
    from analyzer.owners.gate import verify
    from analyzer.reports.output import read_directory, write_directory
    from analyzer.reports.owners import DERIVED_FILES, owner_files

    allowlists = load_allowlists(allowlist or [])
    files = read_directory(directory)
    base = verify(directory, files)
    inventory = {name: data for name, data in files.items() if name not in DERIVED_FILES}
    inventory |= owner_files(inventory, allowlists, base)
    write_directory(directory, inventory)
    _say_owners(inventory)


def _say_owners(files: dict[str, bytes]) -> None:
    import orjson

    from analyzer.reports.summary import SUMMARY_FILE

    summary = orjson.loads(files[SUMMARY_FILE])
    coverage = summary["coverage"]["overall"]
    _err.print(
        f"erratlas: owners: {coverage['owned']} of {coverage['total']} owned ({coverage['display']}); "
        f"{len(summary['stale'])} stale, {len(summary['drifted'])} drifted entries",
        markup=False,
    )


@app.command()
def allow(
    directory: Annotated[Path, typer.Argument(help="A scan directory.")],
    target: Annotated[str, typer.Argument(help="A callsite id (e:cli.js@123) or fingerprint (fp1:/fp1f:/fp1m:).")],
    allowlist: Annotated[Path, typer.Option("--allowlist", "-a", help="The allowlist to write (created if absent).")],
    owner: Annotated[str, typer.Option("--owner", help="Product or Dependency.")],
    reason: Annotated[str, typer.Option("--reason", help="Why this owner: what you checked.")],
    reviewer: Annotated[str, typer.Option("--reviewer", help="Who reviewed it.")],
    name: Annotated[Optional[str], typer.Option("--name", help="Reviewed function name, e.g. ZodType._parse.")] = None,
    package: Annotated[Optional[str], typer.Option("--package", help="Exact npm/PyPI package (Dependency).")] = None,
    function_scope: Annotated[bool, typer.Option("--function", help="Cover the callsite's whole function.")] = False,
    module_scope: Annotated[bool, typer.Option("--module", help="Cover the callsite's whole module.")] = False,
    catch_owner: Annotated[Optional[str], typer.Option("--catch-owner")] = None,
    retry_owner: Annotated[Optional[str], typer.Option("--retry-owner")] = None,
    tool_result_owner: Annotated[Optional[str], typer.Option("--tool-result-owner")] = None,
    user_surface_owner: Annotated[Optional[str], typer.Option("--user-surface-owner")] = None,
    on: Annotated[Optional[str], typer.Option("--on", help="Review date YYYY-MM-DD (default today).")] = None,
) -> None:
    """Write a reviewed entry for a callsite (or its function/module) into an allowlist."""
    from analyzer.owners.review import add_entry

    extra = {"catchOwner": catch_owner, "retryOwner": retry_owner, "toolResultOwner": tool_result_owner,
             "userSurfaceOwner": user_surface_owner}
    entry = add_entry(
        directory, target, allowlist, owner=owner, package=package, function=name, reason=reason,
        reviewer=reviewer, scope="module" if module_scope else "function" if function_scope else "callsite",
        owner_fields={k: v for k, v in extra.items() if v is not None}, reviewed_on=on,
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
def gate(
    directory: Annotated[Path, typer.Argument(help="A scan directory.")],
    min_coverage: Annotated[Optional[float], typer.Option("--min-coverage", help="Overall (Product+Dependency)/total.")] = None,
    min_kind: Annotated[Optional[list[str]], typer.Option("--min-coverage-kind", help="KIND=F, e.g. error=0.9 (repeatable).")] = None,
    baseline: Annotated[Optional[Path], typer.Option("--baseline", help="A summary: fail on new Unresolved callsites.")] = None,
    allow_stale: Annotated[bool, typer.Option("--allow-stale", help="Do not fail on stale or drifted entries.")] = False,
    output_format: Annotated[str, typer.Option("--format", help="text or github (workflow annotations).")] = "text",
) -> None:
    """Exit 0 when every threshold holds, 1 when one fails, 2 when the directory is unusable."""
    from analyzer.owners.gate import Thresholds, failures, verify

    if output_format not in ("text", "github"):
        raise InputError("--format", f"unknown format '{output_format}' (text or github)")
    kinds: dict[str, float] = {}
    for item in min_kind or []:
        kind, _, value = item.partition("=")
        try:
            kinds[kind] = float(value)
        except ValueError:
            raise InputError("--min-coverage-kind", f"'{item}' is not KIND=NUMBER") from None
    summary = verify(directory)
    failed = failures(summary, Thresholds(min_coverage, kinds, baseline, allow_stale))
    for line in failed:
        typer.echo(f"::error title=erratlas gate::{_github_escape(line)}" if output_format == "github" else f"FAIL {line}")
    coverage = summary["coverage"]["overall"]
    status = "failed" if failed else "passed"
    typer.echo(
        f"::notice title=erratlas gate::{status}, coverage {coverage['display']}" if output_format == "github"
        else f"gate {status}: coverage {coverage['display']} ({coverage['owned']} of {coverage['total']})"
    )
    raise typer.Exit(int(ExitCode.FINDINGS if failed else ExitCode.OK))


def _github_escape(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


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
) -> None:
    """Propose allowlist entries from source-map, module-map, banner and signature evidence."""
    from analyzer.owners.gate import verify
    from analyzer.reports.output import read_directory, write_directory
    from analyzer.reports.summary import SUMMARY_FILE
    from analyzer.owners.suggest import SUGGESTIONS_FILE, load_scan, render, suggestions, with_suggestions

    files = read_directory(directory)
    verify(directory, files)
    rows = suggestions(*load_scan(files))
    data = render(rows)
    if out is None:
        write_directory(directory, with_suggestions(files, data, SUMMARY_FILE))
        out = directory / SUGGESTIONS_FILE
    else:
        staging = out.with_name(f".{out.name}.tmp")
        staging.write_bytes(data)
        staging.replace(out)
    by = {c: sum(1 for r in rows if r["confidence"] == c) for c in ("exact", "likely", "possible")}
    covered = sum(r["callsites"] for r in rows)
    _err.print(
        f"erratlas: {len(rows)} suggestions covering {covered} callsites "
        f"(exact {by['exact']}, likely {by['likely']}, possible {by['possible']}) -> {out}",
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
    on: Annotated[Optional[str], typer.Option("--on", help="Review date YYYY-MM-DD (default today).")] = None,
    note: Annotated[Optional[str], typer.Option("--note", help="Added to every entry's reason.")] = None,
    suggestions_file: Annotated[Optional[Path], typer.Option("--suggestions", help="Default DIR/suggestions.jsonl.")] = None,
) -> None:
    """Copy chosen suggestions into a reviewed allowlist: only then do they change owners."""
    from analyzer.owners.suggest import SUGGESTIONS_FILE, chosen, load_suggestions
    from analyzer.owners.suggest import accept as run_accept

    rows = load_suggestions(suggestions_file or directory / SUGGESTIONS_FILE)
    picked = chosen(rows, ids or [], confidence, package or [])
    entries = run_accept(picked, allowlist, reviewer, on, note)
    covered = sum(r["callsites"] for r in picked)
    _err.print(f"erratlas: {allowlist}: {len(entries)} entries accepted, covering {covered} callsites", markup=False)


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
