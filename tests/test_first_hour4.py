"""What a new user meets in the first hour, continued from tests/test_first_hour3.py: a command
that did less than it seems to says so, and a line that refuses says what to give instead
(docs/reference.md, "Inputs", "The gate", "Other verbs")."""

from __future__ import annotations

import json
import os
from pathlib import Path

from conftest import run
from test_first_hour import JS_SOURCE, refused

_RECOVERED = "the parser recovered from syntax errors in"


def test_a_javascript_bundle_the_parser_recovered_from_says_so_in_its_line(tmp_path: Path) -> None:
    """A bundle cut short (2.1.100's cli.js cut at 6,000,000 bytes: 2,198 callsites, all in one
    error region) printed the line a whole bundle prints; only the summary's errorRegions told."""
    cut = tmp_path / "cut.js"
    cut.write_bytes(JS_SOURCE + b"function g( { throw new TypeError('b')\n")
    scanned = run("scan", cut, "--out", tmp_path / "out")
    assert scanned.returncode == 0, scanned.stderr
    assert (f"cut.js: 41 error callsites, 0 diagnostic callsites (no diagnostic logger found), 0 error classes "
            f"({_RECOVERED} 1 region, 1 callsite inside (context.inErrorRegion): a truncated or damaged bundle? "
            "the summary's errorRegions and leftOut); owners: 0 of 41 owned") in scanned.stderr, scanned.stderr
    whole = tmp_path / "whole.js"
    whole.write_bytes(JS_SOURCE)
    scanned = run("scan", whole, "--out", tmp_path / "whole")
    assert scanned.returncode == 0 and _RECOVERED not in scanned.stderr, scanned.stderr


def test_a_gate_without_a_threshold_says_that_it_checked_no_coverage(demo_scanned_once: Path) -> None:
    """`erratlas gate DIR` of a scan with no allowlist said 'gate passed: coverage 0.00% (0 of 65)',
    exit 0, as if a threshold had held."""
    told = "no threshold given: only the scan's integrity and its allowlists' entries were checked " \
           "(--min-coverage F or --baseline SUMMARY sets one)"
    bare = run("gate", demo_scanned_once)
    assert bare.returncode == 0, bare.stderr
    assert bare.stdout.splitlines()[-1] == f"gate passed: coverage 0.00% (0 of 65); {told}", bare.stdout
    stale = run("gate", demo_scanned_once, "--allow-stale")
    assert stale.stdout.splitlines()[-1].endswith("no threshold given: only the scan's integrity were checked "
                                                  "(--min-coverage F or --baseline SUMMARY sets one)"), stale.stdout
    github = run("gate", demo_scanned_once, "--format", "github")
    assert github.stdout.splitlines()[-1] == f"::notice title=erratlas gate::passed, coverage 0.00%; {told}"
    held = run("gate", demo_scanned_once, "--min-coverage", "0")
    assert held.stdout.splitlines()[-1] == "gate passed: coverage 0.00% (0 of 65)", held.stdout


def test_an_id_that_names_nothing_says_what_to_give_instead(demo_scanned_once: Path, tmp_path: Path) -> None:
    """'no callsite with id or fingerprint ... in this scan' was all `explain` and `allow` said, for
    an id one digit off, an id of another bundle's scan and a word that is no id alike."""
    scan = demo_scanned_once
    refused(run("explain", scan, "e:demo.min.js@460"),
            "no callsite with id 'e:demo.min.js@460' in this scan; the nearest in demo.min.js is e:demo.min.js@466")
    refused(run("explain", scan, "h:demo.min.js@600"),
            "no handler with id 'h:demo.min.js@600' in this scan; the nearest in demo.min.js is h:demo.min.js@593")
    refused(run("explain", scan, "e:cli.js@145013"),
            "no callsite of a unit 'cli.js' in this scan (its callsites are in demo.min.js)")
    refused(run("explain", scan, "145013"), "'145013' is not a callsite id (e:UNIT@OFFSET, d:UNIT@OFFSET), a handler "
                                            "id (h:UNIT@OFFSET) or a fingerprint (fp1:, fp1f:, fp1m:, fp1h:)")
    refused(run("explain", scan, "fp1f:" + "0" * 32), f"no function with fingerprint 'fp1f:{'0' * 32}' in this scan")
    allowlist = tmp_path / "a.toml"
    given = ["-a", allowlist, "--owner", "Product", "--name", "f", "--reason", "r", "--reviewer", "me"]
    refused(run("allow", scan, "h:demo.min.js@593", *given),
            "'h:demo.min.js@593' is not a callsite id (e:UNIT@OFFSET, d:UNIT@OFFSET) or a fingerprint (fp1:, fp1f:, "
            "fp1m:, fp1b:)")
    refused(run("allow", scan, "e:demo.min.js@467", *given), "the nearest in demo.min.js is e:demo.min.js@466")
    assert not allowlist.exists()


def test_suggest_without_evidence_says_how_to_match_a_corpus(tmp_path: Path) -> None:
    """A bundle without a map: '0 suggestions (exact 0, likely 0, possible 0, ambiguous 0)' and
    nothing of the corpus, the one evidence left (docs/corpus.md)."""
    bundle = tmp_path / "app.js"
    bundle.write_bytes(JS_SOURCE)
    out = tmp_path / "out"
    assert run("scan", bundle, "--out", out).returncode == 0
    env = {**os.environ, "ERRATLAS_CACHE": str(tmp_path / "cache")}
    said = run("suggest", out, env=env)
    assert said.returncode == 0, said.stderr
    lines = said.stderr.splitlines()
    assert lines[0] == (f"erratlas: {out}: no source map, module path or licence banner here names an owner; a "
                        "bundle without a map is matched against real package sources (docs/corpus.md): `erratlas "
                        f"corpus names {out}` lists the packages it shows, `erratlas corpus add NAME... --for {out}` "
                        f"fetches them, then `erratlas scan BUNDLE --out {out} --signatures` and `erratlas suggest "
                        f"{out} --corpus {tmp_path / 'cache' / 'corpus'}`"), lines
    assert lines[1].startswith("erratlas: 0 suggestions") and len(lines) == 2, lines
    assert run("scan", bundle, "--out", out, "--signatures").returncode == 0
    signed = run("suggest", out, env=env).stderr.splitlines()[0]
    assert "--signatures" not in signed and signed.endswith(f"then `erratlas suggest {out} --corpus "
                                                            f"{tmp_path / 'cache' / 'corpus'}`"), signed


def test_a_file_of_comments_and_no_key_is_never_rewritten_as_an_allowlist(demo_scanned_once: Path,
                                                                         tmp_path: Path) -> None:
    """`erratlas fmt allowlists/*` with a notes file among them replaced the notes with an empty
    allowlist's header, exit 0; `allow -a` and `accept -a` of such a file did the same."""
    notes = tmp_path / "NOTES.txt"
    notes.write_bytes(b"# why these owners: see the review of 2026-11-30\n")
    allowlist = tmp_path / "x.toml"
    problem = "holds comments and no key: not an allowlist, and nothing is written"
    assert run("allow", demo_scanned_once, "e:demo.min.js@466", "-a", allowlist, "--owner", "Product", "--name", "f",
               "--reason", "r", "--reviewer", "me").returncode == 0
    kept = allowlist.read_bytes()
    suggested = tmp_path / "s.jsonl"
    assert run("suggest", demo_scanned_once, "--out", suggested).returncode == 0
    for verb in (["fmt", allowlist, notes], ["fmt", "--check", notes],
                 ["allow", demo_scanned_once, "e:demo.min.js@466", "-a", notes, "--owner", "Product", "--name", "f",
                  "--reason", "r", "--reviewer", "me"],
                 ["accept", demo_scanned_once, "-a", notes, "--reviewer", "me", "--suggestions", suggested]):
        refused(run(*verb), str(notes), problem)
    assert notes.read_bytes() == b"# why these owners: see the review of 2026-11-30\n"
    assert allowlist.read_bytes() == kept
    empty = tmp_path / "empty.toml"
    empty.write_bytes(b"")
    assert run("fmt", empty).returncode == 0 and empty.read_bytes().startswith(b"# erratlas allowlist")


def test_a_directory_another_verb_wrote_is_named_for_what_it_is(demo_scanned_once: Path, tmp_path: Path) -> None:
    """`erratlas gate DIFF_DIR` (or an extraction, a corpus) said 'DIR/error-diagnostic-owner-summary.json: no
    summary (is this a scan directory?)', as of any directory."""
    from support.bunexe import Module, elf, graph

    assert run("diff", demo_scanned_once, demo_scanned_once, "--out", tmp_path / "d").returncode == 0
    executable = tmp_path / "app"
    executable.write_bytes(elf(graph([Module("/$bunfs/root/cli", JS_SOURCE)])))
    assert run("extract", executable, "--out", tmp_path / "x").returncode == 0
    (tmp_path / "empty").mkdir()
    said = {"d": "a diff directory (diff.json: what `erratlas diff` writes), not a scan directory: give one of the two "
                 "scan directories it compared",
            "x": "an extraction directory (manifest.json: what `erratlas extract` writes), not a scan directory: scan "
                 "the executable it came from, `erratlas scan EXECUTABLE --out DIR`",
            "empty": "an empty directory: not a scan directory (`erratlas scan BUNDLE --out DIR` writes one)"}
    for name, problem in said.items():
        for verb in (["gate", tmp_path / name], ["explain", tmp_path / name, "e:cli.js@1"],
                     ["diff", demo_scanned_once, tmp_path / name, "--out", tmp_path / "d2"]):
            refused(run(*verb), f"erratlas: error: {tmp_path / name}: {problem}")


def test_extract_of_what_is_scanned_as_it_is_says_to_scan_it(tmp_path: Path) -> None:
    """`erratlas extract cli.js` said only 'not a Bun executable: no Bun section and no module graph
    trailer', and `erratlas extract DIR` 'cannot read: Is a directory'."""
    bundle = tmp_path / "cli.js"
    bundle.write_bytes(JS_SOURCE)
    scanned_as_is = ("`erratlas extract` reads what `bun build --compile` writes; a bundle, a directory or an archive "
                     "is scanned as it is (`erratlas scan PATH`)")
    refused(run("extract", bundle, "--out", tmp_path / "x"),
            f"{bundle}: not a Bun executable: no Bun section and no module graph trailer ('---- Bun! ----'); "
            + scanned_as_is)
    refused(run("extract", tmp_path, "--out", tmp_path / "x"), f"{tmp_path}: a directory, not a Bun executable: "
            + scanned_as_is)
    assert not (tmp_path / "x").exists()


def test_ctrl_c_in_any_verb_is_one_line_and_status_130(demo_scanned_once: Path) -> None:
    """typer ends a KeyboardInterrupt in a silent exit 130: Ctrl-C in `sarif`, `suggest`, `diff`,
    `project` or `explain` said nothing, where `scan` and the gate said 'erratlas: interrupted'."""
    import fcntl
    import select
    import signal
    import subprocess
    import time

    from conftest import as_at_a_terminal, erratlas_command

    # stdout is a pipe of one page, read one byte and then left: the verb blocks writing its 100 kB
    # (whatever the paths in it), and is interrupted there
    read_end, write_end = os.pipe()
    fcntl.fcntl(write_end, fcntl.F_SETPIPE_SZ, 4096)
    running = subprocess.Popen([erratlas_command(), "sarif", str(demo_scanned_once), "--results", "all"],
                               stdout=write_end, stderr=subprocess.PIPE, start_new_session=True,
                               preexec_fn=as_at_a_terminal)
    os.close(write_end)
    try:
        assert os.read(read_end, 1) == b"{"
        time.sleep(0.5)
        os.killpg(running.pid, signal.SIGINT)  # what Ctrl-C sends: the terminal's whole process group
        deadline = time.monotonic() + 60  # its stdout drained to the end, so that its exit's flush ends
        while time.monotonic() < deadline:
            if select.select([read_end], [], [], 1)[0] and not os.read(read_end, 65536):
                break
        _, said = running.communicate(timeout=60)
    finally:
        os.close(read_end)
    assert running.returncode == 130 and said == b"erratlas: interrupted\n", (running.returncode, said)


def test_max_drop_without_a_baseline_is_refused(demo_scanned_once: Path) -> None:
    """`gate DIR --max-drop 0.1` passed, the drop never counted: there is no baseline to count it
    against (`--max-new-swallowed` without one was refused)."""
    problem = "--max-drop: needs --baseline SUMMARY (the fall in callsites is counted against it)"
    refused(run("gate", demo_scanned_once, "--min-coverage", "0", "--max-drop", "0.1"), problem)
    refused(run("gate", demo_scanned_once, "--max-drop", "0.1", env={**os.environ, "PYTHONIOENCODING": "latin-1"}),
            problem)  # a stdout that is not UTF-8 runs the gate through the typer app
    baseline = demo_scanned_once / "error-diagnostic-owner-summary.json"
    assert run("gate", demo_scanned_once, "--max-drop", "0.1", "--baseline", baseline).returncode == 0


def test_a_corpus_given_where_it_cannot_apply_is_refused_in_one_line(demo_scanned_once: Path, tmp_path: Path) -> None:
    """`suggest DIR --corpus C --bundle PATH` of a directory or of a file that is not there was an
    internal error (IsADirectoryError, FileNotFoundError: exit 3); of the archive a tree scan read,
    'a gzip-compressed file ..., not a JavaScript bundle'; and a Python scan was told to scan again
    with --signatures, which refuses Python inputs."""
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "corpus.json").write_bytes(b'{"schema": "erratlas.corpus/1", "packages": []}')
    tree = tmp_path / "app"
    (tree / "lib").mkdir(parents=True)
    (tree / "index.js").write_bytes(JS_SOURCE)
    (tree / "lib" / "a.js").write_bytes(JS_SOURCE)
    assert run("scan", tree, "--out", tmp_path / "tree").returncode == 0
    again = ("a scan of a directory or an archive is matched when it is made with --signatures (`erratlas scan PATH "
             "--signatures`)")
    refused(run("suggest", demo_scanned_once, "--corpus", corpus, "--bundle", tmp_path / "gone.js"),
            f"{tmp_path / 'gone.js'}: no such file")
    refused(run("suggest", tmp_path / "tree", "--corpus", corpus, "--bundle", tree),
            f"{tree}: a directory: --bundle is the bundle file the scan read, parsed again; {again}")
    refused(run("suggest", tmp_path / "tree", "--corpus", corpus, "--bundle", tree / "index.js"),
            f"--bundle: parses one bundle file again, and app was scanned as a tree of 2 files; {again}")
    (tmp_path / "a.py").write_bytes(b'def f():\n    raise ValueError("x")\n')
    assert run("scan", tmp_path / "a.py", "--out", tmp_path / "py").returncode == 0
    python = "--corpus: matches a JavaScript bundle's functions against npm package sources; this is a scan of Python"
    refused(run("suggest", tmp_path / "py", "--corpus", corpus), python)
    refused(run("explain", tmp_path / "py", "e:a.py@19", "--corpus", corpus), python)


def test_an_empty_path_given_as_text_is_refused_not_read_as_the_current_directory(demo_scanned_once: Path,
                                                                                  tmp_path: Path) -> None:
    """`suggest DIR --product-sources "$SRC"` with the variable unset read '' as '.', the package root,
    and `corpus add "$LOCKFILE"` read it as the current directory: the empty-path refusal of the path
    options did not see these text values."""
    refused(run("suggest", demo_scanned_once, "--product-sources", ""),
            "--product-sources: an empty path (an unset variable?)")
    refused(run("corpus", "add", "", "--corpus", tmp_path / "corpus"),
            "SPECS: an empty spec (an unset variable?); `.` is the current directory")
    assert not (tmp_path / "corpus").exists()


def test_a_gate_failed_on_stale_entries_says_what_passes_and_what_removes_them(tmp_path: Path) -> None:
    """A gate failed on 34 'FAIL stale allowlist entry ...' lines and its verdict, and nothing said
    that `prune` removes entries that match nothing."""
    import shutil

    from conftest import ROOT

    allowlist = tmp_path / "other.toml"
    shutil.copyfile(ROOT / "allowlists" / "demo.toml", allowlist)
    (tmp_path / "a.js").write_bytes(JS_SOURCE)
    other = tmp_path / "other"
    assert run("scan", tmp_path / "a.js", "--out", other, "-a", allowlist).returncode == 0  # none of it matches
    stale = run("gate", other, "--min-coverage", "0")
    assert stale.returncode == 1, stale.stderr
    told = stale.stdout.splitlines()[-1]
    assert told.startswith("gate failed: coverage 0.00% (0 of 40); ") and told.endswith(
        f" stale entries: --allow-stale passes them (an allowlist of several releases), `erratlas prune {other} -a "
        f"{allowlist}` removes them (their code gone for good)"), told
    assert run("prune", other, "-a", allowlist).returncode == 0
    assert run("project", other, "-a", allowlist).returncode == 0
    assert run("gate", other, "--min-coverage", "0").returncode == 0


def test_accept_refuses_the_suggestions_of_another_scan(demo_scanned_once: Path, tmp_path: Path) -> None:
    """`accept DIR --suggestions OTHER/suggestions.jsonl` wrote 31 entries 'covering 31 callsites',
    none of them DIR's: each a stale entry the next gate fails on."""
    suggested = tmp_path / "demo.jsonl"
    assert run("suggest", demo_scanned_once, "--out", suggested).returncode == 0
    (tmp_path / "a.js").write_bytes(JS_SOURCE)
    other = tmp_path / "other"
    assert run("scan", tmp_path / "a.js", "--out", other).returncode == 0
    allowlist = tmp_path / "a.toml"
    refused(run("accept", other, "-a", allowlist, "--reviewer", "me", "--suggestions", suggested),
            f"{suggested}: 31 of the 31 suggestions chosen name no callsite of {other} (their examples "
            "e:demo.min.js@",
            f"are not in it): suggestions of another scan? `erratlas suggest {other}` makes this one's")
    assert not allowlist.exists()
    taken = run("accept", demo_scanned_once, "-a", allowlist, "--reviewer", "me", "--suggestions", suggested)
    assert taken.returncode == 0 and "31 entries accepted" in taken.stderr, taken.stderr


def test_accept_of_one_id_given_twice_counts_it_once(demo_scanned_once: Path, tmp_path: Path) -> None:
    """`accept --id X --id X` said '2 entries accepted, covering 2 callsites' and wrote one."""
    suggested = tmp_path / "s.jsonl"
    assert run("suggest", demo_scanned_once, "--out", suggested).returncode == 0
    allowlist = tmp_path / "a.toml"
    given = "s:callsite:e:demo.min.js@11646"
    taken = run("accept", demo_scanned_once, "-a", allowlist, "--reviewer", "me", "--suggestions", suggested,
                "--id", given, "--id", given)
    assert taken.returncode == 0 and taken.stderr == f"erratlas: {allowlist}: 1 entries accepted, covering 1 " \
                                                     "callsites\n", taken.stderr
    assert allowlist.read_text().count("[[entry]]") == 1


def test_allow_refuses_a_scope_option_beside_a_fingerprint_of_another_scope(demo_scanned_once: Path,
                                                                             tmp_path: Path) -> None:
    """`allow DIR fp1f:... --module` wrote a function entry: the fingerprint's scope won and the
    option the reviewer gave went unsaid."""
    record = next(r for r in map(json.loads, (demo_scanned_once / "error-message-callsites.jsonl").read_text()
                                 .splitlines()) if r["module"] is not None)
    allowlist = tmp_path / "a.toml"
    given = ["-a", allowlist, "--owner", "Product", "--name", "f", "--reason", "r", "--reviewer", "me"]
    function, module = record["functionFingerprint"], record["module"]["fingerprint"]
    refused(run("allow", demo_scanned_once, function, "--module", *given),
            f"--module: and the function fingerprint {function}: the fingerprint chooses the scope; give a callsite "
            "id (e:..., d:...) with --module, or leave it out")
    refused(run("allow", demo_scanned_once, module, "--function", *given), f"the module fingerprint {module}")
    assert not allowlist.exists()
    assert run("allow", demo_scanned_once, function, "--function", *given).returncode == 0
    assert run("allow", demo_scanned_once, record["id"], "--module", *given).returncode == 0


def test_fmt_of_a_file_already_canonical_says_it_left_it(tmp_path: Path) -> None:
    """`erratlas fmt a.toml` of a canonical file printed nothing at all; `--check` stays silent."""
    import shutil

    from conftest import ROOT

    allowlist = tmp_path / "a.toml"
    shutil.copyfile(ROOT / "allowlists" / "demo.toml", allowlist)
    kept = allowlist.read_bytes()
    said = run("fmt", allowlist)
    assert said.returncode == 0 and said.stderr == f"erratlas: {allowlist}: already in canonical form, left as it " \
                                                   "was\n", said.stderr
    assert allowlist.read_bytes() == kept
    checked = run("fmt", "--check", allowlist)
    assert checked.returncode == 0 and checked.stdout == checked.stderr == ""


def test_fmt_check_names_the_entries_the_rewrite_would_leave_out(tmp_path: Path) -> None:
    """`fmt --check` said only 'not in canonical form' of a file whose rewrite drops a repeated
    entry's review; `fmt` itself names it."""
    entry = ('\n[[entry]]\nmatch = {{ callsite = "fp1:{}" }}\nowner = "Product"\nreason = "{}"\nreviewedBy = "t"\n'
             "reviewedOn = 2026-01-01\n")
    allowlist = tmp_path / "a.toml"
    twice = entry.format("1" * 32, "a") + entry.format("1" * 32, "b")
    allowlist.write_text('schema = "erratlas.allowlist/1"\n' + twice, encoding="utf-8")
    checked = run("fmt", "--check", allowlist)
    assert checked.returncode == 1 and checked.stdout == (
        f"{allowlist}: not in canonical form (erratlas fmt {allowlist}); the rewrite would leave out 1 entries, each "
        f"repeating a later one's match and owner: {allowlist}:3\n"), checked.stdout


def test_a_typo_in_an_allowlist_key_names_the_key_it_is_near(demo_scanned_once: Path, tmp_path: Path) -> None:
    """'key 'reviewed_by': unknown key', and nothing of `reviewedBy`, the key meant."""
    allowlist = tmp_path / "a.toml"
    allowlist.write_text('schema = "erratlas.allowlist/1"\n\n[[entry]]\nmatch = { callsite = "fp1:' + "1" * 32
                         + '" }\nowner = "Product"\nreason = "r"\nreviewed_by = "me"\nreviewedOn = 2026-01-01\n')
    refused(run("project", demo_scanned_once, "-a", allowlist),
            f"{allowlist}:7: entry 1, key 'reviewed_by': unknown key (did you mean 'reviewedBy'?); an entry's keys: "
            "match, copies, neighbours, owner, package, function, expect, catchOwner, retryOwner, toolResultOwner, "
            "userSurfaceOwner, reason, reviewedBy, reviewedOn")


def test_allow_references_of_a_python_scan_says_it_has_no_reference_graph(tmp_path: Path) -> None:
    """'this callsite lies in no top-level item of the reference graph', of a Python scan, whose
    graph is empty: no callsite of it lies in one."""
    (tmp_path / "a.py").write_bytes(b'def f():\n    raise ValueError("x")\n')
    assert run("scan", tmp_path / "a.py", "--out", tmp_path / "py").returncode == 0
    allowlist = tmp_path / "a.toml"
    refused(run("allow", tmp_path / "py", "e:a.py@19", "--references", "-a", allowlist, "--owner", "Product",
                "--name", "f", "--reason", "r", "--reviewer", "me"),
            "e:a.py@19: this scan has no reference graph (references.jsonl is empty): a references entry roots a "
            "JavaScript binding; own the callsite, its --function or its --module")
    assert not allowlist.exists()


def test_a_baseline_of_another_bundle_is_said_to_be_one(demo_scanned_once: Path, tmp_path: Path) -> None:
    """A gate against the summary of another bundle's scan failed on '40 new Unresolved callsites'
    and nothing said that the baseline was not this bundle's."""
    (tmp_path / "a.js").write_bytes(JS_SOURCE)
    other = tmp_path / "other"
    assert run("scan", tmp_path / "a.js", "--out", other).returncode == 0
    failed = run("gate", other, "--baseline", demo_scanned_once / "error-diagnostic-owner-summary.json")
    assert failed.returncode == 1, failed.stderr
    assert failed.stdout.splitlines()[-2].endswith("; the baseline is a scan of demo.min.js, this one of a.js: the "
                                                   "baseline of another bundle?"), failed.stdout
    same = run("gate", other, "--baseline", other / "error-diagnostic-owner-summary.json")
    assert same.returncode == 0 and "another bundle" not in same.stdout, same.stdout
