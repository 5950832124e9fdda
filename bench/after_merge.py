"""The default scan after its extraction, two revisions, interleaved: what runs once the slices
are merged (the small units, the records, the reports, the staging, the swap).

usage: python bench/after_merge.py [--base REV] [--head REV] [--runs N] [--target PATH | --package P --version V]

Both revisions are exported and run as in scan_revisions.py (`python -S -P`, their own source
tree first on PYTHONPATH), default jobs, `ERRATLAS_TRACE=1`, alternating base, head, base, ...;
every head output is checked byte for byte against the base output of the same round. From
the trace: the wall from the mark `extract: ... merged from slices` (else the last `extract:`
mark) to the scan's last mark, and the CPU spent after that mark by every process that traced
one, by the scan's process alone, and by the workers it forks then (on an idle machine the
wall after the merge follows the larger of the last two); from wait4: the whole scan's wall
and CPU.
Prints medians and ranges of each side, the head - base difference, and the load average.
"""

from __future__ import annotations

import os
import pathlib
import re
import statistics
import sys
import tempfile

REPOSITORY = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPOSITORY / "bench"))
sys.path.insert(0, str(REPOSITORY))

from scan_revisions import command, export, revision_arguments
from scan_vs_astgrep import fail, run_child

_TRACE = re.compile(r"^erratlas-trace +([0-9.]+) +([0-9.]+) +\d+ +(\d+) (.*)$")
_MERGED = re.compile(r"^extract: .*merged from slices$")


def after_merge(stderr: str) -> tuple[float, float, float, float]:
    """(wall from the merge to the last mark, CPU after the merge of every process, of the scan's
    process alone, of the processes forked after the merge)."""
    marks = [(float(m.group(1)), float(m.group(2)), m.group(3), m.group(4))
             for m in map(_TRACE.match, stderr.splitlines()) if m is not None]
    merged = [i for i, (_, _, _, label) in enumerate(marks) if _MERGED.match(label)]
    if not merged:
        merged = [i for i, (_, _, _, label) in enumerate(marks) if label.startswith("extract: ")]
    start = merged[-1]
    # each process's CPU after the merge: from its last mark up to the merge, or from 0 for a
    # process forked after it (a forked child's CPU clock starts at 0)
    before = {pid: cpu for _, cpu, pid, _ in marks[:start + 1]}
    last = {pid: cpu for _, cpu, pid, _ in marks[start + 1:]}
    scanner = marks[start][2]
    forked = sum(cpu for pid, cpu in last.items() if pid not in before)
    return (marks[-1][0] - marks[start][0], sum(cpu - before.get(pid, 0.0) for pid, cpu in last.items()),
            last[scanner] - before[scanner], forked)


def tree_bytes(root: pathlib.Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def main() -> None:
    args = revision_arguments(__doc__, runs=5)
    sides = (("base", args.base), ("head", args.head))
    seen: dict[str, dict[str, list[float]]] = {side: {} for side, _ in sides}
    os.environ["ERRATLAS_TRACE"] = "1"
    with tempfile.TemporaryDirectory() as work_dir:
        work = pathlib.Path(work_dir)
        for side, revision in sides:
            (work / side).mkdir()
            export(revision, work / side)
        load_before = os.getloadavg()
        for _ in range(args.runs):
            for side, revision in sides:
                run, code = run_child(command(work / side, args.target, work / f"out-{side}"), work / "stdout",
                                      work / "stderr")
                if code != 0:
                    fail(f"{side} {revision}", code, work / "stderr")
                wall, cpu, scanner, forked = after_merge((work / "stderr").read_text(errors="replace"))
                for name, value in (("after the merge, wall", wall), ("after the merge, CPU (all processes)", cpu),
                                    ("after the merge, CPU of the scan's process", scanner),
                                    ("after the merge, CPU of workers forked then", forked),
                                    ("whole scan, wall", run.wall), ("whole scan, CPU (wait4)", run.cpu)):
                    seen[side].setdefault(name, []).append(value)
            if tree_bytes(work / "out-base") != tree_bytes(work / "out-head"):
                raise SystemExit("the outputs differ")
        load_after = os.getloadavg()
    print(f"target {args.target}, default jobs, {args.runs} interleaved runs each, base {args.base}, head "
          f"{args.head}, outputs identical each round, load average before {load_before[0]:.2f} after "
          f"{load_after[0]:.2f}; seconds, median (range)")
    print("| measure | base | head | head - base |")
    print("|---|---:|---:|---:|")
    for name in seen["base"]:
        base, head = seen["base"][name], seen["head"][name]
        print(f"| {name} | {statistics.median(base):.3f} ({min(base):.3f}-{max(base):.3f}) | "
              f"{statistics.median(head):.3f} ({min(head):.3f}-{max(head):.3f}) | "
              f"{statistics.median(head) - statistics.median(base):+.3f} |")


if __name__ == "__main__":
    main()
