"""What the same work costs in CPU time when a second process runs beside it, on this machine.

usage: python bench/contention.py [--rounds N] [--target PATH | --package P --version V]
                                   [--erratlas CMD] [--slices K]

The default scan runs on two processes (docs/slices.md, "Two workers"), `--jobs 1` on one. On a
machine whose two CPUs share a physical core or a memory path, each of two processes at once
takes more CPU time for the same instructions than it takes alone, so a scan's CPU time depends
on how much of it runs beside other work, not only on the work. This bench measures that:

1. **The same workload alone and two at once**, alternated, `--rounds` times each: a pure-Python
   loop (an interpreter's work), a tree-sitter parse of the target's JavaScript (the parser's
   work: mostly memory), and `ast-grep run -p 'Error($$$A)'` on it. The CPU time (user +
   system, `os.wait4`) of each process; alone against the mean of the pair, as a ratio.
2. **The scan's own split**: `erratlas scan --jobs 1 --slices K` (every slice's work in one
   process, K the cut count the default picks), `--jobs 1` (the tree whole), the default scan
   (the same slices on two processes, with its workers) and the default without the render
   worker, alternated: what the slices cost, and what the default adds over the same work on one
   process.

Prints markdown tables: medians, with the range of the rounds in brackets. Run it on an idle
machine: a third process makes every figure meaningless. Default target: package/cli.js of
@anthropic-ai/claude-code@2.1.100 (tests/support/npm_cache.py); a Bun executable's entry module
is extracted for the parse and ast-grep workloads, and the executable itself is scanned.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

# the measuring kit of the JavaScript benchmark (this script's directory is on sys.path)
from scan_vs_astgrep import extract_entry_module, find_command, is_executable, resolve_target, target_arguments

PYTHON_LOOP = "x = 0\nfor i in range(40_000_000):\n    x += i\n"
PARSE = (
    "import sys, pathlib\nfrom tree_sitter import Language, Parser\nimport tree_sitter_javascript\n"
    "Parser(Language(tree_sitter_javascript.language())).parse(pathlib.Path(sys.argv[1]).read_bytes())\n"
)


def spawn(command: list[str]) -> subprocess.Popen[bytes]:
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def reap(process: subprocess.Popen[bytes], label: str) -> float:
    """The process's CPU seconds (user + system, with what it reaped), once it has ended."""
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        stderr = process.stderr.read().decode(errors="replace") if process.stderr else ""
        sys.exit(f"contention: {label} exited {process.returncode}: {stderr.strip()[-400:]}")
    return usage.ru_utime + usage.ru_stime


def alone_and_paired(command: list[str], label: str, rounds: int) -> tuple[list[float], list[float], list[float]]:
    """CPU seconds of `command` alone, and of each of two copies started together, alternated;
    and the wall time of each pair."""
    alone: list[float] = []
    paired: list[float] = []
    walls: list[float] = []
    reap(spawn(command), label)  # warm-up: caches, the page cache
    for _ in range(rounds):
        alone.append(reap(spawn(command), label))
        began = time.perf_counter()
        first, second = spawn(command), spawn(command)
        paired.append((reap(first, label) + reap(second, label)) / 2)
        walls.append(time.perf_counter() - began)
    return alone, paired, walls


SCANS: tuple[tuple[str, str, dict[str, str]], ...] = (
    ("`--jobs 1 --slices K` (one process)", "one", {}),
    ("`--jobs 1` (one process, the tree whole)", "whole", {}),
    ("default (two processes and the workers)", "default", {}),
    ("default, no render worker (`ERRATLAS_RENDER_WORKER=0`)", "default", {"ERRATLAS_RENDER_WORKER": "0"}),
)


def scan_split(erratlas: str, target: pathlib.Path, slices: int, rounds: int) -> list[tuple[list[float], list[float]]]:
    """(CPU seconds, wall seconds) of each of `SCANS`, alternated round by round."""
    measured: list[tuple[list[float], list[float]]] = [([], []) for _ in SCANS]
    with tempfile.TemporaryDirectory(prefix="erratlas-contention-") as scratch:
        out = pathlib.Path(scratch) / "out"
        for first_round in [True] + [False] * rounds:
            for (_, kind, environment), (cpu, wall) in zip(SCANS, measured):
                arguments = (["--jobs", "1", "--slices", str(slices)] if kind == "one" else ["--jobs", "1"]
                             if kind == "whole" else [])
                shutil.rmtree(out, ignore_errors=True)
                began = time.perf_counter()
                process = subprocess.Popen([erratlas, "scan", str(target), "--out", str(out), *arguments],
                                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                           env={**os.environ, **environment})
                spent = reap(process, "erratlas scan")
                if not first_round:
                    cpu.append(spent)
                    wall.append(time.perf_counter() - began)
    return measured


def cell(values: list[float]) -> str:
    return f"{statistics.median(values):.2f} ({min(values):.2f}-{max(values):.2f})"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--erratlas", default=None, help="the erratlas command (default: on PATH)")
    parser.add_argument("--ast-grep", default=None)
    parser.add_argument("--slices", type=int, default=None,
                        help="the default's cut count for the target (default: 6 for a file, 11 for an executable)")
    parser.add_argument("--skip-scan", action="store_true", help="the workloads only")
    target_arguments(parser)
    args = parser.parse_args(argv)
    target = resolve_target(args)
    erratlas = find_command("erratlas", args.erratlas)
    ast_grep = find_command("ast-grep", args.ast_grep)
    load = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="erratlas-contention-js-") as scratch:
        javascript = target
        if is_executable(target):
            javascript, _ = extract_entry_module(target, pathlib.Path(scratch))
        workloads = [
            ("a pure-Python loop (40 million additions)", [sys.executable, "-c", PYTHON_LOOP]),
            (f"tree-sitter's parse of {javascript.name}", [sys.executable, "-c", PARSE, str(javascript)]),
            ("ast-grep run -p 'Error($$$A)'", [ast_grep, "run", "-p", "Error($$$A)", "--lang", "js",
                                              "--json=stream", str(javascript)]),
        ]
        print(f"target {target} ({target.stat().st_size:,} bytes), {args.rounds} rounds, "
              f"load before {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}, {os.cpu_count()} CPUs\n")
        print("| workload | CPU s alone | CPU s each, two at once | ratio | wall s of the pair |")
        print("|---|---:|---:|---:|---:|")
        for label, command in workloads:
            alone, paired, walls = alone_and_paired(command, label, args.rounds)
            ratio = statistics.median(paired) / statistics.median(alone)
            print(f"| {label} | {cell(alone)} | {cell(paired)} | {ratio:.2f}x | {cell(walls)} |", flush=True)
    if not args.skip_scan:
        slices = args.slices or (11 if is_executable(target) else 6)
        measured = scan_split(erratlas, target, slices, args.rounds)
        base = statistics.median(measured[0][0])
        print("\n| erratlas scan | CPU s (user + sys, every process) | x one process | wall s |\n|---|---:|---:|---:|")
        for (label, kind, _), (cpu, wall) in zip(SCANS, measured):
            label = label.replace("K", str(slices), 1) if kind == "one" else label
            print(f"| {label} | {cell(cpu)} | {statistics.median(cpu) / base:.2f}x "
                  f"| {cell(wall)} |")
    load = os.getloadavg()
    print(f"\nload after {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
