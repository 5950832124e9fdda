"""Parsing one unit in slices (issue 22): statement boundaries found by a byte-level scanner,
each slice parsed as its own tree, sequentially or in 2 processes, against the whole-unit parse
(docs/performance.md, "Parsing in slices").

usage: python bench/parse_slices.py [--package NAME --version V | --target PATH] [--slices 2,4,8,16]
                                    [--full] [--skip-check]

Loads the largest unit as the scan does (`analyzer.bundle.load.load_bundle`) and cuts it by
`analyzer.javascript.slices` (its byte scanner lists the byte after every `;` that ends a
statement of the program or of Bun's CJS wrapper body; its plan cuts that list). Each timed run
is a fresh process: the whole parse (the floor); N slices in one process, one tree alive at a
time and all alive; N slices in 2 forked processes. The check parses the whole unit once more and
compares: the scanner's boundaries against the real statement starts, the module's `check` (node
counts included), and each slice's statements against the whole tree's, node by node (`--full`:
every statement; default: every statement's kind, range and node count, and a full walk of every
25th statement).
"""

from __future__ import annotations

import argparse
import gc
import json
import multiprocessing
import pathlib
import re
import resource
import subprocess
import sys
import time
from typing import Any

REPOSITORY = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPOSITORY / "tests"))

from support import npm_cache
from support.same_nodes import first_difference

from analyzer.javascript import slices


def resident_mib() -> float:
    with open("/proc/self/statm", "rb") as statm:
        return int(statm.read().split()[1]) * resource.getpagesize() / 2**20


def slice_plan(source: bytes, count: int) -> tuple[slices.Plan, dict[str, Any]]:
    """The plan for `count` slices (`analyzer.javascript.slices`), and the scanner's figures."""
    started = time.process_time()
    made = slices.plan_of(source, count)
    spent = time.process_time() - started
    if isinstance(made, str):
        raise SystemExit(f"not sliced: {made}")
    return made, {"scanner_cpu_s": round(spent, 2), "list": made.kind, "boundaries": made.boundaries}


def load_unit(args: argparse.Namespace) -> tuple[str, bytes]:
    from analyzer.bundle.load import load_bundle

    path = args.target or npm_cache.main_file(args.package, args.version)
    units, _ = load_bundle(path)
    unit = max(units, key=lambda u: len(u.source))
    return f"{path.name}:{unit.name}", unit.source


def cpu() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def parse_some(job: tuple[bytes, slices.Plan, list[int]]) -> dict[str, Any]:
    """Parse slices one tree at a time; the largest resident MiB with a tree alive."""
    from analyzer.javascript.syntax import new_parser

    source, made, indexes = job
    parser, peak, errors, started = new_parser(), resident_mib(), 0, time.process_time()
    for index in indexes:
        tree = slices.parse_slice(parser, source, made, index)
        peak = max(peak, resident_mib())
        errors += tree.root_node.has_error
        del tree
    return {"peak_mib": peak, "errors": errors, "own_cpu_s": time.process_time() - started}


def run_mode(mode: str, source: bytes) -> dict[str, Any]:
    """One timed run in this (fresh) process: `whole`, `one:N`, `all:N` or `par:N`."""
    from analyzer.javascript.syntax import new_parser

    kind, _, count = mode.partition(":")
    plan_info: dict[str, Any] = {}
    if kind != "whole":
        made, plan_info = slice_plan(source, int(count))
        indexes = list(range(len(made.ranges)))
        plan_info["largest_slice"] = max(hi - lo for lo, hi in made.ranges)
    before, wall, spent = resident_mib(), time.perf_counter(), cpu()
    if kind == "whole":
        tree = new_parser().parse(source)
        row = {"peak_mib": resident_mib(), "errors": int(tree.root_node.has_error)}
    elif kind == "one":
        row = parse_some((source, made, indexes))
    elif kind == "all":
        parser = new_parser()
        trees = [slices.parse_slice(parser, source, made, index) for index in indexes]
        row = {"peak_mib": resident_mib(), "errors": sum(t.root_node.has_error for t in trees)}
    else:  # two forked processes, each parsing every other slice one at a time
        with multiprocessing.get_context("fork").Pool(2) as pool:
            halves = pool.map(parse_some, [(source, made, indexes[0::2]), (source, made, indexes[1::2])], chunksize=1)
        row = {"peak_mib": max(h["peak_mib"] for h in halves), "peak_sum_mib": sum(h["peak_mib"] for h in halves),
               "errors": sum(h["errors"] for h in halves),
               "worker_cpu_s": max(h["own_cpu_s"] for h in halves)}
    row.update(wall_s=time.perf_counter() - wall, cpu_s=cpu() - spent, before_mib=before, **plan_info)
    return row


def statement_list(tree: Any, opener: int) -> Any:
    """The program, or the function body opened at `opener`."""
    if opener == -1:
        return tree.root_node
    node = tree.root_node.descendant_for_byte_range(opener, opener + 1)
    while node is not None and not (node.type == "statement_block" and node.start_byte == opener):
        node = node.parent
    return node


def statements(node: Any) -> list[Any]:
    return [child for child in node.named_children if child.type != "comment"]


def next_token(source: bytes, offset: int) -> int:
    """The first byte at or after `offset` that is neither white space nor a comment."""
    skip = re.compile(rb"(?:\s+|//[^\n]*|/\*[\s\S]*?\*/)*")
    return skip.match(source, offset).end()  # type: ignore[union-attr]


WRAPPER = b"(async function*(){", b"\n})"


def wrapped_statements(parser: Any, source: bytes, lo: int, hi: int) -> tuple[Any, list[Any], int]:
    """The slice's bytes parsed inside `(async function*(){ ... })`: its tree, the body's
    statements and the shift back to the unit's offsets."""
    head, tail = WRAPPER
    tree = parser.parse(head + source[lo:hi] + tail)
    body = statement_list(tree, len(head) - 1)
    return tree, statements(body) if body is not None else [], len(head) - lo


def compare(by_start: dict[int, Any], nodes: list[Any], shift: int, walk_all: bool) -> tuple[int, int, int]:
    """Statements compared, walked node by node, and unequal."""
    walked = unequal = 0
    for index, node in enumerate(nodes):
        mine = by_start.get(node.start_byte - shift)
        shallow = mine is not None and (mine.kind_id, mine.end_byte, mine.descendant_count) == (
            node.kind_id, node.end_byte - shift, node.descendant_count)
        deep = walk_all or index % 25 == 0
        walked += shallow and deep
        unequal += mine is None or not shallow or (deep and first_difference(mine, node, shift, shift == 0) is not None)
    return len(nodes), walked, unequal


def check(source: bytes, counts: list[int], full: bool) -> dict[str, Any]:
    """Boundary agreement, the module's check and slice-tree equality against one whole parse."""
    from analyzer.javascript.syntax import new_parser

    tree = new_parser().parse(source)
    started = time.process_time()
    scanned = slices.statement_ends(source)
    scanner_cpu = time.process_time() - started
    made, _ = slice_plan(source, 2)
    opener = slices.PROGRAM if made.braces is None else made.braces[0]
    body = statement_list(tree, opener)
    real = statements(body)
    starts = {node.start_byte for node in real}
    found = {next_token(source, end) for end in scanned.ends[opener]}
    found.discard(body.end_byte - (0 if opener == -1 else 1))
    result: dict[str, Any] = {
        "whole_errors": int(tree.root_node.has_error), "list": body.type, "list_statements": len(real),
        "scanner_cpu_s": round(scanner_cpu, 2), "scanner_boundaries": len(found), "agree": len(found & starts),
        "differ": len(found - starts), "real_starts_missed": len(starts - found), "slices": {}}
    by_start = {node.start_byte: node for node in real}
    whole_count = tree.root_node.descendant_count
    parser, plain = new_parser(), new_parser()
    for count in counts:
        made, _ = slice_plan(source, count)
        totals: dict[str, Any] = {"statements": 0, "walked": 0, "unequal": 0, "slices_with_errors": 0,
                                  "wrapped_unequal": 0, "wrapped_with_errors": 0}
        head = slices.parse_head(parser, source, made)
        parts = []
        for index, (lo, hi) in enumerate(made.ranges):
            part = slices.parse_slice(parser, source, made, index)
            compared, walked, unequal = compare(by_start, statements(part.root_node), 0, full)
            totals["statements"] += compared
            totals["walked"] += walked
            totals["unequal"] += unequal
            totals["slices_with_errors"] += part.root_node.has_error
            parts.append(part)
            wrapped, nodes, shift = wrapped_statements(plain, source, lo, hi)
            totals["wrapped_unequal"] += compare(by_start, nodes, shift, full)[2]
            totals["wrapped_with_errors"] += wrapped.root_node.has_error
            del wrapped
        totals["check"] = slices.check(made, head, parts, whole_count) or "passed"
        del head, parts
        result["slices"][count] = totals
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--package", default="@anthropic-ai/claude-code")
    parser.add_argument("--version", default="2.1.100")
    parser.add_argument("--target", type=pathlib.Path, help="a bundle or a Bun executable")
    parser.add_argument("--slices", default="2,4,8,16")
    parser.add_argument("--full", action="store_true", help="walk every statement in the check")
    parser.add_argument("--skip-check", action="store_true")
    parser.add_argument("--run", help=argparse.SUPPRESS)  # one timed mode, in a child process
    args = parser.parse_args()
    gc.disable()  # as in a JavaScript scan
    name, source = load_unit(args)
    if args.run:
        print(json.dumps(run_mode(args.run, source)))
        return
    counts = [int(count) for count in args.slices.split(",")]
    base = [sys.executable, __file__, "--package", args.package, "--version", args.version]
    base += ["--target", str(args.target)] if args.target else []
    print(f"{name}: {len(source):,} bytes")
    print("| run | slices | largest slice | scanner CPU s | wall s | CPU s | busier worker's CPU s | peak MiB "
          "| errors |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for mode in ["whole"] + [f"{kind}:{count}" for count in counts for kind in ("one", "all", "par")]:
        row = json.loads(subprocess.run([*base, "--run", mode], check=True, capture_output=True).stdout)
        kind, _, count = mode.partition(":")
        peak = f"{row['peak_mib']:,.0f}" + (f" (sum {row['peak_sum_mib']:,.0f})" if "peak_sum_mib" in row else "")
        scanner, worker = row.get("scanner_cpu_s", ""), row.get("worker_cpu_s")
        worker_cpu = "" if worker is None else f"{worker:.2f}"
        print(f"| {kind} | {count or 1} | {row.get('largest_slice', len(source)):,} | {scanner} | "
              f"{row['wall_s']:.2f} | {row['cpu_s']:.2f} | {worker_cpu} | {peak} | {row['errors']} |", flush=True)
    if not args.skip_check:
        print(json.dumps(check(source, counts, args.full), indent=1))


if __name__ == "__main__":
    main()
