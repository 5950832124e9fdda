"""Compiler runtime code (docs/corpus.md): code a compiler copies into many packages never names one.

Babel inlines its runtime helpers into every package it compiles without
`@babel/plugin-transform-runtime`; its `regeneratorRuntime` helper is regenerator-runtime's
`runtime.js`. @tensorflow/tfjs 4.22.0's `tf.min.js` holds such a copy at its start, which its
source map leaves unmapped (product code by the map), and the corpus claimed 3 of its callsites
for regenerator-runtime before this code was shipped as data (bench/corpus_eval.py, tfjs).
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from conftest import FIXTURES

from analyzer.javascript.corpus import index_sources
from analyzer.owners.corpus.compiler_runtime import compiler_runtime, compiler_runtime_keys

RUNTIME = Path(__file__).resolve().parent.parent / "analyzer" / "owners" / "corpus" / "data" / "compiler-runtime"


def _minified(source: Path) -> bytes:
    """`source` through terser (compress and mangle), as a package's build would ship it."""
    script = ("const {minify} = require(process.argv[1]); const fs = require('fs');"
              "minify(fs.readFileSync(process.argv[2], 'utf8'), {compress: true, mangle: true})"
              ".then(r => process.stdout.write(r.code));")
    return subprocess.run(["node", "-e", script, str(FIXTURES / "node_modules" / "terser"), str(source)],
                          capture_output=True, check=True).stdout


def test_every_file_of_the_data_folder_is_read_and_shipped_with_its_licence() -> None:
    shipped = {p.name for p in RUNTIME.glob("*.js")}
    assert {f.name for f in compiler_runtime()} == shipped and len(shipped) == 8
    readme = (RUNTIME / "README.md").read_text()
    for name in shipped:
        assert f"`{name}`" in readme, name
    for family in ("tslib", "babel-runtime", "regenerator-runtime", "swc-helpers"):
        assert (RUNTIME / f"LICENSE-{family}.txt").is_file()


def test_a_minified_copy_of_the_regenerator_runtime_matches_only_compiler_runtime_code() -> None:
    """Each distinctive function of a terser-minified regenerator-runtime (what a bundle holds
    wherever Babel inlined it) has a compiler runtime signature, so matching never attributes it."""
    runtime = compiler_runtime_keys(index_sources)
    for release in ("0.13.11", "0.14.1"):
        index = index_sources([("runtime.min.js", _minified(RUNTIME / f"regenerator-runtime-{release}.js"))])
        functions = [f for f in index.functions if f.name != "<module>"]
        assert len(functions) >= 20, release
        assert all(f"{f.key:016x}" in runtime for f in functions), release
