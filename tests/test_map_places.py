"""Issue 21, point 3: a map's truth is never a guess. Product means a source inside the bundle's
own package (the nearest package.json above it); a source outside it is a dependency's only
when its own package.json or a dependency's name says so (`likely`), else Unresolved
(docs/modules.md, "Places"). Driven through the CLI on fixtures/monorepo (two workspace
packages bundled by esbuild, whose map names the sibling's sources ../../transport/src/...)
and on real bundles with sibling-path sources (socket.io-client 4.8.4, pixi.js 7.4.2)."""

from __future__ import annotations

import base64
import json
import shutil
import tarfile
from pathlib import Path, PurePosixPath

import pytest
from conftest import FIXTURES, SUMMARY, records, run, scan

from analyzer.model import PackageRoot
from analyzer.places import place_sources

MONOREPO = FIXTURES / "monorepo"
APP = MONOREPO / "packages" / "app"
BUNDLE = APP / "dist" / "app.min.js"
SIBLING = "../../transport/src/transport.js"
SHARED = "../../../shared/strings.js"


def suggested(out: Path, *extra: object) -> tuple[list[dict], str]:  # type: ignore[type-arg]
    result = run("suggest", out, *extra)
    assert result.returncode == 0, result.stderr
    return [json.loads(line) for line in (out / "suggestions.jsonl").read_text().splitlines()], result.stderr


def sources_of(out: Path, row: dict) -> set[str]:  # type: ignore[type-arg]
    by_id = {r["id"]: r for r in records(out, "error") + records(out, "diagnostic")}
    return {by_id[i]["origin"]["source"] for i in row["exampleIds"] if by_id[i]["origin"]}


def places(out: Path) -> dict[str, dict]:  # type: ignore[type-arg]
    return {row["source"]: row for row in map(json.loads, (out / "map-sources.jsonl").read_text().splitlines())}


def test_the_monorepo_map_places_sibling_sources_outside_the_package(tmp_path: Path) -> None:
    summary = scan(BUNDLE, tmp_path / "out")
    (used,) = summary["modules"]["sourceMaps"]  # type: ignore[index]
    assert used["packageRoot"]["path"] == ".." and used["packageRoot"]["name"] == "@erratlas-fixture/app"
    assert used["places"] == {"package": 1, "node_modules": 0, "outside": 2, "unplaced": 0}
    found = places(tmp_path / "out")
    assert found["../src/index.js"]["place"] == "package"
    assert found[SIBLING]["place"] == "outside" and found[SIBLING]["package"] == "@erratlas-fixture/transport"
    assert "../transport/package.json names @erratlas-fixture/transport" in found[SIBLING]["evidence"]
    assert found[SHARED] == {**found[SHARED], "place": "outside", "package": None, "path": "../../shared/strings.js"}


def test_sibling_sources_get_no_product_suggestion(tmp_path: Path) -> None:
    """In the checkout: the sibling's own package.json names it; the shared directory names no
    package and stays Unresolved, with a warning saying where it lies."""
    out = tmp_path / "out"
    scan(BUNDLE, out)
    rows, stderr = suggested(out)
    product = [r for r in rows if r["owner"] == "Product"]
    assert product and all(sources_of(out, r) == {"../src/index.js"} for r in product)
    sibling = [r for r in rows if SIBLING in sources_of(out, r)]
    assert sibling and all(r["owner"] == "Dependency" and r["package"] == "@erratlas-fixture/transport"
                           and r["confidence"] == "likely" for r in sibling)
    assert all(any(e["kind"] == "package-root" for e in r["evidence"]) for r in sibling)
    assert not [r for r in rows if SHARED in sources_of(out, r)]
    assert "1 of its map's 3 sources lies outside the package root" in stderr and "../../shared/ (1)" in stderr


def test_the_package_alone_names_its_sibling_by_its_dependency(tmp_path: Path) -> None:
    """The app as npm ships it (package.json and dist/ only): the sibling's package.json is out of
    reach, and the path's directory `transport` is the unscoped name of its dependency."""
    package = tmp_path / "node_modules" / "@erratlas-fixture" / "app"
    (package / "dist").mkdir(parents=True)
    shutil.copy(APP / "package.json", package / "package.json")
    for name in ("app.min.js", "app.min.js.map"):
        shutil.copy(APP / "dist" / name, package / "dist" / name)
    out = tmp_path / "out"
    scan(package / "dist" / "app.min.js", out)
    assert "unscoped name of @erratlas-fixture/transport" in places(out)[SIBLING]["evidence"]
    rows, _ = suggested(out)
    assert {(r["owner"], r["package"]) for r in rows if SIBLING in sources_of(out, r)} == {
        ("Dependency", "@erratlas-fixture/transport")}
    assert all(sources_of(out, r) == {"../src/index.js"} for r in rows if r["owner"] == "Product")


def test_a_bundle_in_no_package_has_no_product(tmp_path: Path) -> None:
    """No package.json above the bundle: nothing can be inside the package, so the map gives no
    owner at all, and says why."""
    alone = tmp_path / "alone"
    alone.mkdir()
    for name in ("app.min.js", "app.min.js.map"):
        shutil.copy(APP / "dist" / name, alone / name)
    if any((parent / "package.json").exists() for parent in alone.parents):
        pytest.skip("a package.json above the temporary directory")
    out = tmp_path / "out"
    summary = scan(alone / "app.min.js", out)
    assert summary["modules"]["sourceMaps"][0]["packageRoot"] is None  # type: ignore[index]
    rows, stderr = suggested(out)
    assert rows == [] and "places none of its 3 sources in a package" in stderr
    assert "no package.json above the bundle" in stderr


def test_a_reviewer_may_state_that_outside_sources_are_the_products(tmp_path: Path) -> None:
    out = tmp_path / "out"
    scan(BUNDLE, out)
    rows, stderr = suggested(out, "--product-sources", "../../shared")
    shared = [r for r in rows if SHARED in sources_of(out, r)]
    assert shared and all(r["owner"] == "Product" and r["confidence"] == "likely" for r in shared)
    assert all({"kind": "product-sources", "detail": "../../shared (stated with suggest --product-sources)"}
               in r["evidence"] for r in shared)
    assert "../../shared/" not in stderr
    # a statement never turns a source a package is named for into the product's
    rows, _ = suggested(out, "--product-sources", "../transport")
    assert all(r["owner"] == "Dependency" for r in rows if SIBLING in sources_of(out, r))


def test_the_demo_maps_keep_their_owners(tmp_path: Path) -> None:
    """fixtures/package.json is the demo's package root: ../src/ is inside it, ../node_modules/
    a dependency's, and the webpack build's `webpack://erratlas-fixtures/` names that package."""
    for bundle in ("demo.min.js", "demo.webpack.min.js"):
        out = tmp_path / bundle
        scan(FIXTURES / "demo" / bundle, out)
        summary = json.loads((out / SUMMARY).read_text())
        (used,) = summary["modules"]["sourceMaps"]
        assert used["packageRoot"]["name"] == "erratlas-fixtures" and used["places"]["outside"] == 0
        assert used["places"]["unplaced"] == 0 and used["places"]["package"] > 0


# ---- files of a directory or an archive: their inline maps --------------------------------


def inline_package(root: Path, manifest: bool = True) -> Path:
    """The app as npm packs it (package/package.json, package/dist/app.min.js), its map inline."""
    package = root / "package"
    (package / "dist").mkdir(parents=True)
    if manifest:
        shutil.copy(APP / "package.json", package / "package.json")
    code = BUNDLE.read_bytes().replace(b"sourceMappingURL=app.min.js.map", b"sourceMappingURL=data:application/json;"
                                       b"base64," + base64.b64encode(BUNDLE.with_suffix(".js.map").read_bytes()))
    (package / "dist" / "app.min.js").write_bytes(code)
    return package


def tarball(package: Path) -> Path:
    target = package.parent / "app-1.0.0.tgz"
    with tarfile.open(target, "w:gz") as archive:
        archive.add(package, arcname="package")
    return target


def test_a_tarballs_files_are_placed_against_its_package_json(tmp_path: Path) -> None:
    """`npm pack`'s tarball: the package root is package/, whose package.json names the sibling
    by its dependency (its own package.json is in no archive); the same inside the directory."""
    package = inline_package(tmp_path)
    for given, name in ((tarball(package), "archive"), (package, "directory")):
        out = tmp_path / name
        summary = scan(given, out)
        (used,) = summary["modules"]["sourceMaps"]  # type: ignore[index]
        assert used["unit"] == "dist/app.min.js" and used["map"] == "inline"
        assert used["packageRoot"]["path"] == ".." and used["packageRoot"]["name"] == "@erratlas-fixture/app"
        found = places(out)
        assert found["../src/index.js"]["place"] == "package" and found["../src/index.js"]["path"] == "src/index.js"
        assert (found[SIBLING]["place"], found[SIBLING]["package"]) == ("outside", "@erratlas-fixture/transport")
        assert (found[SHARED]["place"], found[SHARED]["package"]) == ("outside", None)
        rows, _ = suggested(out)
        product = [r for r in rows if r["owner"] == "Product"]
        assert product and all(sources_of(out, r) == {"../src/index.js"} for r in product), name
        assert {(r["owner"], r["package"]) for r in rows if SIBLING in sources_of(out, r)} == {
            ("Dependency", "@erratlas-fixture/transport")}


def test_an_archive_without_package_json_is_rooted_at_its_top(tmp_path: Path) -> None:
    package = inline_package(tmp_path, manifest=False)
    out = tmp_path / "out"
    summary = scan(tarball(package), out)
    (used,) = summary["modules"]["sourceMaps"]  # type: ignore[index]
    assert used["packageRoot"] == {"path": "..", "name": None, "sha256": None}
    found = places(out)
    assert found["../src/index.js"]["place"] == "package"
    assert (found[SIBLING]["place"], found[SIBLING]["package"]) == ("outside", None)  # no dependency to name it
    assert "the archive's root, which has no package.json" in found[SIBLING]["evidence"]


# ---- the places themselves, on trees we describe -------------------------------------------


class Tree:
    """package.json files by directory."""

    def __init__(self, manifests: dict[str, dict]) -> None:  # type: ignore[type-arg]
        self.manifests = {PurePosixPath(k): json.dumps(v).encode() for k, v in manifests.items()}

    def read(self, directory: PurePosixPath) -> bytes | None:
        return self.manifests.get(directory)


ROOT = PurePosixPath("/repo/packages/app")
OWN = PackageRoot("..", "app", "0" * 64, ("@scope/codec", "left-pad", "transport"))


def place(sources: list[str], tree: Tree | None = None, written: list[str] | None = None) -> dict[str, tuple]:  # type: ignore[type-arg]
    found = place_sources(sources, written or sources, ROOT / "dist", ROOT / "dist", (ROOT, OWN), tree or Tree({}))
    return {p.source: (p.place, p.package, p.path) for p in found}


def test_a_dependency_is_named_by_its_full_name_or_its_unscoped_name() -> None:
    found = place(["../../transport/a.js", "../../../libs/@scope/codec/b.js", "../../codec/c.js",
                   "../../transport/left-pad/d.js", "../../utils/e.js"])
    assert found["../../transport/a.js"] == ("outside", "transport", "../transport/a.js")
    assert found["../../../libs/@scope/codec/b.js"][:2] == ("outside", "@scope/codec")
    assert found["../../codec/c.js"][:2] == ("outside", "@scope/codec")
    assert found["../../transport/left-pad/d.js"][:2] == ("outside", None)  # two dependencies: neither
    assert found["../../utils/e.js"][:2] == ("outside", None)


def test_a_workspace_root_package_json_never_names_a_source() -> None:
    tree = Tree({"/repo": {"name": "monorepo"}, "/repo/packages/other": {"name": "other"},
                 "/repo/packages/same": {"name": "app"}})
    found = place(["../../../shared/a.js", "../../other/src/b.js", "../../same/c.js"], tree)
    assert found["../../../shared/a.js"][:2] == ("outside", None)
    assert found["../../other/src/b.js"][:2] == ("outside", "other")
    assert found["../../same/c.js"][:2] == ("outside", None)  # the bundle's own name elsewhere


def test_urls_absolute_paths_and_webpack_namespaces() -> None:
    written = ["webpack://app/./src/a.js", "webpack://other/./src/b.js", "https://cdn.example/c.js",
               "/repo/packages/app/src/d.js", "/elsewhere/e.js", "../node_modules/ms/index.js"]
    sources = ["src/a.js", "src/b.js", "c.js", "/repo/packages/app/src/d.js", "/elsewhere/e.js",
               "../node_modules/ms/index.js"]
    found = place(sources, written=written)
    assert found["src/a.js"] == ("package", None, "src/a.js")
    assert found["src/b.js"] == ("unplaced", None, None)
    assert found["c.js"] == ("unplaced", None, None)
    assert found["/repo/packages/app/src/d.js"] == ("package", None, "/repo/packages/app/src/d.js")
    assert found["/elsewhere/e.js"][:2] == ("outside", None)
    assert found["../node_modules/ms/index.js"] == ("node_modules", "ms", "node_modules/ms/index.js")


def test_one_source_written_two_ways_that_lie_apart_is_unplaced() -> None:
    found = place(["src/a.js", "src/a.js"], written=["webpack://app/./src/a.js", "src/a.js"])
    assert found["src/a.js"][0] == "unplaced"


# ---- real bundles nobody tuned for -----------------------------------------------------------


def _outside_product(out: Path) -> list[dict]:  # type: ignore[type-arg]
    """Suggestions that make the product of a source the map places outside its package."""
    where = places(out)
    rows, _ = suggested(out)
    return [r for r in rows if r["owner"] == "Product"
            and any(where[s]["place"] != "package" for s in sources_of(out, r))]


@pytest.mark.network
def test_socket_io_client_siblings_are_never_the_product(tmp_path: Path) -> None:
    from support import npm_cache

    out = tmp_path / "out"
    scan(npm_cache.main_file("socket.io-client", "4.8.4"), out)
    assert _outside_product(out) == []
    rows, stderr = suggested(out)
    packages = {r["package"] for r in rows if r["owner"] == "Dependency"}
    assert packages == {"engine.io-client", "socket.io-parser"}
    assert all(r["confidence"] == "likely" for r in rows if r["owner"] == "Dependency")
    assert "../engine.io-parser/ (5)" in stderr
    product = {s for r in rows if r["owner"] == "Product" for s in sources_of(out, r)}
    assert product and all(s.startswith("../build/esm/") for s in product)


@pytest.mark.network
def test_pixi_packages_are_never_the_product(tmp_path: Path) -> None:
    from support import npm_cache

    out = tmp_path / "out"
    scan(npm_cache.main_file("pixi.js", "7.4.2"), out)
    assert _outside_product(out) == []
    rows, _ = suggested(out)
    named = {r["package"] for r in rows if r["owner"] == "Dependency" and r["confidence"] == "likely"}
    assert "@pixi/core" in named and all(p.startswith("@pixi/") for p in named)


def test_a_scoped_packages_webpack_namespace_names_its_root_and_its_siblings() -> None:
    """`webpack://@scope/app/` is the scoped package's own namespace: its `./src` lies in the package
    root, its `../codec` beside it, a dependency's folder by its unscoped name."""
    own = PackageRoot("..", "@scope/app", "0" * 64, ("@scope/codec",))
    written = ["webpack://@scope/app/./src/a.js", "webpack://@scope/app/../codec/lib/b.js"]
    found = {p.source: (p.place, p.package, p.path) for p in place_sources(
        ["src/a.js", "../codec/lib/b.js"], written, ROOT / "dist", ROOT / "dist", (ROOT, own), Tree({}))}
    assert found["src/a.js"] == ("package", None, "src/a.js")
    assert found["../codec/lib/b.js"][:2] == ("outside", "@scope/codec")
