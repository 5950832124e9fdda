"""The byte supersets of a sliced extraction against the whole tree's exact values (docs/slices.md,
"The byte supersets"): L's declared names against `references.listing`'s names, the level-option
calls per callee against `logger.level_options`', the throwers against the top-level functions
`handlers.sources._Graph` may find throwing (declared once, holding a `throw` statement of their
own: `_Graph.throwing` is a subset), the hot functions' superset against the functions `_Graph`
may find hot (those and the functions calling one), and the CPU of each part.

usage: python bench/slice_supersets.py [--package NAME --version V | --target PATH]

Loads the largest unit as the scan does; times (process CPU) the scanner (`statement_ends`) and
the supersets' parts (the blanking, the names with L's ends, the hot names, the level-option
calls), and, `--rounds` times alternated, the driver's one pass (`scanned_supersets`, then the
plan) against a26b21f's two (`statement_ends`, the plan, then the supersets of
`tests/support/supersets_a26b21f.py` from the scanner's blanked bytes), the plans and supersets
checked equal (CPU medians, the load average); then parses the whole unit for the exact values.
"""

from __future__ import annotations

import argparse
import collections
import gc
import json
import os
import pathlib
import statistics
import sys
import time

REPOSITORY = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPOSITORY / "tests"))

from support import npm_cache
from support import supersets_a26b21f as recorded
from support.throwers import may_be_hot, may_throw

from analyzer.bundle.load import load_bundle
from analyzer.javascript import logger, slice_scanner, slice_supersets, slices
from analyzer.javascript.modules import find_modules
from analyzer.javascript.references import listing
from analyzer.javascript.rules import compile_rules
from analyzer.javascript.syntax import new_parser
from analyzer.rules import load_rules


def timed(function, *args):  # type: ignore[no-untyped-def]
    started = time.process_time()
    result = function(*args)
    return result, round(time.process_time() - started, 3)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--package", default="@anthropic-ai/claude-code")
    parser.add_argument("--version", default="2.1.100")
    parser.add_argument("--target", type=pathlib.Path)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    path = args.target or npm_cache.main_file(args.package, args.version)
    units, _ = load_bundle(path)
    source = max(units, key=lambda unit: len(unit.source)).source
    rules = compile_rules(load_rules("javascript"))
    gc.disable()
    made = slices.plan_of(source, 4)
    if isinstance(made, str):
        raise SystemExit(f"not sliced: {made}")
    _, scanner = timed(slice_scanner.statement_ends, source)
    hidden, blanking = timed(slice_scanner._hide, source)
    assert hidden is not None
    masked = hidden[0]
    start, stop = (0, len(source)) if made.braces is None else (made.braces[0] + 1, made.braces[1])
    (names, throwers, functions, _, _), names_cpu = timed(slice_supersets._declarations, source, masked, start, stop)
    (hot, cold), hot_cpu = timed(slice_supersets._hot, source, throwers, functions)
    spent: dict[str, list[float]] = {"one pass": [], "a26b21f": []}
    key, argument = rules.level_key, rules.options_argument
    fields = ("names", "level_option_calls", "throwers", "hot", "cold")
    results = {}
    for at in range(args.rounds):
        for label in ("one pass", "a26b21f") if at % 2 == 0 else ("a26b21f", "one pass"):
            started = time.process_time()
            if label == "one pass":
                scanned, found = slice_supersets.scanned_supersets(source, key, argument)
                plan = slices.plan_of(source, 4, scanned)
            else:
                scanned = slice_scanner.statement_ends(source)
                plan = slices.plan_of(source, 4, scanned)
                assert not isinstance(plan, str)
                found = recorded.supersets(source, plan.braces, key, argument, scanned.masked)  # type: ignore[assignment]
            spent[label].append(time.process_time() - started)
            del scanned
            assert found is not None and (found.hot, found.cold) == (hot, cold)
            results[label] = (plan, [getattr(found, name) for name in fields])
    assert results["one pass"] == results["a26b21f"], "the one pass's plan or supersets differ"
    calls, calls_cpu = timed(slice_supersets._level_option_calls, source, masked, rules.level_key,
                             rules.options_argument)
    del hidden, masked, functions
    gc.enable()
    tree = new_parser().parse(source)
    items = listing(tree, source, find_modules(tree, source))
    exact_names = items.names
    exact_throwers = may_throw(tree.root_node, items.raw)
    exact_hot = may_be_hot(items.raw, exact_throwers)
    exact_calls = collections.Counter(option.callee for option in logger.level_options(tree, source, rules))
    candidates = {name for name, count in calls.items() if count >= rules.min_level_option_calls}
    exact_candidates = {name for name, count in exact_calls.items() if count >= rules.min_level_option_calls}
    print(json.dumps({
        "unit": f"{path.name}", "scanner_cpu_s": scanner, "blanking_cpu_s": blanking,
        "names_and_throwers_cpu_s": names_cpu, "hot_cpu_s": hot_cpu, "level_calls_cpu_s": calls_cpu,
        "scanner_and_supersets_cpu_s": {**{label: round(statistics.median(cpu), 3) for label, cpu in spent.items()},
                                        "rounds": args.rounds, "equal": True,
                                        "load_average": round(os.getloadavg()[0], 2)},
        "names": {"exact": len(exact_names), "superset": len(names), "missing": len(exact_names - names),
                  "extra": len(names - exact_names)},
        "throwers": {"exact": len(exact_throwers), "superset": len(throwers),
                     "missing": len(exact_throwers - throwers), "extra": len(throwers - exact_throwers)},
        "hot": {"may be hot (tree)": len(exact_hot), "superset": len(hot), "missing": len(exact_hot - hot)},
        "level_option_calls": {"exact": sum(exact_calls.values()), "superset": sum(calls.values()),
                               "callees_below": sorted(n for n, c in exact_calls.items() if calls.get(n, 0) < c),
                               "exact_candidates": sorted(exact_candidates), "superset_candidates": sorted(candidates),
                               "top": {n: [exact_calls[n], calls.get(n, 0)] for n, _ in exact_calls.most_common(4)}},
    }, indent=1))


if __name__ == "__main__":
    main()
