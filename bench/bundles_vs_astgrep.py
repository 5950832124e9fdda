"""`erratlas scan` against ast-grep on bundles of other bundlers and sizes than the two the scan's
figures are quoted on (docs/performance.md, "Other bundles"): wall time, CPU time and peak memory.

usage: python bench/bundles_vs_astgrep.py [--runs N] [PACKAGE@VERSION[:PATH] ...]

Each bundle is a pin of tests/support/bundles.toml, fetched and verified by
tests/support/npm_cache.py (default: `BUNDLES`): its main file, or with `:PATH` another file of
the package (`@tensorflow/tfjs@4.22.0:package/dist/tf.js`, which ships its map beside it).
Per bundle, interleaved and in rounds:
`erratlas scan FILE --out DIR`, the same with `--jobs 1`, and ast-grep's
`run -p 'Error($$$A)' -l js --json=stream` on the same file, all measured as
bench/scan_vs_astgrep.py measures (`run_child`: user + system CPU of every process, the largest
process's peak RSS). ast-grep 0.51 given some files by path reads none of them (wrangler's
12.7 MB cli.js: exit 1, no match, 0.01 s; the same bytes on standard input match): a file it
matches nothing in by path is given on standard input instead when it matches there, and the table says
so. Its pattern
matches calls only: in code that is not minified, `new Error(...)` is no match, and its count is
no measure of the scan's. Prints a markdown table of medians, with the ratios to ast-grep's.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile

REPOSITORY = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPOSITORY / "bench"))
sys.path.insert(0, str(REPOSITORY))

from scan_vs_astgrep import PATTERN, Run, find_command, fmt_load, run_child, version_of

from tests.support import npm_cache

#: one of each bundler and shape the scan was not tuned on, smallest first
BUNDLES = (
    "xlsx@0.18.5",
    "pdfjs-dist@5.6.205",
    "@babel/standalone@7.29.13",
    "mermaid@11.17.2",
    "plotly.js-dist-min@4.1.2",
    "wrangler@4.86.0",
    "@google/gemini-cli@0.61.0",
    "typescript@5.8.3",
    "@tensorflow/tfjs@4.22.0:package/dist/tf.js",
)


@dataclasses.dataclass
class Bundle:
    pin: str
    path: pathlib.Path
    scan: list[Run] = dataclasses.field(default_factory=list)
    jobs_1: list[Run] = dataclasses.field(default_factory=list)
    grep: list[Run] = dataclasses.field(default_factory=list)
    callsites: int = 0
    matches: int = 0
    stdin: bool = False  #: ast-grep given the file on standard input


def median(runs: list[Run], field: str) -> float:
    return statistics.median(getattr(run, field) for run in runs)


def scan_once(erratlas: str, bundle: Bundle, runs: list[Run], extra: list[str], work: pathlib.Path) -> None:
    out = work / "scan"
    command = [erratlas, "scan", str(bundle.path), "--out", str(out), *extra]
    run, code = run_child(command, work / "stdout", work / "stderr")
    if code != 0:
        raise SystemExit(f"{bundle.pin}: erratlas exited {code}: "
                         f"{(work / 'stderr').read_text(errors='replace').strip()[-300:]}")
    with (out / "error-message-callsites.jsonl").open("rb") as errors, \
            (out / "diagnostic-message-callsites.jsonl").open("rb") as diagnostics:
        bundle.callsites = sum(1 for _ in errors) + sum(1 for _ in diagnostics)
    runs.append(run)


def grep_once(ast_grep: str, bundle: Bundle, work: pathlib.Path) -> None:
    command = [ast_grep, "run", "-p", PATTERN, "-l", "js", "--json=stream"]
    run, matches = _grep(command, bundle, work)
    if matches == 0 and not bundle.stdin and not bundle.grep:  # by path, nothing: on standard input?
        bundle.stdin = True
        piped, found = _grep(command, bundle, work)
        bundle.stdin = found > 0
        if bundle.stdin:
            run, matches = piped, found
    bundle.matches = matches
    bundle.grep.append(run)


def _grep(command: list[str], bundle: Bundle, work: pathlib.Path) -> tuple[Run, int]:
    if bundle.stdin:
        run, code = run_child([*command, "--stdin"], work / "stdout", work / "stderr", stdin=bundle.path)
    else:
        run, code = run_child([*command, str(bundle.path)], work / "stdout", work / "stderr")
    if code not in (0, 1) or (work / "stderr").stat().st_size:
        told = (work / "stderr").read_text(errors="replace")[-300:]
        raise SystemExit(f"{bundle.pin}: ast-grep exited {code}: {told}")
    return run, _lines(work / "stdout")


def _lines(path: pathlib.Path) -> int:
    """Line breaks counted by chunks: a match of minified code carries its whole line (megabytes),
    and a command's peak RSS counts this process's at the fork."""
    count = 0
    with path.open("rb") as lines:
        while chunk := lines.read(1 << 20):
            count += chunk.count(b"\n")
    return count


def table(bundles: list[Bundle]) -> list[str]:
    lines = [
        "| bundle | MB | callsites / matches | scan wall s | `--jobs 1` wall s | ast-grep wall s "
        "| scan / ast-grep wall | `--jobs 1` / ast-grep wall | scan CPU s | ast-grep CPU s | scan / ast-grep CPU "
        "| scan peak RSS MiB | ast-grep peak RSS MiB |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for bundle in bundles:
        wall, wall_1, grep_wall = (median(runs, "wall") for runs in (bundle.scan, bundle.jobs_1, bundle.grep))
        cpu, grep_cpu = median(bundle.scan, "cpu"), median(bundle.grep, "cpu")
        how = " (stdin)" if bundle.stdin else ""
        lines.append(
            f"| {bundle.pin} | {bundle.path.stat().st_size / 1e6:.1f} | {bundle.callsites:,} / {bundle.matches:,}{how} "
            f"| {wall:.2f} | {wall_1:.2f} | {grep_wall:.2f} | {wall / grep_wall:.2f}x | {wall_1 / grep_wall:.2f}x "
            f"| {cpu:.2f} | {grep_cpu:.2f} | {cpu / grep_cpu:.2f}x "
            f"| {median(bundle.scan, 'maxrss') / 2**20:.0f} | {median(bundle.grep, 'maxrss') / 2**20:.0f} |")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="interleaved rounds (default 3)")
    parser.add_argument("--erratlas", help="command to use instead of the erratlas next to this Python")
    parser.add_argument("--ast-grep", help="command to use instead of the ast-grep next to this Python")
    parser.add_argument("pins", nargs="*", default=list(BUNDLES), help="PACKAGE@VERSION[:PATH] pins of bundles.toml")
    args = parser.parse_args(argv)
    # fetched (and unpacked) in a child: a command's peak RSS counts this process's at the fork
    specs = [pin.partition(":")[0] for pin in args.pins]
    subprocess.run([sys.executable, "-m", "tests.support.npm_cache", *specs], cwd=REPOSITORY, check=True,
                   stdout=subprocess.DEVNULL)
    bundles = []
    for pin in args.pins:
        spec, _, inside = pin.partition(":")
        package, _, version = spec.rpartition("@")
        try:
            path = npm_cache.main_file(package, version) if not inside else \
                npm_cache.fetch(package, version).parent / inside
        except npm_cache.CacheError as error:
            raise SystemExit(str(error)) from None
        if not path.is_file():
            raise SystemExit(f"{pin}: no such file in the package")
        bundles.append(Bundle(pin, path))
    erratlas, ast_grep = find_command("erratlas", args.erratlas), find_command("ast-grep", args.ast_grep)
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="erratlas-bundles-") as temporary:
        work = pathlib.Path(temporary)
        for round_ in range(args.runs):
            for bundle in bundles:
                scan_once(erratlas, bundle, bundle.scan, [], work)
                scan_once(erratlas, bundle, bundle.jobs_1, ["--jobs", "1"], work)
                grep_once(ast_grep, bundle, work)
            print(f"round {round_ + 1}/{args.runs} done, load {fmt_load(os.getloadavg())}", file=sys.stderr)
    print(f"**runs** {args.runs} interleaved rounds, no warm-up; {os.cpu_count()} CPUs, load avg "
          f"{fmt_load(load_before)} before, {fmt_load(os.getloadavg())} after; {version_of(ast_grep)}")
    print()
    print("\n".join(table(bundles)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
