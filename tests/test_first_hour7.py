"""What a new user meets in the first hour, continued from tests/test_first_hour6.py: a malformed
binding fingerprint given to `allow` (docs/reference.md, "Allowlists"), the line a scan ends with
for one callsite, and the list of verbs in `--help`."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from conftest import run


@pytest.mark.parametrize(("target", "said"), [
    ("fp1b:", "'fp1b:' is not a binding fingerprint (fp1b: and 32 hex digits)"),
    ("fp1b:zz", "'fp1b:zz' is not a binding fingerprint (fp1b: and 32 hex digits)"),
    ("fp1b:" + "0" * 32, f"no binding with fingerprint 'fp1b:{'0' * 32}' in this scan"),
])
def test_allow_says_a_binding_fingerprint_is_malformed(demo_scan_copy: Path, tmp_path: Path, target: str,
                                                       said: str) -> None:
    """`fp1b:zz` was 'no top-level binding with fingerprint', as if it were well formed, where the
    other fingerprints' malformed forms say what the form is."""
    allowlist = tmp_path / "a.toml"
    given = run("allow", demo_scan_copy, target, "--owner", "Product", "--reason", "r", "--reviewer", "me",
                "-a", allowlist)
    assert given.returncode == 2, given.stderr
    assert said in given.stderr and given.stderr.count("\n") == 1, given.stderr
    assert not allowlist.exists()


def test_a_scan_of_one_callsite_says_it_in_the_singular(tmp_path: Path) -> None:
    bundle = tmp_path / "one.js"
    bundle.write_text('function f(x) { if (!x) throw new TypeError("x is required"); return x }\n')
    scanned = run("scan", bundle, "--out", tmp_path / "out")
    assert scanned.returncode == 0, scanned.stderr
    assert "one.js: 1 error callsite, 0 diagnostic callsites (no diagnostic logger found), 0 error classes;" in \
        scanned.stderr, scanned.stderr


@pytest.mark.parametrize("verb", [(), ("corpus",)])
def test_the_list_of_verbs_gives_each_its_summary_on_one_line(verb: tuple[str, ...]) -> None:
    """The docstring's line breaks were kept in the list: 'gate' broke after 'unusable:' and
    'corpus names' after 'licence banners,' whatever the terminal's width."""
    listed = run(*verb, "--help", env={**os.environ, "COLUMNS": "400", "TERM": "dumb"})
    assert listed.returncode == 0, listed.stderr
    lines = listed.stdout.splitlines()
    expected = {(): ("gate", "Exit 0 when every threshold holds, 1 when one fails, 2 when the directory is unusable: "
                             "the gate recomputes the owners from the inventory and the allowlists, and believes only "
                             "what it recomputed."),
                ("corpus",): ("names", "The package names the bundle shows, each with its evidence: module paths, "
                                       "licence banners, inlined package.json objects, kept paths, package-name "
                                       "strings, messages. Never an owner.")}[verb]
    name, summary = expected
    assert any(line.strip(" │").startswith(name) and line.rstrip(" │").endswith(summary) for line in lines), \
        listed.stdout
