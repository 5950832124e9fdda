"""Check that this checkout's verbs that read a scan directory say and write what another revision's do.

usage: python bench/verbs_identical.py [--base REV] [--only NAME ...]

Runs on the scan directories `bench/outputs_identical.py` keeps for the base revision (run it
first: `$ERRATLAS_CACHE/outputs/<commit>/<target>`). Each verb (`sarif` in its selections, with
`--flow`, `--baseline` and `--bundle`; `gate` as text, github and sarif; `explain` of a callsite and
a handler; `diff`; `project`; `suggest`) runs on a fresh copy of the directory with the base's tree
and with this checkout's, from the repository root; exit status, stdout, stderr, the files it
writes and (for `project` and `suggest`) the directory after it are compared byte for byte.
Prints a markdown table with each side's CPU (user + system of the child) and exits 1 when
anything differs.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import orjson

REPOSITORY = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPOSITORY / "bench"))

from outputs_identical import TARGETS, cache_root, commit_of, exported, files_of, target_input

SUMMARY = "error-diagnostic-owner-summary.json"


def erratlas(tree: Path, arguments: list[str]) -> tuple[int, bytes, bytes, float]:
    """`erratlas ARGUMENTS` with `tree`'s analyzer package, from the repository root."""
    run = (f"import analyzer; assert analyzer.__file__.startswith({str(tree.resolve()) + os.sep!r}); "
           "from analyzer.cli import main; main()")
    environment = {**os.environ, "PYTHONPATH": str(tree), "COLUMNS": "200"}
    environment.pop("ERRATLAS_TRACE", None)
    before = os.times()
    done = subprocess.run([sys.executable, "-P", "-c", run, *arguments], cwd=REPOSITORY, env=environment,
                          capture_output=True, check=False)
    after = os.times()
    cpu = after.children_user - before.children_user + after.children_system - before.children_system
    return done.returncode, done.stdout, done.stderr, cpu


def commands(directory: Path, bundle: Path) -> list[tuple[str, list[str], bool]]:
    """(label, arguments with {D} the directory and {O} a scratch directory, whether it writes D)."""
    first = orjson.loads((directory / "error-message-callsites.jsonl").read_bytes().split(b"\n", 1)[0])
    last = orjson.loads((directory / "error-message-callsites.jsonl").read_bytes().strip().rsplit(b"\n", 1)[-1])
    baseline = str(directory / SUMMARY)
    made = [
        ("sarif", ["sarif", "{D}"], False),
        ("sarif all", ["sarif", "{D}", "--results", "all"], False),
        ("sarif new", ["sarif", "{D}", "--results", "new", "--baseline", baseline], False),
        ("sarif --out", ["sarif", "{D}", "--out", "{O}/log.sarif"], False),
        ("sarif --bundle", ["sarif", "{D}", "--results", "all", "--bundle", str(bundle)], False),
        ("gate", ["gate", "{D}", "--allow-stale"], False),
        ("gate github", ["gate", "{D}", "--format", "github", "--min-coverage", "0.99"], False),
        ("gate sarif", ["gate", "{D}", "--format", "sarif", "--min-coverage", "0.99", "--baseline", baseline], False),
        ("gate sarif --bundle", ["gate", "{D}", "--format", "sarif", "--min-coverage", "0.99",
                                 "--bundle", str(bundle)], False),
        ("explain e:", ["explain", "{D}", first["id"]], False),
        ("explain fp1:", ["explain", "{D}", last["fingerprint"]], False),
        ("diff", ["diff", "{D}", "{D}", "--out", "{O}/diff"], False),
        ("project", ["project", "{D}", "--no-allowlist"], True),  # a bare project of a projected scan is refused
        ("suggest", ["suggest", "{D}"], True),
    ]
    handlers = directory / "handlers.jsonl"
    if handlers.exists() and handlers.stat().st_size:
        handler = orjson.loads(handlers.read_bytes().split(b"\n", 1)[0])["id"]
        made += [("sarif --flow", ["sarif", "{D}", "--flow", "--results", "all"], False),
                 ("gate sarif, handler thresholds", ["gate", "{D}", "--format", "sarif", "--baseline", baseline,
                                                     "--max-new-swallowed", "0", "--max-new-lost-cause", "0"], False),
                 ("explain h:", ["explain", "{D}", handler], False)]
    return made


def outcome(tree: Path, source: Path, arguments: list[str], writes: bool) -> tuple[tuple[object, ...], float]:
    """What one run said and wrote (paths of its scratch space made `WORK`), and its CPU."""
    with tempfile.TemporaryDirectory(prefix=".verbs-", dir=REPOSITORY) as scratch:
        work = Path(scratch)
        shutil.copytree(source, work / "scan")
        (work / "out").mkdir()
        relative = os.path.relpath(work, REPOSITORY)
        filled = [a.replace("{D}", f"{relative}/scan").replace("{O}", f"{relative}/out") for a in arguments]
        code, out, err, cpu = erratlas(tree, filled)
        said = relative.encode()
        written = {name: path.read_bytes().replace(said, b"WORK") for name, path in files_of(work / "out").items()}
        after = {name: path.read_bytes() for name, path in files_of(work / "scan").items()} if writes else None
        return (code, out.replace(said, b"WORK"), err.replace(said, b"WORK"), written, after), cpu


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", default="main", help="the revision whose verbs are the reference (default main)")
    parser.add_argument("--only", action="append", choices=[t.name for t in TARGETS], help="only these targets")
    args = parser.parse_args()
    commit = commit_of(args.base)
    base = exported(commit)
    failed = False
    print("| target | verb | exit | stdout bytes | outputs | CPU s base / this |\n|---|---|---:|---:|---|---:|")
    for target in [t for t in TARGETS if not args.only or t.name in args.only]:
        snapshot = cache_root() / commit / target.name
        if not (snapshot / SUMMARY).exists():
            print(f"| {target.name} | (no snapshot: run bench/outputs_identical.py --only {target.name}) | | | | |")
            continue
        for label, arguments, writes in commands(snapshot, target_input(target)):
            (expected, base_cpu), (actual, cpu) = (outcome(base, snapshot, arguments, writes),
                                                   outcome(REPOSITORY, snapshot, arguments, writes))
            parts = ("exit", "stdout", "stderr", "files written", "directory")
            differs = [part for part, a, b in zip(parts, expected, actual, strict=True) if a != b]
            failed |= bool(differs)
            verdict = "identical" if not differs else "**differs**: " + ", ".join(differs)
            print(f"| {target.name} | {label} | {actual[0]} | {len(actual[1])} | {verdict} | {base_cpu:.2f} / "
                  f"{cpu:.2f} |", flush=True)
    print(f"\nbase {args.base} = {commit}; this checkout {REPOSITORY} ({commit_of('HEAD')[:10]} + work tree)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
