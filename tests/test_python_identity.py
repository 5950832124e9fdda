"""Python scans change no output byte unless a change says so.

`tests/golden/python_outputs.json` holds the sha256 of every output file of a scan of pip (the
copy installed beside this interpreter), requests 2.31.0 (the pinned wheel, unpacked) and a
sample of this interpreter's standard library, recorded by `tests/golden/record_python_outputs.py`
at the commit its `about` names. A scan today must write the same files with the same bytes. A
change that means to alter Python outputs records them again, and its commit says which files
changed and why (`git log tests/golden/python_outputs.json` lists every such change). A tree whose
input differs from the recorded one (another pip, another Python) is skipped: its golden values
say nothing about it.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import ROOT, SUMMARY, run, tree_bytes
from support import python_trees

GOLDEN = json.loads((ROOT / "tests" / "golden" / "python_outputs.json").read_text())


def _pip(parent: Path) -> Path:
    return python_trees.pip_tree()


def _requests(parent: Path) -> Path:
    try:
        return python_trees.requests_tree(parent)
    except python_trees.FetchError as exc:
        pytest.skip(str(exc))


TREES: dict[str, Callable[[Path], Path]] = {
    "pip": _pip,
    "requests": _requests,
    "stdlib-sample": python_trees.stdlib_sample,
}


def digests(files: dict[str, bytes]) -> dict[str, str]:
    return {name: hashlib.sha256(data).hexdigest() for name, data in files.items()}


@pytest.mark.slow
@pytest.mark.parametrize(("tree", "jobs"), [("pip", None), ("requests", "1"), ("stdlib-sample", None)])
def test_outputs_are_byte_identical_to_the_recorded_build(
        tree: str, jobs: str | None, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    """pip's scan is the session's (`pip_scan`, also read by tests/test_python_pip.py): the same
    tree with the default job count, which changes no byte."""
    golden = GOLDEN["trees"][tree]
    if tree == "pip":
        out = request.getfixturevalue("pip_scan")
    else:
        root = TREES[tree](tmp_path / "input")
        out = tmp_path / "scan"
        result = run("scan", root, "--out", out, *(("--jobs", jobs) if jobs else ()))
        assert result.returncode == 0, result.stderr
    bundle = json.loads((out / SUMMARY).read_text())["inputs"]["bundle"]
    if bundle != golden["bundle"]:
        pytest.skip(f"{tree}: input {bundle} is not the recorded {golden['bundle']}")
    got = digests(tree_bytes(out))
    assert sorted(got) == sorted(golden["files"])
    assert {n: d for n, d in got.items() if d != golden["files"][n]} == {}
