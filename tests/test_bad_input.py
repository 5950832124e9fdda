"""Bad input (docs/reference.md, exit codes) is one line naming the file and the problem, exit 2, never a traceback,
never a partial output."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest
from conftest import FIXTURES, records, run, scan, tree_bytes


def assert_one_line_error(result, path: Path) -> None:  # type: ignore[no-untyped-def]
    assert result.returncode == 2, (result.returncode, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert str(path) in lines[0]
    assert "Traceback" not in result.stderr
    assert result.stdout == ""


def test_nonexistent_path_is_one_line_exit_2(tmp_path: Path) -> None:
    missing = tmp_path / "nope.js"
    result = run("scan", missing, "--out", tmp_path / "out")
    assert_one_line_error(result, missing)
    assert "no such file" in result.stderr
    assert not (tmp_path / "out").exists()


def test_directory_is_one_line_exit_2(tmp_path: Path) -> None:
    result = run("scan", tmp_path, "--out", tmp_path / "out")
    assert_one_line_error(result, tmp_path)
    assert "directory" in result.stderr


def test_empty_file_is_one_line_exit_2(tmp_path: Path) -> None:
    empty = tmp_path / "empty.js"
    empty.write_bytes(b"")
    result = run("scan", empty, "--out", tmp_path / "out")
    assert_one_line_error(result, empty)
    assert "empty" in result.stderr


def test_random_binary_is_one_line_exit_2(tmp_path: Path) -> None:
    blob = tmp_path / "random.bin"
    blob.write_bytes(random.Random(7).randbytes(64 * 1024))
    result = run("scan", blob, "--out", tmp_path / "out")
    assert_one_line_error(result, blob)


def test_executable_without_bun_graph_is_one_line_exit_2(tmp_path: Path) -> None:
    elf = tmp_path / "tool"
    elf.write_bytes(b"\x7fELF" + bytes(4096))
    result = run("scan", elf, "--out", tmp_path / "out")
    assert_one_line_error(result, elf)


def test_invalid_utf8_is_one_line_exit_2(tmp_path: Path) -> None:
    bad = tmp_path / "latin1.js"
    bad.write_bytes(b'throw new Error("caf\xe9");\n')
    result = run("scan", bad, "--out", tmp_path / "out")
    assert_one_line_error(result, bad)
    assert "UTF-8" in result.stderr


def test_bad_input_leaves_previous_output_untouched(tmp_path: Path, demo_bundle: Path) -> None:
    out = tmp_path / "out"
    scan(demo_bundle, out)
    before = tree_bytes(out)
    empty = tmp_path / "empty.js"
    empty.write_bytes(b"")
    assert run("scan", empty, "--out", out).returncode == 2
    assert tree_bytes(out) == before


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_truncated_bundle_scans_and_flags_error_regions(tmp_path: Path, seed: int) -> None:
    source = (FIXTURES / "demo" / "demo.min.js").read_bytes()
    cut = random.Random(seed).randrange(len(source) // 4, len(source) - 10)
    truncated = tmp_path / "truncated.js"
    truncated.write_bytes(source[:cut].decode("utf-8", "ignore").encode())
    summary = scan(truncated, tmp_path / "out")
    regions = summary["errorRegions"]
    assert regions["count"] >= 1  # type: ignore[index]
    everything = records(tmp_path / "out", "error") + records(tmp_path / "out", "diagnostic")
    assert everything, "the part before the cut still has callsites"
    assert all(r["offset"] < cut for r in everything)
    flagged = [r for r in everything if r["context"]["inErrorRegion"]]  # type: ignore[index]
    counted = summary["counts"]["error"]["inErrorRegion"] + summary["counts"]["diagnostic"]["inErrorRegion"]  # type: ignore[index]
    assert len(flagged) == counted


def test_callsites_inside_a_syntax_error_are_flagged(tmp_path: Path) -> None:
    bundle = tmp_path / "broken.js"
    bundle.write_text('function f(){ throw new Error("fine") }\nfunction g( { throw Error("in the mess") ) ]\n')
    scan(bundle, tmp_path / "out")
    by_text = {r["message"]["text"]: r for r in records(tmp_path / "out", "error")}  # type: ignore[index]
    assert by_text["fine"]["context"]["inErrorRegion"] is False  # type: ignore[index]
    assert by_text["in the mess"]["context"]["inErrorRegion"] is True  # type: ignore[index]


def test_output_path_that_is_a_symlink_is_refused(tmp_path: Path, demo_bundle: Path) -> None:
    real = tmp_path / "real"
    real.mkdir()
    (real / "keep.txt").write_text("mine")
    link = tmp_path / "link"
    link.symlink_to(real)
    result = run("scan", demo_bundle, "--out", link)
    assert_one_line_error(result, link)
    assert (real / "keep.txt").read_text() == "mine"
    assert link.is_symlink()


def test_unrelated_non_empty_directory_is_not_replaced(tmp_path: Path, demo_bundle: Path) -> None:
    precious = tmp_path / "precious"
    precious.mkdir()
    (precious / "thesis.tex").write_text("years of work")
    result = run("scan", demo_bundle, "--out", precious)
    assert_one_line_error(result, precious)
    assert (precious / "thesis.tex").read_text() == "years of work"


def test_unknown_rules_key_names_file_line_and_key(tmp_path: Path, demo_bundle: Path) -> None:
    rules = tmp_path / "rules.toml"
    rules.write_text('[errors]\nconstructors = ["Error"]\n\n[logger]\nlevelKey = "level"\ncolour = "red"\n')
    result = run("scan", demo_bundle, "--out", tmp_path / "out", "--rules", rules)
    assert_one_line_error(result, rules)
    assert f"{rules}:6" in result.stderr and "logger.colour" in result.stderr


def test_wrong_rules_type_names_file_line_and_key(tmp_path: Path, demo_bundle: Path) -> None:
    rules = tmp_path / "rules.toml"
    rules.write_text('[errors]\nconstructors = "Error"\n')
    result = run("scan", demo_bundle, "--out", tmp_path / "out", "--rules", rules)
    assert_one_line_error(result, rules)
    assert f"{rules}:2" in result.stderr and "errors.constructors" in result.stderr


def test_invalid_rules_toml_is_one_line(tmp_path: Path, demo_bundle: Path) -> None:
    rules = tmp_path / "rules.toml"
    rules.write_text("[errors\n")
    assert_one_line_error(run("scan", demo_bundle, "--out", tmp_path / "out", "--rules", rules), rules)


def test_unreadable_file_is_one_line(tmp_path: Path, demo_bundle: Path) -> None:
    if os.geteuid() == 0:
        pytest.skip("root reads everything")
    locked = tmp_path / "locked.js"
    locked.write_bytes(demo_bundle.read_bytes())
    locked.chmod(0)
    assert_one_line_error(run("scan", locked, "--out", tmp_path / "out"), locked)


def test_usage_error_exits_2_without_traceback(tmp_path: Path) -> None:
    for args in (["scan", "--no-such-option"], ["scan"], ["gate"], ["no-such-verb"],
                 ["gate", tmp_path, "--min-coverage", "x"], ["gate", tmp_path, "--min-coverage-kind", "error"]):
        result = run(*args)
        assert result.returncode == 2, (args, result.stderr)
        assert "Traceback" not in result.stderr
        (line,) = result.stderr.strip().splitlines()  # one line, as for any other bad input
        assert line.startswith("erratlas: error: "), line


@pytest.mark.parametrize("value", ["Prod\nuct", "Prod\ruct", "Prod\u2028uct", "Prod\x0cuct"])
def test_a_line_break_in_a_quoted_value_keeps_the_error_one_line(tmp_path: Path, value: str) -> None:
    """An allowlist's or a rules file's value, or a file name, quoted in an error is written with
    its line breaks escaped: `owner = "Prod\\nuct"` made the error two lines."""
    escaped = value.encode("unicode_escape").decode()
    in_toml = "".join(c if c.isalpha() else f"\\u{ord(c):04x}" for c in value)
    allowlist = tmp_path / "a.toml"
    allowlist.write_text('[[entry]]\nmatch = { callsite = "fp1:' + "0" * 32 + '" }\nowner = "'
                         + in_toml + '"\nreason = "r"\nreviewedBy = "t"\nreviewedOn = "2026-01-01"\n')
    rules = tmp_path / "rules.toml"
    rules.write_text('[errors]\nconstructors = ["Err' + in_toml + 'or"]\n')
    missing = tmp_path / f"no{value}where.js"
    demo = FIXTURES / "demo" / "demo.min.js"
    for result, path in ((run("scan", demo, "--out", tmp_path / "o", "-a", allowlist), allowlist),
                         (run("fmt", "--check", allowlist), allowlist),
                         (run("scan", demo, "--out", tmp_path / "o", "--rules", rules), rules),
                         (run("scan", missing, "--out", tmp_path / "o"), tmp_path)):
        assert_one_line_error(result, path)
        assert escaped in result.stderr
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize("value", ["a\nb", "a\u2028b"])
def test_a_name_given_on_the_command_line_is_one_line(tmp_path: Path, value: str) -> None:
    """`--logger` and a diff's labels are written into outputs and messages as names: one that would
    break a line is refused, exit 2, before any work."""
    demo = FIXTURES / "demo" / "demo.min.js"
    scanned = run("scan", demo, "--out", tmp_path / "o", "--logger", value)
    assert scanned.returncode == 2 and not (tmp_path / "o").exists()
    (line,) = scanned.stderr.strip().splitlines()
    assert line.startswith("erratlas: error: ") and "--logger" in line and "must be one line" in line
    assert run("scan", demo, "--out", tmp_path / "o").returncode == 0
    for option in ("--old-label", "--new-label"):
        diffed = run("diff", tmp_path / "o", tmp_path / "o", "--out", tmp_path / "d", option, value)
        assert diffed.returncode == 2 and not (tmp_path / "d").exists()
        (line,) = diffed.stderr.strip().splitlines()
        assert option in line and "must be one line" in line
