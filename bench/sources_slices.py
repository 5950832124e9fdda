"""The sources through calls (stage 13) whole-tree against slices + merge (issue 22, docs/slices.md
stage 13): the CPU of `called_sources` on the whole tree, and of the slices' `slice_sources` plus
`unit_sources` when each slice's protected blocks keep the calls of L's declared names
(`Supersets.names`, every function's body made: "names") or of the hot functions' byte superset
(`Supersets.hot`, the cold functions' bodies not made: "hot", the driver's); the results checked
equal.

usage: python bench/sources_slices.py [--package NAME --version V | --target PATH] [--slices 4] [--rounds 3]

Loads the largest unit as the scan does; runs the whole tree's stages once (`extract_unit` inline,
`called_sources` timed), then, round by round in alternated order, the sliced driver
(`sliced.sliced_halves`, the slices read in order in this process) with each kind of callees,
timing its `slice_sources` and `unit_sources` calls and its scanner and byte supersets (process CPU, the
collector off during each call). Prints CPU medians and minimums and the load average.
"""

from __future__ import annotations

import argparse
import gc
import os
import pathlib
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

REPOSITORY = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPOSITORY / "tests"))

from support import npm_cache

from analyzer.bundle.load import load_bundle
from analyzer.javascript import extract, slice_supersets, sliced
from analyzer.javascript.rules import compile_rules
from analyzer.rules import load_rules


class Timer:
    """Wraps a module's function: sums the CPU of its calls."""

    def __init__(self, module: Any, name: str, change: Callable[..., tuple[tuple, dict]] | None = None) -> None:
        self.module, self.name, self.real, self.change = module, name, getattr(module, name), change
        self.spent, self.last = 0.0, None
        setattr(module, name, self)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if self.change is not None:
            args, kwargs = self.change(*args, **kwargs)
        enabled = gc.isenabled()
        gc.disable()
        started = time.process_time()
        try:
            self.last = self.real(*args, **kwargs)
        finally:
            self.spent += time.process_time() - started
            if enabled:
                gc.enable()
        return self.last


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--package", default="@anthropic-ai/claude-code")
    parser.add_argument("--version", default="2.1.100")
    parser.add_argument("--target", type=pathlib.Path)
    parser.add_argument("--slices", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    path = args.target or npm_cache.main_file(args.package, args.version)
    units, _ = load_bundle(path)
    unit = max(units, key=lambda unit: len(unit.source))
    rules = compile_rules(load_rules("javascript"))
    print(f"{path.name}: {len(unit.source)} bytes, {args.slices} slices; load average {os.getloadavg()[0]:.2f}")

    whole = Timer(extract, "called_sources")
    extract.extract_unit(unit, rules, None, path)
    print(f"whole tree: called_sources {whole.spent:.3f} s, {len(whole.last)} handlers")  # type: ignore[arg-type]
    expected = whole.last

    mode = ["hot"]

    def callees(*args: Any, **kwargs: Any) -> tuple[tuple, dict]:
        if mode[0] == "names":
            kwargs["callees"], kwargs["cold"] = found.last.names, None  # type: ignore[attr-defined]
        return args, kwargs

    def merge(*args: Any, **kwargs: Any) -> tuple[tuple, dict]:
        return (args[:5] if mode[0] == "names" else args), kwargs  # no hot superset to check

    found = Timer(slice_supersets, "_supersets")  # made when the driver's `prepare` asks
    rows, merged = Timer(sliced, "slice_sources", callees), Timer(sliced, "unit_sources", merge)
    times: dict[str, list[tuple[float, float, float]]] = {"names": [], "hot": []}
    for at in range(args.rounds):
        for label in ("names", "hot") if at % 2 == 0 else ("hot", "names"):
            mode[0] = label
            found.spent = rows.spent = merged.spent = 0.0
            made = sliced.sliced_halves(unit.name, unit.source, args.slices, rules, rules.logger_name)
            assert not isinstance(made, str), made
            assert made.called == expected, f"{label}: the sources differ from the whole tree's"
            times[label].append((rows.spent, merged.spent, found.spent))
            gc.collect()
    for label, spent in times.items():
        both = [a + b for a, b, _ in spent]
        print(f"callees {label}: slices + merge {statistics.median(both):.3f} (min {min(both):.3f}); slice_sources "
              f"{statistics.median(a for a, _, _ in spent):.3f}; unit_sources "
              f"{statistics.median(b for _, b, _ in spent):.3f}; "
              f"scanner and supersets {statistics.median(c for *_, c in spent):.3f}")
    superset = found.last
    print(f"names {len(superset.names)}, throwers {len(superset.throwers)}, hot {len(superset.hot)}; "  # type: ignore[union-attr]
          f"results equal; load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
