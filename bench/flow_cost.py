"""What error flow adds to a scan's CPU: `erratlas scan --jobs 1` of this checkout as it is, and
the same with the flow taken out, interleaved (docs/performance.md, "What flow costs").

usage: python bench/flow_cost.py [--runs N] [--target PATH | --package P --version V]

"Without flow" runs the same code with three functions of `analyzer.javascript.extract`
replaced before the command starts: `find_handlers` finds no handler, `called_sources` no
source and `flow_of` gives no error its flow. Everything downstream then has nothing to do for
flow: no handler records, identities, projection or flow pages, an empty `handlers.jsonl`. The
difference of the two CPU times (user + system of the command and every process it reaped,
`os.wait4`) is all that flow costs, from the handlers' search to the last report; "added" is
that difference over the CPU without flow. Prints a markdown table of medians and ranges.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import statistics
import sys
import tempfile

REPOSITORY = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPOSITORY / "bench"))

from scan_vs_astgrep import fail, fmt_load, resolve_target, run_child, target_arguments

#: the command, with or without flow: `python -c RUN [no-flow] scan ...`
RUN = """
import sys
if sys.argv[1] == "no-flow":
    from analyzer.facts import SinkEvidence
    from analyzer.javascript import extract
    extract.find_handlers = lambda unit, *args: ([], SinkEvidence(unit, None, None, 0, ("no flow",), ()), 0, [])
    extract.called_sources = lambda *args: {}
    extract.flow_of = lambda *args: None
del sys.argv[1]
sys.argv[0] = "erratlas"
from analyzer.cli import main
main()
"""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5, help="measured rounds (default 5)")
    target_arguments(parser, "@anthropic-ai/claude-code-linux-x64", "2.1.235")
    args = parser.parse_args(argv)
    target = resolve_target(args)
    os.environ["PYTHONPATH"] = os.pathsep.join([str(REPOSITORY), os.environ.get("PYTHONPATH", "")])
    sides = ("with flow", "no-flow")
    cpu: dict[str, list[float]] = {side: [] for side in sides}
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="erratlas-flow-") as work_dir:
        work = pathlib.Path(work_dir)
        for round_ in range(args.runs + 1):
            for side in sides:
                command = [sys.executable, "-c", RUN, side, "scan", str(target), "--out", str(work / "out"),
                           "--jobs", "1"]
                run, code = run_child(command, work / "stdout", work / "stderr")
                if code not in (0, 1):
                    fail(side, code, work / "stderr")
                if round_:  # the first round warms the caches
                    cpu[side].append(run.cpu)
    with_flow, without = statistics.median(cpu["with flow"]), statistics.median(cpu["no-flow"])
    differences = [a - b for a, b in zip(cpu["with flow"], cpu["no-flow"])]
    print(f"target {target}, `--jobs 1`, {args.runs} interleaved rounds after a warm-up, load before "
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
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
