"""What a new user meets in the first hour, continued from tests/test_first_hour.py: a clear
one-line refusal (exit status 2, naming the file and the problem, nothing written) or a scan that
says what it left out, never a partial output a gate would pass (docs/reference.md, "Inputs")."""

from __future__ import annotations

import io
import tarfile
from pathlib import Path

import pytest
from conftest import FIXTURES, ROOT, run
from test_first_hour import JS_SOURCE, PYTHON_SOURCE, refused


@pytest.mark.parametrize("content", [b"function g(){throw new Error('caf\xe9')}\n", b"\x00\x01 not text",
                                     b"\xff\xfef\x00(\x00)\x00"])
def test_a_javascript_file_of_a_directory_that_is_not_utf8_text_refuses_the_directory_naming_it(
        tmp_path: Path, content: bytes) -> None:
    """The refusal named the file `tree!latin.js`, a path that exists nowhere, and not what to do:
    a scan without it would be an inventory short of its callsites that a gate passes."""
    tree = tmp_path / "tree"
    (tree / "lib").mkdir(parents=True)
    (tree / "cli.js").write_bytes(JS_SOURCE)
    (tree / "lib" / "latin.js").write_bytes(content)
    result = run("scan", tree, "--out", tmp_path / "out")
    refused(result, f"{tree / 'lib' / 'latin.js'}: ", f"the directory {tree} is read whole or not at all",
            "move the file out of it")
    assert "!" not in result.stderr and not (tmp_path / "out").exists()


def test_a_javascript_member_of_an_archive_that_is_not_utf8_refuses_the_archive_naming_the_member(
        tmp_path: Path) -> None:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        for name, data in (("package/cli.js", JS_SOURCE), ("package/lib/latin.js", b"var s='caf\xe9';\n")):
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    (tmp_path / "app.tgz").write_bytes(buffer.getvalue())
    refused(run("scan", tmp_path / "app.tgz", "--out", tmp_path / "out"),
            f"{tmp_path / 'app.tgz'}: member 'package/lib/latin.js': not valid UTF-8 (byte offset 10); "
            "refusing the archive")
    assert not (tmp_path / "out").exists()


def test_project_without_an_allowlist_of_a_scan_projected_with_some_is_refused(tmp_path: Path) -> None:
    """`erratlas project DIR` after editing the allowlist dropped all 64 owners of the demo without a
    word (owners: 0 of 65 owned); dropping them is now said with --no-allowlist."""
    import shutil

    shutil.copy(ROOT / "allowlists" / "demo.toml", tmp_path / "my list.toml")
    scanned = run("scan", FIXTURES / "demo" / "demo.min.js", "--out", "out", "-a", "my list.toml", cwd=tmp_path)
    assert scanned.returncode == 0 and "64 of 65 owned" in scanned.stderr, scanned.stderr
    kept = (tmp_path / "out" / "error-diagnostic-owner-summary.json").read_bytes()
    refused(run("project", "out", cwd=tmp_path), "out: projected with 1 allowlist, and none given",
            "`erratlas project out -a 'my list.toml'` projects it again", "--no-allowlist")
    assert (tmp_path / "out" / "error-diagnostic-owner-summary.json").read_bytes() == kept
    refused(run("project", "out", "-a", "my list.toml", "--no-allowlist", cwd=tmp_path), "--no-allowlist")
    again = run("project", "out", "-a", "my list.toml", cwd=tmp_path)
    assert again.returncode == 0 and "64 of 65 owned" in again.stderr, again.stderr
    dropped = run("project", "out", "--no-allowlist", cwd=tmp_path)
    assert dropped.returncode == 0 and "0 of 65 owned" in dropped.stderr, dropped.stderr
    assert run("project", "out", cwd=tmp_path).returncode == 0  # it now has none to drop


@pytest.mark.parametrize("name", ["venv", "env", "build-env"])
def test_a_virtual_environment_inside_a_tree_is_skipped_and_said(tmp_path: Path, name: str) -> None:
    """`python -m venv venv` in a project, then `erratlas scan .`: the 2,000 files of pip and
    setuptools under venv/lib/python3.X/site-packages were scanned as the project's own code."""
    tree = tmp_path / "project"
    (tree / "app").mkdir(parents=True)
    (tree / "app" / "main.py").write_bytes(PYTHON_SOURCE)
    installed = tree / name / "lib" / "python3.12" / "site-packages" / "pip"
    installed.mkdir(parents=True)
    (installed / "__init__.py").write_bytes(PYTHON_SOURCE * 3)
    (installed / "bundle.js").write_bytes(JS_SOURCE)
    (tree / name / "pyvenv.cfg").write_text("home = /usr/bin\n")
    result = run("scan", tree, "--out", tmp_path / "out")
    assert result.returncode == 0, result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 2 and lines[0] == (
        f"erratlas: {tree}: skipped {name}/: virtual environment (holding pyvenv.cfg), installed packages and not "
        "this tree's source; scan one on its own to read it"), lines
    assert f"{tree.name}: 40 error callsites" in lines[1]
    alone = run("scan", tree / name, "--out", tmp_path / "venv-out")  # given itself, it is what is scanned
    assert alone.returncode == 0 and "120 error callsites" in alone.stderr, alone.stderr


def test_site_packages_without_pyvenv_cfg_is_scanned_as_the_tree_holds_it(tmp_path: Path) -> None:
    """A name alone is no evidence: a package vendoring its dependencies in `site-packages/` (a
    Lambda layer's `python/lib/python3.12/site-packages`) ships them, and they are its code."""
    installed = tmp_path / "layer" / "python" / "lib" / "python3.12" / "site-packages" / "pkg"
    installed.mkdir(parents=True)
    (installed / "__init__.py").write_bytes(PYTHON_SOURCE)
    result = run("scan", tmp_path / "layer", "--out", tmp_path / "out")
    assert result.returncode == 0 and "skipped" not in result.stderr and "40 error callsites" in result.stderr


def test_a_tree_whose_only_sources_are_in_a_virtual_environment_is_refused_saying_so(tmp_path: Path) -> None:
    (tmp_path / "tree" / "env").mkdir(parents=True)
    (tmp_path / "tree" / "env" / "pyvenv.cfg").write_text("home = /usr/bin\n")
    (tmp_path / "tree" / "env" / "a.py").write_bytes(PYTHON_SOURCE)
    refused(run("scan", tmp_path / "tree", "--out", tmp_path / "out"), "holds no JavaScript",
            "but in what it skips, env/: virtual environment (holding pyvenv.cfg)")


@pytest.mark.parametrize(("argv", "verb"), [
    (["scan", "--bogus"], "erratlas scan"),
    (["scan", "app.js", "--out"], "erratlas scan"),
    (["scan", "app.js", "-o"], "erratlas scan"),
    (["gate", "out", "--min-coverage"], "erratlas gate"),
    (["corpus", "add", "zod", "--corpus"], "erratlas corpus add"),
    (["diff", "a", "--out"], "erratlas diff"),
])
def test_a_usage_error_names_the_verb(tmp_path: Path, argv: list[str], verb: str) -> None:
    """An option given last without its value was 'erratlas: Option '--out' requires an argument.
    (see `erratlas --help`)': the verb's help, not the app's, says what the option takes."""
    result = run(*argv, cwd=tmp_path)
    refused(result, f"erratlas: error: {verb}: ", f"(see `{verb} --help`)")


def test_sarif_whose_output_cannot_be_written_says_one_line(demo_scan_copy: Path, tmp_path: Path) -> None:
    """The note on where results point came first, then the refusal: two lines for one error."""
    (tmp_path / "a file").write_text("mine\n")
    refused(run("sarif", demo_scan_copy, "--out", tmp_path / "a file" / "x.sarif"), "cannot be an output path")


def test_gate_in_sarif_format_says_each_failed_threshold_on_its_own_line(demo_scanned_once: Path) -> None:
    """stderr read 'gate failed: coverage 0.00%\\nFAIL coverage overall: ...', one line with the
    line breaks written as `\\n`."""
    failing = run("gate", demo_scanned_once, "--format", "sarif", "--min-coverage", "0.5",
                  "--min-coverage-kind", "error=0.6")
    assert failing.returncode == 1, failing.stderr
    assert failing.stderr.splitlines()[-3:] == ["FAIL coverage overall: 0.000000 (0 of 65 owned) < 0.5",
                                                "FAIL coverage error: 0.000000 (0 of 43 owned) < 0.6",
                                                "erratlas: gate failed: coverage 0.00%"], failing.stderr
    assert "\\n" not in failing.stderr


def test_suggest_warns_of_a_product_sources_directory_that_owns_nothing(tmp_path: Path) -> None:
    """A typo (`../../shraed`), a directory a package is named for, or one no map names suggested
    exactly what no statement does, without a word."""
    from test_map_places import BUNDLE, suggested

    out = tmp_path / "out"
    assert run("scan", BUNDLE, "--out", out).returncode == 0
    _, stated = suggested(out, "--product-sources", "../../shared")
    assert "--product-sources" not in stated, stated
    _, idle = suggested(out, "--product-sources", "../../shraed", "--product-sources", "../transport")
    for directory in ("../../shraed", "../transport"):
        assert (f"erratlas: warning: --product-sources {directory}: no source of the scan's maps lies there outside "
                "the package and without a package named") in idle, idle


def test_an_extraction_directory_given_as_the_bundle_is_refused(tmp_path: Path) -> None:
    """`erratlas extract claude --out x && erratlas scan x` scanned the served .min.js assets (485
    callsites of mermaid and chart.js in 2.1.235) and not the program: its entry point `root/cli`
    has no .js name."""
    from support.bunexe import Module, elf, graph

    executable = tmp_path / "claude"
    executable.write_bytes(elf(graph([Module("/$bunfs/root/cli", JS_SOURCE),
                                      Module("/$bunfs/root/chart.min.js", JS_SOURCE)])))
    assert run("extract", executable, "--out", tmp_path / "x").returncode == 0
    refused(run("scan", tmp_path / "x", "--out", tmp_path / "out"),
            f"{tmp_path / 'x'}: an erratlas extraction directory (its manifest.json), not a bundle: scan the "
            f"executable it came from (claude), or one module of it on its own (its entry point: "
            f"{tmp_path / 'x' / 'root' / 'cli'})")
    assert run("scan", tmp_path / "x" / "root" / "cli", "--out", tmp_path / "out").returncode == 0


@pytest.mark.parametrize("given", [("--min-coverage", "0.9", "0"), ("--max-drop", "0.1", "1"),
                                   ("--baseline", "old.json", "SUMMARY"), ("--format", "github", "text")])
def test_a_gate_option_of_one_value_given_twice_differently_is_refused(demo_scanned_once: Path,
                                                                       given: tuple[str, str, str]) -> None:
    """The last one held, as it did for --min-coverage-kind: `--min-coverage 0.9 --min-coverage 0`
    passed the demo's bare scan (0.00%), and a second --baseline hid a first that did not exist."""
    option, first, last = given
    last = str(demo_scanned_once / "error-diagnostic-owner-summary.json") if last == "SUMMARY" else last
    refused(run("gate", demo_scanned_once, option, first, f"{option}={last}"), f"{option}: given twice",
            repr(first), repr(last))
    same = run("gate", demo_scanned_once, "--min-coverage", "0", "--min-coverage=0.0")
    assert same.returncode == 0, same.stderr
