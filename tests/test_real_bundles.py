"""Real Claude Code bundles from npm, checked against an independent oracle (ast-grep).

ast-grep counts every `C(...)` / `new C(...)` syntactically; erratlas counts only those whose
callee resolves to the global binding. The definitions agree once the calls erratlas resolved
to a local binding are removed, and the test checks that site by site, not just in total.

CI checks 2.1.100 (VERSIONS); `pytest -m long` adds 2.1.98 and 2.1.90. The release line's
allowlist is also checked in CI on 2.1.88 and the 2.1.235 executable (tests/test_claude_code_owners.py).
"""

from __future__ import annotations

import json
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import SUMMARY, ast_grep_command, records, run, scan, tree_bytes
from support import npm_cache

PACKAGE = "@anthropic-ai/claude-code"
#: CI checks 2.1.100, whose scan the other real-bundle tests share; 2.1.98 and 2.1.90 are built the
#: same way (the same bundler and logger, counts within 1%) and are `long`
VERSIONS = ["2.1.100", *(pytest.param(v, marks=pytest.mark.long) for v in ("2.1.98", "2.1.90"))]
CONSTRUCTORS = ["Error", "TypeError", "RangeError"]
_START = re.compile(rb'"byteOffset":\{"start":(\d+)')
_RULE = re.compile(rb'"ruleId":"([^"]+)"')

pytestmark = [pytest.mark.network, pytest.mark.slow]


def ast_grep_offsets(bundle: Path, patterns: dict[str, str]) -> dict[str, set[int]]:
    """Start offsets of each pattern's matches, from one streaming ast-grep run."""
    rules = "\n---\n".join(
        f"id: {rule}\nlanguage: javascript\nrule:\n  pattern: {pattern}" for rule, pattern in patterns.items()
    )
    found: dict[str, set[int]] = {rule: set() for rule in patterns}
    with subprocess.Popen(
        [ast_grep_command(), "scan", "--inline-rules", rules, "--json=stream", str(bundle)],
        stdout=subprocess.PIPE,
    ) as process:
        assert process.stdout is not None
        for line in process.stdout:  # each match repeats its whole source line: read it as a stream
            start = _START.search(line)
            rule = _RULE.match(line, line.rfind(b'"ruleId":"'))  # unescaped quotes: never inside a string
            assert start is not None and rule is not None, line[:200]
            found[rule.group(1).decode()].add(int(start.group(1)))
    assert process.returncode == 0
    return found


@dataclass
class RealScan:
    version: str
    out: Path
    summary: dict  # type: ignore[type-arg]
    errors: list[dict]  # type: ignore[type-arg]
    diagnostics: list[dict]  # type: ignore[type-arg]
    oracle: dict[str, set[int]]


@pytest.fixture(scope="module", params=VERSIONS)
def real(request: pytest.FixtureRequest, release_scan) -> RealScan:  # type: ignore[no-untyped-def]
    version = request.param
    bundle = npm_cache.main_file(PACKAGE, version)
    out = release_scan(PACKAGE, version)  # with --jobs 2: a helper process shares the work
    summary = json.loads((out / SUMMARY).read_text())
    logger = summary["loggers"][0]["name"]
    assert logger, f"no logger detected in {version}"
    patterns = {f"call-{c}": f"{c}($$$A)" for c in CONSTRUCTORS}
    patterns |= {f"new-{c}": f"new {c}($$$A)" for c in CONSTRUCTORS}
    patterns["logger"] = f"{logger}($$$A)"
    return RealScan(version, out, summary, records(out, "error"), records(out, "diagnostic"),
                    ast_grep_offsets(bundle, patterns))


def test_logger_is_detected_with_evidence(real: RealScan) -> None:
    logger = real.summary["loggers"][0]
    assert logger["source"] == "detected"
    evidence = logger["evidence"]
    assert evidence["defaultLevelDeclaration"] is True
    assert evidence["levelOptionCalls"] >= 50
    assert evidence["reasons"] and "runnerUps" in evidence
    assert all(r["levelOptionCalls"] < evidence["levelOptionCalls"] for r in evidence["runnerUps"])


@pytest.mark.parametrize("constructor", CONSTRUCTORS)
@pytest.mark.parametrize("form", ["call", "new"])
def test_error_sites_equal_ast_grep_minus_local_bindings(real: RealScan, constructor: str, form: str) -> None:
    ours = {r["offset"] for r in real.errors if r["constructor"] == constructor and r["form"] == form}
    oracle = real.oracle[f"{form}-{constructor}"]
    assert ours <= oracle, sorted(ours - oracle)[:10]
    local = oracle - ours
    shadowed = real.summary["shadowed"]["cli.js"].get(constructor, 0)
    assert len(local) <= shadowed


@pytest.mark.parametrize("constructor", CONSTRUCTORS)
def test_constructor_totals_equal_ast_grep_minus_shadowed(real: RealScan, constructor: str) -> None:
    oracle = len(real.oracle[f"call-{constructor}"]) + len(real.oracle[f"new-{constructor}"])
    shadowed = real.summary["shadowed"]["cli.js"].get(constructor, 0)
    assert real.summary["counts"]["error"]["byConstructor"].get(constructor, 0) == oracle - shadowed


def test_diagnostics_equal_ast_grep_minus_local_bindings(real: RealScan) -> None:
    logger = real.summary["loggers"][0]["name"]
    ours = {r["offset"] for r in real.diagnostics}
    oracle = real.oracle["logger"]
    assert ours <= oracle, sorted(ours - oracle)[:10]
    shadowed = real.summary["shadowed"]["cli.js"].get(logger, 0)
    assert len(ours) == len(oracle) - shadowed
    assert all(r["callee"] == logger for r in real.diagnostics)


def test_every_record_is_outside_error_regions_in_a_clean_bundle(real: RealScan) -> None:
    assert real.summary["errorRegions"]["count"] == 0
    assert not any(r["context"]["inErrorRegion"] for r in real.errors + real.diagnostics)


def test_fingerprints_are_unique_and_carry_no_offsets(real: RealScan) -> None:
    everything = real.errors + real.diagnostics
    fingerprints = [r["fingerprint"] for r in everything]
    assert len(set(fingerprints)) == len(fingerprints)
    assert all(re.fullmatch(r"fp1:[0-9a-f]{32}", fp) for fp in fingerprints)


@pytest.mark.parametrize("version", VERSIONS)
def test_one_process_writes_the_same_bytes_as_two(release_scan, version: str, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """`--jobs 1` does everything in one process; `--jobs 2` forks a rendering worker and a helper
    that shares the callsite work: the split depends on timing, the output must not. CI checks
    one release (a whole extra scan each; the releases are built alike, and tests/test_workers.py
    checks every worker switch on the fixtures)."""
    scan(npm_cache.main_file(PACKAGE, version), tmp_path / "one", "--jobs", "1")
    assert tree_bytes(tmp_path / "one") == tree_bytes(release_scan(PACKAGE, version))


def test_release_line_allowlist_projects_with_honest_health(real: RealScan, reviewed_release_scan) -> None:  # type: ignore[no-untyped-def]
    """One reviewed allowlist covers the whole release line: on each release it owns most
    callsites, and the entries written for other releases are that release's stale entries,
    reported and failing the gate unless allowed. The projection is the session's (conftest:
    `reviewed_release_scan`, shared with the owner and SARIF tests; `gate` only reads it)."""
    copy = reviewed_release_scan(PACKAGE, real.version)
    summary = json.loads((copy / SUMMARY).read_text())
    owners = summary["owners"]["total"]
    assert sum(owners.values()) == summary["counts"]["total"]
    assert summary["coverage"]["overall"]["value"] >= 0.90 and summary["drifted"] == []
    assert owners["Product"] >= 2000 and owners["Dependency"] >= 2000
    assert len(summary["stale"]) >= 1  # entries of the other releases
    gate = run("gate", copy)
    assert gate.returncode == 1 and "stale allowlist entry" in gate.stdout
    assert run("gate", copy, "--allow-stale", "--min-coverage", "0.9").returncode == 0
