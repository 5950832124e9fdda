"""What a new user meets in the first hour, continued from tests/test_first_hour4.py: a scan
diffed against itself changes nothing (docs/owners.md, "Across releases"), a SIGINT to the scan
alone ends it (docs/reference.md, "Exit statuses"), and a path given wrong is refused naming it
(docs/reference.md, "Other verbs")."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import run
from test_first_hour import JS_SOURCE, refused

# copies (f, g, h: the same code) between unique callsites, and after the last one
_COPIES = (b'function a(x){if(!x)throw new Error("a: missing");return x}\n'
           b'function f(){throw new Error("x")}\nfunction g(){throw new Error("x")}\n'
           b'function b(x){if(x>9)throw new RangeError("b: too big");return x}\n'
           b'function h(){throw new Error("x")}\n')


def test_a_scan_diffed_against_itself_is_unchanged_throughout(tmp_path: Path) -> None:
    """2.1.100's scan against itself: '5771 unchanged, ... 133 removed, 133 ambiguous': copies of
    one code between the same unique callsites were never paired, though the same on both sides."""
    for name, source, total in (("copies.js", _COPIES, 5), ("all-copies.js", JS_SOURCE, 40)):
        (tmp_path / name).write_bytes(source)
        scanned = tmp_path / name.removesuffix(".js")
        assert run("scan", tmp_path / name, "--out", scanned).returncode == 0
        said = run("diff", scanned, scanned, "--out", tmp_path / "d")
        assert said.returncode == 0, said.stderr
        document = json.loads((tmp_path / "d" / "diff.json").read_bytes())
        assert document["counts"] == {"unchanged": total, "moved": 0, "changed": 0, "added": 0, "removed": 0,
                                      "ambiguous": 0}, (name, document["counts"])
        assert all(p["old"]["id"] == p["new"]["id"] for p in document["pairs"])


def test_copies_in_the_same_run_pair_across_releases_and_a_run_that_differs_does_not(tmp_path: Path) -> None:
    """The same copies between the same unchanged neighbours pair in order; one more copy there
    leaves the run's copies unpaired (ambiguous), never guessed."""
    later = b'function z(){throw new TypeError("z")}\n' + _COPIES
    more = _COPIES.replace(b'function g(', b'function k(){throw new Error("x")}\nfunction g(')
    for name, source in (("v1.js", _COPIES), ("v2.js", later), ("v3.js", more)):
        (tmp_path / name).write_bytes(source)
        assert run("scan", tmp_path / name, "--out", tmp_path / name.removesuffix(".js")).returncode == 0
    assert run("diff", tmp_path / "v1", tmp_path / "v2", "--out", tmp_path / "d").returncode == 0
    counts = json.loads((tmp_path / "d" / "diff.json").read_bytes())["counts"]
    assert counts == {"unchanged": 5, "moved": 0, "changed": 0, "added": 1, "removed": 0, "ambiguous": 0}, counts
    assert run("diff", tmp_path / "v1", tmp_path / "v3", "--out", tmp_path / "d").returncode == 0
    document = json.loads((tmp_path / "d" / "diff.json").read_bytes())
    assert document["counts"]["ambiguous"] + document["counts"]["added"] == 3, document["counts"]
    assert sorted(p["new"]["message"] for p in document["pairs"]) == ["a: missing", "b: too big", "x"]


def test_corpus_add_of_a_path_that_cannot_be_read_is_refused_and_writes_nothing(tmp_path: Path) -> None:
    """`corpus add nonexist.json` asked the registry for a package 'nonexist.json', said 'not in
    the registry, skipped' and wrote an empty corpus, exit 0; `corpus add node_modules` (a name npm
    never publishes) did the same; a directory given beside a missing file was indexed first."""
    from support.registry import UNREACHABLE, npm_env

    installed = tmp_path / "app" / "node_modules" / "pkg"
    installed.mkdir(parents=True)
    (installed / "package.json").write_bytes(b'{"name": "pkg", "version": "1.0.0"}')
    (installed / "index.js").write_bytes(b'module.exports = function f(x) { if (!x) throw new Error("pkg: x"); }\n')
    (tmp_path / "empty").mkdir()
    (tmp_path / "notes.json").write_bytes(b"{not json")
    corpus = tmp_path / "corpus"
    env = npm_env(tmp_path, UNREACHABLE)  # never the network: a spec read as a name fails fast
    for specs, problem in (([tmp_path / "app", "nonexist.json"], "nonexist.json: no such file or directory"),
                           (["gone/package-lock.json"], "gone/package-lock.json: no such file or directory"),
                           (["./nonexist"], "./nonexist: no such file or directory"),
                           ([tmp_path / "empty"], f"{tmp_path / 'empty'}: no installed package"),
                           ([tmp_path / "notes.json"], f"{tmp_path / 'notes.json'}: not a package name")):
        refused(run("corpus", "add", *specs, "--corpus", corpus, env=env), problem)
        assert not corpus.exists(), specs
    refused(run("corpus", "add", "node_modules", "--corpus", corpus, cwd=tmp_path, env=env),
            "node_modules: no such file or directory")
    added = run("corpus", "add", "node_modules", "--corpus", corpus, cwd=tmp_path / "app", env=env)
    assert added.returncode == 0 and "pkg@1.0.0: " in added.stderr, added.stderr


def test_a_directory_that_is_no_scan_directory_is_named_whatever_it_holds(demo_scanned_once: Path,
                                                                          tmp_path: Path) -> None:
    """`erratlas gate /tmp` said '/tmp/vgdb-pipe-...: a FIFO, not a regular file', and a directory
    holding a symlink named the symlink: a file inside, not the directory given and its problem."""
    import os

    given = tmp_path / "work"
    given.mkdir()
    (given / "link").symlink_to("/etc")
    os.mkfifo(given / "pipe")
    (given / "notes.txt").write_bytes(b"n\n")
    problem = (f"erratlas: error: {given}: no error-diagnostic-owner-summary.json: not a scan directory (`erratlas "
               "scan BUNDLE --out DIR` writes one)")
    for verb in (["gate", given], ["explain", given, "e:cli.js@1"], ["sarif", given], ["project", given],
                 ["diff", demo_scanned_once, given, "--out", tmp_path / "d"]):
        refused(run(*verb), problem)
    assert not (tmp_path / "d").exists()


def test_sigint_to_the_scan_process_alone_ends_it_as_ctrl_c_does(tmp_path: Path) -> None:
    """`kill -INT PID` of a JavaScript scan reaches the isolated child through the process waiting for
    it: exit 130, the previous output kept, no parent made for a new one."""
    from conftest import FIXTURES, interrupted_scan, scan, tree_bytes

    out = tmp_path / "out"
    scan(FIXTURES / "gate" / "few.js", out)
    before = tree_bytes(out)
    for moment in ("extract: parsed", "callsites found"):
        code, lines = interrupted_scan(FIXTURES / "demo" / "demo.min.js", out, moment, group=False)
        assert (code, lines) == (130, [f"erratlas: interrupted: the previous output in {out} is kept as it was"])
        assert tree_bytes(out) == before
    code, lines = interrupted_scan(FIXTURES / "demo" / "demo.min.js", tmp_path / "new" / "a", "extract: parsed",
                                   group=False)
    assert (code, lines) == (130, [f"erratlas: interrupted: nothing written to {tmp_path / 'new' / 'a'}"])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]  # no staging directory, no parent made


def test_an_output_whose_parents_are_absent_has_them_made_by_every_verb(demo_scanned_once: Path,
                                                                         tmp_path: Path) -> None:
    """What `--out a/b/c` does when `a` is absent was said nowhere: every verb that writes makes
    the parents, as `mkdir -p` (docs/reference.md, "Absent parents are created"), and a command
    refused for its input makes none."""
    from conftest import FIXTURES
    from support.bunexe import Module, elf, graph

    executable = tmp_path / "app"
    executable.write_bytes(elf(graph([Module("/$bunfs/root/cli", JS_SOURCE)])))
    nowhere = tmp_path / "nowhere"
    (nowhere / "empty").mkdir(parents=True)
    verbs = {"scan": (["scan", FIXTURES / "demo" / "demo.min.js", "--out"], "out"),
             "sarif": (["sarif", demo_scanned_once, "--out"], "f.sarif"),
             "diff": (["diff", demo_scanned_once, demo_scanned_once, "--out"], "d"),
             "suggest": (["suggest", demo_scanned_once, "--out"], "s.jsonl"),
             "extract": (["extract", executable, "--out"], "x"),
             "allow": (["allow", demo_scanned_once, "e:demo.min.js@466", "--owner", "Product", "--reason", "r",
                        "--reviewer", "me", "-a"], "a.toml")}
    for verb, (given, name) in verbs.items():
        made = tmp_path / verb / "a" / "b" / name
        said = run(*given, made)
        assert said.returncode == 0 and made.exists(), (verb, said.stderr)
    bad = {"scan": ["scan", tmp_path / "gone.js"], "sarif": ["sarif", nowhere / "empty"],
           "diff": ["diff", demo_scanned_once, nowhere / "empty"], "suggest": ["suggest", nowhere / "empty"],
           "extract": ["extract", FIXTURES / "demo" / "demo.min.js"]}
    for verb, given in bad.items():
        refused(run(*given, "--out", nowhere / verb / "a" / "b"))
    refused(run("allow", demo_scanned_once, "e:demo.min.js@1", "--owner", "Product", "--reason", "r", "--reviewer",
                "me", "-a", nowhere / "allow" / "a.toml"))
    assert sorted(p.name for p in nowhere.iterdir()) == ["empty"]


def test_the_same_allowlist_given_twice_is_refused_by_every_verb_that_takes_several(demo_scanned_once: Path,
                                                                                      tmp_path: Path) -> None:
    """`gate DIR -a X -a X` passed, where `scan`, `project` and `prune` refuse the same allowlist
    given twice (docs/reference.md, "Allowlists")."""
    import shutil

    from conftest import ROOT

    allowlist = tmp_path / "demo.toml"
    shutil.copyfile(ROOT / "allowlists" / "demo.toml", allowlist)
    scanned = tmp_path / "scan"
    shutil.copytree(demo_scanned_once, scanned)
    assert run("project", scanned, "-a", allowlist).returncode == 0
    again = tmp_path / ".." / tmp_path.name / "demo.toml"  # another path to the same file
    twice = ["-a", allowlist, "-a", again]
    problem = f"{again}: allowlist given twice (also as {allowlist})"
    before = sorted((p.name, p.read_bytes()) for p in scanned.iterdir() if p.is_file())
    for verb in (["gate", scanned, *twice], ["gate", scanned, "--format", "github", *twice],
                 ["project", scanned, *twice], ["prune", scanned, *twice],
                 ["scan", ROOT / "fixtures" / "demo" / "demo.min.js", "--out", scanned, *twice]):
        refused(run(*verb), problem)
    assert sorted((p.name, p.read_bytes()) for p in scanned.iterdir() if p.is_file()) == before
    assert run("gate", scanned, "-a", allowlist).returncode == 0
