"""The reference graph's words pass over slices (issue 22, docs/slices.md "Step 5 as built"): the
summed CPU of N slices' passes against the whole tree's, on one unit, in alternated rounds; and
the whole stage as the driver runs it against the whole tree's; and the words pass of a26b21f
(`tests/support/occurrences_a26b21f.py`, 1 KB windows) against today's, on the whole tree.

usage: python bench/references_slices.py [--package NAME --version V | --target PATH] [--slices 4]
                                         [--rounds 5] [--oracle-only]

Loads the largest unit as the scan does, parses it whole and as the plan's N slices
(`analyzer.javascript.slices`), lists the items of each (`references.listing`: the whole tree's,
and each slice's on its root and range, given the whole tree's names), then times, round by
round in alternated order, `chunk_references` over every chunk: of the whole tree; of the
slices, each reading its range; and of the slices with their last chunk reading to the source's
end (what a slice would read without its range: every later slice's bytes as a gap). The
merged graph of the slices (no digests) is checked equal to the whole tree's, and a26b21f's
pass over the whole tree's chunks (references as sets, walks, shadowed pairs) to today's. Then the stage
(stages 8-10e): on the whole tree, `listing`, every chunk, the roots' digests and the merge as
`extract._Tasks` makes them; on the slices, as `sliced._halves` does, each slice's
`speculated_modules` and `slice_part` (listing, chunks, the digests of its speculated roots)
from its module part and site rows (made before, not timed), then the merge (`unsliceable`,
the roots, `lacking`, `unit_listing`); both checked equal. CPU is `time.process_time` with the
collector off; the load average is printed before and after.
"""

from __future__ import annotations

import argparse
import dataclasses
import gc
import os
import pathlib
import statistics
import sys
import time
from collections.abc import Callable

REPOSITORY = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPOSITORY / "tests"))

from support import npm_cache
from support import occurrences_a26b21f as frozen
from tree_sitter import Node

from analyzer.javascript import sliced, slices
from analyzer.javascript.extract import _root_candidates
from analyzer.javascript.modules import SliceModules, esbuild, find_modules, slice_modules, unit_modules, webpack
from analyzer.javascript.modules.finder import Where
from analyzer.javascript.modules.patterns import Literals
from analyzer.javascript.modules.statements import StatementLists, main_container
from analyzer.javascript.normalize import Normalizer
from analyzer.javascript.reference_merge import slice_references, unit_references
from analyzer.javascript.reference_slices import (
    lacking,
    root_candidates,
    slice_part,
    speculated_modules,
    unit_listing,
    unsliceable,
)
from analyzer.javascript.references import Listing, binding_digests, chunk_references, listing
from analyzer.javascript.rules import compile_rules
from analyzer.javascript.site_rows import merge_sites, tree_sites
from analyzer.javascript.slice_supersets import supersets
from analyzer.javascript.syntax import ancestors, new_parser
from analyzer.javascript.top_bindings import TopScopes, head_bindings
from analyzer.rules import load_rules


def words_pass(listings: list[tuple[Listing, object]], source: bytes) -> list[list[object]]:
    return [[chunk_references(items, chunk, source, root) for chunk in range(len(items.chunks))]  # type: ignore[arg-type]
            for items, root in listings]


Pass = list[tuple[list[set[bytes]], int, set[tuple[int, bytes]]]]


def frozen_pass(items: Listing, source: bytes, root: Node) -> Pass:
    """`chunk_references` over every chunk with a26b21f's `references_of`."""
    out = []
    for first, last in items.chunks:
        following = items.raw[last][0] if last < len(items.raw) else items.span[1]
        shadowed: set[tuple[int, bytes]] = set()
        referenced, walked = frozen.references_of(
            items.raw[first:last], items.names, source, root, items.tops, items.declared,
            (items.span[0] if first == 0 else items.raw[first][0], following), shadowed)
        out.append(([set(names) for names in referenced], walked, {(first + p, n) for p, n in shadowed}))
    return out


def timed(run: Callable[[], object]) -> float:
    gc.disable()
    try:
        started = time.process_time()
        run()
        return time.process_time() - started
    finally:
        gc.enable()


def alternated(modes: dict[str, Callable[[], object]], rounds: int) -> dict[str, list[float]]:
    """Each mode's CPU per round, the order reversed every other round; the table printed."""
    spent: dict[str, list[float]] = {mode: [] for mode in modes}
    order = list(modes)
    for round_ in range(rounds):
        for mode in order if round_ % 2 == 0 else order[::-1]:
            spent[mode].append(timed(modes[mode]))
    print("| words pass | CPU s median | min | rounds |")
    print("|---|---:|---:|---|")
    for mode, values in spent.items():
        print(f"| {mode} | {statistics.median(values):.3f} | {min(values):.3f} | "
              f"{' '.join(f'{v:.3f}' for v in values)} |")
    return spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--package", default="@anthropic-ai/claude-code")
    parser.add_argument("--version", default="2.1.100")
    parser.add_argument("--target", type=pathlib.Path, help="a bundle or a Bun executable")
    parser.add_argument("--slices", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--oracle-only", action="store_true", help="time a26b21f's pass against today's only")
    args = parser.parse_args()

    from analyzer.bundle.load import load_bundle

    path = args.target or npm_cache.main_file(args.package, args.version)
    units, _ = load_bundle(path)
    source = max(units, key=lambda u: len(u.source)).source
    print(f"{path.name}: {len(source):,} bytes; load average before {os.getloadavg()}")
    made = slices.plan(source, args.slices)
    if made is None:
        raise SystemExit(f"not sliced: {slices.plan_of(source, args.slices)}")
    tree = new_parser().parse(source)
    modules = find_modules(tree, source)
    whole = listing(tree, source, modules)
    slicer = new_parser()
    head = slices.parse_head(slicer, source, made)
    trees = [slices.parse_slice(slicer, source, made, index) for index in range(len(made.ranges))]
    assert slices.check(made, head, trees, tree.root_node.descendant_count) is None
    parts = [listing(part, source, modules, span=span, names=whole.names)
             for part, span in zip(trees, made.ranges, strict=True)]
    unlimited = [dataclasses.replace(items, span=(items.span[0], len(source))) for items in parts]
    roots = [part.root_node for part in trees]

    modes: dict[str, Callable[[], object]] = {
        "whole, a26b21f's pass": lambda: frozen_pass(whole, source, tree.root_node),
        "whole": lambda: words_pass([(whole, tree.root_node)], source),
        "slices": lambda: words_pass(list(zip(parts, roots, strict=True)), source),
        "slices reading to the end": lambda: words_pass(list(zip(unlimited, roots, strict=True)), source),
    }
    today = [([set(names) for names in referenced], walked, shadowed) for referenced, walked, shadowed in
             (chunk_references(whole, chunk, source, tree.root_node) for chunk in range(len(whole.chunks)))]
    assert today == frozen_pass(whole, source, tree.root_node), "the pass is not a26b21f's"
    print("the whole tree's pass equals a26b21f's (references, walks, shadowed pairs)")
    if args.oracle_only:
        spent = alternated({mode: modes[mode] for mode in ("whole, a26b21f's pass", "whole")}, args.rounds)
        paired = [w - f for w, f in zip(spent["whole"], spent["whole, a26b21f's pass"], strict=True)]
        print(f"words pass, today - a26b21f, paired median: {statistics.median(paired):+.3f} s; "
              f"load average after {os.getloadavg()}")
        return
    done = words_pass(list(zip(parts, roots, strict=True)), source)
    merged = unit_references([slice_references(items, chunks, {}) for items, chunks in  # type: ignore[arg-type]
                              zip(parts, done, strict=True)])
    alone = unit_references([slice_references(whole, words_pass([(whole, tree.root_node)], source)[0], {})])  # type: ignore[arg-type]
    assert merged == alone, "the slices' graph is not the whole tree's"
    print(f"{len(made.ranges)} slices, {len(whole.raw):,} items, {len(whole.names):,} names, "
          f"{merged.walked} walks: the merged graph equals the whole tree's")

    # the stage: the halves before it (module parts, site rows) made once, outside the timing
    rules = compile_rules(load_rules("javascript"))
    chain = () if head is None else tuple(ancestors(main_container(head.root_node), head.root_node))
    list_type = "program" if head is None else "statement_block"
    literals = Literals(source)
    helpers = esbuild.unit_helpers([esbuild.find_helpers(Where(part.root_node, source, literals,
                                                               StatementLists(part.root_node, part.root_node),
                                                               span=span))
                                    for part, span in zip(trees, made.ranges, strict=True)])
    found = supersets(source, made.braces, rules.level_key, rules.options_argument)
    assert found is not None
    wanted = sliced._logger_candidates(found, rules)
    module_parts = [slice_modules(part.root_node, source, literals, StatementLists(part.root_node, part.root_node),
                                  helpers, span=span, chain=chain, table_names=webpack.table_names(literals))
                    for part, span in zip(trees, made.ranges, strict=True)]
    site_parts = [tree_sites(part, source, rules, None, TopScopes(part.root_node, chain, list_type), wanted).rows
                  for part in trees]
    module_map = unit_modules([SliceModules(one.rows, list(one.parts)) for one in module_parts], source, helpers)
    sites = merge_sites(site_parts, head_bindings(chain, list_type), source, rules, None)
    offsets = [start for start, _, _ in sites.sites] + ([sites.choice.binding.offset] if sites.choice.binding else [])

    def whole_stage() -> object:
        items = listing(tree, source, modules)
        chunks = [chunk_references(items, chunk, source, tree.root_node) for chunk in range(len(items.chunks))]
        roots = _root_candidates(items.raw, offsets[:len(sites.sites)], sites.choice)
        digests = binding_digests(tree, Normalizer(source), items.raw, roots)
        return unit_references([slice_references(items, chunks, digests)])

    def sliced_stage() -> object:
        parts = []
        for part, span, module_part, site_part in zip(trees, made.ranges, module_parts, site_parts, strict=True):
            potential = sliced._potential_roots(site_part)
            parts.append(slice_part(part, source, span, speculated_modules(module_part, source, helpers), found.names,
                                    lambda raw, potential=potential: root_candidates(raw, potential),  # type: ignore[misc]
                                    Normalizer(source))[1])
        assert unsliceable(parts, module_map) is None
        roots = root_candidates([row for one in parts for row in one.rows], offsets)
        assert not lacking(parts, roots), "a slice would be read again"
        return unit_listing(parts, roots, module_map.helpers).references

    assert sliced_stage() == whole_stage(), "the stage on the slices is not the whole tree's"
    print("the stage on the slices (no slice read again) equals the whole tree's")
    modes["stage: whole tree"] = whole_stage
    modes["stage: 4 slices and the merge"] = sliced_stage
    spent = alternated(modes, args.rounds)
    paired = [w - f for w, f in zip(spent["whole"], spent["whole, a26b21f's pass"], strict=True)]
    print(f"words pass, today - a26b21f, paired median: {statistics.median(paired):+.3f} s")
    paired = [s - w for s, w in zip(spent["slices"], spent["whole"], strict=True)]
    print(f"words pass, slices - whole, paired median: {statistics.median(paired):+.3f} s")
    paired = [s - w for s, w in zip(spent["stage: 4 slices and the merge"], spent["stage: whole tree"], strict=True)]
    print(f"stage, slices - whole, paired median: {statistics.median(paired):+.3f} s; "
          f"load average after {os.getloadavg()}")


if __name__ == "__main__":
    main()
