"""What a new user meets in the first hour, continued from tests/test_first_hour4.py: a scan
diffed against itself changes nothing, a signal ends a scan, and a path given wrong is refused
naming it (docs/reference.md, "Inputs", "Outputs", "Other verbs"; docs/owners.md, "Across releases")."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import run
from test_first_hour import JS_SOURCE

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
