"""Issue 15: `erratlas sarif` and `gate --format sarif` write SARIF 2.1.0 that independent
validators accept (the official OASIS schema with jsonschema, Microsoft's SARIF multitool),
one result per callsite the gate cares about, tracked across releases by fingerprint."""

from __future__ import annotations

import json
import os
import posixpath
import shutil
import stat
import subprocess
from collections import Counter
from pathlib import Path

import jsonschema
import pytest
from conftest import FIXTURES, ROOT, SUMMARY, records, run, scan

OFFICIAL_SCHEMA = FIXTURES / "sarif" / "sarif-schema-2.1.0.json"
MULTITOOL = FIXTURES / "node_modules" / "@microsoft" / "sarif-multitool-linux" / "Sarif.Multitool"
PROJECTION = "error-diagnostic-owner-projection.jsonl"
#: what the multitool's `validate` may still say at warning level, and why it is left alone
ACCEPTED_WARNINGS = {"SARIF2005"}  # no `informationUri`: erratlas has no public home page to name


def validate_official(log: dict) -> None:  # type: ignore[type-arg]
    schema = json.loads(OFFICIAL_SCHEMA.read_text())
    jsonschema.Draft4Validator.check_schema(schema)
    errors = sorted(jsonschema.Draft4Validator(schema).iter_errors(log), key=lambda e: list(e.absolute_path))
    assert not errors, [f"{list(e.absolute_path)}: {e.message}" for e in errors[:5]]


def multitool() -> Path:
    """Microsoft's SARIF multitool from fixtures/node_modules (`npm ci --ignore-scripts` skips
    the post-install `chmod u+x` that makes it runnable; done here)."""
    if not MULTITOOL.exists():
        pytest.skip("fixtures/node_modules has no @microsoft/sarif-multitool: run `npm ci` in fixtures/")
    if not os.access(MULTITOOL, os.X_OK):
        MULTITOOL.chmod(MULTITOOL.stat().st_mode | stat.S_IXUSR)
    return MULTITOOL


def validate_with_multitool(path: Path, tmp_path: Path) -> list[dict]:  # type: ignore[type-arg]
    """The multitool's `validate` findings at warning or error level (none beyond the accepted)."""
    report = tmp_path / "multitool.sarif"
    done = subprocess.run([str(multitool()), "validate", str(path), "--output", str(report), "--log", "ForceOverwrite",
                           "--level", "Error", "Warning", "Note", "--max-file-size-in-kb", "1000000"],
                          capture_output=True, text=True, timeout=900, check=False)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    findings = json.loads(report.read_text())["runs"][0]["results"]
    serious = [f for f in findings if f.get("level", "warning") in ("error", "warning")]
    assert {f["ruleId"] for f in serious} <= ACCEPTED_WARNINGS, serious[:3]
    return findings


def sarif_of(out: Path, tmp_path: Path, *extra: object) -> dict:  # type: ignore[type-arg]
    target = tmp_path / "out.sarif"
    result = run("sarif", out, "--out", target, *extra)
    assert result.returncode == 0, result.stderr
    log = json.loads(target.read_text())
    validate_official(log)
    return log


def projection_rows(out: Path) -> dict[str, dict]:  # type: ignore[type-arg]
    return {row["id"]: row for row in map(json.loads, filter(None, (out / PROJECTION).read_text().split("\n")))}


def _readable(result: dict) -> dict:  # type: ignore[type-arg]
    """The result's location in the readable rendering: related when the map places the callsite."""
    related = result.get("relatedLocations")
    return related[0]["physicalLocation"] if related else result["locations"][0]["physicalLocation"]


@pytest.fixture
def demo_scan(demo_scan_copy: Path) -> Path:
    """The demo's scan, this test's own copy (conftest: scanned once per session)."""
    return demo_scan_copy


def test_sarif_has_one_result_per_unresolved_callsite_and_validates(demo_scan: Path, tmp_path: Path) -> None:
    allowlist = tmp_path / "a.toml"
    first = records(demo_scan, "error")[0]
    assert run("allow", demo_scan, first["id"], "-a", allowlist, "--owner", "Product", "--reason", "r",
               "--reviewer", "t", "--on", "2026-11-29", "--function").returncode == 0
    assert run("project", demo_scan, "-a", allowlist).returncode == 0
    rows = projection_rows(demo_scan)
    everything = {r["id"]: r for r in records(demo_scan, "error") + records(demo_scan, "diagnostic")}
    log = sarif_of(demo_scan, tmp_path)
    results = log["runs"][0]["results"]
    unresolved = {i for i, row in rows.items() if row["owner"] == "Unresolved"}
    assert 0 < len(unresolved) < len(rows)
    in_order = sorted((r for r in everything.values() if r["id"] in unresolved), key=lambda r: (r["unit"], r["offset"]))
    assert [r["properties"]["id"] for r in results] == [r["id"] for r in in_order]
    rules = log["runs"][0]["tool"]["driver"]["rules"]
    for result in results:
        record = everything[result["properties"]["id"]]
        assert result["ruleId"] == f"unresolved-{record['kind']}" == rules[result["ruleIndex"]]["id"]
        assert result["partialFingerprints"]["erratlasCallsite/v1"] == record["fingerprint"]
        assert result["properties"]["offset"] == record["offset"] and result["properties"]["unit"] == record["unit"]
        location = _readable(result)
        slice_lines = Path(location["artifactLocation"]["uri"].removeprefix("file://")).read_text().split("\n")
        line = slice_lines[location["region"]["startLine"] - 1]
        assert line[location["region"]["startColumn"] - 1:].startswith((record["callee"], "new ")), record["id"]
    everything_log = sarif_of(demo_scan, tmp_path, "--results", "all")
    owned = [r for r in everything_log["runs"][0]["results"] if r["properties"]["owner"] == "Product"]
    assert owned and all(r["ruleId"].startswith("product-") and r["level"] == "note" for r in owned)
    assert all("entry" in r["message"]["text"] for r in owned)  # the evidence is in the message
    validate_with_multitool(tmp_path / "out.sarif", tmp_path)


def test_sarif_paths_are_relative_to_where_erratlas_ran(demo_scan: Path, tmp_path: Path) -> None:
    result = run("sarif", demo_scan.name, cwd=demo_scan.parent)
    assert result.returncode == 0, result.stderr
    log = json.loads(result.stdout)
    validate_official(log)
    location = _readable(log["runs"][0]["results"][0])["artifactLocation"]
    assert location == {"uri": "scan/readable/demo.min.js", "uriBaseId": "%SRCROOT%"}
    again = run("sarif", demo_scan.name, cwd=demo_scan.parent)
    assert again.stdout == result.stdout  # deterministic


def test_sarif_results_sit_at_the_original_source_line(demo_scan: Path, tmp_path: Path) -> None:
    """With the demo's map and --bundle, every result the map places points at the original file
    (from where erratlas runs) and line, the readable rendering a related location; validated by
    the OASIS schema and Microsoft's multitool."""
    target = tmp_path / "original.sarif"
    result = run("sarif", demo_scan, "--out", target, "--bundle", "fixtures/demo/demo.min.js", "--results", "all",
                 cwd=ROOT)
    assert result.returncode == 0, result.stderr
    log = json.loads(target.read_text())
    validate_official(log)
    validate_with_multitool(target, tmp_path)
    everything = {r["id"]: r for r in records(demo_scan, "error") + records(demo_scan, "diagnostic")}
    placed = 0
    for found in log["runs"][0]["results"]:
        record = everything[found["properties"]["id"]]
        primary = found["locations"][0]["physicalLocation"]
        if record["origin"] is None:  # esbuild's runtime: no original file, the readable line
            assert primary["artifactLocation"]["uri"].endswith("readable/demo.min.js")
            assert "relatedLocations" not in found
            continue
        placed += 1
        location = primary["artifactLocation"]
        assert location["uriBaseId"] == "%SRCROOT%", location
        assert location["uri"] == posixpath.normpath(posixpath.join("fixtures/demo", record["origin"]["source"]))
        assert (ROOT / location["uri"]).is_file() and primary["region"] == {"startLine": record["origin"]["line"]}
        assert _readable(found)["artifactLocation"]["uri"].endswith("readable/demo.min.js")
    assert placed == len(everything) - 1


def test_one_result_end_to_end_at_its_source_line(demo_scan: Path, tmp_path: Path) -> None:
    """A TypeError the product throws: the SARIF line is the line of the original file that holds
    the call, and the independent map oracle (trace-mapping) puts the callsite's bundle offset on
    that same file and line."""
    from test_sourcemap import oracle_origins

    result = run("sarif", demo_scan, "--bundle", "fixtures/demo/demo.min.js", cwd=ROOT)
    assert result.returncode == 0, result.stderr
    log = json.loads(result.stdout)
    everything = {r["id"]: r for r in records(demo_scan, "error")}
    product = [r for r in log["runs"][0]["results"] if r["properties"]["id"] in everything
               and "src/demo-app/" in r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]]
    found = next(r for r in product if everything[r["properties"]["id"]]["constructor"] == "TypeError")
    record = everything[found["properties"]["id"]]
    primary = found["locations"][0]["physicalLocation"]
    line = (ROOT / primary["artifactLocation"]["uri"]).read_text().split("\n")[primary["region"]["startLine"] - 1]
    assert "TypeError(" in line, line
    bundle = FIXTURES / "demo" / "demo.min.js"
    (oracle,) = oracle_origins(bundle, bundle.with_name("demo.min.js.map"), [record["offset"]])
    assert oracle is not None
    uri = primary["artifactLocation"]["uri"]
    assert posixpath.normpath(posixpath.join("fixtures/demo", str(oracle["source"]))) == uri
    assert oracle["line"] == primary["region"]["startLine"]


def test_without_bundle_results_are_relative_to_the_package_root(demo_scan: Path, tmp_path: Path) -> None:
    log = sarif_of(demo_scan, tmp_path)
    bases = log["runs"][0]["originalUriBaseIds"]
    assert set(bases) == {"PACKAGE_ROOT"} and "uri" not in bases["PACKAGE_ROOT"]
    placed = [r["locations"][0]["physicalLocation"]["artifactLocation"] for r in log["runs"][0]["results"]
              if "relatedLocations" in r]
    assert placed and all(a["uriBaseId"] == "PACKAGE_ROOT" and (FIXTURES / a["uri"]).is_file() for a in placed)
    validate_with_multitool(tmp_path / "out.sarif", tmp_path)


def test_sarif_of_a_tree_points_at_its_files_sources(tmp_path: Path) -> None:
    """The files of a directory tree: relative to TREE_ROOT, or with --bundle DIR to here; a
    changed file refuses --bundle."""
    from test_map_places import inline_package

    package = inline_package(tmp_path)
    (package / "src").mkdir()
    shutil.copy(FIXTURES / "monorepo" / "packages" / "app" / "src" / "index.js", package / "src" / "index.js")
    out = tmp_path / "out"
    scan(package, out)
    alone = run("sarif", out, "--results", "all")
    assert alone.returncode == 0 and "relative to TREE_ROOT" in alone.stderr
    log = json.loads(alone.stdout)
    validate_official(log)
    assert set(log["runs"][0]["originalUriBaseIds"]) == {"TREE_ROOT"}
    uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in log["runs"][0]["results"]}
    assert "src/index.js" in uris
    here = run("sarif", out, "--results", "all", "--bundle", "package", cwd=tmp_path)
    assert here.returncode == 0, here.stderr
    located = [r["locations"][0]["physicalLocation"] for r in json.loads(here.stdout)["runs"][0]["results"]]
    line = next(loc for loc in located if loc["artifactLocation"]["uri"] == "package/src/index.js")
    assert line["artifactLocation"]["uriBaseId"] == "%SRCROOT%"
    assert "throw new" in (package / "src" / "index.js").read_text().split("\n")[line["region"]["startLine"] - 1]
    (package / "dist" / "app.min.js").write_bytes((package / "dist" / "app.min.js").read_bytes() + b"\n")
    changed = run("sarif", out, "--bundle", "package", cwd=tmp_path)
    assert changed.returncode == 2 and "is not the directory this scan read (dist/app.min.js" in changed.stderr


def test_a_bundle_that_is_not_the_scanned_one_is_refused(demo_scan: Path, tmp_path: Path) -> None:
    result = run("sarif", demo_scan, "--bundle", FIXTURES / "demo" / "demo.cjs.min.js")
    assert result.returncode == 2 and "is not the bundle this scan read" in result.stderr
    assert "Traceback" not in result.stderr and result.stdout == ""


def test_gate_sarif_points_at_the_original_source_too(demo_scan: Path) -> None:
    failing = run("gate", demo_scan, "--min-coverage", "0.5", "--format", "sarif", "--bundle",
                  "fixtures/demo/demo.min.js", cwd=ROOT)
    assert failing.returncode == 1
    log = json.loads(failing.stdout)
    validate_official(log)
    uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in log["runs"][0]["results"]}
    assert "fixtures/src/demo-app/main.js" in uris
    assert run("gate", demo_scan, "--bundle", "fixtures/demo/demo.min.js", cwd=ROOT).returncode == 2


def test_baseline_marks_new_and_unchanged_results(demo_scan: Path, tmp_path: Path) -> None:
    baseline = tmp_path / "baseline.json"
    shutil.copy(demo_scan / SUMMARY, baseline)
    bigger = tmp_path / "bigger"
    scan(FIXTURES / "demo" / "demo.terser.min.js", bigger)
    log = sarif_of(bigger, tmp_path, "--baseline", baseline)
    states = Counter(r["baselineState"] for r in log["runs"][0]["results"])
    before = set(json.loads(baseline.read_text())["unresolvedFingerprints"])
    expected_new = sum(
        1 for r in log["runs"][0]["results"] if r["partialFingerprints"]["erratlasCallsite/v1"] not in before
    )
    assert states["new"] == expected_new > 0 and states["unchanged"] > 0
    only_new = sarif_of(bigger, tmp_path, "--baseline", baseline, "--results", "new")
    assert len(only_new["runs"][0]["results"]) == expected_new
    assert run("sarif", bigger, "--results", "new").returncode == 2  # needs --baseline


def test_gate_sarif_is_the_failing_set(demo_scan: Path, tmp_path: Path) -> None:
    passing = run("gate", demo_scan, "--format", "sarif")
    assert passing.returncode == 0, passing.stderr
    log = json.loads(passing.stdout)
    validate_official(log)
    assert log["runs"][0]["results"] == []
    failing = run("gate", demo_scan, "--min-coverage", "0.5", "--format", "sarif")
    assert failing.returncode == 1
    log = json.loads(failing.stdout)
    validate_official(log)
    results = log["runs"][0]["results"]
    assert len(results) == json.loads((demo_scan / SUMMARY).read_text())["owners"]["total"]["Unresolved"]
    assert {r["level"] for r in results} == {"error"}
    notes = log["runs"][0]["invocations"][0]["toolExecutionNotifications"]
    assert any("coverage overall" in n["message"]["text"] for n in notes)
    assert "FAIL coverage overall" in failing.stderr
    baseline = tmp_path / "baseline.json"
    shutil.copy(demo_scan / SUMMARY, baseline)
    bigger = tmp_path / "bigger"
    scan(FIXTURES / "demo" / "demo.terser.min.js", bigger)
    new_only = run("gate", bigger, "--baseline", baseline, "--format", "sarif")
    assert new_only.returncode == 1
    log = json.loads(new_only.stdout)
    validate_official(log)
    assert log["runs"][0]["results"] and {r["baselineState"] for r in log["runs"][0]["results"]} == {"new"}
    assert run("gate", tmp_path / "nowhere", "--format", "sarif").returncode == 2


PACKAGE = "@anthropic-ai/claude-code"


@pytest.mark.network
@pytest.mark.slow
@pytest.mark.parametrize("before", ["2.1.90", pytest.param("2.1.98", marks=pytest.mark.long)])
def test_partial_fingerprints_survive_a_release(release_scan, tmp_path: Path, before: str) -> None:  # type: ignore[no-untyped-def]
    """`before` -> 2.1.100: callsites that did not change (paired by what they are: kind, class
    or level, message, consumer, argument count, unique in both releases, in a function whose
    normalized code is the same) keep their partialFingerprints: at least 99%. CI pairs 2.1.90
    (3,813 such callsites, all kept), whose scan the release chain of tests/test_diff.py shares;
    2.1.98 (4,546, all kept; nearer, so less changed) is `long`."""
    logs = {}
    for version in (before, "2.1.100"):
        out = release_scan(PACKAGE, version)
        log = sarif_of(out, tmp_path, "--results", "all")
        logs[version] = {r["properties"]["id"]: r for r in log["runs"][0]["results"]}
        logs[version + "/records"] = {r["id"]: r for r in records(out, "error") + records(out, "diagnostic")}

    def content(record: dict) -> tuple:  # type: ignore[type-arg]
        return (record["kind"], record["constructor"], record["level"], record["message"]["comparisonKey"],
                record["consumer"]["role"], record["argCount"])

    def unique(version: str) -> dict[tuple, dict]:  # type: ignore[type-arg]
        rows = list(logs[version + "/records"].values())
        counts = Counter(content(r) for r in rows)
        return {content(r): r for r in rows if counts[content(r)] == 1}

    old, new = unique(before), unique("2.1.100")
    function_counts = [
        Counter(r["functionFingerprint"] for r in logs[v + "/records"].values()) for v in (before, "2.1.100")
    ]
    unchanged = [(old[key], new[key]) for key in old.keys() & new.keys()
                 if old[key]["functionFingerprint"] is not None
                 and old[key]["functionFingerprint"] == new[key]["functionFingerprint"]
                 and old[key]["functionCopies"]["count"] == 1 == new[key]["functionCopies"]["count"]]
    assert len(unchanged) > 3000 and all(c for c in function_counts)
    kept = sum(1 for a, b in unchanged
               if logs[before][a["id"]]["partialFingerprints"] == logs["2.1.100"][b["id"]]["partialFingerprints"])
    print(f"{before} -> 2.1.100: {kept} of {len(unchanged)} unchanged callsites keep their partialFingerprints")
    assert kept / len(unchanged) >= 0.99, (kept, len(unchanged))


EXECUTABLE = "@anthropic-ai/claude-code-linux-x64"


@pytest.mark.network
@pytest.mark.slow
def test_executable_sarif_validates(release_scan, reviewed_release_scan, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """The 2.1.235 executable: the log of every callsite (10,230 results, nothing owned) passes the
    official schema; the multitool validates the log CI would upload after the release line's
    allowlist (its Unresolved callsites: results of the same kinds, one per callsite, built by
    the same code). The multitool on all 10,230 takes 30 s of the test's 37 and is `long`
    (test_executable_sarif_of_every_callsite_passes_the_multitool)."""
    out = release_scan(EXECUTABLE, "2.1.235")
    log = sarif_of(out, tmp_path)
    summary = json.loads((out / SUMMARY).read_text())
    assert len(log["runs"][0]["results"]) == summary["owners"]["total"]["Unresolved"] > 10000
    reviewed = reviewed_release_scan(EXECUTABLE, "2.1.235")
    log = sarif_of(reviewed, tmp_path)
    unresolved = json.loads((reviewed / SUMMARY).read_text())["owners"]["total"]["Unresolved"]
    assert len(log["runs"][0]["results"]) == unresolved > 500
    validate_with_multitool(tmp_path / "out.sarif", tmp_path)


@pytest.mark.network
@pytest.mark.slow
@pytest.mark.long
def test_executable_sarif_of_every_callsite_passes_the_multitool(release_scan, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    out = release_scan(EXECUTABLE, "2.1.235")
    log = sarif_of(out, tmp_path)
    assert len(log["runs"][0]["results"]) > 10000
    validate_with_multitool(tmp_path / "out.sarif", tmp_path)


def _undeclared(value: object, hint: object) -> list[str]:
    """Where `value` (a SARIF log read back) holds a key or a value its hint in
    `reports/sarif_model.py` does not declare; a union of TypedDicts takes the one whose keys fit."""
    import typing

    found: list[str] = []
    pending: list[tuple[str, object, object]] = [("log", value, hint)]
    while pending:
        path, item, kind = pending.pop()
        origin, args = typing.get_origin(kind), typing.get_args(kind)
        if origin in (typing.Union, __import__("types").UnionType):
            fitting = [a for a in args if typing.is_typeddict(a) and isinstance(item, dict)
                       and set(a.__required_keys__) <= item.keys() <= set(typing.get_type_hints(a))]
            if fitting:
                pending.append((path, item, fitting[0]))
            elif not any(isinstance(item, a) for a in args if isinstance(a, type)):
                found.append(f"{path}: no option of {kind} fits")
        elif typing.is_typeddict(kind):
            hints = typing.get_type_hints(kind)
            if not isinstance(item, dict) or not set(kind.__required_keys__) <= item.keys() <= set(hints):  # type: ignore[attr-defined]
                found.append(f"{path}: {sorted(item) if isinstance(item, dict) else item!r} is not a {kind.__name__}")
                continue
            pending += [(f"{path}.{key}", inner, typing.get_args(hints[key])[0]
                         if typing.get_origin(hints[key]) is typing.NotRequired else hints[key])
                        for key, inner in item.items()]
        elif origin is list:
            pending += [(f"{path}[{n}]", inner, args[0]) for n, inner in enumerate(item)]  # type: ignore[arg-type]
        elif origin is dict:
            pending += [(f"{path}.{key}", inner, args[1]) for key, inner in item.items()]  # type: ignore[union-attr]
        elif origin is typing.Literal:
            if item not in args:
                found.append(f"{path}: {item!r} not one of {args}")
        elif isinstance(kind, type) and not isinstance(item, kind):
            found.append(f"{path}: {type(item).__name__} where {kind.__name__} belongs")
    return found


def test_every_part_of_a_log_is_one_the_sarif_model_declares(demo_scan: Path, tmp_path: Path) -> None:
    """The TypedDicts the logs are built from (reports/sarif_model.py) declare every key and value
    the CLI writes: callsite and flow results, related locations, original sources, baseline
    states, the gate's notifications."""
    from analyzer.reports.sarif_model import Log

    baseline = tmp_path / "baseline.json"
    shutil.copy(demo_scan / SUMMARY, baseline)
    logs = [sarif_of(demo_scan, tmp_path, "--results", "all", "--flow", "--baseline", baseline),
            sarif_of(demo_scan, tmp_path, "--results", "all", "--bundle", FIXTURES / "demo" / "demo.min.js")]
    failing = run("gate", demo_scan, "--min-coverage", "0.99", "--format", "sarif", "--max-new-swallowed", "0",
                  "--baseline", baseline)
    assert failing.returncode == 1, failing.stderr
    logs.append(json.loads(failing.stdout))
    assert logs[0]["runs"][0]["originalUriBaseIds"] and "baselineState" in logs[0]["runs"][0]["results"][0]
    assert any(r["ruleId"] == "swallowed-error" for r in logs[0]["runs"][0]["results"])
    assert logs[2]["runs"][0]["invocations"][0]["toolExecutionNotifications"]
    for log in logs:
        assert _undeclared(log, Log) == []
