#!/usr/bin/env python3
"""Regenerate allowlists/claude-code.toml from the reviewed decisions in
allowlists/claude-code.review.toml, and the reports in reports/claude-code/<release>/.

    python allowlists/build_claude_code.py [--work DIR]

Every release the decisions name is scanned once into --work (default
~/.cache/erratlas/chain, shared with bench/release_chain.py) from the sha256-verified npm cache.
Then: the truth release's source map is suggested and accepted; the owners are carried along
the chain with `erratlas diff`; the hand decisions are written with `erratlas allow`; the
allowlist is written canonically; and each report release is projected with it. Prints the
coverage of every release of the chain and the table of bench/release_chain.py.
Standard library only besides the erratlas command.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "bench"))

import release_chain  # noqa: E402
from release_chain import erratlas, owned, scanned  # noqa: E402

REVIEW = REPO / "allowlists" / "claude-code.review.toml"
ALLOWLIST = REPO / "allowlists" / "claude-code.toml"
REPORTS = REPO / "reports" / "claude-code"
REPORT_FILES = ("error-diagnostic-owner-index.md", "error-diagnostic-owner-summary.json")
_KEYS = {"review", "reviewer", "reviewedOn", "reports", "truth", "chain", "corpus", "decision"}
_DECISION_KEYS = {"release", "select", "scope", "owner", "package", "name", "reason"}


class BuildError(Exception):
    pass


def load_review(path: Path) -> dict:  # type: ignore[type-arg]
    try:
        document = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise BuildError(f"{path}: {exc}") from exc
    unknown = set(document) - _KEYS
    if unknown:
        raise BuildError(f"{path}: unknown key(s) {sorted(unknown)}")
    if document.get("review") != "erratlas.review/2":
        raise BuildError(f'{path}: review must be "erratlas.review/2"')
    chain = document["chain"]["releases"]
    if chain[0] != document["truth"]["release"]:
        raise BuildError(f"{path}: chain.releases must start with the truth release")
    for number, decision in enumerate(document.get("decision", []), 1):
        bad = set(decision) - _DECISION_KEYS
        if bad or not {"release", "select", "scope", "owner", "name", "reason"} <= set(decision):
            raise BuildError(f"{path}: decision #{number}: keys must be {sorted(_DECISION_KEYS)}")
    return document


def decide(document: dict, work: Path, allowlist: Path) -> int:  # type: ignore[type-arg]
    """Write the hand decisions with `erratlas allow`; how many."""
    for number, decision in enumerate(document.get("decision", []), 1):
        directory = scanned(decision["release"], work)
        matches = [r["id"] for r in _records(directory)
                   if decision["select"] in (r["message"]["comparisonKey"], r["message"]["text"])]
        if len(matches) != 1:
            raise BuildError(f"decision #{number}: select {decision['select']!r} matches {len(matches)} callsites "
                             f"of {decision['release']} (need exactly one)")
        scope = {"callsite": [], "function": ["--function"], "references": ["--references"]}[decision["scope"]]
        package = ["--package", decision["package"]] if "package" in decision else []
        erratlas("allow", directory, matches[0], "-a", allowlist, *scope, "--owner", decision["owner"], *package,
                 "--name", decision["name"], "--reason", decision["reason"], "--reviewer", document["reviewer"],
                 "--on", document["reviewedOn"])
    return len(document.get("decision", []))


def with_corpus(document: dict, work: Path, allowlist: Path) -> list[str]:  # type: ignore[type-arg]
    """Accept the corpus's suggestions for what is still Unresolved in each corpus release."""
    section = document.get("corpus")
    if not section:
        return []
    files = [section["names"]] if isinstance(section["names"], str) else section["names"]
    names = [n for f in files for line in (REPO / f).read_text().splitlines()
             for n in line.split("#", 1)[0].split()]
    corpus = work / "corpus"
    for before in section["before"]:
        erratlas("corpus", "add", *names, "--corpus", corpus, "--before", before,
                 "--older-lines", str(section.get("olderLines", 0)))
    lines = []
    for release in section["releases"]:
        directory = scanned(release, work)
        found = work / f"corpus-{release.replace('@', '-')}.jsonl"
        erratlas("suggest", directory, "--corpus", corpus, "--bundle", release_chain.bundle(release), "--out", found)
        before = owned(erratlas("project", directory, "-a", allowlist).stderr)
        erratlas("accept", directory, "--suggestions", found, "-a", allowlist, "--reviewer", document["reviewer"],
                 "--confidence", section["confidence"], "--on", document["reviewedOn"], "--unowned")
        after = owned(erratlas("project", directory, "-a", allowlist).stderr)
        lines.append(f"{release}: corpus {before[0]} -> {after[0]} of {after[1]} owned")
    return lines


def _records(directory: Path) -> list[dict]:  # type: ignore[type-arg]
    return [json.loads(line) for name in ("error-message-callsites.jsonl", "diagnostic-message-callsites.jsonl")
            for line in (directory / name).open(encoding="utf-8")]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--work", type=Path, default=Path(os.environ.get("ERRATLAS_CACHE", "~/.cache/erratlas"))
                        .expanduser() / "chain")
    args = parser.parse_args()
    os.chdir(REPO)  # the summaries record the allowlist by the path given: keep it relative
    try:
        document = load_review(REVIEW)
        args.work.mkdir(parents=True, exist_ok=True)
        base, chained = args.work / "truth.toml", args.work / "chained.toml"
        truth = document["truth"]
        reviewer, day = document["reviewer"], document["reviewedOn"]
        release_chain.truth_allowlist(truth["release"], args.work, base, truth["confidence"], truth["level"],
                                      reviewer, day)
        rows, wrong = release_chain.carry(document["chain"]["releases"], args.work, base, chained,
                                          document["chain"]["confidence"], reviewer, day)
        decided = decide(document, args.work, chained)
        for line in with_corpus(document, args.work, chained):
            print(line)
        shutil.copy(chained, ALLOWLIST)
        print(f"wrote {ALLOWLIST.relative_to(REPO)}: {ALLOWLIST.read_text().count('[[entry]]')} entries "
              f"({decided} hand decisions)")
        for release in document["reports"]:
            directory = scanned(release, args.work)
            result = erratlas("project", directory, "-a", ALLOWLIST.relative_to(REPO))
            target = REPORTS / release.replace("@", "-")
            shutil.rmtree(target, ignore_errors=True)
            (target / "index").mkdir(parents=True)
            # the index and the summary; never the readable slices, which are the bundle itself
            for name in REPORT_FILES:
                shutil.copy(directory / name, target / name)
            for page in sorted((directory / "index").glob("*.md")):
                shutil.copy(page, target / "index" / page.name)
            count, total = owned(result.stderr)
            print(f"{release}: {count} of {total} owned ({count / total:.2%}) -> {target.relative_to(REPO)}")
        print()
        print(release_chain.TABLE_HEADER)
        print("\n".join(rows))
        return 1 if wrong else 0
    except BuildError as exc:
        print(f"build_claude_code: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
