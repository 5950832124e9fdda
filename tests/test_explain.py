"""Issue 15: `erratlas explain DIR ID|FINGERPRINT` tells one callsite's story, through the CLI,
for an owned, an Unresolved, a stale-entry and a drifted-entry callsite, by id and by
fingerprint; plain text when piped, rich on a terminal."""

from __future__ import annotations

import os
import pty
import subprocess
from pathlib import Path

import pytest
from conftest import erratlas_command, records, run


@pytest.fixture
def scanned(demo_scan_copy: Path) -> Path:
    """The demo's scan, this test's own copy (conftest: scanned once per session)."""
    return demo_scan_copy


def explain(out: Path, target: str) -> str:
    result = run("explain", out, target)
    assert result.returncode == 0, result.stderr
    assert "\x1b[" not in result.stdout  # piped: plain text
    return result.stdout


def allow(out: Path, target: str, allowlist: Path, *extra: str) -> None:
    result = run("allow", out, target, "-a", allowlist, "--reviewer", "t", "--on", "2026-11-29", *extra)
    assert result.returncode == 0, result.stderr


def test_unresolved_callsite_by_id_and_by_fingerprint(scanned: Path) -> None:
    record = records(scanned, "error")[4]
    text = explain(scanned, record["id"])  # type: ignore[arg-type]
    assert explain(scanned, record["fingerprint"]) == text  # type: ignore[arg-type]
    assert record["id"] in text and record["fingerprint"] in text  # type: ignore[operator]
    assert "Owner: Unresolved" in text and "No allowlist was applied" in text
    place = record["readable"]
    assert f"> {place['line']:>7} | " in text  # type: ignore[index]  # the code around it, its line marked
    assert f"erratlas allow {scanned} {record['id']} --allowlist" in text
    assert "This scan has no suggestions.jsonl" in text
    assert run("suggest", scanned).returncode == 0
    text = explain(scanned, record["id"])  # type: ignore[arg-type]
    assert "Suggestions" in text and ("erratlas accept" in text or "No suggestion touches" in text)


def test_owned_callsite_shows_its_entry_and_evidence(scanned: Path, tmp_path: Path) -> None:
    record = records(scanned, "error")[3]
    allowlist = tmp_path / "a.toml"
    allow(scanned, record["id"], allowlist, "--owner", "Dependency", "--package", "commander", "--name", "Command.x",
          "--reason", "r", "--function", "--catch-owner", "Product")
    assert run("project", scanned, "-a", allowlist).returncode == 0
    text = explain(scanned, record["fingerprint"])  # type: ignore[arg-type]
    assert "Owner: Dependency commander" in text and "Command.x" in text
    assert f"function entry {allowlist}:" in text and record["functionFingerprint"] in text  # type: ignore[operator]
    assert "catchOwner" in text and "Commands to change its owner" in text


def test_stale_and_drifted_entries_are_told(scanned: Path, tmp_path: Path) -> None:
    stale_target, drifted_target = records(scanned, "error")[5], records(scanned, "error")[6]
    allowlist = tmp_path / "a.toml"
    allow(scanned, drifted_target["id"], allowlist, "--owner", "Product", "--reason", "r")  # type: ignore[arg-type]
    key = stale_target["message"]["comparisonKey"]  # type: ignore[index]
    text = allowlist.read_text().replace("expect = ", 'expect = "not any more" #', 1) + (
        '\n[[entry]]\nmatch = { callsite = "fp1:' + "0" * 32 + '" }\nowner = "Product"\n'
        f"expect = {toml_string(key)}\nreason = \"old review\"\nreviewedBy = \"t\"\nreviewedOn = 2026-01-01\n")
    allowlist.write_text(text)
    assert run("project", scanned, "-a", allowlist).returncode == 0
    stale = explain(scanned, stale_target["id"])  # type: ignore[arg-type]
    assert "Owner: Unresolved" in stale and "Stale entry" in stale and "fp1:" + "0" * 32 in stale
    drifted = explain(scanned, drifted_target["id"])  # type: ignore[arg-type]
    assert "Drifted entry" in drifted and "not any more" in drifted


def toml_string(value: object) -> str:
    import json

    return json.dumps(value)  # a JSON string is a TOML basic string for these messages


def test_function_fingerprint_or_unknown_target_exits_2(scanned: Path) -> None:
    record = records(scanned, "error")[0]
    for target in (record["functionFingerprint"], "e:nowhere@1"):
        result = run("explain", scanned, target)
        assert result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1, result.stderr


def test_on_a_terminal_explain_uses_rich(scanned: Path) -> None:
    record = records(scanned, "error")[4]
    primary, secondary = pty.openpty()
    env = {**os.environ, "COLUMNS": "160", "TERM": "xterm-256color"}
    process = subprocess.Popen([erratlas_command(), "explain", str(scanned), str(record["id"])], stdout=secondary,
                               stderr=subprocess.PIPE, env=env)
    os.close(secondary)
    output = read_all(primary)
    assert process.wait(timeout=120) == 0
    assert "\x1b[" in output and "╭" in output and "Owner: Unresolved" in output


def read_all(fd: int) -> str:
    chunks = []
    while True:
        try:
            data = os.read(fd, 65536)
        except OSError:  # the other side closed
            break
        if not data:
            break
        chunks.append(data)
    os.close(fd)
    return b"".join(chunks).decode("utf-8", "replace")
