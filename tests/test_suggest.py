"""`suggest` proposes owners from evidence and `accept` turns chosen ones into reviewed entries;
truth from the source map through the independent oracle."""

from __future__ import annotations

import json
import shutil
import tomllib
from pathlib import Path

import pytest
from conftest import FIXTURES, SUMMARY, run, scan
from test_sourcemap import BUNDLES, all_records, oracle_origins

from analyzer.sourcemap import package_of


def suggest(out: Path, *extra: object) -> list[dict[str, object]]:
    result = run("suggest", out, *extra)
    assert result.returncode == 0, result.stderr
    target = Path(str(extra[extra.index("--out") + 1])) if "--out" in extra else out / "suggestions.jsonl"
    return [json.loads(line) for line in target.read_text().splitlines()]


def covering(rows: list[dict[str, object]], suggestions: list[dict[str, object]]) -> dict[str, dict[str, object]]:
    """Callsite id -> the suggestion that covers it (by callsite or module fingerprint)."""
    by_match = {(level, fp): s for s in suggestions for level, fp in s["match"].items()}
    out = {}
    for row in rows:
        module = row["module"]
        found = by_match.get(("callsite", row["fingerprint"])) or (
            by_match.get(("module", module["fingerprint"])) if module else None
        )
        if found is not None:
            out[row["id"]] = found
    return out


@pytest.mark.parametrize("bundle", sorted(BUNDLES))
def test_suggest_names_the_package_of_dependency_callsites(bundle: str, tmp_path: Path) -> None:
    path = FIXTURES / "demo" / bundle
    scan(path, tmp_path / "out")
    rows = all_records(tmp_path / "out")
    truth = oracle_origins(path, path.with_name(bundle + ".map"), [r["offset"] for r in rows])
    suggestions = suggest(tmp_path / "out")
    covered = covering(rows, suggestions)
    dependency = [(row, package_of(o["source"])) for row, o in zip(rows, truth) if o and package_of(o["source"])]
    named = sum(1 for row, package in dependency if covered.get(row["id"], {}).get("package") == package)
    assert dependency and named / len(dependency) >= 0.99, (named, len(dependency))
    exact = [(row, o) for row, o in zip(rows, truth) if covered.get(row["id"], {}).get("confidence") == "exact"]
    assert exact
    wrong = [row["id"] for row, o in exact if o is None or covered[row["id"]]["package"] != package_of(o["source"])]
    assert wrong == []


def test_suggestions_carry_evidence_and_a_confidence_word(demo_scan_copy: Path) -> None:
    suggestions = suggest(demo_scan_copy)  # the session's scan of the demo, copied: suggest writes into it
    for s in suggestions:
        assert s["schema"] == "erratlas.suggestion/1"
        assert s["confidence"] in ("exact", "likely", "possible", "ambiguous") and s["evidence"] and s["reason"]
        assert len(s["match"]) == 1 and s["match"].keys() == {s["level"]}
        if s["confidence"] == "ambiguous":  # copies by several authors: every candidate named, no owner
            assert s["owner"] is None and len(s["candidates"]) >= 1
            continue
        assert s["owner"] in ("Product", "Dependency") and (s["package"] is None) == (s["owner"] == "Product")
    # the map's truth is suggested at every level it supports
    ms = {s["level"]: s for s in suggestions if s["package"] == "ms"}
    assert set(ms) == {"callsite", "function", "module"} and all(s["confidence"] == "exact" for s in ms.values())
    assert ms["module"]["evidence"] == [{"kind": "source-map", "detail": "../node_modules/ms/index.js (1 callsite)"}]
    runtime = next(s for s in suggestions if s["package"] == "esbuild")  # the helper esbuild injects
    assert runtime["confidence"] == "possible" and runtime["evidence"][0]["kind"] == "signature"
    assert all(s["owner"] == "Product" and s["confidence"] == "likely" for s in suggestions
               if "src/demo-app/" in json.dumps(s["evidence"]))


def test_nothing_is_owned_until_accepted(tmp_path: Path, demo_scan_copy: Path) -> None:
    out = demo_scan_copy  # the session's scan of the demo, copied: suggest writes into it
    suggest(out)
    assert json.loads((out / SUMMARY).read_text())["coverage"]["overall"]["owned"] == 0
    assert run("gate", out).returncode == 0  # suggestions.jsonl is listed: the directory still verifies
    allowlist = tmp_path / "allowlists" / "deps.toml"
    accepted = run("accept", out, "--allowlist", allowlist, "--reviewer", "ci", "--on", "2026-01-02")
    assert accepted.returncode == 0, accepted.stderr
    entries = tomllib.loads(allowlist.read_text())["entry"]
    assert entries and all(e["owner"] == "Dependency" and e["reviewedBy"] == "ci" for e in entries)
    assert {e["package"] for e in entries} == {"commander", "ms", "picomatch", "uuid"}
    summary = scan(FIXTURES / "demo" / "demo.min.js", tmp_path / "owned", "--allowlist", allowlist)
    exact = sum(s["callsites"] for s in suggest(out, "--out", tmp_path / "s.jsonl")
                if s["confidence"] == "exact" and s["level"] == "callsite")  # `accept` takes the level that carries
    assert summary["coverage"]["overall"]["owned"] == exact
    assert summary["stale"] == []


def test_accept_by_id_and_canonical_rewrite(tmp_path: Path) -> None:
    out = tmp_path / "out"
    scan(FIXTURES / "demo" / "demo.cjs.min.js", out)
    suggestions = suggest(out)
    chosen = next(s for s in suggestions if s["owner"] == "Product")
    allowlist = tmp_path / "a.toml"
    written = []
    for _ in range(2):  # accepting twice changes nothing
        result = run("accept", out, "-a", allowlist, "--reviewer", "r", "--on", "2026-01-02", "--id", chosen["id"])
        assert result.returncode == 0, result.stderr
        written.append(allowlist.read_bytes())
    assert written[0] == written[1]
    (entry,) = tomllib.loads(allowlist.read_text())["entry"]
    assert entry["match"] == chosen["match"] and entry["owner"] == "Product" and "package" not in entry
    missing = run("accept", out, "-a", allowlist, "--reviewer", "r", "--id", "s:nope")
    assert missing.returncode == 2 and "s:nope" in missing.stderr


def test_suggest_can_write_elsewhere_and_accept_read_it(tmp_path: Path) -> None:
    out = tmp_path / "out"
    scan(FIXTURES / "demo" / "demo.bun.min.js", out)
    elsewhere = tmp_path / "s.jsonl"
    rows = suggest(out, "--out", elsewhere)
    assert not (out / "suggestions.jsonl").exists() and rows
    result = run("accept", out, "-a", tmp_path / "a.toml", "--reviewer", "r", "--suggestions", elsewhere,
                 "--confidence", "likely", "--package", "commander")
    assert result.returncode == 0, result.stderr
    assert {e["package"] for e in tomllib.loads((tmp_path / "a.toml").read_text())["entry"]} == {"commander"}


def test_suggest_on_a_bundle_without_a_map_uses_what_the_bundle_keeps(tmp_path: Path) -> None:
    """terser keeps esbuild's `__commonJS({"node_modules/x/..."(){}})` keys: `likely` without a map."""
    bare = tmp_path / "demo.terser.min.js"
    shutil.copy(FIXTURES / "demo" / "demo.terser.min.js", bare)
    scan(bare, tmp_path / "out")
    suggestions = suggest(tmp_path / "out")
    keyed = [s for s in suggestions if s["evidence"][0]["kind"] == "module-key"]
    assert {s["package"] for s in keyed} == {"commander", "ms", "picomatch"}
    assert all(s["confidence"] == "likely" for s in keyed)
    assert not any(s["confidence"] == "exact" for s in suggestions)


def test_accept_reads_ambiguous_suggestions_and_never_takes_them(tmp_path: Path, demo_scan_copy: Path) -> None:
    """Code in several copies with different owners is suggested naming every candidate and no
    owner; `accept` reads such a file and takes the rest (a real 2.1.88 scan has thousands)."""
    out = demo_scan_copy  # the session's scan of the demo, copied
    rows = suggest(out)
    taken = next(s for s in rows if s["confidence"] == "exact" and s["level"] == "callsite")
    ambiguous = {**taken, "id": "s-ambiguous", "owner": None, "package": None, "confidence": "ambiguous",
                 "candidates": [{"owner": "Dependency", "package": "a", "callsites": 1},
                                {"owner": "Dependency", "package": "b", "callsites": 1}]}
    file = tmp_path / "s.jsonl"
    file.write_bytes(b"".join(json.dumps(r).encode() + b"\n" for r in (taken, ambiguous)))
    allowlist = tmp_path / "a.toml"
    done = run("accept", out, "-a", allowlist, "--reviewer", "r", "--on", "2026-01-02", "--suggestions", file,
               "--confidence", "possible")
    assert done.returncode == 0, done.stderr
    (entry,) = tomllib.loads(allowlist.read_text())["entry"]
    assert entry["match"] == taken["match"] and entry["package"] == taken["package"]
    file.write_bytes(json.dumps({**taken, "owner": None}).encode() + b"\n")  # no owner, not ambiguous: malformed
    refused = run("accept", out, "-a", allowlist, "--reviewer", "r", "--suggestions", file)
    assert refused.returncode == 2 and "suggestion key 'owner'" in refused.stderr


def test_accept_unowned_takes_only_suggestions_whose_every_callsite_is_unresolved(
        tmp_path: Path, demo_scan_copy: Path) -> None:
    """`--unowned` never re-owns an owned callsite: a suggestion that would also own one (a group
    of copies the truth gives two owners, a function one of whose callsites is owned) is left
    out, even when its other callsites are Unresolved."""
    out = demo_scan_copy  # the session's scan of the demo, copied
    rows = suggest(out)
    function = next(s for s in rows if s["level"] == "function" and s["callsites"] >= 2)
    owned = next(s for s in rows if s["level"] == "callsite" and s["exampleIds"] == function["exampleIds"][:1])
    other = next(s for s in rows if s["level"] == "function" and s["callsites"] >= 1 and s is not function
                 and not set(s["exampleIds"]) & set(function["exampleIds"]))
    allowlist = tmp_path / "a.toml"
    accepted = run("accept", out, "-a", allowlist, "--reviewer", "r", "--on", "2026-01-02", "--id", owned["id"])
    assert accepted.returncode == 0 and run("project", out, "-a", allowlist).returncode == 0
    file = tmp_path / "s.jsonl"
    file.write_bytes(b"".join(json.dumps(r).encode() + b"\n" for r in (function, other)))
    done = run("accept", out, "-a", allowlist, "--reviewer", "r", "--on", "2026-01-02", "--suggestions", file,
               "--unowned", "--level", "function", "--confidence", "possible")
    assert done.returncode == 0, done.stderr
    matches = [e["match"] for e in tomllib.loads(allowlist.read_text())["entry"]]
    assert function["match"] not in matches  # one of its callsites is owned: never re-owned
    assert other["match"] in matches and owned["match"] in matches
