"""Compiler helpers (docs/corpus.md): code a compiler copies into many packages never names one.

Babel inlines its runtime helpers into every package it compiles without
`@babel/plugin-transform-runtime`; its `regeneratorRuntime` helper is regenerator-runtime's
`runtime.js`. @tensorflow/tfjs 4.22.0's `tf.min.js` holds such a copy at its start, which its
source map leaves unmapped (product code by the map), and the corpus claimed 3 of its callsites
for regenerator-runtime before these helpers were listed (bench/corpus_eval.py, tfjs).
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from conftest import FIXTURES

from analyzer.javascript.corpus import index_sources
from analyzer.owners.corpus.match import _HELPERS, helper_keys

HELPERS = Path(__file__).resolve().parent.parent / "analyzer" / "owners" / "corpus" / "helpers"


def _minified(source: Path) -> bytes:
    """`source` through terser (compress and mangle), as a package's build would ship it."""
    script = ("const {minify} = require(process.argv[1]); const fs = require('fs');"
              "minify(fs.readFileSync(process.argv[2], 'utf8'), {compress: true, mangle: true})"
              ".then(r => process.stdout.write(r.code));")
    return subprocess.run(["node", "-e", script, str(FIXTURES / "node_modules" / "terser"), str(source)],
                          capture_output=True, check=True).stdout


def test_every_listed_helper_is_shipped_with_its_licence() -> None:
    shipped = {p.name for p in HELPERS.glob("*.js")}
    assert set(_HELPERS) == shipped
    for family in ("tslib", "babel-runtime", "regenerator-runtime", "swc-helpers"):
        assert (HELPERS / f"LICENSE-{family}.txt").is_file()


def test_a_minified_copy_of_the_regenerator_runtime_matches_only_helpers() -> None:
    """Each distinctive function of a terser-minified regenerator-runtime (what a bundle holds
    wherever Babel inlined it) has a helper's signature, so matching never attributes it."""
    helpers = helper_keys(index_sources)
    for release in ("0.13.11", "0.14.1"):
        index = index_sources([("runtime.min.js", _minified(HELPERS / f"regenerator-runtime-{release}.js"))])
        functions = [f for f in index.functions if f.name != "<module>"]
        assert len(functions) >= 20, release
        assert all(f"{f.key:016x}" in helpers for f in functions), release
