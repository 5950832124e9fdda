#!/usr/bin/env python3
"""Owners carried along a chain of releases, against one direct jump from the truth.

    python bench/release_chain.py [--work DIR] [--write-allowlist FILE] [RELEASE ...]

A RELEASE is `VERSION` (cli.js of @anthropic-ai/claude-code) or `linux-x64@VERSION` (the
native build), pinned in tests/support/bundles.toml. The first release must ship its source
map: its scan's `suggest` + `accept --confidence likely` (level auto) is the truth allowlist.
Then, for each next release:

1. `project` it with the truth allowlist alone (the direct jump), and record the coverage;
2. `project` the previous release with the chained allowlist, `diff` previous -> this one, and
   `accept` the carried owners into the chained allowlist, then `project` this release with it.

Every owner whose callsite's code is unchanged since the first release (same fingerprint, one
copy in both) is checked against the first release's map: the `wrong` column must stay 0.
Scans are kept in --work (default ~/.cache/erratlas/chain) and reused. Prints a markdown table;
`--write-allowlist` copies the final chained allowlist there.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPOSITORY / "tests"))
sys.path.insert(0, str(REPOSITORY))

from support import npm_cache

from analyzer.sourcemap import package_of

DEFAULT_CHAIN = [
    "2.1.88", "2.1.90", "2.1.98", "2.1.100", "2.1.105", "2.1.110", "2.1.112",
    "linux-x64@2.1.112", "linux-x64@2.1.120", "linux-x64@2.1.131", "linux-x64@2.1.140", "linux-x64@2.1.150",
    "linux-x64@2.1.160", "linux-x64@2.1.170", "linux-x64@2.1.181", "linux-x64@2.1.190", "linux-x64@2.1.200",
    "linux-x64@2.1.210", "linux-x64@2.1.220", "linux-x64@2.1.229", "linux-x64@2.1.235",
]
REVIEWER = "erratlas release chain"
DAY = "2026-12-01"
#: the product's sources, which the published package does not hold: its map names them ../src
#: and ../vendor from package/cli.js, outside the package root (docs/owners.md)
PRODUCT_SOURCES = ("--product-sources", "../src", "--product-sources", "../vendor")


def erratlas(*args: object, check: bool = True) -> subprocess.CompletedProcess[str]:
    command = [str(Path(sys.executable).parent / "erratlas"), *map(str, args)]
    done = subprocess.run(command, capture_output=True, text=True)
    if check and done.returncode != 0:
        raise SystemExit(f"failed: {' '.join(command)}\n{done.stderr}")
    return done


def bundle(release: str) -> Path:
    if release.startswith("linux-x64@"):
        return npm_cache.main_file("@anthropic-ai/claude-code-linux-x64", release.split("@", 1)[1])
    return npm_cache.main_file("@anthropic-ai/claude-code", release)


def scanned(release: str, work: Path) -> Path:
    out = work / release.replace("@", "-")
    if not (out / "error-diagnostic-owner-summary.json").exists():
        erratlas("scan", bundle(release), "--out", out)
    return out


def owned(stderr: str) -> tuple[int, int]:
    head = stderr.split("owners: ", 1)[1]
    return int(head.split(" of ", 1)[0]), int(head.split(" of ", 1)[1].split(" ", 1)[0])


def truth(directory: Path) -> dict[str, tuple[str, str | None]]:
    out: dict[str, tuple[str, str | None]] = {}
    for name in ("error-message-callsites.jsonl", "diagnostic-message-callsites.jsonl"):
        for line in (directory / name).open(encoding="utf-8"):
            record = json.loads(line)
            if record["origin"] and record["copies"]["count"] == 1:
                package = package_of(record["origin"]["source"])
                out[record["fingerprint"]] = ("Dependency", package) if package else ("Product", None)
    return out


def checked(directory: Path, known: dict[str, tuple[str, str | None]]) -> tuple[int, int]:
    rows = [json.loads(line) for line in (directory / "error-diagnostic-owner-projection.jsonl").open()]
    owned_known = [r for r in rows if r["fingerprint"] in known and r["owner"] != "Unresolved"]
    return len(owned_known), sum(1 for r in owned_known if (r["owner"], r["package"]) != known[r["fingerprint"]])


def truth_allowlist(release: str, work: Path, target: Path, confidence: str = "likely", level: str = "auto",
                    reviewer: str = REVIEWER, day: str = DAY) -> Path:
    """The truth of `release`'s source map, accepted into `target` (replaced)."""
    first = scanned(release, work)
    target.unlink(missing_ok=True)
    erratlas("suggest", first, *PRODUCT_SOURCES)
    erratlas("accept", first, "-a", target, "--reviewer", reviewer, "--confidence", confidence, "--level", level,
             "--on", day)
    return first


def carry(releases: list[str], work: Path, base: Path, chained: Path, confidence: str = "likely",
          reviewer: str = REVIEWER, day: str = DAY) -> tuple[list[str], int]:
    """Carry `chained` (starting as a copy of `base`) along `releases`; the table rows and the
    number of owners the first release's truth contradicts."""
    first = scanned(releases[0], work)
    known = truth(first)
    shutil.copy(base, chained)
    start = owned(erratlas("project", first, "-a", base).stderr)
    rows = [f"| {releases[0]} | {start[1]} | {_percent(start)} | (truth) | | | |"]
    previous, previous_dir = releases[0], first
    total_wrong = 0
    for release in releases[1:]:
        directory = scanned(release, work)
        direct = owned(erratlas("project", directory, "-a", base).stderr)
        erratlas("project", previous_dir, "-a", chained)
        out = work / f"diff-{previous}-{release}".replace("@", "-")
        erratlas("diff", previous_dir, directory, "--out", out, "--old-label", previous, "--new-label", release)
        counts = json.loads((out / "diff.json").read_text())["counts"]
        erratlas("project", directory, "-a", chained)  # carry only what the chain does not own yet
        erratlas("accept", directory, "--suggestions", out / "carried.jsonl", "-a", chained, "--reviewer", reviewer,
                 "--confidence", confidence, "--on", day, "--unowned")
        now = owned(erratlas("project", directory, "-a", chained).stderr)
        good, wrong = checked(directory, known)
        total_wrong += wrong
        pairing = "/".join(str(counts[k]) for k in ("unchanged", "moved", "changed", "added", "removed", "ambiguous"))
        rows.append(f"| {release} | {now[1]} | {_percent(direct)} | {_percent(now)} | {pairing} | {good} | {wrong} |")
        print(rows[-1], file=sys.stderr)
        previous, previous_dir = release, directory
    return rows, total_wrong


TABLE_HEADER = ("| release | callsites | direct jump | chained | unchanged/moved/changed/added/removed/ambiguous vs "
                "previous | owners checked against the truth | wrong |\n|---|---:|---:|---:|---|---:|---:|")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--work", type=Path, default=Path(os.environ.get("ERRATLAS_CACHE", "~/.cache/erratlas"))
                        .expanduser() / "chain")
    parser.add_argument("--write-allowlist", type=Path)
    parser.add_argument("releases", nargs="*", default=DEFAULT_CHAIN)
    args = parser.parse_args()
    work = args.work
    work.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    base, chained = work / "truth.toml", work / "chained.toml"
    truth_allowlist(args.releases[0], work, base)
    rows, total_wrong = carry(args.releases, work, base, chained)
    entries = chained.read_text().count("[[entry]]")
    print(f"Owners from the source map of {args.releases[0]}, carried release by release "
          f"({len(args.releases)} releases, {time.perf_counter() - started:.0f} s, load {os.getloadavg()[0]:.1f}); "
          f"chained allowlist: {entries} entries.\n")
    print(TABLE_HEADER)
    print("\n".join(rows))
    if args.write_allowlist:
        shutil.copy(chained, args.write_allowlist)
    return 1 if total_wrong else 0


def _percent(pair: tuple[int, int]) -> str:
    return f"{pair[0] / pair[1]:.2%}" if pair[1] else "-"


if __name__ == "__main__":
    sys.exit(main())
