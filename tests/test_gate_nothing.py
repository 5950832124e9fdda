"""The gate never passes on nothing (docs/reference.md, "The gate"): a scan with no callsite,
a source map or a JSON file given as the bundle, and a release whose callsites fell by far
more than a stated share against its baseline."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import FIXTURES, SUMMARY, run, scan

GATE = FIXTURES / "gate"
DEMO = FIXTURES / "demo"


def one_line(result: object, status: int) -> str:
    assert result.returncode == status, (result.returncode, result.stdout, result.stderr)  # type: ignore[attr-defined]
    lines = result.stderr.strip().splitlines()  # type: ignore[attr-defined]
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr  # type: ignore[attr-defined]
    return lines[0]


def test_a_scan_with_no_callsite_is_refused_by_the_gate(tmp_path: Path) -> None:
    out = tmp_path / "out"
    summary = scan(GATE / "nothing.js", out)
    assert summary["counts"]["total"] == 0  # type: ignore[index]
    line = one_line(run("gate", out, "--min-coverage", "0.9"), 2)
    assert "no callsite" in line and "--allow-empty" in line and str(out) in line
    allowed = run("gate", out, "--min-coverage", "0.9", "--allow-empty")
    assert allowed.returncode == 0, allowed.stderr
    assert allowed.stdout.splitlines()[-1] == "gate passed: coverage n/a (0 of 0)"
    assert run("gate", out, "--format", "sarif").returncode == 2


def test_coverage_of_nothing_is_never_a_percentage(tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = run("scan", GATE / "nothing.js", "--out", out)
    assert result.returncode == 0, result.stderr
    assert "owners: 0 of 0 owned (n/a)" in result.stderr and "100.00%" not in result.stderr
    assert "(no diagnostic logger found)" in result.stderr and "None" not in result.stderr
    coverage = json.loads((out / SUMMARY).read_bytes())["coverage"]
    assert {block["display"] for block in coverage.values()} == {"n/a"}
    index = (out / "error-diagnostic-owner-index.md").read_text()
    assert "100.00%" not in index
    assert "| **all** | 0 | 0 | 0 | 0 | n/a |" in index


def test_coverage_of_a_kind_without_callsites_is_not_a_percentage(tmp_path: Path) -> None:
    """few.js has errors and no diagnostic: the diagnostic row is n/a, the others are numbers."""
    coverage = scan(GATE / "few.js", tmp_path / "out")["coverage"]
    assert coverage["diagnostic"]["display"] == "n/a"  # type: ignore[index]
    assert coverage["error"]["display"] == coverage["overall"]["display"] == "0.00%"  # type: ignore[index]


@pytest.mark.parametrize("bundle", ["demo.min.js.map", "demo.webpack.min.js.map"])
def test_a_source_map_given_as_the_bundle_is_refused(tmp_path: Path, bundle: str) -> None:
    """The webpack map names its bundle in `file`; esbuild's map does not, and the bundle is
    found beside it by name. Either way the line names the bundle to scan instead."""
    out = tmp_path / "out"
    line = one_line(run("scan", DEMO / bundle, "--out", out), 2)
    assert "a source map, not a bundle" in line
    assert f"scan the bundle it maps, {DEMO / bundle.removesuffix('.map')}" in line
    assert ("(its `file` field)" in line) == (bundle == "demo.webpack.min.js.map")
    assert not out.exists()


@pytest.mark.parametrize(("name", "content", "said"), [
    ("package.json", b'{"name": "x", "version": "1.0.0"}\n', "a JSON file, not JavaScript"),
    ("data.txt", b'[1, 2, 3]\n', "a JSON file, not JavaScript"),
    ("index.ts", b'export const x: number = 1;\n', "TypeScript source, not JavaScript"),
    ("tool", b'#!/bin/sh\nexec node "$0.js"\n', "a sh script"),
    ("tool.py3", b'#!/usr/bin/env python3\nraise ValueError("x")\n', "a python3 script"),
    ("style.css", b'body { color: red }\n', "a stylesheet"),
])
def test_a_file_that_is_not_javascript_is_refused_saying_what_it_is(tmp_path: Path, name: str, content: bytes,
                                                                   said: str) -> None:
    (tmp_path / name).write_bytes(content)
    line = one_line(run("scan", tmp_path / name, "--out", tmp_path / "out"), 2)
    assert said in line and name in line


def test_a_hashbang_of_node_is_javascript(tmp_path: Path) -> None:
    (tmp_path / "cli").write_bytes(b'#!/usr/bin/env -S node --no-warnings\nthrow new Error("x");\n')
    assert scan(tmp_path / "cli", tmp_path / "out")["counts"]["total"] == 1  # type: ignore[index]


def test_callsites_fallen_by_ten_times_against_the_baseline_fail_the_gate(tmp_path: Path) -> None:
    scan(GATE / "many.js", tmp_path / "baseline")
    scan(GATE / "few.js", tmp_path / "out")
    baseline = tmp_path / "baseline" / SUMMARY
    result = run("gate", tmp_path / "out", "--baseline", baseline)
    assert result.returncode == 1, (result.stdout, result.stderr)
    dropped = [line for line in result.stdout.splitlines() if "dropped" in line]
    assert dropped == [f"FAIL callsites dropped from 20 in {baseline} to 2 here (90.0% fewer, more than "
                       "--max-drop 50%): a wrong input or a broken build?"]
    tolerant = run("gate", tmp_path / "out", "--baseline", baseline, "--max-drop", "0.95")
    assert "dropped" not in tolerant.stdout
    one_line(run("gate", tmp_path / "out", "--baseline", baseline, "--max-drop", "1.5"), 2)


def test_the_same_callsites_as_the_baseline_pass(tmp_path: Path) -> None:
    scan(GATE / "many.js", tmp_path / "out")
    result = run("gate", tmp_path / "out", "--baseline", tmp_path / "out" / SUMMARY)
    assert result.returncode == 0, (result.stdout, result.stderr)
