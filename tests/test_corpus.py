"""The package corpus (issue 11) through the CLI: `corpus add` fetches through npm (a local
registry serving our fixture packages), verifies and indexes; `suggest --corpus` names the
packages of bundled code. Truth: the fixture bundle's own source map."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import FIXTURES, SUMMARY, run, scan, tree_bytes
from support.maps import callsite_packages
from support.registry import UNREACHABLE, LocalRegistry, integrity, npm_env

ALPHA, BETA, GAMMA = "erratlas-fixture-alpha", "erratlas-fixture-beta", "erratlas-fixture-gamma"
TIMES = {
    f"{ALPHA}@1.0.0": "2024-01-10T00:00:00.000Z",
    f"{ALPHA}@1.1.0": "2024-06-10T00:00:00.000Z",
    f"{BETA}@2.0.0": "2024-03-10T00:00:00.000Z",
    f"{GAMMA}@1.0.0": "2024-02-10T00:00:00.000Z",
}
BUNDLE = FIXTURES / "corpus" / "app.min.js"


@pytest.fixture(scope="module")
def registry() -> Iterator[LocalRegistry]:
    with LocalRegistry(TIMES) as served:
        yield served


def corpus_add(home: Path, registry_url: str, *specs: object) -> tuple[int, str]:
    result = run("corpus", "add", *specs, "--corpus", home / "corpus", "-j", "1", env=npm_env(home, registry_url))
    assert "Traceback" not in result.stderr
    return result.returncode, result.stderr


@pytest.fixture(scope="module")
def populated(registry: LocalRegistry, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A home whose corpus holds alpha, beta and gamma as published before 2025 (npm's cache of
    them beside it), added once for the tests that start from it: each takes a copy (`from_populated`)."""
    home = tmp_path_factory.mktemp("populated")
    code, err = corpus_add(home, registry.url, ALPHA, BETA, GAMMA, "--before", "2025-01-01")
    assert code == 0, err
    return home


def from_populated(populated: Path, home: Path) -> None:
    """`home` made a copy of the populated home (its corpus and npm cache)."""
    shutil.copytree(populated, home, symlinks=True, dirs_exist_ok=True)


@pytest.fixture(scope="module")
def scanned(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str | None]]:
    """The fixture bundle scanned alone (its map withheld) with --signatures, and the truth:
    callsite id -> package from the map (None for product code)."""
    base = tmp_path_factory.mktemp("scanned")
    (base / "bare").mkdir()
    shutil.copy(BUNDLE, base / "bare" / BUNDLE.name)
    summary = scan(base / "bare" / BUNDLE.name, base / "out", "--signatures")
    assert summary["modules"]["sourceMaps"][0]["status"] == "none"
    scan(BUNDLE, base / "truth")
    return base / "out", callsite_packages(base / "truth")


def suggest_rows(out: Path, corpus: Path, target: Path, *extra: object) -> list[dict[str, object]]:
    result = run("suggest", out, "--corpus", corpus, "--out", target, *extra)
    assert result.returncode == 0, result.stderr
    rows = [json.loads(line) for line in target.read_text().splitlines()]
    # a corpus row's line names its candidates last, every other row's ends with its reason
    assert all(list(row)[-1] == ("candidates" if row["id"].startswith("c:") else "reason") for row in rows)
    return rows


def corpus_rows(rows: list[dict[str, object]]) -> dict[str, dict[str, object]]:
    """Corpus suggestions by the callsite they are about."""
    return {row["exampleIds"][0]: row for row in rows if str(row["id"]).startswith("c:")}  # type: ignore[index]


def test_a_plain_name_gets_the_version_that_matches_best(populated: Path, scanned, tmp_path: Path) -> None:
    from_populated(populated, tmp_path)
    listing = run("corpus", "list", "--corpus", tmp_path / "corpus")
    assert f"{ALPHA}\t1.0.0 1.1.0\tregistry\tname" in listing.stdout.splitlines()
    out, truth = scanned
    rows = corpus_rows(suggest_rows(out, tmp_path / "corpus", tmp_path / "s.jsonl"))
    exact = {i: r for i, r in rows.items() if r["confidence"] == "exact"}
    assert {r["package"] for r in exact.values()} == {ALPHA, BETA}
    assert all(truth[i] == r["package"] for i, r in exact.items())  # precision: every claim is right
    alpha = [r for r in exact.values() if r["package"] == ALPHA]
    versions = [e["detail"] for r in alpha for e in r["evidence"] if e["kind"] == "corpus-version"]
    assert versions and all(d.startswith(f"{ALPHA}@1.1.0 matches best of 2 versions") for d in versions)
    assert all("1.1.0 index.js" in r["evidence"][0]["detail"] for r in alpha)


def test_before_leaves_out_later_versions(registry: LocalRegistry, tmp_path: Path) -> None:
    code, err = corpus_add(tmp_path, registry.url, ALPHA, "--before", "2024-03-01")
    assert code == 0, err
    listing = run("corpus", "list", "--corpus", tmp_path / "corpus").stdout
    assert listing.splitlines() == [f"{ALPHA}\t1.0.0\tregistry\tname"]


def test_a_later_add_keeps_the_earlier_versions(registry: LocalRegistry, tmp_path: Path) -> None:
    """A plain name brings 1.0.0 and 1.1.0; adding 1.0.0 exactly afterwards hides neither."""
    assert corpus_add(tmp_path, registry.url, ALPHA, "--before", "2025-01-01")[0] == 0
    code, err = corpus_add(tmp_path, registry.url, f"{ALPHA}@1.0.0")
    assert code == 0, err
    listing = run("corpus", "list", "--corpus", tmp_path / "corpus").stdout
    assert listing.splitlines() == [f"{ALPHA}\t1.0.0 1.1.0\tregistry\tname"]
    code, err = corpus_add(tmp_path, registry.url, f"{BETA}@2.0.0")
    assert code == 0, err
    assert corpus_add(tmp_path, registry.url, BETA, "--before", "2025-01-01")[0] == 0
    listing = run("corpus", "list", "--corpus", tmp_path / "corpus").stdout
    assert f"{BETA}\t2.0.0\tregistry\tname" in listing.splitlines()


def test_a_function_two_packages_ship_gets_no_exact_suggestion(
    registry: LocalRegistry, populated: Path, scanned, tmp_path: Path
) -> None:
    """gamma vendors beta's readConfig; alpha's validateRange is also bundled in beta (copies)."""
    from_populated(populated, tmp_path)
    out, truth = scanned
    rows = corpus_rows(suggest_rows(out, tmp_path / "corpus", tmp_path / "s.jsonl"))
    vendored = [r for r in rows.values() if set(r["candidates"]) == {BETA, GAMMA}]  # type: ignore[arg-type]
    assert len(vendored) == 2
    assert all(r["confidence"] == "possible" and r["package"] is None for r in vendored)
    assert all("2 candidate packages" in str(r["reason"]) for r in vendored)
    records = {
        json.loads(line)["id"]: json.loads(line)
        for line in (out / "error-message-callsites.jsonl").read_text().splitlines()
    }
    copied = [i for i, r in records.items() if r["copies"]["count"] > 1]
    assert len(copied) == 4
    # copies are never named by an ordinal: each is exact only when named by its neighbours (and
    # then right), else `possible`
    for i in copied:
        row = rows[i]
        if row["confidence"] == "exact":
            assert row["neighbours"] and row["match"] == {"callsite": records[i]["copies"]["group"]}
            assert row["package"] == truth[i]
        else:
            assert row["confidence"] == "possible" and "identical copies" in str(row["reason"])
    # without gamma in the corpus, readConfig is beta's alone; without alpha, validateRange names
    # beta alone in both copies: beta's copy, beside beta's code, is exact (docs/corpus.md,
    # "Matching", copies), alpha's copy is not
    alone = tmp_path / "alone"
    assert corpus_add(alone, registry.url, f"{BETA}@2.0.0")[0] == 0
    rows = corpus_rows(suggest_rows(out, alone / "corpus", tmp_path / "b.jsonl"))
    claimed = {i: r["package"] for i, r in rows.items() if r["confidence"] == "exact"}
    assert set(claimed.values()) == {BETA} and all(truth[i] == BETA for i in claimed), (claimed, truth)
    assert len(claimed) == 5 and len(set(claimed) & set(copied)) == 2
    assert all(truth[i] == ALPHA and rows[i]["confidence"] != "exact" for i in copied if i not in claimed)


def test_a_tampered_cached_tarball_is_refused(registry: LocalRegistry, tmp_path: Path) -> None:
    assert corpus_add(tmp_path, registry.url, f"{ALPHA}@1.1.0")[0] == 0
    cached = tmp_path / "corpus" / "tarballs" / ALPHA / "1.1.0.tgz"
    data = bytearray(cached.read_bytes())
    data[len(data) // 2] ^= 0x01
    cached.write_bytes(bytes(data))
    code, err = corpus_add(tmp_path, registry.url, f"{ALPHA}@1.1.0")
    assert code == 2
    assert err.count("\n") == 1 and str(cached) in err and "does not match its integrity" in err


def test_a_lockfile_pins_versions_and_integrity(registry: LocalRegistry, tmp_path: Path) -> None:
    served = FIXTURES / "corpus" / "tarballs"
    lock = {
        "name": "app",
        "lockfileVersion": 3,
        "packages": {
            "": {"name": "app"},
            f"node_modules/{ALPHA}": {
                "version": "1.1.0",
                "integrity": integrity((served / f"{ALPHA}-1.1.0.tgz").read_bytes()),
            },
            f"node_modules/{BETA}": {
                "version": "2.0.0",
                "integrity": integrity((served / f"{BETA}-2.0.0.tgz").read_bytes()),
            },
        },
    }
    (tmp_path / "package-lock.json").write_text(json.dumps(lock))
    code, err = corpus_add(tmp_path, registry.url, tmp_path / "package-lock.json")
    assert code == 0, err
    listing = run("corpus", "list", "--corpus", tmp_path / "corpus").stdout.splitlines()
    assert listing == [f"{ALPHA}\t1.1.0\tregistry\tversion", f"{BETA}\t2.0.0\tregistry\tversion"]
    lock["packages"][f"node_modules/{ALPHA}"]["integrity"] = integrity(b"another tarball")  # type: ignore[index]
    (tmp_path / "other" / "package-lock.json").parent.mkdir()
    (tmp_path / "other" / "package-lock.json").write_text(json.dumps(lock))
    code, err = corpus_add(tmp_path / "other", registry.url, tmp_path / "other" / "package-lock.json")
    assert code == 2 and "integrity" in err


def test_a_populated_cache_works_offline(populated: Path, scanned, tmp_path: Path) -> None:
    from_populated(populated, tmp_path)
    out, _ = scanned
    online = suggest_rows(out, tmp_path / "corpus", tmp_path / "online.jsonl")
    code, err = corpus_add(tmp_path, UNREACHABLE, ALPHA, BETA, GAMMA)  # plain names: the cached versions, said so
    assert code == 0 and f"{ALPHA}: registry unreachable" in err and "using the cached versions 1.0.0, 1.1.0" in err
    assert suggest_rows(out, tmp_path / "corpus", tmp_path / "offline.jsonl") == online
    code, err = corpus_add(tmp_path, UNREACHABLE, f"{ALPHA}@1.1.0")  # an exact version, cached: no network
    assert code == 0, err
    assert f"{ALPHA}\t1.0.0 1.1.0\tregistry\tname" in run("corpus", "list", "--corpus", tmp_path / "corpus").stdout
    code, err = corpus_add(tmp_path, UNREACHABLE, "erratlas-fixture-delta@1.0.0")  # not cached: one clear line
    assert code == 2 and err.startswith("erratlas: error: erratlas-fixture-delta@1.0.0: npm view failed")


def test_a_version_listed_but_not_indexed_names_the_add_that_mends_it(
        populated: Path, scanned, tmp_path: Path) -> None:
    """A manifest version whose index is gone (a run killed while indexing, a file removed):
    `suggest` refuses it in one line naming the exact `corpus add`, which mends it offline."""
    from_populated(populated, tmp_path)
    out, _ = scanned
    before = suggest_rows(out, tmp_path / "corpus", tmp_path / "before.jsonl")
    (tmp_path / "corpus" / "index" / ALPHA / "1.0.0.json").unlink()
    refused = run("suggest", out, "--corpus", tmp_path / "corpus", "--out", tmp_path / "x.jsonl")
    assert refused.returncode == 2 and "Traceback" not in refused.stderr, refused.stderr
    assert f"{ALPHA}@1.0.0 is in the manifest but not indexed (run `corpus add {ALPHA}@1.0.0`" in refused.stderr
    code, err = corpus_add(tmp_path, UNREACHABLE, f"{ALPHA}@1.0.0")  # the cached tarball: no network
    assert code == 0, err
    assert suggest_rows(out, tmp_path / "corpus", tmp_path / "after.jsonl") == before


def test_suggest_with_bundle_parses_again_and_checks_it(populated: Path, scanned, tmp_path: Path) -> None:
    from_populated(populated, tmp_path)
    out, _ = scanned
    plain, bare = tmp_path / "plain", out.parent / "bare" / BUNDLE.name
    scan(bare, plain)
    missing = run("suggest", plain, "--corpus", tmp_path / "corpus", "--out", tmp_path / "x.jsonl")
    assert missing.returncode == 2 and "scan with --signatures, or pass --bundle" in missing.stderr
    with_signatures = corpus_rows(suggest_rows(out, tmp_path / "corpus", tmp_path / "a.jsonl"))
    reparsed = corpus_rows(suggest_rows(plain, tmp_path / "corpus", tmp_path / "b.jsonl", "--bundle", bare))
    assert reparsed and reparsed == with_signatures
    other = run("suggest", plain, "--corpus", tmp_path / "corpus", "--bundle", FIXTURES / "demo" / "demo.min.js")
    assert other.returncode == 2 and "not the scanned bundle" in other.stderr


def test_accept_by_package_owns_exactly_the_exact_suggestions(populated: Path, scanned, tmp_path: Path) -> None:
    from_populated(populated, tmp_path)
    out, truth = scanned
    work = tmp_path / "scan"
    shutil.copytree(out, work)
    result = run("suggest", work, "--corpus", tmp_path / "corpus")
    assert result.returncode == 0, result.stderr
    assert run("gate", work).returncode == 0  # suggestions.jsonl is listed in the summary
    allowlist = tmp_path / "deps.toml"
    accepted = run("accept", work, "-a", allowlist, "--reviewer", "ci", "--on", "2026-01-02",
                   "--package", ALPHA, "--confidence", "exact")
    assert accepted.returncode == 0, accepted.stderr
    entries = tomllib.loads(allowlist.read_text())["entry"]
    # alpha's 4 callsites of its own code, and the 2 of its copy of the `validateRange` that beta
    # also ships, with alpha's code on both sides of it (docs/corpus.md, "Matching", neighbours)
    assert len(entries) == 6 and {e["package"] for e in entries} == {ALPHA}
    bare = tmp_path / "bare" / BUNDLE.name
    bare.parent.mkdir()
    shutil.copy(BUNDLE, bare)
    summary = scan(bare, tmp_path / "owned", "--allowlist", allowlist)
    assert summary["coverage"]["overall"]["owned"] == 6 and summary["stale"] == []
    projection = [
        json.loads(line)
        for line in (tmp_path / "owned" / "error-diagnostic-owner-projection.jsonl").read_text().splitlines()
    ]
    assert all(truth[row["id"]] == ALPHA for row in projection if row["owner"] == "Dependency")


def test_a_source_mapped_bundle_adds_its_node_modules_sources(tmp_path: Path) -> None:
    result = run("corpus", "add", BUNDLE, "--corpus", tmp_path / "corpus")
    assert result.returncode == 0, result.stderr
    lines = run("corpus", "list", "--corpus", tmp_path / "corpus").stdout.splitlines()
    assert [line.split("\t")[0] for line in lines] == [ALPHA, BETA]
    assert all(line.split("\t")[2] == "sourcemap" for line in lines)


def test_a_node_modules_directory_is_indexed_as_installed(tmp_path: Path) -> None:
    for name, version in ((ALPHA, "1.1.0"), (BETA, "2.0.0")):
        short = name.rsplit("-", 1)[1]
        shutil.copytree(FIXTURES / "corpus" / "packages" / short / version, tmp_path / "app" / "node_modules" / name)
    result = run("corpus", "add", tmp_path / "app", "--corpus", tmp_path / "corpus")
    assert result.returncode == 0, result.stderr
    lines = run("corpus", "list", "--corpus", tmp_path / "corpus").stdout.splitlines()
    assert lines == [f"{ALPHA}\t1.1.0\tnode_modules\tversion", f"{BETA}\t2.0.0\tnode_modules\tversion"]


def test_bad_specs_are_one_line_and_status_2(tmp_path: Path) -> None:
    for spec in ("Not A Name!", str(tmp_path / "missing.lock"), "zod@latest"):
        result = run("corpus", "add", spec, "--corpus", tmp_path / "corpus", env=npm_env(tmp_path, UNREACHABLE))
        assert result.returncode == 2 and result.stderr.count("\n") == 1 and "Traceback" not in result.stderr, spec
    assert not (tmp_path / "corpus" / SUMMARY).exists()


def test_the_corpus_fixture_is_what_its_build_script_makes(tmp_path: Path) -> None:
    copy = tmp_path / "fixtures" / "corpus"
    shutil.copytree(FIXTURES / "corpus", copy, ignore=shutil.ignore_patterns(".build"))
    for built in [copy / "app.min.js", copy / "app.min.js.map", *(copy / "tarballs").iterdir()]:
        built.unlink()
    (tmp_path / "fixtures" / "node_modules").symlink_to(FIXTURES / "node_modules")
    subprocess.run([sys.executable, str(copy / "build.py")], check=True, timeout=300)
    assert tree_bytes(copy) == tree_bytes(FIXTURES / "corpus")


def test_signatures_are_the_same_for_any_jobs_and_only_when_asked(tmp_path: Path) -> None:
    scan(BUNDLE, tmp_path / "one", "--signatures", "--jobs", "1")
    scan(BUNDLE, tmp_path / "two", "--signatures", "--jobs", "2")
    scan(BUNDLE, tmp_path / "none")
    assert tree_bytes(tmp_path / "one") == tree_bytes(tmp_path / "two")
    assert (tmp_path / "one" / "function-signatures.jsonl").read_bytes()
    assert not (tmp_path / "none" / "function-signatures.jsonl").exists()
    python = run("scan", FIXTURES / "python", "--out", tmp_path / "py", "--signatures")
    assert python.returncode == 2 and "--signatures is for JavaScript" in python.stderr


def test_a_scan_directory_given_to_for_is_known_by_its_summarys_bundle_hash(tmp_path: Path) -> None:
    """`corpus add --for SCANDIR`: the bundle is the one the summary names; a directory without a
    readable summary is refused, naming it."""
    import orjson

    from analyzer.errors import InputError
    from analyzer.owners.corpus.window import target_of

    demo = Path(__file__).resolve().parent.parent / "reports" / "demo"
    summary = orjson.loads((demo / "error-diagnostic-owner-summary.json").read_bytes())
    target = target_of(demo)
    assert target.sha256s == (summary["inputs"]["bundle"]["sha256"],) and target.scan == demo
    with pytest.raises(InputError, match="not a scan directory"):
        target_of(tmp_path)


def test_a_bundle_is_known_by_the_nearest_package_json_that_names_a_package(tmp_path: Path) -> None:
    """`corpus add --for BUNDLE`: a package.json without a name only sets its folder's module type
    (`{"type": "commonjs"}` beside mathjs's `lib/browser/math.js`); the package is the one above. A
    package.json with a name but no version stops the look: nothing is named."""
    from analyzer.owners.corpus.window import target_of

    package = tmp_path / "package"
    (package / "lib" / "browser").mkdir(parents=True)
    (package / "package.json").write_text('{"name": "some-lib", "version": "1.2.3"}')
    (package / "lib" / "browser" / "package.json").write_text('{"type": "commonjs"}')
    bundle = package / "lib" / "browser" / "lib.js"
    bundle.write_text("module.exports = 1;\n")
    assert target_of(bundle).package == ("some-lib", "1.2.3", str((package / "package.json").resolve()))
    (package / "lib" / "package.json").write_text('{"name": "private-app"}')
    assert target_of(bundle).package is None


def test_for_a_scan_without_signatures_is_refused_before_any_fetch(registry: LocalRegistry, tmp_path: Path) -> None:
    """`corpus add NAMES --for SCANDIR` of a scan made without --signatures fetched and indexed every
    name (opencode's 252: twelve minutes) and then refused the scan; with --before the window is
    given and the scan is not read for it."""
    scan(BUNDLE, tmp_path / "out")
    code, err = corpus_add(tmp_path, registry.url, ALPHA, "--for", tmp_path / "out")
    assert code == 2
    assert err == (f"erratlas: error: {tmp_path / 'out' / 'function-signatures.jsonl'}: no function signatures: "
                   "scan the bundle with --signatures\n")
    assert not (tmp_path / "corpus").exists()
    code, err = corpus_add(tmp_path, registry.url, ALPHA, "--for", tmp_path / "out", "--before", "2024-03-01")
    assert code == 0, err
