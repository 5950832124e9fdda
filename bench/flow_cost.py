"""What error flow adds to a scan's CPU: `erratlas scan` of this checkout as it is, and the same
with the flow taken out, interleaved (docs/performance.md, "What flow costs").

usage: python bench/flow_cost.py [--runs N] [--stages | --callgrind] [--jobs 1|default]
                                 [--target PATH | --package P --version V]

`--jobs 1` (the default here) reads every unit whole; `--jobs default` passes no `--jobs`: the
scan's default, which reads a large unit in slices with a forked slice worker (docs/slices.md).
"Without flow" runs the same code with functions replaced where they are first imported, before
the command starts: in `analyzer.javascript.extract` (the whole tree) `find_handlers` finds no
handler and `called_sources` no source; in `analyzer.javascript.sliced` (the slices) no slice
has potential sites, handlers or sources' rows, and their merges (`unit_handling`,
`unit_sources`) none either. Everything downstream then has nothing to do for flow: no handler
records, identities, projection or flow pages, an empty `handlers.jsonl`. Each error callsite's
`flow` (`handlers.flow.flow_of`, read inside the callsites' facts) stays on both sides: a few
ancestors a callsite, under 1% of the scan (docs/performance.md). The difference of the two CPU
times (user + system of the command and every process it reaped, `os.wait4`) is what flow
costs, from the handlers' search to the last report; "added" is that difference over the CPU
without flow. Prints a markdown table of medians and ranges.

CPU time on a shared VM moves by a fifth between identical runs, more than the 10% asked.
`--callgrind` runs each side once under `valgrind --tool=callgrind` (forked processes
included) and compares instructions (Ir, all processes summed): deterministic, about 50 times
slower, and not time (valgrind's CPU has no SHA extensions, so the sha256 of the input, the
same on both sides, weighs more than it does natively).

`--stages` runs both sides with `ERRATLAS_TRACE=1` and adds the accounting: each stage's CPU
(`stage_cpu.stages`: the step up to each mark, summed over the units and the processes) on both
sides and its difference in the same round, so that the whole difference is placed stage by
stage, downstream included; "unmarked" is the CPU of every process that no step holds (the
parent's start and exit, the child's exit).
"""

from __future__ import annotations

import argparse
import os
import pathlib
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

REPOSITORY = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPOSITORY / "bench"))

from scan_vs_astgrep import fail, fmt_load, resolve_target, run_child, target_arguments
from stage_cpu import stages

#: the command, with or without flow: `python -c RUN [no-flow] scan ...`
RUN = """
import importlib.abc
import importlib.util
import sys


class NoFlow(importlib.abc.MetaPathFinder):
    # takes flow out where the whole tree's and the slices' extractions are first imported; both
    # sides import the same modules (a forked slice worker inherits them)
    def __init__(self, off):
        self.off = off
        self.patches = {"analyzer.javascript.extract": self.whole, "analyzer.javascript.sliced": self.sliced}
        self.finding = False

    def find_spec(self, name, path, target=None):
        patch = self.patches.get(name)
        if patch is None or self.finding:
            return None
        self.finding = True  # the module's own spec, from the finders after this one
        try:
            spec = importlib.util.find_spec(name)
        finally:
            self.finding = False
        run = spec.loader.exec_module

        def exec_module(module):
            run(module)
            if self.off:
                patch(module)

        spec.loader.exec_module = exec_module
        return spec

    @staticmethod
    def whole(module):
        from analyzer.facts import SinkEvidence
        module.find_handlers = lambda unit, *args: (
            [], SinkEvidence(unit, None, None, 0, ("no flow",), ()), 0, [])
        module.called_sources = lambda *args: {}

    @staticmethod
    def sliced(module):
        from analyzer.facts import SinkEvidence
        from analyzer.javascript.handlers.find import TreeHandlers
        from analyzer.javascript.handlers.slices import UnitHandling
        from analyzer.javascript.handlers.sources import SourceRows
        from analyzer.javascript.sink import SinkChoice, SinkRows
        module.potential_sites = lambda *args: None
        module.slice_handlers = lambda *args: TreeHandlers([], SinkRows((), frozenset()), 0, [])
        module.slice_sources = lambda *args, **kwargs: SourceRows({}, {}, ())
        module.unit_handling = lambda unit, *args: UnitHandling(
            [], SinkChoice(frozenset(), SinkEvidence(unit, None, None, 0, ("no flow",), ())))
        module.unit_sources = lambda *args: {}


sys.meta_path.insert(0, NoFlow(sys.argv.pop(1) == "no-flow"))
sys.argv[0] = "erratlas"
from analyzer.cli import main
main()
"""


def instructions(command: list[str], work: pathlib.Path) -> int:
    """Ir of `command` and every process it forks, under callgrind."""
    out = work / "callgrind"
    out.mkdir()
    done = subprocess.run(["valgrind", "--tool=callgrind", "--trace-children=yes",
                           f"--callgrind-out-file={out}/callgrind.%p", *command],
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False)
    if done.returncode not in (0, 1):
        raise SystemExit(f"callgrind exited {done.returncode}:\n{done.stderr.decode(errors='replace')[-2000:]}")
    total = 0
    for path in sorted(out.iterdir()):
        found = re.search(rb"^(?:summary|totals): (\d+)", path.read_bytes(), re.M)
        if found is None:
            raise SystemExit(f"{path}: no instruction total")
        total += int(found.group(1))
        path.unlink()
    out.rmdir()
    return total


def callgrind(target: pathlib.Path, work: pathlib.Path, jobs: list[str]) -> int:
    counts = {}
    for side in ("with flow", "no-flow"):
        shutil.rmtree(work / "out", ignore_errors=True)  # both sides write a new directory, none swaps
        command = [sys.executable, "-c", RUN, side, "scan", str(target), "--out", str(work / "out"), *jobs]
        counts[side] = instructions(command, work)
    with_flow, without = counts["with flow"], counts["no-flow"]
    print(f"target {target}, {_jobs_label(jobs)}, one run each under callgrind; instructions (Ir) of every process\n")
    print("| scan | billion instructions |")
    print("|---|---:|")
    print(f"| with flow | {with_flow / 1e9:.3f} |")
    print(f"| without flow | {without / 1e9:.3f} |")
    print(f"| flow | {(with_flow - without) / 1e9:.3f} |")
    print(f"\nflow adds {100 * (with_flow - without) / without:.1f}% to the scan's instructions")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5, help="measured rounds (default 5)")
    parser.add_argument("--callgrind", action="store_true", help="count instructions under callgrind, one run a side")
    parser.add_argument("--stages", action="store_true", help="also the CPU of each stage (ERRATLAS_TRACE=1)")
    parser.add_argument("--jobs", default="1",
                        help="the scan's --jobs, or 'default' for none: the scan's default (default 1)")
    target_arguments(parser, "@anthropic-ai/claude-code-linux-x64", "2.1.235")
    args = parser.parse_args(argv)
    target = resolve_target(args)
    jobs = [] if args.jobs == "default" else ["--jobs", args.jobs]
    os.environ["PYTHONPATH"] = os.pathsep.join([str(REPOSITORY), os.environ.get("PYTHONPATH", "")])
    if args.callgrind:
        with tempfile.TemporaryDirectory(prefix="erratlas-flow-") as work_dir:
            return callgrind(target, pathlib.Path(work_dir), jobs)
    if args.stages:
        os.environ["ERRATLAS_TRACE"] = "1"
    sides = ("with flow", "no-flow")
    cpu: dict[str, list[float]] = {side: [] for side in sides}
    staged: dict[str, list[dict[str, float]]] = {side: [] for side in sides}
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="erratlas-flow-") as work_dir:
        work = pathlib.Path(work_dir)
        for round_ in range(args.runs + 1):
            for side in sides:
                command = [sys.executable, "-c", RUN, side, "scan", str(target), "--out", str(work / "out"),
                           *jobs]
                run, code = run_child(command, work / "stdout", work / "stderr")
                if code not in (0, 1):
                    fail(side, code, work / "stderr")
                if round_:  # the first round warms the caches
                    cpu[side].append(run.cpu)
                    if args.stages:
                        found = stages((work / "stderr").read_text(errors="replace"))
                        found[_UNMARKED] = run.cpu - sum(found.values())
                        staged[side].append(found)
    with_flow, without = statistics.median(cpu["with flow"]), statistics.median(cpu["no-flow"])
    differences = [a - b for a, b in zip(cpu["with flow"], cpu["no-flow"])]
    print(f"target {target}, {_jobs_label(jobs)}, {args.runs} interleaved rounds after a warm-up, load before "
          f"{fmt_load(load_before)} after {fmt_load(os.getloadavg())}; CPU s, median (range)\n")
    print("| scan | CPU s |")
    print("|---|---:|")
    for side in sides:
        values = cpu[side]
        label = "without flow" if side == "no-flow" else side
        print(f"| {label} | {statistics.median(values):.2f} ({min(values):.2f}-{max(values):.2f}) |")
    print(f"| flow (difference of the medians) | {with_flow - without:.2f} |")
    print(f"| flow, difference in the same round | {statistics.median(differences):.2f} "
          f"({min(differences):.2f}-{max(differences):.2f}) |")
    print(f"\nflow adds {100 * (with_flow - without) / without:.1f}% to the scan's CPU (medians); "
          f"{100 * statistics.median(differences) / without:.1f}% by the same-round differences")
    if args.stages:
        _print_stages(staged["with flow"], staged["no-flow"])
    return 0


def _jobs_label(jobs: list[str]) -> str:
    return f"`{' '.join(jobs)}`" if jobs else "the default jobs (slices on)"


_UNMARKED = "unmarked (start and exit of every process)"


def _print_stages(with_flow: list[dict[str, float]], without: list[dict[str, float]]) -> None:
    """Each stage's CPU on both sides and the difference in the same round, medians (ranges)."""
    labels = list(dict.fromkeys(label for run in with_flow + without for label in run if label != _UNMARKED))
    print("\n| stage (up to the mark) | with flow | without | difference, same round |")
    print("|---|---:|---:|---:|")
    for label in [*labels, _UNMARKED]:
        a = [run.get(label, 0.0) for run in with_flow]
        b = [run.get(label, 0.0) for run in without]
        if max(a + b) < 0.01:
            continue
        d = [x - y for x, y in zip(a, b)]
        print(f"| {label} | {_cell(a)} | {_cell(b)} | {statistics.median(d):+.2f} ({min(d):+.2f} to {max(d):+.2f}) |")


def _cell(values: list[float]) -> str:
    return f"{statistics.median(values):.2f} ({min(values):.2f}-{max(values):.2f})"


if __name__ == "__main__":
    raise SystemExit(main())
