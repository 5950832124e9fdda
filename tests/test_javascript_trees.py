"""A directory or an npm tarball of JavaScript is scanned file by file, every `.js`, `.mjs` and
`.cjs` file a unit, as a Python tree is (docs/reference.md, "Inputs")."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from conftest import FIXTURES, SUMMARY, records, run, scan

TREE = FIXTURES / "jstree"
#: every JavaScript file of fixtures/jstree/pkg; its .map, .d.ts and .json are not code
UNITS = ["dist/tiny.min.js", "lib/index.js", "lib/parse.cjs", "lib/range.mjs"]
MESSAGES = {"load: text must be a string, got ${}", "parse: no '=' in ${}", "range: ${} is below ${}",
            "tiny: nothing given"}


def units(out: Path) -> list[str]:
    return [unit["name"] for unit in json.loads((out / SUMMARY).read_bytes())["inputs"]["units"]]


def test_a_directory_of_javascript_scans_every_file(tmp_path: Path) -> None:
    summary = scan(TREE / "pkg", tmp_path / "out")
    assert units(tmp_path / "out") == UNITS
    assert "tree-sitter-javascript" in summary["fingerprint"]["grammar"]  # type: ignore[index]
    found = records(tmp_path / "out", "error")
    assert {r["unit"] for r in found} == set(UNITS)
    assert {r["message"]["template"] or r["message"]["text"] for r in found} == MESSAGES


def test_an_npm_tarball_scans_every_file_below_package(tmp_path: Path) -> None:
    tarball = TREE / "erratlas-jstree-1.0.0.tgz"
    summary = scan(tarball, tmp_path / "out")
    assert units(tmp_path / "out") == UNITS
    assert summary["inputs"]["bundle"]["name"] == tarball.name  # type: ignore[index]
    found = records(tmp_path / "out", "error")
    assert {r["message"]["template"] or r["message"]["text"] for r in found} == MESSAGES
    packed = records(tmp_path / "out", "error")
    scan(TREE / "pkg", tmp_path / "dir")
    assert [r["fingerprint"] for r in packed] == [r["fingerprint"] for r in records(tmp_path / "dir", "error")]


def test_a_tree_scan_is_byte_identical_again(tmp_path: Path) -> None:
    scan(TREE / "erratlas-jstree-1.0.0.tgz", tmp_path / "a")
    scan(TREE / "erratlas-jstree-1.0.0.tgz", tmp_path / "b", "--jobs", "1")
    assert sorted(p.relative_to(tmp_path / "a").as_posix() for p in (tmp_path / "a").rglob("*")) == sorted(
        p.relative_to(tmp_path / "b").as_posix() for p in (tmp_path / "b").rglob("*"))
    for path in (tmp_path / "a").rglob("*"):
        if path.is_file():
            assert path.read_bytes() == (tmp_path / "b" / path.relative_to(tmp_path / "a")).read_bytes(), path


def test_a_tree_of_both_languages_says_which_it_scanned_and_how_to_pick_the_other(tmp_path: Path) -> None:
    tree = tmp_path / "mixed"
    shutil.copytree(TREE / "pkg", tree)
    (tree / "tools").mkdir()
    (tree / "tools" / "release.py").write_text('raise SystemExit("release: no tag")\nraise ValueError("bad tag")\n')
    result = run("scan", tree, "--out", tmp_path / "js")
    assert result.returncode == 0, result.stderr
    assert (f"erratlas: {tree}: holds 1 Python and 4 JavaScript source files; scanning the JavaScript "
            "(package.json at its root); --language python scans the Python") in result.stderr
    assert units(tmp_path / "js") == UNITS
    python = run("scan", tree, "--out", tmp_path / "py", "--language", "python")
    assert python.returncode == 0, python.stderr
    assert units(tmp_path / "py") == ["tools/release.py"]
    assert "holds 1 Python" not in python.stderr


@pytest.mark.parametrize(("language", "said"), [
    (None, "holds no JavaScript (.js, .mjs, .cjs) or Python (.py) source files"),
    ("js", "holds no JavaScript (.js, .mjs, .cjs) or Python (.py) source files"),
])
def test_a_tree_without_source_is_refused_naming_both_languages(tmp_path: Path, language: str | None,
                                                                said: str) -> None:
    tree = tmp_path / "docs"
    tree.mkdir()
    (tree / "README.md").write_text("# nothing to scan\n")
    (tree / "index.d.ts").write_text("export {};\n")
    result = run("scan", tree, "--out", tmp_path / "out", *(["--language", language] if language else []))
    assert result.returncode == 2 and said in result.stderr and len(result.stderr.splitlines()) == 1, result.stderr


def test_the_language_asked_for_must_be_in_the_tree(tmp_path: Path) -> None:
    result = run("scan", TREE / "pkg", "--out", tmp_path / "out", "--language", "python")
    assert result.returncode == 2
    assert "holds no Python source files (.py); it holds 4 JavaScript files (--language js)" in result.stderr


def test_a_python_tree_is_still_python(tmp_path: Path) -> None:
    tree = tmp_path / "app"
    tree.mkdir()
    (tree / "main.py").write_text('raise ValueError("main: no config")\n')
    (tree / "static").mkdir()
    (tree / "static" / "page.js").write_text('throw new Error("page")\n')
    (tree / "pyproject.toml").write_text('[project]\nname = "app"\n')
    result = run("scan", tree, "--out", tmp_path / "out")
    assert result.returncode == 0, result.stderr
    assert units(tmp_path / "out") == ["main.py"]
    assert "scanning the Python (pyproject.toml at its root); --language js scans the JavaScript" in result.stderr
