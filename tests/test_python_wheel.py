"""A real wheel from PyPI gives the same records as its unpacked tree (issue 5).

The wheel is the pinned requests 2.31.0 (`tests/support/python_trees.py`: fetched once with
pip, checked against PyPI's published sha256, reused from `$ERRATLAS_CACHE/pypi/`).
"""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest
from conftest import SUMMARY, records, scan
from support.python_trees import REQUESTS_SHA256, FetchError, fetch_requests_wheel

pytestmark = pytest.mark.network


@pytest.fixture(scope="module")
def wheel() -> Path:
    try:
        return fetch_requests_wheel()
    except FetchError as exc:
        pytest.skip(str(exc))


OUTPUTS = (
    "error-message-callsites.jsonl", "diagnostic-message-callsites.jsonl", "error-classes.jsonl",
    "error-message-templates.jsonl", "diagnostic-message-templates.jsonl", "error-message-literals.txt",
    "diagnostic-message-literals.txt", "modules.jsonl", "error-diagnostic-owner-projection.jsonl",
)


def test_wheel_gives_the_records_of_its_unpacked_tree(wheel: Path, tmp_path: Path) -> None:
    tree = tmp_path / "unpacked"
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(tree)  # our own pinned wheel: trusted, unlike the archives erratlas reads
    scan(wheel, tmp_path / "from-wheel")
    scan(tree, tmp_path / "from-tree")
    for name in OUTPUTS:
        assert (tmp_path / "from-wheel" / name).read_bytes() == (tmp_path / "from-tree" / name).read_bytes(), name
    summaries = [json.loads((tmp_path / d / SUMMARY).read_text()) for d in ("from-wheel", "from-tree")]
    assert summaries[0]["inputs"]["units"] == summaries[1]["inputs"]["units"]
    assert summaries[0]["counts"] == summaries[1]["counts"]
    assert summaries[0]["inputs"]["bundle"]["sha256"] == REQUESTS_SHA256


def test_wheel_records_what_requests_does(wheel: Path, tmp_path: Path) -> None:
    out = tmp_path / "scan"
    scan(wheel, out)
    errors = records(out, "error")
    constructors = {str(r["constructor"]) for r in errors}
    assert "requests.exceptions.InvalidURL" in constructors
    assert {"ValueError", "TypeError"} <= constructors
    diagnostics = records(out, "diagnostic")
    assert diagnostics and {r["calleeRole"] for r in diagnostics} == {"warnings"}  # requests never logs
    classes = {json.loads(line)["name"]: json.loads(line) for line in (out / "error-classes.jsonl").open()}
    # RequestException(IOError) in requests.exceptions; ConnectionError derives from it
    assert classes["requests.exceptions.RequestException"]["rootConstructor"] == "IOError"
    assert classes["requests.exceptions.ConnectionError"]["rootConstructor"] == "IOError"
    assert all(u["vendored"] is None for u in json.loads((out / SUMMARY).read_text())["loggers"])
