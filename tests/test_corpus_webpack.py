"""webpack modules and containment (docs/corpus.md, "Matching" 3), on fixtures/corpus-webpack through
the CLI: a webpack 5 `commonjs` chunk whose CommonJS modules are one file each. A module whose
distinctive functions name a package alone lends it its other callsites; not when those functions
are an island of another package's code (code that moved between packages across versions), and
never in a webpack ES module, which webpack's concatenation may have joined with other files (here
the app's own). Truth: the fixture bundle's own source map; the scan has it withheld."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from conftest import FIXTURES, run, scan
from support.maps import callsite_packages
from support.registry import LocalRegistry, npm_env

HERE = FIXTURES / "corpus-webpack"
ARCHIVE, ZIP, TOML = "erratlas-fixture-archive", "erratlas-fixture-zip", "erratlas-fixture-toml"
TIMES = {f"{ARCHIVE}@1.0.0": "2024-01-01T00:00:00.000Z", f"{TOML}@1.0.0": "2024-01-01T00:00:00.000Z",
         f"{ARCHIVE}@2.0.0": "2024-06-01T00:00:00.000Z", f"{ZIP}@2.0.0": "2024-06-01T00:00:00.000Z"}
MOUNT = ("EROFS: read-only filesystem, write", "ENOENT: no such file or directory, stat '",
         "archive: the entry ")
SMALL = ("EBADF: bad file descriptor, close", "EROFS: read-only filesystem, write")


@pytest.fixture(scope="module")
def registry():
    with LocalRegistry(TIMES, HERE / "tarballs") as served:
        yield served


@pytest.fixture(scope="module")
def scanned(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str | None], dict[str, str]]:
    """(the map-less scan, each callsite's package by the map, each callsite's message text)."""
    base = tmp_path_factory.mktemp("webpack")
    (base / "bare").mkdir()
    shutil.copy(HERE / "app.js", base / "bare" / "app.js")
    scan(base / "bare" / "app.js", base / "out", "--signatures")
    scan(HERE / "app.js", base / "truth")
    texts = {}
    for line in (base / "out" / "error-message-callsites.jsonl").read_text().splitlines():
        row = json.loads(line)
        texts[row["id"]] = "".join(p.get("text") or "" for p in row["message"].get("parts") or []) \
            or str(row["message"].get("text") or row["message"].get("template") or "")
    return base / "out", callsite_packages(base / "truth", ("error",)), texts


def suggestions(registry: LocalRegistry, out: Path, home: Path, *specs: str) -> list[dict[str, object]]:
    added = run("corpus", "add", *specs, "--corpus", home / "corpus", "-j", "1", env=npm_env(home, registry.url))
    assert added.returncode == 0, added.stderr
    suggested = run("suggest", out, "--corpus", home / "corpus", "--out", home / "s.jsonl")
    assert suggested.returncode == 0, suggested.stderr
    return [json.loads(line) for line in (home / "s.jsonl").read_text().splitlines()]


@pytest.fixture(scope="module")
def first_versions(registry, scanned, tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, object]]:  # type: ignore[no-untyped-def]
    """The suggestions of a corpus of archive 1.0.0 and toml 1.0.0, shared by the two tests that
    read it (read only)."""
    return suggestions(registry, scanned[0], tmp_path_factory.mktemp("first-versions"), f"{ARCHIVE}@1.0.0",
                       f"{TOML}@1.0.0")


def exact(rows: list[dict[str, object]]) -> dict[str, object]:
    return {i: row["package"] for row in rows if str(row["id"]).startswith("c:") and row["confidence"] == "exact"
            for i in row["exampleIds"]}  # type: ignore[attr-defined]


def test_the_fixture_is_a_commonjs_chunk_of_one_module_per_file(scanned) -> None:
    out, truth, _ = scanned
    modules = [json.loads(line) for line in (out / "modules.jsonl").read_text().splitlines()]
    assert {m["kind"] for m in modules} == {"webpack"} and len(modules) == 4
    es = [m for m in modules if any("an ES module" in e for e in m["evidence"])]
    assert len(es) == 1  # the app's main.js concatenated with toml's files
    assert {ARCHIVE, TOML, None} <= set(truth.values())


def test_a_webpack_module_lends_its_package_its_small_functions_callsites(first_versions, scanned) -> None:
    """archive 1.0.0's modules: `closeSync` and `writeSync` throw in functions too small to be
    distinctive; their modules' other functions name archive alone: archive's (Matching 3)."""
    _, truth, texts = scanned
    claimed = exact(first_versions)
    small = {i for i, t in texts.items() if t.startswith(SMALL)}
    assert len(small) == 2 and {claimed.get(i) for i in small} == {ARCHIVE}
    assert all(truth[i] == p for i, p in claimed.items())
    assert len([i for i, p in truth.items() if p == ARCHIVE and claimed.get(i) == ARCHIVE]) >= 8


def test_an_island_of_moved_code_lends_its_module_to_nobody(registry, scanned, tmp_path) -> None:
    """archive 2.0.0 moved lib/mount.js to zip 2.0.0: with those versions only, mount's functions
    name zip alone, between archive's code on both sides: an island (Matching 5) that decides for
    neither, and its module is not identified as zip: `writeSync`'s callsite stays unclaimed."""
    out, truth, texts = scanned
    rows = suggestions(registry, out, tmp_path, f"{ARCHIVE}@2.0.0", f"{ZIP}@2.0.0", f"{TOML}@1.0.0")
    claimed = exact(rows)
    mount = {i for i, t in texts.items() if t.startswith(MOUNT)}
    assert len(mount) == 3 and not mount & set(claimed)
    assert all(truth[i] == p for i, p in claimed.items())
    assert ZIP not in claimed.values()


def test_a_webpack_es_module_contains_nothing(first_versions, scanned) -> None:
    """webpack concatenated the app's main.js with toml's files into one ES module: toml's functions
    there name toml alone, but the module is several files' code; the app's callsites in it stay
    unclaimed, and toml's own are claimed by their functions only."""
    _, truth, _ = scanned
    rows = first_versions
    claimed = exact(rows)
    product = {i for i, p in truth.items() if p is None}
    assert len(product) >= 2 and not product & set(claimed)
    assert TOML in claimed.values() and all(truth[i] == p for i, p in claimed.items())
    assert not any("module webpack" in str(r["evidence"]) and r["package"] == TOML for r in rows)
