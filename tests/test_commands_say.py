"""Commands say what they did not do: `accept` counts what it skipped and names the option that
takes it, the carried-owners command of docs/owners.md works as written, and Ctrl-C during a
scan is one line saying the previous output is kept."""

from __future__ import annotations

import shlex
import shutil
from pathlib import Path

import pytest
from conftest import (
    FIXTURES,
    ROOT,
    interrupted_scan,
    records,
    run,
    scan,
    tree_bytes,
)

DEMO = FIXTURES / "demo" / "demo.min.js"
DIFF = FIXTURES / "diff"


def test_accept_says_how_many_likely_suggestions_it_skipped_and_how_to_take_them(demo_scan_copy: Path,
                                                                                 tmp_path: Path) -> None:
    out = demo_scan_copy
    assert run("suggest", out).returncode == 0
    allowlist = tmp_path / "demo.toml"
    result = run("accept", out, "-a", allowlist, "--reviewer", "t", "--on", "2026-12-01")
    assert result.returncode == 0, result.stderr
    line = result.stderr.strip()
    assert "suggestions skipped: " in line
    said = line.split("suggestions skipped: ", 1)[1].split("; ")
    likely = [phrase for phrase in said if "below --confidence exact" in phrase and " likely" in phrase]
    assert likely and likely[0].endswith("(--confidence likely takes them)"), line
    count = int(likely[0].split(" ", 1)[0])
    assert count > 0
    again = run("accept", out, "-a", allowlist, "--reviewer", "t", "--on", "2026-12-01", "--confidence", "likely")
    assert "below --confidence exact" not in again.stderr


def test_accept_says_nothing_of_skipping_when_ids_are_given(demo_scan_copy: Path, tmp_path: Path) -> None:
    out = demo_scan_copy
    assert run("suggest", out).returncode == 0
    first = (out / "suggestions.jsonl").read_text().splitlines()[0]
    chosen = first.split('"id":"', 1)[1].split('"', 1)[0]
    result = run("accept", out, "-a", tmp_path / "a.toml", "--reviewer", "t", "--id", chosen)
    assert result.returncode == 0 and "skipped" not in result.stderr, result.stderr


def test_the_carried_owners_command_of_docs_owners_works_as_written(tmp_path: Path) -> None:
    """The command in docs/owners.md, its placeholders filled, takes the carried owners."""
    written = [line.strip() for line in (ROOT / "docs" / "owners.md").read_text().splitlines()
               if line.strip().startswith("erratlas accept NEW_DIR --suggestions DIR/carried.jsonl")]
    assert len(written) == 1, written
    old, new, allowlist = tmp_path / "v1", tmp_path / "v2", tmp_path / "owners.toml"
    scan(DIFF / "v1.js", old)
    scan(DIFF / "v2.js", new)
    for message in ("b: too big", "f: old wording"):
        target = next(r["id"] for r in records(old, "error") if r["message"]["comparisonKey"] == message)  # type: ignore[index]
        assert run("allow", old, target, "-a", allowlist, "--owner", "Product", "--reason", "reviewed",
                   "--reviewer", "t").returncode == 0
    assert run("project", old, "-a", allowlist).returncode == 0
    assert run("diff", old, new, "--out", tmp_path / "d").returncode == 0
    words = shlex.split(written[0].replace("NEW_DIR", str(new)).replace("DIR/", f"{tmp_path / 'd'}/")
                        .replace("ALLOWLIST", str(allowlist)).replace("YOU", "t"))
    assert words[0] == "erratlas"
    accepted = run(*words[1:])
    assert accepted.returncode == 0, accepted.stderr
    assert "2 entries accepted" in accepted.stderr, accepted.stderr
    assert "2 of 8 owned" in run("project", new, "-a", allowlist).stderr  # b and f, carried


def _interrupt_before_the_write(bundle: Path, out: Path, moment: str, tries: int) -> tuple[int, list[str]]:
    """`conftest.interrupted_scan` at `moment`, tried again (at most `tries` times) while the signal lands after
    the scan has begun writing, when Ctrl-C no longer counts: each such scan must have ended
    as it would have, with the new output; `out` is then made again as it was."""
    before = tree_bytes(out)
    for _ in range(tries):
        code, lines = interrupted_scan(bundle, out, moment)
        if code == 130:
            break
        assert code == 0 and len(lines) == 1 and lines[0].startswith(f"erratlas: {bundle.name}: "), lines
        reference = out.parent / "reference"
        scan(bundle, reference)
        assert tree_bytes(out) == tree_bytes(reference)
        shutil.rmtree(reference)
        shutil.rmtree(out)
        scan(FIXTURES / "gate" / "few.js", out)
        assert tree_bytes(out) == before
    return code, lines


@pytest.mark.parametrize("moment", ["extract: parsed", "callsites found", "reports: inventory made",
                                    "owners: index in"])
def test_ctrl_c_during_a_scan_is_one_line_and_keeps_the_previous_output(tmp_path: Path, moment: str) -> None:
    """The late moments come a few milliseconds before the scan begins writing."""
    out = tmp_path / "out"
    scan(FIXTURES / "gate" / "few.js", out)
    before = tree_bytes(out)
    code, lines = _interrupt_before_the_write(DEMO, out, moment, 5 if moment.startswith(("reports:", "owners:")) else 1)
    assert code == 130
    assert lines == [f"erratlas: interrupted: the previous output in {out} is kept as it was"]
    assert tree_bytes(out) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]  # no staging directory left


def test_ctrl_c_before_a_first_output_says_nothing_was_written(tmp_path: Path) -> None:
    code, lines = interrupted_scan(DEMO, tmp_path / "new", "extract: parsed")
    assert code == 130 and lines == [f"erratlas: interrupted: nothing written to {tmp_path / 'new'}"]
    assert not (tmp_path / "new").exists()


def test_ctrl_c_during_a_python_scan_is_the_same_line(tmp_path: Path) -> None:
    out = tmp_path / "out"
    scan(FIXTURES / "gate" / "few.js", out)
    before = tree_bytes(out)
    code, lines = _interrupt_before_the_write(FIXTURES / "python", out, "scan: done", 5)  # 11 ms before it
    assert code == 130 and lines == [f"erratlas: interrupted: the previous output in {out} is kept as it was"]
    assert tree_bytes(out) == before


def test_ctrl_c_while_the_output_is_written_lets_the_write_finish(tmp_path: Path) -> None:
    """Once the files are being written, the scan ends as it would have: the output is the new one."""
    out = tmp_path / "out"
    code, lines = interrupted_scan(DEMO, out, "output: staging made")
    assert code == 0 and len(lines) == 1 and lines[0].startswith("erratlas: demo.min.js: "), lines
    reference = tmp_path / "reference"
    scan(DEMO, reference)
    assert tree_bytes(out) == tree_bytes(reference)
    shutil.rmtree(reference)
