"""Issue 13 (part B): the gate verifies a scan directory, it does not trust it.

Every case edits a real scan the way an attacker or an accident would, and checks that the
gate refuses it with exit status 2 and one line naming the file, without hanging.
"""

from __future__ import annotations

import hashlib
import json
import os
import resource
import shutil
from pathlib import Path

import orjson
import pytest
from conftest import FIXTURES, SUMMARY, records, run, scan

PROJECTION = "error-diagnostic-owner-projection.jsonl"
INDEX = "error-diagnostic-owner-index.md"
CALLSITES = "error-message-callsites.jsonl"


def two_gib() -> None:
    """In the child: an address-space bound, so that reading /dev/zero fails instead of filling memory."""
    resource.setrlimit(resource.RLIMIT_AS, (2 * 2**30, 2 * 2**30))


@pytest.fixture
def scanned(demo_scan_copy: Path) -> Path:
    """The demo's scan, this test's own copy (conftest: scanned once per session)."""
    return demo_scan_copy


def load(out: Path) -> dict:  # type: ignore[type-arg]
    return json.loads((out / SUMMARY).read_bytes())


def save(out: Path, summary: dict) -> None:  # type: ignore[type-arg]
    """Write the summary back the way erratlas writes it, so only the edited values differ."""
    (out / SUMMARY).write_bytes(orjson.dumps(summary, option=orjson.OPT_INDENT_2) + b"\n")


def rehash(out: Path, *names: str) -> None:
    """Update the summary's sha256 of files edited behind erratlas's back."""
    summary = load(out)
    for name in names:
        summary["outputs"][name] = hashlib.sha256((out / name).read_bytes()).hexdigest()
    save(out, summary)


def refused(result: object, *words: str) -> None:
    assert result.returncode == 2, (result.returncode, result.stdout, result.stderr)  # type: ignore[attr-defined]
    lines = result.stderr.strip().splitlines()  # type: ignore[attr-defined]
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr  # type: ignore[attr-defined]
    for word in words:
        assert word in lines[0], lines[0]


def allow_first(out: Path, allowlist: Path) -> None:
    first = records(out, "error")[0]["id"]
    result = run("allow", out, first, "-a", allowlist, "--owner", "Product", "--reason", "r", "--reviewer", "t",
                 "--on", "2026-01-01")
    assert result.returncode == 0, result.stderr


def test_untouched_scan_passes(scanned: Path) -> None:
    assert run("gate", scanned).returncode == 0


def test_coverage_edited_to_one_is_a_disagreement(scanned: Path) -> None:
    summary = load(scanned)
    for block in summary["coverage"].values():
        block["value"] = 1.0
    save(scanned, summary)
    refused(run("gate", scanned, "--min-coverage", "0.9"), SUMMARY, "coverage.overall.value", "recomputed")


def test_summary_edited_consistently_still_disagrees_with_the_projection(scanned: Path) -> None:
    """Owners, coverage and the unresolved list all claim full coverage: the projection and the
    inventory say otherwise."""
    summary = load(scanned)
    total = summary["counts"]["total"]
    for block in summary["coverage"].values():
        block.update(owned=block["total"], value=1.0, display="100.00%")
    summary["owners"]["total"] = {"Product": total, "Dependency": 0, "Unresolved": 0}
    summary["unresolvedFingerprints"] = []
    save(scanned, summary)
    refused(run("gate", scanned, "--min-coverage", "0.9"), SUMMARY, "recomputed")


def test_projection_rewritten_with_its_hash_is_a_disagreement(scanned: Path) -> None:
    rows = [json.loads(line) for line in (scanned / PROJECTION).read_text().splitlines()]
    for row in rows:
        row["owner"] = "Product"
    (scanned / PROJECTION).write_bytes(b"".join(orjson.dumps(row) + b"\n" for row in rows))
    rehash(scanned, PROJECTION)
    refused(run("gate", scanned), PROJECTION, "line 1 differs")


def test_index_rewritten_with_its_hash_is_a_disagreement(scanned: Path) -> None:
    (scanned / INDEX).write_text("# everything is owned\n")
    rehash(scanned, INDEX)
    refused(run("gate", scanned), INDEX, "recomputed")


@pytest.mark.parametrize("page", ["index/unresolved-01.md", "index/flow.md"])
def test_an_index_page_rewritten_with_its_hash_is_a_disagreement(scanned: Path, page: str) -> None:
    """The gate takes the sha256 of the inventory it verified, never of a page it makes again."""
    (scanned / page).write_text("# everything is owned\n")
    rehash(scanned, page)
    refused(run("gate", scanned), SUMMARY, f"outputs.{page}", "recomputed")


def test_a_recorded_allowlist_without_its_entry_count_is_refused(scanned: Path) -> None:
    summary = load(scanned)
    summary["inputs"]["allowlists"] = [{"path": "a.toml", "sha256": "0" * 64}]
    save(scanned, summary)
    refused(run("gate", scanned), SUMMARY, "inputs.allowlists")


def test_counts_edited_are_recounted_from_the_records(scanned: Path) -> None:
    summary = load(scanned)
    summary["counts"]["total"] += 1
    save(scanned, summary)
    refused(run("gate", scanned), "counts disagree", "total")


def test_records_removed_with_their_hash_are_a_disagreement(scanned: Path) -> None:
    lines = (scanned / CALLSITES).read_bytes().splitlines(keepends=True)
    (scanned / CALLSITES).write_bytes(b"".join(lines[1:]))
    rehash(scanned, CALLSITES)
    refused(run("gate", scanned), "disagree")


def test_callsite_file_deleted_with_its_entry_is_refused(scanned: Path) -> None:
    summary = load(scanned)
    del summary["outputs"][CALLSITES]
    save(scanned, summary)
    (scanned / CALLSITES).unlink()
    refused(run("gate", scanned), CALLSITES, "does not list it")


def test_readable_rendering_deleted_with_its_entry_is_refused(scanned: Path) -> None:
    summary = load(scanned)
    del summary["outputs"]["readable/demo.min.js"]
    save(scanned, summary)
    (scanned / "readable" / "demo.min.js").unlink()
    refused(run("gate", scanned), "readable/demo.min.js", "does not list it")


@pytest.mark.parametrize("name", ["../../../../etc/hostname", "/etc/hostname", "readable/../../x", "./" + INDEX])
def test_an_output_outside_the_directory_is_refused(scanned: Path, name: str) -> None:
    summary = load(scanned)
    target = Path("/etc/hostname")
    summary["outputs"][name] = hashlib.sha256(target.read_bytes() if target.exists() else b"").hexdigest()
    save(scanned, summary)
    refused(run("gate", scanned), "not a file inside the scan directory")


def test_a_listed_output_replaced_by_a_fifo_is_refused_without_hanging(scanned: Path) -> None:
    (scanned / INDEX).unlink()
    os.mkfifo(scanned / INDEX)
    refused(run("gate", scanned, timeout=60), INDEX, "FIFO")


def test_a_listed_output_replaced_by_a_symlink_is_refused(scanned: Path, tmp_path: Path) -> None:
    moved = tmp_path / "index-elsewhere.md"
    (scanned / INDEX).rename(moved)
    (scanned / INDEX).symlink_to(moved)
    refused(run("gate", scanned), INDEX, "symlink")


def test_a_symlinked_subdirectory_is_refused(scanned: Path, tmp_path: Path) -> None:
    shutil.move(scanned / "readable", tmp_path / "readable-elsewhere")
    (scanned / "readable").symlink_to(tmp_path / "readable-elsewhere")
    refused(run("gate", scanned), "readable", "symlink")


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "-0.1", "1.5"])
def test_a_threshold_outside_zero_to_one_is_refused(scanned: Path, value: str) -> None:
    refused(run("gate", scanned, "--min-coverage", value), "--min-coverage", "from 0 to 1")
    refused(run("gate", scanned, "--min-coverage-kind", f"error={value}"), "--min-coverage-kind", "from 0 to 1")


def test_thresholds_at_the_ends_are_accepted(scanned: Path) -> None:
    assert run("gate", scanned, "--min-coverage", "0").returncode == 0
    assert run("gate", scanned, "--min-coverage", "1").returncode == 1


@pytest.mark.parametrize("make", ["dev-zero", "fifo", "directory"])
def test_a_baseline_that_is_not_a_regular_file_is_refused(scanned: Path, tmp_path: Path, make: str) -> None:
    baseline = {"dev-zero": Path("/dev/zero"), "fifo": tmp_path / "fifo", "directory": tmp_path}[make]
    if make == "fifo":
        os.mkfifo(baseline)
    refused(run("gate", scanned, "--baseline", baseline, timeout=60, preexec_fn=two_gib), str(baseline))


def test_a_baseline_with_a_callsite_count_of_another_kind_is_refused(scanned: Path, tmp_path: Path) -> None:
    summary = load(scanned)
    summary["counts"]["total"] = "5"
    baseline = tmp_path / "baseline.json"
    baseline.write_bytes(orjson.dumps(summary))
    refused(run("gate", scanned, "--baseline", baseline), str(baseline), "counts.total")
    refused(run("sarif", scanned, "--baseline", baseline), str(baseline), "counts.total")


def test_a_baseline_without_an_unresolved_list_is_refused(scanned: Path, tmp_path: Path) -> None:
    summary = load(scanned)
    summary["unresolvedFingerprints"] = 5
    baseline = tmp_path / "baseline.json"
    baseline.write_bytes(orjson.dumps(summary))
    refused(run("gate", scanned, "--baseline", baseline), "unresolvedFingerprints")


def test_an_allowlist_edited_after_the_scan_is_a_disagreement(scanned: Path, tmp_path: Path) -> None:
    allowlist = tmp_path / "a.toml"
    allow_first(scanned, allowlist)
    assert run("project", scanned, "-a", allowlist).returncode == 0
    assert run("gate", scanned).returncode == 0
    allowlist.write_text(allowlist.read_text() + "# edited after the scan\n")
    refused(run("gate", scanned), str(allowlist), "changed since the scan")


def test_an_allowlist_deleted_after_the_scan_is_refused(scanned: Path, tmp_path: Path) -> None:
    allowlist = tmp_path / "a.toml"
    allow_first(scanned, allowlist)
    assert run("project", scanned, "-a", allowlist).returncode == 0
    allowlist.unlink()
    refused(run("gate", scanned), str(allowlist), "not found")


def test_allowlists_recorded_relative_are_found_from_where_the_scan_ran(tmp_path: Path) -> None:
    (tmp_path / "allowlists").mkdir()
    scan(FIXTURES / "demo" / "demo.min.js", tmp_path / "scan")
    allow_first(tmp_path / "scan", tmp_path / "allowlists" / "a.toml")
    assert run("project", "scan", "-a", "allowlists/a.toml", cwd=tmp_path).returncode == 0
    assert load(tmp_path / "scan")["inputs"]["allowlists"][0]["path"] == "allowlists/a.toml"
    assert run("gate", "scan", cwd=tmp_path).returncode == 0
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    refused(run("gate", tmp_path / "scan", cwd=elsewhere), "allowlists/a.toml", "not found", "--allowlist")
    given = run("gate", tmp_path / "scan", "--allowlist", tmp_path / "allowlists" / "a.toml", cwd=elsewhere)
    assert given.returncode == 0, given.stderr


def test_allowlists_given_to_the_gate_must_be_exactly_the_scans(scanned: Path, tmp_path: Path) -> None:
    used, other = tmp_path / "used.toml", tmp_path / "other.toml"
    allow_first(scanned, used)
    assert run("project", scanned, "-a", used).returncode == 0
    other.write_text(used.read_text().replace('"Product"', '"Product" # another file'))
    refused(run("gate", scanned, "-a", used, "-a", other), str(other), "not an allowlist of this scan")
    assert run("project", scanned, "--no-allowlist").returncode == 0  # now the scan used none
    refused(run("gate", scanned, "-a", used), str(used), "not an allowlist of this scan")


def test_a_summary_that_drops_its_allowlist_cannot_claim_its_owners(scanned: Path, tmp_path: Path) -> None:
    allowlist = tmp_path / "a.toml"
    allow_first(scanned, allowlist)
    assert run("project", scanned, "-a", allowlist).returncode == 0
    summary = load(scanned)
    summary["inputs"]["allowlists"] = []
    save(scanned, summary)
    refused(run("gate", scanned), "recomputed")


def test_project_then_gate_with_suggestions_still_verifies(scanned: Path) -> None:
    assert run("suggest", scanned).returncode == 0
    assert run("gate", scanned).returncode == 0
