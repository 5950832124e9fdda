"""A scan directory damaged behind erratlas's back, its summary's sha256 updated so that only the
readers see the damage: every verb refuses it with exit status 2 and one line naming the file,
never an internal error (docs/reference.md, "Reading within bounds", "The gate")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import SUMMARY, run, scan, write_tree
from test_gate_verifies import refused, rehash

HANDLERS = "handlers.jsonl"
HANDLER_PROJECTION = "handler-owner-projection.jsonl"


def _edit_lines(path: Path, how: str) -> None:
    lines = path.read_bytes().splitlines(keepends=True)
    edited = {"doubled": lines[:1] + lines, "dropped": lines[1:], "emptied": []}[how]
    path.write_bytes(b"".join(edited))


@pytest.mark.parametrize("how", ["doubled", "dropped", "emptied"])
def test_sarif_flow_refuses_a_handler_projection_out_of_step_with_the_handlers(demo_scan_copy: Path,
                                                                               how: str) -> None:
    _edit_lines(demo_scan_copy / HANDLER_PROJECTION, how)
    rehash(demo_scan_copy, HANDLER_PROJECTION)
    refused(run("sarif", demo_scan_copy, "--flow"), HANDLER_PROJECTION)


@pytest.mark.parametrize("how", ["doubled", "dropped", "emptied"])
@pytest.mark.parametrize("verb", ["gate", "project"])
def test_handler_records_the_summary_does_not_count_are_refused(demo_scan_copy: Path, how: str,
                                                                verb: str) -> None:
    _edit_lines(demo_scan_copy / HANDLERS, how)
    rehash(demo_scan_copy, HANDLERS)
    refused(run(verb, demo_scan_copy), HANDLERS, "handlers block")


def test_a_baseline_of_a_scan_in_another_language_is_refused(demo_scanned_once: Path, tmp_path: Path) -> None:
    tree = write_tree(tmp_path / "py", {"pkg/a.py": "def f():\n    raise ValueError('x')\n"})
    scan(tree, tmp_path / "pyscan")
    baseline = tmp_path / "pyscan" / SUMMARY
    for verb in (["gate", demo_scanned_once, "--baseline", baseline],
                 ["gate", demo_scanned_once, "--baseline", baseline, "--format", "sarif"],
                 ["sarif", demo_scanned_once, "--baseline", baseline],
                 ["gate", tmp_path / "pyscan", "--baseline", demo_scanned_once / SUMMARY]):
        result = run(*verb)
        refused(result, "their fingerprints never compare")
        assert str(verb[3]) in result.stderr


def test_sarif_out_refuses_to_replace_anything_but_a_regular_file(demo_scanned_once: Path, tmp_path: Path) -> None:
    """`sarif --out` writes as `suggest --out` does: a FIFO, a symlink or a directory there is
    refused and left as it was (it was replaced by a regular file: `--out /dev/full` as root
    replaced the device)."""
    import os
    import stat

    fifo, link, target = tmp_path / "fifo", tmp_path / "link.sarif", tmp_path / "target.sarif"
    os.mkfifo(fifo)
    link.symlink_to(target)
    for out, kind in ((fifo, "FIFO"), (link, "symlink"), (tmp_path, "directory")):
        refused(run("sarif", demo_scanned_once, "--out", out), str(out), kind)
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode) and link.is_symlink() and not target.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fifo", "link.sarif"]
    written = tmp_path / "new" / "findings.sarif"
    assert run("sarif", demo_scanned_once, "--out", written).returncode == 0
    assert written.is_file()


@pytest.mark.parametrize("match", [{}, {"callsite": []}, {"callsite": {}}, {"callsite": 1}])
def test_explain_refuses_a_suggestion_whose_match_is_not_one_fingerprint(demo_scan_copy: Path, match: object) -> None:
    """explain reads the scan's suggestions.jsonl: a `match` of no entry, or of a list, was an
    internal error (unpacking, an unhashable value); the loader checks a record's dict values."""
    assert run("suggest", demo_scan_copy).returncode == 0
    path = demo_scan_copy / "suggestions.jsonl"
    lines = path.read_bytes().splitlines(keepends=True)
    first = json.loads(lines[0])
    first["match"] = match
    path.write_bytes(json.dumps(first).encode() + b"\n" + b"".join(lines[1:]))
    rehash(demo_scan_copy, "suggestions.jsonl")
    refused(run("explain", demo_scan_copy, first["exampleIds"][0]), "suggestions.jsonl:1")


@pytest.mark.parametrize(("field", "value", "verb"), [("fingerprint", "x", "sarif"), ("fingerprint", "fp1:", "explain"),
                                                       ("constructor", None, "project"), ("constructor", None, "gate")])
def test_a_callsite_without_a_fingerprint_or_constructor_is_refused(demo_scan_copy: Path, field: str, value: object,
                                                                    verb: str) -> None:
    """sarif takes a fingerprint's hex digits (an IndexError on "x"), project sorts the
    constructors (a TypeError on null): the loader refuses such a record, naming its line."""
    path = demo_scan_copy / "error-message-callsites.jsonl"
    lines = path.read_bytes().splitlines(keepends=True)
    first = json.loads(lines[0])
    first[field] = value
    path.write_bytes(json.dumps(first).encode() + b"\n" + b"".join(lines[1:]))
    rehash(demo_scan_copy, path.name)
    args = [first["id"]] if verb == "explain" else []
    refused(run(verb, demo_scan_copy, *args), f"{path.name}:1", field)


def test_a_handler_without_its_fingerprint_is_refused(demo_scan_copy: Path) -> None:
    """sarif --flow takes a flagged handler's fp1h hex digits: "x" was an IndexError."""
    path = demo_scan_copy / HANDLERS
    lines = path.read_bytes().splitlines(keepends=True)
    number, swallowing = next((n, json.loads(line)) for n, line in enumerate(lines, start=1)
                              if b'"swallow"' in line)
    swallowing["fingerprint"] = "x"
    lines[number - 1] = json.dumps(swallowing).encode() + b"\n"
    path.write_bytes(b"".join(lines))
    rehash(demo_scan_copy, HANDLERS)
    refused(run("sarif", demo_scan_copy, "--flow"), f"{HANDLERS}:{number}", "fingerprint")


def test_a_module_span_that_is_not_start_and_end_is_refused(demo_scan_copy: Path) -> None:
    """suggest takes each span of modules.jsonl apart: `[]` was an internal error (unpacking)."""
    path = demo_scan_copy / "modules.jsonl"
    lines = path.read_bytes().splitlines(keepends=True)
    first = json.loads(lines[0])
    first["spans"][0] = []
    path.write_bytes(json.dumps(first).encode() + b"\n" + b"".join(lines[1:]))
    rehash(demo_scan_copy, path.name)
    refused(run("suggest", demo_scan_copy, "--out", demo_scan_copy.parent / "s.jsonl"), "modules.jsonl:1", "spans")
    assert not (demo_scan_copy.parent / "s.jsonl").exists()


@pytest.mark.parametrize("packages", [{"x": 1}, [1], [{"name": "a"}], [{"name": "a", "requested": "name",
                                                                          "source": "registry", "versions": [1]}]])
def test_a_corpus_manifest_with_a_malformed_package_row_is_refused(demo_scanned_once: Path, tmp_path: Path,
                                                                    packages: object) -> None:
    """explain and suggest --corpus read corpus.json: a package row of another shape was an
    internal error (TypeError: string indices must be integers)."""
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "corpus.json").write_text(json.dumps({"schema": "erratlas.corpus/1", "packages": packages}))
    for verb in (["explain", demo_scanned_once, "e:demo.min.js@466"],
                 ["suggest", demo_scanned_once, "--out", tmp_path / "s.jsonl"]):
        refused(run(*verb, "--corpus", corpus), "corpus.json", "not a corpus manifest")
    assert not (tmp_path / "s.jsonl").exists()
