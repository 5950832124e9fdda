"""`erratlas diff OLD NEW`: release-to-release pairing, never on ambiguity, and reviewed owners
carried forward as suggestions `accept` can take. Hand-written releases in fixtures/diff/ and a
chain of real releases."""

from __future__ import annotations

import itertools
import json
import shutil
from pathlib import Path

import pytest
from conftest import FIXTURES, records, run, scan

DIFF = FIXTURES / "diff"


def diff(old: Path, new: Path, out: Path, *extra: object) -> dict[str, object]:
    result = run("diff", old, new, "--out", out, *extra)
    assert result.returncode == 0, result.stderr
    return json.loads((out / "diff.json").read_text())


def messages(rows: list[dict[str, object]]) -> list[str]:
    return sorted(str(r["message"]) for r in rows)


@pytest.fixture(scope="module")
def releases(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    base = tmp_path_factory.mktemp("releases")
    scan(DIFF / "v1.js", base / "v1")
    scan(DIFF / "v2.js", base / "v2")
    return base / "v1", base / "v2"


def test_callsites_are_unchanged_moved_changed_added_or_removed(releases: tuple[Path, Path], tmp_path: Path) -> None:
    document = diff(*releases, tmp_path / "d", "--old-label", "1.0", "--new-label", "2.0")
    assert document["schema"] == "erratlas.diff/1"
    assert document["counts"] == {"unchanged": 3, "moved": 1, "changed": 1, "added": 1, "removed": 2, "ambiguous": 2}
    by_status = {(p["status"], p["new"]["message"]): p for p in document["pairs"]}
    assert by_status[("moved", "b: too big")]["evidence"] == "same-neighbours"
    changed = by_status[("changed", "f: new wording")]
    assert changed["old"]["message"] == "f: old wording" and changed["evidence"] == "same-place"
    assert messages(document["added"]) == ["g: new"]
    assert messages(document["removed"]) == ["c: negative", "dup"]


def test_ambiguity_never_pairs(releases: tuple[Path, Path], tmp_path: Path) -> None:
    """One `dup` became two between the same unchanged neighbours: neither is paired."""
    document = diff(*releases, tmp_path / "d")
    assert messages(document["ambiguous"]) == ["dup", "dup"]
    assert not [p for p in document["pairs"] if p["new"]["message"] == "dup"]


def test_the_diff_renders_as_markdown(releases: tuple[Path, Path], tmp_path: Path) -> None:
    diff(*releases, tmp_path / "d", "--old-label", "1.0", "--new-label", "2.0")
    text = (tmp_path / "d" / "diff.md").read_text()
    assert text.startswith("# 1.0 → 2.0")
    assert "| 3 | 1 | 1 | 1 | 2 | 2 | 0 |" in text
    assert "## Ambiguous (2)" in text and "f: new wording" in text


def test_reviewed_owners_are_carried_to_paired_callsites(releases: tuple[Path, Path], tmp_path: Path) -> None:
    old, new = (tmp_path / "v1", tmp_path / "v2")
    shutil.copytree(releases[0], old)
    shutil.copytree(releases[1], new)
    allowlist = tmp_path / "owners.toml"
    for message in ("b: too big", "f: old wording", "dup", "a: missing"):
        target = next(r["id"] for r in records(old, "error") if r["message"]["comparisonKey"] == message)
        result = run("allow", old, target, "-a", allowlist, "--owner", "Dependency", "--package", "pkg",
                     "--reason", "reviewed", "--reviewer", "t", "--on", "2026-12-01")
        assert result.returncode == 0, result.stderr
    assert run("project", old, "-a", allowlist).returncode == 0
    document = diff(old, new, tmp_path / "d", "--old-label", "1.0")
    assert document["carried"] == 2  # b (moved) and f (changed); a needs nothing, dup is ambiguous
    carried = [json.loads(line) for line in (tmp_path / "d" / "carried.jsonl").read_text().splitlines()]
    assert {c["expect"] for c in carried} == {"b: too big", "f: new wording"}
    assert all(c["evidence"][0]["kind"] == "carried-from" and c["evidence"][0]["detail"].startswith("1.0 fp1:")
               for c in carried)
    before = run("project", new, "-a", allowlist)
    assert "1 of 8 owned" in before.stderr, before.stderr  # only `a` is unchanged of what was reviewed
    accepted = run("accept", new, "--suggestions", tmp_path / "d" / "carried.jsonl", "-a", allowlist,
                   "--reviewer", "t", "--confidence", "likely", "--on", "2026-12-01")
    assert accepted.returncode == 0, accepted.stderr
    after = run("project", new, "-a", allowlist)
    assert "3 of 8 owned" in after.stderr, after.stderr


@pytest.mark.network
@pytest.mark.parametrize("versions", [
    ["2.1.88", "2.1.90", "2.1.100"],
    pytest.param(["2.1.88", "2.1.90", "2.1.98", "2.1.100"], marks=pytest.mark.long),
], ids=lambda versions: "-".join(versions))
def test_owners_carry_along_a_chain_of_real_releases(
        tmp_path: Path, release_scan, versions: list[str]) -> None:  # type: ignore[no-untyped-def]
    """Truth from 2.1.88's source map, carried release by release to 2.1.100, owns more of
    2.1.100 than the same truth applied directly, and every owner that can be checked against
    the truth (a callsite whose code is unchanged since 2.1.88) is right.

    CI runs two steps, 2.1.88 -> 2.1.90 -> 2.1.100; the chain through 2.1.98 as well is `long`:
    2.1.98 -> 2.1.100 carries nothing new (5,855 of 5,904 owned on both), so it costs a scan
    and a step and checks nothing the two steps do not. Both of those count: one diff 2.1.88 ->
    2.1.100 owns 5,850, the chain through 2.1.90 5,855, the truth applied directly 5,777
    (`python bench/release_chain.py` runs the whole release line)."""
    scans = {}
    for version in versions:
        scans[version] = tmp_path / version
        shutil.copytree(release_scan("@anthropic-ai/claude-code", version), scans[version])  # the session's scan
    truth = tmp_path / "truth.toml"
    # the product's sources lie outside the published package (its map names ../src, ../vendor)
    assert run("suggest", scans["2.1.88"], "--product-sources", "../src", "--product-sources", "../vendor"
               ).returncode == 0
    assert run("accept", scans["2.1.88"], "-a", truth, "--reviewer", "t", "--confidence", "likely",
               "--on", "2026-12-01").returncode == 0
    direct = _owned(run("project", scans["2.1.100"], "-a", truth).stderr)
    chained = tmp_path / "chained.toml"
    shutil.copy(truth, chained)
    owned = []
    assert run("project", scans[versions[0]], "-a", chained).returncode == 0
    for old, new in itertools.pairwise(versions):  # `old` is projected with the chained allowlist as it is now
        diff(scans[old], scans[new], tmp_path / f"d-{new}", "--old-label", old, "--new-label", new)
        assert run("accept", scans[new], "--suggestions", tmp_path / f"d-{new}" / "carried.jsonl", "-a", chained,
                   "--reviewer", "t", "--confidence", "likely", "--on", "2026-12-01").returncode == 0
        owned.append(_owned(run("project", scans[new], "-a", chained).stderr))
    assert owned[-1] > direct and owned[-1] / 5904 >= 0.97, (direct, owned)
    checked = _checked_against_truth(scans["2.1.88"], scans["2.1.100"])
    assert checked["known"] > 4000 and checked["wrong"] == 0, checked


def _owned(stderr: str) -> int:
    return int(stderr.split("owners: ", 1)[1].split(" of ", 1)[0])


def _checked_against_truth(truth_dir: Path, scan_dir: Path) -> dict[str, int]:
    from analyzer.sourcemap import package_of

    truth = {}
    for kind in ("error", "diagnostic"):
        for r in records(truth_dir, kind):
            if r["origin"] and r["copies"]["count"] == 1:
                package = package_of(r["origin"]["source"])
                truth[r["fingerprint"]] = ("Dependency", package) if package else ("Product", None)
    rows = [
        json.loads(line) for line in (scan_dir / "error-diagnostic-owner-projection.jsonl").read_text().splitlines()
    ]
    known = [r for r in rows if r["fingerprint"] in truth and r["owner"] != "Unresolved"]
    wrong = [r for r in known if (r["owner"], r["package"]) != truth[r["fingerprint"]]]
    return {"known": len(known), "wrong": len(wrong)}
