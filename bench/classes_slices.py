"""The error classes of one unit merged from its slices' rows, against the whole tree's stage
(docs/slices.md, stage 7).

usage: python bench/classes_slices.py [--package NAME --version V | --target PATH] [--slices 4] [--rounds 5]

Loads the largest unit as the scan does. Whole: `classes.error_classes` on the whole tree (its
sites found before, untimed). Sliced: per slice of `slices.plan`, parsed with its head chain,
`site_rows.tree_sites` (untimed: the sites' half), then `class_rows.slice_classes` (timed), and
`class_rows.unit_classes` (timed), the slices lacking a name read again (timed with their parse).
Checks the merge equals the whole tree's classes and prints the CPU of each (`process_time`,
gc off), median and minimum over the rounds, alternated, and the rows' counts.
"""

from __future__ import annotations

import gc
import hashlib
import os
import pathlib
import statistics
import sys
import time

REPOSITORY = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPOSITORY / "tests"))
sys.path.insert(0, str(REPOSITORY))

import slice_bench

from analyzer.javascript import logger as logger_detection
from analyzer.javascript import slices
from analyzer.javascript.class_rows import UnitClasses, heritage_words, slice_classes, unit_classes
from analyzer.javascript.classes import error_classes
from analyzer.javascript.extract import _find_sites
from analyzer.javascript.modules.statements import main_container
from analyzer.javascript.rules import compile_rules
from analyzer.javascript.site_rows import tree_sites
from analyzer.javascript.syntax import ancestors, new_parser
from analyzer.javascript.top_bindings import TopScopes, head_bindings
from analyzer.javascript.unit_tree import UnitTree
from analyzer.limits import WorkBudget
from analyzer.model import Unit
from analyzer.rules import load_rules


def main() -> None:
    parser = slice_bench.arguments()
    args = parser.parse_args()
    rules = compile_rules(load_rules("javascript"))
    largest = slice_bench.largest_unit(args)
    source, name = largest.source, largest.name
    unit = Unit(name, source, hashlib.sha256(source).hexdigest())
    plan = slices.plan(source, args.slices)
    if plan is None:
        sys.exit(f"no plan: {slices.plan_of(source, args.slices)}")
    gc.disable()
    whole_times: list[float] = []
    sliced_times: list[float] = []
    for _ in range(args.rounds):
        tree = new_parser().parse(source)
        budget = WorkBudget(name, tree.root_node.descendant_count)
        part = UnitTree(tree, source, budget)
        resolution, heritages, _, _, _ = _find_sites(tree, source, rules, None)
        before = time.process_time()
        expected = error_classes(unit, part, resolution, heritages, rules)
        whole_times.append(time.process_time() - before)
        visits = budget.total - budget.left
        del tree, part, resolution, heritages
        gc.collect()

        reader = new_parser()
        head = slices.parse_head(reader, source, plan)
        chain = () if head is None else tuple(ancestors(main_container(head.root_node), head.root_node))
        list_type = "program" if head is None else "statement_block"
        spent = 0.0
        before = time.process_time()
        words = heritage_words(source)
        spent += time.process_time() - before
        parts, loggers = [], []
        for index in range(len(plan.ranges)):
            slice_tree = slices.parse_slice(reader, source, plan, index)
            scopes = TopScopes(slice_tree.root_node, chain, list_type)
            found = tree_sites(slice_tree, source, rules, None, scopes)
            loggers.append(found.rows.logger)
            before = time.process_time()
            parts.append(slice_classes(name, UnitTree(slice_tree, source, head=chain, list_type=list_type),
                                       found.heritages, found.resolution, scopes, plan.ranges[index],
                                       frozenset(rules.class_roots), words))
            spent += time.process_time() - before
            del slice_tree, found, scopes
        initial = frozenset(rules.constructors) | frozenset(rules.class_roots) | frozenset(
            logger_detection.unit_names(loggers, rules, None))
        before = time.process_time()
        made = unit_classes(parts, head_bindings(chain, list_type), source, plan.ranges, rules, initial)
        spent += time.process_time() - before
        if not isinstance(made, UnitClasses):
            sys.exit(f"slices lacking names (read again in the scan): {made}")
        sliced_times.append(spent)
        assert (made.facts, made.visits) == (expected, visits), "the merge is not the whole tree's"
        rows = (sum(len(p.heritages) for p in parts), sum(len(p.bases) for p in parts),
                sum(len(p.classes) for p in parts))
        del parts, head
        gc.collect()
    print(f"{name}: {len(expected)} error classes; {args.slices} slices: {rows[0]} heritage rows, "
          f"{rows[1]} base rows, {rows[2]} class rows; equal to the whole tree")
    for label, times in (("whole tree, error_classes", whole_times), ("slices, halves and merge", sliced_times)):
        print(f"{label}: median {statistics.median(times):.3f} s (min {min(times):.3f})")
    print(f"load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
