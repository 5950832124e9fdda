"""A bounded real subset of the corpus evaluation (bench/corpus_eval.py runs all of it): claude-code
2.1.88 with its map withheld, a corpus of seven of its dependencies fetched from the registry by
name (versions published before the release), every claim checked against the map."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from conftest import SUMMARY, run

from analyzer.sourcemap import package_of

pytestmark = [pytest.mark.network, pytest.mark.slow]

#: dependencies of 2.1.88 whose callsites the full evaluation claims completely
NAMES = ("ajv", "axios", "commander", "fast-xml-parser", "jsonwebtoken", "pngjs", "yaml")


def test_dependencies_of_a_real_release_are_named_exactly(
        tmp_path: Path, release_scan, bare_release_scan) -> None:  # type: ignore[no-untyped-def]
    """The session's scans of 2.1.88: the bare cli.js with --signatures (shared with
    tests/test_claude_code_owners.py; `suggest --out` leaves it unchanged) and, for the truth,
    cli.js beside its map (shared with every other test of 2.1.88)."""
    bare = bare_release_scan("@anthropic-ai/claude-code", "2.1.88")
    summary = json.loads((bare / SUMMARY).read_text())
    assert [m["status"] for m in summary["modules"]["sourceMaps"]] == ["none"]
    assert (bare / "function-signatures.jsonl").is_file()
    truth_scan = release_scan("@anthropic-ai/claude-code", "2.1.88")
    assert [m["status"] for m in json.loads((truth_scan / SUMMARY).read_text())["modules"]["sourceMaps"]] == ["used"]
    truth = {}
    for kind in ("error", "diagnostic"):
        for line in (truth_scan / f"{kind}-message-callsites.jsonl").read_text().splitlines():
            row = json.loads(line)
            truth[row["id"]] = (package_of(row["origin"]["source"]) if row["origin"] else None, row["copies"]["count"])
    times = json.loads(subprocess.run(["npm", "view", "@anthropic-ai/claude-code", "time", "--json"],
                                      capture_output=True, text=True, check=True).stdout)
    added = run("corpus", "add", *NAMES, "--corpus", tmp_path / "corpus", "--before", times["2.1.88"])
    assert added.returncode == 0, added.stderr
    result = run("suggest", bare, "--corpus", tmp_path / "corpus", "--out", tmp_path / "s.jsonl")
    assert result.returncode == 0, result.stderr
    rows = [json.loads(line) for line in (tmp_path / "s.jsonl").read_text().splitlines()]
    exact = {r["exampleIds"][0]: r["package"] for r in rows if r["id"].startswith("c:") and r["confidence"] == "exact"}
    wrong = {i: (p, truth[i][0]) for i, p in exact.items() if truth[i][0] != p}
    assert len(wrong) <= len(exact) * 0.005, wrong
    wanted = [i for i, (p, copies) in truth.items() if p in NAMES and copies == 1]
    claimed = [i for i in wanted if exact.get(i) == truth[i][0]]
    assert len(wanted) > 200 and len(claimed) >= 0.95 * len(wanted), (len(claimed), len(wanted))
