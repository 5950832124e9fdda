"""The bundler module map: every callsite's `module`, and modules.jsonl, on bundles built by
esbuild (ESM, CJS), terser, bun, webpack and browserify; truth from the source map through the
independent oracle; the wrapper helpers found by shape on hand-written minified forms."""

from __future__ import annotations

import json
import shutil
from collections import Counter, defaultdict
from pathlib import Path

import pytest
from conftest import FIXTURES, SUMMARY, scan
from test_sourcemap import BUNDLES, all_records, oracle_origins

FORMS = {
    "demo.min.js": {"cjs"},
    "demo.cjs.min.js": {"cjs"},
    "demo.terser.min.js": {"cjs"},
    "demo.bun.min.js": {"cjs"},
    "demo.webpack.min.js": {"webpack", "cjs"},
    "demo.browserify.min.js": {"browserify"},
}


def modules(out: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in (out / "modules.jsonl").read_text().splitlines()]


def assignment_share(rows: list[dict[str, object]], truth: list[dict[str, object] | None]) -> tuple[int, int]:
    """(right, total) over callsites the map places: a callsite is right when its module holds
    only callsites of its original file (by majority) and that file's callsites sit in one module."""
    by_module: dict[str, Counter[str]] = defaultdict(Counter)
    for row, origin in zip(rows, truth):
        if origin is not None and row["module"] is not None:
            by_module[row["module"]["id"]][origin["source"]] += 1
    major = {module: counts.most_common(1)[0][0] for module, counts in by_module.items()}
    homes: dict[str, set[str]] = defaultdict(set)
    for module, source in major.items():
        homes[source].add(module)
    right = total = 0
    for row, origin in zip(rows, truth):
        if origin is None:
            continue  # runtime helpers the map does not place
        total += 1
        module = row["module"]
        if module is not None and major[module["id"]] == origin["source"] and len(homes[origin["source"]]) == 1:
            right += 1
    return right, total


@pytest.mark.parametrize("bundle", sorted(BUNDLES))
def test_callsites_sit_in_the_module_their_source_map_names(bundle: str, tmp_path: Path) -> None:
    path = FIXTURES / "demo" / bundle
    summary = scan(path, tmp_path / "out")
    rows = all_records(tmp_path / "out")
    truth = oracle_origins(path, path.with_name(bundle + ".map"), [r["offset"] for r in rows])
    right, total = assignment_share(rows, truth)
    assert total >= len(rows) - 1 and right / total >= 0.99, (right, total)
    kinds = {m["kind"] for m in modules(tmp_path / "out")}
    assert FORMS[bundle] <= kinds
    inside = summary["modules"]["callsitesInModule"]
    assert sum(k["inModule"] for k in inside.values()) >= total


@pytest.mark.parametrize("bundle", sorted(BUNDLES))
def test_wrapped_modules_are_found_without_the_map(bundle: str, tmp_path: Path) -> None:
    """Wrappers and tables come from the code's shape: the same spans with or without a map,
    and each holds the callsites of exactly one original file."""
    path = FIXTURES / "demo" / bundle
    bare = tmp_path / bundle
    shutil.copy(path, bare)
    scan(path, tmp_path / "mapped")
    scan(bare, tmp_path / "bare")
    structural = [
        (m["kind"], m["offset"], m["endOffset"], m["fingerprint"])
        for m in modules(tmp_path / "mapped") if not m["evidence"][0].startswith("source map")
    ]
    assert structural == [
        (m["kind"], m["offset"], m["endOffset"], m["fingerprint"]) for m in modules(tmp_path / "bare")
    ]
    rows = all_records(tmp_path / "bare")
    truth = oracle_origins(path, path.with_name(bundle + ".map"), [r["offset"] for r in rows])
    sources: dict[str, set[str]] = defaultdict(set)
    for row, origin in zip(rows, truth):
        if row["module"] is not None and origin is not None:
            sources[row["module"]["id"]].add(origin["source"])
    assert sources and all(len(s) == 1 for s in sources.values()), sources


def test_modules_jsonl_lists_spans_kinds_fingerprints_and_counts(demo_scanned_once: Path) -> None:
    out = demo_scanned_once  # the session's scan of the demo (read only)
    summary = json.loads((out / SUMMARY).read_text())
    rows = all_records(out)
    listed = modules(out)
    by_id = {m["id"]: m for m in listed}
    assert len(by_id) == len(listed) == summary["modules"]["count"]
    for module in listed:
        assert module["schema"] == "erratlas.module/1"
        assert module["offset"] <= module["bodyOffset"] < module["endOffset"]
        assert module["fingerprint"].startswith("fp1m:") and len(module["fingerprint"]) == 37
    assert len({m["fingerprint"] for m in listed}) == len(listed)
    counted: Counter[tuple[str, str]] = Counter()
    for row in rows:
        if row["module"] is not None:
            module = by_id[row["module"]["id"]]
            inside = any(start <= row["offset"] < end for start, end in module["spans"])
            # hoisted code is split by original file: a function inlined elsewhere stays in its file's module
            assert inside or row["origin"]["source"] == module["name"]
            assert row["module"] == {k: module[k] for k in ("id", "kind", "name", "fingerprint")}
            counted[(module["id"], row["kind"])] += 1
    for module in listed:
        assert module["callsites"] == {k: counted[(module["id"], k)] for k in ("error", "diagnostic")}
    commander = [m for m in listed if m["package"] == "commander"]
    assert len([m for m in commander if m["kind"] == "cjs" and m["binding"]]) == 7  # lib/*.js and index.js
    assert [m["name"] for m in commander if m["kind"] == "esm"] == ["../node_modules/commander/esm.mjs"]


# ---- shapes, by hand: helpers recognised by what they do, whatever their names ----------------

BUN_FORM = (
    "// @bun @bun-cjs\n(function(exports, require, module, __filename, __dirname) {"
    "var Qz=(e,t)=>()=>(t||e((t={exports:{}}).exports,t),t.exports);"
    "var Vk=(e,t)=>()=>(e&&(t=e(e=0)),t);"
    "var Jx=(e,t)=>{for(var r in t)Object.defineProperty(e,r,{get:t[r],enumerable:!0})};"
    "var aB=Qz((e,t)=>{t.exports=function(n){if(!n)throw Error(\"dep: missing\");return n}});"
    "function pre(){return 1}"
    "var ns={};Jx(ns,{run:()=>hoisted});function hoisted(a){if(!a)throw new TypeError(\"hoisted: bad\");return a}"
    "var st,cQ=Vk(()=>{st=aB()(2)});"
    "cQ();hoisted(3);throw RangeError(\"entry\");"
    "})\n"
)
#: rolldown's runtime (vite 8, as npm-check-updates 22.2.9's build/index.js and @docsearch/js 5.2.0's UMD build
#: write it): `__commonJS` drops the module function once run (`e = null`), `__esm` keeps the error it threw, and
#: each module function is passed in parentheses
ROLLDOWN_FORM = (
    "var a=Object.defineProperty,s=(e,t)=>()=>(t||(e((t={exports:{}}).exports,t),e=null),t.exports),"
    "o=(e,t,n)=>()=>{if(n)throw n[0];try{return e&&(t=e(e=0)),t}catch(e){throw n=[e],e}},"
    "c=(e,n)=>{let r={};for(var i in e)a(r,i,{get:e[i],enumerable:!0});return n||a(r,Symbol.toStringTag,"
    "{value:\"Module\"}),r};"
    "var dep=/* @__PURE__ */s(((e,t)=>{t.exports=function(n){if(!n)throw Error(\"dep: missing\");return n}}));"
    "var ns=c({run:()=>hoisted});function hoisted(a){if(!a)throw new TypeError(\"hoisted: bad\");return a}"
    "var st,lazy=o((()=>{st=dep()(2)}));"
    "lazy();hoisted(3);throw RangeError(\"entry\");"
)
ESBUILD_KEEP_NAMES_FORM = (
    "var __getOwnPropNames = Object.getOwnPropertyNames;\n"
    "var __commonJS = (cb, mod) => function __require() {\n"
    "  return mod || (0, cb[__getOwnPropNames(cb)[0]])((mod = { exports: {} }).exports, mod), mod.exports;\n"
    "};\n"
    "var require_dep = __commonJS({\n"
    '  "node_modules/dep/index.js"(exports, module) {\n'
    '    module.exports = () => { throw new Error("dep: failed"); };\n'
    "  }\n"
    "});\n"
    "require_dep()();\n"
)
#: esbuild unminified: `__esm` calls its module function through the keep-names object's key
ESBUILD_UNMINIFIED_ESM_FORM = (
    "var __getOwnPropNames = Object.getOwnPropertyNames;\n"
    "var __esm = (fn, res) => function __init() {\n"
    "  return fn && (res = (0, fn[__getOwnPropNames(fn)[0]])(fn = 0)), res;\n"
    "};\n"
    "// node_modules/dep/version.mjs\n"
    "function check(v) {\n"
    '  if (!v) throw new Error("dep: no version");\n'
    "  return v;\n"
    "}\n"
    "var version;\n"
    "var init_version = __esm({\n"
    '  "node_modules/dep/version.mjs"() {\n'
    '    version = check("1.0.0");\n'
    "  }\n"
    "});\n"
    "init_version();\n"
    'throw new TypeError("entry");\n'
)
WEBPACK4_FORM = (
    "!function(e){var t={};function n(r){if(t[r])return t[r].exports;var o=t[r]={i:r,l:!1,exports:{}};"
    "return e[r].call(o.exports,o,o.exports,n),o.l=!0,o.exports}n.m=e,n(n.s=1)}"
    "([function(e,t){e.exports=function(){throw new Error(\"zero\")}},"
    ",function(e,t,n){n(0)();throw TypeError(\"two\")}]);"
)
#: webpack 4 production: an ES module's body may open with its exports' getters, `n.d(t, "a", ...)`, and no `n.r(t)`
WEBPACK4_ES_MODULE_FORM = (
    "!function(e){var t={};function n(r){if(t[r])return t[r].exports;var o=t[r]={i:r,l:!1,exports:{}};"
    "return e[r].call(o.exports,o,o.exports,n),o.l=!0,o.exports}n.d=function(e,t,r){Object.defineProperty(e,t,"
    "{enumerable:!0,get:r})},n.m=e,n(n.s=2)}"
    "([function(e,t){e.exports=function(){throw new Error(\"cjs\")}},"
    "function(e,t,n){\"use strict\";n.d(t,\"a\",(function(){return r}));function r(){throw new Error(\"esm\")}},"
    "function(e,t,n){n(0)();n(1).a()}]);"
)
WEBPACK5_FORM = (
    '(()=>{var r={17:r=>{r.exports=function(){throw new Error("seventeen")}},'
    '"./src/a.js":(r,e,o)=>{o(17)();throw Error("a")}},e={};function o(t){var n=e[t];if(void 0!==n)return n.exports;'
    'var s=e[t]={exports:{}};return r[t](s,s.exports,o),s.exports}o("./src/a.js")})();'
)
#: webpack 5's development output (`mode: "development"`, `devtool: false`), as npm packages ship
#: it in their dist files (react-debounce-input 3.3.0, swagger-client 3.28.2): the table and each
#: module function in parentheses, with webpack's comments between them
WEBPACK5_DEVELOPMENT_FORM = """(() => { // webpackBootstrap
/******/ \tvar __webpack_modules__ = ({

/***/ "./src/a.js":
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

var dep = __webpack_require__("./node_modules/dep/index.js");
throw new Error("a");

/***/ }),

/***/ "./node_modules/dep/index.js":
/***/ ((module) => {

module.exports = function () { throw new Error("dep"); };

/***/ })

/******/ \t});
/******/ \tvar __webpack_module_cache__ = {};
/******/ \tfunction __webpack_require__(moduleId) {
/******/ \t\tvar cachedModule = __webpack_module_cache__[moduleId];
/******/ \t\tif (cachedModule !== undefined) {
/******/ \t\t\treturn cachedModule.exports;
/******/ \t\t}
/******/ \t\tvar module = __webpack_module_cache__[moduleId] = {
/******/ \t\t\texports: {}
/******/ \t\t};
/******/ \t\t__webpack_modules__[moduleId](module, module.exports, __webpack_require__);
/******/ \t\treturn module.exports;
/******/ \t}
/******/ \tvar __webpack_exports__ = __webpack_require__("./src/a.js");
/******/ })()
;
"""
BROWSERIFY_FORM = (
    '(function(){function r(e,n,t){function o(i,f){if(!n[i]){if(!e[i]){var c="function"==typeof require&&require;'
    'if(!f&&c)return c(i,!0);throw new Error("Cannot find module \'"+i+"\'")}var p=n[i]={exports:{}};'
    "e[i][0].call(p.exports,function(r){var n=e[i][1][r];return o(n||r)},p,p.exports,r,e,n,t)}return n[i].exports}"
    'for(var u=0;u<t.length;u++)o(t[u]);return o}return r})()({1:[function(t,e,n){var m=t("ms");'
    'throw new Error("main")},{"ms":2}],2:[function(t,e,n){e.exports=function(){throw new Error("ms")}},{}]},{},[1]);'
)


def _scan_text(tmp_path: Path, name: str, text: str) -> tuple[list[dict[str, object]], list[dict[str, object]]]:
    bundle = tmp_path / name
    bundle.write_text(text)
    scan(bundle, tmp_path / "out")
    return all_records(tmp_path / "out"), modules(tmp_path / "out")


def _where(rows: list[dict[str, object]]) -> dict[str, tuple[str, str] | None]:
    return {r["message"]["text"]: (r["module"]["kind"], r["module"]["name"]) if r["module"] else None for r in rows}


def test_bun_wrappers_and_hoisted_esm_declarations(tmp_path: Path) -> None:
    rows, listed = _scan_text(tmp_path, "bun.js", BUN_FORM)
    assert _where(rows) == {
        "dep: missing": ("cjs", "aB"),
        "hoisted: bad": ("esm", "cQ"),  # declared outside the __esm closure, still its module
        "entry": None,
    }
    esm = next(m for m in listed if m["kind"] == "esm")
    assert esm["offset"] < esm["bodyOffset"]  # the hoisted part comes first
    assert esm["offset"] == BUN_FORM.encode().index(b"var ns={}")  # back to its namespace object, not `pre`


def test_rolldown_wrappers(tmp_path: Path) -> None:
    rows, listed = _scan_text(tmp_path, "rolldown.js", ROLLDOWN_FORM)
    assert _where(rows) == {"dep: missing": ("cjs", "dep"), "hoisted: bad": ("esm", "lazy"), "entry": None}
    esm = next(m for m in listed if m["kind"] == "esm")
    assert esm["offset"] == ROLLDOWN_FORM.encode().index(b"var ns=")  # its hoisted declarations are its own


def test_keep_names_wrappers_keep_the_module_path(tmp_path: Path) -> None:
    rows, listed = _scan_text(tmp_path, "esbuild.js", ESBUILD_KEEP_NAMES_FORM)
    assert _where(rows) == {"dep: failed": ("cjs", "node_modules/dep/index.js")}
    assert listed[0]["package"] == "dep" and listed[0]["key"] == "node_modules/dep/index.js"


def test_unminified_esbuild_esm_wrappers(tmp_path: Path) -> None:
    """`(0, fn[__getOwnPropNames(fn)[0]])(fn = 0)`: msw 2.7.0's IIFE holds 123 such modules, none found before."""
    rows, listed = _scan_text(tmp_path, "esm.js", ESBUILD_UNMINIFIED_ESM_FORM)
    assert _where(rows) == {"dep: no version": ("esm", "node_modules/dep/version.mjs"), "entry": None}
    assert listed[0]["package"] == "dep"


def test_webpack4_array_table(tmp_path: Path) -> None:
    rows, _ = _scan_text(tmp_path, "wp4.js", WEBPACK4_FORM)
    assert _where(rows) == {"zero": ("webpack", "0"), "two": ("webpack", "2")}  # the hole keeps slot 1


def test_webpack4_es_module_without_require_r(tmp_path: Path) -> None:
    """A body that opens with `require.d(exports, ...)` is an ES module, which concatenation may join:
    aws-amplify 4.3.46's tslib copies in @aws-sdk/* modules were claimed by containment."""
    from analyzer.model import WEBPACK_ES_MODULE

    _, listed = _scan_text(tmp_path, "wp4esm.js", WEBPACK4_ES_MODULE_FORM)
    es = {str(m["name"]): WEBPACK_ES_MODULE in "".join(m["evidence"]) for m in listed}  # type: ignore[arg-type]
    assert es == {"0": False, "1": True, "2": False}


def test_webpack5_object_table(tmp_path: Path) -> None:
    rows, _ = _scan_text(tmp_path, "wp5.js", WEBPACK5_FORM)
    assert _where(rows) == {"seventeen": ("webpack", "17"), "a": ("webpack", "./src/a.js")}


def test_webpack5_development_table_in_parentheses(tmp_path: Path) -> None:
    rows, listed = _scan_text(tmp_path, "wp5dev.js", WEBPACK5_DEVELOPMENT_FORM)
    assert _where(rows) == {"a": ("webpack", "./src/a.js"), "dep": ("webpack", "./node_modules/dep/index.js")}
    assert next(m for m in listed if m["name"] == "./node_modules/dep/index.js")["package"] == "dep"


def test_a_package_file_built_by_webpack_in_development_mode_is_a_bundle() -> None:
    """A corpus file that holds other packages' code (its hits are weak, docs/corpus.md): before,
    the parentheses hid the table, and swagger-client's dist claimed the `cookie` code it bundles."""
    from analyzer.javascript.corpus import index_sources

    index = index_sources([("dist/wp5dev.js", WEBPACK5_DEVELOPMENT_FORM.encode()), ("index.js", b"module.exports = 1")])
    assert index.bundles == frozenset({0})


def test_browserify_table_names_modules_by_what_requires_them(tmp_path: Path) -> None:
    rows, listed = _scan_text(tmp_path, "bfy.js", BROWSERIFY_FORM)
    where = _where(rows)
    assert where["main"] == ("browserify", "1") and where["ms"] == ("browserify", "ms")
    assert where["Cannot find module '${}'"] is None if "Cannot find module '${}'" in where else True
    assert next(m for m in listed if m["name"] == "ms")["package"] == "ms"


def _renamed(text: str, names: dict[str, str]) -> str:
    import re

    return re.sub(r"\b(" + "|".join(map(re.escape, names)) + r")\b", lambda m: names[m.group(1)], text)


def _fingerprints(tmp_path: Path, name: str, text: str) -> list[str]:
    (tmp_path / name).mkdir()
    return [m["fingerprint"] for m in _scan_text(tmp_path / name, "bun.js", text)[1]]


def test_module_fingerprints_survive_renaming_and_follow_code_changes(tmp_path: Path) -> None:
    original = _fingerprints(tmp_path, "a", BUN_FORM)
    renamed = _renamed(BUN_FORM, {"Qz": "Mm", "Vk": "Hq$", "Jx": "Ex", "aB": "z0", "cQ": "ab", "st": "Zy",
                                  "hoisted": "Wv", "ns": "kk", "pre": "P"})
    assert _fingerprints(tmp_path, "b", renamed) == original
    changed = _fingerprints(tmp_path, "c", BUN_FORM.replace("return n}", "return [n]}"))
    assert changed[0] != original[0]  # the CommonJS module changed
    assert changed[1:] == original[1:]  # the ESM module did not


# ---- webpack's `commonjs` chunk format (a node target's split chunks), built by webpack --------

#: webpack 5's own unminified chunk text (lib/javascript/CommonJsChunkFormatPlugin.js)
WEBPACK5_COMMONJS_CHUNK_FORM = (
    "exports.ids = [474];\nexports.modules = {\n"
    '/***/ 885:\n/***/ ((module) => {\nmodule.exports = () => { throw new Error("885"); };\n/***/ }),\n'
    '/***/ "./src/b.js":\n/***/ (function(module) {\nthrow new TypeError("b");\n/***/ })\n};\n'
)


@pytest.mark.parametrize(("chunk", "expected"), [
    ("vendor.js", {None: ("webpack", "585")}),  # ms's error, its message built at run time
    ("main.js", {"delay must be a finite, non-negative duration": ("webpack", "143"),
                 "usage: wait DURATION": ("webpack", "175")}),
])
def test_webpack_commonjs_chunk_tables_are_modules(chunk: str, expected: dict[str, tuple[str, str]],
                                                   tmp_path: Path) -> None:
    """vendor.js is a plain chunk (`exports.ids=[..],exports.modules={..}`), main.js an entry chunk
    whose IIFE's own `exports` the minifier renamed (`var e={ids:[..]};e.modules={..}`); no map."""
    bare = tmp_path / chunk
    shutil.copy(FIXTURES / "webpack-chunk" / "built" / chunk, bare)
    scan(bare, tmp_path / "out")
    assert _where(all_records(tmp_path / "out")) == expected
    listed = modules(tmp_path / "out")
    assert {m["binding"] for m in listed} == {name for _, name in expected.values()}
    assert {e for m in listed for e in m["evidence"]} == {"webpack commonjs chunk table"}


def test_webpack_commonjs_chunk_unminified(tmp_path: Path) -> None:
    rows, _ = _scan_text(tmp_path, "chunk.js", WEBPACK5_COMMONJS_CHUNK_FORM)
    assert _where(rows) == {"885": ("webpack", "885"), "b": ("webpack", "./src/b.js")}


@pytest.mark.parametrize("text", [
    'x.ids=[1],y.modules={1(e){throw Error("other object")}};',  # ids of another object
    'exports.modules={1(e){throw Error("no ids")}};',
    'if(exports.ids=[1],exports.modules={1(e){throw Error("a condition")}})f();',  # no statement of its own
])
def test_modules_objects_that_are_no_commonjs_chunk(text: str, tmp_path: Path) -> None:
    _, listed = _scan_text(tmp_path, "not-chunk.js", text)
    assert listed == []


def test_a_package_file_that_is_a_webpack_commonjs_chunk_is_a_bundle() -> None:
    """Its modules are other files' code, maybe other packages' (docs/corpus.md: weak hits)."""
    from analyzer.javascript.corpus import index_sources

    chunk = (FIXTURES / "webpack-chunk" / "built" / "main.js").read_bytes()
    index = index_sources([("dist/main.js", chunk), ("index.js", b"module.exports = 1")])
    assert index.bundles == frozenset({0})
