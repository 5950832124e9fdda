"""Why a bundle's dependency callsites are not claimed exactly, after `bench/corpus_eval.py`.

For each callsite the map gives to a package P that the setting's suggestions do not claim `exact`
for P, one cause, from the suggestion rows, the corpus and the scan's signatures:

- `possible: ...`: a row names it, not exactly (a tie of candidate packages, identical copies,
  bundle files only, versions after the window, a module pointing elsewhere);
- `no corpus entry`: P has no version in the corpus;
- `no distinctive function`: no distinctive function of the bundle holds the callsite;
- `matched elsewhere`: an enclosing function equals corpus functions of other packages only;
- `compiler runtime`: an enclosing function is a compiler helper's (never matched: docs/corpus.md);
- `form mismatch`: no enclosing function equals any corpus function, and a corpus version of P
  holds the message's text (its code is there, written otherwise);
- `message not in P`: ... and no corpus version of P holds the text (another version, a file the
  tarball does not ship, or an unmapped tail of the map).

    python bench/corpus_causes.py --work W --only pdfmake,exceljs [--setting auto] [--show 'form mismatch']
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from corpus_eval import SIBLINGS, TARGETS, claims, records
from support import npm_cache
from support.maps import Truth

from analyzer.javascript.corpus import index_sources
from analyzer.owners.corpus.compiler_runtime import compiler_runtime_keys
from analyzer.owners.corpus.index import tarball_sources
from analyzer.owners.corpus.layout import FunctionTree
from analyzer.owners.corpus.match import CorpusIndex
from analyzer.owners.corpus.signature_file import read_signatures
from analyzer.owners.corpus.store import Corpus

_PLACEHOLDER = re.compile(r"\$\{\}|<[a-z]+(?::[^>]*)?>|<missing>|↵")


def fragment(record: dict) -> str | None:
    text = str(record["message"].get("comparisonKey") or record["message"].get("text") or "")
    parts = sorted(_PLACEHOLDER.split(text), key=lambda p: (-len(p), p))
    return parts[0] if parts and len(parts[0]) >= 6 else None


def row_cause(reason: str) -> str:
    detail = reason.rsplit(" (", 1)[-1] if "(possible" in reason else reason
    for needle, cause in (("candidate packages", "possible: tie"), ("identical copies", "possible: copies"),
                          ("only in bundle files", "possible: bundle files only"),
                          ("after the bundle's window", "possible: late versions only"),
                          ("another package than its module", "possible: module elsewhere"),
                          ("names", "possible: another row exact")):
        if needle in detail:
            return cause
    return "possible: other"


def causes(label: str, work: Path, setting: str) -> tuple[dict[str, Counter[str]], list[tuple[str, str, dict]]]:
    package, version = TARGETS[label]
    main = npm_cache.main_file(package, version)
    reader = Truth(main, main.with_name(main.name + ".map"), siblings=label in SIBLINGS)
    truth = {str(r["id"]): reader.package(str(r["origin"]["source"])) if r["origin"] else None
             for r in records(work / label / "truth")}
    scan = work / label / "scan"
    suggestions = work / label / f"suggestions-{setting}.jsonl"
    exact, _ = claims(suggestions, scan)
    rows: dict[str, dict] = {}
    groups: dict[str, list[str]] = defaultdict(list)
    scanned = {str(r["id"]): r for r in records(scan)}
    for r in scanned.values():
        if r.get("copies") and r["copies"]["group"]:
            groups[r["copies"]["group"]].append(r["id"])
    for line in suggestions.read_text().splitlines():
        row = json.loads(line)
        if row["id"].startswith("c:"):
            for i in (groups[row["match"]["callsite"]] if row.get("copies") else row["exampleIds"][:1]):
                rows[i] = row
    corpus = Corpus(work / "corpora" / setting / label, index_sources)
    window = next(iter(corpus.windows.values()), None) if setting in ("auto", "half") else None
    index = CorpusIndex(corpus, window["before"] if window else None)
    runtime = compiler_runtime_keys(corpus.index)
    trees = defaultdict(list)
    for f in read_signatures((scan / "function-signatures.jsonl").read_bytes(), "signatures"):
        trees[f.unit].append(f)
    tree = {u: FunctionTree(fs) for u, fs in trees.items()}
    sources: dict[str, list[bytes]] = {}
    table: dict[str, Counter[str]] = defaultdict(Counter)
    listed = []
    for i, p in sorted(truth.items()):
        if not p:
            continue
        record = scanned.get(i)
        if exact.get(i) == p:
            cause = "exact"
        elif i in exact:
            cause = f"WRONG: {exact[i]}"
        elif i in rows:
            cause = row_cause(rows[i]["reason"])
        elif p not in corpus.packages:
            cause = "no corpus entry"
        elif record is None:
            cause = "not in the map-less scan"
        else:
            enclosing = tree[record["unit"]].enclosing(record["offset"]) if record["unit"] in tree else []
            if not enclosing:
                cause = "no distinctive function"
            elif any(index.hits(f.key) for f in enclosing):
                cause = "matched elsewhere"
            elif any(f.key in runtime for f in enclosing):
                cause = "compiler runtime"
            else:
                if p not in sources:
                    sources[p] = [data for v in corpus.packages[p].versions
                                  for path, data in tarball_sources(corpus.tarball(p, v).read_bytes())
                                  if not path.endswith(".map")]
                needle = fragment(record)
                if needle is None:
                    cause = "form mismatch?"  # no literal text to look for
                elif any(needle.encode() in data for data in sources[p]):
                    cause = "form mismatch"
                else:
                    cause = "message not in P"
        table[p][cause] += 1
        listed.append((cause, p, record or {"id": i}))
    return table, listed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--work", type=Path, required=True)
    parser.add_argument("--only", required=True)
    parser.add_argument("--setting", default="auto")
    parser.add_argument("--show", default="", help="list the callsites of this cause")
    options = parser.parse_args()
    for label in options.only.split(","):
        table, listed = causes(label, options.work, options.setting)
        total: Counter[str] = Counter()
        for counts in table.values():
            total.update(counts)
        print(f"== {label} [{options.setting}]: {sum(total.values())} dependency callsites")
        print("   " + "; ".join(f"{c} {n}" for c, n in total.most_common()))
        for p, counts in sorted(table.items(), key=lambda kv: -sum(v for c, v in kv[1].items() if c != "exact")):
            missed = sum(v for c, v in counts.items() if c != "exact")
            if missed:
                print(f"   {p:40} {missed:5} missed of {sum(counts.values()):5}: "
                      + "; ".join(f"{c} {n}" for c, n in counts.most_common() if c != "exact"))
        for cause, p, record in listed:
            if options.show and cause == options.show:
                message = (record.get("message") or {}).get("comparisonKey")
                print(f"   {p} {record['id']} {record.get('origin')} {message!r:.80}")


if __name__ == "__main__":
    main()
