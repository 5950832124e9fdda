"""Fingerprints depend on the exact parser release: the summary records it, and verbs that
compare fingerprints refuse outputs written with another one (exit 2, one line)."""

from __future__ import annotations

import json
import shutil
from importlib.metadata import version
from pathlib import Path

import pytest
from conftest import ROOT, SUMMARY, run, scan


@pytest.fixture(scope="module")
def demo_scan(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("versions") / "demo"
    scan(ROOT / "fixtures" / "demo" / "demo.min.js", out)
    return out


def _copy_with(source: Path, target: Path, edit: dict[str, object]) -> Path:
    shutil.copytree(source, target)
    summary = json.loads((target / SUMMARY).read_text())
    summary["fingerprint"].update(edit)
    (target / SUMMARY).write_text(json.dumps(summary, indent=2) + "\n")
    return target


def test_summary_names_the_grammar_and_tree_sitter_releases(demo_scan: Path) -> None:
    block = json.loads((demo_scan / SUMMARY).read_text())["fingerprint"]
    assert block["version"] == "fp1"
    assert block["grammar"] == {"tree-sitter-javascript": version("tree-sitter-javascript"),
                                "tree-sitter": version("tree-sitter")}


def test_default_rules_shipped_in_the_package_equal_the_documented_copy() -> None:
    for name in ("javascript.toml", "python.toml"):
        assert (ROOT / "analyzer" / "rules" / name).read_bytes() == (ROOT / "rules" / name).read_bytes(), name


@pytest.mark.parametrize("verb", ["gate", "project"])
@pytest.mark.parametrize("edit", [
    {"grammar": {"tree-sitter-javascript": "0.23.1", "tree-sitter": version("tree-sitter")}},
    {"grammar": {"tree-sitter-javascript": version("tree-sitter-javascript"), "tree-sitter": "0.24.0"}},
    {"version": "fp0"},
], ids=["grammar", "tree-sitter", "fingerprint"])
def test_gate_and_project_refuse_a_scan_written_with_other_versions(
    demo_scan: Path, tmp_path: Path, verb: str, edit: dict[str, object]
) -> None:
    other = _copy_with(demo_scan, tmp_path / "other", edit)
    before = {p.name: p.read_bytes() for p in other.iterdir() if p.is_file()}
    result = run(verb, other)
    assert result.returncode == 2, result.stdout + result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "not comparable" in lines[0] and str(other / SUMMARY) in lines[0]
    assert {p.name: p.read_bytes() for p in other.iterdir() if p.is_file()} == before


def test_gate_refuses_a_baseline_written_with_another_grammar(demo_scan: Path, tmp_path: Path) -> None:
    other = _copy_with(demo_scan, tmp_path / "old", {"grammar": {"tree-sitter-javascript": "0.23.1",
                                                                  "tree-sitter": version("tree-sitter")}})
    result = run("gate", demo_scan, "--baseline", other / SUMMARY)
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "not comparable" in result.stderr


def test_a_summary_without_versions_is_refused(demo_scan: Path, tmp_path: Path) -> None:
    other = tmp_path / "old"
    shutil.copytree(demo_scan, other)
    summary = json.loads((other / SUMMARY).read_text())
    del summary["fingerprint"]["grammar"]
    (other / SUMMARY).write_text(json.dumps(summary))
    result = run("gate", other)
    assert result.returncode == 2 and "rescan" in result.stderr
