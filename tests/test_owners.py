"""Owners through the CLI (docs/owners.md): allowlists, projection, the reviewer's index and the gate."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from conftest import FIXTURES, SUMMARY, records, run, scan
from markdown_it import MarkdownIt
from markdown_it.token import Token

PROJECTION = "error-diagnostic-owner-projection.jsonl"
INDEX = "error-diagnostic-owner-index.md"


@pytest.fixture
def scanned(demo_scan_copy: Path) -> Path:
    """The demo's scan, this test's own copy (conftest: scanned once per session)."""
    return demo_scan_copy


def allow(out: Path, target: str, allowlist: Path, *extra: str) -> None:
    result = run("allow", out, target, "--allowlist", allowlist, "--reviewer", "tests", "--on", "2026-11-29", *extra)
    assert result.returncode == 0, result.stderr


def projection(out: Path) -> dict[str, dict]:  # type: ignore[type-arg]
    return {row["id"]: row for row in (json.loads(line) for line in (out / PROJECTION).read_text().splitlines())}


def summary(out: Path) -> dict:  # type: ignore[type-arg]
    return json.loads((out / SUMMARY).read_text())


def test_without_allowlists_everything_is_unresolved_and_invariants_hold(scanned: Path) -> None:
    rows = projection(scanned)
    data = summary(scanned)
    assert {row["owner"] for row in rows.values()} == {"Unresolved"}
    assert data["coverage"]["overall"]["value"] == 0.0
    assert all(row["holds"] for row in data["invariants"])
    assert sum(data["owners"]["total"].values()) == len(rows) == data["counts"]["total"]


def test_allow_then_project_owns_exactly_the_reviewed_callsites(scanned: Path, tmp_path: Path) -> None:
    errors = records(scanned, "error")
    allowlist = tmp_path / "allowlists" / "demo.toml"
    allow(scanned, errors[0]["id"], allowlist, "--owner", "Product", "--reason", "our own code")
    allow(scanned, errors[1]["fingerprint"], allowlist, "--owner", "Dependency", "--package", "commander",
          "--name", "Command.parse", "--reason", "commander's parser", "--function", "--catch-owner", "Product")
    result = run("project", scanned, "--allowlist", allowlist)
    assert result.returncode == 0, result.stderr
    rows = projection(scanned)
    assert rows[errors[0]["id"]]["owner"] == "Product"
    assert rows[errors[0]["id"]]["evidence"]["level"] == "callsite"
    covered = [
        r
        for r in errors + records(scanned, "diagnostic")
        if r["functionFingerprint"] == errors[1]["functionFingerprint"]
    ]
    for record in covered:
        row = rows[record["id"]]
        if record["id"] != errors[0]["id"]:
            assert (row["owner"], row["package"], row["function"]) == ("Dependency", "commander", "Command.parse")
            assert row["catchOwner"] == "Product"
    others = [r for r in rows.values() if r["id"] not in {c["id"] for c in covered} | {errors[0]["id"]}]
    assert all(r["owner"] == "Unresolved" and r["catchOwner"] is None for r in others)
    data = summary(scanned)
    owned = data["coverage"]["overall"]["owned"]
    assert owned == len({c["id"] for c in covered} | {errors[0]["id"]})
    assert data["coverage"]["overall"]["value"] == owned / data["counts"]["total"]


def test_owner_fields_are_orthogonal(scanned: Path, tmp_path: Path) -> None:
    errors = records(scanned, "error")
    allowlist = tmp_path / "a.toml"
    allow(scanned, errors[0]["id"], allowlist, "--owner", "Dependency", "--package", "ms", "--reason", "r")
    allow(
        scanned,
        errors[0]["id"],
        allowlist,
        "--owner",
        "Product",
        "--reason",
        "r",
        "--function",
        "--retry-owner",
        "Product",
    )
    assert run("project", scanned, "-a", allowlist).returncode == 0
    row = projection(scanned)[errors[0]["id"]]
    assert (row["owner"], row["package"]) == ("Dependency", "ms")  # callsite beats function
    assert row["retryOwner"] == "Product"  # set only by the function entry, taken from it
    assert row["catchOwner"] is None and row["toolResultOwner"] is None and row["userSurfaceOwner"] is None


def test_allowlist_is_written_canonically(scanned: Path, tmp_path: Path) -> None:
    errors = records(scanned, "error")
    first, second = tmp_path / "one.toml", tmp_path / "two.toml"
    for target in (errors[0]["id"], errors[5]["id"], errors[9]["id"]):
        allow(scanned, target, first, "--owner", "Product", "--reason", "r")
    for target in (errors[9]["id"], errors[0]["id"], errors[5]["id"]):
        allow(scanned, target, second, "--owner", "Product", "--reason", "r")
    assert first.read_bytes() == second.read_bytes()


def test_stale_entry_fails_the_gate_by_default_and_prune_removes_only_it(scanned: Path, tmp_path: Path) -> None:
    errors = records(scanned, "error")
    allowlist = tmp_path / "a.toml"
    allow(scanned, errors[0]["id"], allowlist, "--owner", "Product", "--reason", "real")
    text = allowlist.read_text() + (
        '\n[[entry]]\nmatch = { callsite = "fp1:' + "0" * 32 + '" }\nowner = "Product"\n'
        'reason = "gone"\nreviewedBy = "t"\nreviewedOn = 2026-01-01\n'
    )
    allowlist.write_text(text)
    assert run("project", scanned, "-a", allowlist).returncode == 0
    assert len(summary(scanned)["stale"]) == 1
    gate = run("gate", scanned)
    assert gate.returncode == 1 and "stale allowlist entry" in gate.stdout
    assert run("gate", scanned, "--allow-stale").returncode == 0
    assert run("prune", scanned, "-a", allowlist).returncode == 0
    assert "0" * 32 not in allowlist.read_text()
    assert errors[0]["fingerprint"] in allowlist.read_text()


def test_drifted_entry_is_reported_and_fails(scanned: Path, tmp_path: Path) -> None:
    errors = records(scanned, "error")
    allowlist = tmp_path / "a.toml"
    allow(scanned, errors[0]["id"], allowlist, "--owner", "Product", "--reason", "r")
    allowlist.write_text(allowlist.read_text().replace("expect = ", 'expect = "something else" #', 1))
    assert run("project", scanned, "-a", allowlist).returncode == 0
    data = summary(scanned)
    assert len(data["drifted"]) == 1 and data["drifted"][0]["callsite"] == errors[0]["id"]
    assert projection(scanned)[errors[0]["id"]]["owner"] == "Unresolved"
    assert run("gate", scanned).returncode == 1


def test_disagreeing_entries_at_one_level_fail_naming_both(scanned: Path, tmp_path: Path) -> None:
    errors = records(scanned, "error")
    a, b = tmp_path / "a.toml", tmp_path / "b.toml"
    allow(scanned, errors[0]["id"], a, "--owner", "Product", "--reason", "ours")
    allow(scanned, errors[0]["id"], b, "--owner", "Dependency", "--package", "ms", "--reason", "theirs")
    result = run("project", scanned, "-a", a, "-a", b)
    assert result.returncode == 2
    assert str(a) in result.stderr and str(b) in result.stderr and "disagree" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize(
    ("body", "line", "key"),
    [
        (
            '[[entry]]\nmatch = { callsite = "fp1:abc" }\nowner = "Product"\n'
            'reason = "r"\nreviewedBy = "t"\nreviewedOn = 2026-01-01\n',
            2,
            "match",
        ),
        (
            '[[entry]]\nmatch = { function = "fp1f:'
            + "a" * 32
            + '" }\nowner = "Dependency"\nreason = "r"\nreviewedBy = "t"\nreviewedOn = 2026-01-01\n',
            1,
            "package",
        ),
        (
            '[[entry]]\nmatch = { function = "fp1f:'
            + "a" * 32
            + '" }\nowner = "Product"\ncolour = "red"\nreason = "r"\nreviewedBy = "t"\nreviewedOn = 2026-01-01\n',
            4,
            "colour",
        ),
        (
            '[[entry]]\nmatch = { function = "fp1f:'
            + "a" * 32
            + '" }\nowner = 3\nreason = "r"\nreviewedBy = "t"\nreviewedOn = 2026-01-01\n',
            3,
            "owner",
        ),
    ],
    ids=["bad-fingerprint", "dependency-without-package", "unknown-key", "wrong-type"],
)
def test_invalid_allowlist_exits_2_naming_file_line_and_key(
    scanned: Path, tmp_path: Path, body: str, line: int, key: str
) -> None:
    allowlist = tmp_path / "bad.toml"
    allowlist.write_text(body)
    result = run("project", scanned, "-a", allowlist)
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1
    assert f"{allowlist}:{line}" in result.stderr and f"'{key}'" in result.stderr, result.stderr
    assert run("scan", FIXTURES / "demo" / "demo.min.js", "--out", tmp_path / "o", "-a", allowlist).returncode == 2


def test_gate_exit_codes_and_thresholds(scanned: Path, tmp_path: Path) -> None:
    assert run("gate", scanned).returncode == 0
    low = run("gate", scanned, "--min-coverage", "0.01")
    assert low.returncode == 1 and "coverage overall" in low.stdout
    errors = records(scanned, "error")
    allowlist = tmp_path / "a.toml"
    allow(scanned, errors[0]["id"], allowlist, "--owner", "Product", "--reason", "r")
    assert run("project", scanned, "-a", allowlist).returncode == 0
    total = summary(scanned)["counts"]["total"]
    assert run("gate", scanned, "--min-coverage", str(1 / total)).returncode == 0  # compared unrounded
    assert run("gate", scanned, "--min-coverage", str(1 / total + 1e-12)).returncode == 1
    kind = run("gate", scanned, "--min-coverage-kind", "diagnostic=0.5")
    assert kind.returncode == 1 and "coverage diagnostic" in kind.stdout
    github = run("gate", scanned, "--min-coverage", "0.9", "--format", "github")
    assert github.returncode == 1 and github.stdout.startswith("::error title=erratlas gate::")
    assert run("gate", tmp_path / "nowhere").returncode == 2


def test_gate_baseline_fails_only_on_new_unresolved(scanned: Path, tmp_path: Path) -> None:
    baseline = tmp_path / "baseline.json"
    shutil.copy(scanned / SUMMARY, baseline)
    assert run("gate", scanned, "--baseline", baseline).returncode == 0
    bigger = tmp_path / "bigger"
    scan(FIXTURES / "demo" / "demo.terser.min.js", bigger)
    result = run("gate", bigger, "--baseline", baseline)
    assert result.returncode == 1 and "new Unresolved" in result.stdout


@pytest.mark.parametrize("victim", ["error-message-callsites.jsonl", "readable/demo.min.js", PROJECTION, INDEX])
def test_tampered_output_gives_2(scanned: Path, victim: str) -> None:
    path = scanned / victim
    path.write_bytes(path.read_bytes() + b" ")
    result = run("gate", scanned)
    assert result.returncode == 2 and "hash mismatch" in result.stderr and victim in result.stderr
    assert run("project", scanned).returncode == 2


def test_missing_or_added_output_gives_2(scanned: Path) -> None:
    (scanned / "extra.txt").write_text("x")
    assert run("gate", scanned).returncode == 2
    (scanned / "extra.txt").unlink()
    (scanned / INDEX).unlink()
    assert run("gate", scanned).returncode == 2


def table_widths(markdown: str) -> list[tuple[int, list[int]]]:
    """Per table: header cell count and each body row's cell count, from a real markdown parser."""
    return table_widths_of(MarkdownIt("commonmark").enable("table").parse(markdown))


def table_widths_of(tokens: list[Token]) -> list[tuple[int, list[int]]]:
    """`table_widths` of a page markdown-it has parsed (with tables enabled)."""
    tables, current, row = [], None, 0
    for token in tokens:
        if token.type == "table_open":
            current = [0, []]
        elif token.type == "tr_open":
            row = 0
        elif token.type in ("th_open", "td_open"):
            row += 1
        elif token.type == "tr_close" and current is not None:
            if current[0] == 0:
                current[0] = row
            else:
                current[1].append(row)
        elif token.type == "table_close" and current is not None:
            tables.append((current[0], current[1]))
            current = None
    return tables


def test_project_is_deterministic_and_equals_scan_with_allowlist(scanned: Path, tmp_path: Path) -> None:
    errors = records(scanned, "error")
    allowlist = tmp_path / "a.toml"
    allow(scanned, errors[3]["id"], allowlist, "--owner", "Product", "--reason", "r", "--function")
    assert run("project", scanned, "-a", allowlist).returncode == 0
    direct = tmp_path / "direct"
    scan(FIXTURES / "demo" / "demo.min.js", direct, "-a", allowlist)
    from conftest import tree_bytes

    assert tree_bytes(direct) == tree_bytes(scanned)
