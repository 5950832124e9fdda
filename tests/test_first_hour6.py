"""What a new user meets in the first hour, continued from tests/test_first_hour5.py: a `--jobs`
beyond the machine (docs/reference.md, "Bounds"), a gate's line naming what differs in a summary
(docs/reference.md, "The gate") and `sarif --bundle` given the wrong thing (docs/reference.md,
"SARIF")."""

from __future__ import annotations

import resource
from pathlib import Path

from conftest import run, tree_bytes


def _few_open_files() -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (64, 64))


def test_a_jobs_beyond_the_cores_starts_no_more_workers_than_the_cores(tmp_path: Path) -> None:
    """`--jobs 200` on a tree of 120 files forked 120 workers, two pipe ends each: past the
    open-file limit (64 here, 256 on macOS) it was an internal error, exit 3."""
    tree = tmp_path / "tree" / "pkg"
    tree.mkdir(parents=True)
    for number in range(120):
        (tree / f"m{number}.py").write_text(f'def f(x):\n    raise ValueError("bad {number}")\n')
    one = run("scan", tree.parent, "--out", tmp_path / "one", "--jobs", "1")
    assert one.returncode == 0, one.stderr
    many = run("scan", tree.parent, "--out", tmp_path / "many", "--jobs", "200", preexec_fn=_few_open_files)
    assert many.returncode == 0, many.stderr
    assert tree_bytes(tmp_path / "many") == tree_bytes(tmp_path / "one")
