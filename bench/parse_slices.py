"""Parsing one unit in slices (issue 22): statement boundaries found by a byte-level scanner,
each slice parsed as its own tree, sequentially or in 2 processes, against the whole-unit parse
(docs/performance.md, "Parsing in slices").

usage: python bench/parse_slices.py [--package NAME --version V | --target PATH] [--slices 2,4,8,16]
                                    [--full] [--skip-check]

Loads the largest unit as the scan does (`analyzer.bundle.load.load_bundle`). The scanner tracks
strings, template literals (and their `${}`), regexes, comments and bracket depth, and lists the
byte after every `;` that ends a statement of the program or of a function body at depth 2 (a
Bun CJS wrapper); the statement list holding most of them is sliced. Each timed run is a fresh
process: the whole parse (the floor); N slices in one process, one tree alive at a time and all
alive; N slices in 2 forked processes. The check parses the whole unit once more and compares:
the scanner's boundaries against the real statement starts, and each slice's statements (parsed
with `included_ranges`, so offsets are the unit's) against the whole tree's, node by node
(`--full`: every statement; default: every statement's kind, range and node count, and a full
walk of every 25th statement).
"""

from __future__ import annotations

import argparse
import gc
import itertools
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

SPECIAL = re.compile(rb"[\"'`/(){}\[\];]")
STRING = {ord('"'): re.compile(rb'"(?:[^"\\\n]|\\[\s\S])*"'), ord("'"): re.compile(rb"'(?:[^'\\\n]|\\[\s\S])*'")}
TEMPLATE_TEXT = re.compile(rb"(?:[^`\\$]|\\[\s\S]|\$(?!\{))*")
REGEX = re.compile(rb"/(?:[^/\\\[\n]|\\.|\[(?:[^\]\\\n]|\\.)*\])+/[A-Za-z]*")
LINE_COMMENT = re.compile(rb"//[^\n]*")
BLOCK_COMMENT = re.compile(rb"/\*[\s\S]*?\*/")
TRAILING_WORD = re.compile(rb"[A-Za-z_$][\w$]*$")
CONTINUES = re.compile(rb"\s*(?:else|while)\b")  # `if(a)b();else`, `do b();while(c)`: not a boundary
KEYWORDS_BEFORE_REGEX = {b"return", b"typeof", b"case", b"do", b"else", b"in", b"of", b"new", b"delete",
                         b"void", b"throw", b"yield", b"await", b"instanceof"}
OPENERS = {ord("("), ord("["), ord("{")}
CLOSERS = {ord(")"), ord("]"), ord("}")}


def resident_mib() -> float:
    with open("/proc/self/statm", "rb") as statm:
        return int(statm.read().split()[1]) * resource.getpagesize() / 2**20


def regex_allowed(source: bytes, last_end: int, last_special: int, at: int) -> bool:
    """Whether a `/` at `at` starts a regex, from the token before it."""
    gap = source[last_end:at].rstrip()
    if not gap:
        return last_special not in (ord(")"), ord("]"), ord('"'), ord("'"), ord("`"), ord("/"))
    if gap[-1:].isalnum() or gap[-1:] in (b"_", b"$"):
        word = TRAILING_WORD.search(gap)
        return word is not None and word.group() in KEYWORDS_BEFORE_REGEX
    return gap[-1:] not in (b".",)


def statement_ends(source: bytes) -> dict[int, list[int]]:
    """The byte after each statement-ending `;` at depth 0 to 2, keyed by the opener of its list
    (-1: the program). Iterative; one regex search per special byte."""
    stack: list[tuple[int, int]] = []  # (opener byte, offset); `$` marks a template's `${`
    ends: dict[int, list[int]] = {}
    pos, last_end, last_special, size = 0, 0, ord(";"), len(source)
    while True:
        found = SPECIAL.search(source, pos)
        if found is None:
            break
        at = found.start()
        byte = source[at]
        if byte in STRING:
            matched = STRING[byte].match(source, at)
            pos = matched.end() if matched else at + 1
        elif byte == ord("`"):
            pos = template_text(source, at + 1, stack)
        elif byte == ord("/"):
            following = source[at + 1: at + 2]
            if following == b"/":
                pos = LINE_COMMENT.match(source, at).end()  # type: ignore[union-attr]
                continue  # comments leave the previous token as it was
            if following == b"*":
                comment = BLOCK_COMMENT.match(source, at)
                pos = comment.end() if comment else size
                continue
            matched = REGEX.match(source, at) if regex_allowed(source, last_end, last_special, at) else None
            pos = matched.end() if matched else at + 1
        elif byte in OPENERS:
            stack.append((byte, at))
            pos = at + 1
        elif byte in CLOSERS:
            opener = stack.pop()[0] if stack else 0
            # the `}` of a template's `${` leads back into its text
            pos = template_text(source, at + 1, stack) if opener == ord("$") else at + 1
        else:  # `;`
            pos = at + 1
            if len(stack) <= 2 and not CONTINUES.match(source, pos):
                ends.setdefault(stack[-1][1] if stack else -1, []).append(pos)
        last_end, last_special = pos, byte
    return ends


def template_text(source: bytes, at: int, stack: list[tuple[int, int]]) -> int:
    """Skip a template's text from `at`; return the offset after its closing backtick, or after
    a `${` (pushed on the stack)."""
    end = TEMPLATE_TEXT.match(source, at).end()  # type: ignore[union-attr]
    if source[end: end + 2] == b"${":
        stack.append((ord("$"), end))
        return end + 2
    return end + 1


def slice_plan(source: bytes, count: int) -> tuple[int, int, list[int], dict[str, Any]]:
    """The statement list to slice (start, end), its `count - 1` cut offsets nearest to equal
    parts, and the scanner's figures."""
    started = time.process_time()
    ends = statement_ends(source)
    spent = time.process_time() - started
    opener, boundaries = max(ends.items(), key=lambda item: len(item[1]))
    start = 0 if opener == -1 else opener + 1
    stop = len(source) if opener == -1 else list_end(source, boundaries[-1])
    cuts: list[int] = []
    for part in range(1, count):
        goal = start + (stop - start) * part // count
        cut = min(boundaries, key=lambda offset: abs(offset - goal))
        if cut not in cuts and start < cut < stop:
            cuts.append(cut)
    info = {"scanner_cpu_s": round(spent, 2), "list_opener": opener, "boundaries": len(boundaries)}
    return start, stop, sorted(cuts), info


def list_end(source: bytes, last_boundary: int) -> int:
    """The end of a wrapper body: its closing `}` is the last one in the source."""
    return source.rindex(b"}")


def ranges_of(start: int, stop: int, cuts: list[int]) -> list[tuple[int, int]]:
    edges = [start, *cuts, stop]
    return list(itertools.pairwise(edges))


def parse_range(parser: Any, source: bytes, lo: int, hi: int) -> Any:
    from tree_sitter import Point, Range

    def point(offset: int) -> Point:
        row = source.count(b"\n", 0, offset)
        return Point(row, offset - (source.rfind(b"\n", 0, offset) + 1))

    parser.included_ranges = [Range(point(lo), point(hi), lo, hi)]
    return parser.parse(source)


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


def parse_some(job: tuple[bytes, list[tuple[int, int]]]) -> dict[str, Any]:
    """Parse ranges one tree at a time; the largest resident MiB with a tree alive."""
    from analyzer.javascript.syntax import new_parser

    source, ranges = job
    parser, peak, errors, started = new_parser(), resident_mib(), 0, time.process_time()
    for lo, hi in ranges:
        tree = parse_range(parser, source, lo, hi)
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
        start, stop, cuts, plan_info = slice_plan(source, int(count))
        ranges = ranges_of(start, stop, cuts)
        plan_info["largest_slice"] = max(hi - lo for lo, hi in ranges)
    before, wall, spent = resident_mib(), time.perf_counter(), cpu()
    if kind == "whole":
        tree = new_parser().parse(source)
        row = {"peak_mib": resident_mib(), "errors": int(tree.root_node.has_error)}
    elif kind == "one":
        row = parse_some((source, ranges))
    elif kind == "all":
        parser = new_parser()
        trees = [parse_range(parser, source, lo, hi) for lo, hi in ranges]
        row = {"peak_mib": resident_mib(), "errors": sum(t.root_node.has_error for t in trees)}
    else:  # two forked processes, each parsing every other slice one at a time
        with multiprocessing.get_context("fork").Pool(2) as pool:
            halves = pool.map(parse_some, [(source, ranges[0::2]), (source, ranges[1::2])], chunksize=1)
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


def same_subtree(whole: Any, part: Any, shift: int = 0) -> bool:
    """Every node's kind and byte range equal (`part`'s moved back by `shift`), walked in step."""
    left, right = whole.walk(), part.walk()
    while True:
        a, b = left.node, right.node
        if (a.kind_id, a.start_byte, a.end_byte, a.is_missing) != (
                b.kind_id, b.start_byte - shift, b.end_byte - shift, b.is_missing):
            return False
        if left.goto_first_child():
            if not right.goto_first_child():
                return False
            continue
        if right.goto_first_child():
            return False
        if left.node == whole:  # a leaf statement
            return True
        while not left.goto_next_sibling():
            if right.goto_next_sibling() or not left.goto_parent():
                return False
            right.goto_parent()
            if left.node == whole:
                return True
        if not right.goto_next_sibling():
            return False


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
        unequal += not shallow or (deep and not same_subtree(mine, node, shift))
    return len(nodes), walked, unequal


def check(source: bytes, counts: list[int], full: bool) -> dict[str, Any]:
    """Boundary agreement and slice-tree equality against one whole parse."""
    from analyzer.javascript.syntax import new_parser

    tree = new_parser().parse(source)
    ends = statement_ends(source)
    opener = max(ends, key=lambda key: len(ends[key]))
    body = statement_list(tree, opener)
    real = statements(body)
    starts = {node.start_byte for node in real}
    found = {next_token(source, end) for end in ends[opener]}
    found.discard(body.end_byte - (0 if opener == -1 else 1))
    result: dict[str, Any] = {
        "whole_errors": int(tree.root_node.has_error), "list": body.type, "list_statements": len(real),
        "scanner_boundaries": len(found), "agree": len(found & starts), "differ": len(found - starts),
        "real_starts_missed": len(starts - found), "slices": {}}
    by_start = {node.start_byte: node for node in real}
    parser, plain = new_parser(), new_parser()
    for count in counts:
        start, stop, cuts, _ = slice_plan(source, count)
        totals = {"statements": 0, "walked": 0, "unequal": 0, "slices_with_errors": 0,
                  "wrapped_unequal": 0, "wrapped_with_errors": 0}
        for lo, hi in ranges_of(start, stop, cuts):
            part = parse_range(parser, source, lo, hi)
            compared, walked, unequal = compare(by_start, statements(part.root_node), 0, full)
            totals["statements"] += compared
            totals["walked"] += walked
            totals["unequal"] += unequal
            totals["slices_with_errors"] += part.root_node.has_error
            del part
            wrapped, nodes, shift = wrapped_statements(plain, source, lo, hi)
            totals["wrapped_unequal"] += compare(by_start, nodes, shift, full)[2]
            totals["wrapped_with_errors"] += wrapped.root_node.has_error
            del wrapped
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
