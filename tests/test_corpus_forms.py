"""The forms a bundler and a minifier give a package's code, and the versions its dependents ask
for (docs/corpus.md, "Signatures", "Declared ranges"), on fixtures/corpus-forms through the CLI:
a `require` of a package by name, text joined to a `typeof` by `+`, dropped `console` calls, and a
dependency range that the name's newest version does not satisfy; and where the bundle lays
packages out (docs/corpus.md, "Matching", neighbours): a dependency between its dependent's files,
and a helper two packages ship alike. Truth: the fixture bundle's own source map; the scan has it
withheld."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import FIXTURES, run, scan
from support.maps import callsite_packages
from support.registry import LocalRegistry, npm_env

HERE = FIXTURES / "corpus-forms"
BUFFERS, CODEC = "erratlas-fixture-buffers", "erratlas-fixture-codec"
BACKEND, KERNELS, SHIM = "erratlas-fixture-backend", "erratlas-fixture-kernels", "erratlas-fixture-shim"
CIPHERS, HASHES = "erratlas-fixture-ciphers", "erratlas-fixture-hashes"
STREAMS = "erratlas-fixture-streams"
#: codec 2.0.0, which rewrites every function, is its newest version
TIMES = {f"{CODEC}@1.0.0": "2024-01-01T00:00:00.000Z", f"{BUFFERS}@1.0.0": "2024-01-02T00:00:00.000Z",
         f"{CODEC}@2.0.0": "2024-06-01T00:00:00.000Z", f"{STREAMS}@0.9.0": "2023-12-01T00:00:00.000Z",
         **{f"{name}@1.0.0": "2024-01-03T00:00:00.000Z" for name in (BACKEND, KERNELS, SHIM, CIPHERS, HASHES, STREAMS)}}


@pytest.fixture(scope="module")
def registry() -> Iterator[LocalRegistry]:
    with LocalRegistry(TIMES, HERE / "tarballs") as served:
        yield served


@pytest.fixture(scope="module")
def scanned(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str | None]]:
    base = tmp_path_factory.mktemp("forms")
    (base / "bare").mkdir()
    shutil.copy(HERE / "app.min.js", base / "bare" / "app.min.js")
    scan(base / "bare" / "app.min.js", base / "out", "--signatures")
    scan(HERE / "app.min.js", base / "truth")
    return base / "out", callsite_packages(base / "truth", ("error",))


def exact_packages(registry: LocalRegistry, scanned: tuple[Path, dict[str, str | None]], home: Path,
                   *names: str) -> dict[str, object]:
    """Exact packages by callsite id with a corpus of these names."""
    added = run("corpus", "add", *names, "--corpus", home / "corpus", "-j", "1", env=npm_env(home, registry.url))
    assert added.returncode == 0, added.stderr
    suggested = run("suggest", scanned[0], "--corpus", home / "corpus", "--out", home / "s.jsonl")
    assert suggested.returncode == 0, suggested.stderr
    rows = [json.loads(line) for line in (home / "s.jsonl").read_text().splitlines()]
    return {i: row["package"] for row in rows if row["id"].startswith("c:") and row["confidence"] == "exact"
            for i in row["exampleIds"]}


@pytest.fixture(scope="module")
def laid_out(registry: LocalRegistry, scanned: tuple[Path, dict[str, str | None]],
             tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    """Exact packages by callsite id with the backend, its dependencies and both byte libraries."""
    return exact_packages(registry, scanned, tmp_path_factory.mktemp("laid-out"),
                          BACKEND, KERNELS, SHIM, CIPHERS, HASHES)


@pytest.fixture(scope="module")
def newest(registry: LocalRegistry, scanned: tuple[Path, dict[str, str | None]],
           tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, object], str]:
    """Exact packages by callsite id with each name's newest version asked for, and add's stderr."""
    home = tmp_path_factory.mktemp("newest")
    added = run("corpus", "add", BUFFERS, CODEC, "--candidates", "1", "--corpus", home / "corpus", "-j", "1",
                env=npm_env(home, registry.url))
    assert added.returncode == 0, added.stderr
    out, _ = scanned
    suggested = run("suggest", out, "--corpus", home / "corpus", "--out", home / "s.jsonl")
    assert suggested.returncode == 0, suggested.stderr
    rows = [json.loads(line) for line in (home / "s.jsonl").read_text().splitlines()]
    exact = {i: row["package"] for row in rows if row["id"].startswith("c:") and row["confidence"] == "exact"
             for i in row["exampleIds"]}
    return exact, added.stderr


def of(truth: dict[str, str | None], package: str) -> set[str]:
    return {i for i, p in truth.items() if p == package}


def test_the_fixture_bundles_both_packages(scanned) -> None:
    _, truth = scanned
    assert len(of(truth, BUFFERS)) >= 3 and len(of(truth, CODEC)) >= 2


def test_a_package_that_requires_by_name_drops_console_calls_and_joins_typeof_is_matched(newest, scanned) -> None:
    """buffers' module requires codec by name (esbuild writes its own reference), builds a message
    with `+ (typeof size)` and warns on the console (dropped): every callsite is claimed exactly."""
    exact, _ = newest
    _, truth = scanned
    assert of(truth, BUFFERS) <= {i for i, p in exact.items() if p == BUFFERS}


def test_a_range_a_dependent_declares_brings_the_version_it_allows(newest, scanned) -> None:
    """Asked for by name, codec brings 2.0.0 only; buffers 1.0.0 asks for ^1.0.0, so 1.0.0 is added
    too, and its code in the bundle is claimed."""
    exact, said = newest
    _, truth = scanned
    assert f"{CODEC}@1.0.0 added: the highest version declared by {BUFFERS}@1.0.0: ^1.0.0" in said
    assert of(truth, CODEC) <= {i for i, p in exact.items() if p == CODEC}
    assert all(truth.get(i) == p for i, p in exact.items())


def test_a_version_a_range_brought_declares_nothing_on_a_later_add_either(registry: LocalRegistry,
                                                                         tmp_path: Path) -> None:
    """One round: codec 1.0.0, which buffers' range brings, asks for streams ^0.9.0, which the add
    that brought it does not follow, nor the same add run again: the corpus is the same after both."""
    add = ("corpus", "add", BUFFERS, CODEC, STREAMS, "--candidates", "1", "--corpus", tmp_path / "corpus", "-j", "1")
    first = run(*add, env=npm_env(tmp_path, registry.url))
    assert first.returncode == 0, first.stderr
    assert f"{CODEC}@1.0.0 added: the highest version declared by {BUFFERS}@1.0.0: ^1.0.0" in first.stderr
    manifest = (tmp_path / "corpus" / "corpus.json").read_bytes()
    second = run(*add, env=npm_env(tmp_path, registry.url))
    assert second.returncode == 0, second.stderr
    assert "added: the highest version" not in second.stderr, second.stderr
    assert (tmp_path / "corpus" / "corpus.json").read_bytes() == manifest
    packages = {p["name"]: p["versions"] for p in json.loads(manifest)["packages"]}
    assert packages[CODEC] == ["1.0.0", "2.0.0"] and packages[STREAMS] == ["1.0.0"]


@pytest.mark.parametrize(("spec", "version", "allowed"), [
    ("^1.0.0", "1.9.3", True), ("^1.0.0", "2.0.1", False), ("^0.2.3", "0.2.9", True), ("^0.2.3", "0.3.0", False),
    ("~2.3", "2.3.9", True), ("~2.3", "2.4.0", False), (">=1 <3", "2.9.9", True), (">= 1 < 3", "3.0.0", False),
    ("1.x || 2", "2.5.0", True), ("1.x || 2", "3.0.0", False), ("1.2 - 1.4", "1.4.7", True),
    ("1.2 - 1.4", "1.5.0", False), ("*", "5.0.0", True), ("1.2.3", "1.2.4", False),
    ("latest", "1.0.0", False), ("npm:other@1", "1.0.0", False), ("workspace:*", "1.0.0", False),
])
def test_npm_ranges_are_read_as_npm_reads_them(spec: str, version: str, allowed: bool) -> None:
    from analyzer.owners.corpus.ranges import allows

    assert allows(spec, version) is allowed


def test_a_dependency_laid_out_between_its_dependents_files_is_claimed(laid_out, scanned) -> None:
    """esbuild lays kernels' three functions out between backend's setup.js (one function) and
    ops.js: a run longer than backend's code on one side is kernels' own, not an island."""
    _, truth = scanned
    assert of(truth, KERNELS) and of(truth, KERNELS) <= {i for i, p in laid_out.items() if p == KERNELS}
    assert of(truth, BACKEND) <= {i for i, p in laid_out.items() if p == BACKEND}


def test_an_island_shorter_than_the_code_on_both_sides_decides_for_neither(laid_out, scanned) -> None:
    """shim's one function sits between backend's ops.js and channels.js, three functions each: it
    may be backend's code that shim's versions also hold, so it is claimed for neither."""
    _, truth = scanned
    assert of(truth, SHIM) and not of(truth, SHIM) & set(laid_out)


def test_a_tie_between_code_of_one_package_on_both_sides_is_that_packages(laid_out, scanned) -> None:
    """ciphers' and hashes' utils.js ship the same `abytes`; in the bundle, ciphers' code is on both
    sides of it and ciphers' own file holds it: ciphers'. Every exact claim is right."""
    _, truth = scanned
    abytes = {i for i in of(truth, CIPHERS) if i in laid_out} - {i for i, p in laid_out.items() if p != CIPHERS}
    assert of(truth, CIPHERS) <= abytes and len(of(truth, CIPHERS)) >= 4
    assert all(truth.get(i) == p for i, p in laid_out.items())


def test_a_browserify_module_is_one_files_code(registry: LocalRegistry, tmp_path: Path) -> None:
    """browserify wraps each file in a module of the table and keeps its `require("./state")` under
    a renamed require: streams' index.js as a whole matches nothing, and its small methods
    (`_read`, `unshift`) throw in functions too small to be distinctive. Its module, whose
    distinctive functions name streams alone, is streams' file: those callsites are streams' too
    (docs/corpus.md, "Matching", 3); the app's own module matches nothing and stays unclaimed."""
    (tmp_path / "bare").mkdir()
    shutil.copy(HERE / "app.browserify.min.js", tmp_path / "bare" / "app.browserify.min.js")
    scan(tmp_path / "bare" / "app.browserify.min.js", tmp_path / "out", "--signatures")
    scan(HERE / "app.browserify.min.js", tmp_path / "truth")
    truth = callsite_packages(tmp_path / "truth", ("error",))
    exact = exact_packages(registry, (tmp_path / "out", truth), tmp_path, STREAMS)
    ids = {i for i, p in truth.items() if p == STREAMS}
    assert len(ids) >= 5 and {i: exact.get(i) for i in ids} == dict.fromkeys(ids, STREAMS)
    assert all(truth.get(i) == p for i, p in exact.items())
    assert any(p is None for p in truth.values())  # the app's own callsite, not claimed
    rows = [json.loads(line) for line in (tmp_path / "s.jsonl").read_text().splitlines()]
    assert any("module browserify" in str(r["evidence"]) for r in rows if r["id"].startswith("c:"))
