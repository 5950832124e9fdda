"""What a new user meets in the first hour, continued from tests/test_first_hour5.py: a `--jobs`
beyond the machine (docs/reference.md, "Bounds"), a gate's line naming what differs in a summary
(docs/reference.md, "The gate") and `sarif --bundle` given the wrong thing (docs/reference.md,
"SARIF")."""

from __future__ import annotations

import resource
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson
import pytest
from conftest import run, tree_bytes
from test_first_hour import JS_SOURCE, refused


def _few_open_files() -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (64, 64))


def test_a_jobs_beyond_the_cores_starts_no_more_workers_than_the_cores(tmp_path: Path) -> None:
    """`--jobs 200` on a tree of 120 files forked 120 workers, two pipe ends each: past the
    open-file limit (64 here, 256 on macOS) it was an internal error, exit 3."""
    tree = tmp_path / "tree" / "pkg"
    tree.mkdir(parents=True)
    for number in range(120):
        (tree / f"m{number}.py").write_text(f'def f(x):\n    raise ValueError("bad {number}")\n')
    one = run("scan", tree.parent, "--out", tmp_path / "one", "--jobs", "1")
    assert one.returncode == 0, one.stderr
    many = run("scan", tree.parent, "--out", tmp_path / "many", "--jobs", "200", preexec_fn=_few_open_files)
    assert many.returncode == 0, many.stderr
    assert tree_bytes(tmp_path / "many") == tree_bytes(tmp_path / "one")


def _summary_edited(scanned: Path, edit: Callable[[dict[str, Any]], None]) -> None:
    """The summary with `edit` made, written back in the form erratlas writes it."""
    path = scanned / "error-diagnostic-owner-summary.json"
    document = orjson.loads(path.read_bytes())
    edit(document)
    path.write_bytes(orjson.dumps(document, option=orjson.OPT_INDENT_2) + b"\n")


def _reordered(document: dict[str, Any], key: str) -> None:
    document[key] = dict(reversed(document[key].items()))


@pytest.mark.parametrize(("edit", "said"), [
    (lambda d: d["counts"]["error"].update(total=None), "counts.error.total is null in the file, absent recomputed"),
    (lambda d: d["handlerOwners"].update(note=None), "handlerOwners.note is null in the file, absent recomputed"),
    (lambda d: _reordered(d, "counts"), "the same values, counts with its keys in another order"),
    (lambda d: _reordered(d, "coverage"), "the same values, coverage with its keys in another order"),
])
def test_a_gate_refusing_an_edited_summary_names_what_differs(demo_scan_copy: Path,
                                                              edit: Callable[[dict[str, Any]], None],
                                                              said: str) -> None:
    """A key added as null was 'the same values, other bytes' (null read as absent), and the
    counts' keys put in another order passed the gate."""
    _summary_edited(demo_scan_copy, edit)
    refused(run("gate", demo_scan_copy), said)


def test_sarif_bundle_given_the_wrong_thing_says_what_the_scan_read(demo_scanned_once: Path, tmp_path: Path) -> None:
    """`--bundle` of a path that is not there, of a directory for a scan of a file, or of a
    directory without the scanned files: each was '<path>: cannot be read', of a file never named."""
    other = tmp_path / "other"
    other.mkdir()
    refused(run("sarif", demo_scanned_once, "--bundle", tmp_path / "nowhere.js"),
            "nowhere.js: no such file (the bundle this scan read, demo.min.js, as seen from here)")
    refused(run("sarif", demo_scanned_once, "--bundle", other),
            "other: a directory; this scan read the file demo.min.js: give that file")
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "a.py").write_text('def f():\n    raise ValueError("x")\n')
    assert run("scan", tree, "--out", tmp_path / "scanned").returncode == 0
    refused(run("sarif", tmp_path / "scanned", "--bundle", other),
            "other: is not the directory this scan read (it holds no a.py)")


def test_sarif_flow_counts_its_callsite_and_handler_results_apart(demo_scanned_once: Path, tmp_path: Path) -> None:
    """`sarif --flow` said '3 SARIF results (unresolved)' of 1 Unresolved callsite and 2 handlers."""
    said = run("sarif", demo_scanned_once, "--flow", "--out", tmp_path / "flow.sarif")
    assert said.returncode == 0, said.stderr
    results = orjson.loads((tmp_path / "flow.sarif").read_bytes())["runs"][0]["results"]
    handlers = sum(1 for result in results if result["ruleId"] in ("swallowed-error", "wrap-loses-cause",
                                                                   "useless-catch"))
    assert handlers > 0
    assert (f"{len(results) - handlers} SARIF results (unresolved) and {handlers} handler results (flow rules)"
            in said.stderr), said.stderr


@pytest.mark.parametrize(("verb", "target", "said"), [
    ("explain", "fp1h:", "'fp1h:' is not a handler fingerprint (fp1h: and 32 hex digits)"),
    ("explain", "fp1:c9196f0a", "'fp1:c9196f0a' is not a callsite fingerprint (fp1: and 32 hex digits)"),
    ("explain", "fp1m:" + "g" * 32, f"'fp1m:{'g' * 32}' is not a module fingerprint (fp1m: and 32 hex digits)"),
    ("allow", "fp1f:", "'fp1f:' is not a function fingerprint (fp1f: and 32 hex digits)"),
])
def test_a_fingerprint_cut_short_or_mistyped_is_said_to_be_no_fingerprint(demo_scanned_once: Path, tmp_path: Path,
                                                                          verb: str, target: str, said: str) -> None:
    """`explain DIR fp1h:` (a prefix pasted alone) was 'no handler with fingerprint 'fp1h:' in this
    scan', as if one of that form might be in another."""
    extra = ["-a", tmp_path / "a.toml", "--owner", "Product", "--reason", "r", "--reviewer", "me"]
    refused(run(verb, demo_scanned_once, target, *(extra if verb == "allow" else [])), said)
    assert not (tmp_path / "a.toml").exists()


_ENTRY = ('[[entry]]\nmatch = { callsite = "fp1:c9196f0a995b8b6a9c3141d89ad4ecd0" }\nowner = "Product"\n'
          'reason = "checked"\nreviewedBy = "me"\nreviewedOn = "2026-01-01"\n')


@pytest.mark.parametrize("check", [[], ["--check"]])
def test_fmt_of_one_allowlist_given_twice_is_refused_and_rewrites_nothing(tmp_path: Path, check: list[str]) -> None:
    """`fmt a.toml a.toml` rewrote it, then said it was 'already in canonical form, left as it
    was'; every other verb taking several allowlists refuses one given twice."""
    allowlist = tmp_path / "a.toml"
    allowlist.write_text("# mine\n" + _ENTRY)
    (tmp_path / "same.toml").symlink_to(allowlist)
    before = allowlist.read_bytes()
    refused(run("fmt", *check, allowlist, tmp_path / "same.toml"), "same.toml: allowlist given twice (also as ")
    assert allowlist.read_bytes() == before


def test_accept_of_a_suggestions_file_that_is_not_there_says_so(demo_scanned_once: Path, tmp_path: Path) -> None:
    """`accept DIR --suggestions typo.jsonl` said 'no suggestions (run `erratlas suggest` first)' of
    a file the user named and mistyped."""
    refused(run("accept", demo_scanned_once, "-a", tmp_path / "a.toml", "--reviewer", "me", "--suggestions",
                tmp_path / "typo.jsonl"), "typo.jsonl: suggestions file not found")
    assert not (tmp_path / "a.toml").exists()


def test_an_out_directory_another_verb_wrote_is_named_for_what_it_is(demo_scan_copy: Path, tmp_path: Path) -> None:
    """`diff A B --out SCAN_DIR` said 'not empty and holds no erratlas output (no diff.json)' of a
    scan directory erratlas wrote; so did every verb of another's directory."""
    from support.bunexe import Module, elf, graph

    executable = tmp_path / "app"
    executable.write_bytes(elf(graph([Module("/$bunfs/root/cli", JS_SOURCE)])))
    assert run("extract", executable, "--out", tmp_path / "x").returncode == 0
    assert run("diff", demo_scan_copy, demo_scan_copy, "--out", tmp_path / "d").returncode == 0
    before = tree_bytes(tmp_path)
    for command, out, said in (
            (["diff", demo_scan_copy, demo_scan_copy], demo_scan_copy,
             "a scan directory (error-diagnostic-owner-summary.json), not a diff directory"),
            (["extract", executable], tmp_path / "d", "a diff directory (diff.json), not an extraction directory"),
            (["scan", executable], tmp_path / "x", "an extraction directory (manifest.json), not a scan directory")):
        refused(run(*command, "--out", out), f"{out}: {said}; refusing to replace {out}, nothing was deleted")
    assert tree_bytes(tmp_path) == before


def test_allow_says_when_it_replaces_an_entry_or_changes_nothing(demo_scanned_once: Path, tmp_path: Path) -> None:
    """`allow` of an entry the allowlist held, or of another verdict on its callsite, said only
    '-> Product' (or '-> Dependency ...'), as of a new entry: a reviewer's earlier verdict went unsaid."""
    allowlist = tmp_path / "a.toml"

    def allow(*verdict: str) -> str:
        said = run("allow", demo_scanned_once, "e:demo.min.js@466", "-a", allowlist, "--reason", "checked",
                   *verdict, "--on", "2026-01-01")
        assert said.returncode == 0, said.stderr
        return said.stderr.strip()

    fingerprint = "callsite fp1:c9196f0a995b8b6a9c3141d89ad4ecd0"
    assert allow("--owner", "Product", "--reviewer", "me") == f"erratlas: {allowlist}: {fingerprint} -> Product"
    before = allowlist.read_bytes()
    assert allow("--owner", "Product", "--reviewer", "me") == (
        f"erratlas: {allowlist}: {fingerprint} -> Product: the allowlist held this entry already, unchanged")
    assert allowlist.read_bytes() == before
    assert allow("--owner", "Dependency", "--package", "left-pad", "--reviewer", "you") == (
        f"erratlas: {allowlist}: {fingerprint} -> Dependency left-pad (replacing Product, reviewed by me on "
        f"2026-01-01, {allowlist}:7)")


@pytest.mark.parametrize(("name", "content", "said"), [
    ("error-message-callsites.jsonl", None, "a JSON Lines file of erratlas's records (erratlas.callsite/1), not "
                                            "JavaScript: give the bundle they were made from"),
    ("events.js", b'{"at": 1, "what": "start"}\n{"at": 2, "what": "stop"}\n', "a JSON Lines file, not JavaScript"),
    ("rows.ndjson", b"[1]\n[2]\n", "a JSON Lines file, not JavaScript"),
])
def test_a_json_lines_file_given_as_the_bundle_is_refused_saying_what_it_is(demo_scanned_once: Path, tmp_path: Path,
                                                                          name: str, content: bytes | None,
                                                                          said: str) -> None:
    """A scan directory's own callsites file given as the bundle was scanned as JavaScript: '0 error
    callsites', exit 0; so was any JSON Lines file."""
    path = tmp_path / name
    path.write_bytes(content if content is not None else (demo_scanned_once / name).read_bytes())
    refused(run("scan", path, "--out", tmp_path / "out"), f"{path}: {said}")
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("first", [b"{}", b'{"use strict"}', b"[1, 2]"])
def test_javascript_whose_first_line_is_a_block_or_an_array_is_still_scanned(tmp_path: Path, first: bytes) -> None:
    (tmp_path / "a.js").write_bytes(first + b'\nthrow new Error("x")\n')
    assert run("scan", tmp_path / "a.js", "--out", tmp_path / "out").returncode == 0


@pytest.mark.parametrize("verb", [["gate"], ["explain", "e:demo.min.js@466"], ["project"], ["sarif"]])
def test_a_file_given_where_a_scan_directory_belongs_says_which_directory_to_give(demo_scanned_once: Path,
                                                                                  tmp_path: Path,
                                                                                  verb: list[str]) -> None:
    """`gate DIR/error-diagnostic-owner-summary.json` (the file a scan's docs talk of) said only
    'not a scan directory', as it did of the bundle itself."""
    for given, said in ((demo_scanned_once / "error-diagnostic-owner-summary.json",
                         f"a file of the scan directory {demo_scanned_once}, not the directory: give "
                         f"{demo_scanned_once}"),
                        (demo_scanned_once / "handlers.jsonl", f"a file of the scan directory {demo_scanned_once}"),
                        (tmp_path / "a.js", "a file, not a scan directory (`erratlas scan BUNDLE --out DIR` writes "
                                            "one)")):
        (tmp_path / "a.js").write_bytes(JS_SOURCE)
        refused(run(verb[0], given, *verb[1:]), f"{given}: {said}")


@pytest.mark.parametrize("label", ["", " ", "\t"])
def test_a_blank_release_label_is_refused(demo_scanned_once: Path, tmp_path: Path, label: str) -> None:
    """`diff A B --new-label " "` titled diff.md 'demo.min.js fec3b74d9517 →  ', and `--old-label ""`
    (an unset variable) was taken as no label at all."""
    for option in ("--old-label", "--new-label"):
        refused(run("diff", demo_scanned_once, demo_scanned_once, "--out", tmp_path / "d", option, label),
                f"Invalid value for '{option}': a blank name, {label!r} (an unset variable?)")
    assert not (tmp_path / "d").exists()
