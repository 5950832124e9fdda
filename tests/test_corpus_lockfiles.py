"""Lockfiles read into exact package requests (`corpus add LOCKFILE`)."""

from __future__ import annotations

from pathlib import Path

from analyzer.owners.corpus.specs import Request, lockfile_requests

SHA = "sha512-" + "A" * 86 + "=="


def test_bun_lock(tmp_path: Path) -> None:
    path = tmp_path / "bun.lock"
    path.write_text('{\n  "lockfileVersion": 1,\n  "packages": {\n'
                    f'    "zod": ["zod@3.23.8", "", {{}}, "{SHA}"],\n'
                    '    "@scope/x": ["@scope/x@1.0.0", "", {}, "sha512-b"],\n  },\n}\n')
    assert lockfile_requests(path) == [Request("@scope/x", "1.0.0", "sha512-b"), Request("zod", "3.23.8", SHA)]


def test_pnpm_lock(tmp_path: Path) -> None:
    path = tmp_path / "pnpm-lock.yaml"
    path.write_text("lockfileVersion: '9.0'\n\npackages:\n\n  zod@3.23.8:\n"
                    f"    resolution: {{integrity: {SHA}}}\n\n  '@scope/x@1.0.0':\n"
                    "    resolution: {integrity: sha512-b}\n\nsnapshots:\n\n  zod@3.23.8: {}\n")
    assert lockfile_requests(path) == [Request("@scope/x", "1.0.0", "sha512-b"), Request("zod", "3.23.8", SHA)]


def test_yarn_lock(tmp_path: Path) -> None:
    path = tmp_path / "yarn.lock"
    path.write_text('# yarn lockfile v1\n\n"@scope/x@^1.0.0":\n  version "1.0.0"\n  integrity sha512-b\n\n'
                    f'zod@^3.0.0, zod@^3.23.0:\n  version "3.23.8"\n  integrity {SHA}\n')
    assert lockfile_requests(path) == [Request("@scope/x", "1.0.0", "sha512-b"), Request("zod", "3.23.8", SHA)]


def test_package_lock_version_1(tmp_path: Path) -> None:
    path = tmp_path / "package-lock.json"
    path.write_text('{"lockfileVersion": 1, "dependencies": {"a": {"version": "1.0.0", "integrity": "sha512-a",'
                    ' "dependencies": {"b": {"version": "2.0.0"}}}}}')
    assert lockfile_requests(path) == [Request("a", "1.0.0", "sha512-a"), Request("b", "2.0.0", None)]


def test_a_plain_name_brings_the_highest_versions_and_the_top_of_older_lines() -> None:
    """A bundle often ships an older major (openid-client 5 when 6 is out, lru-cache 7 when 11
    is): a plain name brings the highest versions, then the highest of each older line."""
    from analyzer.owners.corpus.registry import Candidates, candidates

    times = {v: f"2024-01-{i + 1:02d}" for i, v in enumerate(
        ["4.9.0", "5.0.0", "5.7.1", "5.7.0", "6.0.0", "6.1.0", "6.2.0", "6.2.1", "7.0.0-rc.1", "0.3.0", "0.4.2"])}
    assert candidates(times, None, Candidates(3, 0)) == ["6.2.1", "6.2.0", "6.1.0"]
    assert candidates(times, None, Candidates(3, 2)) == ["6.2.1", "6.2.0", "6.1.0", "5.7.1", "4.9.0"]
    assert candidates(times, None, Candidates(3, 5)) == ["6.2.1", "6.2.0", "6.1.0", "5.7.1", "4.9.0", "0.4.2", "0.3.0"]
    # published after the date: not a candidate, and its line is not counted
    assert candidates(times, "2024-01-05", Candidates(1, 1)) == ["5.7.1", "4.9.0"]
