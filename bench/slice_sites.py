"""The logger and the callsites of one unit merged from its slices' rows, against the whole tree
(docs/slices.md, "Step 4 as built").

usage: python bench/slice_sites.py [--package NAME --version V | --target PATH] [--slices 4] [--superset]

Loads the largest unit as the scan does, finds its sites on the whole tree (`extract._find_sites`),
frees it, then parses the slices of `slices.plan` one at a time, each with its head chain, hands
each to `site_rows.tree_sites` (with `--superset`, each slice also resolves the callees the byte
superset gives enough level-option calls: `slice_supersets`), reads again the slices that lacked
one of the unit's logger candidates (`logger.missing_names`), merges (`site_rows.merge_sites`) and
says whether the choice, the sites and the shadowed counts are the whole tree's, with the rows'
counts.
"""

from __future__ import annotations

import argparse
import gc
import pathlib
import sys

REPOSITORY = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPOSITORY / "tests"))
sys.path.insert(0, str(REPOSITORY))

from support import npm_cache

from analyzer.bundle.load import load_bundle
from analyzer.javascript import logger as logger_detection
from analyzer.javascript import slices
from analyzer.javascript.extract import _find_sites
from analyzer.javascript.modules.statements import main_container
from analyzer.javascript.rules import compile_rules
from analyzer.javascript.site_rows import SliceSites, merge_sites, tree_sites
from analyzer.javascript.slice_supersets import supersets
from analyzer.javascript.syntax import ancestors, new_parser
from analyzer.javascript.top_bindings import TopScopes, head_bindings
from analyzer.rules import load_rules


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--package", default="@anthropic-ai/claude-code")
    parser.add_argument("--version", default="2.1.100")
    parser.add_argument("--target", type=pathlib.Path)
    parser.add_argument("--slices", type=int, default=4)
    parser.add_argument("--superset", action="store_true")
    args = parser.parse_args()
    rules = compile_rules(load_rules("javascript"))
    units, _ = load_bundle(args.target or npm_cache.main_file(args.package, args.version))
    source = max(units, key=lambda u: len(u.source)).source
    del units
    whole = new_parser().parse(source)
    _, _, choice, sites, shadowed = _find_sites(whole, source, rules, None)
    expected = (choice, [(node.start_byte, node.end_byte, kind) for node, kind in sites], dict(shadowed))
    del whole, sites
    gc.collect()
    plan = slices.plan(source, args.slices)
    if plan is None:
        sys.exit(f"no plan: {slices.plan_of(source, args.slices)}")
    reader = new_parser()
    head = slices.parse_head(reader, source, plan)
    chain = () if head is None else tuple(ancestors(main_container(head.root_node), head.root_node))
    list_type = "program" if head is None else "statement_block"

    wanted: frozenset[str] = frozenset()
    if args.superset:
        found = supersets(source, plan.braces, rules.level_key, rules.options_argument)
        if found is not None:
            wanted = frozenset(callee for callee, count in found.level_option_calls.items()
                               if count >= rules.min_level_option_calls)
        print(f"the superset's candidates: {sorted(wanted)}" if found is not None
              else "no superset: the scanner is unsure")

    def rows(index: int, more: frozenset[str] = frozenset()) -> SliceSites:
        tree = slices.parse_slice(reader, source, plan, index)
        return tree_sites(tree, source, rules, None, TopScopes(tree.root_node, chain, list_type), more).rows

    parts = [rows(index, wanted) for index in range(len(plan.ranges))]
    missing = logger_detection.missing_names([part.logger for part in parts], rules, None)
    parts = [rows(index, wanted | lacked) if lacked else part
             for index, (part, lacked) in enumerate(zip(parts, missing, strict=True))]
    unit = merge_sites(parts, head_bindings(chain, list_type), source, rules, None)
    print(f"{len(plan.ranges)} slices; the logger {choice.name!r}; read again for a missing candidate: "
          f"{sum(1 for lacked in missing if lacked)} ({sorted(set().union(*missing))})")
    print(f"call rows {sum(len(part.calls) for part in parts)}, sites {len(unit.sites)}, "
          f"L-level bindings {sum(len(part.top.function) + len(part.top.block) for part in parts)}")
    print("equal to the whole tree:", (unit.choice, unit.sites, dict(unit.shadowed)) == expected)


if __name__ == "__main__":
    main()
