"""What the worker of a JavaScript scan is worth: `erratlas scan` with its worker ahead (the
default), with it switched off (`ERRATLAS_RENDER_WORKER=0`) and with `--jobs 1`, interleaved, on
one bundle (docs/performance.md, "Each worker's worth").

usage: python bench/workers_worth.py [--runs N] [--erratlas CMD] [--target PATH | --package P --version V]

Each command runs as a child process after one unmeasured warm-up, in rounds (default, worker
off, `--jobs 1`, default, ...). Wall time around spawn and reap, CPU
(user + system of the command and every process it reaped) and peak PSS of its process tree as
in scan_vs_astgrep.py. Prints a markdown table of medians and ranges, and each command's wall
time against `--jobs 1` with the spread of the differences between runs of the same round.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import statistics
import sys
import tempfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

from scan_vs_astgrep import Run, fail, find_command, fmt_load, resolve_target, run_child, target_arguments

#: (label, extra arguments, environment)
CONFIGS = (
    ("default (the render worker)", [], {}),
    ("`ERRATLAS_RENDER_WORKER=0`", [], {"ERRATLAS_RENDER_WORKER": "0"}),
    ("`--jobs 1`", ["--jobs", "1"], {}),
)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=7, help="measured rounds (default 7)")
    target_arguments(parser)
    parser.add_argument("--erratlas", help="erratlas command (default: next to this Python)")
    args = parser.parse_args(argv)
    target = resolve_target(args)
    erratlas = find_command("erratlas", args.erratlas)
    runs: dict[str, list[Run]] = {label: [] for label, _, _ in CONFIGS}
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="erratlas-workers-") as work_dir:
        work = pathlib.Path(work_dir)
        for round_ in range(args.runs + 1):
            for at, (label, extra, env) in enumerate(CONFIGS):
                out = work / f"out{at}"
                command = [erratlas, "scan", str(target), "--out", str(out), *extra]
                saved = {name: os.environ.get(name) for name in env}
                os.environ.update(env)
                try:
                    run, code = run_child(command, work / "stdout", work / "stderr")
                finally:
                    for name, value in saved.items():
                        if value is None:
                            os.environ.pop(name, None)
                        else:
                            os.environ[name] = value
                if code not in (0, 1):  # 1: the scan's own gate verdict is not asked here
                    fail(label, code, work / "stderr")
                if round_:
                    runs[label].append(run)
    print(f"target {target} ({target.stat().st_size / 1e6:.1f} MB), {args.runs} interleaved rounds, "
          f"load before {fmt_load(load_before)} after {fmt_load(os.getloadavg())}; median (range)\n")
    print("| command | wall s | CPU s | peak PSS MiB | wall - `--jobs 1`, same round |")
    print("|---|---:|---:|---:|---:|")
    alone = runs["`--jobs 1`"]
    for label, _, _ in CONFIGS:
        rows = runs[label]
        cells = [_cell([r.wall for r in rows]), _cell([r.cpu for r in rows]),
                 _cell([r.pss / 2**20 for r in rows], "%.0f")]
        differences = [r.wall - a.wall for r, a in zip(rows, alone)]
        cells.append(_cell(differences, "%+.2f") if rows is not alone else "")
        print(f"| {label} | " + " | ".join(cells) + " |")
    return 0


def _cell(values: list[float], form: str = "%.2f") -> str:
    return f"{form % statistics.median(values)} ({form % min(values)} to {form % max(values)})"


if __name__ == "__main__":
    raise SystemExit(main())
