"""CPU of the handler records and what is made of them, against the oracle kept at 429e5c6.

usage: python bench/handler_records.py [--package P --version V | --target PATH] [--rounds N]

Scans the input once in this process (whole tree, garbage collector off, as the scan), then
times each part with both versions, alternating oracle and current, round after round: the
records (`scan._handlers`, identities included), the findings, the owner rows
(`project_handlers`, no allowlist), `handlers.jsonl` and the summary's `handlers` block; each
pair of results is checked equal (the files byte for byte). Prints the CPU medians and ranges,
and the load average beside them.
"""

from __future__ import annotations

import gc
import os
import pathlib
import statistics
import sys
import time
from collections.abc import Callable

REPOSITORY = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPOSITORY / "tests"))
sys.path.insert(0, str(REPOSITORY))

from slice_bench import arguments
from support import handler_records_429e5c6 as oracle
from support import npm_cache

from analyzer.owners.handlers import project_handlers
from analyzer.owners.projection import project
from analyzer.parallel.executor import Inline
from analyzer.reports.handlers import handler_summary
from analyzer.reports.inventory import jsonl
from analyzer.scan import _handlers, _places, scan, scan_input
from analyzer.scandir.files import HANDLERS_FILE
from analyzer.scandir.load import in_bundle_order


def main() -> None:
    args = arguments(rounds=7).parse_args()
    gc.disable()
    path = args.target or npm_cache.main_file(args.package, args.version)
    started = time.process_time()
    result = scan(scan_input(path), None, Inline())
    print(f"scanned {path.name} in {time.process_time() - started:.2f} s CPU: "
          f"{len(result.handlers or [])} handlers", flush=True)
    units, modules, callsites = result.units, result.modules, result.callsites
    assert modules is not None and result.handlers is not None
    places = _places(units, result.readable)
    handlers = result.handlers
    projection = project(in_bundle_order(callsites), [], None)
    parts: list[tuple[str, Callable[[], object], Callable[[], object]]] = [
        ("records", lambda: oracle.handler_records(units, places, modules, callsites),
         lambda: _handlers(units, places, modules, callsites)),
        ("findings", lambda: [oracle.findings(h) for h in handlers], lambda: [h.findings() for h in handlers]),
        ("owner rows", lambda: oracle.project_handlers(handlers, [], projection, None),
         lambda: project_handlers(handlers, [], projection, None)),
        ("handlers.jsonl", lambda: oracle.handler_files(result)[HANDLERS_FILE], lambda: jsonl(handlers)),
        ("summary block", lambda: oracle.handler_summary(result), lambda: handler_summary(result)),
    ]
    load = os.getloadavg()
    print(f"load average before: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; {args.rounds} rounds, CPU ms")
    print(f"{'part':16} {'oracle':>20} {'current':>20} {'saved':>8}")
    total = [0.0, 0.0]
    for name, old, new in parts:
        assert old() == new(), f"{name}: the current result differs from the oracle's"
        seen: tuple[list[float], list[float]] = ([], [])
        for _ in range(args.rounds):
            for side, work in enumerate((old, new)):
                begin = time.process_time()
                work()
                seen[side].append(1000 * (time.process_time() - begin))
        medians = [statistics.median(s) for s in seen]
        total = [t + m for t, m in zip(total, medians)]
        cells = [f"{m:7.1f} ({min(s):.1f}-{max(s):.1f})" for m, s in zip(medians, seen)]
        print(f"{name:16} {cells[0]:>20} {cells[1]:>20} {medians[0] - medians[1]:8.1f}", flush=True)
    print(f"{'all':16} {total[0]:20.1f} {total[1]:20.1f} {total[0] - total[1]:8.1f}")
    load = os.getloadavg()
    print(f"load average after: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")


if __name__ == "__main__":
    main()
