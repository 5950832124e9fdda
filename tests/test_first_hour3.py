"""What a new user meets in the first hour, continued from tests/test_first_hour2.py: every verb
refuses bad input in one line naming the file or the option (exit status 2, nothing written), a
scan says what it leaves unread, and no second value of an option silently wins
(docs/reference.md, "Inputs" and "Exit statuses")."""

from __future__ import annotations

import io
import json
import os
import tarfile
import zipfile
from pathlib import Path

import pytest
from conftest import FIXTURES, ROOT, SUMMARY, run
from test_first_hour import JS_SOURCE, PYTHON_SOURCE, refused

_SKIPPED = "installed packages and not this tree's source; scan one on its own to read it"


def _project(root: Path) -> dict[str, bytes]:
    """A project with a virtual environment and a conda environment beside its own source: 40
    callsites of its own, 120 in each environment."""
    return {"proj/app/main.py": PYTHON_SOURCE,
            "proj/venv/pyvenv.cfg": b"home = /usr/bin\n",
            "proj/venv/lib/python3.12/site-packages/pkg/__init__.py": PYTHON_SOURCE * 3,
            "proj/conda/conda-meta/history": b"",
            "proj/conda/lib/python3.12/site-packages/cpkg/__init__.py": PYTHON_SOURCE * 3}


def _archive(path: Path, files: dict[str, bytes]) -> Path:
    if path.name.endswith(".zip"):
        with zipfile.ZipFile(path, "w") as written:
            for name, data in files.items():
                written.writestr(name, data)
        return path
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        for name, data in files.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    path.write_bytes(buffer.getvalue())
    return path


def test_a_conda_environment_inside_a_directory_is_skipped_and_said(tmp_path: Path) -> None:
    """`conda create -p ./env` in a project, then `erratlas scan .`: only a venv's pyvenv.cfg was
    known, and conda's site-packages were scanned as the project's own code (160 callsites, not 40)."""
    for name, data in _project(tmp_path).items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_bytes(data)
    result = run("scan", tmp_path / "proj", "--out", tmp_path / "out")
    assert result.returncode == 0, result.stderr
    lines = result.stderr.splitlines()
    assert lines[0] == (f"erratlas: {tmp_path / 'proj'}: skipped venv/: virtual environment (holding pyvenv.cfg); "
                        f"conda/: conda environment (holding conda-meta/history), {_SKIPPED}"), lines
    assert len(lines) == 2 and "proj: 40 error callsites" in lines[1], lines
    alone = run("scan", tmp_path / "proj" / "conda", "--out", tmp_path / "conda-out")  # given itself, it is scanned
    assert alone.returncode == 0 and "120 error callsites" in alone.stderr, alone.stderr


@pytest.mark.parametrize("archive", ["proj.tar.gz", "proj.zip"])
def test_environments_inside_an_archive_are_skipped_and_said(tmp_path: Path, archive: str) -> None:
    """A project tarred or zipped with its venv/ and a conda env: both were read as its source
    (280 callsites of pip-installed and conda packages beside its own 40)."""
    path = _archive(tmp_path / archive, _project(tmp_path))
    result = run("scan", path, "--out", tmp_path / "out")
    assert result.returncode == 0, result.stderr
    lines = result.stderr.splitlines()
    assert lines[0] == (f"erratlas: {path}: skipped proj/venv/: virtual environment (holding pyvenv.cfg); "
                        f"proj/conda/: conda environment (holding conda-meta/history), {_SKIPPED}"), lines
    assert len(lines) == 2 and f"{archive}: 40 error callsites" in lines[1], lines


def test_an_archive_that_is_one_environment_is_scanned_whole(tmp_path: Path) -> None:
    """A tarred venv given as the bundle is what is scanned, as a venv directory given itself is."""
    files = {name.removeprefix("proj/"): data for name, data in _project(tmp_path).items()
             if name.startswith("proj/venv/")}
    path = _archive(tmp_path / "venv.tar.gz", files)
    result = run("scan", path, "--out", tmp_path / "out")
    assert result.returncode == 0 and "skipped" not in result.stderr, result.stderr
    assert "120 error callsites" in result.stderr, result.stderr


def test_the_macos_metadata_of_a_zip_is_skipped_and_said(tmp_path: Path) -> None:
    """A zip made by macOS's Archive Utility holds `__MACOSX/app/._index.js`, the AppleDouble file of
    app/index.js: binary, so the whole archive was refused as holding a JavaScript file that is
    not text."""
    apple_double = b"\x00\x05\x16\x07\x00\x02\x00\x00Mac OS X        \x00\x02"
    path = _archive(tmp_path / "app.zip", {"app/index.js": JS_SOURCE, "__MACOSX/app/._index.js": apple_double})
    result = run("scan", path, "--out", tmp_path / "out")
    assert result.returncode == 0, result.stderr
    lines = result.stderr.splitlines()
    assert lines[0] == (f"erratlas: {path}: skipped __MACOSX/: macOS metadata (an AppleDouble `._NAME` file for "
                        "each file compressed), not code"), lines
    assert len(lines) == 2 and "app.zip: 40 error callsites" in lines[1], lines
    units = json.loads((tmp_path / "out" / SUMMARY).read_bytes())["inputs"]["units"]
    assert [unit["name"] for unit in units] == ["index.js"]  # below the archive's one top directory, app/


def test_links_and_special_files_of_a_directory_are_said_as_not_read(tmp_path: Path) -> None:
    """A symlinked lib/linked.js, a loop of links named like sources and a FIFO named pipe.js were
    left out without a word: the scan's line counted the one regular file as the whole tree."""
    tree = tmp_path / "tree"
    (tree / "lib").mkdir(parents=True)
    (tree / "cli.js").write_bytes(JS_SOURCE)
    (tmp_path / "other.js").write_bytes(JS_SOURCE)
    (tree / "lib" / "linked.js").symlink_to("../../other.js")
    (tree / "loop1.js").symlink_to("loop2.js")
    (tree / "loop2.js").symlink_to("loop1.js")
    (tree / "shared").symlink_to(tmp_path)
    (tree / "README.md").symlink_to("../other.js")  # no source's name: nothing to say
    os.mkfifo(tree / "pipe.js")
    result = run("scan", tree, "--out", tmp_path / "out")
    assert result.returncode == 0, result.stderr
    lines = result.stderr.splitlines()
    assert lines[0] == (f"erratlas: {tree}: not read: lib/linked.js, loop1.js, loop2.js (symbolic links, not "
                        "followed); shared/ (a symbolic link to a directory, not followed); pipe.js (not a regular "
                        "file); scan what one names on its own to read it"), lines
    assert len(lines) == 2 and "tree: 40 error callsites" in lines[1], lines


def test_a_tree_whose_only_source_is_a_link_is_refused_saying_so(tmp_path: Path) -> None:
    (tmp_path / "tree").mkdir()
    (tmp_path / "cli.js").write_bytes(JS_SOURCE)
    (tmp_path / "tree" / "cli.js").symlink_to("../cli.js")
    refused(run("scan", tmp_path / "tree", "--out", tmp_path / "out"), "holds no JavaScript",
            "not read: cli.js (a symbolic link, not followed)")
    assert not (tmp_path / "out").exists()


def test_an_unreadable_file_of_a_directory_is_refused_naming_it(tmp_path: Path) -> None:
    if os.geteuid() == 0:
        pytest.skip("root reads a file without read permission: the refusal cannot be seen as root")
    (tmp_path / "tree").mkdir()
    (tmp_path / "tree" / "cli.js").write_bytes(JS_SOURCE)
    (tmp_path / "tree" / "secret.js").write_bytes(JS_SOURCE)
    (tmp_path / "tree" / "secret.js").chmod(0)
    refused(run("scan", tmp_path / "tree", "--out", tmp_path / "out"), "secret.js")


@pytest.mark.parametrize("content", [b"", b"\n  \n"])
def test_an_empty_python_file_given_alone_is_refused_as_an_empty_javascript_file_is(tmp_path: Path,
                                                                                    content: bytes) -> None:
    """`erratlas scan empty.py` wrote a scan of nothing (exit 0) where `erratlas scan empty.js` is
    refused: the README lists an empty input as bad input."""
    (tmp_path / "empty.py").write_bytes(content)
    refused(run("scan", tmp_path / "empty.py", "--out", tmp_path / "out"),
            f"{tmp_path / 'empty.py'}: empty file, expected Python source")
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize(("argv", "option"), [
    (["scan", "{bundle}", "--out", "a", "--out", "b"], "--out"),
    (["scan", "{bundle}", "-o", "a", "--out=b"], "--out"),
    (["scan", "{bundle}", "-j1", "--jobs", "2"], "--jobs"),
    (["scan", "{bundle}", "--language", "js", "--language", "python"], "--language"),
    (["explain", "{scan}", "x", "--corpus", "a", "--corpus", "b"], "--corpus"),
    (["diff", "{scan}", "{scan}", "--old-label", "a", "--old-label", "b"], "--old-label"),
    (["sarif", "{scan}", "--results", "new", "--results", "all"], "--results"),
    (["suggest", "{scan}", "--out", "a.jsonl", "--out", "b.jsonl"], "--out"),
    (["accept", "{scan}", "-a", "a.toml", "-a", "b.toml", "--reviewer", "me"], "-a"),
    (["allow", "{scan}", "e:x", "-a", "a.toml", "--owner", "Product", "--owner", "Dependency", "--reason", "r",
      "--reviewer", "me"], "--owner"),
    (["extract", "{bundle}", "--out", "a", "--out", "b"], "--out"),
    (["corpus", "add", "zod", "--candidates", "2", "--candidates", "3"], "--candidates"),
    (["corpus", "list", "--corpus", "a", "--corpus=b"], "--corpus"),
])
def test_an_option_of_one_value_given_twice_differently_is_refused_on_every_verb(
        tmp_path: Path, demo_scanned_once: Path, argv: list[str], option: str) -> None:
    """`erratlas scan app.js --out a --out b` wrote b alone, without a word, as click keeps the last
    value; only the gate refused its options given twice."""
    given = [str(demo_scanned_once) if a == "{scan}" else str(FIXTURES / "demo" / "demo.min.js")
             if a == "{bundle}" else a for a in argv]
    refused(run(*given, cwd=tmp_path), f"erratlas: error: {option}: given twice, ",
            "which one held would be the order's accident")
    assert not any(tmp_path.iterdir())


def test_an_option_given_twice_with_one_value_is_taken(tmp_path: Path) -> None:
    result = run("scan", FIXTURES / "demo" / "demo.min.js", "-o", "out", "--out=./out", "-j1", "--jobs", "1",
                 cwd=tmp_path)
    assert result.returncode == 0 and "-> out" in result.stderr, result.stderr
    shown = run("scan", "--out", "a", "--out", "b", "--help", cwd=tmp_path)  # help, as asked
    assert shown.returncode == 0 and "Usage: erratlas scan" in shown.stdout, shown.stderr


@pytest.mark.parametrize(("argv", "name"), [
    (["scan", ""], "BUNDLE"),
    (["scan", "{bundle}", "--out", ""], "--out"),
    (["gate", ""], "DIRECTORY"),
    (["gate", "{scan}", "--baseline", ""], "--baseline"),
    (["project", ""], "DIRECTORY"),
    (["diff", "{scan}", ""], "NEW"),
    (["fmt", "a.toml", ""], "ALLOWLISTS"),
])
def test_an_empty_path_is_refused_not_read_as_the_current_directory(
        tmp_path: Path, demo_scanned_once: Path, argv: list[str], name: str) -> None:
    """`erratlas scan "$BUNDLE"` with the variable unset scanned the directory the shell was in, and
    `erratlas gate "$DIR"` gated it: `Path("")` is `.`."""
    (tmp_path / "app.js").write_bytes(JS_SOURCE)
    given = [str(demo_scanned_once) if a == "{scan}" else str(FIXTURES / "demo" / "demo.min.js")
             if a == "{bundle}" else a for a in argv]
    refused(run(*given, cwd=tmp_path), f"erratlas: error: {name}: an empty path (an unset variable?)")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["app.js"]


def test_fmt_writes_no_allowlist_when_one_it_was_given_is_refused(tmp_path: Path) -> None:
    """`erratlas fmt a.toml broken.toml` rewrote a.toml, then refused broken.toml: exit 2 after a
    partial rewrite."""
    (tmp_path / "a.toml").write_bytes((ROOT / "allowlists" / "demo.toml").read_bytes() + b"# a note\n")
    (tmp_path / "broken.toml").write_text("entry = [[\n")
    before = (tmp_path / "a.toml").read_bytes()
    refused(run("fmt", "a.toml", "broken.toml", cwd=tmp_path), "broken.toml: invalid TOML")
    assert (tmp_path / "a.toml").read_bytes() == before


@pytest.mark.parametrize("verb", ["fmt", "fmt --check"])
def test_fmt_of_a_file_that_is_no_allowlist_says_so(tmp_path: Path, verb: str) -> None:
    """`erratlas fmt --check allowlists/claude-code.review.toml` (the decisions an allowlist is
    generated from) said only "key 'review': unknown key"."""
    review = ROOT / "allowlists" / "claude-code.review.toml"
    refused(run(*verb.split(), review), f"{review}:", "key 'review': unknown key; not an allowlist (one holds only "
            "`schema` and [[entry]] tables)")


def _newer(scan: Path) -> Path:
    summary = json.loads((scan / SUMMARY).read_bytes())
    summary["schema"], summary["tool"]["version"] = "erratlas.summary/2", "9.0.0"
    (scan / SUMMARY).write_text(json.dumps(summary))
    return scan


@pytest.mark.parametrize("argv", [["project", "{dir}"], ["gate", "{dir}"], ["explain", "{dir}", "e:demo.min.js@466"],
                                  ["diff", "{dir}", "{old}", "--out", "d"], ["diff", "{old}", "{dir}", "--out", "d"],
                                  ["sarif", "{dir}"], ["suggest", "{dir}"]])
def test_a_scan_directory_of_a_newer_schema_is_said_to_be_one(tmp_path: Path, demo_scan_copy: Path,
                                                              demo_scanned_once: Path, argv: list[str]) -> None:
    """A scan written by a later erratlas was 'not an erratlas summary (schema erratlas.summary/1)'."""
    scan = _newer(demo_scan_copy)
    given = [str(scan) if a == "{dir}" else str(demo_scanned_once) if a == "{old}" else a for a in argv]
    refused(run(*given, cwd=tmp_path), f"{scan / SUMMARY}: a summary of schema 'erratlas.summary/2', written by "
            "erratlas '9.0.0'; this erratlas (", ") reads erratlas.summary/1: scan again with it")


def test_a_scan_replaces_the_output_of_another_schema_version(demo_scan_copy: Path) -> None:
    """`scan --out DIR` over a later (or earlier) erratlas's output refused it as 'not a manifest
    erratlas wrote', though each of its files is listed there with its sha256."""
    scan = _newer(demo_scan_copy)
    result = run("scan", FIXTURES / "demo" / "demo.min.js", "--out", scan)
    assert result.returncode == 0, result.stderr
    assert json.loads((scan / SUMMARY).read_bytes())["schema"] == "erratlas.summary/1"


@pytest.mark.parametrize("damage", ["deleted", "truncated"])
@pytest.mark.parametrize("argv", [["project", "{dir}"], ["gate", "{dir}"], ["explain", "{dir}", "e:demo.min.js@466"],
                                  ["diff", "{old}", "{dir}", "--out", "d"]])
def test_a_scan_directory_with_a_file_deleted_or_truncated_is_refused_naming_it(
        tmp_path: Path, demo_scan_copy: Path, demo_scanned_once: Path, damage: str, argv: list[str]) -> None:
    damaged = demo_scan_copy / "error-message-callsites.jsonl"
    if damage == "deleted":
        damaged.unlink()
    else:
        damaged.write_bytes(damaged.read_bytes()[:1000])
    given = [str(demo_scan_copy) if a == "{dir}" else str(demo_scanned_once) if a == "{old}" else a for a in argv]
    refused(run(*given, cwd=tmp_path), f"{damaged}: ", "missing" if damage == "deleted" else "hash mismatch")
    assert not (tmp_path / "d").exists()


def test_a_scan_directory_given_as_a_baseline_names_its_summary(demo_scanned_once: Path) -> None:
    """`gate DIR --baseline OLD_DIR` said 'OLD_DIR: summary is a directory', not what to give."""
    for verb in ("gate", "sarif"):
        refused(run(verb, demo_scanned_once, "--baseline", demo_scanned_once),
                f"{demo_scanned_once}: a scan directory; a baseline is its summary: {demo_scanned_once / SUMMARY}")


def test_a_diff_across_languages_says_so_and_no_rescan(tmp_path: Path, demo_scanned_once: Path) -> None:
    """A diff of a Python scan against a JavaScript one said 'fingerprints are not comparable ...
    (rescan with one erratlas)': no rescan makes them compare."""
    (tmp_path / "app.py").write_bytes(PYTHON_SOURCE)
    assert run("scan", tmp_path / "app.py", "--out", tmp_path / "py").returncode == 0
    refused(run("diff", demo_scanned_once, tmp_path / "py", "--out", tmp_path / "d"),
            f"{tmp_path / 'py'}: a scan of Python, and {demo_scanned_once} one of JavaScript: their fingerprints "
            "never compare; give scans of one language")
    refused(run("gate", tmp_path / "py", "--baseline", demo_scanned_once / SUMMARY), "never compare")


def test_corpus_names_refuses_two_forms_of_output(demo_scanned_once: Path) -> None:
    """`--json --names-only` wrote the names alone: the code's choice of the two."""
    result = run("corpus", "names", demo_scanned_once, "--json", "--names-only")
    refused(result, "--names-only: and --json: one form of output, choose one")
    assert result.stdout == ""


@pytest.mark.parametrize("choosing", [["--confidence", "possible"], ["--unowned"], ["--level", "module"],
                                      ["--package", "zod"]])
def test_accept_refuses_a_choice_of_suggestions_beside_their_ids(demo_scan_copy: Path, tmp_path: Path,
                                                                 choosing: list[str]) -> None:
    """`accept --id X --confidence possible` accepted X and ignored the rest: the help says those
    options choose suggestions without --id."""
    assert run("suggest", demo_scan_copy).returncode == 0
    first = json.loads((demo_scan_copy / "suggestions.jsonl").read_text().splitlines()[0])["id"]
    refused(run("accept", demo_scan_copy, "-a", tmp_path / "a.toml", "--reviewer", "me", "--id", first, *choosing),
            f"{choosing[0]}: chooses suggestions without --id, and --id names them")
    assert not (tmp_path / "a.toml").exists()


def test_allow_refuses_two_scopes_of_one_entry(demo_scanned_once: Path, tmp_path: Path) -> None:
    """`allow --references --module` wrote a references entry: --references won without a word."""
    record = json.loads((demo_scanned_once / "error-message-callsites.jsonl").read_text().splitlines()[0])
    refused(run("allow", demo_scanned_once, record["id"], "-a", tmp_path / "a.toml", "--owner", "Product",
                "--reason", "r", "--reviewer", "me", "--module", "--references"),
            "--module: and --references: an entry covers one scope, choose one")
    assert not (tmp_path / "a.toml").exists()



def test_a_corpus_indexed_by_another_erratlas_says_how_many_and_how_to_index_them_again(tmp_path: Path) -> None:
    """An index of another format is refused once, in one line that counts the corpus's stale
    indexes and says how to make them again (an upgraded erratlas meets every one of them)."""
    from test_corpus_prelude import PACKAGE, scanned_with_the_encoders_corpus

    scanned_with_the_encoders_corpus(tmp_path)
    index = tmp_path / "corpus" / "index" / PACKAGE / "1.0.0.json"
    document = json.loads(index.read_text())
    index.write_text(json.dumps({**document, "format": 1}))
    result = run("suggest", tmp_path / "out", "--corpus", tmp_path / "corpus", "--out", tmp_path / "s.jsonl")
    refused(result, str(index), "format 1, not", "1 of the corpus's 1 indexes are",
            "add again the directories or maps the other 1 came from")
    assert not (tmp_path / "s.jsonl").exists()
