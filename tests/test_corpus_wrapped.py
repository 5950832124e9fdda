"""A function a bundler wrote around another package's file, in a package's own build (docs/corpus.md,
`corpus add`): its own source map leaves the wrapper's first line unmapped and maps the code inside
to the file, so the code's one source places the function, not its start.

vis-util 6.0.3's `peer/esm/vis-util.js` (rollup with its CommonJS plugin) carries core-js-pure:
each of core-js-pure's modules is a `function requireEs_symbol_keyFor () {...}` whose first line
the map leaves unmapped. vis-network 10.1.5's `standalone/umd/vis-network.min.js` holds the same
wrapper around core-js-pure's own file; a corpus with half its names (vis-util without
core-js-pure) claimed its `${} is not a symbol` callsite exactly for vis-util (bench/corpus_eval.py,
vis-network, `half`). The fixture is written here: a package whose build wraps a polyfill's module
beside its own code, served from a local registry, and a bundle that holds both."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import corpus_claims, records, run, scan
from support.registry import LocalRegistry, npm_env, write_tarball

from analyzer.javascript.corpus import index_sources
from analyzer.signatures import PLACED

KIT = "erratlas-fixture-kit"
POLY = "node_modules/erratlas-fixture-poly/modules/es.symbol.key-for.js"
#: the polyfill's module as rollup's CommonJS plugin wraps it: the first line is the plugin's
WRAPPER = [
    "function requireKeyFor () {",
    "\tif (hasRequiredKeyFor) return keyForModule;",
    "\thasRequiredKeyFor = 1;",
    "\tvar registry = shared(\"symbol-to-string-registry\");",
    "\tdefine({ target: \"Symbol\", stat: true, forced: !nativeRegistry }, {",
    "\t\tkeyFor: function (sym) {",
    "\t\t\tif (!isSymbol(sym)) throw new TypeError(tryToString(sym) + \" is not a symbol\");",
    "\t\t\tif (hasOwn(registry, sym)) return registry[sym];",
    "\t\t}",
    "\t});",
    "\treturn keyForModule;",
    "}",
]
#: the kit's own code
OWN = [
    "function formatLabel (value, options) {",
    "\tif (typeof value !== \"string\")",
    "\t\tthrow new TypeError(\"formatLabel: value must be a string, got \" + typeof value);",
    "\treturn options.labelPrefix + value.trim() + options.labelSuffix;",
    "}",
]
BUILD = "\n".join([*WRAPPER, *OWN, "exports.requireKeyFor = requireKeyFor; exports.formatLabel = formatLabel;", ""])


def _vlq(value: int) -> str:
    digits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
    number, out = (-value << 1) | 1 if value < 0 else value << 1, ""
    while True:
        digit, number = number & 31, number >> 5
        out += digits[digit | (32 if number else 0)]
        if not number:
            return out


def _build_map() -> bytes:
    """The build's own map: the wrapper's first line unmapped, its other lines the polyfill's file,
    the kit's lines its `src/kit.js` (one segment at each line's start)."""
    sources = [f"../{POLY}", "../src/kit.js"]
    rows = [None] + [(0, i) for i in range(1, len(WRAPPER))] + [(1, i) for i in range(len(OWN))]
    lines, last = [], (0, 0)
    for row in rows:
        if row is None:
            lines.append("")
            continue
        lines.append("A" + _vlq(row[0] - last[0]) + _vlq(row[1] - last[1]) + "A")
        last = row
    return json.dumps({"version": 3, "file": "kit.js", "sources": sources, "names": [],
                       "mappings": ";".join(lines)}).encode()


def test_a_wrapper_whose_first_line_is_unmapped_is_placed_by_the_code_inside_it() -> None:
    index = index_sources([("dist/kit.js", BUILD.encode()), ("dist/kit.js.map", _build_map())])
    places = {f.name: index.files[f.file] for f in index.functions if f.name != "<module>"}
    assert places["requireKeyFor"] == f"dist/kit.js{PLACED}../{POLY}", places
    assert places["formatLabel"] == "dist/kit.js", places


def test_a_packages_wrapped_copy_of_a_module_the_corpus_lacks_is_not_claimed_for_it(tmp_path: Path) -> None:
    write_tarball(tmp_path / "tarballs", KIT, "1.0.0", {
        "package.json": json.dumps({"name": KIT, "version": "1.0.0", "main": "dist/kit.js"}).encode(),
        "dist/kit.js": BUILD.encode(), "dist/kit.js.map": _build_map()})
    (tmp_path / "bare").mkdir()
    (tmp_path / "bare" / "bundle.js").write_text(
        "(function () {\nvar hasRequiredKeyFor, keyForModule = {};\n" + "\n".join([*WRAPPER, *OWN])
        + "\nwindow.kit = { keyFor: requireKeyFor(), formatLabel: formatLabel };\n})();\n")
    scan(tmp_path / "bare" / "bundle.js", tmp_path / "out", "--signatures")
    with LocalRegistry({f"{KIT}@1.0.0": "2024-01-01T00:00:00.000Z"}, tmp_path / "tarballs") as served:
        added = run("corpus", "add", KIT, "--corpus", tmp_path / "corpus", "-j", "1",
                    env=npm_env(tmp_path, served.url))
    assert added.returncode == 0, added.stderr
    suggested = run("suggest", tmp_path / "out", "--corpus", tmp_path / "corpus", "--out", tmp_path / "s.jsonl")
    assert suggested.returncode == 0, suggested.stderr
    claims = corpus_claims(tmp_path / "out", tmp_path / "s.jsonl")
    exact = {text: package for text, (package, confidence) in claims.items() if confidence == "exact"}
    messages = [r["message"] for r in records(tmp_path / "out", "error")]
    assert any("${} is not a symbol" in (m.get("text"), m.get("template")) for m in messages), messages  # type: ignore[attr-defined]
    assert "${} is not a symbol" not in exact, exact
    assert exact.get("formatLabel: value must be a string, got ${}") == KIT, exact
