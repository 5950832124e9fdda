"""Where the time of a Python scan goes, stage by stage, in one process.

usage: python bench/python_stages.py [--target DIR | --stdlib] [--runs N]

Runs the scan's stages in this process (every file extracted here, as one worker would) with
a timer around each, then writes the outputs as `erratlas scan` does, and prints a markdown
table: wall seconds per stage and its share of the libcst parse (the floor). The stages are
those of `analyzer.python.extract.extract_file` (tokenize, nesting check, what need not be
parsed and CPython's parser that guards it, parse, walk: spans and collection in libcst's
codegen pass, name resolution and records with their fingerprint digests, the module digest)
and of the pipeline around it (load, vocabulary, settle, records, reports, write). The sum of the
stages is a little less than the total: what is left is loops and calls between them. Timings move
with machine load: compare shares.
"""

from __future__ import annotations

import argparse
import pathlib
import shlex
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from typing import Any

REPOSITORY = pathlib.Path(__file__).resolve().parent.parent
TIMES: dict[str, float] = defaultdict(float)


def timed(label: str, function: Callable[..., Any]) -> Callable[..., Any]:
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        start = time.perf_counter()
        try:
            return function(*args, **kwargs)
        finally:
            TIMES[label] += time.perf_counter() - start

    return wrapper


def instrument() -> None:
    import libcst

    from analyzer import projected
    from analyzer.python import extract, frontend, tokens
    from analyzer.reports import inventory

    extract.cst.parse_module = timed("parse (libcst)", libcst.parse_module)  # type: ignore[attr-defined]
    extract._tokens = timed("tokenize (one pass per file)", extract._tokens)
    extract.too_deep = timed("nesting check", extract.too_deep)
    extract.walk = timed("walk: spans + collection (codegen pass)", extract.walk)
    extract.reduce = timed("reduce: what need not be parsed", extract.reduce)
    extract.symtable = type("symtable", (), {"symtable": staticmethod(timed(
        "reduce: CPython's parser accepts the unit (no syntax error hidden)", extract.symtable.symtable))})
    extract._resolved = timed("names, records, anchor/function/class digests", extract._resolved)
    original = tokens.Tokens.normalized

    def module_digest(self: tokens.Tokens, start: int, end: int, base: int = 0) -> bytes:
        if start == 0 and end == len(self.text):
            return timed("module digest (fp1m)", original)(self, start, end, base)
        return original(self, start, end, base)

    tokens.Tokens.normalized = module_digest  # type: ignore[method-assign]
    frontend.load_python_input = timed("load", frontend.load_python_input)
    frontend.input_vocabulary = timed("vocabulary (textual, whole bundle)", frontend.input_vocabulary)
    frontend.settle = timed("settle (hierarchy across modules)", frontend.settle)
    frontend.module_map = timed("module map", frontend.module_map)
    inventory.inventory_files = timed("reports: inventory", inventory.inventory_files)
    projected.owner_files = timed("reports: owners, index, summary", projected.owner_files)
    frontend.extract_all = lambda path, tasks, vocabulary, jobs: [extract.extract_file(t, vocabulary) for t in tasks]


def run(target: pathlib.Path, out: pathlib.Path) -> float:
    from analyzer import scan as scan_module
    from analyzer.projected import owner_files
    from analyzer.python.workers import quiet_gc
    from analyzer.reports.inventory import inventory_files
    from analyzer.reports.summary import scan_summary
    from analyzer.scandir.write import write_directory

    quiet_gc()
    start = time.perf_counter()
    result = scan_module.scan(scan_module.scan_input(target), None)  # in this process
    files = inventory_files(result)
    files |= owner_files(files, [], timed("reports: summary", scan_summary)(result))
    timed("write", write_directory)(out, files)
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--target", help="a directory of Python sources (default: the installed pip)")
    parser.add_argument("--stdlib", action="store_true", help="the standard library's Lib/ (without site-packages)")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(REPOSITORY / "tests"))
    from support.python_trees import pip_tree, stdlib_tree

    print(f"<!-- {shlex.join([pathlib.Path(sys.argv[0]).name, *sys.argv[1:]])} -->")
    instrument()
    with tempfile.TemporaryDirectory(prefix="erratlas-stages-") as temporary:
        work = pathlib.Path(temporary)
        target = stdlib_tree(work) if args.stdlib else pathlib.Path(args.target) if args.target else pip_tree()
        total = run(target, work / "scan")
    parse = TIMES["parse (libcst)"]
    print(f"**target** `{target if not args.stdlib else 'stdlib'}`, one process, total {total:.2f} s\n")
    print("| stage | wall s | share of the libcst parse |")
    print("|---|---:|---:|")
    for label, seconds in sorted(TIMES.items(), key=lambda kv: -kv[1]):
        print(f"| {label} | {seconds:.2f} | {seconds / parse:.2f} |")
    print(f"| **total** | {total:.2f} | {total / parse:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
