"""Issue 15: docs/ci.md cannot rot. Its GitHub Actions workflow, GitLab CI job and pre-commit
hook are read from the document, and every shell command in them is run against the demo
bundle in a repository laid out as the document says (the install commands aside: the test
uses the erratlas it tests)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml
from conftest import FIXTURES, ROOT, SUMMARY, erratlas_command, run
from markdown_it import MarkdownIt
from test_sarif import validate_official

DOCUMENT = ROOT / "docs" / "ci.md"
_INSTALL = re.compile(r"^\s*python -m pip install ")


def yaml_blocks() -> list[dict]:  # type: ignore[type-arg]
    tokens = MarkdownIt("commonmark").parse(DOCUMENT.read_text(encoding="utf-8"))
    return [yaml.safe_load(t.content) for t in tokens if t.type == "fence" and t.info.strip() == "yaml"]


def github_workflow() -> dict:  # type: ignore[type-arg]
    (workflow,) = [b for b in yaml_blocks() if "jobs" in b]
    return workflow


def gitlab_job() -> dict:  # type: ignore[type-arg]
    (job,) = [v for b in yaml_blocks() if "jobs" not in b and "repos" not in b for v in b.values()
              if isinstance(v, dict) and "script" in v]
    return job


def precommit_hook() -> dict:  # type: ignore[type-arg]
    (config,) = [b for b in yaml_blocks() if "repos" in b]
    (hook,) = config["repos"][0]["hooks"]
    return hook


def shell(script: str, repository: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """A `run:`/`script:` command as CI runs it: bash with -e, in the repository's root."""
    lines = "\n".join(line for line in script.splitlines() if not _INSTALL.match(line))
    path = f"{Path(erratlas_command()).parent}{os.pathsep}{os.environ.get('PATH', '')}"
    environment = {**os.environ, **env, "PATH": path}
    environment.pop("ERRATLAS_DEBUG", None)
    return subprocess.run(["bash", "-e", "-c", lines], cwd=repository, env=environment, capture_output=True,
                          text=True, timeout=600, check=False)


@pytest.fixture
def repository(tmp_path: Path) -> Path:
    """A repository as the document lays it out: the release artifact in dist/, a reviewed
    allowlist under allowlists/ (the demo's accepted suggestions), a baseline summary."""
    repo = tmp_path / "repo"
    (repo / "dist").mkdir(parents=True)
    (repo / "package.json").write_text('{"name": "app", "version": "1.0.0"}\n')  # the package root
    shutil.copy(FIXTURES / "demo" / "demo.min.js", repo / "dist" / "cli.js")
    shutil.copy(FIXTURES / "demo" / "demo.min.js.map", repo / "dist" / "demo.min.js.map")  # its sourceMappingURL
    first = tmp_path / "first"
    assert run("scan", repo / "dist" / "cli.js", "--out", first).returncode == 0
    assert run("suggest", first).returncode == 0
    assert run("accept", first, "--allowlist", repo / "allowlists" / "app.toml", "--reviewer", "ci-docs",
               "--confidence", "possible", "--on", "2026-11-29").returncode == 0
    assert run("project", first, "--allowlist", repo / "allowlists" / "app.toml").returncode == 0
    (repo / "erratlas").mkdir()
    shutil.copy(first / SUMMARY, repo / "erratlas" / "baseline-summary.json")
    return repo


def run_github(repository: Path) -> list[tuple[str, subprocess.CompletedProcess[str]]]:
    (job,) = github_workflow()["jobs"].values()
    done = []
    for step in job["steps"]:
        if "run" in step:
            done.append((step.get("name", ""), shell(step["run"], repository, job.get("env", {}))))
    return done


def test_github_workflow_commands_run_on_the_demo(repository: Path) -> None:
    steps = run_github(repository)
    assert [name for name, _ in steps] == ["Install erratlas", "Scan the release artifact",
                                           "Project the reviewed allowlists", "SARIF for code scanning", "Gate"]
    for name, result in steps:
        assert result.returncode == 0, (name, result.stdout, result.stderr)
    import json

    log = json.loads((repository / "erratlas.sarif").read_text())
    validate_official(log)
    assert all(r["baselineState"] == "unchanged" for r in log["runs"][0]["results"])  # against its own baseline
    assert "::notice title=erratlas gate::passed" in steps[-1][1].stdout


def test_github_workflow_gate_fails_without_owners(repository: Path) -> None:
    allowlist = repository / "allowlists" / "app.toml"
    allowlist.write_text(allowlist.read_text().split("[[entry]]", 1)[0])  # no entry left
    (repository / "erratlas" / "baseline-summary.json").unlink()  # and no baseline: the else branches
    steps = dict(run_github(repository))
    assert steps["SARIF for code scanning"].returncode == 0
    import json

    # every callsite Unresolved: those the map places at its original source, a path of the
    # checkout (docs/reference.md, SARIF), the rest at their readable line
    results = json.loads((repository / "erratlas.sarif").read_text())["runs"][0]["results"]
    placed = [r["locations"][0]["physicalLocation"]["artifactLocation"] for r in results if "relatedLocations" in r]
    assert len(placed) == len(results) - 1  # esbuild's runtime helper: no original source
    assert {a["uriBaseId"] for a in placed} == {"%SRCROOT%"}
    assert {a["uri"].split("/")[0] for a in placed} == {"src", "node_modules"}
    gate = steps["Gate"]
    assert gate.returncode == 1 and "::error title=erratlas gate::coverage overall" in gate.stdout


def test_gitlab_job_script_runs_on_the_demo(repository: Path) -> None:
    job = gitlab_job()
    script = "\n".join(job["script"])
    result = shell(script, repository, job.get("variables", {}))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "gate passed" in result.stdout
    for path in job["artifacts"]["paths"]:
        assert (repository / path).exists(), path
    allowlist = repository / "allowlists" / "app.toml"
    allowlist.write_text(allowlist.read_text().split("[[entry]]", 1)[0])
    failed = shell(script, repository, job.get("variables", {}))
    assert failed.returncode == 1 and "FAIL coverage overall" in failed.stdout


def test_precommit_hook_checks_canonical_form(repository: Path) -> None:
    hook = precommit_hook()
    files = [p.relative_to(repository).as_posix() for p in sorted(repository.rglob("*.toml"))]
    matched = [f for f in files if re.search(hook["files"], f)]
    assert matched == ["allowlists/app.toml"]
    command = f"{hook['entry']} {' '.join(matched)}"
    assert shell(command, repository, {}).returncode == 0
    allowlist = repository / matched[0]
    allowlist.write_text(allowlist.read_text() + "\n# a hand edit\n")
    result = shell(command, repository, {})
    assert result.returncode == 1 and "not in canonical form" in result.stdout
    assert shell(f"erratlas fmt {matched[0]}", repository, {}).returncode == 0
    assert shell(command, repository, {}).returncode == 0
    assert shell("erratlas fmt --check allowlists/*.toml", repository, {}).returncode == 0
