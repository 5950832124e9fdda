"""Scope-resolved counts on fixtures whose truth was counted by hand and by eslint-scope."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from conftest import FIXTURES, records, scan

SHADOWING = json.loads((FIXTURES / "shadowing" / "expected.json").read_text())
DEMO = json.loads((FIXTURES / "demo" / "expected.json").read_text())
HOSTILE = json.loads((FIXTURES / "hostile" / "expected.json").read_text())


def without_lone_surrogates(value: str) -> str:
    """JSON output is UTF-8: a lone UTF-16 surrogate in a literal is written as U+FFFD (documented)."""
    return re.sub("[\ud800-\udfff]", "\ufffd", value)


def check_counts(summary: dict, expected: dict, unit: str, out: Path) -> None:  # type: ignore[type-arg]
    logger = summary["loggers"][0]
    assert logger["name"] == expected["logger"]
    assert logger["source"] == "detected"
    by_constructor = summary["counts"]["error"]["byConstructor"]
    for name, count in expected["errors"].items():
        assert by_constructor.get(name, 0) == count, name
    assert summary["counts"]["byKind"]["diagnostic"] == expected["diagnostics"]
    shadowed = summary["shadowed"][unit]
    for name, count in expected["shadowed"].items():
        if name in expected["errors"] or name == expected["logger"]:
            assert shadowed.get(name, 0) == count, name


@pytest.mark.parametrize("name", sorted(SHADOWING))
def test_shadowed_calls_are_excluded(tmp_path: Path, name: str) -> None:
    summary = scan(FIXTURES / "shadowing" / name, tmp_path / "out")
    check_counts(summary, SHADOWING[name], name, tmp_path / "out")


@pytest.mark.parametrize("name", sorted(SHADOWING))
def test_every_counted_line_is_a_record_and_no_shadowed_line_is(tmp_path: Path, name: str) -> None:
    source = (FIXTURES / "shadowing" / name).read_text().splitlines()
    scan(FIXTURES / "shadowing" / name, tmp_path / "out")
    lines = [r["line"] for r in records(tmp_path / "out", "error") + records(tmp_path / "out", "diagnostic")]
    counted = {n for n, line in enumerate(source, start=1) if re.search(r"^(?!\s*//).*//\s*counts\b", line)}
    shadowed = {n for n, line in enumerate(source, start=1) if re.search(r"^(?!\s*//).*//\s*shadowed\b", line)}
    assert set(lines) == counted
    assert len(lines) == len(counted), "one site per marked line"
    assert not set(lines) & shadowed


@pytest.mark.parametrize("name", sorted(DEMO))
def test_demo_builds_match_the_scope_oracle(tmp_path: Path, name: str) -> None:
    summary = scan(FIXTURES / "demo" / name, tmp_path / "out")
    check_counts(summary, DEMO[name], name, tmp_path / "out")


def test_forced_logger_counts_only_that_binding(tmp_path: Path) -> None:
    bundle = FIXTURES / "shadowing" / "shadowing.js"
    summary = scan(bundle, tmp_path / "out", "--logger", "L")
    assert summary["loggers"][0]["source"] == "option"
    assert summary["counts"]["byKind"]["diagnostic"] == SHADOWING["shadowing.js"]["diagnostics"]


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_messages_are_exact(tmp_path: Path, name: str) -> None:
    expected = HOSTILE[name]
    scan(FIXTURES / "hostile" / name, tmp_path / "out")
    found = {
        r["offset"]: r for r in records(tmp_path / "out", "error") + records(tmp_path / "out", "diagnostic")
    }
    assert sorted(found) == sorted(site["offset"] for site in expected["sites"])
    for site in expected["sites"]:
        record = found[site["offset"]]
        assert record["kind"] == site["kind"]
        assert record["line"] == site["line"]
        assert record["message"]["shape"] == site["shape"], site
        if "text" in site and site["shape"] == "string":
            assert record["message"]["text"] == without_lone_surrogates(site["text"]), site


def test_literals_file_has_one_line_per_distinct_literal(tmp_path: Path) -> None:
    scan(FIXTURES / "hostile" / "hostile.js", tmp_path / "out")
    texts = {
        r["message"]["text"] for r in records(tmp_path / "out", "error") if r["message"]["shape"] == "string"
    }
    lines = (tmp_path / "out" / "error-message-literals.txt").read_text(encoding="utf-8").split("\n")[:-1]
    assert len(lines) == len(texts)
    assert lines == sorted(lines)
