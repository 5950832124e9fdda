"""`erratlas gate` of another revision against this checkout's, on one scan directory, interleaved.

usage: python bench/gate_revisions.py SCAN_DIR [--base REV | --base-erratlas CMD] [--this-erratlas CMD]
       [--runs N] [-- GATE OPTIONS ...]

The base revision (default `main`) runs from the tree `bench/outputs_identical.py` exports into
the cache (`$ERRATLAS_CACHE/outputs/<commit>/src`), with this virtualenv's Python; this checkout
runs as its installed `erratlas`. `--base-erratlas` and `--this-erratlas` name `erratlas`
commands instead (two wheels, each in its own clean virtualenv, say). Both run from the
repository root (where a scan's recorded allowlist paths are found), alternating, after one
unmeasured round. Prints, per side, the median and range of user + system CPU (from `os.wait4`)
and of wall time, and the load average before and after.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPOSITORY / "bench"))

from outputs_identical import commit_of, exported


def measured(command: list[str], environment: dict[str, str]) -> tuple[float, float]:
    """(user + system CPU s, wall s) of one run; a run that fails stops the benchmark."""
    start = time.perf_counter()
    child = subprocess.Popen(command, cwd=REPOSITORY, env=environment, stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    said = child.stderr.read().decode() if child.stderr is not None else ""
    if status != 0:
        raise SystemExit(f"{command[0]} exited {status}: {said[-400:]}")
    return usage.ru_utime + usage.ru_stime, wall


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("directory", type=Path)
    parser.add_argument("--base", default="main")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--base-erratlas", help="the base side's `erratlas` command, instead of --base's tree")
    parser.add_argument("--this-erratlas", help="this side's `erratlas` command, instead of this virtualenv's")
    mine = sys.argv[1:sys.argv.index("--")] if "--" in sys.argv else sys.argv[1:]
    options = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []
    args = parser.parse_args(mine)
    gate = ["gate", str(args.directory.resolve()), *options]
    if args.base_erratlas:
        base_side = (args.base_erratlas, ([args.base_erratlas, *gate], dict(os.environ)))
    else:
        base_side = (f"{args.base} ({commit_of(args.base)[:10]})", (
            [sys.executable, "-P", "-c", "from analyzer.cli import main; main()", *gate],
            {**os.environ, "PYTHONPATH": str(exported(commit_of(args.base)))}))
    this = args.this_erratlas or str(Path(sys.executable).with_name("erratlas"))
    sides = {base_side[0]: base_side[1], args.this_erratlas or "this checkout": ([this, *gate], dict(os.environ))}
    found: dict[str, list[tuple[float, float]]] = {name: [] for name in sides}
    before = os.getloadavg()[0]
    for round_ in range(args.runs + 1):
        for name, (command, environment) in sides.items():
            cpu, wall = measured(command, environment)
            if round_:  # the first round warms the page cache and writes .pyc files
                found[name].append((cpu, wall))
    print("| erratlas | median CPU s | CPU range s | median wall s | wall range s |\n|---|---:|---:|---:|---:|")
    for name, runs in found.items():
        cpu, wall = [c for c, _ in runs], [w for _, w in runs]
        print(f"| {name} | {statistics.median(cpu):.3f} | {min(cpu):.3f}-{max(cpu):.3f} "
              f"| {statistics.median(wall):.3f} | {min(wall):.3f}-{max(wall):.3f} |")
    print(f"\nload average before: {before:.1f}, after: {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
