"""The committed fixtures are exactly what fixtures/build.sh regenerates from source."""

from __future__ import annotations

import shlex
import shutil
import subprocess
from pathlib import Path

from conftest import FIXTURES, ROOT, run, tree_bytes

GENERATED = ["demo", "hostile", "licenses", "jstree", "es5/built", "monorepo/packages/app/dist", "flow/built",
             "eslint/built"]
#: hand-written sources that live beside the generated files (hostile/safety/ has its own
#: make.py, checked by tests/test_archive_bounds.py; hostile/mutants and hostile/python are
#: written by hand or minimized, checked by the hostile tests)
SOURCES = {"hostile/hostile.js", "hostile/safety", "hostile/mutants", "hostile/python", "jstree/pkg"}


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


def _first_command() -> list[list[str]]:
    """The erratlas steps of the README's first command (one line), each as its arguments."""
    readme = (ROOT / "README.md").read_text().splitlines()
    line = next(line for line in readme if line.startswith("python3 -m venv .venv && ") and "reports/demo" in line)
    steps = [shlex.split(step) for step in line.split(" && ")]
    return [step[1:] for step in steps if step[0] == ".venv/bin/erratlas"]


def test_committed_demo_reports_are_current(tmp_path: Path) -> None:
    """reports/demo is what the README's first command writes."""
    steps = _first_command()
    assert [step[0] for step in steps] == ["scan", "gate"]
    result = run(*[str(tmp_path / "demo") if arg == "reports/demo" else arg for arg in steps[0]], cwd=ROOT)
    assert result.returncode == 0, result.stderr
    assert tree_bytes(tmp_path / "demo") == tree_bytes(ROOT / "reports" / "demo")


def test_the_first_command_shows_every_owner_class_and_a_verdict(tmp_path: Path) -> None:
    """Run from the repository as a fresh clone has it: non-zero Product and Dependency rows, the
    Unresolved row, and the gate's verdict."""
    scan_step, gate_step = _first_command()
    out = str(tmp_path / "demo")
    assert run(*[out if arg == "reports/demo" else arg for arg in scan_step], cwd=ROOT).returncode == 0
    gate = run(*[out if arg == "reports/demo" else arg for arg in gate_step], cwd=ROOT)
    assert gate.returncode == 0, gate.stdout + gate.stderr
    rows = {line.split()[0]: [int(n) for n in line.split()[1:]] for line in gate.stdout.splitlines()[1:4]}
    assert list(rows) == ["Product", "Dependency", "Unresolved"]
    assert rows["Product"][2] > 0 and rows["Dependency"][2] > 0 and rows["Unresolved"][2] > 0
    assert gate.stdout.splitlines()[-1].startswith("gate passed: coverage ")


def test_the_demo_allowlist_is_what_suggest_and_accept_make_of_its_map(tmp_path: Path) -> None:
    """allowlists/demo.toml is regenerable: the commands docs/owners.md gives, on the demo and its map."""
    out, made = tmp_path / "scan", tmp_path / "demo.toml"
    assert run("scan", "fixtures/demo/demo.min.js", "--out", out, cwd=ROOT).returncode == 0
    assert run("suggest", out).returncode == 0
    result = run("accept", out, "-a", made, "--reviewer", "erratlas-demo", "--confidence", "likely", "--on",
                 "2026-12-02", "--note", DEMO_NOTE)
    assert result.returncode == 0, result.stderr
    assert made.read_bytes() == (ROOT / "allowlists" / "demo.toml").read_bytes()


DEMO_NOTE = "reviewed against fixtures/src/demo-app (Product) and fixtures/node_modules (Dependency)"
