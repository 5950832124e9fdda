"""Issue 13 (part B): one reading of an allowlist, and TOML that cannot crash the readers.

`fixtures/hostile/safety/allowlist-*.toml` hold the same four entries in five TOML forms:
two own callsites of demo.min.js, two match nothing (stale).
"""

from __future__ import annotations

import json
import os
import re
import resource
import shutil
from pathlib import Path

import pytest
from conftest import FIXTURES, SUMMARY, run, scan

SAFETY = FIXTURES / "hostile" / "safety"
FORMS = ["headers", "spaced", "dotted", "inline", "oneline"]
STALE = {"fp1:" + "0" * 32, "fp1f:" + "f" * 32}
PROJECTION = "error-diagnostic-owner-projection.jsonl"
_FINGERPRINT = re.compile(r"fp1[fm]?:[0-9a-f]{32}")


def two_gib() -> None:
    """In the child: an address-space bound, so that reading /dev/zero fails instead of filling memory."""
    resource.setrlimit(resource.RLIMIT_AS, (2 * 2**30, 2 * 2**30))


@pytest.fixture(scope="module")
def demo_scan(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("forms") / "scan"
    scan(FIXTURES / "demo" / "demo.min.js", out)
    return out


def project(demo_scan: Path, tmp_path: Path, form: str) -> tuple[Path, dict, list[dict]]:  # type: ignore[type-arg]
    out = tmp_path / "scan"
    if not out.exists():
        shutil.copytree(demo_scan, out)
    allowlist = tmp_path / f"allowlist-{form}.toml"
    allowlist.write_bytes((SAFETY / allowlist.name).read_bytes())
    result = run("project", out, "-a", allowlist)
    assert result.returncode == 0, result.stderr
    rows = [json.loads(line) for line in (out / PROJECTION).read_text().splitlines()]
    return allowlist, json.loads((out / SUMMARY).read_text()), rows


def verdicts(rows: list[dict]) -> list[tuple]:  # type: ignore[type-arg]
    return [(r["id"], r["owner"], r["package"], r["function"], r["catchOwner"],
             r["evidence"] and r["evidence"]["fingerprint"]) for r in rows]


@pytest.mark.parametrize("form", FORMS)
def test_every_toml_form_gives_the_same_owners_and_stale_set(demo_scan: Path, tmp_path: Path, form: str) -> None:
    _, reference_summary, reference = project(demo_scan, tmp_path / "headers", "headers")
    _, summary, rows = project(demo_scan, tmp_path / form, form)
    assert verdicts(rows) == verdicts(reference)
    assert {row["owner"] for row in rows} == {"Product", "Dependency", "Unresolved"}
    assert {entry["fingerprint"] for entry in summary["stale"]} == STALE
    assert summary["coverage"] == reference_summary["coverage"]
    gate = run("gate", tmp_path / form / "scan")
    assert gate.returncode == 1 and gate.stdout.count("stale allowlist entry") == 2, gate.stdout


@pytest.mark.parametrize("form", FORMS)
def test_every_origin_points_at_its_entry(demo_scan: Path, tmp_path: Path, form: str) -> None:
    """From an entry's `file:line[:column]`, the first fingerprint in the file is its own."""
    allowlist, summary, rows = project(demo_scan, tmp_path, form)
    lines = allowlist.read_text().split("\n")
    origins = {(e["entry"], e["fingerprint"]) for e in summary["stale"]}
    origins |= {(r["evidence"]["entry"], r["evidence"]["fingerprint"]) for r in rows if r["evidence"]}
    assert len(origins) == 4
    assert len({origin for origin, _ in origins}) == 4, "every entry has its own origin"
    for origin, fingerprint in origins:
        where = origin[len(str(allowlist)) + 1:].split(":")
        line, column = int(where[0]), int(where[1]) if len(where) > 1 else 1
        rest = "\n".join([lines[line - 1][column - 1:], *lines[line:]])
        assert _FINGERPRINT.search(rest).group() == fingerprint, (origin, fingerprint)  # type: ignore[union-attr]


@pytest.mark.parametrize("form", FORMS)
def test_an_invalid_value_is_reported_at_its_line_in_every_form(demo_scan: Path, tmp_path: Path, form: str) -> None:
    allowlist = tmp_path / f"{form}.toml"
    allowlist.write_text((SAFETY / f"allowlist-{form}.toml").read_text().replace("commander", "bad name!"))
    result = run("project", demo_scan, "-a", allowlist)
    assert result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1, result.stderr
    line = int(re.search(rf"{re.escape(str(allowlist))}:(\d+)", result.stderr).group(1))  # type: ignore[union-attr]
    assert "bad name!" in allowlist.read_text().split("\n")[line - 1], result.stderr
    assert "entry 2, key 'package'" in result.stderr


@pytest.mark.parametrize("copies", ["99999999999999999999999", "9223372036854775808", "1"])
def test_copies_past_what_a_summary_writes_are_refused(demo_scan: Path, tmp_path: Path, copies: str) -> None:
    """`copies = 10**23` was read, then the summary could not be written: an internal error of scan
    and project (orjson: Integer exceeds 64-bit range); it is a bad value, at its line."""
    allowlist = tmp_path / "copies.toml"
    allowlist.write_text('[[entry]]\nmatch = { callsite = "fp1:' + "0" * 32 + '" }\ncopies = ' + copies +
                         '\nowner = "Product"\nreason = "r"\nreviewedBy = "t"\nreviewedOn = "2026-01-01"\n')
    out = tmp_path / "scan"
    shutil.copytree(demo_scan, out)
    for result in (run("project", out, "-a", allowlist),
                   run("scan", FIXTURES / "demo" / "demo.min.js", "--out", tmp_path / "new", "-a", allowlist)):
        assert result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1, result.stderr
        assert f"{allowlist}:3: entry 1, key 'copies'" in result.stderr
    assert not (tmp_path / "new").exists()


def test_prune_writes_one_canonical_file_from_every_form(demo_scan: Path, tmp_path: Path) -> None:
    written = set()
    for form in FORMS:
        allowlist, _, _ = project(demo_scan, tmp_path / form, form)
        result = run("prune", tmp_path / form / "scan", "-a", allowlist)
        assert result.returncode == 0 and "removed 2 stale entries" in result.stderr, result.stderr
        written.add(allowlist.read_bytes())
    assert len(written) == 1
    assert not STALE & set(_FINGERPRINT.findall(written.pop().decode()))


@pytest.mark.parametrize("option", ["-a", "--rules"])
def test_brackets_nested_20000_deep_are_refused(tmp_path: Path, option: str) -> None:
    deep = SAFETY / "deep-brackets.toml"
    result = run("scan", FIXTURES / "demo" / "demo.min.js", "--out", tmp_path / "out", option, deep)
    assert result.returncode == 2, result.stderr
    assert "nests brackets more than" in result.stderr and "Traceback" not in result.stderr
    assert not (tmp_path / "out").exists()


def test_python_rules_nested_deep_are_refused(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text('raise ValueError("x")\n')
    result = run("scan", tmp_path / "a.py", "--out", tmp_path / "out", "--rules", SAFETY / "deep-brackets.toml")
    assert result.returncode == 2 and "nests brackets more than" in result.stderr, result.stderr


def test_python_rules_with_empty_level_numbers_are_refused(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text('import logging\nlogging.log(15, "x")\n')
    rules = tmp_path / "rules.toml"
    rules.write_text('[logging]\nlevels = ["debug", "warn"]\n\nlevelNumbers = {}\n')
    result = run("scan", tmp_path / "a.py", "--out", tmp_path / "out", "--rules", rules)
    assert result.returncode == 2, result.stderr
    assert f"{rules}:4" in result.stderr and "levelNumbers" in result.stderr


@pytest.mark.parametrize("kind", ["dev-zero", "fifo", "directory"])
def test_an_allowlist_that_is_not_a_regular_file_is_refused(tmp_path: Path, kind: str) -> None:
    allowlist = {"dev-zero": Path("/dev/zero"), "fifo": tmp_path / "fifo", "directory": tmp_path / "dir"}[kind]
    if kind == "fifo":
        os.mkfifo(allowlist)
    elif kind == "directory":
        allowlist.mkdir()
    result = run("scan", FIXTURES / "demo" / "demo.min.js", "--out", tmp_path / "out", "-a", allowlist,
                 timeout=60, preexec_fn=two_gib)  # /dev/zero once filled memory, a FIFO hung
    assert result.returncode == 2 and str(allowlist) in result.stderr and "allowlist is" in result.stderr


def test_the_same_allowlist_given_twice_is_refused(demo_scan: Path, tmp_path: Path) -> None:
    allowlist = tmp_path / "a.toml"
    allowlist.write_bytes((SAFETY / "allowlist-headers.toml").read_bytes())
    (tmp_path / "b.toml").symlink_to(allowlist)
    result = run("project", demo_scan, "-a", allowlist, "-a", tmp_path / "b.toml")
    assert result.returncode == 2 and "given twice" in result.stderr
