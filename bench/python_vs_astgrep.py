"""Time a full `erratlas scan` of a Python tree beside the bare parsers over the same files.

usage: python bench/python_vs_astgrep.py [--runs N] [--warmup N] [--target DIR | --stdlib]

In one invocation, runs interleaved (a, b, c, d, e, a, b, ...) after unmeasured warm-ups:

(a) `erratlas scan DIR --out TMP --jobs 1`, the installed command, every output written;
(b) the same with the default job count (the machine's cores);
(c) `libcst.parse_module` of every file the scan reads, one process: the floor of a tool
    built on libcst (nothing is done with the trees);
(d) `ast.parse` of the same files, one process (CPython's own parser);
(e) `ast-grep run -p 'raise $E($$$)' --lang python DIR --json=stream`, matches counted.

Wall time is taken around spawn and reap; CPU time and the largest single process's peak RSS
come from the child's rusage (`os.wait4`, which covers the workers it reaped); the peak of the
sum of PSS over the whole process tree (erratlas and its workers at once; forked workers share
pages, which PSS counts once) is sampled from /proc every 50 ms. The two erratlas variants
must write byte-identical directories, checked on every run. Prints a markdown table with the
erratlas/libcst ratios, and the load average before and after.

Targets: the installed `pip` package (default), `--target DIR`, or `--stdlib`: the running
Python's standard library `Lib/` (without `site-packages/`), copied into a temporary tree.
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import platform
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile

# the measuring kit of the JavaScript benchmark (this script's directory is on sys.path)
from scan_vs_astgrep import Tool, find_command, run_child

REPOSITORY = pathlib.Path(__file__).resolve().parent.parent
PATTERN = "raise $E($$$)"
SUMMARY = "error-diagnostic-owner-summary.json"
_SKIPPED = frozenset({"__pycache__", "node_modules"})
PARSE_LOOP = """
import sys, {module}
paths = open(sys.argv[1], encoding="utf-8", errors="surrogateescape").read().split("\\0")
failed = 0
for path in paths:
    with open(path, "rb") as handle:
        source = handle.read()
    try:
        {call}
    except Exception:
        failed += 1
print(len(paths), "files,", failed, "not parsed")
"""


def python_files(root: pathlib.Path) -> list[str]:
    """The files `erratlas scan` reads in a tree: `.py`, regular, not under hidden directories,
    `__pycache__` or `node_modules`."""
    found, pending = [], [str(root)]
    while pending:
        directory = pending.pop()
        with os.scandir(directory) as entries:
            for entry in sorted(entries, key=lambda e: e.name):
                if entry.is_dir(follow_symlinks=False):
                    if entry.name not in _SKIPPED and not entry.name.startswith("."):
                        pending.append(entry.path)
                elif entry.name.endswith(".py") and entry.is_file(follow_symlinks=False):
                    found.append(entry.path)
    return sorted(found)


def directory_bytes(directory: pathlib.Path) -> dict[str, bytes]:
    return {p.relative_to(directory).as_posix(): p.read_bytes() for p in sorted(directory.rglob("*")) if p.is_file()}


def default_target() -> pathlib.Path:
    import pip

    return pathlib.Path(pip.__file__).resolve().parent


def tools(
    target: pathlib.Path, work: pathlib.Path, listing: pathlib.Path
) -> tuple[list[Tool], dict[int, pathlib.Path]]:
    erratlas, ast_grep = find_command("erratlas", None), find_command("ast-grep", None)
    outs = {1: work / "scan-jobs1", 0: work / "scan-default"}
    scans = [Tool("erratlas scan --jobs 1", [erratlas, "scan", str(target), "--out", str(outs[1]), "--jobs", "1"]),
             Tool("erratlas scan (default jobs)", [erratlas, "scan", str(target), "--out", str(outs[0])])]
    loops = [
        Tool(
            "libcst.parse_module loop",
            [
                sys.executable,
                "-c",
                PARSE_LOOP.format(module="libcst", call="libcst.parse_module(source)"),
                str(listing),
            ],
        ),
        Tool(
            "ast.parse loop",
            [sys.executable, "-c", PARSE_LOOP.format(module="ast", call="ast.parse(source)"), str(listing)],
        ),
        Tool(
            f"ast-grep run -p '{PATTERN}'",
            [ast_grep, "run", "-p", PATTERN, "--lang", "python", str(target), "--json=stream"],
        ),
    ]
    return scans + loops, outs


def measure(args: argparse.Namespace, target: pathlib.Path, work: pathlib.Path) -> None:
    files = python_files(target)
    listing = work / "files"
    listing.write_text("\0".join(files), encoding="utf-8", errors="surrogateescape")
    size = sum(os.path.getsize(p) for p in files)
    lines = sum(pathlib.Path(p).read_bytes().count(b"\n") for p in files)
    measured, outs = tools(target, work, listing)
    scans, grep = measured[:2], measured[-1]
    stdout, stderr = work / "stdout", work / "stderr"
    load_before = os.getloadavg()
    identical = True
    for round_number in range(args.warmup + args.runs):
        for tool in measured:
            for out in outs.values():
                if tool in scans and tool.command[4] == str(out):
                    shutil.rmtree(out, ignore_errors=True)
            run, code = run_child(tool.command, stdout, stderr)
            if code != 0 and not (tool is grep and code == 1 and not stderr.stat().st_size):
                raise SystemExit(f"{tool.label} exited {code}: {stderr.read_text(errors='replace')[-800:]}")
            if tool is grep:
                with stdout.open("rb") as matches:
                    tool.output = f"{sum(1 for _ in matches)} matches"
            elif tool not in scans:
                tool.output = stdout.read_text().strip()
            if round_number >= args.warmup:
                tool.runs.append(run)
        identical = identical and directory_bytes(outs[1]) == directory_bytes(outs[0])
    load_after = os.getloadavg()
    summary = json.loads((outs[1] / SUMMARY).read_text())
    for tool in scans:
        tool.output = (f"{summary['counts']['byKind']['error']} error + {summary['counts']['byKind']['diagnostic']} "
                       f"diagnostic callsites")
    report(args, target, files, size, lines, measured, identical, load_before, load_after)


def report(
    args: argparse.Namespace,
    target: pathlib.Path,
    files: list[str],
    size: int,
    lines: int,
    measured: list[Tool],
    identical: bool,
    load_before: tuple[float, ...],
    load_after: tuple[float, ...],
) -> None:
    floor = measured[2]
    ast_grep = find_command("ast-grep", None)
    print(f"**target** `{args.label or target}` ({len(files)} .py files, {lines} lines, {size / 2**20:.1f} MiB)  ")
    print(
        f"**runs** {args.runs} interleaved after {args.warmup} warm-up; {os.cpu_count()} CPUs, load avg "
        f"{'/'.join(f'{v:.2f}' for v in load_before)} before, {'/'.join(f'{v:.2f}' for v in load_after)} after; "
        f"{platform.system()} {platform.machine()}, Python {platform.python_version()}, "
        f"{subprocess.run([ast_grep, '--version'], check=False, capture_output=True, text=True).stdout.strip()}  "
    )
    print(f"**--jobs 1 and default-jobs outputs byte-identical on every run:** {'yes' if identical else 'NO'}")
    print()
    print("| tool | median wall s | min wall s | wall / libcst loop (median of per-round ratios) | median CPU s "
          "| peak RSS MiB (largest process) | peak PSS MiB (all processes) | output |")
    print("|---|---:|---:|---:|---:|---:|---:|---|")
    for tool in measured:
        ratio = statistics.median(run.wall / base.wall for run, base in zip(tool.runs, floor.runs))
        print(
            f"| {tool.label} | {tool.median('wall'):.2f} | {tool.minimum('wall'):.2f} | {ratio:.2f} "
            f"| {tool.median('cpu'):.2f} | {tool.median('maxrss') / 2**20:.0f} | {tool.median('pss') / 2**20:.0f} "
            f"| {tool.output} |"
        )
    if not identical:
        raise SystemExit("--jobs 1 and the default job count wrote different outputs")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="measured runs per tool (default 3)")
    parser.add_argument("--warmup", type=int, default=1, help="unmeasured runs per tool first (default 1)")
    parser.add_argument("--target", help="a directory of Python sources (default: the installed pip)")
    parser.add_argument("--stdlib", action="store_true", help="the standard library's Lib/ (without site-packages)")
    args = parser.parse_args(argv)
    if args.runs < 1 or args.warmup < 0:
        parser.error("--runs must be at least 1 and --warmup at least 0")
    print(f"<!-- {shlex.join([pathlib.Path(sys.argv[0]).name, *sys.argv[1:]])} -->", flush=True)
    with tempfile.TemporaryDirectory(prefix="erratlas-pybench-") as temporary:
        work = pathlib.Path(temporary)
        args.label = None
        if args.stdlib:
            sys.path.insert(0, str(REPOSITORY / "tests"))
            from support.python_trees import STDLIB, stdlib_tree

            target = stdlib_tree(work)
            args.label = f"{STDLIB} (copied, without site-packages)"
        else:
            target = pathlib.Path(args.target) if args.target else default_target()
        if not target.is_dir():
            raise SystemExit(f"{target}: not a directory")
        measure(args, target, work)
    return 0


if __name__ == "__main__":
    sys.exit(main())
