#!/usr/bin/env python3
"""Owners against the truth of a source map.

    python bench/owner_truth.py --truth TRUTH_DIR SCAN_DIR [SCAN_DIR ...]

TRUTH_DIR is an `erratlas scan` of a bundle that ships its source map (every callsite has an
`origin`); the map's path says who wrote each callsite: under `node_modules/<pkg>/` the package,
anywhere else the product. Each SCAN_DIR is a projected scan (`scan --allowlist` or `project`)
of the same bundle or of another release. A callsite of SCAN_DIR is *known* when the truth
scan has a callsite with the same fingerprint whose code is not copied elsewhere in it (same
id when the bundles are the same file). For every SCAN_DIR it prints: owned/total; among known
callsites, how many are owned and how many owned *wrong* (owner or package differs from the
truth); and the wrong ones themselves. `--by-level` splits the owned callsites by the level of
the entry that owns them. Exit status 1 when any owner is wrong.
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from analyzer.sourcemap import package_of

CALLSITE_FILES = ("error-message-callsites.jsonl", "diagnostic-message-callsites.jsonl")
PROJECTION = "error-diagnostic-owner-projection.jsonl"


def records(directory: Path) -> list[dict]:
    return [json.loads(line) for name in CALLSITE_FILES for line in (directory / name).open(encoding="utf-8")]


def truth_of(directory: Path) -> tuple[dict[str, tuple[str, str | None]], dict[str, tuple[str, str | None]]]:
    """(by id, by fingerprint) -> (owner, package) of every callsite the map places."""
    by_id: dict[str, tuple[str, str | None]] = {}
    by_fp: dict[str, tuple[str, str | None]] = {}
    for record in records(directory):
        origin = record.get("origin")
        if not origin:
            continue
        package = package_of(origin["source"])
        verdict = ("Dependency", package) if package else ("Product", None)
        by_id[record["id"]] = verdict
        if record["copies"]["count"] == 1:
            by_fp[record["fingerprint"]] = verdict
    return by_id, by_fp


def score(directory: Path, by_id: dict, by_fp: dict, same_bundle: bool, by_level: bool) -> int:
    rows = {json.loads(line)["id"]: json.loads(line) for line in (directory / PROJECTION).open(encoding="utf-8")}
    total = len(rows)
    owned = sum(1 for row in rows.values() if row["owner"] != "Unresolved")
    known = owned_known = 0
    wrong: list[tuple[str, str, object, object]] = []
    levels: collections.Counter[str] = collections.Counter()
    classes: collections.Counter[tuple[str, str]] = collections.Counter()
    for record in records(directory):
        row = rows[record["id"]]
        truth = by_id.get(record["id"]) if same_bundle else by_fp.get(record["fingerprint"])
        if row["owner"] != "Unresolved":
            levels[row["evidence"]["level"]] += 1
        if truth is None:
            continue
        known += 1
        classes[(truth[0], row["owner"])] += 1
        if row["owner"] == "Unresolved":
            continue
        owned_known += 1
        if (row["owner"], row["package"]) != truth:
            wrong.append((record["id"], record["message"]["comparisonKey"][:60], (row["owner"], row["package"]), truth))
    print(f"{directory}: owned {owned}/{total} ({owned / total:.2%}); known {known}: owned {owned_known}, "
          f"wrong {len(wrong)} ({(owned_known - len(wrong)) / owned_known if owned_known else 1:.4%} right)")
    for (truth, owner), n in sorted(classes.items()):
        print(f"    truth {truth:<10} -> {owner:<10} {n}")
    if by_level:
        print("    owned by level: " + ", ".join(f"{k} {v}" for k, v in sorted(levels.items())))
    for item in wrong[:20]:
        print("    WRONG", *item)
    return len(wrong)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--truth", type=Path, required=True)
    parser.add_argument("--by-level", action="store_true")
    parser.add_argument("scans", type=Path, nargs="+")
    args = parser.parse_args()
    by_id, by_fp = truth_of(args.truth)
    truth_sha = json.loads((args.truth / "error-diagnostic-owner-summary.json").read_text())["inputs"]["bundle"][
        "sha256"
    ]
    wrong = 0
    for directory in args.scans:
        sha = json.loads((directory / "error-diagnostic-owner-summary.json").read_text())["inputs"]["bundle"]["sha256"]
        wrong += score(directory, by_id, by_fp, sha == truth_sha, args.by_level)
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
