"""Bun executables end to end: `extract` writes the embedded modules, and scanning the executable
gives, for its main unit, the records scanning the extracted JavaScript gives (real releases)."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import pytest
from conftest import records, run, scan
from support import npm_cache

PACKAGE = "@anthropic-ai/claude-code-linux-x64"
MAIN = "/$bunfs/root/cli"
#: each release: where the main unit lies in the module graph
RELEASES = {"2.1.235": "/$bunfs/root/cli", "2.1.150": "/$bunfs/root/src/entrypoints/cli.js"}


def _normalized(record: dict[str, object], unit: str) -> dict[str, object]:
    """The record with its unit's name (in `unit`, `id`, the scope path, the module id, the
    catching handler's id) neutral."""
    assert record["unit"] == unit
    out = dict(record, unit="<unit>", id=str(record["id"]).replace(unit, "<unit>", 1))
    scope = dict(record["scope"])  # type: ignore[arg-type]
    scope["scopePath"] = [scope["scopePath"][0].replace(unit, "<unit>", 1), *scope["scopePath"][1:]]
    out["scope"] = scope
    readable = dict(record["readable"])  # type: ignore[arg-type]
    readable["file"] = re.sub(r"^readable/[^~]*", "readable/<unit>", readable["file"])
    out["readable"] = readable
    if record["module"] is not None:
        module = dict(record["module"])  # type: ignore[arg-type]
        module["id"] = module["id"].replace(unit, "<unit>", 1)
        out["module"] = module
    if record.get("flow") and record["flow"]["handler"] is not None:  # type: ignore[index]
        flow = dict(record["flow"])  # type: ignore[arg-type]
        flow["handler"] = flow["handler"].replace(unit, "<unit>", 1)
        out["flow"] = flow
    return out


def _unit_records(out: Path, unit: str) -> list[dict[str, object]]:
    rows = records(out, "error") + records(out, "diagnostic")
    return [_normalized(r, unit) for r in rows if r["unit"] == unit]


@pytest.mark.network
@pytest.mark.slow
@pytest.mark.parametrize("version", ["2.1.235", pytest.param("2.1.150", marks=pytest.mark.long)])
def test_scanning_the_executable_equals_scanning_its_extracted_javascript(
        version: str, tmp_path: Path, release_scan) -> None:  # type: ignore[no-untyped-def]
    """CI checks 2.1.235, whose executable scan the module-map, index, SARIF and owner tests
    share (this test adds an extract and a scan of its 27 MB main module); 2.1.150 (the other
    layout of the main unit, src/entrypoints/cli.js) costs two more scans and is `long`; its
    extraction still runs in CI, from the wheel (tests/test_install.py)."""
    binary = npm_cache.main_file(PACKAGE, version)
    extracted = tmp_path / "extracted"
    result = run("extract", binary, "--out", extracted)
    assert result.returncode == 0, result.stderr
    manifest = json.loads((extracted / "manifest.json").read_text())
    entry = manifest["modules"][0]
    assert manifest["entryPoint"] == entry["path"] == RELEASES[version]
    main = extracted / entry["file"]
    assert hashlib.sha256(main.read_bytes()).hexdigest() == entry["sha256"]
    binary_scan = release_scan(PACKAGE, version)  # the session's scan of the executable
    scan(main, tmp_path / "javascript")
    from_binary = _unit_records(binary_scan, entry["path"])
    from_javascript = _unit_records(tmp_path / "javascript", main.name)
    assert len(from_binary) > 5000
    assert from_binary == from_javascript


@pytest.mark.network
@pytest.mark.slow
def test_the_module_map_of_a_real_executable(release_scan) -> None:  # type: ignore[no-untyped-def]
    out = release_scan(PACKAGE, "2.1.235")  # the session's scan, shared with the index and SARIF tests
    summary = json.loads((out / "error-diagnostic-owner-summary.json").read_text())
    modules = summary["modules"]
    assert modules["byKind"]["cjs"] > 1500 and modules["byKind"]["esm"] > 5000
    inside = sum(k["inModule"] for k in modules["callsitesInModule"].values())
    total = sum(k["total"] for k in modules["callsitesInModule"].values())
    assert inside / total >= 0.99
    listed = [json.loads(line) for line in (out / "modules.jsonl").read_text().splitlines()]
    assert len(listed) == modules["count"]
    assert sum(1 for m in listed if m["unit"] == MAIN) > 7000
    hoisted = [m for m in listed if m["kind"] == "esm" and m["offset"] < m["bodyOffset"]]
    assert len(hoisted) > 1000  # __esm modules whose declarations were hoisted out of the closure
    named = {p for m in listed for p in (*m["banners"], *m["manifests"])}
    assert {"@azure/msal-node", "chokidar", "@aws-sdk/client-bedrock-runtime"} <= named
    # every embedded module is listed with whether it was scanned and why
    embedded = {m["path"]: m for m in summary["inputs"]["embedded"]}
    assert {u["name"] for u in summary["inputs"]["units"]} == {p for p, m in embedded.items() if m["scanned"]}
    assert embedded[MAIN]["scanned"] and embedded[MAIN]["loader"] == "js"
    assets = [m for m in embedded.values() if m["path"].endswith(".min.js")]  # served to a page, not run by Bun
    assert assets and all(not m["scanned"] and m["loader"] == "file" and "file" in m["why"] for m in assets)


def test_extract_refuses_a_directory_it_did_not_write(tmp_path: Path) -> None:
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "keep.txt").write_text("mine")
    binary = tmp_path / "claude"
    binary.write_bytes(b"\x7fELF" + b"\0" * 60)
    result = run("extract", binary, "--out", tmp_path / "out")
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert (tmp_path / "out" / "keep.txt").read_text() == "mine"


def test_extract_of_a_file_that_is_not_a_bun_executable_exits_2(tmp_path: Path) -> None:
    bundle = tmp_path / "x.js"
    bundle.write_text("throw Error('x')\n")
    result = run("extract", bundle, "--out", tmp_path / "out")
    assert result.returncode == 2
    assert result.stderr.startswith("erratlas: error: ") and "x.js" in result.stderr
    assert not (tmp_path / "out").exists()
