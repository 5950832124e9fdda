"""What a new user meets in the first hour, and hostile inputs to every verb: each is a clear
one-line refusal (exit status 2, naming the file and the problem, nothing written) or a scan,
never an internal error (docs/reference.md, "Exit statuses")."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest
from conftest import run

PYTHON_SOURCE = b'def f():\n    raise ValueError("x")\n' * 40
JS_SOURCE = b'function f(){throw new Error("x")}\n' * 40


def refused(result: object, *words: str) -> None:
    stderr = result.stderr  # type: ignore[attr-defined]
    assert result.returncode == 2, (result.returncode, stderr)  # type: ignore[attr-defined]
    assert len(stderr.strip().splitlines()) == 1 and "Traceback" not in stderr, stderr
    for word in words:
        assert word in stderr, stderr


@pytest.mark.parametrize("method", [zipfile.ZIP_DEFLATED, zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA])
@pytest.mark.parametrize(("archive", "member", "source"), [
    ("pkg-1.0-py3-none-any.whl", "pkg/__init__.py", PYTHON_SOURCE),
    ("app.zip", "app/index.js", JS_SOURCE),
])
def test_a_zip_member_whose_compressed_stream_is_corrupt_is_refused(tmp_path: Path, method: int, archive: str,
                                                                   member: str, source: bytes) -> None:
    """zipfile lets the codec's own error out of a corrupt deflate stream (zlib.error) and an lzma
    one (LZMAError): the scan ended in an internal error; refused naming the archive and member."""
    path = tmp_path / archive
    with zipfile.ZipFile(path, "w", method) as written:
        written.writestr(member, source)
    data = bytearray(path.read_bytes())
    start = data.index(member.encode()) + len(member)
    for at in range(start + 20, start + 40):
        data[at] ^= 0xA5
    path.write_bytes(bytes(data))
    refused(run("scan", path, "--out", tmp_path / "out"), archive, member, "cannot read")
    assert not (tmp_path / "out").exists()


def _npm_pack(path: Path) -> bytes:
    """An `npm pack`-like .tgz at `path` (a tar padded to 10240 bytes, gzipped); its bytes."""
    import gzip
    import io
    import tarfile

    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as tar:
        for name, data in (("package/package.json", b'{"name": "app"}'), ("package/cli.js", JS_SOURCE)):
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    packed = gzip.compress(buffer.getvalue(), mtime=0)
    path.write_bytes(packed)
    return packed


@pytest.mark.parametrize("damage", ["cut in the trailer", "cut in the padding", "CRC flipped", "garbage after"])
def test_a_tgz_damaged_past_the_end_of_its_tar_is_refused(tmp_path: Path, damage: str) -> None:
    """The tar's end came before the gzip trailer, and neither tarfile nor the header walk read
    further: a download cut in its last bytes, or a CRC that fails, scanned as if whole."""
    packed = _npm_pack(tmp_path / "app.tgz")
    assert run("scan", tmp_path / "app.tgz", "--out", tmp_path / "whole").returncode == 0
    damaged = {"cut in the trailer": packed[:-4], "cut in the padding": packed[:-12],
               "CRC flipped": packed[:-8] + bytes([packed[-8] ^ 1]) + packed[-7:],
               "garbage after": packed + b"garbage"}[damage]
    (tmp_path / "app.tgz").write_bytes(damaged)
    refused(run("scan", tmp_path / "app.tgz", "--out", tmp_path / "out"), "app.tgz", "not a readable .tar.gz")
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize(("name", "source"), [("app/cli.js", JS_SOURCE), ("pkg/a.py", PYTHON_SOURCE)])
def test_scanning_the_current_directory_twice_reads_the_same_sources(tmp_path: Path, name: str,
                                                                     source: bytes) -> None:
    """`cd pkg && erratlas scan .` writes erratlas-out inside the tree: the second run read its
    readable/ renderings as sources and counted every callsite twice (three times on the third)."""
    from conftest import tree_bytes

    (tmp_path / name).parent.mkdir(parents=True)
    (tmp_path / name).write_bytes(source)
    first = run("scan", ".", cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    kept = tree_bytes(tmp_path / "erratlas-out")
    for _ in range(2):
        again = run("scan", ".", cwd=tmp_path)
        assert again.returncode == 0 and again.stderr == first.stderr, again.stderr
        assert tree_bytes(tmp_path / "erratlas-out") == kept
    moved = run("scan", ".", "--out", "reports/x", cwd=tmp_path)
    assert moved.returncode == 0 and "40 error callsites" in moved.stderr, moved.stderr


def test_a_scan_directory_given_as_the_bundle_is_refused(tmp_path: Path) -> None:
    (tmp_path / "cli.js").write_bytes(JS_SOURCE)
    assert run("scan", tmp_path / "cli.js", "--out", tmp_path / "out").returncode == 0
    refused(run("scan", tmp_path / "out", "--out", tmp_path / "again"), str(tmp_path / "out"), "scan directory")
    assert not (tmp_path / "again").exists()


@pytest.mark.parametrize(("name", "where"), [("big.py", "alone"), ("big.py", "in a directory"),
                                             ("big.js", "in a directory")])
def test_a_source_file_past_the_member_bound_is_refused_before_it_is_read(tmp_path: Path, where: str,
                                                                          name: str) -> None:
    """A 3 GB `.py` was read whole and parsed for 80 s (6 GB resident) before a memory bound
    ended it; a directory's files were read whole before the tree's total was checked (a `.js`
    bundle given alone has its own bound, 512 MiB)."""
    import os

    path = tmp_path / "tree" / name if where == "in a directory" else tmp_path / name
    path.parent.mkdir(exist_ok=True)
    with open(path, "wb") as sparse:
        sparse.truncate(3 * 2**30)
    assert os.stat(path).st_blocks == 0  # a sparse file: nothing is held on the disk
    refused(run("scan", path.parent if where == "in a directory" else path, "--out", tmp_path / "out", timeout=60),
            str(path), "source file of 3221225472 bytes, more than the bound of 67108864")
    assert not (tmp_path / "out").exists()



@pytest.mark.parametrize("container", ["elf", "macho", "pe"])
@pytest.mark.parametrize("keep", [10, 100, 0.5, 0.99])
def test_a_truncated_bun_executable_is_refused_as_truncated(tmp_path: Path, keep: float, container: str) -> None:
    """A download cut short (the ELF section headers, at its end, gone) was 'native executable
    without a Bun module graph (no trailer)': the reader's own refusal, which names the cut, was
    replaced by a sniff's guess (2.1.235's executable cut 1,000 bytes short said so too)."""
    from support.bunexe import CONTAINERS, Module, graph

    data = CONTAINERS[container](graph([Module("/$bunfs/root/cli", JS_SOURCE)]))
    cut = tmp_path / "claude"
    cut.write_bytes(data[:int(len(data) * keep) if isinstance(keep, float) else keep])
    (tmp_path / "whole").write_bytes(data)
    assert run("scan", tmp_path / "whole", "--out", tmp_path / "whole-out").returncode == 0
    for verb in ("scan", "extract"):
        refused(run(verb, cut, "--out", tmp_path / "out"), str(cut), "truncated", f"ends at {cut.stat().st_size} bytes")
        assert not (tmp_path / "out").exists()


#: what a terminal acts on instead of showing: an OSC title, a CSI clear, a C1 CSI, a carriage return
#: that rewrites the line, a right-to-left override that reorders it
HOSTILE_TEXT = "\x1b]0;pwned\x07\x1b[2J\u009b31m\rok\u202e"


def test_explain_shows_a_hostile_message_escaped(tmp_path: Path) -> None:
    """explain printed a bundle's message and code as they are: escape sequences in them set the
    terminal's title, cleared it, or (a carriage return, a bidirectional override) hid the code."""
    bundle = tmp_path / "app.js"
    bundle.write_text(f"function f(){{throw new Error(`{HOSTILE_TEXT}`)}}\n", encoding="utf-8")
    assert run("scan", bundle, "--out", tmp_path / "out").returncode == 0
    told = run("explain", tmp_path / "out", "e:app.js@19")
    assert told.returncode == 0, told.stderr
    assert not [c for c in told.stdout if c != "\n" and (ord(c) < 0x20 or 0x7F <= ord(c) < 0xA0 or c == "\u202e")]
    assert "\\x1b]0;pwned\\x07\\x1b[2J\\x9b31m\\rok\\u202e" in told.stdout
    code = next(line for line in told.stdout.splitlines() if line.startswith(">"))
    caret = told.stdout.splitlines()[told.stdout.splitlines().index(code) + 1]
    assert code[caret.index("^"):].startswith("new Error(")  # the caret under the callsite still


def test_an_error_line_shows_a_hostile_name_escaped(tmp_path: Path) -> None:
    bundle = tmp_path / f"{HOSTILE_TEXT}.js"
    bundle.write_bytes(b"")
    result = run("scan", bundle, "--out", tmp_path / "out")
    refused(result, "empty file", "\\x1b]0;pwned\\x07")
    assert "\x1b" not in result.stderr and "\u202e" not in result.stderr


def test_an_allowlist_or_rules_file_with_a_byte_order_mark_is_refused_saying_so(demo_scan_copy: Path,
                                                                                tmp_path: Path) -> None:
    """What Notepad writes was 'invalid TOML: Invalid statement (at line 1, column 1)'."""
    from conftest import ROOT

    allowlist = tmp_path / "demo.toml"
    allowlist.write_bytes(b"\xef\xbb\xbf" + (ROOT / "allowlists" / "demo.toml").read_bytes())
    rules = tmp_path / "rules.toml"
    rules.write_bytes(b"\xef\xbb\xbf[logger]\nname = \"S\"\n")
    for verb in (["project", demo_scan_copy, "-a", allowlist], ["fmt", "--check", allowlist],
                 ["scan", ROOT / "fixtures" / "demo" / "demo.min.js", "--rules", rules, "--out", tmp_path / "out"]):
        refused(run(*verb), str(verb[-1] if verb[0] != "scan" else rules), "byte order mark")
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("verb", ["scan", "diff", "extract"])
@pytest.mark.parametrize("out", [".", "..", ""])
def test_an_out_directory_that_holds_the_working_directory_is_refused(demo_scanned_once: Path, tmp_path: Path,
                                                                      verb: str, out: str) -> None:
    """`mkdir out && cd out && erratlas scan ../app.js --out .` swapped the directory in and left the
    shell in the deleted empty one ('ls' showed nothing); `--out ''` is refused as an empty path."""
    from conftest import FIXTURES
    from support.bunexe import Module, elf, graph

    here = tmp_path / "work" / "out"
    here.mkdir(parents=True)
    executable = tmp_path / "claude"
    executable.write_bytes(elf(graph([Module("/$bunfs/root/cli", JS_SOURCE)])))
    given = {"scan": ["scan", FIXTURES / "demo" / "demo.min.js"],
             "diff": ["diff", demo_scanned_once, demo_scanned_once], "extract": ["extract", executable]}[verb]
    refused(run(*given, "--out", out, cwd=here), "is the current directory or holds it" if out else
            "--out: an empty path")
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["claude", "out", "work"]


def test_an_out_directory_of_yours_is_refused_for_what_it_is(tmp_path: Path) -> None:
    """A home directory given as --out was refused naming some link deep inside it ('/bin: a symlink')."""
    from conftest import FIXTURES

    mine = tmp_path / "home"
    (mine / "a" / "b").mkdir(parents=True)
    (mine / "a" / "b" / "link").symlink_to("/")
    refused(run("scan", FIXTURES / "demo" / "demo.min.js", "--out", mine), str(mine),
            "not empty and holds no erratlas output")


@pytest.mark.parametrize("order", [("0.99", "0.1"), ("0.1", "0.99")])
def test_a_coverage_kind_given_twice_with_different_thresholds_is_refused(demo_scanned_once: Path,
                                                                          order: tuple[str, str]) -> None:
    """The last one held: a CI job that appended `--min-coverage-kind error=0.1` to a stricter one
    passed a gate the first would fail."""
    given = [arg for threshold in order for arg in ("--min-coverage-kind", f"error={threshold}")]
    refused(run("gate", demo_scanned_once, *given), "--min-coverage-kind", "'error' given twice")
    same = run("gate", demo_scanned_once, "--min-coverage-kind", "error=0", "--min-coverage-kind", "error=0.0")
    assert same.returncode == 0, same.stderr  # the demo's bare scan owns nothing


def test_corpus_list_of_a_directory_without_a_corpus_is_refused(tmp_path: Path) -> None:
    """A mistyped --corpus (or none added yet) listed nothing and exited 0, as an empty corpus does;
    suggest --corpus and explain --corpus already refused it."""
    refused(run("corpus", "list", "--corpus", tmp_path / "typo"), str(tmp_path / "typo"), "not a corpus")
    import os

    empty = run("corpus", "list", env={**os.environ, "ERRATLAS_CACHE": str(tmp_path / "cache")})
    refused(empty, str(tmp_path / "cache" / "corpus"), "not a corpus", "erratlas corpus add")


def test_the_gate_names_the_whole_project_command_for_a_changed_allowlist(tmp_path: Path) -> None:
    """It said 'run `erratlas project` again'; run as written, that projects with no allowlist, every
    owner is lost, and the gate (without --min-coverage) then passed at 0.00%."""
    import shlex
    import shutil

    from conftest import FIXTURES, ROOT

    for name in ("a.toml", "b c.toml"):
        shutil.copy(ROOT / "allowlists" / "demo.toml", tmp_path / name)
    scanned = run("scan", FIXTURES / "demo" / "demo.min.js", "--out", "my out", "-a", "a.toml", "-a", "b c.toml",
                  cwd=tmp_path)
    assert scanned.returncode == 0, scanned.stderr
    with open(tmp_path / "b c.toml", "a", encoding="utf-8") as edited:
        edited.write("# reviewed again\n")
    command = "erratlas project 'my out' -a a.toml -a 'b c.toml'"
    refused(run("gate", "my out", cwd=tmp_path), "b c.toml: allowlist changed since the scan", f"run `{command}`")
    assert run(*shlex.split(command)[1:], cwd=tmp_path).returncode == 0  # quoted for a shell: the names hold spaces
    assert run("gate", "my out", cwd=tmp_path).returncode == 0


def test_prune_refuses_an_allowlist_the_scan_was_not_projected_with(demo_scan_copy: Path, tmp_path: Path) -> None:
    """`prune erratlas-out -a allowlists/claude-code.toml` on a scan of the demo (a wrong directory, an
    old release) removed all 4,325 reviewed entries: nothing in that scan matches them. An entry is
    stale only in a scan projected with its allowlist, which shows it as stale first."""
    import shutil

    from conftest import ROOT

    allowlist = tmp_path / "claude-code.toml"
    shutil.copy(ROOT / "allowlists" / "claude-code.toml", allowlist)
    kept = allowlist.read_bytes()
    refused(run("prune", demo_scan_copy, "-a", allowlist), str(allowlist), "was not projected with this allowlist",
            f"erratlas project {demo_scan_copy} -a {allowlist}")
    assert allowlist.read_bytes() == kept
    assert run("project", demo_scan_copy, "-a", allowlist).returncode == 0  # its 4,325 entries shown as stale
    pruned = run("prune", demo_scan_copy, "-a", allowlist)
    assert pruned.returncode == 0 and "removed" in pruned.stderr


@pytest.mark.parametrize(("name", "what"), [("pkg-1.0.tar.bz2", "a bzip2-compressed file"),
                                            ("pkg-1.0.tar.xz", "an xz-compressed file"),
                                            ("pkg-1.0.tar", "a tar archive"), ("pkg-1.0.jar", "a zip archive"),
                                            ("cli.js.gz", "a gzip-compressed file")])
def test_an_archive_erratlas_does_not_read_is_refused_saying_what_it_is(tmp_path: Path, name: str,
                                                                       what: str) -> None:
    """An old sdist (.tar.bz2), a .tar.xz, a plain .tar or a gzipped bundle was 'binary data (NUL byte
    at offset 14), expected JavaScript source', as if it were a broken bundle."""
    import bz2
    import gzip
    import io
    import lzma
    import tarfile

    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as tar:
        info = tarfile.TarInfo("pkg-1.0/pkg/__init__.py")
        info.size = len(PYTHON_SOURCE)
        tar.addfile(info, io.BytesIO(PYTHON_SOURCE))
    packed = {"pkg-1.0.tar.bz2": bz2.compress, "pkg-1.0.tar.xz": lzma.compress, "pkg-1.0.tar": bytes,
              "cli.js.gz": lambda _: gzip.compress(JS_SOURCE)}.get(name)
    path = tmp_path / name
    if packed is None:
        with zipfile.ZipFile(path, "w") as written:
            written.writestr("pkg/__init__.py", PYTHON_SOURCE)
    else:
        path.write_bytes(packed(buffer.getvalue()))
    refused(run("scan", path, "--out", tmp_path / "out"), name, f"{what} by its content", ".tar.gz, .tgz or .zip")
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-be"])
def test_a_utf16_bundle_is_refused_as_utf16(tmp_path: Path, encoding: str) -> None:
    """What PowerShell's `>` writes was 'binary data (NUL byte at offset 3), expected JavaScript source'."""
    bundle = tmp_path / "app.js"
    bundle.write_bytes(("\ufeff" if encoding.endswith("be") else "").encode(encoding)
                       + JS_SOURCE.decode().encode(encoding))
    refused(run("scan", bundle, "--out", tmp_path / "out"), "app.js", "UTF-16 text", "iconv")


@pytest.mark.parametrize("encoding", ["cp1252", "ascii"])
def test_explain_on_a_stdout_that_cannot_encode_the_message_writes_it_escaped(tmp_path: Path, encoding: str) -> None:
    """A Windows console or a redirect there (cp1252), or an ASCII locale: explain of a message holding
    CJK, an arrow or an emoji was an internal error (UnicodeEncodeError), exit 3."""
    import os

    bundle = tmp_path / "app.js"
    bundle.write_text('function f(){throw new Error("日本 → 💥")}\n', encoding="utf-8")
    assert run("scan", bundle, "--out", tmp_path / "out").returncode == 0
    told = run("explain", tmp_path / "out", "e:app.js@19", env={**os.environ, "PYTHONIOENCODING": encoding})
    assert told.returncode == 0, told.stderr
    assert "\\u65e5\\u672c \\u2192 \\U0001f4a5" in told.stdout


def test_an_output_inside_a_scan_directory_is_refused(demo_scan_copy: Path, tmp_path: Path) -> None:
    """`sarif DIR --out DIR/findings.sarif`, a diff, a scan or an allowlist written inside a scan
    directory left a file its summary does not list: every later gate of it refused the directory."""
    from conftest import FIXTURES, tree_bytes

    first = "e:demo.min.js@466"
    kept = tree_bytes(demo_scan_copy)
    for verb in (["sarif", demo_scan_copy, "--out", demo_scan_copy / "findings.sarif"],
                 ["suggest", demo_scan_copy, "--out", demo_scan_copy / "readable" / "s.jsonl"],
                 ["diff", demo_scan_copy, demo_scan_copy, "--out", demo_scan_copy / "diff"],
                 ["scan", FIXTURES / "demo" / "demo.min.js", "--out", demo_scan_copy / "again"],
                 ["allow", demo_scan_copy, first, "-a", demo_scan_copy / "index" / "a.toml", "--owner", "Product",
                  "--reason", "r", "--reviewer", "me"]):
        refused(run(*verb), f"inside the scan directory {demo_scan_copy}")
    assert tree_bytes(demo_scan_copy) == kept
    assert run("gate", demo_scan_copy).returncode == 0
    assert run("suggest", demo_scan_copy).returncode == 0  # its own suggestions.jsonl, listed in the summary


def test_the_scan_and_diff_lines_show_a_hostile_bundle_name_escaped(tmp_path: Path) -> None:
    """Only error lines escaped a name: a bundle named with a line break or an escape sequence made
    the scan's and diff's lines two lines, the second one anything the name said."""
    bundle = tmp_path / "app\x1b[2J\ngate passed.js"
    bundle.write_bytes(JS_SOURCE)
    scanned = run("scan", bundle, "--out", tmp_path / "out")
    assert scanned.returncode == 0, scanned.stderr
    assert all(line.startswith("erratlas: ") for line in scanned.stderr.splitlines()), scanned.stderr
    assert "app\\x1b[2J\\ngate passed.js: 40 error callsites" in scanned.stderr and "\x1b" not in scanned.stderr
    diffed = run("diff", tmp_path / "out", tmp_path / "out", "--out", tmp_path / "diff")
    assert diffed.returncode == 0 and len(diffed.stderr.splitlines()) == 1 and "\x1b" not in diffed.stderr


def test_records_of_a_unit_whose_name_holds_a_line_break_match_their_schemas(tmp_path: Path) -> None:
    """The ids' patterns (`^[ed]:.+@[0-9]+$`) did not match a unit name holding a line break, which
    a file name or an archive member may: the records erratlas wrote failed its own shipped schemas
    (`run` validates every JSON output of a verb that exits 0)."""
    tree = tmp_path / "tree"
    tree.mkdir()
    handler = b"function g(){try{f()}catch(e){throw new Error('w',{cause:e})}}\n"
    (tree / "two\nlines.js").write_bytes(JS_SOURCE + handler)
    assert run("scan", tree, "--out", tmp_path / "out").returncode == 0


def test_suggest_with_nothing_to_suggest_says_so_in_a_whole_line(tmp_path: Path) -> None:
    """A Python package without a map: '0 suggestions (exact 0, likely 0, possible 0, ambiguous 0; )'."""
    (tmp_path / "a.py").write_bytes(PYTHON_SOURCE)
    assert run("scan", tmp_path / "a.py", "--out", tmp_path / "out").returncode == 0
    said = run("suggest", tmp_path / "out")
    assert said.returncode == 0
    assert said.stderr.strip().endswith("0 suggestions (exact 0, likely 0, possible 0, ambiguous 0) -> "
                                        f"{tmp_path / 'out' / 'suggestions.jsonl'}"), said.stderr


def test_a_logger_option_the_rules_would_refuse_or_a_python_scan_ignores_is_refused(tmp_path: Path) -> None:
    """`--logger 'a b'` was taken (0 diagnostics), where the rules' `[logger] name = "a b"` is refused;
    a Python scan ignored --logger altogether, both without a word."""
    from conftest import FIXTURES

    (tmp_path / "a.py").write_bytes(PYTHON_SOURCE)
    refused(run("scan", FIXTURES / "demo" / "demo.min.js", "--logger", "a b", "--out", tmp_path / "js"),
            "--logger", "'a b' is not a JavaScript identifier")
    refused(run("scan", tmp_path / "a.py", "--logger", "log", "--out", tmp_path / "py"), "--logger", "[logging]")
    assert not (tmp_path / "js").exists() and not (tmp_path / "py").exists()
    assert run("scan", FIXTURES / "demo" / "demo.min.js", "--logger", "$S", "--out", tmp_path / "js").returncode == 0


def test_fmt_names_the_entries_the_canonical_form_leaves_out(tmp_path: Path) -> None:
    """Two entries with one match and owner (reviewed twice, reasons 'a' and 'b'): fmt kept the
    second and dropped the first's review without a word."""
    entry = ('\n[[entry]]\nmatch = {{ callsite = "fp1:{}" }}\nowner = "Product"\nreason = "{}"\nreviewedBy = "t"\n'
             "reviewedOn = 2026-01-01\n")
    allowlist = tmp_path / "a.toml"
    twice = entry.format("1" * 32, "a") + entry.format("1" * 32, "b")
    allowlist.write_text('schema = "erratlas.allowlist/1"\n' + twice, encoding="utf-8")
    written = run("fmt", allowlist)
    assert written.returncode == 0
    assert written.stderr.strip() == (f"erratlas: {allowlist}: rewritten in canonical form; 1 entries left out, each "
                                      f"repeating a later one's match and owner: {allowlist}:3"), written.stderr
    assert 'reason = "b"' in allowlist.read_text(encoding="utf-8")


def test_prune_names_the_repeated_entries_its_rewrite_leaves_out(demo_scan_copy: Path, tmp_path: Path) -> None:
    """prune says it removes stale entries 'and nothing else'; its canonical rewrite also dropped an
    entry repeating a later one's match and owner, unsaid."""
    entry = ('\n[[entry]]\nmatch = {{ callsite = "fp1:{}" }}\nowner = "Product"\nreason = "{}"\nreviewedBy = "t"\n'
             "reviewedOn = 2026-01-01\n")
    first = "c9196f0a995b8b6a9c3141d89ad4ecd0"  # e:demo.min.js@466
    allowlist = tmp_path / "a.toml"
    allowlist.write_text('schema = "erratlas.allowlist/1"\n' + entry.format(first, "a") + entry.format("0" * 32, "gone")
                         + entry.format(first, "b"), encoding="utf-8")
    assert run("project", demo_scan_copy, "-a", allowlist).returncode == 0
    pruned = run("prune", demo_scan_copy, "-a", allowlist)
    assert pruned.returncode == 0, pruned.stderr
    assert pruned.stderr.splitlines()[-1] == (f"erratlas: {allowlist}: 1 entries left out, each repeating a later "
                                              f"one's match and owner: {allowlist}:3"), pruned.stderr


@pytest.mark.parametrize("flag", ["--version", "-V"])
def test_the_version_flag_prints_the_version(flag: str) -> None:
    """'erratlas --version', what a new user types first, was 'No such option: --version', exit 2."""
    from analyzer import __version__

    result = run(flag)
    assert result.returncode == 0 and result.stdout == f"{__version__}\n", result.stderr
    assert run("version").stdout == result.stdout


def test_h_is_help_as_help_is() -> None:
    assert run("-h").stdout == run("--help").stdout != ""
    assert run("scan", "-h").stdout == run("scan", "--help").stdout != ""


@pytest.mark.parametrize("why", ["a name too long", "a file where a directory belongs", "a loop of links"])
def test_an_output_path_that_cannot_be_one_is_refused(demo_scanned_once: Path, tmp_path: Path, why: str) -> None:
    """`--out` with a 300-character name, below a file (`--out app.js/out`) or through a loop of links
    was an internal error (OSError from lstat, exit 3) in scan, sarif, allow, diff, extract and suggest."""
    from conftest import FIXTURES

    (tmp_path / "a.js").write_bytes(JS_SOURCE)
    (tmp_path / "loop1").symlink_to("loop2")
    (tmp_path / "loop2").symlink_to("loop1")
    where = {"a name too long": tmp_path / ("x" * 300), "a file where a directory belongs": tmp_path / "a.js" / "out",
             "a loop of links": tmp_path / "loop1" / "out"}[why]
    for verb in (["scan", FIXTURES / "demo" / "demo.min.js", "--out", where],
                 ["sarif", demo_scanned_once, "--out", where],
                 ["diff", demo_scanned_once, demo_scanned_once, "--out", where],
                 ["suggest", demo_scanned_once, "--out", where],
                 ["allow", demo_scanned_once, "e:demo.min.js@466", "-a", where, "--owner", "Product", "--reason", "r",
                  "--reviewer", "me"]):
        refused(run(*verb), str(where), "cannot be an output path")
