"""The corpus on a bundle built by another bundler than the release line's (issue 11's evaluation
on bundles nobody tuned for; bench/corpus_eval.py runs it on pdfmake, maplibre-gl, tfjs, ...):
maplibre-gl 6.20.0's `dist/maplibre-gl.mjs`, scope-hoisted by rolldown, its map withheld. The
corpus gets the package names of the map's `node_modules/` paths (what a lockfile would give),
each resolved before the release; every exact claim must agree with the map.

It also keeps two fixes on real code: rolldown folds kdbush 4.1.0's `const VERSION = 1` into
`KDBush.from`'s messages (the package index holds the folded form too, docs/corpus.md
"Constants"), and `@maplibre/geojson-vt`'s dist bundles kdbush: its 4 callsites were once
claimed for geojson-vt.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
from conftest import SUMMARY, run
from support import npm_cache
from support.maps import callsite_packages, map_package_names

pytestmark = [pytest.mark.network, pytest.mark.slow]
PACKAGE, VERSION = "maplibre-gl", "6.20.0"


def test_a_rolldown_bundle_is_owned_exactly_with_its_map_withheld(
        tmp_path: Path, release_scan, bare_release_scan) -> None:  # type: ignore[no-untyped-def]
    main = npm_cache.main_file(PACKAGE, VERSION)
    names = map_package_names(main.with_name(main.name + ".map"))
    assert "kdbush" in names and len(names) >= 15
    truth_scan = release_scan(PACKAGE, VERSION)  # beside its map: the truth
    bare = bare_release_scan(PACKAGE, VERSION)  # alone, --signatures
    assert [m["status"] for m in json.loads((bare / SUMMARY).read_text())["modules"]["sourceMaps"]] == ["none"]
    truth = callsite_packages(truth_scan)
    times = json.loads(subprocess.run(["npm", "view", PACKAGE, "time", "--json"],
                                      capture_output=True, text=True, check=True).stdout)
    added = run("corpus", "add", *names, "--corpus", tmp_path / "corpus", "--before", times[VERSION])
    assert added.returncode == 0, added.stderr
    _, exact = _suggested(bare, tmp_path)
    wrong = {i: (claimed, truth[i]) for i, claimed in exact.items() if truth[i] != claimed}
    assert not wrong, wrong  # measured: 66 of 66 right
    assert len(exact) >= 60, len(exact)
    kdbush = [i for i, package in truth.items() if package == "kdbush"]
    assert len(kdbush) >= 9 and all(exact.get(i) in (None, "kdbush") for i in kdbush)


def test_a_copy_beside_another_packages_code_is_not_claimed_for_the_package_it_copies(
        tmp_path: Path, release_scan, bare_release_scan) -> None:  # type: ignore[no-untyped-def]
    """@solana/web3.js 1.98.4's `lib/index.iife.min.js` (rollup, IIFE): @noble/curves 1.7.0's
    `abstract/utils.js` copies @noble/hashes' `hexToBytes`, which the corpus's curves versions
    (1.9.x) import instead; it sits at the start of curves' code, apart from hashes' own `utils.js`
    (docs/corpus.md, "Matching" 5, strays). Its 3 callsites were claimed for hashes."""
    package, version = "@solana/web3.js", "1.98.4"
    main = npm_cache.main_file(package, version)
    names = map_package_names(main.with_name(main.name + ".map"))
    assert {"@noble/curves", "@noble/hashes"} <= set(names)
    truth = callsite_packages(release_scan(package, version))
    bare = bare_release_scan(package, version)
    added = run("corpus", "add", *names, "--corpus", tmp_path / "corpus", "--for", main)
    assert added.returncode == 0, added.stderr
    rows, exact = _suggested(bare, tmp_path)
    wrong = {i: (claimed, truth[i]) for i, claimed in exact.items() if truth[i] != claimed}
    assert not wrong, wrong  # measured 2026-12-06: 144 of 144 right
    assert len(exact) >= 130, len(exact)
    strays = [r for r in rows if "apart from the rest of its file of @noble/hashes" in json.dumps(r["evidence"])]
    assert len(strays) == 3 and all(r["candidates"] == ["@noble/curves", "@noble/hashes"] for r in strays)


def _suggested(bare: Path, tmp_path: Path) -> tuple[list[dict[str, Any]], dict[str, str]]:
    """`suggest --corpus` on a map-less scan: its rows, and the callsites its exact claims name."""
    result = run("suggest", bare, "--corpus", tmp_path / "corpus", "--out", tmp_path / "s.jsonl")
    assert result.returncode == 0, result.stderr
    rows = [json.loads(line) for line in (tmp_path / "s.jsonl").read_text().splitlines()]
    exact = {i: r["package"] for r in rows if r["confidence"] == "exact" for i in r["exampleIds"]
             if r["id"].startswith("c:")}
    return rows, exact
