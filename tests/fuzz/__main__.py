"""Run the fuzzing harness outside pytest and print its figures.

    cd tests && ../.venv/bin/python -m fuzz --long --workers 2   # 10,400 cases, every kind
    cd tests && ../.venv/bin/python -m fuzz --per-kind 20 --kind bun --seed 3
    cd tests && ../.venv/bin/python -m fuzz --kind js-mutant --seed 13 --number 417 -v   # one case again

`--exec` runs the installed executable instead of a fork of `analyzer.cli.main` (slower, the
same code). Exit status 1 when a case broke an invariant; every failure is listed with the
command that reproduces it.
"""

from __future__ import annotations

import argparse
import collections
import os
import sys
import tempfile
import time
from pathlib import Path

import orjson

from fuzz.harness import KINDS, OWNERS, Templates, check, make_case

LONG_PER_KIND = 1300  # 8 kinds: 10,400 cases


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m fuzz")
    parser.add_argument("--long", action="store_true", help=f"{LONG_PER_KIND} cases of every kind")
    parser.add_argument("--per-kind", type=int, default=10)
    parser.add_argument("--kind", action="append", choices=KINDS)
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--number", type=int, help="run only this case number")
    parser.add_argument("--workers", type=int, default=1, help="processes running cases side by side")
    parser.add_argument("--timeout", type=float, default=90.0, help="seconds before a run counts as a hang")
    parser.add_argument("--exec", action="store_true", help="run the installed executable")
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args()
    kinds = tuple(args.kind or KINDS)
    numbers = [args.number] if args.number is not None else list(range(LONG_PER_KIND if args.long else args.per_kind))
    started = time.time()
    with tempfile.TemporaryDirectory(prefix="erratlas-fuzz-") as root:
        work = Path(root)
        templates = Templates(work)
        logs = [work / f"worker-{w}.jsonl" for w in range(args.workers)]
        pids = []
        for worker, log in enumerate(logs):
            share = numbers[worker::args.workers]
            if args.workers == 1:
                _work(share, kinds, args, templates, work, log)
                break
            pid = os.fork()
            if pid == 0:
                code = 1
                try:
                    _work(share, kinds, args, templates, work, log)
                    code = 0
                finally:
                    os._exit(code)
            pids.append(pid)
        for pid in pids:
            os.waitpid(pid, 0)
        rows = [orjson.loads(line) for log in logs if log.exists() for line in log.read_bytes().splitlines()]
    return _report(rows, kinds, args, time.time() - started)


def _work(numbers: list[int], kinds: tuple[str, ...], args: argparse.Namespace, templates: Templates, work: Path,
          log: Path) -> None:
    mode = "exec" if args.exec else "fork"
    with open(log, "ab") as handle:
        for number in numbers:
            for kind in kinds:
                case = make_case(kind, args.seed, number, templates)
                outcome = check(case, templates, work, mode, args.timeout)
                row = {"kind": kind, "number": number, "seed": args.seed, "note": case.note, "code": outcome.code,
                       "problems": outcome.problems, "seconds": outcome.seconds, "peak": outcome.peak_rss,
                       "runs": outcome.runs}
                handle.write(orjson.dumps(row) + b"\n")
                handle.flush()
                if args.verbose or outcome.problems:
                    state = "FAIL" if outcome.problems else "ok"
                    print(f"{state} {kind} #{number} exit {outcome.code} {outcome.seconds:.2f}s "
                          f"{outcome.peak_rss >> 20} MiB: {case.note[:120]}"
                          + "".join(f"\n    - {p}" for p in outcome.problems), flush=True)


def _report(rows: list[dict[str, object]], kinds: tuple[str, ...], args: argparse.Namespace, elapsed: float) -> int:
    tally: dict[str, collections.Counter[str]] = {kind: collections.Counter() for kind in kinds}
    for row in rows:
        counts = tally[str(row["kind"])]
        counts["cases"] += 1
        counts["runs"] += int(row["runs"])  # type: ignore[call-overload]
        counts[f"exit {row['code']}"] += 1
        counts["failed"] += bool(row["problems"])
    peak = max((int(row["peak"]) for row in rows), default=0)  # type: ignore[call-overload]
    problems = collections.Counter(p.split(":")[0] for row in rows for p in row["problems"])  # type: ignore[attr-defined]
    print(f"\n{len(rows)} cases ({sum(c['runs'] for c in tally.values())} runs) in {elapsed:.0f} s, seed {args.seed}, "
          f"{args.workers} workers, mode {'exec' if args.exec else 'fork'}; largest process {peak >> 20} MiB")
    for kind, counts in tally.items():
        exits = ", ".join(f"{k} {v}" for k, v in sorted(counts.items()) if k.startswith("exit"))
        print(f"  {kind:10} ({OWNERS[kind]}): {counts['cases']} cases, {counts['failed']} failed; {exits}")
    for problem, count in problems.most_common():
        print(f"  problem {problem!r}: {count}")
    failures = [row for row in rows if row["problems"]]
    for row in failures:
        print(f"\nFAIL {row['kind']} seed {row['seed']} number {row['number']} ({OWNERS[str(row['kind'])]}): "
              f"{str(row['note'])[:200]}\n  reproduce: cd tests && ../.venv/bin/python -m fuzz --kind {row['kind']} "
              f"--seed {row['seed']} --number {row['number']} -v\n"
              + "".join(f"  - {p}\n" for p in row["problems"]))  # type: ignore[attr-defined]
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
