"""The callsites' facts of one unit made on its slices and merged, against the whole tree's
(docs/slices.md, stage 10c).

usage: python bench/slice_facts.py [--package NAME --version V | --target PATH] [--slices 4] [--rounds 5]

Loads the largest unit as the scan does, keeps its whole tree and its plan's slice trees (each
with its head chain and its `tree_sites`, the logger candidates of the byte superset added), and
times, alternated over rounds with the collector off, CPU (`time.process_time`): the whole
tree's facts of the unit's sites as `extract._Tasks` makes them (positions, then `_site` per
site, after the error classes' digests, not timed), against every slice's `slice_facts` plus the
merge (`unit_site_facts`). Checks that the merged facts, handlers caught and node visits are the
whole tree's, and counts the potential sites the slices made facts for.

`--base DIR` times another checkout's facts (`/work/main`: its `site_facts`, `unit_tree` and
`classes`, on the same trees and rows) against this one's instead, both the whole tree's and the
slices', in alternated order, their results checked equal (by `repr`: the two packages' classes
differ); `--once base|head` makes one checkout's whole-tree and sliced facts once, inside
`sys.call_tracing`, for instruction counts:

    PYTHONHASHSEED=0 valgrind --tool=callgrind --toggle-collect=sys_call_tracing \
        python bench/slice_facts.py --once head
"""

from __future__ import annotations

import gc
import importlib
import os
import pathlib
import statistics
import sys
import time
from types import ModuleType
from typing import Any

REPOSITORY = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPOSITORY / "tests"))
sys.path.insert(0, str(REPOSITORY))

import slice_bench

from analyzer.facts import LeftOut, SiteFacts
from analyzer.javascript import logger as logger_detection
from analyzer.javascript import slices
from analyzer.javascript.classes import error_classes
from analyzer.javascript.extract import _find_sites
from analyzer.javascript.modules.statements import main_container
from analyzer.javascript.rules import compile_rules
from analyzer.javascript.site_facts import UnitSiteFacts, _columns, _site, slice_facts, unit_site_facts
from analyzer.javascript.site_rows import merge_sites, tree_sites
from analyzer.javascript.slice_supersets import supersets
from analyzer.javascript.syntax import ancestors, new_parser
from analyzer.javascript.top_bindings import TopScopes, head_bindings
from analyzer.javascript.unit_tree import UnitTree
from analyzer.limits import WorkBudget
from analyzer.rules import load_rules


def _load(root: pathlib.Path) -> dict[str, ModuleType]:
    """The checkout's modules, imported afresh from `root` (the objects made keep their own)."""
    for name in [m for m in sys.modules if m == "analyzer" or m.startswith("analyzer.")]:
        del sys.modules[name]
    sys.path.insert(0, str(root))
    try:
        return {name: importlib.import_module(f"analyzer.javascript.{name}")
                for name in ("site_facts", "unit_tree", "classes")}
    finally:
        sys.path.remove(str(root))


def main() -> None:
    parser = slice_bench.arguments()
    parser.add_argument("--base", type=pathlib.Path)
    parser.add_argument("--once", choices=("base", "head"))
    args = parser.parse_args()
    rules = compile_rules(load_rules("javascript"))
    unit = slice_bench.largest_unit(args)
    source = unit.source
    whole = new_parser().parse(source)
    resolution, heritages, _, sites, _ = _find_sites(whole, source, rules, None)

    def whole_facts() -> tuple[float, list[SiteFacts | LeftOut], dict[int, int], int]:
        budget = WorkBudget(unit.name, whole.root_node.descendant_count)
        part = UnitTree(whole, source, budget)
        error_classes(unit, part, resolution, heritages, rules)
        left = budget.left
        began = time.process_time()
        columns = _columns(source, [node.start_byte for node, _ in sites])
        diagnostics = frozenset(node.start_byte for node, kind in sites if kind == "diagnostic")
        facts: list[SiteFacts | LeftOut] = []
        caught: dict[int, int] = {}
        for node, kind in sites:
            fact = _site(unit, part, node, kind, rules, columns[node.start_byte], diagnostics)
            facts.append(fact)
            if fact.flow is not None and fact.flow.handler is not None:
                caught[node.start_byte] = fact.flow.handler
        return time.process_time() - began, facts, caught, left - budget.left

    plan = slices.plan(source, args.slices)
    if plan is None:
        sys.exit(f"no plan: {slices.plan_of(source, args.slices)}")
    reader = new_parser()
    head = slices.parse_head(reader, source, plan)
    chain = () if head is None else tuple(ancestors(main_container(head.root_node), head.root_node))
    list_type = "program" if head is None else "statement_block"
    found_superset = supersets(source, plan.braces, rules.level_key, rules.options_argument)
    wanted = frozenset() if found_superset is None else frozenset(
        callee for callee, count in found_superset.level_option_calls.items() if count >= rules.min_level_option_calls)
    trees = [slices.parse_slice(reader, source, plan, index) for index in range(len(plan.ranges))]
    found = [tree_sites(tree, source, rules, None, TopScopes(tree.root_node, chain, list_type), wanted)
             for tree in trees]
    assert not any(logger_detection.missing_names([f.rows.logger for f in found], rules, None))
    merged_sites = merge_sites([f.rows for f in found], head_bindings(chain, list_type), source, rules, None)
    classes = frozenset((c.offset, c.end_offset) for c in error_classes(
        unit, UnitTree(whole, source), resolution, heritages, rules))

    def sliced_facts() -> tuple[float, UnitSiteFacts | str, int, int]:
        began = time.process_time()
        parts = [slice_facts(unit.name, source, tree, f, rules, chain, list_type) for tree, f in zip(trees, found)]
        merged = unit_site_facts(parts, merged_sites)
        return (time.process_time() - began, merged, sum(len(part.rows) for part in parts),
                sum(1 for part in parts for row in part.rows if row.fates))

    if args.base is not None or args.once is not None:
        print(f"load average {os.getloadavg()[0]:.2f}")
        checkouts = {"head": _load(REPOSITORY)}
        if args.base is not None:
            checkouts["base"] = _load(args.base)
        _against(checkouts, args, unit, whole, resolution, heritages, sites, rules, trees, found, chain,
                 list_type, merged_sites)
        return
    gc.disable()
    whole_times, slice_times = [], []
    for _ in range(args.rounds):
        spent_whole, facts, caught, spent = whole_facts()
        spent_slices, merged, made, hanging = sliced_facts()
        whole_times.append(spent_whole)
        slice_times.append(spent_slices)
        assert isinstance(merged, UnitSiteFacts), merged
        assert merged.facts == facts and merged.caught == caught and merged.spent(classes) == spent
        gc.collect()
    print(f"{unit.name}: {len(plan.ranges)} slices, {len(sites)} sites, facts made for {made} potential ones, "
          f"{hanging} of whose flows hang on the logger,\n  "
          f"equal to the whole tree's (facts, caught, {spent} node visits; {merged.spent()} without the classes')")
    print(f"CPU s, median (min) of {args.rounds} alternated rounds: whole tree {statistics.median(whole_times):.3f} "
          f"({min(whole_times):.3f}), slices and merge {statistics.median(slice_times):.3f} ({min(slice_times):.3f}); "
          f"paired median {statistics.median(s - w for s, w in zip(slice_times, whole_times)):+.3f}; "
          f"load average {os.getloadavg()[0]:.1f}")


def _against(checkouts: dict[str, dict[str, ModuleType]], args: Any, unit: Any, whole: Any, resolution: Any,
             heritages: Any, sites: Any, rules: Any, trees: Any, found: Any, chain: Any, list_type: str,
             merged_sites: Any) -> None:
    """Each checkout's whole-tree facts (after the error classes' digests, not timed) and sliced
    facts with the merge, on the same trees and rows: CPU of alternated rounds, results equal."""
    source = unit.source

    def run(mods: dict[str, ModuleType]) -> tuple[float, float, object]:
        facts_module = mods["site_facts"]
        part = mods["unit_tree"].UnitTree(whole, source)
        mods["classes"].error_classes(unit, part, resolution, heritages, rules)
        began = time.process_time()
        columns = facts_module._columns(source, [node.start_byte for node, _ in sites])
        diagnostics = frozenset(node.start_byte for node, kind in sites if kind == "diagnostic")
        facts = [facts_module._site(unit, part, node, kind, rules, columns[node.start_byte], diagnostics)
                 for node, kind in sites]
        middle = time.process_time()
        parts = [facts_module.slice_facts(unit.name, source, tree, f, rules, chain, list_type)
                 for tree, f in zip(trees, found)]
        merged = facts_module.unit_site_facts(parts, merged_sites)
        ended = time.process_time()
        return middle - began, ended - middle, (facts, merged)

    if args.once is not None:
        print(f"{args.once}: {len(repr(sys.call_tracing(run, (checkouts[args.once],))[2]))} characters of facts")
        return
    gc.disable()
    times: dict[str, list[tuple[float, float]]] = {label: [] for label in checkouts}
    results = set()
    for at in range(args.rounds):
        for label in list(checkouts) if at % 2 == 0 else list(checkouts)[::-1]:
            spent_whole, spent_slices, result = run(checkouts[label])
            times[label].append((spent_whole, spent_slices))
            results.add(repr(result))
            gc.collect()
    assert len(results) == 1, "the checkouts' facts differ"
    print(f"{unit.name}: {len(sites)} sites, {len(trees)} slices; the checkouts' facts equal")
    for label, spent in times.items():
        print(f"{label}: CPU s, median (min) of {args.rounds} alternated rounds: whole tree "
              f"{statistics.median(w for w, _ in spent):.3f} ({min(w for w, _ in spent):.3f}), slices and merge "
              f"{statistics.median(s for _, s in spent):.3f} ({min(s for _, s in spent):.3f})")
    if "base" in times:
        for at, name in ((0, "whole tree"), (1, "slices and merge")):
            print(f"paired median head - base, {name}: "
                  f"{statistics.median(h[at] - b[at] for h, b in zip(times['head'], times['base'])):+.3f}")
    print(f"load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
