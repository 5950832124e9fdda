"""erratlas installs like any Python tool: a wheel in a fresh virtual environment, run from a
directory that is not the checkout, finds its default rules and runs every verb.

The wheel is built from this checkout with `pip wheel`, installed with its dependencies from
the package index into a new venv under a temporary directory, and every command runs with
that directory as its working directory and no PYTHONPATH, so nothing can be read from the
source tree."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import FIXTURES, ROOT, SUMMARY
from support import npm_cache
from support.schemas import validate_directory

from analyzer.schemas import OUTPUT_SCHEMAS

pytestmark = pytest.mark.network  # the wheel's dependencies come from the package index


class Installed:
    """The erratlas of a wheel installed in a fresh venv, run away from the checkout."""

    def __init__(self, venv: Path, home: Path) -> None:
        self.venv = venv
        self.home = home
        self.env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "ERRATLAS_DEBUG", "VIRTUAL_ENV")}

    def run(self, *args: object, expect: int = 0) -> subprocess.CompletedProcess[str]:
        done = subprocess.run(
            [str(self.venv / "bin" / "erratlas"), *map(str, args)],
            cwd=self.home, env=self.env, capture_output=True, text=True, timeout=900,
        )
        assert done.returncode == expect, (args, done.returncode, done.stdout, done.stderr)
        assert "Traceback" not in done.stderr
        return done

    def python(self, code: str) -> str:
        done = subprocess.run([str(self.venv / "bin" / "python"), "-c", code], cwd=self.home, env=self.env,
                              capture_output=True, text=True, timeout=120, check=True)
        return done.stdout.strip()


_LEFTOVERS = shutil.ignore_patterns("__pycache__", "*.egg-info", ".*_cache")
#: top-level folders a clean clone does not have, or that the wheel never reads
_TOP_LEVEL = {".venv", ".git", "build", "dist", "reports", "fixtures", "bench"}


def _untracked(directory: str, names: list[str]) -> set[str]:
    skipped = set(_LEFTOVERS(directory, names))
    if Path(directory) == ROOT:
        skipped |= _TOP_LEVEL & set(names)
    return skipped


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    work = tmp_path_factory.mktemp("wheel")
    source = work / "source"
    # a copy of the tracked tree without build leftovers: the wheel is what a clean clone builds
    shutil.copytree(ROOT, source, ignore=_untracked)
    wheels = work / "wheels"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", wheels, source],
                   check=True, capture_output=True, timeout=600)
    (wheel,) = wheels.glob("erratlas-*.whl")
    venv = work / "venv"
    subprocess.run([sys.executable, "-m", "venv", venv], check=True, timeout=300)
    subprocess.run([venv / "bin" / "pip", "install", "-q", wheel], check=True, capture_output=True, timeout=900)
    home = work / "home"
    home.mkdir()
    return Installed(venv, home)


def test_the_package_is_imported_from_the_venv_not_the_checkout(installed: Installed) -> None:
    where = Path(installed.python("import analyzer; print(analyzer.__file__)"))
    assert installed.venv in where.parents
    rules = installed.python("from analyzer.rules import shipped_rules_path as d; print(d('javascript'))")
    assert str(installed.venv) in rules and rules.endswith("javascript.toml")


def test_demo_bundle_scans_and_gates_with_the_packaged_rules(installed: Installed) -> None:
    out = installed.home / "demo"
    installed.run("scan", FIXTURES / "demo" / "demo.min.js", "--out", out)
    summary = json.loads((out / SUMMARY).read_text())
    assert summary["counts"]["byKind"] == {"error": 43, "diagnostic": 22}
    assert summary["inputs"]["rules"]["name"] == "javascript.toml"
    assert summary["fingerprint"]["grammar"]["tree-sitter-javascript"].startswith("0.25.")
    installed.run("gate", out)
    installed.run("gate", out, "--min-coverage", "0.5", expect=1)


def test_every_owner_verb_runs_from_the_wheel(installed: Installed) -> None:
    out = installed.home / "owners"
    installed.run("scan", FIXTURES / "demo" / "demo.min.js", "--out", out)
    allowlist = installed.home / "owners.toml"
    first = json.loads((out / "error-message-callsites.jsonl").read_text().splitlines()[0])
    installed.run("allow", out, first["id"], "-a", allowlist, "--owner", "Product", "--reason", "demo",
                  "--reviewer", "ci", "--on", "2026-12-01")
    installed.run("project", out, "-a", allowlist)
    installed.run("suggest", out)
    installed.run("prune", out, "-a", allowlist)
    installed.run("gate", out)
    installed.run("sarif", out, "--out", installed.home / "owners.sarif")
    installed.run("explain", out, first["id"])
    installed.run("fmt", "--check", allowlist)
    assert installed.run("version").stdout.strip()
    shipped = installed.python("from analyzer.schemas import known_schemas; print(' '.join(known_schemas()))")
    assert set(shipped.split()) >= set(OUTPUT_SCHEMAS.values())  # the schemas ship inside the wheel
    assert validate_directory(out) > 65


def test_real_cli_js_scans_from_the_wheel(installed: Installed) -> None:
    cli_js = npm_cache.main_file("@anthropic-ai/claude-code", "2.1.100")
    out = installed.home / "cli"
    installed.run("scan", cli_js, "--out", out)
    summary = json.loads((out / SUMMARY).read_text())
    assert summary["counts"]["byKind"] == {"error": 3401, "diagnostic": 2503}
    installed.run("gate", out)


def test_python_tree_scans_with_the_packaged_python_rules(installed: Installed) -> None:
    tree = Path(installed.python("import typer, os; print(os.path.dirname(typer.__file__))"))
    out = installed.home / "python"
    installed.run("scan", tree, "--out", out)
    summary = json.loads((out / SUMMARY).read_text())
    assert summary["inputs"]["rules"]["name"] == "python.toml"
    assert summary["counts"]["total"] > 0
    assert set(summary["fingerprint"]["grammar"]) == {"libcst"}
    installed.run("gate", out)


def test_bun_executable_extracts_from_the_wheel(installed: Installed) -> None:
    binary = npm_cache.main_file("@anthropic-ai/claude-code-linux-x64", "2.1.150")
    out = installed.home / "extracted"
    installed.run("extract", binary, "--out", out)
    assert (out / "manifest.json").is_file()
