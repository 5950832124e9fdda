"""Deterministic output (docs/reference.md), replaced atomically; a killed scan leaves the previous output."""

from __future__ import annotations

import hashlib
import json
import signal
import subprocess
import time
from pathlib import Path

import pytest
from conftest import (
    FIXTURES,
    SUMMARY,
    erratlas_command,
    processes_naming,
    records,
    run,
    scan,
    tree_bytes,
)

EXPECTED_FILES = {
    "error-message-callsites.jsonl",
    "diagnostic-message-callsites.jsonl",
    "error-message-templates.jsonl",
    "diagnostic-message-templates.jsonl",
    "error-message-literals.txt",
    "diagnostic-message-literals.txt",
    "error-classes.jsonl",
    "error-diagnostic-owner-projection.jsonl",
    "error-diagnostic-owner-index.md",
    "index/unresolved-01.md",  # the index's page (issue 15)
    "readable/demo.min.js",
    "modules.jsonl",  # the bundler module map (issue 4)
    "map-sources.jsonl",  # where the map's sources lie against the bundle's package (issue 21)
    "references.jsonl",  # the reference graph (issue 10)
    "handlers.jsonl",  # where errors are caught and what each handler does (issue 24)
    "handler-owner-projection.jsonl",  # each handler's owner
    "index/flow.md",  # the flow pages
    "index/flow-tests-01.md",
    "index/flow-product-01.md",
    "index/flow-handlers-01.md",  # every handler under its own anchor
    SUMMARY,
}


def test_scan_writes_every_inventory_file(demo_scanned_once: Path) -> None:
    assert set(tree_bytes(demo_scanned_once)) == EXPECTED_FILES  # the session's scan of the demo


def test_two_scans_are_byte_identical(tmp_path: Path, demo_bundle: Path, demo_scanned_once: Path) -> None:
    """This scan against the session's first scan of the demo."""
    scan(demo_bundle, tmp_path / "b")
    assert tree_bytes(demo_scanned_once) == tree_bytes(tmp_path / "b")


def test_scan_is_independent_of_where_it_runs(tmp_path: Path, demo_bundle: Path, demo_scanned_once: Path) -> None:
    copy = tmp_path / "elsewhere" / "demo" / demo_bundle.name
    copy.parent.mkdir(parents=True)
    copy.write_bytes(demo_bundle.read_bytes())
    map_file = demo_bundle.with_name(demo_bundle.name + ".map")  # source-map evidence comes along
    copy.with_name(map_file.name).write_bytes(map_file.read_bytes())
    # and the package it lies in, which places the map's sources (docs/modules.md, "Places")
    (copy.parent.parent / "package.json").write_bytes((FIXTURES / "package.json").read_bytes())
    result = run("scan", copy.name, "--out", "../../b", cwd=copy.parent)
    assert result.returncode == 0, result.stderr
    assert tree_bytes(demo_scanned_once) == tree_bytes(tmp_path / "b")  # the session's scan, from the checkout


@pytest.mark.parametrize("tree", ["jstree/pkg", "python/shadowing/app"])
def test_a_directory_given_as_dot_is_named_as_by_its_name(tmp_path: Path, tree: str) -> None:
    """`erratlas scan .` inside a tree writes the bytes `erratlas scan ../TREE` writes: the
    summary, the index and the scan's line named the bundle '' (`Path('.').name`)."""
    root = FIXTURES / tree
    by_name = run("scan", root.name, "--out", tmp_path / "by-name", cwd=root.parent)
    assert by_name.returncode == 0, by_name.stderr
    assert f"erratlas: {root.name}: " in by_name.stderr
    for number, spelled in enumerate((".", "./", "../" + root.name)):
        out = tmp_path / f"spelled-{number}"
        dotted = run("scan", spelled, "--out", out, cwd=root)
        assert dotted.returncode == 0, dotted.stderr
        assert f"erratlas: {root.name}: " in dotted.stderr, (spelled, dotted.stderr)
        assert tree_bytes(out) == tree_bytes(tmp_path / "by-name"), spelled


def test_summary_hashes_every_output_and_input(demo_bundle: Path, demo_scanned_once: Path) -> None:
    summary = json.loads((demo_scanned_once / SUMMARY).read_text())  # the session's scan of the demo
    outputs = summary["outputs"]
    assert set(outputs) == EXPECTED_FILES - {SUMMARY}
    for name, digest in outputs.items():
        assert hashlib.sha256((demo_scanned_once / name).read_bytes()).hexdigest() == digest
    bundle = summary["inputs"]["bundle"]  # type: ignore[index]
    assert bundle["sha256"] == hashlib.sha256(demo_bundle.read_bytes()).hexdigest()
    rules = summary["inputs"]["rules"]  # type: ignore[index]
    assert rules["sha256"] == hashlib.sha256((FIXTURES.parent / "rules" / "javascript.toml").read_bytes()).hexdigest()


def test_summary_counts_equal_the_records(demo_scanned_once: Path) -> None:
    summary = json.loads((demo_scanned_once / SUMMARY).read_text())  # the session's scan of the demo
    errors, diagnostics = records(demo_scanned_once, "error"), records(demo_scanned_once, "diagnostic")
    counts = summary["counts"]
    assert counts["byKind"] == {"error": len(errors), "diagnostic": len(diagnostics)}  # type: ignore[index]
    by_constructor: dict[str, int] = {}
    for record in errors:
        by_constructor[record["constructor"]] = by_constructor.get(record["constructor"], 0) + 1  # type: ignore[index]
    assert counts["error"]["byConstructor"] == dict(sorted(by_constructor.items()))  # type: ignore[index]
    assert all(row["holds"] for row in summary["invariants"])  # type: ignore[index,union-attr]


def test_records_have_every_field_and_are_sorted(demo_scanned_once: Path) -> None:
    fields = {
        "schema",
        "kind",
        "id",
        "fingerprint",
        "functionFingerprint",
        "unit",
        "offset",
        "endOffset",
        "line",
        "column",
        "readableLine",
        "readable",
        "constructor",
        "form",
        "callee",
        "calleeRole",
        "argCount",
        "message",
        "level",
        "levelSource",
        "levelCandidates",
        "scope",
        "consumer",
        "module",
        "context",
    }
    for kind in ("error", "diagnostic"):
        rows = records(demo_scanned_once, kind)  # the session's scan of the demo
        assert rows
        assert [(r["unit"], r["offset"]) for r in rows] == sorted((r["unit"], r["offset"]) for r in rows)  # type: ignore[type-var]
        for row in rows:
            assert fields <= set(row)
            assert set(row["message"]) == {"shape", "text", "template", "comparisonKey"}  # type: ignore[arg-type]
            assert set(row["scope"]) == {"scopePath", "function", "functionKind"}  # type: ignore[arg-type]
            assert set(row["consumer"]) == {"node", "relation", "role"}  # type: ignore[arg-type]
            assert {"inCatch", "catchParam", "inErrorRegion"} <= set(row["context"])  # type: ignore[arg-type]
            assert row["kind"] == kind


def test_rescan_replaces_previous_output(tmp_path: Path, demo_bundle: Path) -> None:
    out = tmp_path / "out"
    scan(FIXTURES / "shadowing" / "shadowing.js", out)
    scan(demo_bundle, out)
    summary = json.loads((out / SUMMARY).read_text())
    assert summary["inputs"]["bundle"]["name"] == demo_bundle.name
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".out.")], "no staging left behind"


@pytest.fixture
def big_bundle(tmp_path: Path) -> Path:
    """A synthetic bundle large enough that a scan takes a few seconds."""
    demo = (FIXTURES / "demo" / "demo.cjs.min.js").read_bytes()
    big = tmp_path / "big.js"
    big.write_bytes(b"\n".join([b"(function(){" + demo + b"})();"] * 120))
    return big


@pytest.mark.parametrize("signum", [signal.SIGKILL, signal.SIGTERM, signal.SIGHUP])
def test_killed_scan_leaves_previous_output_intact(
    tmp_path: Path, demo_bundle: Path, big_bundle: Path, signum: int
) -> None:
    out = tmp_path / "out"
    scan(demo_bundle, out)
    before = tree_bytes(out)
    process = subprocess.Popen(
        [erratlas_command(), "scan", str(big_bundle), "--out", str(out)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    time.sleep(1.0)
    assert process.poll() is None, "the scan finished before it could be killed; make the bundle bigger"
    process.send_signal(signum)
    process.wait(timeout=60)
    assert process.returncode != 0
    assert tree_bytes(out) == before
    stderr = process.stderr.read().decode() if process.stderr else ""
    assert "Traceback" not in stderr
    if signum != signal.SIGKILL:  # a catchable signal also removes the staging directory
        assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".out.")] == []
    deadline = time.monotonic() + 5
    while processes_naming(big_bundle) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not processes_naming(big_bundle), "a worker process outlived the killed scan"


@pytest.mark.parametrize("bundle", ["demo/demo.min.js", "demo/demo.bun.min.js", "hostile/hostile.min.js"])
def test_every_record_points_at_its_line_of_the_readable_rendering(tmp_path: Path, bundle: str) -> None:
    out = tmp_path / "out"
    scan(FIXTURES / bundle, out)
    rendering = (out / "readable" / Path(bundle).name).read_text(encoding="utf-8").split("\n")
    assert len(rendering) > (FIXTURES / bundle).read_bytes().count(b"\n") + 20, "the rendering breaks lines"
    for record in records(out, "error") + records(out, "diagnostic"):
        place = record["readable"]
        assert place["file"] == f"readable/{Path(bundle).name}"  # type: ignore[index]
        line = rendering[record["readableLine"] - 1]  # type: ignore[operator]
        assert place["line"] == record["readableLine"], record["id"]  # type: ignore[index]
        assert line[place["column"] - 1:].startswith((record["callee"], "new ")), record["id"]  # type: ignore[index,operator]
