"""The committed fixtures are exactly what fixtures/build.sh regenerates from source."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from conftest import FIXTURES, ROOT, run, tree_bytes

GENERATED = ["demo", "hostile", "licenses", "es5/built", "monorepo/packages/app/dist"]
#: hand-written sources that live beside the generated files (hostile/safety/ has its own
#: make.py, checked by tests/test_archive_bounds.py; hostile/mutants and hostile/python are
#: written by hand or minimized, checked by the hostile tests)
SOURCES = {"hostile/hostile.js", "hostile/safety", "hostile/mutants", "hostile/python"}


def test_build_script_regenerates_the_committed_fixtures(tmp_path: Path) -> None:
    modules = FIXTURES / "node_modules"
    assert modules.is_dir(), "run `npm ci --ignore-scripts` in fixtures/ first (README, second command)"
    copy = tmp_path / "fixtures"
    shutil.copytree(FIXTURES, copy, ignore=shutil.ignore_patterns("node_modules", ".build"), symlinks=True)
    for name in GENERATED:
        for path in (copy / name).iterdir():
            if f"{name}/{path.name}" not in SOURCES:
                path.unlink()
    shutil.copytree(modules, copy / "node_modules", symlinks=True)  # a symlink would change the paths in maps
    result = subprocess.run(["bash", "build.sh", "--no-install"], cwd=copy, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
    for name in GENERATED:
        assert tree_bytes(copy / name) == tree_bytes(FIXTURES / name), name
    assert (copy / "shadowing" / "expected.json").read_bytes() == (
        FIXTURES / "shadowing" / "expected.json"
    ).read_bytes()


def test_committed_demo_reports_are_current(tmp_path: Path) -> None:
    """reports/demo is what the README's first command writes."""
    result = run("scan", "fixtures/demo/demo.min.js", "--out", tmp_path / "demo", cwd=ROOT)
    assert result.returncode == 0, result.stderr
    assert tree_bytes(tmp_path / "demo") == tree_bytes(ROOT / "reports" / "demo")
