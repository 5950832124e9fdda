"""The handlers' halves at N = 1 against another checkout's `find_handlers` and `called_sources`
(issue 22, docs/slices.md "Step 7 as built"): both packages loaded in one process, one tree.

usage: python bench/handlers_halves.py SOURCE [--base /work/main] [--rounds 21] [--once base|head]

SOURCE is one JavaScript file (cli.js of @anthropic-ai/claude-code@2.1.100: the cached
`~/.cache/erratlas/npm/@anthropic-ai__claude-code-2.1.100/package/cli.js`). Its tree, callsites,
their facts and the listing are made once by this checkout; then, round by round in alternated
order with the collector off, each checkout's `find_handlers` (on a fresh `UnitTree`) and
`called_sources` run on them; the results are checked equal (by `repr`: the two packages'
classes differ) and the CPU (`time.process_time`) of each and of both is printed, medians,
minimums and the paired median; the load average before and after. `--once` runs one
checkout's two calls once, inside `sys.call_tracing`, for instruction counts:

    PYTHONHASHSEED=0 valgrind --tool=callgrind --toggle-collect=sys_call_tracing \
        python bench/handlers_halves.py SOURCE --once head
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import importlib
import os
import pathlib
import statistics
import sys
import time
from types import ModuleType

REPOSITORY = pathlib.Path(__file__).resolve().parent.parent


def _load(root: pathlib.Path) -> dict[str, ModuleType]:
    """The checkout's modules, imported afresh from `root` (the objects made keep their own)."""
    for name in [m for m in sys.modules if m == "analyzer" or m.startswith("analyzer.")]:
        del sys.modules[name]
    sys.path.insert(0, str(root))
    try:
        return {name: importlib.import_module(f"analyzer.javascript.{name}")
                for name in ("handlers", "unit_tree", "extract")}
    finally:
        sys.path.remove(str(root))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source", type=pathlib.Path)
    parser.add_argument("--base", type=pathlib.Path, default=pathlib.Path("/work/main"))
    parser.add_argument("--rounds", type=int, default=21)
    parser.add_argument("--once", choices=("base", "head"))
    args = parser.parse_args()
    source = args.source.read_bytes()
    print(f"load average {os.getloadavg()[0]:.2f}")
    base, head = _load(args.base), _load(REPOSITORY)
    from analyzer.facts import SiteFacts
    from analyzer.javascript.modules import find_modules
    from analyzer.javascript.references import listing
    from analyzer.javascript.rules import compile_rules
    from analyzer.javascript.syntax import new_parser
    from analyzer.model import Unit
    from analyzer.parallel.executor import Inline
    from analyzer.rules import load_rules

    extract = head["extract"]
    rules = compile_rules(load_rules("javascript"))
    tree = new_parser().parse(source)
    part = head["unit_tree"].UnitTree(tree, source)
    modules = find_modules(tree, source, part.statement_lists())
    _, _, choice, sites, _ = extract._find_sites(tree, source, rules, None)
    items = listing(tree, source, modules)
    roots = extract._root_candidates(items.raw, [n.start_byte for n, _ in sites], choice)
    unit = Unit(args.source.name, source, hashlib.sha256(source).hexdigest())
    work = extract._Tasks(unit, part, rules, items, sites, roots)
    references, site_facts, _, _ = work.gather(Inline().map(work.run, work.count))
    del work
    facts = [f for f in site_facts if isinstance(f, SiteFacts)]

    def positions(offsets: list[int]) -> dict[int, tuple[int, int]]:
        return extract._columns(source, offsets)

    def run(mods: dict[str, ModuleType]) -> tuple[float, float, str]:
        fresh = mods["unit_tree"].UnitTree(tree, source)
        t0 = time.process_time()
        handlers, sink, deep, blocks = mods["handlers"].find_handlers(unit.name, fresh, sites, positions)
        t1 = time.process_time()
        called = mods["handlers"].called_sources(source, items.raw, references.shadowed, facts, blocks)
        t2 = time.process_time()
        return t1 - t0, t2 - t1, repr((handlers, sink, deep, called))

    if args.once is not None:
        mods = base if args.once == "base" else head
        fresh = mods["unit_tree"].UnitTree(tree, source)

        def both() -> int:
            _, _, _, blocks = mods["handlers"].find_handlers(unit.name, fresh, sites, positions)
            return len(mods["handlers"].called_sources(source, items.raw, references.shadowed, facts, blocks))

        print(f"{args.once}: {sys.call_tracing(both, ())} handlers with sources through a call")
        return
    gc.disable()
    times: dict[str, list[tuple[float, float]]] = {"base": [], "head": []}
    results = set()
    for at in range(args.rounds):
        for label in ("base", "head") if at % 2 == 0 else ("head", "base"):
            found, called, result = run(base if label == "base" else head)
            times[label].append((found, called))
            results.add(result)
            gc.collect()
    assert len(results) == 1, "the two checkouts' results differ"
    for label, rows in times.items():
        total = [a + b for a, b in rows]
        print(f"{label}: both {statistics.median(total):.4f} (min {min(total):.4f}); find_handlers "
              f"{statistics.median(a for a, _ in rows):.4f} (min {min(a for a, _ in rows):.4f}); called_sources "
              f"{statistics.median(b for _, b in rows):.4f} (min {min(b for _, b in rows):.4f})")
    paired = [sum(h) - sum(b) for b, h in zip(times["base"], times["head"], strict=True)]
    print(f"head - base, paired median {statistics.median(paired):+.4f} s over {args.rounds} rounds; "
          f"load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
