"""Roll-ups: a package's single-file build (`dist/tf-converter.js`, d3's `dist/d3.js`) holds its
own modules' code and, often, code copied from other packages, without module wrappers to say so.
A file that holds at least half of the matched functions of `MIN_ROLLED_FILES` other files is a
roll-up (docs/corpus.md, "Matching", roll-ups)."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable

#: a file that rolls up this many other files' code is a roll-up
MIN_ROLLED_FILES = 5
#: a function more packages hold is boilerplate, not any package's code
MAX_PACKAGES = 3

File = tuple[int, int]


def rollups(holders: list[list[tuple[int, int]]],
            describe: Callable[[int, int], tuple[str, int]]) -> dict[File, frozenset[str]]:
    """`holders`: per matched function, its corpus rows (entry, position); `describe(entry,
    position)`: the row's (package, file number). The (entry, file) pairs that are roll-ups, each
    with the packages whose files it rolls up."""
    entries: set[int] = set()
    rows: list[list[tuple[str, File]]] = []
    for found in holders:
        described = [(package, (n, file)) for n, p in found for package, file in (describe(n, p),)]
        packages = len({package for package, _ in described})
        if packages <= MAX_PACKAGES:
            rows.append(described)
        if packages > 1:
            entries.update(n for n, _ in found)
    package_of = {f: package for described in rows for package, f in described}
    size: Counter[File] = Counter()
    shared: Counter[tuple[File, File]] = Counter()
    for described in rows:
        files = sorted({f for _, f in described if f[0] in entries})
        size.update(files)
        if len(files) > 1:
            shared.update((g, f) for g in files for f in files if f != g)
    inside: dict[File, set[File]] = defaultdict(set)
    for (g, f), count in shared.items():
        if count >= max(2, (size[g] + 1) // 2):
            inside[f].add(g)
    out = {}
    for f, held in inside.items():
        rolled = [g for g in sorted(held) if f not in inside.get(g, ())]
        # copies of one file (its other versions, its ESM and UMD builds) roll each other up: one file
        distinct: list[list[File]] = []
        for g in rolled:
            same = next((c for c in distinct if any(g in inside.get(m, ()) and m in inside.get(g, ()) for m in c)),
                        None)
            if same is None:
                distinct.append([g])
            else:
                same.append(g)
        if len(distinct) >= MIN_ROLLED_FILES:
            out[f] = frozenset(package_of[g] for g in rolled)
    return out
