"""Dependency identification by the package corpus, judged against real source maps (issue 11).

For each real bundle that ships its source map (claude-code 2.1.88, mermaid 11.4.1; and, asked for by
`--only`, bundles nobody tuned erratlas for: pdfmake 0.3.11 (webpack 5), maplibre-gl 6.20.0 (rolldown),
@tensorflow/tfjs 4.22.0 (rollup + terser)):

1. truth: `erratlas scan` with the map beside the bundle; a callsite's package is
   `package_of(origin.source)` (None: product code);
2. the map withheld: a copy of the bundle alone in an empty directory, `scan --signatures`
   (the summary must say that no map was used);
3. the corpus: `erratlas corpus add NAMES --before RELEASE`, NAMES being the package names of
   the map's `node_modules/` paths (what a lockfile would give; names only, nothing else from
   the map), RELEASE the bundle's publish time from the registry; so each plain name is
   resolved to the best of its last versions published before the release;
4. `erratlas suggest --corpus` on the map-less scan, timed;
5. precision and recall per package and overall, for `exact` suggestions and for every
   suggestion that names one package (`possible` ones included: copies, conflicts).

Then the 2.1.235 linux-x64 executable (no map): `scan --signatures`, a corpus of the same
names before its release, `suggest --corpus` timed (under 10 s is the target), how many
callsites the suggestions claim, and, of those whose fingerprint equals a 2.1.88 callsite's,
how many agree with the 2.1.88 truth.

    python bench/corpus_eval.py [--work DIR] [--corpus-root DIR] [--runs 3] [--only 2.1.88,mermaid,2.1.235]
    python bench/corpus_eval.py --only pdfmake,maplibre,tfjs
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from support import npm_cache
from support.maps import map_package_names

from analyzer.sourcemap import package_of

ERRATLAS = str(Path(sys.executable).parent / "erratlas")
TARGETS = {
    "2.1.88": ("@anthropic-ai/claude-code", "2.1.88"),
    "mermaid": ("mermaid", "11.4.1"),
    # bundles nobody tuned erratlas for (other bundlers than esbuild); not in the default --only
    "pdfmake": ("pdfmake", "0.3.11"),  # build/pdfmake.min.js, webpack 5
    "maplibre": ("maplibre-gl", "6.20.0"),  # dist/maplibre-gl.mjs, rolldown
    "tfjs": ("@tensorflow/tfjs", "4.22.0"),  # dist/tf.min.js, rollup + terser
}
EXECUTABLE = ("@anthropic-ai/claude-code-linux-x64", "2.1.235")


CPU: list[float] = []  # CPU seconds (user + system) of each erratlas call, in order


def erratlas(*args: object, quiet: bool = False) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run([ERRATLAS, *map(str, args)], capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    CPU.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    if done.returncode != 0:
        sys.exit(f"erratlas {' '.join(map(str, args))[:200]} failed:\n{done.stderr}")
    if not quiet:
        print("   ", done.stderr.strip().splitlines()[-1] if done.stderr.strip() else "", flush=True)
    return elapsed


def release_time(package: str, version: str) -> str:
    raw = subprocess.run(["npm", "view", package, "time", "--json"], capture_output=True, text=True, check=True).stdout
    return json.loads(raw)[version]


def records(directory: Path) -> list[dict[str, object]]:
    return [json.loads(line) for kind in ("error", "diagnostic")
            for line in (directory / f"{kind}-message-callsites.jsonl").read_text().splitlines()]


def truth_of(directory: Path) -> dict[str, str | None]:
    return {r["id"]: (package_of(r["origin"]["source"]) if r["origin"] else None) for r in records(directory)}  # type: ignore[index]


def claims(suggestions: Path, scan: Path) -> tuple[dict[str, str], dict[str, str]]:
    """(callsite id -> package of an exact corpus suggestion, ... of any one-package corpus suggestion).
    A suggestion for a group of identical copies (`copies`) claims every copy of the group; one
    naming a copy by its `neighbours`, that copy."""
    groups: dict[str, list[str]] = defaultdict(list)
    for record in records(scan):
        if record.get("copies"):
            groups[record["copies"]["group"]].append(record["id"])  # type: ignore[index]
    exact, named = {}, {}
    for line in suggestions.read_text().splitlines():
        row = json.loads(line)
        if not row["id"].startswith("c:") or row["package"] is None:
            continue
        ids = groups[row["match"]["callsite"]] if row.get("copies") else row["exampleIds"][:1]
        for callsite in ids:
            named[callsite] = row["package"]
            if row["confidence"] == "exact":
                exact[callsite] = row["package"]
    return exact, named


def timed_suggest(scan_dir: Path, corpus: Path, out: Path, runs: int) -> list[float]:
    """Wall seconds of each run; their CPU seconds are printed (a loaded machine stretches wall time)."""
    walls = [erratlas("suggest", scan_dir, "--corpus", corpus, "--out", out, quiet=i > 0) for i in range(runs)]
    print(f"   suggest --corpus CPU (user+system): {', '.join(f'{c:.2f}' for c in CPU[-runs:])} s")
    return walls


def load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def evaluate(label: str, package: str, version: str, work: Path, corpus_root: Path, runs: int) -> dict[str, object]:
    main = npm_cache.main_file(package, version)
    map_path = main.with_name(main.name + ".map")
    print(
        f"== {label}: {package}@{version} ({main.name}, map {map_path.stat().st_size >> 20} MB); load {load()}",
        flush=True,
    )
    truth_dir, bare_dir, scan_dir = work / label / "truth", work / label / "bare", work / label / "scan"
    if not (truth_dir / "error-message-callsites.jsonl").exists():
        erratlas("scan", main, "--out", truth_dir)
    bare_dir.mkdir(parents=True, exist_ok=True)
    shutil.copy(main, bare_dir / main.name)
    if not (scan_dir / "function-signatures.jsonl").exists():
        erratlas("scan", bare_dir / main.name, "--out", scan_dir, "--signatures")
    summary = json.loads((scan_dir / "error-diagnostic-owner-summary.json").read_text())
    assert all(m["status"] == "none" for m in summary["modules"]["sourceMaps"]), "the map was not withheld"
    names = map_package_names(map_path)
    before = release_time(package, version)
    corpus = corpus_root / label
    print(
        f"   corpus: {len(names)} package names from the map's node_modules paths,"
        f" published before {before}; load {load()}"
    )
    index_seconds = erratlas("corpus", "add", *names, "--corpus", corpus, "--before", before)
    seconds = timed_suggest(scan_dir, corpus, work / label / "suggestions.jsonl", runs)
    truth = truth_of(truth_dir)
    exact, named = claims(work / label / "suggestions.jsonl", scan_dir)
    report(label, truth, exact, named)
    print(f"   corpus add (resolve, fetch what is missing, index what is not indexed): {index_seconds:.1f} s")
    print(f"   suggest --corpus: {', '.join(f'{s:.2f}' for s in seconds)} s (median {statistics.median(seconds):.2f}); "
          f"load {load()}")
    return {"truth": truth, "scan": scan_dir}


def report(label: str, truth: dict[str, str | None], exact: dict[str, str], named: dict[str, str]) -> None:
    dependency = {i: p for i, p in truth.items() if p}
    per: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0, 0])  # callsites, exact claimed, exact right, named ..
    for p in dependency.values():
        per[p][0] += 1
    for i, p in exact.items():
        per[p][1] += 1
        per[p][2] += truth.get(i) == p
    for i, p in named.items():
        per[p][3] += 1
        per[p][4] += truth.get(i) == p
    print(f"   {'package':44} {'callsites':>9} {'exact':>6} {'right':>6} {'named':>6} {'right':>6}")
    for package, (n, e, er, c, cr) in sorted(per.items(), key=lambda kv: (-kv[1][0], kv[0])):
        print(f"   {package:44} {n:9} {e:6} {er:6} {c:6} {cr:6}")
    for what, claimed in (("exact", exact), ("one package named", named)):
        right = sum(1 for i, p in claimed.items() if truth.get(i) == p)
        recalled = sum(1 for i, p in dependency.items() if claimed.get(i) == p)
        wrong = Counter((p, truth.get(i)) for i, p in claimed.items() if truth.get(i) != p)
        print(
            f"   {label} {what}: {len(claimed)} claimed, {right} right: precision {right / max(1, len(claimed)):.4f}; "
            f"{recalled} of {len(dependency)} dependency callsites: recall {recalled / max(1, len(dependency)):.4f}"
        )
        for (claimed_package, true_package), count in wrong.most_common():
            print(f"      wrong: {count} claimed {claimed_package}, the map says {true_package or 'product'}")


def executable(work: Path, corpus_root: Path, names: list[str], runs: int, truth_dir: Path | None) -> None:
    package, version = EXECUTABLE
    binary = npm_cache.main_file(package, version)
    print(f"== 2.1.235: {package}@{version}; load {load()}", flush=True)
    scan_dir = work / "2.1.235" / "scan"
    if not (scan_dir / "function-signatures.jsonl").exists():
        erratlas("scan", binary, "--out", scan_dir, "--signatures")
    corpus = corpus_root / "2.1.235"
    before = release_time("@anthropic-ai/claude-code", version)
    earlier = release_time("@anthropic-ai/claude-code", "2.1.88")
    print(f"   corpus: {len(names)} package names (2.1.88's map), the candidates published before {before} "
          f"and those published before {earlier} (code moves between packages across versions)")
    index_seconds = erratlas("corpus", "add", *names, "--corpus", corpus, "--before", earlier)
    index_seconds += erratlas("corpus", "add", *names, "--corpus", corpus, "--before", before)
    out = work / "2.1.235" / "suggestions.jsonl"
    seconds = timed_suggest(scan_dir, corpus, out, runs)
    exact, named = claims(out, scan_dir)
    rows = records(scan_dir)
    print(f"   {len(rows)} callsites; corpus suggestions claim {len(exact)} exactly, {len(named)} naming one package")
    if truth_dir is not None:
        old = {
            r["fingerprint"]: (package_of(r["origin"]["source"]) if r["origin"] else None) for r in records(truth_dir)
        }  # type: ignore[index]
        by_id = {r["id"]: r["fingerprint"] for r in rows}
        for what, claimed in (("exact", exact), ("one package named", named)):
            shared = [(i, p) for i, p in claimed.items() if by_id[i] in old]
            agree = sum(1 for i, p in shared if old[by_id[i]] == p)
            print(f"   2.1.235 {what}: {len(shared)} claimed callsites share a fingerprint with 2.1.88; "
                  f"{agree} agree with its truth ({agree / max(1, len(shared)):.4f})")
    print(f"   corpus add: {index_seconds:.1f} s; suggest --corpus: {', '.join(f'{s:.2f}' for s in seconds)} s "
          f"(median {statistics.median(seconds):.2f}); load {load()}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--work", type=Path, default=Path("/tmp/erratlas-corpus-eval"))
    parser.add_argument("--corpus-root", type=Path, default=None, help="default: WORK/corpus")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--only", default="2.1.88,mermaid,2.1.235")
    options = parser.parse_args()
    corpus_root = options.corpus_root or options.work / "corpus"
    only = options.only.split(",")
    truth88 = None
    for label, (package, version) in TARGETS.items():
        if label in only:
            found = evaluate(label, package, version, options.work, corpus_root, options.runs)
            truth88 = found["scan"].parent / "truth" if label == "2.1.88" else truth88  # type: ignore[union-attr]
    if "2.1.235" in only:
        main88 = npm_cache.main_file(*TARGETS["2.1.88"])
        truth = options.work / "2.1.88" / "truth"
        executable(options.work, corpus_root, map_package_names(main88.with_name(main88.name + ".map")), options.runs,
                   truth if (truth / "error-message-callsites.jsonl").exists() else truth88)


if __name__ == "__main__":
    main()
