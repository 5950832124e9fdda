"""Every JSON and JSONL output validates against the schema it names (issue 15): the shipped
schemas of analyzer/schemas, read as the installed package ships them.

A file's bytes are validated once per test session: the real scans are shared and copied
(`release_scan`), and a `project` rewrites only the projection and the summary, so the same
59,000-line references.jsonl would otherwise be validated again after every verb (14 s for a
scan of cli.js, 27 s for the 2.1.235 executable: longer than the scan)."""

from __future__ import annotations

import functools
import hashlib
import io
import json
from pathlib import Path
from typing import Any

import jsonschema

from analyzer.schemas import OUTPUT_SCHEMAS, load_schema


@functools.cache
def _validator(schema: str) -> Any:
    document = load_schema(schema)
    cls = jsonschema.validators.validator_for(document)
    cls.check_schema(document)
    return cls(document, format_checker=None)


def validate(document: Any, where: str) -> None:
    """`document` follows the schema its `schema` field names."""
    assert isinstance(document, dict) and isinstance(document.get("schema"), str), f"{where}: no schema field"
    validator = _validator(document["schema"])
    if validator.is_valid(document):
        return
    error = jsonschema.exceptions.best_match(validator.iter_errors(document))
    assert error is None, f"{where}: {error.message} at {list(error.absolute_path)}"


#: (the schema asked for, JSON lines or not, sha256 of the file's bytes) -> the documents of
#: those bytes, all valid
_VALID: dict[tuple[str | None, bool, str], int] = {}


def validate_file(path: Path, expected: str | None = None) -> int:
    """Validate a JSON or JSONL output; returns the documents checked. Bytes already found
    valid against the same schema are not validated again (only a success is remembered)."""
    data = path.read_bytes()
    key = (expected, path.suffix == ".jsonl", hashlib.sha256(data).hexdigest())
    if key not in _VALID:
        _VALID[key] = _validate_text(io.TextIOWrapper(io.BytesIO(data), encoding="utf-8").read(), path, expected)
    return _VALID[key]


def _validate_text(text: str, path: Path, expected: str | None) -> int:
    lines = text.split("\n")  # not splitlines: U+2028 and friends stay inside JSON strings
    documents = [json.loads(line) for line in lines if line] if path.suffix == ".jsonl" else [json.loads(text)]
    for number, document in enumerate(documents, start=1):
        if expected is not None:
            assert document.get("schema") == expected, f"{path}:{number}: schema {document.get('schema')!r}"
        validate(document, f"{path}:{number}")
    return len(documents)


def validate_directory(directory: Path) -> int:
    """Every output of a scan directory that has a schema; returns the documents checked."""
    checked = 0
    for name, schema in OUTPUT_SCHEMAS.items():
        if (directory / name).exists():
            checked += validate_file(directory / name, schema)
    return checked
