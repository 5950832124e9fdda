"""The handlers and the sink of one unit from its slices, against the whole tree's stage
(docs/slices.md, "Step 7 as built").

usage: python bench/handlers_slices.py [--package NAME --version V | --target PATH] [--slices 4]
                                       [--rounds 5] [--profile sliced|whole]

Loads the largest unit as the scan does, parses its whole tree and its slices once (each slice
with its head chain) and finds the sites of each (untimed: `site_rows.tree_sites`, merged as
the driver merges them). Each round first makes the callsites' facts on a fresh `UnitTree` of
each tree (untimed), as the scan does before the handlers: the whole tree's (`extract._Tasks`)
and each slice's (`site_facts.slice_facts` on its `facts_tree`). Then, timed: whole,
`handlers.find_handlers` on the whole tree's `UnitTree`, its digests shared with the facts as
in `extract._whole_tree`; sliced, `handlers.slices.slice_handlers` on each slice as the driver
runs it (its potential sites, cut, L's scopes) on the facts' `UnitTree`, then `unit_handling`
(with the statements holding a sink name a slice did not resolve read again, as the driver
does); and the same on a `UnitTree` of each slice of its own (nothing cached: what the driver
did before it shared the facts'). Rounds alternate their order; the records, the sink's evidence
and calls and the catch clauses left out are checked equal, and so are the node visits the
slices note on either tree; the CPU of each (`process_time`, gc off) is printed, median and
minimum, with the load average. `--profile` runs one side once under cProfile instead.
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
from typing import Any

REPOSITORY = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPOSITORY / "tests"))
sys.path.insert(0, str(REPOSITORY))

import slice_bench

from analyzer.javascript import slices
from analyzer.javascript.extract import _columns, _find_sites, _root_candidates, _Tasks
from analyzer.javascript.handlers import find_handlers
from analyzer.javascript.handlers.slices import potential_sites, slice_handlers, statement_bindings, unit_handling
from analyzer.javascript.modules import find_modules
from analyzer.javascript.modules.statements import StatementLists, main_container
from analyzer.javascript.references import listing
from analyzer.javascript.rules import compile_rules
from analyzer.javascript.site_facts import facts_tree, slice_facts
from analyzer.javascript.site_rows import merge_sites, tree_sites
from analyzer.javascript.syntax import ancestors, new_parser
from analyzer.javascript.top_bindings import TopBindings, TopScopes, head_bindings
from analyzer.javascript.unit_tree import UnitTree
from analyzer.parallel.executor import Inline
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
    _, _, choice, sites, _ = _find_sites(tree, source, rules, None)
    items = listing(tree, source, find_modules(tree, source, UnitTree(tree, source).statement_lists()))
    roots = _root_candidates(items.raw, [node.start_byte for node, _ in sites], choice)

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
    last = len(plan.ranges) - 1

    def whole_facts() -> UnitTree:
        """The whole tree's `UnitTree` after its callsites' facts, as `extract._whole_tree` hands it on."""
        part = UnitTree(tree, source)
        work = _Tasks(largest, part, rules, items, sites, roots)
        work.gather(Inline().map(work.run, work.count))
        part.scopes.clear()
        return part

    def facts_trees() -> list[UnitTree]:
        """Each slice's `facts_tree` after its facts, as `sliced.halves_of` hands it on."""
        parts = []
        for index, part in enumerate(trees):
            shared = facts_tree(part, source, chain, list_type)
            slice_facts(name, source, part, found[index], rules, chain, list_type, shared)
            parts.append(shared)
        return parts

    def own_trees() -> list[UnitTree]:
        return [UnitTree(part, source, None, chain, list_type) for part in trees]

    def whole(part: UnitTree) -> tuple[object, ...]:
        handlers, sink, deep, _ = find_handlers(name, part, sites, positions)
        return handlers, sink, deep

    def reread(index: int, names: frozenset[str]) -> TopBindings:
        return statement_bindings(name, reader, source, plan, index, rows[index].starts, rows[index].ends, names, chain,
                                  list_type)

    def sliced(parts: list[UnitTree]) -> tuple[object, ...]:
        made_parts = []
        for index, part in enumerate(parts):
            made = slice_handlers(name, part, (), plan.ranges[index], potential[index], (index > 0, index < last),
                                  TopScopes(part.root, chain, list_type))
            assert made.inexact is None, made.inexact
            made.blocks.clear()
            made_parts.append(made)
        handling = unit_handling(name, source, plan.ranges, made_parts, merged.sites, head_bindings(chain, list_type),
                                 reread)
        notes = [(part.scopes, sorted(part.digested.items())) for part in made_parts]
        return handling.records(name, positions), handling.sink.evidence, handling.left_out, notes

    if args.profile is not None:
        profile = cProfile.Profile()
        if args.profile == "sliced":
            profile.runcall(sliced, facts_trees())
        else:
            profile.runcall(whole, whole_facts())
        pstats.Stats(profile).sort_stats("cumulative").print_stats(40)
        return
    runs: dict[str, tuple[Callable[[Any], tuple[object, ...]], Callable[[], Any], list[float]]] = {
        "whole tree, find_handlers after the facts": (whole, whole_facts, []),
        "slices on the facts' trees, halves and merge": (sliced, facts_trees, []),
        "slices on trees of their own, halves and merge": (sliced, own_trees, [])}
    results: dict[str, set[str]] = {label: set() for label in runs}
    noted: dict[str, set[str]] = {label: set() for label in runs}  # the slices' visits noted
    gc.disable()
    for at in range(args.rounds):
        for label in list(runs) if at % 2 == 0 else list(runs)[::-1]:
            run, ready, times = runs[label]
            given = ready()
            gc.collect()
            before = time.process_time()
            result = run(given)
            times.append(time.process_time() - before)
            results[label].add(repr(result[:3]))
            noted[label].add(repr(result[3:]))
            del result, given
            gc.collect()
    assert len(set().union(*results.values())) == 1, "the slices' handlers are not the whole tree's"
    _, shared, own = (noted[label] for label in runs)
    assert len(shared) == 1 and shared == own, "the slices' visits noted differ on the facts' trees and their own"
    print(f"{name}: {len(sites)} sites; {args.slices} slices; equal to the whole tree, the visits noted equal")
    for label, (_, _, times) in runs.items():
        print(f"{label}: median {statistics.median(times):.3f} s (min {min(times):.3f})")
    print(f"load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
