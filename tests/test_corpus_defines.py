"""Build-time defines (docs/corpus.md, "Build-time defines"): a bundler writes
`process.env.NODE_ENV` as a string, and a minifier then drops the branch the value rules out.

echarts 6.1.0's `dist/echarts.js` (rollup, unminified) writes zrender's
`process.env.NODE_ENV !== 'production'` as `"development" !== 'production'` 361 times, and a
production build minified drops those branches whole; in both, the package's function reads
otherwise than it was written and no corpus version matched it (bench/corpus_eval.py, echarts).
"""

from __future__ import annotations

import json
from pathlib import Path

from conftest import corpus_claims, run, scan

from analyzer.javascript.corpus import index_sources
from analyzer.javascript.defines import DEFINES

#: a package function that checks its argument in development builds only
CHECK = ("function checkRadius(radius, options) {\n"
         "  if (process.env.NODE_ENV !== 'production') {\n"
         "    if (options.strict) console.warn('checkRadius: strict mode is deprecated and ignored now');\n"
         "  }\n"
         "  if (radius < 0) throw new RangeError('checkRadius: the radius must not be negative, got ' + radius);\n"
         "  return { radius: radius, area: Math.PI * radius * radius, circumference: 2 * Math.PI * radius };\n"
         "}\n")
#: the same function in a bundle whose define wrote the value (unminified)
DEVELOPMENT = CHECK.replace("process.env.NODE_ENV", '"development"').replace("checkRadius(", "checkRadius$1(", 1)
#: ... and in a production build, minified: the comparison decided, the warning dropped
PRODUCTION = ('function c(r,o){if(r<0)throw new RangeError("checkRadius: the radius must not be negative, got "+r);'
              'return{radius:r,area:Math.PI*r*r,circumference:2*Math.PI*r}}')
#: a function of another package whose tokens are the production variant's and more: never claimed by it
OTHER = ('function d(r,o){if(r<0)throw new RangeError("checkRadius: the radius must not be negative, got "+r);'
         'return{radius:r,area:Math.PI*r*r,circumference:2*Math.PI*r,env:o.env}}')
#: the message the bundle's function throws
MESSAGE = "checkRadius: the radius must not be negative, got ${}"


def _suggested(tmp_path: Path, bundle_text: str) -> dict[str, str | None]:
    installed = tmp_path / "app" / "node_modules" / "erratlas-fixture-circle"
    (installed / "lib").mkdir(parents=True)
    (installed / "package.json").write_text(json.dumps({"name": "erratlas-fixture-circle", "version": "1.0.0"}))
    (installed / "lib" / "circle.js").write_text(f"{CHECK}module.exports = {{ checkRadius: checkRadius }};\n")
    (tmp_path / "bare").mkdir()
    (tmp_path / "bare" / "bundle.js").write_text(bundle_text)
    scan(tmp_path / "bare" / "bundle.js", tmp_path / "out", "--signatures")
    added = run("corpus", "add", tmp_path / "app", "--corpus", tmp_path / "corpus")
    assert added.returncode == 0, added.stderr
    suggested = run("suggest", tmp_path / "out", "--corpus", tmp_path / "corpus", "--out", tmp_path / "s.jsonl")
    assert suggested.returncode == 0, suggested.stderr
    return {text: package if confidence == "exact" else None
            for text, (package, confidence) in corpus_claims(tmp_path / "out", tmp_path / "s.jsonl").items()}


def test_a_function_under_a_production_define_minified_is_its_package(tmp_path: Path) -> None:
    named = _suggested(tmp_path, f"(function () {{ var circle = {{ c: {PRODUCTION} }}; window.c = circle; }})();\n")
    assert named == {MESSAGE: "erratlas-fixture-circle"}, named


def test_a_function_under_a_development_define_unminified_is_its_package(tmp_path: Path) -> None:
    named = _suggested(tmp_path, f"(function () {{ {DEVELOPMENT} window.checkRadius = checkRadius$1; }})();\n")
    assert named == {MESSAGE: "erratlas-fixture-circle"}, named


def _keys(text: str) -> set[int]:
    return {f.key for f in index_sources([("lib/circle.js", text.encode())]).functions if f.name == "checkRadius"}


def test_the_variants_are_the_defines_and_only_where_the_file_names_the_variable() -> None:
    """Each define reads the function otherwise here: one key more per define than the same
    function testing another member (which has the variants every function has, `console` ...)."""
    other = CHECK.replace("process.env.NODE_ENV", "options.env.MODE")
    assert len(_keys(CHECK)) == len(_keys(other)) + len(DEFINES)


def test_a_define_inside_a_built_string_makes_no_variant() -> None:
    """`"... in " + process.env.NODE_ENV` becomes one string under a define: no variant is certain."""
    built = CHECK.replace("'checkRadius: strict mode is deprecated and ignored now'",
                          "'checkRadius: strict mode is deprecated in ' + process.env.NODE_ENV")
    assert len(_keys(built)) == len(_keys(built.replace("process.env.NODE_ENV", "options.env.MODE")))


def test_another_function_holding_more_tokens_is_not_claimed(tmp_path: Path) -> None:
    named = _suggested(tmp_path, f"(function () {{ var circle = {{ d: {OTHER} }}; window.circle = circle; }})();\n")
    assert named.get(MESSAGE) is None, named
