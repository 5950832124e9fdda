"""The handlers and the sink of one unit from its slices, against the whole tree's stage
(docs/slices.md, "Step 7 as built").

usage: python bench/handlers_slices.py [--package NAME --version V | --target PATH] [--slices 4]
                                       [--rounds 5] [--profile sliced|whole]

Loads the largest unit as the scan does, parses its whole tree and its slices once (each slice
with its head chain) and finds the sites of each (untimed: `site_rows.tree_sites`, merged as
the driver merges them). Whole: `handlers.find_handlers` on a fresh `UnitTree` of the whole
tree. Sliced: `handlers.slices.slice_handlers` on each slice as the driver runs it (its potential
sites, cut, L's scopes), then `unit_handling` (with the statements holding a sink name a slice
did not resolve read again, as the driver does). Rounds alternate; the records, the sink's
evidence and calls and the catch clauses left out are checked equal; the CPU of each
(`process_time`, gc off) is printed, median and minimum, with the load average. `--profile`
runs one side once under cProfile instead.
"""

from __future__ import annotations

import cProfile
import gc
import os
import pathlib
import pstats
import statistics
import sys
import time
from collections.abc import Callable

REPOSITORY = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPOSITORY / "tests"))
sys.path.insert(0, str(REPOSITORY))

import slice_bench

from analyzer.javascript import slices
from analyzer.javascript.extract import _columns, _find_sites
from analyzer.javascript.handlers import find_handlers
from analyzer.javascript.handlers.slices import potential_sites, slice_handlers, statement_bindings, unit_handling
from analyzer.javascript.modules.statements import StatementLists, main_container
from analyzer.javascript.rules import compile_rules
from analyzer.javascript.site_rows import merge_sites, tree_sites
from analyzer.javascript.syntax import ancestors, new_parser
from analyzer.javascript.top_bindings import TopBindings, TopScopes, head_bindings
from analyzer.javascript.unit_tree import UnitTree
from analyzer.rules import load_rules


def main() -> None:
    parser = slice_bench.arguments()
    parser.add_argument("--profile", choices=("sliced", "whole"))
    args = parser.parse_args()
    rules = compile_rules(load_rules("javascript"))
    largest = slice_bench.largest_unit(args)
    source, name = largest.source, largest.name
    plan = slices.plan(source, args.slices)
    if plan is None:
        sys.exit(f"no plan: {slices.plan_of(source, args.slices)}")
    print(f"load average {os.getloadavg()[0]:.2f}")

    tree = new_parser().parse(source)
    _, _, _, sites, _ = _find_sites(tree, source, rules, None)

    def positions(offsets: list[int]) -> dict[int, tuple[int, int]]:
        return _columns(source, offsets)

    reader = new_parser()
    head = slices.parse_head(reader, source, plan)
    chain = () if head is None else tuple(ancestors(main_container(head.root_node), head.root_node))
    list_type = "program" if head is None else "statement_block"
    trees = [slices.parse_slice(reader, source, plan, index) for index in range(len(plan.ranges))]
    found = [tree_sites(t, source, rules, None, TopScopes(t.root_node, chain, list_type)) for t in trees]
    merged = merge_sites([f.rows for f in found], head_bindings(chain, list_type), source, rules, None)
    potential = [potential_sites(f.rows, rules) for f in found]
    rows = [StatementLists(t.root_node, t.root_node).main_rows(source) for t in trees]
    del found
    last = len(plan.ranges) - 1

    def whole() -> tuple[object, ...]:
        handlers, sink, deep, _ = find_handlers(name, UnitTree(tree, source), sites, positions)
        return handlers, sink, deep

    def reread(index: int, names: frozenset[str]) -> TopBindings:
        return statement_bindings(name, reader, source, plan, index, rows[index].starts, rows[index].ends, names, chain,
                                  list_type)

    def sliced() -> tuple[object, ...]:
        parts = []
        for index, part in enumerate(trees):
            made = slice_handlers(name, UnitTree(part, source, None, chain, list_type), (), plan.ranges[index],
                                  potential[index], (index > 0, index < last),
                                  TopScopes(part.root_node, chain, list_type))
            assert made.inexact is None, made.inexact
            made.blocks.clear()
            parts.append(made)
        handling = unit_handling(name, source, plan.ranges, parts, merged.sites, head_bindings(chain, list_type),
                                 reread)
        return handling.records(name, positions), handling.sink.evidence, handling.left_out

    if args.profile is not None:
        profile = cProfile.Profile()
        profile.runcall(sliced if args.profile == "sliced" else whole)
        pstats.Stats(profile).sort_stats("cumulative").print_stats(40)
        return
    runs: dict[str, tuple[Callable[[], tuple[object, ...]], list[float]]] = {
        "whole tree, find_handlers": (whole, []), "slices, halves and merge": (sliced, [])}
    results = []
    gc.disable()
    for at in range(args.rounds):
        for label in list(runs) if at % 2 == 0 else list(runs)[::-1]:
            run, times = runs[label]
            before = time.process_time()
            result = run()
            times.append(time.process_time() - before)
            results.append(repr(result))
            del result
            gc.collect()
    assert len(set(results)) == 1, "the slices' handlers are not the whole tree's"
    print(f"{name}: {len(sites)} sites; {args.slices} slices; equal to the whole tree")
    for label, (_, times) in runs.items():
        print(f"{label}: median {statistics.median(times):.3f} s (min {min(times):.3f})")
    print(f"load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
