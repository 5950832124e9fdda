"""Time `erratlas scan` on pathological shapes (issue 13): deep nesting of blocks, functions,
arrows, ifs, try/catch and calls around one callsite, long runs of sequential callsites,
callsites nested in each other, a long string literal, a file of `;`.

usage: python bench/hostile_shapes.py [--depth N]... [--other CMD] [--timeout S] [--runs N]

Each shape is generated once; every command (this checkout's `erratlas`, and `--other`, e.g.
a wrapper that runs another revision) scans it in turn, runs interleaved, each with a timeout.
Prints a markdown table: exit status (or `timeout`), median wall seconds, peak RSS of the
largest process (`os.wait4`, which covers the descendants a process reaped), with the load
average before and after.

    python bench/hostile_shapes.py --depth 20000 --depth 100000
    python bench/hostile_shapes.py --other "env PYTHONPATH=/tmp/main .venv/bin/erratlas"
    python bench/hostile_shapes.py --no-shapes --target cli.js --runs 5 --other "..."   # a real bundle
"""

from __future__ import annotations

import argparse
import os
import pathlib
import shlex
import statistics
import subprocess
import sys
import tempfile
import time

MiB = 1 << 20


def shapes(depth: int) -> dict[str, bytes]:
    throw = b'throw new Error("x");'
    return {
        f"blocks x{depth}": b"{" * depth + throw + b"}" * depth,
        f"functions x{depth}": b"function a(){" * depth + throw + b"}" * depth,
        f"arrows x{depth}": b"(()=>{" * depth + throw + b"})" * depth,
        f"ifs x{depth}": b"if(a){" * depth + throw + b"}" * depth,
        f"try/catch x{depth}": b"try{" * depth + throw + b"}catch(e){}" * depth,
        f"calls x{depth}": b"f(" * depth + b'new Error("x")' + b")" * depth + b";",
        f"sequential x{depth}": b'new Error("x");' * depth,
        f"nested callsites x{depth // 50}": b'function a(){new Error("x");' * (depth // 50) + b"}" * (depth // 50),
    }


def fixed() -> dict[str, bytes]:
    return {
        "string literal 10 MB": b'throw new Error("' + b"x" * (10 * MiB) + b'");',
        "semicolons 8 MB": b";" * (8 * MiB),
        "sequential x1000000": b'new Error("x");' * 1_000_000,
    }


def timed(command: list[str], bundle: pathlib.Path, out: pathlib.Path, timeout: float) -> tuple[str, float, int]:
    started = time.perf_counter()
    process = subprocess.Popen([*command, "scan", str(bundle), "--out", str(out)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = started + timeout
    while True:
        pid, status, usage = os.wait4(process.pid, os.WNOHANG)
        if pid:
            break
        if time.perf_counter() > deadline:
            process.kill()
            _, status, usage = os.wait4(process.pid, 0)
            return "timeout", time.perf_counter() - started, usage.ru_maxrss * 1024
        time.sleep(0.02)
    code = os.waitstatus_to_exitcode(status)
    return str(code), time.perf_counter() - started, usage.ru_maxrss * 1024


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--depth", type=int, action="append")
    parser.add_argument("--other", help="another erratlas command to compare, interleaved")
    parser.add_argument("--timeout", type=float, default=120.0)
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--no-fixed", action="store_true", help="skip the 8-10 MB inputs")
    parser.add_argument("--no-shapes", action="store_true", help="only the --target files")
    parser.add_argument("--target", type=pathlib.Path, action="append", default=[], help="a real bundle too")
    args = parser.parse_args()
    ours = [str(pathlib.Path(sys.executable).parent / "erratlas")]
    commands = {"this checkout": ours}
    if args.other:
        commands["other"] = shlex.split(args.other)
    inputs: dict[str, bytes] = {target.name: target.read_bytes() for target in args.target}
    for depth in [] if args.no_shapes else args.depth or [20_000, 100_000]:
        inputs |= shapes(depth)
    if not args.no_fixed and not args.no_shapes:
        inputs |= fixed()
    print(f"load before: {os.getloadavg()}")
    print("| input | " + " | ".join(f"{label}: exit, median s, peak MiB" for label in commands) + " |")
    print("|---|" + "---|" * len(commands))
    with tempfile.TemporaryDirectory() as root:
        for name, data in inputs.items():
            bundle = pathlib.Path(root) / "shape.js"
            bundle.write_bytes(data)
            results: dict[str, list[tuple[str, float, int]]] = {label: [] for label in commands}
            for run in range(args.runs):
                for label, command in commands.items():
                    results[label].append(timed(command, bundle, pathlib.Path(root) / f"out-{run}", args.timeout))
            cells = []
            for label in commands:
                codes = {code for code, _, _ in results[label]}
                seconds = statistics.median(s for _, s, _ in results[label])
                peak = max(p for _, _, p in results[label]) // MiB
                cells.append(f"{'/'.join(sorted(codes))}, {seconds:.1f}, {peak}")
            print(f"| {name} | " + " | ".join(cells) + " |", flush=True)
    print(f"load after: {os.getloadavg()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
