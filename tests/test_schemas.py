"""Issue 15: JSON Schemas for every JSON and JSONL output ship inside the package, are valid
schemas, are linked from the docs, and catch outputs that break them. (Every output a test
writes through the CLI is validated in conftest.run.)"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import jsonschema
import pytest
from conftest import ROOT, records, scan
from support.schemas import validate, validate_directory, validate_file

from analyzer.schemas import OUTPUT_SCHEMAS, known_schemas, load_schema, schema_file

DOCS = ROOT / "docs" / "schemas.md"


def test_every_shipped_schema_is_a_valid_schema_with_its_id() -> None:
    assert set(OUTPUT_SCHEMAS.values()) <= set(known_schemas())
    for name in known_schemas():
        document = load_schema(name)
        jsonschema.validators.validator_for(document).check_schema(document)
        family, version = name.removeprefix("erratlas.").split("/")
        assert document["$id"] == f"urn:erratlas:schema:{family}:{version}"


def test_docs_link_every_schema() -> None:
    text = DOCS.read_text(encoding="utf-8")
    for name in known_schemas():
        assert f"../analyzer/schemas/{schema_file(name)}" in text, name
    assert "[schemas.md](schemas.md)" in (ROOT / "docs" / "reference.md").read_text(encoding="utf-8")


def test_committed_demo_reports_validate() -> None:
    assert validate_directory(ROOT / "reports" / "demo") > 65


@pytest.mark.parametrize(
    ("file", "change"),
    [
        ("error-message-callsites.jsonl", lambda d: d.pop("readable")),
        ("error-message-callsites.jsonl", lambda d: d["message"].update(shape="novel")),
        ("error-message-callsites.jsonl", lambda d: d.update(extra=1)),
        ("error-diagnostic-owner-projection.jsonl", lambda d: d.update(owner="Somebody")),
        ("error-message-templates.jsonl", lambda d: d.update(count=0)),
        ("modules.jsonl", lambda d: d.update(fingerprint="fp1:" + "0" * 32)),
        ("error-diagnostic-owner-summary.json", lambda d: d["coverage"].pop("error")),
        ("handlers.jsonl", lambda d: d["branches"].clear()),
        ("handlers.jsonl", lambda d: d["branches"][0]["dispositions"][0].update(kind="ignore")),
        ("handlers.jsonl", lambda d: d.update(sourceBody="blank")),
        ("handlers.jsonl", lambda d: d.update(origin=None)),  # what the map does not place has no sourceBody
        ("handlers.jsonl", lambda d: d.update(form="except", catches=None)),  # nor does a Python clause
    ],
    ids=["missing-field", "unknown-shape", "unknown-field", "unknown-owner", "zero-count", "wrong-prefix",
         "missing-coverage", "handler-without-branch", "unknown-disposition", "unknown-source-body",
         "source-body-without-origin", "source-body-of-python"],
)
def test_a_broken_output_fails_its_schema(demo_scanned_once: Path, file: str, change: object) -> None:
    text = (demo_scanned_once / file).read_text()  # the session's scan of the demo, read only
    lines = text.split("\n")
    if file == "handlers.jsonl":  # one the demo's map places: it says what its original body held
        lines = [line for line in lines if '"sourceBody"' in line]
    document = json.loads(lines[0] if file.endswith(".jsonl") else text)
    validate(document, file)
    broken = copy.deepcopy(document)
    change(broken)  # type: ignore[operator]
    with pytest.raises(AssertionError):
        validate(broken, file)


def test_python_records_follow_the_same_schema(tmp_path: Path) -> None:
    out = tmp_path / "out"
    scan(ROOT / "fixtures" / "python" / "shadowing", out)
    assert validate_directory(out) >= len(records(out, "error")) + len(records(out, "diagnostic"))


def test_a_file_is_validated_again_once_its_bytes_change(tmp_path: Path, demo_bundle: Path) -> None:
    """The session remembers only bytes found valid (support/schemas.py): a file it has seen
    valid, then broken, fails."""
    out = tmp_path / "out"
    scan(demo_bundle, out)  # validated here, in conftest.run
    summary = out / "error-diagnostic-owner-summary.json"
    assert validate_file(summary, "erratlas.summary/1") == 1
    document = json.loads(summary.read_text())
    document["coverage"].pop("error")
    summary.write_text(json.dumps(document))
    with pytest.raises(AssertionError):
        validate_file(summary, "erratlas.summary/1")
