"""How well fp1 callsite fingerprints pair across builds, for several anchor limits.

usage: python bench/fingerprint_pairing.py LINUX.js DARWIN.js OLD.js NEW.js [--limits 256,512,...]
                                           [--explain N --explain-limit L]

LINUX.js and DARWIN.js are two platform builds of one release (every minified name differs,
a few platform branches differ); OLD.js and NEW.js are two consecutive releases. Each file is
scanned once (`analyzer.scan.scan`); its units are then parsed once more and, for every limit,
only the identity part is recomputed (`anchor_of`, `Normalizer`, `callsite_fingerprints`) from
the callsites' offsets, so a limit costs well under a second instead of a rescan. Limits are
`ANCHOR_LIMIT` values: syntax nodes (`Node.descendant_count`); the last default means "always
the innermost function". The scans need about 1.3 GB each, one file at a time.

Columns:
  n          callsites per build (linux/darwin)
  1:1        callsites whose fingerprint occurs exactly once in each platform build, over
             max(n_linux, n_darwin); then, per kind (error, diagnostic), the share of the linux
             callsites of that kind that pair so
  ord>0      callsites (linux/darwin) whose base hash collided, so they needed a non-zero
             scan ordinal: a measure of weak (too small, non-distinctive) anchors
  weak       of those, the ones that their whole innermost function would have told apart:
             collisions caused by a bounded anchor, not by an exact duplicate function
  fn anchor  share of linux callsites whose anchor is their whole innermost function
  reappear   share of OLD fingerprints that occur in NEW
  id ms/file time of the callsites' identity part (anchor choice, normalization with an empty
             cache, hashing), mean over the 4 files; the scan also normalizes each callsite's
             innermost function for fp1f, which shares the cache when the anchor is the function

--explain N prints, for each pair (LINUX -> DARWIN, OLD -> NEW) at --explain-limit, the causes
of non-pairing, then for N unpaired callsites of the first build the token diff between the
normalized text of their anchor and of the anchor of the callsite of the second build at the
same rank among callsites with the same kind and message (the likely counterpart).
"""

from __future__ import annotations

import argparse
import dataclasses
import difflib
import gc
import random
import re
import sys
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPOSITORY))  # run as a plain script, without installing erratlas

from tree_sitter import Node

from analyzer import identity
from analyzer.javascript import normalize
from analyzer.javascript.syntax import ancestors, parse
from analyzer.scan import scan, scan_input

HUGE = 1 << 40  # "always the innermost function"
DEFAULT_LIMITS = (64, 128, 256, 512, 1024, 2048, 4096, 8192, HUGE)  # syntax nodes


@dataclass
class Sample:
    """What --explain needs about one callsite at the explain limit."""

    kind: str
    key: str
    offset: int
    anchor_type: str
    anchor_size: int
    normalized: bytes


@dataclass
class Build:
    name: str
    kinds: list[str]
    #: digest of each callsite's innermost function (b"" at module level)
    functions: list[bytes]
    #: limit -> how many anchors were the function / bounded (node or window) / the callsite
    anchors: dict[int, Counter[str]]
    #: limit -> identity inputs of every callsite (scan order)
    inputs: dict[int, list[identity.IdentityInput]]
    #: limit -> seconds spent computing anchors and digests
    seconds: dict[int, float]
    samples: list[Sample]


def _call_node(root: Node, start: int, end: int) -> Node:
    node = root.descendant_for_byte_range(start, end)
    while node is not None and not (
        node.start_byte == start and node.end_byte == end and node.type in ("call_expression", "new_expression")
    ):
        node = node.parent
    if node is None:
        raise SystemExit(f"no call node at {start}..{end}")
    return node


def load(path: Path, limits: list[int], explain_limit: int | None) -> Build:
    result = scan(scan_input(path), None)
    kinds: list[str] = []
    functions: list[bytes] = []
    anchors: dict[int, Counter[str]] = {limit: Counter() for limit in limits}
    inputs: dict[int, list[identity.IdentityInput]] = {limit: [] for limit in limits}
    seconds = dict.fromkeys(limits, 0.0)
    samples: list[Sample] = []
    for unit_facts in result.units:
        unit = unit_facts.unit
        if not unit_facts.sites:
            continue
        tree = parse(unit.source)
        nodes = [_call_node(tree.root_node, s.offset, s.end_offset) for s in unit_facts.sites]
        chains = [ancestors(node, tree.root_node) for node in nodes]
        for limit in limits:
            normalizer = normalize.Normalizer(unit.source)  # fresh cache: time the full cost
            started = time.perf_counter()
            for site, node, chain in zip(unit_facts.sites, nodes, chains):
                anchor = normalize.anchor_of(node, chain, limit, normalizer.siblings)
                anchors[limit][_anchor_class(anchor, node, chain)] += 1
                inputs[limit].append(
                    dataclasses.replace(
                        site.identity, anchor=normalizer.digest(anchor), anchor_slot=(unit.name, anchor.start_byte)
                    )
                )
            seconds[limit] += time.perf_counter() - started
            if limit == explain_limit:
                for site, node, chain in zip(unit_facts.sites, nodes, chains):
                    anchor = normalize.anchor_of(node, chain, limit, normalizer.siblings)
                    samples.append(
                        Sample(
                            site.kind,
                            site.identity.comparison_key,
                            site.offset,
                            anchor.type,
                            anchor.end_byte - anchor.start_byte,
                            normalizer.normalized(anchor),
                        )
                    )
        kinds.extend(site.kind for site in unit_facts.sites)
        functions.extend(site.function_digest or b"" for site in unit_facts.sites)
        del tree, nodes, chains
    del result
    gc.collect()
    return Build(path.name, kinds, functions, anchors, inputs, seconds, samples)


def fingerprints(build: Build, limit: int) -> tuple[list[str], float]:
    started = time.perf_counter()
    fps = identity.callsite_fingerprints(build.inputs[limit])
    return fps, time.perf_counter() - started


def _anchor_class(anchor: object, node: Node, chain: list[Node]) -> str:
    function = normalize.innermost_function(chain)
    if function is not None and getattr(anchor, "id", None) == function.id:
        return "function"
    if getattr(anchor, "id", None) == node.id:
        return "callsite"
    return "bounded"


def scan_ordinals(build: Build, limit: int) -> tuple[int, int]:
    """Callsites that needed a non-zero scan ordinal (their pre-ordinal hash collided), and
    how many of those sit in a function that is not an exact duplicate: weak anchors."""
    hashes = identity.pre_scan_hashes(build.inputs[limit])
    distinct = len(set(hashes))
    return len(hashes) - distinct, len(set(zip(hashes, build.functions))) - distinct


def pairing(a: list[str], b: list[str], kinds: list[str]) -> tuple[float, dict[str, float]]:
    count_a, count_b = Counter(a), Counter(b)
    paired = [fp for fp in a if count_a[fp] == 1 and count_b[fp] == 1]
    share = len(paired) / max(len(a), len(b))
    per_kind: dict[str, float] = {}
    paired_set = set(paired)
    for kind in sorted(set(kinds)):
        total = sum(1 for k in kinds if k == kind)
        hits = sum(1 for fp, k in zip(a, kinds) if k == kind and fp in paired_set)
        per_kind[kind] = hits / total if total else 0.0
    return share, per_kind


def reappear(old: list[str], new: list[str]) -> float:
    present = set(new)
    return sum(1 for fp in old if fp in present) / len(old)


def label(limit: int) -> str:
    return "function" if limit >= HUGE else str(limit)


def explain(first: Build, second: Build, fps_a: list[str], fps_b: list[str], count: int, seed: int) -> None:
    """Why callsites of the first build have no one-to-one partner in the second."""
    count_a, count_b = Counter(fps_a), Counter(fps_b)
    # counterparts: the i-th callsite with (kind, key) in `first` <-> the i-th in `second`
    groups_b: dict[tuple[str, str], list[int]] = {}
    for i, s in enumerate(second.samples):
        groups_b.setdefault((s.kind, s.key), []).append(i)
    seen: Counter[tuple[str, str]] = Counter()
    unpaired: list[tuple[int, int | None]] = []
    for i, s in enumerate(first.samples):
        group = (s.kind, s.key)
        rank = seen[group]
        seen[group] += 1
        if count_a[fps_a[i]] == 1 and count_b[fps_a[i]] == 1:
            continue
        others = groups_b.get(group, [])
        unpaired.append((i, others[rank] if rank < len(others) else None))
    print(f"{len(unpaired)} unpaired callsites; {min(count, len(unpaired))} samples:")
    reasons: Counter[str] = Counter()
    for i, j in unpaired:
        reasons[_reason(first, second, i, j)] += 1
    for reason, n in reasons.most_common():
        print(f"  {n:6d}  {reason}")
    for i, j in random.Random(seed).sample(unpaired, min(count, len(unpaired))):
        s = first.samples[i]
        print(f"\n--- {first.name} @{s.offset} {s.kind} {s.key[:60]!r} anchor={s.anchor_type}/{s.anchor_size}B "
              f"count={count_a[fps_a[i]]} in first, {count_b[fps_a[i]]} in second")
        if j is None:
            print("    no counterpart with the same kind and message")
            continue
        t = second.samples[j]
        print(f"+++ {second.name} @{t.offset} anchor={t.anchor_type}/{t.anchor_size}B")
        if s.normalized == t.normalized:
            print("    identical normalized anchors (ordinal / duplicate issue)")
            continue
        for line in token_diff(s.normalized, t.normalized):
            print(f"    {line}")


_TOKEN = re.compile(rb"\x00\d+\x00|\w+|\s+|.", re.DOTALL)


def token_diff(a: bytes, b: bytes, ops: int = 6, width: int = 100) -> list[str]:
    """The differing tokens of two normalized texts (names shown as §N§), compactly."""
    ta, tb = _TOKEN.findall(a), _TOKEN.findall(b)
    def show(tokens: list[bytes]) -> str:
        return b"".join(tokens).decode("utf-8", "replace").replace("\x00", "\u00a7")[:width]

    out = []
    for op, a0, a1, b0, b1 in difflib.SequenceMatcher(None, ta, tb, autojunk=False).get_opcodes():
        if op != "equal":
            out.append(f"{op}: -{show(ta[max(0, a0 - 3):a1 + 1])!r} +{show(tb[max(0, b0 - 3):b1 + 1])!r}")
    return out[:ops] + ([f"... {len(out) - ops} more"] if len(out) > ops else [])


def _reason(first: Build, second: Build, i: int, j: int | None) -> str:
    if j is None:
        return "no counterpart with the same kind and message"
    s, t = first.samples[i], second.samples[j]
    if s.normalized != t.normalized:
        ta, tb = _TOKEN.findall(s.normalized), _TOKEN.findall(t.normalized)
        changes = set()
        for op, a0, a1, b0, b1 in difflib.SequenceMatcher(None, ta, tb, autojunk=False).get_opcodes():
            if op != "equal":
                changes.add(f"{b''.join(ta[a0:a1])[:30]!r}->{b''.join(tb[b0:b1])[:30]!r}")
        return "anchor differs: " + " ".join(sorted(changes)[:3])
    return "same anchor text, fingerprint differs or repeats (ordinal/duplicate)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("linux", type=Path)
    parser.add_argument("darwin", type=Path)
    parser.add_argument("old", type=Path)
    parser.add_argument("new", type=Path)
    parser.add_argument("--limits", default=",".join(map(str, DEFAULT_LIMITS)))
    parser.add_argument("--explain", type=int, default=0)
    parser.add_argument("--explain-limit", type=int, default=normalize.ANCHOR_LIMIT)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    limits = [int(x) for x in args.limits.split(",")]
    explain_limit = args.explain_limit if args.explain else None
    if explain_limit is not None and explain_limit not in limits:
        limits.append(explain_limit)
    builds = []
    for path in (args.linux, args.darwin, args.old, args.new):
        started = time.perf_counter()
        builds.append(load(path, limits, explain_limit))
        print(f"scanned {path.name}: {len(builds[-1].kinds)} callsites, {time.perf_counter() - started:.1f}s",
              file=sys.stderr)
    linux, darwin, old, new = builds
    print(f"fingerprint {identity.FP_VERSION} (ANCHOR_LIMIT={normalize.ANCHOR_LIMIT}); "
          f"linux={linux.name} darwin={darwin.name} old={old.name} new={new.name}")
    print(f"{'limit':>9} {'n linux/darwin':>15} {'1:1':>7} {'1:1 error':>9} {'1:1 diag':>9} "
          f"{'ord>0 l/d':>11} {'weak l/d':>9} {'fn anchor':>9} {'reappear':>9} {'id ms/file':>11}")
    explained: list[list[str]] = []
    for limit in limits:
        fps = []
        identity_seconds = 0.0
        for build in builds:
            f, s = fingerprints(build, limit)
            fps.append(f)
            identity_seconds += s + build.seconds[limit]
        for build, f in zip(builds, fps):
            assert len(set(f)) == len(f), f"duplicate fingerprints in {build.name} at limit {limit}"
        share, per_kind = pairing(fps[0], fps[1], linux.kinds)
        (ord_l, weak_l), (ord_d, weak_d) = scan_ordinals(linux, limit), scan_ordinals(darwin, limit)
        share_fn = linux.anchors[limit]["function"] / len(linux.kinds)
        print(f"{label(limit):>9} {f'{len(linux.kinds)}/{len(darwin.kinds)}':>15} {share:7.2%} "
              f"{per_kind.get('error', 0):9.2%} {per_kind.get('diagnostic', 0):9.2%} "
              f"{f'{ord_l}/{ord_d}':>11} {f'{weak_l}/{weak_d}':>9} {share_fn:9.1%} "
              f"{reappear(fps[2], fps[3]):9.2%} {identity_seconds * 1000 / 4:11.0f}")
        if limit == explain_limit:
            explained = fps
    if explain_limit is not None:
        print(f"\n== {linux.name} -> {darwin.name}, limit {label(explain_limit)}")
        explain(linux, darwin, explained[0], explained[1], args.explain, args.seed)
        print(f"\n== {old.name} -> {new.name}, limit {label(explain_limit)}")
        explain(old, new, explained[2], explained[3], args.explain, args.seed)

if __name__ == "__main__":
    main()
