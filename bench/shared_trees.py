"""What one `UnitTree` per slice tree saves (docs/slices.md, stage 7, "One `UnitTree` per slice"):
the references' speculated roots and the error classes on their own normalizers against both on
the facts' `UnitTree` (its `_Visits` normalizer, its digests, renameable names, sibling runs and
scope entries), the facts made first as the driver does; the handlers' half, which notes its
visits on its own tree, is timed with them on its own either way.

usage: python bench/shared_trees.py [--package NAME --version V | --target PATH] [--slices 4] [--rounds 5]

Loads the largest unit as the scan does; per round and per slice, parses it and makes the
module map's part, the sites and the facts (untimed), then times the three halves both ways,
alternated, and checks their values equal. Prints the CPU (`process_time`, gc off) summed over
the slices: median and minimum over the rounds, and the median of the paired differences.
"""

from __future__ import annotations

import gc
import os
import pathlib
import statistics
import sys
import time

REPOSITORY = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPOSITORY / "tests"))
sys.path.insert(0, str(REPOSITORY))

import slice_bench

from analyzer.javascript import site_facts, slices
from analyzer.javascript.class_rows import heritage_words, slice_classes
from analyzer.javascript.handlers.slices import potential_sites, slice_handlers
from analyzer.javascript.modules import esbuild, slice_modules, webpack
from analyzer.javascript.modules.patterns import Literals
from analyzer.javascript.modules.statements import StatementLists, main_container
from analyzer.javascript.normalize import Normalizer
from analyzer.javascript.reference_slices import root_candidates, slice_part, speculated_modules
from analyzer.javascript.rules import compile_rules
from analyzer.javascript.site_rows import tree_sites
from analyzer.javascript.slice_supersets import supersets
from analyzer.javascript.sliced import _helpers_first, _logger_candidates, _potential_roots
from analyzer.javascript.syntax import ancestors, new_parser
from analyzer.javascript.top_bindings import TopScopes
from analyzer.javascript.unit_tree import UnitTree
from analyzer.rules import load_rules


def main() -> None:
    parser = slice_bench.arguments()
    args = parser.parse_args()
    rules = compile_rules(load_rules("javascript"))
    largest = slice_bench.largest_unit(args)
    source, name = largest.source, largest.name
    plan = slices.plan(source, args.slices)
    if plan is None:
        sys.exit(f"no plan: {slices.plan_of(source, args.slices)}")
    reader = new_parser()
    head = slices.parse_head(reader, source, plan)
    chain = () if head is None else tuple(ancestors(main_container(head.root_node), head.root_node))
    list_type = "program" if head is None else "statement_block"
    literals = Literals(source)
    helpers = esbuild.unit_helpers(_helpers_first(reader, source, literals, plan, esbuild.core_offsets(literals)))
    names = webpack.table_names(literals)
    found_sets = supersets(source, plan.braces, rules.level_key, rules.options_argument)
    assert found_sets is not None
    wanted = _logger_candidates(found_sets, rules)
    words, roots = heritage_words(source), frozenset(rules.class_roots)
    made: list[UnitTree] = []
    facts_tree = site_facts.UnitTree

    def noted(*args: object, **kwargs: object) -> UnitTree:
        part = facts_tree(*args, **kwargs)  # type: ignore[arg-type]
        made.append(part)
        return part

    site_facts.UnitTree = noted  # type: ignore[assignment,misc]
    gc.disable()
    apart: list[float] = []
    shared: list[float] = []
    for _ in range(args.rounds):
        spent = {False: 0.0, True: 0.0}
        for index in range(len(plan.ranges)):
            tree = slices.parse_slice(reader, source, plan, index)
            root = tree.root_node
            lists = StatementLists(root, root)
            modules = slice_modules(root, source, literals, lists, helpers, span=plan.ranges[index], chain=chain,
                                    table_names=names)
            found = tree_sites(tree, source, rules, None, TopScopes(root, chain, list_type), wanted)
            values = {}
            for one in ((False, True) if index % 2 else (True, False)):  # alternated
                made.clear()
                site_facts.slice_facts(name, source, tree, found, rules, chain, list_type)
                part = made[0]
                before = time.process_time()
                offsets = _potential_roots(found.rows)
                items, reference_part = slice_part(
                    tree, source, plan.ranges[index], speculated_modules(modules, source, helpers), found_sets.names,
                    lambda raw, offsets=offsets: root_candidates(raw, offsets),
                    part.normalizer if one else Normalizer(source))
                class_part = slice_classes(
                    name, part if one else UnitTree(tree, source, head=chain, list_type=list_type), found.heritages,
                    found.resolution, TopScopes(root, chain, list_type), plan.ranges[index], roots, words)
                handler_part = slice_handlers(
                    name, UnitTree(tree, source, None, chain, list_type), (), plan.ranges[index],
                    potential_sites(found.rows, rules), (index > 0, index < len(plan.ranges) - 1),
                    TopScopes(root, chain, list_type))
                spent[one] += time.process_time() - before
                handler_part.blocks.clear()
                values[one] = (reference_part, class_part, handler_part)
                del items
            assert values[True] == values[False], f"slice {index}: the halves differ on one tree"
            del tree, root, lists, found, values, part
            gc.collect()
        apart.append(spent[False])
        shared.append(spent[True])
    print(f"{name}: {args.slices} slices; the halves' values equal either way")
    for label, times in (("own normalizers", apart), ("one UnitTree", shared)):
        print(f"{label}: median {statistics.median(times):.3f} s (min {min(times):.3f})")
    print(f"paired difference (own - one): median {statistics.median(a - b for a, b in zip(apart, shared)):+.3f} s")
    print(f"load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
