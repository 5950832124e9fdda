"""The canonical rendering of an allowlist reads back as the entries written, whatever mix of
plain entries, copy groups and neighbours share a fingerprint."""

from __future__ import annotations

import tomllib
from pathlib import Path

from analyzer.owners.allowlist import Entry, checked_rendering


def entry(**changes: object) -> Entry:
    base: dict[str, object] = {
        "level": "callsite",
        "fingerprint": "fp1:" + "a" * 32,
        "owner": "Dependency",
        "package": "p",
        "function": None,
        "expect": None,
        "owner_fields": (),
        "reason": "r",
        "reviewed_by": "t",
        "reviewed_on": "2026-12-01",
        "origin": "x.toml:1",
    }
    return Entry(**{**base, **changes})  # type: ignore[arg-type]


def test_a_plain_entry_a_copy_group_and_neighbours_of_one_fingerprint_read_back(tmp_path: Path) -> None:
    """Comparing the entries read back used to sort tuples holding None and numbers (an
    internal error in `accept`)."""
    entries = [entry(), entry(copies=2), entry(neighbours=("fp1:" + "b" * 32, "")), entry(copies=3, package="q")]
    data = checked_rendering(tmp_path / "a.toml", entries)
    assert len(tomllib.loads(data.decode())["entry"]) == 4
