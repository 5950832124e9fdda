"""Function signatures survive what minifiers do, and change when the code says something else."""

from __future__ import annotations

from analyzer.javascript.signatures import UnitTokens, decode_string
from analyzer.javascript.syntax import parse

SOURCE = b"""
function readConfig(text, options) {
  "use strict";
  if (typeof options === "undefined") options = {};
  const settings = require("./settings");
  const { port, host = "localhost" } = JSON.parse(text);
  if (port === undefined) {
    throw new Error("readConfig: " + 'missing "port"' + " in " + text);
  } else {
    return { port: port, host, secure: true, pattern: /^[a-z]+:\\d+$/i, ["timeout"]: 30000 };
  }
}
"""
#: what esbuild/terser make of it: renamed, `!0`, `?:` with branches swapped, quotes changed,
#: `x["a"]` as `x.a`, a concatenation as a template, `typeof` compared with "u", no require path
MINIFIED = b"""function a(b,c){typeof c>"u"&&(c={});const d=s(),{port:e,host:f="localhost"}=JSON.parse(b);
return e!==void 0?{port:e,host:f,secure:!0,pattern:/^[a-z]+:\\d+$/i,timeout:3e4}:\
(()=>{throw Error(`readConfig: missing "port" in ${b}`)})()}"""


def signature(source: bytes) -> tuple[int, int, int]:
    tokens = UnitTokens(parse(source), source)
    first = tokens.function_signatures()[0]
    return first.key, first.tokens, first.weight


def test_minification_keeps_the_signature() -> None:
    assert signature(SOURCE) == signature(MINIFIED)


def test_another_message_is_another_signature() -> None:
    assert signature(SOURCE.replace(b"missing", b"absent")) != signature(SOURCE)


def test_another_property_is_another_signature() -> None:
    assert signature(SOURCE.replace(b"secure:", b"tls:")) != signature(SOURCE)


def test_escapes_are_decoded() -> None:
    assert decode_string(r"it\'s \u0041\x42\u{1F600}\n") == "it's AB\U0001F600\n"
    assert decode_string("line\\\ncontinued") == "linecontinued"
