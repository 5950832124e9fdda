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


def test_a_release_read_directly_is_the_one_importlib_metadata_reads() -> None:
    """Every distribution of this environment, read without importlib.metadata where the read is
    plain, gives importlib.metadata's version; the parsers' are read so."""
    import importlib.metadata

    from analyzer.versions import PARSERS, _dist_info_version

    names = {dist.metadata["Name"] for dist in importlib.metadata.distributions()}
    read = {name: _dist_info_version(name) for name in names}
    assert all(found == version(name) for name, found in read.items() if found is not None)
    assert all(read[name] is not None for name in PARSERS["javascript"] if name in read)


def test_what_is_not_plain_is_left_to_importlib_metadata(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A folded Version header, an egg-info first, a zip on the path, headers cut short: no
    direct read; a plain one later on the path after a directory without it is read."""
    import importlib.metadata
    import sys

    from analyzer.versions import _dist_info_version, _installed

    def dist(where: Path, directory: str, metadata: str) -> None:
        (where / directory).mkdir(parents=True)
        (where / directory / "METADATA").write_text(metadata)

    plain, folded, egg, cut = (tmp_path / name for name in ("plain", "folded", "egg", "cut"))
    dist(plain, "some_thing-1.2.dist-info",
         "Metadata-Version: 2.1\nName: some-thing\nLicense: x\n  y\nVersion:  1.2 \n\nVersion: 9\n")
    dist(folded, "Some.Thing-1.3.dist-info", "Name: some-thing\nVersion: 1.3\n  folded\n")
    dist(egg, "some_thing-1.4.egg-info", "Name: some-thing\nVersion: 1.4\n")
    dist(cut, "some_thing-1.5.dist-info", "Name: some-thing\n\nVersion: 1.5\n")
    (tmp_path / "empty").mkdir()
    (tmp_path / "archive.zip").write_bytes(b"PK")
    for path, expected in (([tmp_path / "empty", tmp_path / "absent", plain], "1.2 "), ([folded, plain], None),
                           ([egg, plain], None), ([cut, plain], None), ([tmp_path / "archive.zip", plain], None)):
        monkeypatch.setattr(sys, "path", [str(p) for p in path])
        assert _dist_info_version("Some_Thing") == expected, path
        assert _installed("Some_Thing") == importlib.metadata.version("some-thing"), path
