"""Bundlers' code and prebuilt bundles in the corpus (docs/corpus.md, `corpus add` and Matching 2).
A browserify build's prelude is browserify's code, nobody's: a package whose tarball ships a
single-module standalone build (base64-js's `base64js.min.js`) must not own the prelude that every
other browserify build carries (redoc 2.0.0-rc.30 bundles openapi-sampler's browserify build, whose
prelude's `Cannot find module` callsite was named base64-js). And code in a module nested in another
(a package's prebuilt bundle taken whole) names the package whose bundle file holds it too. The
fixtures are written here: corpus packages installed in a directory, and bundles that hold another
browserify build beside a package's own code, or inside a webpack 4 module."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import records, run, scan

from analyzer.javascript.corpus import BROWSERIFY_PRELUDE, index_sources
from analyzer.signatures import PLACED

PACKAGE = "erratlas-fixture-encode"
PRELUDE = (
    "(function(){function load(table,cache,entries){function need(id,inner){if(!cache[id]){if(!table[id]){"
    "var e=new Error(\"Cannot find module '\"+id+\"'\");e.code=\"MODULE_NOT_FOUND\";throw e}"
    "var m=cache[id]={exports:{}};table[id][0].call(m.exports,function(x){var n=table[id][1][x];"
    "return need(n||x)},m,m.exports,load,table,cache,entries)}return cache[id].exports}"
    "for(var i=0;i<entries.length;i++)need(entries[i]);return need}return load})()"
)
ENCODE = (
    "function encodeBytes(bytes,alphabet){if(!bytes||typeof bytes.length!==\"number\"){"
    "throw new TypeError(\"encodeBytes: expected bytes, got \"+typeof bytes)}var out=\"\";"
    "for(var i=0;i<bytes.length;i++){out+=alphabet.charAt(bytes[i]>>2)+alphabet.charAt(bytes[i]&3)}return out}"
)
#: the package's standalone build: its one module in browserify's table, after the prelude
BUILD = f"{PRELUDE}({{1:[function(require,module,exports){{module.exports={ENCODE}}},{{}}]}},{{}},[1])(1);\n"
#: another package's browserify build (the corpus lacks it), then the encoder's code, in one bundle
BUNDLE = (
    f"var other={PRELUDE}({{1:[function(require,module,exports){{module.exports=function shout(text,times){{"
    "if(typeof text!==\"string\"){throw new TypeError(\"shout: text must be a string\")}var out=[];"
    "for(var i=0;i<times;i++){out.push(text.toUpperCase())}return out.join(\" \")}},{}]},{},[1])(1);\n"
    f"var encode={ENCODE};\nmodule.exports={{other:other,encode:encode}};\n"
)


def test_the_prelude_of_a_standalone_build_is_indexed_as_nobodys_code() -> None:
    index = index_sources([("index.js", f"module.exports={ENCODE};\n".encode()),
                           ("dist/encode.min.js", BUILD.encode())])
    prelude = index.files.index(f"dist/encode.min.js{PLACED}{BROWSERIFY_PRELUDE}")
    assert prelude in index.bundles and index.files.index("dist/encode.min.js") not in index.bundles
    names = {(index.files[f.file], f.name) for f in index.functions}
    assert ("dist/encode.min.js", "encodeBytes") in names and ("index.js", "encodeBytes") in names
    assert {n for f, n in names if f.endswith(BROWSERIFY_PRELUDE)} >= {"load", "need"}


def scanned_with_the_encoders_corpus(tmp_path: Path) -> None:
    """BUNDLE alone in `bare/`, scanned into `out/` with `--signatures`, and a corpus in `corpus/`
    of the encoder package installed in `app/` (its source and its standalone build)."""
    installed = tmp_path / "app" / "node_modules" / PACKAGE
    (installed / "dist").mkdir(parents=True)
    (installed / "package.json").write_text(json.dumps({"name": PACKAGE, "version": "1.0.0", "main": "index.js"}))
    (installed / "index.js").write_text(f"module.exports={ENCODE};\n")
    (installed / "dist" / "encode.min.js").write_text(BUILD)
    (tmp_path / "bare").mkdir()
    (tmp_path / "bare" / "bundle.js").write_text(BUNDLE)
    scan(tmp_path / "bare" / "bundle.js", tmp_path / "out", "--signatures")
    added = run("corpus", "add", tmp_path / "app", "--corpus", tmp_path / "corpus")
    assert added.returncode == 0, added.stderr


def suggested_texts(tmp_path: Path) -> dict[str, str]:
    """`suggest --corpus` of `out/` against `corpus/` into `s.jsonl`; each error callsite's text by id."""
    suggested = run("suggest", tmp_path / "out", "--corpus", tmp_path / "corpus", "--out", tmp_path / "s.jsonl")
    assert suggested.returncode == 0, suggested.stderr
    return {str(r["id"]): str(r["message"].get("text") or r["message"].get("template") or "")  # type: ignore[attr-defined]
            for r in records(tmp_path / "out", "error")}


def test_a_bundled_prelude_is_never_the_package_that_ships_a_standalone_build(tmp_path: Path) -> None:
    scanned_with_the_encoders_corpus(tmp_path)
    texts = suggested_texts(tmp_path)
    assert any("Cannot find module" in text for text in texts.values()), texts
    named = {texts[s["exampleIds"][0]]: s["package"]
             for s in map(json.loads, (tmp_path / "s.jsonl").read_text().splitlines()) if s["id"].startswith("c:")}
    assert all(package is None for text, package in named.items() if "Cannot find module" in text), named
    assert named.get("encodeBytes: expected bytes, got ${}") == PACKAGE, named  # the encoder's own code stays its


POINTER = ("function parsePointer(text,strict){if(typeof text!==\"string\"||text.charAt(0)!==\"/\"){"
           "throw new Error(\"Invalid pointer: \"+text)}var parts=text.substring(1).split(\"/\");"
           "for(var i=0;i<parts.length;i++){parts[i]=parts[i].replace(/~1/g,\"/\").replace(/~0/g,\"~\")}"
           "return strict?parts:parts.slice(0)}")
SAMPLER = ("function sample(schema,options){if(!schema||typeof schema!==\"object\"){"
           "throw new TypeError(\"sample: schema must be an object\")}var ref=schema.$ref?pointer(schema.$ref,true):[];"
           "var out={};for(var i=0;i<ref.length;i++){out[ref[i]]=options&&options.fill}return out}")
#: the sampler's browserify build: its own module and the pointer package's, after the prelude
SAMPLER_BUILD = (f"{PRELUDE}({{1:[function(require,module,exports){{var pointer=require(\"./pointer\");"
                 f"module.exports={SAMPLER}}},{{\"./pointer\":2}}],2:[function(require,module,exports){{"
                 f"module.exports={POINTER}}},{{}}]}},{{}},[1])(1)")
#: a webpack 4 bundle that took the sampler's build whole into its module 1
WEBPACK_APP = (
    "!function(e){var t={};function n(r){if(t[r])return t[r].exports;var o=t[r]={i:r,l:!1,exports:{}};"
    "return e[r].call(o.exports,o,o.exports,n),o.l=!0,o.exports}n.m=e,n.c=t,n.o=function(e,t){"
    "return Object.prototype.hasOwnProperty.call(e,t)},n.p=\"\",n(n.s=0)}([function(e,t,n){var s=n(1);"
    "e.exports=function app(x){if(!x)throw new Error(\"app needs x\");return s(x)}},"
    f"function(e,t,n){{e.exports={SAMPLER_BUILD}}}]);\n"
)


#: the packages of the sampler app: the pointer's source, and the sampler's source and browserify build
APP_PACKAGES = {
    "erratlas-fixture-pointer": {"index.js": f"module.exports={POINTER};\n"},
    "erratlas-fixture-sampler": {"index.js": "var pointer=require(\"erratlas-fixture-pointer\");"
                                             f"module.exports={SAMPLER};\n",
                                 "dist/sampler.js": SAMPLER_BUILD + ";\n"},
}


def pointer_suggestion(tmp_path: Path, names: list[str]) -> dict[str, object]:
    """WEBPACK_APP scanned without its map, a corpus of the named packages of APP_PACKAGES installed in
    `app/`, and the corpus suggestion for the pointer's callsite in the sampler's nested build."""
    installed = tmp_path / "app" / "node_modules"
    for name in names:
        files = {**APP_PACKAGES[name], "package.json": json.dumps({"name": name, "version": "1.0.0"})}
        for path, text in files.items():
            (installed / name / path).parent.mkdir(parents=True, exist_ok=True)
            (installed / name / path).write_text(text)
    (tmp_path / "bare").mkdir()
    (tmp_path / "bare" / "app.js").write_text(WEBPACK_APP)
    scan(tmp_path / "bare" / "app.js", tmp_path / "out", "--signatures")
    added = run("corpus", "add", tmp_path / "app", "--corpus", tmp_path / "corpus")
    assert added.returncode == 0, added.stderr
    texts = suggested_texts(tmp_path)
    rows = {texts[s["exampleIds"][0]]: s for s in map(json.loads, (tmp_path / "s.jsonl").read_text().splitlines())
            if s["id"].startswith("c:")}
    return rows["Invalid pointer: ${}"]


def test_code_in_a_prebuilt_bundle_taken_whole_names_the_package_whose_build_holds_it_too(tmp_path: Path) -> None:
    """redoc 2.0.0-rc.30: webpack 4 took openapi-sampler's browserify build, which holds json-pointer,
    whole into one module; its map places that code in openapi-sampler, and json-pointer's own
    sources were claimed exactly (5 wrong claims). A module nested in another is a prebuilt bundle:
    a package whose bundle file holds the function is a candidate too."""
    pointer = pointer_suggestion(tmp_path, ["erratlas-fixture-pointer", "erratlas-fixture-sampler"])
    assert pointer["package"] is None and pointer["confidence"] == "possible", pointer
    assert set(pointer["candidates"]) == {"erratlas-fixture-pointer", "erratlas-fixture-sampler"}, pointer


def test_code_in_a_prebuilt_bundle_of_a_package_the_corpus_lacks_is_not_claimed_for_the_code_it_copies(
        tmp_path: Path) -> None:
    """jimp 0.22.12 with half its packages: webpack took pngjs's browserify build, which carries buffer,
    whole into one module; a corpus without pngjs named that copy of buffer buffer's exactly (42 wrong
    claims). A nested module is a prebuilt bundle's code: exact only where something names the
    build's package (the outer module's path, or a bundle file of the package that holds it)."""
    pointer = pointer_suggestion(tmp_path, ["erratlas-fixture-pointer"])
    assert pointer["confidence"] == "possible" and "prebuilt bundle taken whole" in pointer["reason"], pointer
