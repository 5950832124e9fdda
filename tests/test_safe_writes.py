"""Issue 13 (part B): nothing of the user's is deleted or overwritten, every write validates first.

Each case sets up what a user has on disk, runs the verb that once lost it, and checks that the
verb refuses (exit 2, one line) and that every byte is still there.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
from pathlib import Path

import pytest
from conftest import FIXTURES, SUMMARY, erratlas_command, records, run, scan, tree_bytes
from test_bun_reader import Module, elf, graph

SAFETY = FIXTURES / "hostile" / "safety"
DEMO = FIXTURES / "demo" / "demo.min.js"


@pytest.fixture(scope="module")
def demo_scan(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("writes") / "scan"
    scan(DEMO, out)
    return out


def refused(result: subprocess.CompletedProcess[str], *words: str) -> None:
    assert result.returncode == 2, (result.returncode, result.stderr)
    assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.stderr, result.stderr
    for word in words:
        assert word in result.stderr, result.stderr


def leftovers(directory: Path) -> list[str]:
    return sorted(name for name in os.listdir(directory) if ".erratlas-" in name or name.endswith(".tmp"))


# ---- scan directories ------------------------------------------------------------------------


def test_out_with_an_empty_summary_beside_the_users_file_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / SUMMARY).write_bytes(b"")
    (out / "precious.txt").write_text("mine")
    before = tree_bytes(out)
    refused(run("scan", DEMO, "--out", out), "nothing was deleted")
    assert tree_bytes(out) == before


def test_a_file_added_inside_a_scan_directory_is_not_deleted(tmp_path: Path) -> None:
    out = tmp_path / "out"
    scan(DEMO, out)
    (out / "readable" / "notes.md").write_text("my notes")
    before = tree_bytes(out)
    refused(run("scan", DEMO, "--out", out), "readable/notes.md", "not written by erratlas")
    assert tree_bytes(out) == before


def test_a_file_changed_inside_a_scan_directory_is_not_overwritten(tmp_path: Path) -> None:
    out = tmp_path / "out"
    scan(DEMO, out)
    index = out / "error-diagnostic-owner-index.md"
    index.write_text(index.read_text() + "\nmy review notes\n")
    before = tree_bytes(out)
    refused(run("scan", DEMO, "--out", out), index.name, "changed since erratlas wrote it")
    refused(run("project", out), index.name)
    assert tree_bytes(out) == before


def test_a_file_added_while_the_scan_runs_is_refused_at_the_swap(tmp_path: Path) -> None:
    """The output directory is checked again right before the swap (the files were staged by
    then, in the scan's own process): the refusal leaves it as it is and no staging behind."""
    out = tmp_path / "out"
    scan(DEMO, out)
    process = subprocess.Popen([erratlas_command(), "scan", DEMO, "--out", out], stderr=subprocess.PIPE,
                               stdout=subprocess.DEVNULL, env={**os.environ, "ERRATLAS_TRACE": "1"}, text=True)
    assert process.stderr is not None
    lines = []
    for line in process.stderr:
        if "reports: made" in line:
            (out / "notes.md").write_text("written during the scan")
        elif not line.startswith("erratlas-trace"):
            lines.append(line)
    assert process.wait(timeout=60) == 2
    assert len(lines) == 1 and "notes.md" in lines[0] and "not written by erratlas" in lines[0], lines
    assert (out / "notes.md").read_text() == "written during the scan"
    assert leftovers(tmp_path) == []


def test_a_directory_of_the_users_inside_a_scan_directory_is_not_deleted(tmp_path: Path) -> None:
    out = tmp_path / "out"
    scan(DEMO, out)
    (out / "drafts").mkdir()
    refused(run("scan", DEMO, "--out", out), "drafts", "did not write")
    assert (out / "drafts").is_dir()


def test_an_erratlas_directory_and_an_empty_one_are_replaced(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    scan(FIXTURES / "shadowing" / "shadowing.js", out)
    scan(DEMO, out)
    assert json.loads((out / SUMMARY).read_text())["inputs"]["bundle"]["name"] == DEMO.name
    assert leftovers(tmp_path) == []


def test_project_keeps_a_suggested_directory_replaceable(demo_scan: Path, tmp_path: Path) -> None:
    out = tmp_path / "scan"
    out.mkdir()
    for name, data in tree_bytes(demo_scan).items():
        (out / name).parent.mkdir(exist_ok=True)
        (out / name).write_bytes(data)
    assert run("suggest", out).returncode == 0
    assert run("project", out).returncode == 0
    assert (out / "suggestions.jsonl").is_file()
    scan(DEMO, out)


# ---- extract ------------------------------------------------------------------------------------


@pytest.fixture
def bun_binary(tmp_path: Path) -> Path:
    binary = tmp_path / "app"
    binary.write_bytes(elf(graph([Module("/$bunfs/root/app", b'throw new Error("from a bun app");\n'),
                                  Module("/$bunfs/root/lib.js", b"module.exports = 1;\n")])))
    return binary


def test_extract_into_a_web_app_directory_is_refused(bun_binary: Path, tmp_path: Path) -> None:
    webapp = tmp_path / "webapp"
    webapp.mkdir()
    (webapp / "manifest.json").write_text('{"name": "my web app", "start_url": "/"}')
    (webapp / "index.html").write_text("<!doctype html><title>mine</title>")
    before = tree_bytes(webapp)
    refused(run("extract", bun_binary, "--out", webapp), "manifest.json", "nothing was deleted")
    assert tree_bytes(webapp) == before


def test_extract_replaces_its_own_extraction_but_not_one_with_an_added_file(bun_binary: Path, tmp_path: Path) -> None:
    out = tmp_path / "extracted"
    assert run("extract", bun_binary, "--out", out).returncode == 0
    first = tree_bytes(out)
    assert run("extract", bun_binary, "--out", out).returncode == 0
    assert tree_bytes(out) == first
    (out / "index.html").write_text("mine")
    refused(run("extract", bun_binary, "--out", out), "index.html")
    assert (out / "index.html").read_text() == "mine"


# ---- single files: no predictable temporary names -----------------------------------------------


def test_suggest_out_does_not_follow_a_planted_symlink(demo_scan: Path, tmp_path: Path) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("do not overwrite")
    (tmp_path / ".s.jsonl.tmp").symlink_to(victim)
    result = run("suggest", demo_scan, "--out", tmp_path / "s.jsonl")
    assert result.returncode == 0, result.stderr
    assert victim.read_text() == "do not overwrite"
    assert (tmp_path / "s.jsonl").is_file() and not (tmp_path / "s.jsonl").is_symlink()
    assert leftovers(tmp_path) == [".s.jsonl.tmp"]  # the planted link, untouched


def test_suggest_out_refuses_to_replace_a_symlink(demo_scan: Path, tmp_path: Path) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("do not overwrite")
    (tmp_path / "s.jsonl").symlink_to(victim)
    refused(run("suggest", demo_scan, "--out", tmp_path / "s.jsonl"), "symlink")
    assert victim.read_text() == "do not overwrite" and (tmp_path / "s.jsonl").is_symlink()


@pytest.mark.parametrize("verb", ["allow", "prune", "accept"])
def test_allowlist_writes_do_not_follow_a_planted_symlink(demo_scan: Path, tmp_path: Path, verb: str) -> None:
    out = tmp_path / "scan"
    allowlist = tmp_path / "a.toml"
    allowlist.write_bytes((SAFETY / "allowlist-headers.toml").read_bytes())
    if verb == "prune":  # prune reads a scan projected with the allowlist (its stale entries are the scan's)
        shutil.copytree(demo_scan, tmp_path / "projected")
        assert run("project", tmp_path / "projected", "-a", allowlist).returncode == 0
        demo_scan = tmp_path / "projected"
    os.symlink(demo_scan, out)  # read only: none of these verbs writes the scan directory
    victim = tmp_path / "victim.txt"
    victim.write_text("do not overwrite")
    (tmp_path / ".a.toml.tmp").symlink_to(victim)
    suggestions = tmp_path / "s.jsonl"
    assert run("suggest", out, "--out", suggestions).returncode == 0
    first = records(demo_scan, "error")[3]["id"]
    args = {
        "allow": ["allow", out, first, "-a", allowlist, "--owner", "Product", "--reason", "r", "--reviewer", "t"],
        "prune": ["prune", out, "-a", allowlist],
        "accept": ["accept", out, "-a", allowlist, "--reviewer", "t", "--suggestions", suggestions,
                   "--confidence", "possible"],
    }[verb]
    result = run(*args)
    assert result.returncode == 0, result.stderr
    assert victim.read_text() == "do not overwrite"
    assert allowlist.read_bytes() != (SAFETY / "allowlist-headers.toml").read_bytes(), "the verb wrote"
    assert leftovers(tmp_path) == [".a.toml.tmp"]


# ---- every write validates first ---------------------------------------------------------------

INVALID = {
    "owner-bogus": (["--owner", "Bogus"], "--owner"),
    "date-not-a-date": (["--owner", "Product", "--on", "notadate"], "--on"),
    "date-out-of-range": (["--owner", "Product", "--on", "2026-02-30"], "--on"),
    "date-unpadded": (["--owner", "Product", "--on", "2026-1-1"], "--on"),
    "package-on-product": (["--owner", "Product", "--package", "zod"], "--package"),
    "dependency-without-package": (["--owner", "Dependency"], "--package"),
    "package-not-a-name": (["--owner", "Dependency", "--package", "bad name!"], "--package"),
    "empty-name": (["--owner", "Product", "--name", ""], "--name"),
    "empty-catch-owner": (["--owner", "Product", "--catch-owner", " "], "--catch-owner"),
    "empty-reviewer": (["--owner", "Product", "--reviewer", ""], "--reviewer"),
    "function-and-module": (["--owner", "Product", "--function", "--module"], "--function"),
}


@pytest.mark.parametrize("case", sorted(INVALID))
@pytest.mark.parametrize("existing", [False, True])
def test_allow_with_an_invalid_value_writes_nothing(demo_scan: Path, tmp_path: Path, case: str, existing: bool) -> None:
    allowlist = tmp_path / "a.toml"
    if existing:
        allowlist.write_bytes((SAFETY / "allowlist-headers.toml").read_bytes())
    target = records(demo_scan, "error")[0]["id"]
    options, named = INVALID[case]
    base = ["--reason", "r", *(["--reviewer", "t"] if "--reviewer" not in options else [])]
    refused(run("allow", demo_scan, target, "-a", allowlist, *base, *options), named)
    if existing:
        assert allowlist.read_bytes() == (SAFETY / "allowlist-headers.toml").read_bytes()
    else:
        assert not allowlist.exists()
    assert leftovers(tmp_path) == []


def test_accept_of_a_malformed_suggestion_writes_nothing(demo_scan: Path, tmp_path: Path) -> None:
    suggestions = tmp_path / "s.jsonl"
    assert run("suggest", demo_scan, "--out", suggestions).returncode == 0
    rows = [json.loads(line) for line in suggestions.read_text().splitlines()]
    assert rows
    rows[-1]["owner"] = "Bogus"
    suggestions.write_text("".join(json.dumps(row) + "\n" for row in rows))
    allowlist = tmp_path / "a.toml"
    result = run("accept", demo_scan, "-a", allowlist, "--reviewer", "t", "--suggestions", suggestions,
                 "--confidence", "possible")
    refused(result, rows[-1]["id"], "owner")
    assert not allowlist.exists()
    del rows[-1]["match"]
    suggestions.write_text("".join(json.dumps(row) + "\n" for row in rows))
    refused(run("accept", demo_scan, "-a", allowlist, "--reviewer", "t", "--suggestions", suggestions), "match")


def test_accept_with_a_bad_date_writes_nothing(demo_scan: Path, tmp_path: Path) -> None:
    suggestions = tmp_path / "s.jsonl"
    assert run("suggest", demo_scan, "--out", suggestions).returncode == 0
    allowlist = tmp_path / "a.toml"
    result = run("accept", demo_scan, "-a", allowlist, "--reviewer", "t", "--suggestions", suggestions,
                 "--confidence", "possible", "--on", "notadate")
    refused(result, "--on")
    assert not allowlist.exists()


# ---- a killed writer's staging -------------------------------------------------------------------


def test_staging_left_by_sigkill_is_removed_by_the_next_run(tmp_path: Path) -> None:
    out = tmp_path / "out"
    for _ in range(3):
        process = subprocess.Popen([erratlas_command(), "scan", DEMO, "--out", out], stderr=subprocess.PIPE,
                                   env={**os.environ, "ERRATLAS_TRACE": "1"}, text=True)
        assert process.stderr is not None
        for line in process.stderr:
            if "output: staging made" in line:
                process.send_signal(signal.SIGKILL)
                break
        process.wait(timeout=60)
        assert process.returncode == -signal.SIGKILL
        assert len(leftovers(tmp_path)) == 1, "the kill left its staging directory"
        scan(DEMO, out)
        assert leftovers(tmp_path) == []


def test_staging_of_a_live_writer_and_foreign_names_are_kept(tmp_path: Path) -> None:
    stat = Path(f"/proc/{os.getpid()}/stat").read_text().rsplit(")", 1)[1].split()
    boot = Path("/proc/sys/kernel/random/boot_id").read_text().strip().replace("-", "")[:16]
    live = tmp_path / f".out.erratlas-{boot}.{os.getpid()}.{stat[19]}-live"
    dead = tmp_path / f".out.erratlas-{boot}.{os.getpid()}.{int(stat[19]) + 1}-dead"
    unknown = tmp_path / ".out.erratlas-x-nameless"
    other = tmp_path / ".out.erratlas-not-ours"
    for directory in (live, dead, unknown, other):
        directory.mkdir()
        (directory / "file").write_text("x")
    scan(DEMO, tmp_path / "out")
    assert live.is_dir() and unknown.is_dir() and other.is_dir()
    assert not dead.exists()


def test_an_output_directory_with_a_long_name_is_written_and_replaced(tmp_path: Path) -> None:
    """The staging directory's name keeps only a prefix of the target's (NAME_MAX is 255 bytes)."""
    out = tmp_path / ("é" * 120 + "-out")
    scan(DEMO, out)
    scan(DEMO, out)
    assert leftovers(tmp_path) == []
