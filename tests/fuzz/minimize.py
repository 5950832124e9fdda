"""Shrink a failing fuzz case to a regression fixture: delta debugging (ddmin) over the bytes of
its first input file, keeping each cut that still shows the same first problem.

    cd tests && ../.venv/bin/python -m fuzz.minimize --kind js-mutant --seed 13 --number 417 \\
        --to ../fixtures/hostile/mutants/name.js

Each step runs the whole case through the command (`harness.check`), so the result fails the
same way through the CLI; a minimized JavaScript case usually ends below a hundred bytes.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from fuzz.harness import KINDS, Templates, check, make_case


def _signature(problems: list[str]) -> str:
    """What stays the same when the input shrinks: the problem's kind and first words."""
    return problems[0].split(" (")[0][:60] if problems else ""


def minimize(data: bytes, fails: Callable[[bytes], bool]) -> bytes:
    granularity = 2
    while len(data) >= 2:
        size = max(1, len(data) // granularity)
        for start in range(0, len(data), size):
            candidate = data[:start] + data[start + size:]
            if fails(candidate):
                data = candidate
                granularity = max(granularity - 1, 2)
                break
        else:
            if size == 1:
                return data
            granularity = min(len(data), granularity * 2)
    return data


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m fuzz.minimize")
    parser.add_argument("--kind", required=True, choices=KINDS)
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--number", type=int, required=True)
    parser.add_argument("--to", type=Path, required=True, help="where to write the minimized input")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="erratlas-minimize-") as root:
        work = Path(root)
        templates = Templates(work)
        case = make_case(args.kind, args.seed, args.number, templates)
        target = case.inputs[0]
        wanted = _signature(check(case, templates, work).problems)
        if not wanted:
            print("the case does not fail", file=sys.stderr)
            return 1

        def fails(data: bytes) -> bool:
            shrunk = dataclasses.replace(case, files={**case.files, target: data})
            return _signature(check(shrunk, templates, work, timeout=60).problems) == wanted

        smallest = minimize(case.files[target], fails)
    args.to.write_bytes(smallest)
    print(f"{len(case.files[target])} -> {len(smallest)} bytes, still: {wanted} -> {args.to}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
