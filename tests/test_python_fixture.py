"""The Python inventory on a hand-written package: what resolves, what is shadowed, levels,
scopes, error classes, and fingerprints that ignore local names and positions."""

from __future__ import annotations

import json
import re
import shutil
from collections import Counter
from pathlib import Path

import pytest
from conftest import FIXTURES, SUMMARY, records, run, scan

PACKAGE = FIXTURES / "python" / "shadowing"
_MARKER = re.compile(r"#\s*(error|diagnostic|shadowed|not)\s*$")


def markers(root: Path) -> dict[tuple[str, int], str]:
    found = {}
    for path in sorted(root.rglob("*.py")):
        for number, line in enumerate(path.read_text().splitlines(), start=1):
            match = _MARKER.search(line)
            if match:
                found[(path.relative_to(root).as_posix(), number)] = match.group(1)
    return found


@pytest.fixture(scope="module")
def fixture_scan(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("fixture") / "scan"
    scan(PACKAGE, out, "--jobs", "1")
    return out


def by_line(out: Path, kind: str) -> dict[tuple[str, int], list[dict[str, object]]]:
    found: dict[tuple[str, int], list[dict[str, object]]] = {}
    for record in records(out, kind):
        found.setdefault((str(record["unit"]), int(record["line"])), []).append(record)  # type: ignore[call-overload]
    return found


def test_every_marked_callsite_is_found_and_nothing_else(fixture_scan: Path) -> None:
    expected = markers(PACKAGE)
    for kind in ("error", "diagnostic"):
        want = {where for where, marker in expected.items() if marker == kind}
        got = by_line(fixture_scan, kind)
        assert set(got) == want, (kind, sorted(want - set(got)), sorted(set(got) - want))
        assert all(len(sites) == 1 for sites in got.values())


def test_shadowed_names_are_counted_per_unit_not_inventoried(fixture_scan: Path) -> None:
    expected = Counter(unit for (unit, _), marker in markers(PACKAGE).items() if marker == "shadowed")
    summary = json.loads((fixture_scan / SUMMARY).read_text())
    got = {unit: sum(counts.values()) for unit, counts in summary["shadowed"].items() if counts}
    assert got == dict(expected)
    assert summary["shadowed"]["app/main.py"]["logging"] == 1


def test_bundle_classes_resolve_through_imports_aliases_and_stars(fixture_scan: Path) -> None:
    constructors = {str(r["callee"]): r["constructor"] for r in records(fixture_scan, "error")}
    assert constructors["PublicError"] == "app.errors.AppError"  # `from .errors import AppError as PublicError`
    assert constructors["LegacyError"] == "app.errors.NotFound"  # `LegacyError = NotFound`
    assert constructors["errors.Chained"] == "app.errors.Chained"
    assert constructors["NotFound"] == "app.errors.NotFound"  # also through `from . import *`
    bare = next(r for r in records(fixture_scan, "error") if r["callee"] == "Deep")
    assert (bare["form"], bare["message"]["shape"], bare["argCount"]) == ("raise", "missing", 0)  # type: ignore[index]


def test_error_classes_have_root_parent_and_fields(fixture_scan: Path) -> None:
    classes = {c["name"]: c for c in map(json.loads, (fixture_scan / "error-classes.jsonl").open())}
    assert set(classes) == {"app.errors.AppError", "app.errors.NotFound", "app.errors.Chained", "app.errors.Deep"}
    assert classes["app.errors.AppError"]["fields"] == ["code", "path", "status"]
    assert (classes["app.errors.Deep"]["parent"], classes["app.errors.Deep"]["rootConstructor"]) == (
        "NotFound",
        "Exception",
    )
    assert classes["app.errors.Chained"]["rootConstructor"] == "KeyError"


def test_levels_come_from_the_method_or_a_literal(fixture_scan: Path) -> None:
    levels = {str(r["message"]["text"]): (r["level"], r["levelSource"], r["calleeRole"])  # type: ignore[index]
              for r in records(fixture_scan, "diagnostic")}
    assert levels["literal level"] == ("info", "explicit", "logger")
    assert levels["numeric level"] == ("info", "explicit", "logger")
    assert levels["dynamic level"] == ("dynamic", "dynamic", "logger")
    assert levels["chained"] == ("error", "explicit", "logger")
    assert levels["logging under an alias"] == ("debug", "explicit", "logging")
    assert levels["deprecated"] == ("warn", "explicit", "warnings")
    assert levels["inherited attribute logger"] == ("debug", "explicit", "logger")


def test_scope_paths_use_qualified_names(fixture_scan: Path) -> None:
    record = next(
        r
        for r in records(fixture_scan, "error")
        if r["message"]["text"] == "a class body name is not visible in its methods"
    )  # type: ignore[index]
    scope = record["scope"]
    assert scope["function"] == "app.main.ClassBody.method"  # type: ignore[index]
    assert scope["functionKind"] == "method"  # type: ignore[index]
    assert [p.split("@")[0] for p in scope["scopePath"]] == [  # type: ignore[index]
        "module:app.main", "class:app.main.ClassBody", "method:app.main.ClassBody.method"]
    assert record["consumer"] == {"node": "Raise", "relation": "exc", "role": "raise"}
    assert record["module"]["name"] == "app.main" and record["module"]["kind"] == "python-package"  # type: ignore[index]


def _fingerprints(out: Path) -> dict[str, str]:
    return {str(r["message"]["comparisonKey"]) + "|" + str(r["callee"]): str(r["fingerprint"])
            for kind in ("error", "diagnostic") for r in records(out, kind)}


def test_fingerprints_ignore_local_names_and_positions(tmp_path: Path, fixture_scan: Path) -> None:
    copy = tmp_path / "shadowing"
    shutil.copytree(PACKAGE, copy)
    main = copy / "app" / "main.py"
    source = main.read_text()
    renamed = (source.replace("def plain(x):\n    if x:", "def plain(value):\n    if value:")
               .replace('"plain %s" % x)', '"plain %s" % value)')
               .replace("def loggers(level, log_param)", "def loggers(lvl, param)")
               .replace("log.log(level,", "log.log(lvl,").replace("log_param.info", "param.info")
               .replace('"module-level logger %s", level)', '"module-level logger %s", lvl)'))
    assert renamed != source
    main.write_text("# moved down by a comment\n\n\n" + renamed)
    scan(copy, tmp_path / "renamed", "--jobs", "1")
    before, after = _fingerprints(fixture_scan), _fingerprints(tmp_path / "renamed")
    assert before == after
    main.write_text(renamed.replace('raise KeyError  # error', 'raise KeyError  # error\n    x = 1'))
    scan(copy, tmp_path / "changed", "--jobs", "1")
    changed = _fingerprints(tmp_path / "changed")
    differs = {key for key in before if before[key] != changed.get(key)}
    assert differs and all("|KeyError" in key or "plain" in key for key in differs)


def test_a_single_py_file_scans(tmp_path: Path) -> None:
    script = tmp_path / "tool.py"
    script.write_text('import logging\n\ndef main():\n    logging.error("boom")\n    raise SystemExit(2)\n')
    summary = scan(script, tmp_path / "out")
    assert summary["counts"]["byKind"] == {"error": 1, "diagnostic": 1}
    assert records(tmp_path / "out", "error")[0]["unit"] == "tool.py"


def test_a_file_that_does_not_parse_is_an_error_region_not_a_failure(tmp_path: Path) -> None:
    tree = tmp_path / "pkg"
    tree.mkdir()
    (tree / "good.py").write_text('raise ValueError("fine")\n')
    (tree / "py2.py").write_text('print "old"\nraise ValueError, "py2"\n')
    summary = scan(tree, tmp_path / "out")
    assert summary["counts"]["byKind"]["error"] == 1
    assert summary["errorRegions"]["count"] == 1
    assert summary["errorRegions"]["listed"][0]["unit"] == "py2.py"


def test_unknown_python_rules_key_names_file_line_and_key(tmp_path: Path) -> None:
    rules = tmp_path / "python.toml"
    rules.write_text('[errors]\nbuiltins = ["ValueError"]\n\n[logging]\nlevelMethod = "log"\ncolour = "red"\n')
    result = run("scan", PACKAGE, "--out", tmp_path / "out", "--rules", rules)
    assert result.returncode == 2
    assert f"{rules}:6" in result.stderr and "logging.colour" in result.stderr
    assert not (tmp_path / "out").exists()


def test_rules_restrict_what_is_inventoried(tmp_path: Path) -> None:
    rules = tmp_path / "python.toml"
    rules.write_text('[errors]\nbuiltins = ["KeyError"]\n\n[warnings]\nfunctions = []\n')
    summary = scan(PACKAGE, tmp_path / "out", "--rules", rules)
    constructors = summary["counts"]["error"]["byConstructor"]
    assert "ValueError" not in constructors and constructors["KeyError"] == 1
    assert "warnings" not in {r["calleeRole"] for r in records(tmp_path / "out", "diagnostic")}
