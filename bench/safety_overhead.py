"""What the safety of issue 13 (part B) costs: `gate` and a replacing `scan`, this erratlas
against another one (an install of an earlier commit), in one interleaved run.

usage: python bench/safety_overhead.py --other PATH/TO/erratlas [--runs N]
       [--package P --version V] [--allowlist FILE]

Scans cli.js of @anthropic-ai/claude-code@2.1.100 (from the verified npm cache) once with
each erratlas, with the reviewed allowlist, each into its own directory. Then, alternating the
two commands, it times `erratlas gate DIR` (this one verifies the directory and recomputes the
owners; an earlier one checked hashes only) and `erratlas scan ... --out DIR` over that
directory (this one checks that the directory holds exactly what erratlas wrote, before the
work and before the swap). Prints median and min wall time and peak RSS per command as a
markdown table, with the load average before and after.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time

REPOSITORY = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPOSITORY / "tests"))

from support import npm_cache


def this_erratlas() -> str:
    beside = pathlib.Path(sys.executable).parent / "erratlas"
    return str(beside) if beside.exists() else "erratlas"


def timed(command: list[str]) -> tuple[float, int]:
    start = time.perf_counter()
    process = subprocess.Popen(command, cwd=REPOSITORY, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) not in (0, 1):
        raise SystemExit(f"failed: {' '.join(command)}: {process.stderr.read().decode() if process.stderr else ''}")
    return wall, usage.ru_maxrss * 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--other", required=True, help="the erratlas command to compare with")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--package", default="@anthropic-ai/claude-code")
    parser.add_argument("--version", default="2.1.100")
    parser.add_argument("--allowlist", default="allowlists/claude-code-2.1.100.toml")
    args = parser.parse_args()
    bundle = str(npm_cache.main_file(args.package, args.version))
    tools = {"this": this_erratlas(), "other": args.other}
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="erratlas-safety-bench-") as temporary:
        outs = {name: str(pathlib.Path(temporary) / name) for name in tools}
        for name, command in tools.items():
            timed([command, "scan", bundle, "--out", outs[name], "-a", args.allowlist])
        cases = {
            "gate": lambda name: [tools[name], "gate", outs[name]],
            "scan (replacing)": lambda name: [tools[name], "scan", bundle, "--out", outs[name], "-a", args.allowlist],
        }
        rows = []
        for case, command in cases.items():
            samples: dict[str, list[tuple[float, int]]] = {name: [] for name in tools}
            for _ in range(args.runs):
                for name in tools:
                    samples[name].append(timed(command(name)))
            for name in tools:
                walls = [wall for wall, _ in samples[name]]
                rss = statistics.median(peak for _, peak in samples[name])
                rows.append((case, name, statistics.median(walls), min(walls), rss))
    load_after = os.getloadavg()
    print(f"{args.package}@{args.version}, {args.runs} interleaved runs; load average "
          f"{load_before[0]:.2f} before, {load_after[0]:.2f} after; other = {args.other}\n")
    print("| command | erratlas | median wall s | min wall s | median peak RSS MB |")
    print("|---|---|---:|---:|---:|")
    for case, name, median, low, rss in rows:
        print(f"| {case} | {name} | {median:.2f} | {low:.2f} | {rss / 2**20:.0f} |")


if __name__ == "__main__":
    main()
