"""Issue 13, the Python rows: hostile Python inputs end in an inventory or in one line naming
the file and the problem with exit 2, never a crash, a hang, a traceback or a partial output.
Regression fixtures live in `fixtures/hostile/python/`; inputs that cannot live in git
(names that are not UTF-8, a thousand nested directories) are built by the test."""

from __future__ import annotations

from pathlib import Path

from conftest import FIXTURES, records, scan

HOSTILE = FIXTURES / "hostile" / "python"
PACKAGE = FIXTURES / "python" / "shadowing"


def test_the_summary_states_the_python_anchor_limit(tmp_path: Path) -> None:
    summary = scan(PACKAGE, tmp_path / "scan")
    assert summary["fingerprint"] == {"version": "fp1", "anchorLimit": 2048}  # bytes of source, not syntax nodes


def test_lone_surrogate_escapes_in_messages_become_replacement_characters(tmp_path: Path) -> None:
    out = tmp_path / "scan"
    scan(HOSTILE / "surrogates.py", out)
    (error,) = records(out, "error")
    (warning,) = records(out, "diagnostic")
    assert error["message"]["text"] == "\ufffd lone low surrogate"  # type: ignore[index]
    assert warning["message"]["template"] == "\ufffd lone high surrogate in ${}"  # type: ignore[index]
