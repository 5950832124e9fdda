"""The inventory of any JavaScript bundle against ast-grep, site by site.

usage: python bench/inventory_vs_astgrep.py [--erratlas CMD] [--cache] [--min-kb N] [--max-mb N] [FILE ...]

tests/test_real_bundles.py checks the Claude Code releases so; this runs the same comparison on
any bundle: each FILE (with `--cache`, every `.js`, `.cjs` and `.mjs` file of the npm cache
`~/.cache/erratlas/npm` between `--min-kb` and `--max-mb`) is scanned by the installed
`erratlas scan`, and searched by `ast-grep scan` for `C($$$A)` and `new C` of each error
constructor of the default rules and for `L($$$A)` of the logger erratlas detected.

ast-grep matches every call syntactically; erratlas counts the calls whose callee resolves to
the global binding (the logger's: to its declaration). The definitions agree once the calls
erratlas resolved to a local binding are removed, so for each constructor and form, and for the
logger: erratlas's sites are among ast-grep's, and ast-grep's other sites are as many as the
summary's `shadowed` count for that name (both forms together). Where the parser recovered, a
site whose facts cannot be read is left out of the inventory (the summary's `leftOut`): there,
ast-grep's other sites may also be those.

Prints one row per bundle and the totals; exit 1 when a bundle disagrees.
"""

from __future__ import annotations

import argparse
import json
import pathlib
import shutil
import subprocess
import sys
import tempfile
import tomllib
from typing import Any

# the measuring kit of the JavaScript benchmark (this script's directory is on sys.path)
from scan_vs_astgrep import find_command

REPOSITORY = pathlib.Path(__file__).resolve().parent.parent
SUMMARY = "error-diagnostic-owner-summary.json"
CONSTRUCTORS = tomllib.loads((REPOSITORY / "analyzer/rules/javascript.toml").read_text())["errors"]["constructors"]


def ast_grep_sites(ast_grep: str, bundle: pathlib.Path, patterns: dict[str, str]) -> dict[str, set[int]]:
    """Start offsets of each pattern's matches."""
    rules = "\n---\n".join(f"id: {rule}\nlanguage: javascript\nrule:\n  pattern: {json.dumps(pattern)}"
                           for rule, pattern in patterns.items())
    found: dict[str, set[int]] = {rule: set() for rule in patterns}
    done = subprocess.run([ast_grep, "scan", "--inline-rules", rules, "--json=stream", str(bundle)],
                          capture_output=True, check=False)
    if done.returncode not in (0, 1):
        raise SystemExit(f"ast-grep on {bundle}: exit {done.returncode}: {done.stderr.decode()[-300:]}")
    for line in done.stdout.splitlines():
        match = json.loads(line)
        found[match["ruleId"]].add(match["range"]["byteOffset"]["start"])
    return found


def records(out: pathlib.Path, name: str) -> list[dict[str, Any]]:
    path = out / name
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def compare(erratlas: str, ast_grep: str, bundle: pathlib.Path, scratch: pathlib.Path) -> dict[str, Any]:
    """One bundle: erratlas's sites against ast-grep's, by constructor and form and for the logger."""
    out = scratch / "out"
    shutil.rmtree(out, ignore_errors=True)
    done = subprocess.run([erratlas, "scan", str(bundle), "--out", str(out)], capture_output=True, text=True,
                          check=False)
    if done.returncode != 0:
        return {"bundle": bundle, "error": done.stderr.strip().splitlines()[-1:] or [f"exit {done.returncode}"]}
    summary = json.loads((out / SUMMARY).read_text())
    (unit,) = summary["shadowed"]  # a JavaScript file is one unit
    shadowed = summary["shadowed"][unit]
    logger = next((entry["name"] for entry in summary["loggers"] if entry["unit"] == unit), None)
    regions = summary["errorRegions"]["count"]
    left_out = summary["leftOut"]["byKind"]
    copy = scratch / "bundle.js"  # ast-grep skips files its ignore rules name; a copy of its own is read
    shutil.copyfile(bundle, copy)
    # `new C` matches `new C(...)` and `new C` without arguments, which constructs as well
    patterns = {f"{form}-{c}": (f"new {c}" if form == "new" else f"{c}($$$A)")
                for c in CONSTRUCTORS for form in ("call", "new")}
    if logger:
        patterns["logger"] = f"{logger}($$$A)"
    oracle = ast_grep_sites(ast_grep, copy, patterns)
    errors = records(out, "error-message-callsites.jsonl")
    diagnostics = records(out, "diagnostic-message-callsites.jsonl")
    problems: list[str] = []

    def unexplained(others: int, shadows: int, kind: str) -> bool:
        return others != shadows if not left_out[kind] else not shadows <= others <= shadows + left_out[kind]

    ours_total = oracle_total = 0
    for constructor in CONSTRUCTORS:
        local = 0
        for form in ("call", "new"):
            ours = {r["offset"] for r in errors if r["constructor"] == constructor and r["form"] == form}
            theirs = oracle[f"{form}-{constructor}"]
            if not ours <= theirs:
                problems.append(f"{form} {constructor}: erratlas only at {sorted(ours - theirs)[:5]}")
            local += len(theirs - ours)
            ours_total += len(ours)
            oracle_total += len(theirs)
        if unexplained(local, shadowed.get(constructor, 0), "error"):
            problems.append(f"{constructor}: ast-grep's other sites {local}, shadowed {shadowed.get(constructor, 0)}")
    if logger:
        ours = {r["offset"] for r in diagnostics}
        theirs = oracle["logger"]
        if not ours <= theirs:
            problems.append(f"logger {logger}: erratlas only at {sorted(ours - theirs)[:5]}")
        if unexplained(len(theirs - ours), shadowed.get(logger, 0), "diagnostic"):
            problems.append(f"logger {logger}: ast-grep's other sites {len(theirs - ours)}, "
                            f"shadowed {shadowed.get(logger, 0)}")
        ours_total += len(ours)
        oracle_total += len(theirs)
    return {"bundle": bundle, "size": bundle.stat().st_size, "ours": ours_total, "oracle": oracle_total,
            "logger": logger, "regions": regions, "left out": sum(left_out.values()), "problems": problems}


def cached(minimum: int, maximum: int) -> list[pathlib.Path]:
    root = pathlib.Path.home() / ".cache/erratlas/npm"
    found = [p for suffix in ("js", "cjs", "mjs") for p in root.glob(f"*/package/**/*.{suffix}")]
    return sorted(p for p in found if p.is_file() and minimum <= p.stat().st_size <= maximum)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="*", type=pathlib.Path)
    parser.add_argument("--cache", action="store_true", help="every JavaScript file of the npm cache")
    parser.add_argument("--min-kb", type=int, default=200)
    parser.add_argument("--max-mb", type=int, default=20)
    parser.add_argument("--erratlas", default=None)
    parser.add_argument("--ast-grep", default=None)
    args = parser.parse_args(argv)
    bundles = list(args.files) + (cached(args.min_kb * 1000, args.max_mb * 10**6) if args.cache else [])
    if not bundles:
        parser.error("no bundle: give FILEs or --cache")
    erratlas, ast_grep = find_command("erratlas", args.erratlas), find_command("ast-grep", args.ast_grep)
    disagreeing = failed = 0
    print("| bundle | KB | erratlas sites | ast-grep sites | error regions | left out | logger | agree |")
    print("|---|---:|---:|---:|---:|---:|---|---|")
    with tempfile.TemporaryDirectory(prefix="erratlas-inventory-") as scratch:
        for bundle in bundles:
            row = compare(erratlas, ast_grep, bundle, pathlib.Path(scratch))
            name = str(bundle).split("/npm/")[-1]
            if "error" in row:
                failed += 1
                print(f"| {name} | | | | | | | scan failed: {row['error']} |", flush=True)
                continue
            problems = row["problems"]
            disagreeing += bool(problems)
            print(f"| {name} | {int(row['size']) // 1000:,} | {row['ours']:,} | {row['oracle']:,} "
                  f"| {row['regions']} | {row['left out']} "
                  f"| {row['logger'] or '-'} | {'yes' if not problems else '; '.join(problems)} |", flush=True)
    plural = "s" if len(bundles) != 1 else ""
    print(f"\n{len(bundles)} bundle{plural}: {len(bundles) - disagreeing - failed} agree, {disagreeing} disagree, "
          f"{failed} not scanned")
    return 1 if disagreeing or failed else 0


if __name__ == "__main__":
    sys.exit(main())
