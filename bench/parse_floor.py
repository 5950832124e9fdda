"""The memory floor of a JavaScript scan: the resident MiB of a bare tree-sitter parse of an
input's largest unit, in a fresh process, against the scan's own peak (docs/performance.md,
"Memory").

usage: python bench/parse_floor.py [--package NAME --version V | --target PATH]

Loads the units as the scan does (`analyzer.bundle.load.load_bundle`: a Bun executable's
embedded modules, or the bundle), parses the largest with tree-sitter and nothing else, and
prints the unit's bytes, the tree's visible nodes, the process's resident MiB before and after
the parse and after freeing the tree, and the parse's CPU seconds.
"""

from __future__ import annotations

import argparse
import gc
import pathlib
import resource
import sys
import time

REPOSITORY = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPOSITORY / "tests"))

from support import npm_cache


def resident_mib() -> float:
    with open("/proc/self/statm", "rb") as statm:
        return int(statm.read().split()[1]) * resource.getpagesize() / 2**20


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--package", default="@anthropic-ai/claude-code")
    parser.add_argument("--version", default="2.1.100")
    parser.add_argument("--target", type=pathlib.Path, help="a bundle or a Bun executable")
    args = parser.parse_args()
    gc.disable()  # as in a JavaScript scan
    from analyzer.bundle.load import load_bundle
    from analyzer.javascript.syntax import new_parser

    path = args.target or npm_cache.main_file(args.package, args.version)
    units, _ = load_bundle(path)
    unit = max(units, key=lambda u: len(u.source))
    parser_ = new_parser()
    before = resident_mib()
    started = time.process_time()
    tree = parser_.parse(unit.source)
    spent = time.process_time() - started
    parsed = resident_mib()
    nodes = tree.root_node.descendant_count
    del tree
    print(f"{path.name}: unit {unit.name}, {len(unit.source):,} bytes, {nodes:,} nodes; resident MiB "
          f"{before:.0f} before the parse, {parsed:.0f} parsed (+{parsed - before:.0f}), {resident_mib():.0f} "
          f"freed; parse CPU {spent:.2f} s")


if __name__ == "__main__":
    main()
