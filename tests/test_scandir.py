"""The scan directory's one home (analyzer/scandir): its table names every file a scan writes,
its typed loaders give back the very records the scan wrote, and a record of another shape is
refused naming its file and line."""

from __future__ import annotations

import dataclasses
import hashlib
import sys
from pathlib import Path

import orjson
import pytest
from conftest import ROOT, run

from analyzer.diff_model import DiffDocument
from analyzer.errors import InputError
from analyzer.facts import BundledModule
from analyzer.handler_model import MappedJavaScriptHandler
from analyzer.model import Callsite, Candidate, ProjectionRow, ReferenceItem, Suggestion, SuggestionEvidence
from analyzer.scandir.files import (
    CALLSITE_FILES,
    HANDLERS_FILE,
    INDEX_DIRECTORY,
    MAP_SOURCES_FILE,
    MODULES_FILE,
    OUTPUTS,
    PROJECTION_FILE,
    READABLE_DIRECTORY,
    REFERENCES_FILE,
    SUGGESTION_SCHEMA,
    SUGGESTIONS_FILE,
    SUMMARY_FILE,
)
from analyzer.scandir.load import (
    _MISS,
    _fast,
    load_callsites,
    load_diff,
    load_map_sources,
    load_modules,
    load_projection,
    load_references,
    record_of,
    records_of,
    reference_fields,
)
from analyzer.scandir.read import verified
from analyzer.scandir.summary import summary_of


def _files(directory: Path) -> dict[str, bytes]:
    return {p.relative_to(directory).as_posix(): p.read_bytes() for p in directory.rglob("*") if p.is_file()}


def _lines(data: bytes) -> list[bytes]:
    return [line for line in data.split(b"\n") if line]


def test_every_file_a_scan_writes_is_in_the_table(demo_scanned_once: Path) -> None:
    names = {o.name for o in OUTPUTS}
    written = {n for n in _files(demo_scanned_once) if not n.startswith((READABLE_DIRECTORY, INDEX_DIRECTORY))}
    assert written <= names, written - names
    assert {o.name for o in OUTPUTS if o.always} <= written


def test_the_typed_loaders_give_back_every_byte_the_scan_wrote(demo_scanned_once: Path) -> None:
    files, _ = verified(demo_scanned_once)
    callsites = load_callsites(files)
    expected = [line for name in CALLSITE_FILES.values() for line in _lines(files[name])]
    assert [orjson.dumps(record) for record in callsites] == expected
    assert [orjson.dumps(row) for row in load_projection(files)] == _lines(files[PROJECTION_FILE])
    assert [orjson.dumps(item) for item in load_references(files)] == _lines(files[REFERENCES_FILE])
    assert [orjson.dumps(place) for place in load_map_sources(files[MAP_SOURCES_FILE])] == _lines(
        files[MAP_SOURCES_FILE])


def test_suggestions_load_back_as_the_records_suggest_wrote(demo_scan_copy: Path) -> None:
    assert run("suggest", demo_scan_copy).returncode == 0
    data = (demo_scan_copy / SUGGESTIONS_FILE).read_bytes()
    loaded = records_of(data, SUGGESTIONS_FILE, Suggestion, SUGGESTION_SCHEMA, "a suggestion")
    assert loaded and [orjson.dumps(row) for row in loaded] == _lines(data)


def _tamper(directory: Path, edit: dict[str, object]) -> None:
    """Edit the first error record's fields and record its new sha256, as a forger would."""
    path = directory / CALLSITE_FILES["error"]
    first, rest = path.read_bytes().split(b"\n", 1)
    path.write_bytes(orjson.dumps({**orjson.loads(first), **edit}) + b"\n" + rest)
    summary = orjson.loads((directory / SUMMARY_FILE).read_bytes())
    summary["outputs"][CALLSITE_FILES["error"]] = hashlib.sha256(path.read_bytes()).hexdigest()
    (directory / SUMMARY_FILE).write_bytes(orjson.dumps(summary, option=orjson.OPT_INDENT_2) + b"\n")


def test_a_record_holding_a_value_of_another_kind_is_refused_naming_file_line_and_field(
        demo_scan_copy: Path) -> None:
    _tamper(demo_scan_copy, {"offset": "466"})
    done = run("gate", demo_scan_copy)
    assert done.returncode == 2, done.stderr
    assert f"{CALLSITE_FILES['error']}:1" in done.stderr and "offset: str where int belongs" in done.stderr


def test_a_record_with_a_field_erratlas_never_writes_is_refused(demo_scan_copy: Path) -> None:
    _tamper(demo_scan_copy, {"owner": "Product"})
    done = run("explain", demo_scan_copy, "fp1:0")
    assert done.returncode == 2, done.stderr
    assert "Callsite with owner" in done.stderr


def _leaves(value: object, path: tuple[object, ...] = ()) -> list[tuple[tuple[object, ...], object]]:
    if isinstance(value, dict):
        return [leaf for key, inner in value.items() for leaf in _leaves(inner, (*path, key))]
    if isinstance(value, list):
        return [leaf for index, inner in enumerate(value) for leaf in _leaves(inner, (*path, index))]
    return [(path, value)]


def _replaced(document: object, path: tuple[object, ...], value: object) -> object:
    if not path:
        return value
    copy = orjson.loads(orjson.dumps(document))
    inner = copy
    for key in path[:-1]:
        inner = inner[key]
    inner[path[-1]] = value
    return copy


def _compiled_agrees(record: type, documents: list[object], first: int = 8) -> int:
    """The compiled fast path builds what the checked builder does on every document, and for
    each leaf of the first documents swapped for a value of another kind (or removed, or joined
    by a field never written) makes nothing where the checked builder refuses: how many refused."""
    from analyzer.scandir.load import _MISS, _builder, _fast, record_of

    assert all(_fast(record)(d) == _builder(record)(d) for d in documents)
    # made as its slots' twin, then given its class: the record itself, frozen, shown as the record
    made = [_fast(record)(d) for d in documents[:first]]
    assert all(type(m) is record and repr(m) == repr(_builder(record)(d)) for m, d in zip(made, documents))
    with pytest.raises(dataclasses.FrozenInstanceError):
        made[0].schema = "changed"
    refused = 0
    for document in documents[:first]:
        assert isinstance(document, dict)
        for path, value in _leaves(document):
            for other in ({"x": 1}, [1], "s", 1.5, True, None):
                if type(other) is type(value) or (type(value) is int and type(other) is float):
                    continue
                changed = _replaced(document, path, other)
                try:
                    slow = _builder(record)(changed)
                except Exception:  # the checked builder refuses it: so must the fast path
                    assert _fast(record)(changed) is _MISS, (path, other)
                    with pytest.raises(InputError, match="not the shape erratlas writes"):
                        record_of(record, changed, "f:1")
                    refused += 1
                else:
                    assert _fast(record)(changed) == slow, (path, other)
        assert _fast(record)({**document, "extra": 1}) is _MISS
        assert _fast(record)(dict(list(document.items())[1:])) is _MISS
    return refused


def test_the_compiled_loader_builds_what_the_checked_one_does_and_refuses_what_it_refuses(
        demo_scanned_once: Path) -> None:
    """On callsites, module rows (lists of lists) and suggestions (candidates that are records or
    package names): the fast path and the checked builder agree, leaf by leaf."""
    files, _ = verified(demo_scanned_once)
    documents = [orjson.loads(line) for name in CALLSITE_FILES.values() for line in _lines(files[name])]
    assert _compiled_agrees(Callsite, documents) > 500
    modules = [orjson.loads(line) for line in _lines(files[MODULES_FILE])]
    assert any(len(m["spans"]) for m in modules)
    assert _compiled_agrees(BundledModule, modules, first=3) > 50
    assert [orjson.dumps(row) for row in load_modules(files)] == _lines(files[MODULES_FILE])
    # a record whose slots are partly its base's (a handler of one language)
    handlers = [orjson.loads(line) for line in _lines(files[HANDLERS_FILE])]
    # the demo has a source map: each handler it places says what its original body held
    assert _compiled_agrees(MappedJavaScriptHandler, [h for h in handlers if "sourceBody" in h], first=2) > 50
    plain = orjson.loads(orjson.dumps(Suggestion(
        SUGGESTION_SCHEMA, "s:callsite:x", "callsite", {"callsite": "fp1:0"}, 2, None, None, None, None, None,
        "ambiguous", (SuggestionEvidence("source-map", "a.js"),), None, 2, ("x",), None, "r")))
    suggestions = [plain, {**plain, "candidates": [{"owner": "Dependency", "package": "a", "callsites": 1},
                                                   {"owner": "Product", "package": None, "callsites": 1}]},
                   {**plain, "candidates": ["a", "b"]}]
    assert _compiled_agrees(Suggestion, suggestions) > 50
    built = _fast(Suggestion)(suggestions[1]).candidates
    assert built == (Candidate("Dependency", "a", 1), Candidate("Product", None, 1))
    for wrong in ([1], [None]):  # neither a record nor a name
        assert _fast(Suggestion)({**plain, "candidates": wrong}) is _MISS
        with pytest.raises(InputError, match=r"candidates: (int|NoneType) where dict or str belongs"):
            record_of(Suggestion, {**plain, "candidates": wrong}, "f:1")


def test_the_reference_graph_reads_each_item_as_its_records_fields_and_refuses_what_the_loader_refuses(
        demo_scanned_once: Path) -> None:
    """`reference_fields` (the graph's read, no records made) gives each item's fields as tuples,
    nested records too, exactly as the records it checks them as; on each leaf swapped for a
    value of another kind, its fast path makes nothing where the checked builder refuses."""
    files, _ = verified(demo_scanned_once)
    assert reference_fields(files) == [dataclasses.astuple(item) for item in load_references(files)]
    documents = [orjson.loads(line) for line in _lines(files[REFERENCES_FILE])]
    declaring = [d for d in documents if d["declares"] and any(b["copies"] for b in d["declares"])][:2]
    assert declaring, "the demo declares a binding with copies"
    as_fields = _fast(ReferenceItem, True)
    for document in declaring:
        for path, value in _leaves(document):
            for other in ({"x": 1}, [1], "s", 1.5, True, None):
                if type(other) is type(value):
                    continue
                changed = _replaced(document, path, other)
                try:
                    made = dataclasses.astuple(record_of(ReferenceItem, changed, "f:1"))
                except InputError:
                    assert as_fields(changed) is _MISS, (path, other)
                else:
                    assert as_fields(changed) == made, (path, other)


def test_a_reference_item_of_another_shape_is_refused_naming_file_line_and_field(demo_scan_copy: Path) -> None:
    """The graph is read only for an allowlist with a `references` entry (the demo's has)."""
    path = demo_scan_copy / REFERENCES_FILE
    first, rest = path.read_bytes().split(b"\n", 1)
    path.write_bytes(orjson.dumps({**orjson.loads(first), "endOffset": "9"}) + b"\n" + rest)
    summary = orjson.loads((demo_scan_copy / SUMMARY_FILE).read_bytes())
    summary["outputs"][REFERENCES_FILE] = hashlib.sha256(path.read_bytes()).hexdigest()
    (demo_scan_copy / SUMMARY_FILE).write_bytes(orjson.dumps(summary, option=orjson.OPT_INDENT_2) + b"\n")
    done = run("project", demo_scan_copy, "-a", ROOT / "allowlists" / "demo.toml")
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert f"{REFERENCES_FILE}:1" in done.stderr and "endOffset: str where int belongs" in done.stderr, done.stderr


def test_a_diff_document_loads_back_as_the_record_diff_wrote(demo_scanned_once: Path, tmp_path: Path) -> None:
    done = run("diff", demo_scanned_once, demo_scanned_once, "--out", tmp_path / "d")
    assert done.returncode == 0, done.stderr
    raw = (tmp_path / "d" / "diff.json").read_bytes()
    loaded = load_diff(raw, "diff.json")
    assert loaded.pairs and orjson.dumps(loaded, option=orjson.OPT_INDENT_2) + b"\n" == raw
    document = orjson.loads(raw)
    pair = document["pairs"][0]
    every_part = {**document, "pairs": [{**pair, "carried": {"owner": "Dependency", "package": "a"}}, pair],
                  "added": [pair["new"]], "removed": [pair["old"]], "ambiguous": [pair["new"]]}
    assert _compiled_agrees(DiffDocument, [every_part, document], first=1) > 50
    with pytest.raises(InputError, match=r"diff\.json: not the shape erratlas writes: pairs: DiffPair with x"):
        load_diff(orjson.dumps({**document, "pairs": [{**pair, "carried": None, "x": 1}]}), "diff.json")


def test_the_summary_parts_the_verbs_read_are_typed_and_another_shape_is_refused(demo_scan_copy: Path) -> None:
    _, summary = verified(demo_scan_copy)
    document = orjson.loads((demo_scan_copy / SUMMARY_FILE).read_bytes())
    assert summary.document == document and summary_of(document, SUMMARY_FILE) == summary
    assert orjson.loads(orjson.dumps(summary.bundle)) == document["inputs"]["bundle"]
    assert orjson.loads(orjson.dumps(summary.coverage)) == document["coverage"]
    assert orjson.loads(orjson.dumps(summary.fingerprint)) == document["fingerprint"]
    assert orjson.loads(orjson.dumps(summary.owners)) == document["owners"]
    assert orjson.loads(orjson.dumps(summary.sourceMaps)) == document["modules"]["sourceMaps"]
    assert summary.sourceMaps[0].packageRoot is not None and summary.outputs == document["outputs"]
    assert summary.total == document["counts"]["total"] > 0
    assert list(summary.unresolvedFingerprints) == document["unresolvedFingerprints"]
    path = demo_scan_copy / SUMMARY_FILE
    path.write_bytes(orjson.dumps({**document, "stale": [{"entry": "a.toml#1"}]}, option=orjson.OPT_INDENT_2) + b"\n")
    done = run("explain", demo_scan_copy, "fp1:0")
    assert done.returncode == 2, done.stderr
    assert "stale[0]: not the shape erratlas writes: StaleEntry without copies" in done.stderr


@pytest.mark.parametrize(("part", "value", "said"), [
    (("modules", "sourceMaps"), [{"unit": "demo.min.js"}], "modules.sourceMaps[0]: not the shape erratlas writes: "
                                                            "SourceMapRow without map"),
    (("fingerprint", "grammar"), ["tree-sitter"], "fingerprint"),
    (("owners", "byKind"), [], "owners: not the shape erratlas writes: byKind: list where dict belongs"),
])
def test_a_summary_part_sarif_and_the_gate_read_of_another_shape_is_refused_naming_it(
        demo_scan_copy: Path, part: tuple[str, str], value: object, said: str) -> None:
    """The verified read types the summary before any verb uses it: one line, exit 2, no traceback."""
    path = demo_scan_copy / SUMMARY_FILE
    document = orjson.loads(path.read_bytes())
    document[part[0]][part[1]] = value
    path.write_bytes(orjson.dumps(document, option=orjson.OPT_INDENT_2) + b"\n")
    for verb in (("sarif", demo_scan_copy), ("gate", demo_scan_copy)):
        done = run(*verb)
        assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
        assert said in done.stderr and len(done.stderr.strip().splitlines()) == 1, done.stderr


def _projected_with_demo_allowlist(directory: Path) -> list[object]:
    done = run("project", directory, "-a", ROOT / "allowlists" / "demo.toml")
    assert done.returncode == 0, done.stderr
    return [orjson.loads(line) for line in _lines((directory / PROJECTION_FILE).read_bytes())]


def test_owner_evidence_is_typed_and_a_chain_loads_back_link_by_link(demo_scan_copy: Path) -> None:
    """A projection row's `evidence` is an OwnerEvidence (and its `chain` ChainLinks): the fast
    path and the checked builder agree on it, leaf by leaf, and the rows write back byte for byte."""
    rows = _projected_with_demo_allowlist(demo_scan_copy)
    chained = [row for row in rows if isinstance(row, dict) and row["evidence"] and "chain" in row["evidence"]]
    assert chained
    assert _compiled_agrees(ProjectionRow, chained, first=2) > 20
    files, _ = verified(demo_scan_copy)
    assert [orjson.dumps(row) for row in load_projection(files)] == _lines(files[PROJECTION_FILE])


@pytest.mark.parametrize(("edit", "said"), [
    ({"note": "x"}, "evidence: OwnerEvidence with note"),
    ({"chain": [{"item": "i:x@1", "binding": "a"}]}, "evidence: chain: ChainLink without fingerprint"),
])
def test_owner_evidence_of_another_shape_is_refused_naming_the_key(demo_scan_copy: Path, edit: dict[str, object],
                                                                   said: str) -> None:
    rows = _projected_with_demo_allowlist(demo_scan_copy)
    number = next(n for n, row in enumerate(rows, start=1) if isinstance(row, dict) and row["evidence"])
    path = demo_scan_copy / PROJECTION_FILE
    lines = path.read_bytes().split(b"\n")
    row = orjson.loads(lines[number - 1])
    lines[number - 1] = orjson.dumps({**row, "evidence": {**row["evidence"], **edit}})
    path.write_bytes(b"\n".join(lines))
    summary = orjson.loads((demo_scan_copy / SUMMARY_FILE).read_bytes())
    summary["outputs"][PROJECTION_FILE] = hashlib.sha256(path.read_bytes()).hexdigest()
    (demo_scan_copy / SUMMARY_FILE).write_bytes(orjson.dumps(summary, option=orjson.OPT_INDENT_2) + b"\n")
    done = run("sarif", demo_scan_copy)
    assert done.returncode == 2, done.stderr
    assert f"{PROJECTION_FILE}:{number}" in done.stderr and said in done.stderr


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="renameat2 is Linux's")
def test_swap_in_exchanges_an_existing_directory_in_one_step(tmp_path: Path) -> None:
    """On Linux the new directory takes the old one's place by one renameat2(RENAME_EXCHANGE),
    found among the process's own symbols; the old one is then removed."""
    from analyzer.scandir import write

    staging, target = tmp_path / "staging", tmp_path / "out"
    staging.mkdir()
    (staging / "new").write_text("new")
    target.mkdir()
    (target / "old").write_text("old")
    assert write._exchange(staging, target)  # exchanged back below
    assert (staging / "old").exists() and (target / "new").exists()
    write.swap_in(target, staging)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["staging"]
    assert [p.name for p in staging.iterdir()] == ["new"]
