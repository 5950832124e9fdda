"""The default scan's wall around its slices: two `erratlas` commands (a base and this checkout)
scanned in alternated rounds, each with `ERRATLAS_TRACE=1`, outputs checked equal to the first
round's, and from each trace: when the slice worker was forked, when it had the unit-wide values
(`both ends: the prepared value in`), when the slices ended (`both ends: N of M tasks ...`), how
long the side done first waited at the meeting point, and `scan: done`.

usage: python bench/slice_meeting.py --base CMD [--new CMD] [--rounds N] TARGET [ARGS...]

CMD is a command line (split by the shell's rules), e.g. a virtual environment's `erratlas`
installed from the base revision; --new defaults to `erratlas` of this checkout's environment.
Wall time is taken around spawn and reap, CPU from the child's rusage (its reaped workers
counted). Prints medians with every round's value in brackets, and the load average before and
after (docs/slices.md, step 10).
"""

from __future__ import annotations

import argparse
import filecmp
import os
import pathlib
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = pathlib.Path(sys.executable).parent / "erratlas"
_READ = re.compile(r"slices: .*: slice \d+ of \d+ read$")


def trace_times(trace: str) -> dict[str, float]:
    """The trace's marks of the slices, in wall seconds since start-up."""
    rows = []
    for line in trace.splitlines():
        if line.startswith("erratlas-trace "):
            _, wall, _, _, pid, label = line.split(None, 5)
            rows.append((float(wall), int(pid), label.strip()))
    forked = [(wall, pid) for wall, pid, label in rows if label == "scan: slice worker forked"]
    if not forked:
        return {}
    fork, parent = forked[0]
    mine = [wall for wall, pid, label in rows if pid == parent and _READ.match(label)]
    theirs = [wall for wall, pid, label in rows if pid != parent and _READ.match(label)]
    end = next(wall for wall, _, label in rows if label.startswith("both ends: ") and "tasks from the child" in label)
    value = [wall for wall, _, label in rows if label == "both ends: the prepared value in"]
    last_mine, last_theirs = max(mine, default=0.0), max(theirs, default=0.0)
    return {
        "fork": fork,
        "value in": value[0] if value else float("nan"),
        "slices end": end,
        # the scan waiting for the worker's last slice, or the worker done before the scan's last
        "idle": end - last_mine if last_theirs > last_mine else last_mine - last_theirs,
        "scan done": next(wall for wall, _, label in rows if label == "scan: done"),
    }


def run(command: list[str], out: pathlib.Path) -> tuple[float, float, dict[str, float]]:
    shutil.rmtree(out, ignore_errors=True)
    started = time.perf_counter()
    child = subprocess.Popen([*command, "--out", str(out)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                             env={**os.environ, "ERRATLAS_TRACE": "1"}, text=True)
    assert child.stderr is not None
    trace = child.stderr.read()
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - started
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode:
        sys.exit(f"{command} failed ({child.returncode}):\n{trace[-2000:]}")
    cpu = usage.ru_utime + usage.ru_stime
    return wall, cpu, trace_times(trace)


def same_tree(a: pathlib.Path, b: pathlib.Path) -> bool:
    compared = filecmp.dircmp(a, b)
    if compared.left_only or compared.right_only or compared.funny_files:
        return False
    _, mismatch, errors = filecmp.cmpfiles(a, b, compared.common_files, shallow=False)
    return not mismatch and not errors and all(same_tree(a / d, b / d) for d in compared.common_dirs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", required=True)
    parser.add_argument("--new", default=str(HERE))
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("target")
    parser.add_argument("args", nargs="*")
    args = parser.parse_args()
    commands = {name: [*shlex.split(line), "scan", args.target, *args.args]
                for name, line in (("base", args.base), ("new", args.new))}
    print(f"load average before: {os.getloadavg()}")
    found: dict[str, list[tuple[float, float, dict[str, float]]]] = {name: [] for name in commands}
    with tempfile.TemporaryDirectory(prefix="slice-meeting-") as scratch:
        root = pathlib.Path(scratch)
        for name, command in commands.items():  # warm-up, unmeasured: the first outputs to compare with
            run(command, root / f"first-{name}")
        if not same_tree(root / "first-base", root / "first-new"):
            sys.exit("the outputs differ between the two commands")
        for _ in range(args.rounds):
            for name, command in commands.items():
                found[name].append(run(command, root / name))
                if not same_tree(root / name, root / "first-base"):
                    sys.exit(f"{name}: the outputs differ from the first round's")
    print(f"load average after: {os.getloadavg()}")
    print(f"outputs byte for byte the same in every round ({args.rounds} rounds each, alternated)\n")
    keys = ["wall", "cpu", "fork", "value in", "slices end", "idle", "scan done"]
    print("| command | " + " | ".join(keys) + " |")
    print("|---|" + "---:|" * len(keys))
    for name, runs in found.items():
        columns = [[wall for wall, _, _ in runs], [cpu for _, cpu, _ in runs]]
        columns += [[times.get(key, float("nan")) for _, _, times in runs] for key in keys[2:]]
        cells = [f"{statistics.median(values):.2f} [{' '.join(f'{v:.2f}' for v in values)}]" for values in columns]
        print(f"| {name} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
