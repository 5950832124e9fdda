"""The ways a corpus can mislead (docs/corpus.md, "Matching"), each on fixtures/corpus-classes
through the CLI: code that moved between packages, a package file that bundles another package,
ES5 classes, a version tie, a roll-up, identical copies and a copy whose package the corpus
lacks, a monorepo sibling in a package's build. Truth: the fixture bundle's own source map; the scan
has it withheld."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import FIXTURES, run, scan, tree_bytes
from support.maps import callsite_packages
from support.registry import LocalRegistry, npm_env

HERE = FIXTURES / "corpus-classes"
CORE, RETRY = "erratlas-fixture-core", "erratlas-fixture-retry"
KIT, PAINT = "erratlas-fixture-kit", "erratlas-fixture-paint"
LEGACY, TIE, APP = "erratlas-fixture-legacy", "erratlas-fixture-tie", "erratlas-fixture-classes-app"
MODERN, PARTS, UMBRELLA = "erratlas-fixture-modern", "erratlas-fixture-parts", "erratlas-fixture-umbrella"
TWIN, HOST = "erratlas-fixture-twin", "erratlas-fixture-host"
CODEC, SIGNER = "erratlas-fixture-codec", "erratlas-fixture-signer"
GRAMMAR, LEXER = "erratlas-fixture-grammar", "erratlas-fixture-lexer"
GRID, CLUSTERS = "erratlas-fixture-grid", "erratlas-fixture-clusters"
#: the bundled versions come out in January, the app on 1 March, the rewrites in June
TIMES = {
    f"{CORE}@1.0.0": "2024-01-01T00:00:00.000Z", f"{RETRY}@1.0.0": "2024-01-02T00:00:00.000Z",
    f"{PAINT}@1.0.0": "2024-01-03T00:00:00.000Z", f"{KIT}@1.0.0": "2024-01-04T00:00:00.000Z",
    f"{LEGACY}@1.0.0": "2024-01-05T00:00:00.000Z", f"{TIE}@1.0.0": "2024-01-06T00:00:00.000Z",
    f"{TIE}@1.0.1": "2024-01-07T00:00:00.000Z", f"{TIE}@1.0.2": "2024-01-08T00:00:00.000Z",
    f"{MODERN}@1.0.0": "2024-01-09T00:00:00.000Z", f"{PARTS}@1.0.0": "2024-01-10T00:00:00.000Z",
    f"{UMBRELLA}@1.0.0": "2024-01-11T00:00:00.000Z", f"{TWIN}@1.0.0": "2024-01-12T00:00:00.000Z",
    f"{HOST}@1.0.0": "2024-01-13T00:00:00.000Z", f"{CODEC}@1.0.0": "2024-01-14T00:00:00.000Z",
    f"{SIGNER}@1.0.0": "2024-01-15T00:00:00.000Z", f"{LEXER}@1.0.0": "2024-01-16T00:00:00.000Z",
    f"{GRAMMAR}@1.0.0": "2024-01-17T00:00:00.000Z", f"{GRID}@1.0.0": "2024-01-18T00:00:00.000Z",
    f"{CLUSTERS}@1.0.0": "2024-01-19T00:00:00.000Z",
    f"{APP}@1.0.0": "2024-03-01T00:00:00.000Z", f"{UMBRELLA}@1.0.1": "2024-03-01T12:00:00.000Z",
    f"{CORE}@2.0.0": "2024-06-01T00:00:00.000Z", f"{RETRY}@2.0.0": "2024-06-02T00:00:00.000Z",
    f"{PAINT}@2.0.0": "2024-06-03T00:00:00.000Z",
}
NAMES = (CORE, RETRY, KIT, PAINT, LEGACY, MODERN, PARTS, UMBRELLA, TIE, TWIN, GRAMMAR, LEXER, GRID, CLUSTERS)


@pytest.fixture(scope="module")
def registry() -> Iterator[LocalRegistry]:
    with LocalRegistry(TIMES, HERE / "tarballs") as served:
        yield served


@pytest.fixture(scope="module")
def scanned(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str | None]]:
    """The bundle scanned with its map withheld (--signatures), and the map's truth by callsite id."""
    base = tmp_path_factory.mktemp("classes")
    (base / "bare").mkdir()
    shutil.copy(HERE / "app.min.js", base / "bare" / "app.min.js")
    scan(base / "bare" / "app.min.js", base / "out", "--signatures")
    scan(HERE / "app.min.js", base / "truth")
    return base / "out", callsite_packages(base / "truth", ("error",))


def suggestions(registry: LocalRegistry, scanned: tuple[Path, dict[str, str | None]], home: Path,
                *add: object, names: tuple[str, ...] = NAMES) -> tuple[dict[str, dict[str, object]], str]:
    """Corpus suggestions by callsite id after `corpus add NAMES... *add`, and suggest's stderr."""
    result = run("corpus", "add", *names, *add, "--corpus", home / "corpus", "-j", "1",
                 env=npm_env(home, registry.url))
    assert result.returncode == 0, result.stderr
    out, _ = scanned
    suggested = run("suggest", out, "--corpus", home / "corpus", "--out", home / "s.jsonl")
    assert suggested.returncode == 0, suggested.stderr
    rows = [json.loads(line) for line in (home / "s.jsonl").read_text().splitlines()]
    by_id = {i: row for row in rows if str(row["id"]).startswith("c:") for i in row["exampleIds"]}  # type: ignore[attr-defined]
    return by_id, result.stderr + suggested.stderr


@pytest.fixture(scope="module")
def every_version(registry: LocalRegistry, scanned, tmp_path_factory: pytest.TempPathFactory  # type: ignore[no-untyped-def]
                  ) -> dict[str, dict[str, object]]:
    """The suggestions of a corpus of every version of the names (no window), shared by the tests
    that need nothing else."""
    rows, _ = suggestions(registry, scanned, tmp_path_factory.mktemp("every-version"))
    return rows


@pytest.fixture(scope="module")
def newest_only(registry: LocalRegistry, scanned, tmp_path_factory: pytest.TempPathFactory  # type: ignore[no-untyped-def]
                ) -> dict[str, dict[str, object]]:
    """The suggestions of a corpus of the newest version of each name (`--candidates 1`), shared
    by the tests that need nothing else (read only)."""
    rows, _ = suggestions(registry, scanned, tmp_path_factory.mktemp("newest-only"), "--candidates", "1")
    return rows


def exact(rows: dict[str, dict[str, object]]) -> dict[str, object]:
    return {i: r["package"] for i, r in rows.items() if r["confidence"] == "exact"}


def wrong(rows: dict[str, dict[str, object]], truth: dict[str, str | None]) -> dict[str, tuple[object, object]]:
    return {i: (p, truth.get(i)) for i, p in exact(rows).items() if truth.get(i) != p}


def of(truth: dict[str, str | None], package: str) -> set[str]:
    return {i for i, p in truth.items() if p == package}


def test_the_fixture_bundles_every_class(scanned) -> None:
    _, truth = scanned
    for package in (CORE, RETRY, PAINT, KIT, LEGACY, MODERN, PARTS, TIE, TWIN, CODEC, SIGNER, GRAMMAR, LEXER, GRID):
        assert of(truth, package), package


def test_code_that_moved_to_a_sibling_is_never_claimed_for_the_package_that_absorbed_it(
        newest_only, scanned) -> None:
    """Names alone, newest only: retry 1.0.0's functions are in no retry version of the corpus, only
    in core 2.0.0's submodules/fixture-retry/; a hit there names retry as well, so core is never
    claimed for them (recall lost, precision kept)."""
    _, truth = scanned
    rows = newest_only
    assert not wrong(rows, truth)
    assert of(truth, RETRY) and not of(truth, RETRY) & set(exact(rows))
    assert of(truth, CORE) <= set(exact(rows))  # core's own code, the same in both versions


def test_the_bundles_window_found_from_its_package_picks_the_versions_it_was_built_with(
        registry: LocalRegistry, scanned, tmp_path: Path) -> None:
    _, truth = scanned
    rows, said = suggestions(registry, scanned, tmp_path, "--for", HERE / "tarballs" / f"{APP}-1.0.0.tgz")
    assert f"the publish time of {APP}@1.0.0" in said
    assert "the bundle's window: before 2024-03-01" in said
    # recorded under the sha256 of the tarball's files, so suggest on the scanned app.min.js uses it
    assert "the bundle's window (recorded by corpus add --for): before 2024-03-01" in said
    assert not wrong(rows, truth)
    assert of(truth, RETRY) <= set(exact(rows))


def test_a_package_file_that_bundles_another_names_the_inner_package(newest_only, scanned) -> None:
    """kit's index.js carries paint 1.0.0; the corpus holds only paint 2.0.0, rewritten. kit's own
    source map places those functions in paint: a match there names paint and kit, and is never
    claimed for kit alone (nor for paint alone: a bundle may hold kit's copy)."""
    _, truth = scanned
    rows = newest_only
    assert not wrong(rows, truth)
    named = [rows[i] for i in of(truth, PAINT) if i in rows]
    assert named and all(r["package"] is None and {PAINT, KIT} <= set(r["candidates"]) for r in named)  # type: ignore[arg-type]
    # kit's own code sits between the two copies of paint: naming paint alone on both sides, it is
    # not claimed (docs/corpus.md, "Matching": code between another package's code)
    assert all(KIT in rows[i]["candidates"] for i in of(truth, KIT) if i in rows)  # type: ignore[operator]
    evidence = " ".join(str(r["evidence"]) for r in named)
    assert f"(in {KIT}@1.0.0)" in evidence and "<- node_modules/erratlas-fixture-paint/index.js" in evidence
    assert f"its file's own map places it in {PAINT}" in evidence


def test_es5_classes_are_matched(every_version, scanned) -> None:
    """legacy ships ES5 as the bundle holds it; modern ships ES2015 classes and the bundle holds
    Babel's ES5 output of them (methods as `{key: "add", value: function (n) {...}}`, `_typeof(n) ===
    "object"`, `arguments.length > 1 && ...` for a default): the index holds each method as Babel
    writes it (docs/corpus.md, "ES5 output")."""
    out, truth = scanned
    rows = every_version
    assert of(truth, LEGACY) and of(truth, LEGACY) <= set(exact(rows))
    # the map places Babel's inlined helpers in modern's file too: compiler runtime, never matched
    messages = {json.loads(line)["id"]: json.loads(line)["message"]["comparisonKey"]
                for line in (out / "error-message-callsites.jsonl").read_text().splitlines()}
    own = {i for i in of(truth, MODERN) if "frame decoder" in messages[i]}
    assert len(own) == 4 and own <= set(exact(rows))
    assert not wrong(rows, truth)


def test_a_roll_up_leaves_the_function_to_the_package_whose_own_sources_hold_it(every_version, scanned) -> None:
    """umbrella's dist/umbrella.js rolls up parts' five modules (no wrappers, no map): each of
    parts' functions is in both packages, and parts' own file decides (docs/corpus.md, "Matching",
    roll-ups)."""
    _, truth = scanned
    rows = every_version
    ids = of(truth, PARTS)
    assert len(ids) >= 8 and ids <= set(exact(rows))
    assert not wrong(rows, truth)
    for i in ids:
        assert "dist/umbrella.js" in str(rows[i]["evidence"]) and "a roll-up of other files' code" in \
            str(rows[i]["evidence"]), rows[i]["evidence"]


def test_a_roll_up_published_after_the_window_leaves_the_function_to_its_package(
        registry: LocalRegistry, scanned, tmp_path: Path) -> None:
    """umbrella 1.0.1, the same roll-up, comes out hours after the app: inside the day `corpus add
    --for` takes in, late for `suggest`. Its late roll-up is still a roll-up: it leaves parts'
    functions to parts, as 1.0.0's does (docs/corpus.md, "Matching", roll-ups and the window)."""
    _, truth = scanned
    package = tmp_path / "package"  # the bundle where its npm package puts it: the window is recorded for it
    package.mkdir()
    shutil.copy(HERE / "app.min.js", package / "app.min.js")
    (package / "package.json").write_text(json.dumps({"name": APP, "version": "1.0.0"}))
    rows, said = suggestions(registry, scanned, tmp_path, "--for", package / "app.min.js")
    assert "; 1 of " in said and "corpus versions published after it decide nothing" in said, said
    ids = of(truth, PARTS)
    assert len(ids) >= 8 and ids <= set(exact(rows))
    assert not wrong(rows, truth)


def test_identical_copies_are_exact_where_the_code_beside_them_names_their_package(every_version, scanned) -> None:
    """twin is bundled twice (its own copy, and host's nested one): each callsite has an identical
    copy, in no bundler module. Every copy's function names twin alone and so does the function
    beside it: the copies are claimed together (docs/corpus.md, "Matching", copies)."""
    out, truth = scanned
    records = [json.loads(line) for line in (out / "error-message-callsites.jsonl").read_text().splitlines()]
    ids = of(truth, TWIN)
    assert len(ids) == 6 and all(r["copies"]["count"] == 2 for r in records if r["id"] in ids)
    rows = every_version
    copies = {r["match"]["callsite"]: r for r in rows.values() if r.get("copies")}  # type: ignore[union-attr]
    claimed = {i for r in copies.values() if r["package"] == TWIN and r["confidence"] == "exact"
               for i in r["exampleIds"]}  # type: ignore[attr-defined]
    assert claimed == ids
    assert all("names erratlas-fixture-twin alone too" in str(r["evidence"]) for r in copies.values()
               if r["package"] == TWIN)
    assert not wrong(rows, truth)


def test_a_copy_is_never_claimed_for_the_package_that_ships_it_when_the_corpus_lacks_its_own(
        registry: LocalRegistry, scanned, tmp_path: Path) -> None:
    """signer's lib/headers.js copies codec's header code, and the app bundles both; the corpus has
    signer, not codec. codec's bundler module holds the copied functions (naming signer alone) and
    codec's own, which name no corpus package: it is not identified as signer, and neither the copy
    nor codec's other callsites are claimed for signer (docs/corpus.md, "Matching", a module that is
    a file of its package). With codec in the corpus, codec's callsites are its own again."""
    _, truth = scanned
    rows, _ = suggestions(registry, scanned, tmp_path / "without", names=(*NAMES, SIGNER))
    assert not wrong(rows, truth)
    assert of(truth, CODEC) and not of(truth, CODEC) & set(exact(rows))
    # the copied functions in codec's module name signer alone: `possible`, the reason says why
    copied = [rows[i] for i in of(truth, CODEC) if i in rows]
    assert copied and all(r["confidence"] == "possible" and r["package"] == SIGNER for r in copied)
    assert all("distinctive functions that no corpus package holds" in str(r["reason"]) for r in copied)
    own = of(truth, SIGNER)
    assert own and own & set(exact(rows))
    rows, _ = suggestions(registry, scanned, tmp_path / "with", names=(*NAMES, SIGNER, CODEC))
    assert not wrong(rows, truth)
    assert of(truth, CODEC) & set(exact(rows))


def test_a_siblings_code_in_a_packages_build_is_never_claimed_for_that_package(
        registry: LocalRegistry, scanned, every_version, tmp_path: Path) -> None:
    """grammar's dist/grammar.mjs carries lexer's code under `// ../erratlas-fixture-lexer/index.js`
    (esbuild in a workspace): a path comment that leaves the package, into the directory of a
    dependency grammar declares, places it in lexer. Without lexer in the corpus, its callsites name
    grammar and lexer and are never claimed; with lexer, its own file decides (docs/corpus.md,
    "Matching", 11)."""
    _, truth = scanned
    rows, _ = suggestions(registry, scanned, tmp_path, names=tuple(n for n in NAMES if n != LEXER))
    assert not wrong(rows, truth)
    named = [rows[i] for i in of(truth, LEXER) if i in rows]
    assert named and all(r["package"] is None and {LEXER, GRAMMAR} <= set(r["candidates"]) for r in named)  # type: ignore[arg-type]
    assert "<- node_modules/erratlas-fixture-lexer/index.js" in " ".join(str(r["evidence"]) for r in named)
    assert of(truth, GRAMMAR) and of(truth, GRAMMAR) <= set(exact(rows))  # grammar's own code stays its own
    assert of(truth, LEXER) <= set(exact(every_version))
    assert not wrong(every_version, truth)


def test_a_declared_dependency_carried_in_a_packages_builds_is_that_dependencys(every_version, scanned) -> None:
    """clusters declares grid and carries it in dist/clusters.mjs (its map places that code in
    grid) and in the minified dist/clusters.js (no map: a twin build of the mapped part). Both are
    grid's code copied, as a roll-up's: grid's own file decides (docs/corpus.md, "Matching", 12)."""
    _, truth = scanned
    rows = every_version
    ids = of(truth, GRID)
    assert len(ids) >= 6 and ids <= set(exact(rows))
    assert not wrong(rows, truth)
    for i in ids:
        evidence = str(rows[i]["evidence"])
        assert "dist/clusters.js <- ../node_modules/erratlas-fixture-grid/index.js" in evidence \
            or "dist/clusters.mjs <- ../node_modules/erratlas-fixture-grid/index.js" in evidence, evidence


def test_a_declared_dependency_carried_in_a_packages_builds_is_never_claimed_for_that_package(
        registry: LocalRegistry, scanned, tmp_path: Path) -> None:
    """Without grid in the corpus, clusters' copies of grid's code name both packages: no claim
    (docs/corpus.md, "Matching", 12)."""
    _, truth = scanned
    rows, _ = suggestions(registry, scanned, tmp_path, names=tuple(n for n in NAMES if n != GRID))
    assert not wrong(rows, truth)
    named = [rows[i] for i in of(truth, GRID) if i in rows]
    assert len(named) >= 6 and all(r["package"] is None and {GRID, CLUSTERS} <= set(r["candidates"])  # type: ignore[arg-type]
                                   for r in named)


def test_a_version_tie_names_the_range(every_version, scanned) -> None:
    _, truth = scanned
    rows = every_version
    ids = of(truth, TIE)
    assert ids and ids <= set(exact(rows))
    for i in ids:
        assert "1.0.0, 1.0.1 and 1.0.2 match equally" in str(rows[i]["evidence"]), rows[i]["evidence"]


def test_the_fixture_is_what_its_build_script_makes(tmp_path: Path) -> None:
    copy = tmp_path / "fixtures" / "corpus-classes"
    shutil.copytree(HERE, copy, ignore=shutil.ignore_patterns(".build"))
    for built in [copy / "app.min.js", copy / "app.min.js.map", *(copy / "tarballs").iterdir()]:
        built.unlink()
    (tmp_path / "fixtures" / "node_modules").symlink_to(FIXTURES / "node_modules")
    subprocess.run([sys.executable, str(copy / "build.py")], check=True, timeout=300)
    assert tree_bytes(copy) == tree_bytes(HERE)


def test_explain_says_which_corpus_function_came_nearest(registry: LocalRegistry, scanned, tmp_path: Path) -> None:
    """Only paint 2.0.0 in the corpus: its paint() keeps 1.0.0's message with another body. explain
    --corpus names where the message is, the function nearest above it and how it differs; for a
    message no version holds, it says the package is not in the corpus."""
    out, truth = scanned
    result = run("corpus", "add", PAINT, "--candidates", "1", "--corpus", tmp_path / "corpus", "-j", "1",
                 env=npm_env(tmp_path, registry.url))
    assert result.returncode == 0, result.stderr
    records = {json.loads(line)["id"]: json.loads(line)
               for line in (out / "error-message-callsites.jsonl").read_text().splitlines()}
    strip = [i for i in of(truth, PAINT) if "unknown colour" in records[i]["message"]["comparisonKey"]]
    hex_ = [i for i in of(truth, PAINT) if "hexToAnsi" in records[i]["message"]["comparisonKey"]]
    assert strip and hex_
    told = run("explain", out, strip[0], "--corpus", tmp_path / "corpus")
    assert told.returncode == 0, told.stderr
    assert "equals no corpus function" in told.stdout
    assert f"the message is in {PAINT}@2.0.0 index.js:" in told.stdout
    assert "the nearest distinctive function above it, paint" in told.stdout and "differs from the bundle's" \
        in told.stdout
    told = run("explain", out, hex_[0], "--corpus", tmp_path / "corpus")
    assert told.returncode == 0, told.stderr
    assert "no corpus version holds its message text" in told.stdout
    bad = run("explain", out, strip[0], "--corpus", tmp_path / "nothing")
    assert bad.returncode == 2 and "not a corpus" in bad.stderr and "Traceback" not in bad.stderr


BUILD = b"""// ../src/own.js
function ownCheck(options) {
  if (!options.value) throw new Error("own: the option value is missing from " + options.name);
  return options.value.length;
}

// ../lexer/lib/tokens.js
function lexerCheck(token) {
  if (!token.image) throw new SyntaxError("lexer: the token has no image at offset " + token.offset);
  return token.kind + token.category;
}

// ../shared/lib/text.js
function sharedCheck(text) {
  if (!text.trim) throw new TypeError("shared: expected a string, got " + typeof text + " in " + text.source);
  return text.trim();
}

// ../pkg/lib/more.js
function moreCheck(entry) {
  if (!entry.name) throw new Error("more: the entry has no name among " + entry.keys.join(", "));
  return entry.name;
}
"""


def _placed(files: dict[str, bytes], manifest: dict[str, object]) -> tuple[dict[str, str], object]:
    """Function name -> the index file holding it, for a package of `files` and `manifest`."""
    from analyzer.javascript.corpus import index_sources
    from analyzer.owners.corpus.index import describe
    from analyzer.signatures import DESCRIPTION

    index = index_sources([(DESCRIPTION, describe(json.dumps(manifest).encode(), [*files, "package.json"])),
                           *files.items()], lowerings=())
    return {f.name: index.files[f.file] for f in index.functions if f.name != "<module>"}, index


def test_a_path_comment_that_leaves_the_package_names_the_declared_dependency_of_that_directory() -> None:
    """docs/corpus.md, "Matching", 11: `../lexer/` is the directory of the declared `@scope/lexer`;
    `../shared/` is no declared dependency's: nobody's code, a bundle file's."""
    placed, index = _placed({"dist/build.mjs": BUILD, "lib/own.js": b"export const x = 1;\n"},
                            {"name": "@scope/pkg", "dependencies": {"@scope/lexer": "1.0.0", "other": "2.0.0"}})
    assert placed["lexerCheck"] == "dist/build.mjs <- node_modules/@scope/lexer/lib/tokens.js"
    assert placed["sharedCheck"] == "dist/build.mjs <- ../shared/lib/text.js"
    files = index.files  # type: ignore[attr-defined]
    assert index.siblings == {files.index(placed["lexerCheck"])}  # type: ignore[attr-defined]
    assert index.bundles == {files.index(placed["sharedCheck"])}  # type: ignore[attr-defined]


def test_a_path_comment_into_the_packages_own_files_stays_its_own() -> None:
    """A bundler run from a subdirectory writes `../src/own.js`: the tarball ships its compiled twin
    `lib/own.js`, so it is the package's own code; `../pkg/` is the package's own directory."""
    placed, _ = _placed({"dist/build.mjs": BUILD, "lib/own.js": b"export const x = 1;\n"},
                        {"name": "@scope/pkg", "dependencies": {"@scope/lexer": "1.0.0"}})
    assert placed["ownCheck"] == "dist/build.mjs" and placed["moreCheck"] == "dist/build.mjs"
    placed, _ = _placed({"dist/build.mjs": BUILD}, {"name": "other"})  # no twin, not its directory
    assert placed["ownCheck"] == "dist/build.mjs <- ../src/own.js"
    assert placed["moreCheck"] == "dist/build.mjs <- ../pkg/lib/more.js"


def test_nobodys_code_is_nobodys_in_the_packages_other_builds_too() -> None:
    """A minified build without comments holds the same function: it is nobody's there as well."""
    twin = BUILD.split(b"// ../shared/lib/text.js\n")[1].split(b"\n\n")[0]
    _, index = _placed({"dist/build.mjs": BUILD, "dist/other.js": twin}, {"name": "pkg"})
    rows = [index.files[f.file] for f in index.functions if f.name == "sharedCheck"]  # type: ignore[attr-defined]
    assert rows == ["dist/build.mjs <- ../shared/lib/text.js", "dist/other.js <- ../shared/lib/text.js"]


def test_a_twin_build_of_a_declared_dependencys_part_is_that_dependencys_part_too() -> None:
    """A minified build without map or comments that holds at least half of the functions that a
    mapped or commented build places in a declared dependency holds them as that dependency's
    code too (docs/corpus.md, "Matching", 12); a file holding one of them does not."""
    part = BUILD.split(b"// ../lexer/lib/tokens.js\n")[1].split(b"\n\n")[0]
    two = part + b"\nfunction lexerMore(token) {\n  if (!token.kind) throw new SyntaxError(\"lexer: the token " \
        b"has no kind at offset \" + token.offset);\n  return token.kind + token.image;\n}\n"
    build = BUILD.replace(part, two)
    manifest = {"name": "@scope/pkg", "dependencies": {"@scope/lexer": "1.0.0"}}
    _, index = _placed({"dist/build.mjs": build, "dist/twin.js": two, "lib/one.js": part}, manifest)
    rows = sorted({index.files[f.file] for f in index.functions if f.name.startswith("lexer")})  # type: ignore[attr-defined]
    assert rows == ["dist/build.mjs <- node_modules/@scope/lexer/lib/tokens.js",
                    "dist/twin.js <- node_modules/@scope/lexer/lib/tokens.js", "lib/one.js"]
    files = index.files  # type: ignore[attr-defined]
    assert {files[i] for i in index.siblings} == set(rows[:2])  # type: ignore[attr-defined]
