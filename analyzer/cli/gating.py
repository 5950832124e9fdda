"""The gate verb's work, and a plain gate command line read without typer.

Importing typer and building its command is a tenth of a small scan's gate (docs/performance.md,
"The gate"): a command line of the gate's own options, spelled in full, with values that convert
as typer converts them, runs here; any other (help, an unknown or repeated option, `-aFILE`, a
value typer refuses, a stdout that is not UTF-8) goes to the typer app. The option table is
checked against the typer command (`tests/test_cli_start.py`).
"""

from __future__ import annotations

import codecs
import os
import re
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from analyzer.cli.outcome import Outcome, err, exit_now, github_escape, on_signals, reading_a_scan
from analyzer.errors import ExitCode, InputError

if TYPE_CHECKING:
    from analyzer.model import HandlerFinding
    from analyzer.owners.gate import Thresholds
    from analyzer.summary_model import OwnerCounts, Summary

#: the gate's options as typer makes them: spelling -> (parameter, how its value converts);
#: `flag` takes no value, a `many:` value is repeatable
OPTIONS: dict[str, tuple[str, str]] = {
    "--min-coverage": ("min_coverage", "float"),
    "--min-coverage-kind": ("min_kind", "many:text"),
    "--baseline": ("baseline", "path"),
    "--allowlist": ("allowlist", "many:path"),
    "-a": ("allowlist", "many:path"),
    "--allow-stale": ("allow_stale", "flag"),
    "--max-drop": ("max_drop", "float"),
    "--allow-empty": ("allow_empty", "flag"),
    "--max-new-swallowed": ("max_new_swallowed", "count"),
    "--max-new-lost-cause": ("max_new_lost_cause", "count"),
    "--format": ("output_format", "text"),
    "--bundle": ("bundle", "path"),
}
#: what click strips from a line written to a stream that is no terminal (its `strip_ansi`)
_ANSI = re.compile(r"\033\[[;?0-9]*[a-zA-Z]")


def run_plain(argv: list[str]) -> None:
    """Run `erratlas gate` and exit, when `argv` is a plain gate command line; else return."""
    options = plain_gate(argv)
    # click answers shell completion when its `_<PROG>_COMPLETE` variable is set: the app's to do
    completing = any(name.startswith("_") and name.endswith("_COMPLETE") for name in os.environ)
    if options is None or completing or not _utf8_text(sys.stdout):
        return
    on_signals()
    with Outcome() as outcome:
        outcome.code = gate_status(echo=_echo, **options)  # type: ignore[arg-type]
    exit_now(outcome.code)


def plain_gate(argv: list[str]) -> dict[str, object] | None:
    """The gate's arguments by parameter, as typer would give them, when `argv` (after the
    program's name) is `gate` with one directory and the gate's options, none given twice (a
    repeatable one aside), each value converted as typer converts it; else None."""
    if argv[:1] != ["gate"]:
        return None
    given: dict[str, object] = {}
    repeated: dict[str, list[object]] = {}
    directory: list[str] = []
    rest = iter(argv[1:])
    for token in rest:
        if not token.startswith("-"):
            directory.append(token)
            continue
        spelling, equals, written = token.partition("=")
        if spelling not in OPTIONS or (equals and not spelling.startswith("--")):
            return None
        name, kind = OPTIONS[spelling]
        if kind == "flag":
            if equals or name in given:
                return None
            given[name] = True
            continue
        value = written if equals else next(rest, None)
        if value is None or value.startswith("-"):
            return None
        converted = _converted(value, kind.removeprefix("many:"))
        if converted is None:
            return None
        if kind.startswith("many:"):
            repeated.setdefault(name, []).append(converted)
        elif name in given:
            return None
        else:
            given[name] = converted
    place = _converted(directory[0], "path") if len(directory) == 1 else None
    return None if place is None else {"directory": place, **given, **repeated}


def _converted(value: str, kind: str) -> object | None:
    """`value` as typer converts an option of `kind`; None where it would refuse it."""
    try:
        if kind == "float":
            return float(value)
        if kind == "count":
            number = int(value)
            return number if number >= 0 else None
    except ValueError:
        return None
    if kind == "path" and not value:
        return None  # the app refuses an empty path (`analyzer.cli.given`)
    if kind == "path":  # an existing path must be readable (click's Path)
        return Path(value) if not os.path.exists(value) or os.access(value, os.R_OK) else None
    return value


def _utf8_text(stream: object) -> bool:
    """A text stream click writes to as it is (it wraps one whose encoding is ASCII)."""
    encoding, errors = getattr(stream, "encoding", None), getattr(stream, "errors", None)
    try:
        return isinstance(encoding, str) and errors is not None and codecs.lookup(encoding).name == "utf-8"
    except LookupError:
        return False


def _echo(line: str) -> None:
    """What `typer.echo` writes to a UTF-8 stdout: the line and a newline, its ANSI codes
    stripped when stdout is no terminal, flushed."""
    if "\033" in line and not sys.stdout.isatty():
        line = _ANSI.sub("", line)
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def owner_rows(owners: OwnerCounts) -> str:
    """The callsites of each owner class by kind, as the gate shows them above its verdict."""
    header = ["", "error", "diagnostic", "all"]
    rows = [[owner, str(owners.byKind["error"][owner]), str(owners.byKind["diagnostic"][owner]),
             str(owners.total[owner])] for owner in ("Product", "Dependency", "Unresolved")]
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    return "\n".join(
        "  ".join(cell.ljust(widths[0]) if i == 0 else cell.rjust(widths[i]) for i, cell in enumerate(row)).rstrip()
        for row in [header, *rows])


def gate_status(directory: Path, echo: Callable[[str], None], min_coverage: float | None = None,
                min_kind: list[str] | None = None, baseline: Path | None = None, allowlist: list[Path] | None = None,
                allow_stale: bool = False, max_drop: float | None = None, allow_empty: bool = False,
                max_new_swallowed: int | None = None, max_new_lost_cause: int | None = None,
                output_format: str = "text", bundle: Path | None = None) -> int:
    """`erratlas gate` (its options are the verb's, `analyzer.cli.owning.gate`): its lines through
    `echo`, its exit status returned."""
    reading_a_scan()  # before the imports too: making their 80 dataclasses sets off the collector
    from analyzer.owners.gate import DEFAULT_MAX_DROP, KINDS, Thresholds, coverage_threshold, failures, refuse_empty
    from analyzer.projected import checked_summary

    if output_format not in ("text", "github", "sarif"):
        raise InputError("--format", f"unknown format '{output_format}' (text, github or sarif)")
    if min_coverage is not None:
        coverage_threshold("--min-coverage", min_coverage)
    if max_drop is not None and baseline is None:  # else taken and never used, without a word
        raise InputError("--max-drop", "needs --baseline SUMMARY (the fall in callsites is counted against it)")
    max_drop = coverage_threshold("--max-drop", max_drop if max_drop is not None else DEFAULT_MAX_DROP)
    kinds: dict[str, float] = {}
    for item in min_kind or []:
        kind, _, value = item.partition("=")
        try:
            threshold = coverage_threshold("--min-coverage-kind", float(value))
        except ValueError:
            raise InputError("--min-coverage-kind", f"'{item}' is not KIND=NUMBER") from None
        if kind not in KINDS:
            raise InputError("--min-coverage-kind", f"unknown kind '{kind}' (error or diagnostic)")
        if kinds.setdefault(kind, threshold) != threshold:  # which one held would be the order's accident
            raise InputError("--min-coverage-kind", f"'{kind}' given twice, {kinds[kind]} and {threshold}")
    for option, given in (("--max-new-swallowed", max_new_swallowed), ("--max-new-lost-cause", max_new_lost_cause)):
        if given is not None and baseline is None:
            raise InputError(option, "needs --baseline SUMMARY (new handlers are counted against it)")
    # the gate verifies, it does not trust
    summary = checked_summary(directory, allowlist or [])
    if bundle is not None and output_format != "sarif":
        raise InputError("--bundle", "only used with --format sarif")
    refuse_empty(directory, summary, allow_empty)
    thresholds = Thresholds(min_coverage, kinds, baseline, allow_stale, max_drop, max_new_swallowed,
                            max_new_lost_cause)
    if output_format == "sarif":
        return _gate_sarif(directory, thresholds, bundle)
    failed = failures(summary, thresholds)
    if output_format == "text":
        echo(owner_rows(summary.owners))
    for line in failed:
        echo(f"::error title=erratlas gate::{github_escape(line)}" if output_format == "github" else f"FAIL {line}")
    coverage = summary.coverage.overall
    status = "failed" if failed else "passed"
    said = _unthresholded(thresholds) if not failed else _prune_next(directory, summary, thresholds)
    echo(f"::notice title=erratlas gate::{status}, coverage {coverage.display}{said}" if output_format == "github"
         else f"gate {status}: coverage {coverage.display} ({coverage.owned} of {coverage.total}){said}")
    return int(ExitCode.FINDINGS if failed else ExitCode.OK)


def _prune_next(directory: Path, summary: Summary, thresholds: Thresholds) -> str:
    """What to do with the stale entries a failed gate counted: pass them (an allowlist several
    releases share), or `prune` them from the allowlists that hold them (their code is gone)."""
    import shlex

    if thresholds.allow_stale or not summary.stale:
        return ""
    files = dict.fromkeys(re.sub(r":\d+(:\d+)?\Z", "", entry.entry) for entry in summary.stale)
    given = "".join(f" -a {shlex.quote(name)}" for name in files)
    return (f"; {len(summary.stale)} stale entr{'y' if len(summary.stale) == 1 else 'ies'}: --allow-stale passes "
            f"them (an allowlist of several releases), `erratlas prune {shlex.quote(str(directory))}{given}` removes "
            "them (their code gone for good)")


def _unthresholded(thresholds: Thresholds) -> str:
    """What a pass without a coverage threshold or a baseline checked: a gate that passes at 0%
    coverage says that it never looked at coverage."""
    if thresholds.min_coverage is not None or thresholds.min_kind_coverage or thresholds.baseline is not None:
        return ""
    checked = "the scan's integrity" + ("" if thresholds.allow_stale else " and its allowlists' entries")
    return f"; no threshold given: only {checked} were checked (--min-coverage F or --baseline SUMMARY sets one)"


def _gate_sarif(directory: Path, thresholds: Thresholds, bundle: Path | None) -> int:
    """`gate --format sarif`: the SARIF log of the failing set on stdout (every Unresolved
    callsite when a coverage threshold fails, else those new against the baseline; the new
    Product handlers of each failed handler threshold, under the flow rules), the failed
    thresholds as notifications; the exit status is the gate's."""
    from analyzer.cli.reading import baseline_of, original_sources, verified_outputs, write_sarif
    from analyzer.owners.gate import failures
    from analyzer.reports.sarif import Selection

    files, summary, records, rows = verified_outputs(directory)
    sources = original_sources(files, summary, bundle, directory)
    read = summary
    failed = failures(read, thresholds)
    coverage = read.coverage
    checks = ([("overall", thresholds.min_coverage)] if thresholds.min_coverage is not None else [])
    checks += sorted(thresholds.min_kind_coverage.items())
    below = any(getattr(coverage, kind).value < minimum for kind, minimum in checks
                if kind in ("overall", "error", "diagnostic"))
    baseline = baseline_of(thresholds.baseline, read)
    new = baseline is not None and bool(Counter(read.unresolvedFingerprints) - baseline)
    results = "unresolved" if below else "new" if new else "none"
    flow = None
    handlers: frozenset[tuple[str, HandlerFinding]] | None = None
    if thresholds.max_new_swallowed is not None or thresholds.max_new_lost_cause is not None:
        from analyzer.owners.gate import failing_handlers
        from analyzer.scandir.load import load_owned_handlers

        flow = load_owned_handlers(files)
        if flow is not None:  # else `failures` said so, exit 2
            handlers = failing_handlers(*flow, thresholds)
    write_sarif(directory, summary, records, rows, Selection(results, baseline, failing=True, handlers=handlers),
                None, failed, sources, flow)
    for line in failed:  # each its own line, as the text format writes them, then the verdict
        err.print(f"FAIL {line}", markup=False)
    said = _unthresholded(thresholds) if not failed else _prune_next(directory, read, thresholds)
    err.print(f"erratlas: gate {'failed' if failed else 'passed'}: coverage {coverage.overall.display}{said}",
              markup=False)
    return int(ExitCode.FINDINGS if failed else ExitCode.OK)
