"""`erratlas scan`: a bundle in, a scan directory out."""

from __future__ import annotations

import gc
import os
import signal
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, TypeVar

import typer

from analyzer import progress
from analyzer.cli.app import ALLOWLISTS, err, processes
from analyzer.cli.outcome import one_line_value
from analyzer.cli.owning import owners_line
from analyzer.cli.terminal import terminal_progress
from analyzer.errors import ExitCode, InputError
from analyzer.trace import mark

if TYPE_CHECKING:
    from analyzer.parallel.executor import Ahead
    from analyzer.scan import ScanResult


def scan(
    bundle: Annotated[
        Path,
        typer.Argument(
            help="A .js/.mjs/.cjs bundle, a Bun executable, a .py file, a wheel, a .pyz, or a directory "
            "or an archive (.tgz of npm pack, .tar.gz, .zip) of JavaScript or Python files."
        ),
    ],
    out: Annotated[Path, typer.Option("--out", "-o", help="Output directory (replaced atomically).")] = Path(
        "erratlas-out"
    ),
    allowlist: Annotated[list[Path] | None, ALLOWLISTS] = None,
    rules: Annotated[
        Path | None,
        typer.Option("--rules", help="Rules file (default rules/javascript.toml, rules/python.toml for Python)."),
    ] = None,
    logger: Annotated[str | None, typer.Option("--logger", help="The logger's name; skips detection.",
                                               callback=one_line_value)] = None,
    jobs: Annotated[
        int | None,
        typer.Option(
            "--jobs",
            "-j",
            min=1,
            help="Worker processes (default and most: the number of "
            "cores, 2 at least). Python inputs parse files in N processes; a JavaScript scan "
            "with N > 1 uses a second process. The output is identical for any N.",
        ),
    ] = None,
    language: Annotated[
        str | None,
        typer.Option("--language", help="js or python: the language to scan in a directory or an archive that "
                     "holds both (default: its manifest's, else the one with more files)."),
    ] = None,
    signatures: Annotated[
        bool,
        typer.Option(
            "--signatures",
            help="Also write function-signatures.jsonl, what "
            "`suggest --corpus` matches against package sources (docs/corpus.md).",
        ),
    ] = False,
    slices: Annotated[
        int | None,
        typer.Option("--slices", min=1, hidden=True,
                     help="Read every JavaScript unit as N slices (docs/slices.md; for measuring: the "
                     "output is the same). Default: by the unit's size."),
    ] = None,
) -> None:
    """Scan BUNDLE and write the inventory, owners, index and summary to --out."""
    from analyzer.bundle.languages import OPTION
    from analyzer.scandir.write import check_replaceable

    if language is not None and language not in OPTION:
        raise InputError("--language", f"unknown language '{language}' (js or python)")
    mark("cli: arguments parsed")
    check_replaceable(Path(os.path.abspath(out)))  # refuse a directory of the user's before minutes of work
    try:
        _scan(bundle, out, allowlist, rules, logger, jobs, language, signatures, slices)
    except KeyboardInterrupt:
        kept = (f"the previous output in {out} is kept as it was" if os.path.lexists(out)
                else f"nothing written to {out}")
        err.print(f"erratlas: interrupted: {kept}", markup=False)
        raise typer.Exit(int(ExitCode.INTERRUPTED)) from None


def _scan(bundle: Path, out: Path, allowlist: list[Path] | None, rules: Path | None, logger: str | None,
          jobs: int | None, language: str | None, signatures: bool, slices: int | None) -> None:
    import shutil  # here: the verbs that only read a scan directory never load it

    from analyzer.bundle.languages import OPTION
    from analyzer.owners.allowlist import load_allowlists
    from analyzer.parallel.executor import executor_for
    from analyzer.projected import owner_files
    from analyzer.reports.summary import scan_summary
    from analyzer.scan import scan as run_scan
    from analyzer.scan import scan_input
    from analyzer.scandir.files import SUMMARY_FILE
    from analyzer.scandir.load import in_bundle_order
    from analyzer.scandir.summary import scan_part
    from analyzer.scandir.write import open_staging, replace_with, staging_name, write_staged

    executor = executor_for(processes(jobs), slices)  # where the work runs: decided here, once
    target = Path(os.path.abspath(out))
    staging = staging_name(target)  # named here: it is this process's, wherever it is written
    try:
        with terminal_progress():
            with progress.phase("reading rules and allowlists"):
                source = scan_input(bundle, rules, OPTION[language] if language is not None else None)
                allowlists = load_allowlists(allowlist or [])
            for note in source.notes:
                err.print(f"erratlas: {note}", markup=False)
            python = source.language == "python"
            _check_logger(logger, python)
            if not python:
                # a JavaScript scan makes few reference cycles and exits right after: the collector's
                # passes over millions of live objects would cost a tenth of its time for nothing
                gc.disable()

            def outputs() -> str:
                result = run_scan(source, logger, executor, signatures=signatures)
                mark("scan: done")
                with progress.phase("making reports"):
                    # the inventory needs no owners: made, staged and hashed beside them (by a
                    # worker where the executor has one); the summary, made last, waits for it
                    open_staging(target, staging)
                    mark("output: staging opened")
                    inventory = _Inventory(executor.beside(lambda: _stage_inventory(result, target, staging),
                                                           result.bundle.size))
                    # the owner files from the records in hand (the inventory's files are never
                    # parsed), staged as they are made: no file crosses to the command's process
                    made = owner_files(inventory.files, allowlists, scan_part(scan_summary(result), SUMMARY_FILE),
                                       in_bundle_order(result.callsites), result.references, result.handlers,
                                       inventory.digests, made=lambda files: write_staged(target, staging, files))
                    mark("reports: made")
                # Ctrl-C from here is held: the summary is written, the files swapped in, and the scan ends
                signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
                mark("output: staging made")  # every file but the summary
                with progress.phase(f"writing the summary beside {out}"):
                    write_staged(target, staging, {SUMMARY_FILE: made[SUMMARY_FILE]})
                    mark("output: staged")
                return _scanned(result, out, made)

            # a JavaScript scan runs where a parser crash or the memory bound cannot take this
            # process down (analyzer/isolated.py); nothing is swapped in unless it ends well
            line = outputs() if python else executor.isolated(outputs, bundle)
            # Ctrl-C is held (above, and by `isolated` in this process) until the exit drops it:
            # the swap is never half told
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
            with progress.phase(f"replacing {out}"):
                replace_with(staging, target)
            mark("reports: written")
    finally:
        if os.path.lexists(staging):
            shutil.rmtree(staging, ignore_errors=True)
    err.print(line, markup=False)


def _check_logger(logger: str | None, python: bool) -> None:
    """`--logger` names a JavaScript binding, as the rules' `[logger] name` does: refused on a Python
    scan, which has no such binding, and when no binding can have the name ('a b')."""
    from analyzer.rules.keys import JAVASCRIPT_NAME

    if logger is None:
        return
    if python:
        raise InputError("--logger", "names a JavaScript bundle's logger binding; a Python scan reads the logging "
                                     "calls its rules' [logging] section names")
    refused = JAVASCRIPT_NAME.refuses(logger)
    if refused is not None:
        raise InputError("--logger", refused)


def _stage_inventory(result: ScanResult, target: Path, staging: Path) -> dict[str, str]:
    """The inventory files (and the corpus signatures when asked for) written into `staging`:
    their sha256 by name. Run again after a lost worker, it replaces what that one wrote."""
    import hashlib

    from analyzer.reports.inventory import inventory_files
    from analyzer.scandir.files import SIGNATURES_FILE
    from analyzer.scandir.write import write_staged

    files = inventory_files(result)
    if result.signatures is not None:
        files[SIGNATURES_FILE] = result.signatures
    mark("reports: inventory made")
    write_staged(target, staging, files, again=True)
    mark("reports: inventory staged")
    return {name: hashlib.sha256(data).hexdigest() for name, data in files.items()}


class _Inventory:
    """The staged inventory as `owner_files` reads it: the names of its `files` (their bytes are on
    disk, here empty) and their `digests`, both taken from the task when first read: by the
    summary, the last file made."""

    def __init__(self, staged: Ahead[dict[str, str]]) -> None:
        self._staged = staged
        self._digests: dict[str, str] | None = None
        self.files: Mapping[str, bytes] = _Later(lambda: dict.fromkeys(self._taken(), b""))
        self.digests: Mapping[str, str] = _Later(self._taken)

    def _taken(self) -> dict[str, str]:
        if self._digests is None:
            self._digests = self._staged.take()
            mark("reports: inventory in")
        return self._digests


V = TypeVar("V")


class _Later(Mapping[str, V]):
    """A mapping made when first read."""

    def __init__(self, make: Callable[[], dict[str, V]]) -> None:
        self._make = make
        self._made: dict[str, V] | None = None

    def _items(self) -> dict[str, V]:
        if self._made is None:
            self._made = self._make()
        return self._made

    def __getitem__(self, name: str) -> V:
        return self._items()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._items())

    def __len__(self) -> int:
        return len(self._items())


def _scanned(result: ScanResult, out: Path, files: dict[str, bytes]) -> str:
    """The line a scan ends with."""
    errors = sum(1 for r in result.callsites if r.kind == "error")
    diagnostics = len(result.callsites) - errors
    loggers = ", ".join(dict.fromkeys(u.logger.name for u in result.units if u.logger.name is not None))
    found = f"logger: {loggers}" if loggers else "no diagnostic logger found"
    return (f"erratlas: {result.bundle.name}: {_counted(errors, 'error callsite')}, "
            f"{_counted(diagnostics, 'diagnostic callsite')} ({found}), "
            f"{_counted(len(result.classes), 'error class')}{_unparsed(result)}{_recovered(result)}; "
            f"{owners_line(files)} -> {out}")


def _counted(number: int, noun: str) -> str:
    """`1 error class`, `2 error classes`."""
    if number == 1:
        return f"1 {noun}"
    return f"{number} {noun}" + ("es" if noun.endswith("s") else "s")


def _unparsed(result: ScanResult) -> str:
    """How many Python units did not parse, when any did not: each is an error region whose callsites
    and handlers are not read, which a scan that found nothing must not hide."""
    from analyzer.facts import PACKAGE_MODULE

    unparsed = sum(1 for u in result.units if (m := u.extra(PACKAGE_MODULE)) is not None and m.parse_error is not None)
    if not unparsed:
        return ""
    return f" ({unparsed} of {len(result.units)} units did not parse: the summary's loggers[].parseError)"


def _recovered(result: ScanResult) -> str:
    """Where the JavaScript parser recovered from syntax errors, when it did: a bundle cut short or
    damaged scans, and its line must not read as a whole one's (a Python unit that did not parse
    is told by `_unparsed`)."""
    if result.language == "python":
        return ""
    regions = sum(len(u.error_regions) for u in result.units)
    left = sum(len(u.left_out) for u in result.units)
    if not regions and not left:
        return ""
    inside = sum(1 for r in result.callsites if r.context.inErrorRegion)
    said = [f"the parser recovered from syntax errors in {regions} region{'s' if regions != 1 else ''}, "
            f"{inside} callsite{'s' if inside != 1 else ''} inside (context.inErrorRegion)"] if regions else []
    said += [f"{left} callsite{'s' if left != 1 else ''} left out"] if left else []
    return f" ({'; '.join(said)}: a truncated or damaged bundle? the summary's errorRegions and leftOut)"
