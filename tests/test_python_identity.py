"""Python scans change no output byte unless a change says so.

`tests/golden/python_outputs.json` holds the sha256 of every output file of a scan of pip (the
copy installed beside this interpreter), requests 2.31.0 (the pinned wheel, unpacked) and a
sample of this interpreter's standard library, recorded by `tests/golden/record_python_outputs.py`
at the commit its `about` names. It was first recorded before issue 14 made Python scans fast
(1e5ae64), and recorded again when issue 21 named Python renderings `readable/<unit>.py` and
rewrote the index pages' wording: against 1e5ae64's outputs, every other file of the three scans
was the same bytes once its renderings' names were written the new way. It was recorded again
when the one-pass resolver became the only one: the stdlib sample gains 5 error callsites
(asyncio's `exceptions.TimeoutError(...)`, the builtin by `TimeoutError = TimeoutError`), as
libcst's scope analysis reads them; pip and requests kept every byte. It was recorded again
when Python scans began to write handlers.jsonl (issue 24): each tree gained that file, the
summary its `handlers` block (and the new files' hashes), and `readable/` the renderings of the
units with `except` clauses but no callsite (their handler records link to them); every other
file kept its bytes. It was recorded again when handlers were owned like the code they sit in:
each tree gained handler-owner-projection.jsonl and the index's flow pages, the index its flow
section and the summary its `handlerOwners`. It was recorded again when Python error callsites
gained their `flow` (issue 24): against main's own outputs at dfed69a, only the error callsites
file and its hash in the summary changed in each tree (the diagnostics and handlers files differ
from the record before by what main had changed since). It was recorded again when every
handler got a row under an anchor of its own on the flow pages: against main's outputs at
86f339a, pip gained index/flow-handlers-01.md, and only the index, flow.md, flow-tests-01.md and
the summary's output hashes changed. It was recorded again when the shipped rules' comments
stopped naming a spec outside the repository: only each summary changed (the rules' sha256).
It was recorded again when Python dispositions gained `causeSuppressed` (`raise X from None`,
issue 24): against main's outputs at fa5090c, each tree's handlers.jsonl and summary changed,
and pip's and the stdlib sample's flow.md and flow-handlers-01.md (a suppressed lost cause is
no `wrap-loses-cause` finding; pip: 105 of 123 left). A scan today must
write the same files with the same bytes. A tree whose input differs from the recorded one
(another pip, another Python) is skipped: its golden values say nothing about it.
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
