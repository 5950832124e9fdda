"""Compiler runtime code (docs/corpus.md): code a compiler copies into many packages never names one.

Babel inlines its runtime helpers into every package it compiles without
`@babel/plugin-transform-runtime`; its `regeneratorRuntime` helper is regenerator-runtime's
`runtime.js`. @tensorflow/tfjs 4.22.0's `tf.min.js` holds such a copy at its start, which its
source map leaves unmapped (product code by the map), and the corpus claimed 3 of its callsites
for regenerator-runtime before this code was shipped as data (bench/corpus_eval.py, tfjs).
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from conftest import FIXTURES, corpus_claims, records, run, scan

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


#: Babel's `toPrimitive` helper as a later Babel inlines it (no `hint || "default"`, unlike the releases
#: shipped as data), which axios 1.20.0's `dist/axios.js` holds
HELPER = ("function _toPrimitive(t, r) { if (\"object\" != typeof t || !t) return t; var e = t[Symbol.toPrimitive];"
          " if (void 0 !== e) { var i = e.call(t, r); if (\"object\" != typeof i) return i;"
          " throw new TypeError(\"@@toPrimitive must return a primitive value.\"); }"
          " return (\"string\" === r ? String : Number)(t); }\n")
FETCH = ("function fetchJson(url, options) { if (typeof url !== \"string\") {"
         " throw new TypeError(\"fetchJson: url must be a string, got \" + typeof url); }"
         " var init = { method: \"GET\", headers: { accept: \"application/json\" }, credentials: options.credentials };"
         " return fetch(url, init).then(function (response) { return response.json(); }); }\n")


def test_a_packages_copy_of_a_compiler_helper_never_names_it(tmp_path: Path) -> None:
    """tronweb 6.5.1 (webpack 5) holds Babel's `toPrimitive` from @babel/runtime, which axios's
    `dist/axios.js` inlines in another Babel release's form than the runtime shipped as data: the
    bundle's copy was claimed for axios. A package's function named like a compiler helper
    (`_toPrimitive`) is a copy of that helper, whichever compiler release wrote it: it names nobody."""
    installed = tmp_path / "app" / "node_modules" / "erratlas-fixture-fetcher"
    (installed / "dist").mkdir(parents=True)
    (installed / "package.json").write_text(json.dumps({"name": "erratlas-fixture-fetcher", "version": "1.0.0"}))
    (installed / "dist" / "fetcher.js").write_text(f"{HELPER}{FETCH}module.exports = {{ fetchJson: fetchJson }};\n")
    (tmp_path / "bare").mkdir()
    (tmp_path / "bare" / "bundle.js").write_text(
        f"var helpers = (function () {{ {HELPER} return {{ toPrimitive: _toPrimitive }}; }})();\n"
        f"var fetcher = (function () {{ {FETCH} return {{ fetchJson: fetchJson }}; }})();\n")
    scan(tmp_path / "bare" / "bundle.js", tmp_path / "out", "--signatures")
    added = run("corpus", "add", tmp_path / "app", "--corpus", tmp_path / "corpus")
    assert added.returncode == 0, added.stderr
    suggested = run("suggest", tmp_path / "out", "--corpus", tmp_path / "corpus", "--out", tmp_path / "s.jsonl")
    assert suggested.returncode == 0, suggested.stderr
    claims = corpus_claims(tmp_path / "out", tmp_path / "s.jsonl")
    named = {text: package for text, (package, _) in claims.items()}
    texts = {str(r["message"].get("text")) for r in records(tmp_path / "out", "error")}  # type: ignore[attr-defined]
    assert "@@toPrimitive must return a primitive value." in texts, texts
    assert named.get("@@toPrimitive must return a primitive value.") is None, named
    assert named.get("fetchJson: url must be a string, got ${}") == "erratlas-fixture-fetcher", named
