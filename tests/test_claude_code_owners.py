"""The reviewed allowlist of the Claude Code release line (allowlists/claude-code.toml) against
the truth of 2.1.88's source map, through the CLI on the real releases."""

from __future__ import annotations

import json
import shutil
import tomllib
from pathlib import Path

import pytest
from conftest import RELEASE_LINE_ALLOWLIST, SUMMARY, records, run

from analyzer.sourcemap import package_of

pytestmark = pytest.mark.network
ALLOWLIST = RELEASE_LINE_ALLOWLIST


def projection(out: Path) -> dict[str, dict[str, object]]:
    return {json.loads(line)["id"]: json.loads(line)
            for line in (out / "error-diagnostic-owner-projection.jsonl").read_text().splitlines()}


def truth(out: Path) -> dict[str, tuple[str, str | None]]:
    """Callsite id -> (owner, package) the source map says."""
    found = {}
    for kind in ("error", "diagnostic"):
        for record in records(out, kind):
            if record["origin"]:
                package = package_of(record["origin"]["source"])
                found[record["id"]] = ("Dependency", package) if package else ("Product", None)
    return found


@pytest.fixture(scope="module")
def mapped(reviewed_release_scan) -> Path:  # type: ignore[no-untyped-def]
    """2.1.88 scanned beside its map, projected with the release line's allowlist (the session's
    projection: read only)."""
    return reviewed_release_scan("@anthropic-ai/claude-code", "2.1.88")  # type: ignore[no-any-return]


@pytest.fixture(scope="module")
def withheld(tmp_path_factory: pytest.TempPathFactory, bare_release_scan) -> Path:  # type: ignore[no-untyped-def]
    """2.1.88's cli.js alone in a directory: no map to find. The session's scan of it (shared
    with the corpus test, tests/test_corpus_real.py), copied: the tests here project it."""
    out = tmp_path_factory.mktemp("cc88-bare") / "scan"
    shutil.copytree(bare_release_scan("@anthropic-ai/claude-code", "2.1.88"), out)
    return out


def test_2_1_88_is_owned_with_no_owner_the_map_contradicts(mapped: Path) -> None:
    summary = json.loads((mapped / SUMMARY).read_text())
    assert summary["modules"]["sourceMaps"][0]["status"] == "used"
    coverage = summary["coverage"]["overall"]
    assert coverage["value"] >= 0.995, coverage
    known = truth(mapped)
    wrong = [(i, r["owner"], r["package"], known[i]) for i, r in projection(mapped).items()
             if r["owner"] != "Unresolved" and i in known and (r["owner"], r["package"]) != known[i]]
    assert wrong == []


def test_references_alone_own_the_product_and_never_a_dependency(mapped: Path, withheld: Path,
                                                                    tmp_path: Path) -> None:
    """With the map withheld, the allowlist's `references` entries alone own at least 90% of
    the callsites the map places under src/, and none it places under node_modules/."""
    summary = json.loads((withheld / SUMMARY).read_text())
    assert summary["modules"]["sourceMaps"][0]["status"] == "none"
    roots = _only_references(ALLOWLIST, tmp_path / "roots.toml")
    assert run("project", withheld, "-a", roots).returncode == 0
    known = truth(mapped)  # the same bytes: callsite ids are equal
    rows = projection(withheld)
    product = [i for i, verdict in known.items() if verdict[0] == "Product"]
    owned = [i for i in product if rows[i]["owner"] == "Product"]
    assert len(owned) / len(product) >= 0.90, (len(owned), len(product))
    dependency_owned = [
        i for i, verdict in known.items() if verdict[0] == "Dependency" and rows[i]["owner"] != "Unresolved"
    ]
    assert dependency_owned == []
    assert all(rows[i]["evidence"]["level"] == "references" and rows[i]["evidence"]["chain"] for i in owned)


def _only_references(source: Path, target: Path) -> Path:
    text = source.read_text()
    head, *entries = text.split("\n[[entry]]\n")
    kept = [e for e in entries if e.startswith("match = { references = ")]
    target.write_text(head + "".join("\n[[entry]]\n" + e for e in kept))
    assert kept and len(tomllib.loads(target.read_text())["entry"]) == len(kept)
    return target


@pytest.mark.parametrize(("package", "version", "minimum"), [
    ("@anthropic-ai/claude-code", "2.1.100", 0.90),
    # issue 10 alone asks 0.75 (the chain owns 82.9%); with the corpus step 91.0% (issue 11 asks 0.90)
    ("@anthropic-ai/claude-code-linux-x64", "2.1.235", 0.90),
])
def test_later_releases_are_owned_and_agree_with_the_truth_where_code_is_unchanged(
        mapped: Path, reviewed_release_scan, package: str, version: str, minimum: float) -> None:  # type: ignore[no-untyped-def]
    """The session's projection of each release with the release line's allowlist (shared with
    tests/test_real_bundles.py and tests/test_sarif.py)."""
    out = reviewed_release_scan(package, version)
    summary = json.loads((out / SUMMARY).read_text())
    assert summary["coverage"]["overall"]["value"] >= minimum, summary["coverage"]["overall"]
    known = {}
    for kind in ("error", "diagnostic"):
        for record in records(mapped, kind):
            if record["origin"] and record["copies"]["count"] == 1:
                package_name = package_of(record["origin"]["source"])
                known[record["fingerprint"]] = ("Dependency", package_name) if package_name else ("Product", None)
    rows = [r for r in projection(out).values() if r["owner"] != "Unresolved" and r["fingerprint"] in known]
    agree = sum(1 for r in rows if (r["owner"], r["package"]) == known[r["fingerprint"]])
    assert rows and agree / len(rows) >= 0.999, (agree, len(rows))
