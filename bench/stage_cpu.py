"""CPU of each stage of `erratlas scan --jobs 1`, two revisions, interleaved.

usage: python bench/stage_cpu.py [--base REV] [--head REV] [--runs N] [--target PATH | --package P --version V]

Both revisions are exported and run as in scan_revisions.py (`python -S -P`, their own source
tree first on PYTHONPATH), with `--jobs 1` and `ERRATLAS_TRACE=1`, alternating base, head, base,
... The CPU column of the trace (user + system of the scanning process) gives each stage's CPU:
the step from one mark to the next, named after the later mark (numbers and unit names left
out, summed over the units). Prints, per stage and for the whole process tree (`wait4`), the
median and the range of each side and the head - base difference of the medians. CPU time,
not wall time, is what stays comparable on a machine shared with other work.
"""

from __future__ import annotations

import os
import pathlib
import re
import statistics
import sys
import tempfile
from collections import defaultdict

REPOSITORY = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPOSITORY / "bench"))
sys.path.insert(0, str(REPOSITORY))

from scan_revisions import command, export, revision_arguments
from scan_vs_astgrep import fail, run_child

_TRACE = re.compile(r"^erratlas-trace +[0-9.]+ +([0-9.]+) +\d+ +(\d+) (.*)$")
TOTAL = "all processes (wait4)"


def stages(stderr: str) -> dict[str, float]:
    """CPU seconds of each stage of the trace, per process, steps named after their later mark."""
    out: dict[str, float] = defaultdict(float)
    last: dict[str, float] = {}
    for line in stderr.splitlines():
        found = _TRACE.match(line)
        if found is None:
            continue
        cpu, pid, label = float(found.group(1)), found.group(2), found.group(3)
        label = re.sub(r"parsing .*", "parsing the next unit", re.sub(r"\d+ ", "N ", label))
        out[label] += cpu - last.get(pid, 0.0)
        last[pid] = cpu
    return out


def main() -> None:
    args = revision_arguments(__doc__, runs=3)
    sides = (("base", args.base), ("head", args.head))
    seen: dict[str, dict[str, list[float]]] = {side: defaultdict(list) for side, _ in sides}
    order: list[str] = []
    os.environ["ERRATLAS_TRACE"] = "1"
    with tempfile.TemporaryDirectory() as work_dir:
        work = pathlib.Path(work_dir)
        for side, revision in sides:
            (work / side).mkdir()
            export(revision, work / side)
        load_before = os.getloadavg()
        for _ in range(args.runs):
            for side, revision in sides:
                scan = [*command(work / side, args.target, work / f"out-{side}"), "--jobs", "1"]
                run, code = run_child(scan, work / "stdout", work / "stderr")
                if code != 0:
                    fail(f"{side} {revision}", code, work / "stderr")
                for label, cpu in stages((work / "stderr").read_text(errors="replace")).items():
                    seen[side][label].append(cpu)
                    if label not in order:
                        order.append(label)
                seen[side][TOTAL].append(run.cpu)
        load_after = os.getloadavg()
    print(f"target {args.target}, --jobs 1, {args.runs} interleaved runs each, base {args.base}, head {args.head}, "
          f"load average before {load_before[0]:.2f} after {load_after[0]:.2f}; CPU s, median (range)")
    print("| stage (up to the mark) | base | head | head - base |")
    print("|---|---:|---:|---:|")
    for label in [*order, TOTAL]:
        base, head = seen["base"].get(label, [0.0]), seen["head"].get(label, [0.0])
        if max(base + head) < 0.05:
            continue
        print(f"| {label} | {_cell(base)} | {_cell(head)} | {statistics.median(head) - statistics.median(base):+.2f} |")


def _cell(values: list[float]) -> str:
    return f"{statistics.median(values):.2f} ({min(values):.2f}-{max(values):.2f})"


if __name__ == "__main__":
    main()
