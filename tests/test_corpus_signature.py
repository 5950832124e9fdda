"""Function signatures survive what minifiers do, and change when the code says something else."""

from __future__ import annotations

from analyzer.javascript.corpus import index_sources, unit_functions
from analyzer.javascript.signatures import UnitTokens, decode_string, distinctive_signatures
from analyzer.javascript.syntax import parse
from analyzer.model import Unit

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


# ---- built strings: a template, a `+` chain and a `.concat` chain of the same pieces --------

def only(body: str) -> tuple[int, int, int]:
    return signature(f"function f(a, b) {{ throw new Error({body}); }}".encode())


TEMPLATE = "`broadcastTo(): [${a}] cannot be broadcast to [${b.shape}].`"
#: the same message as Babel and TypeScript lower a template for ES5, as a `+` chain (Babel's
#: loose mode, esbuild's reverse), and mixed (tfjs 4.22.0 `Tile_grad`: a `+` of two templates)
SAME = (
    '"broadcastTo(): [".concat(a, "] cannot be broadcast to [").concat(b.shape, "].")',
    '"broadcastTo(): [" + a + "] cannot be broadcast to [" + b.shape + "]."',
    '"broadcastTo(): [" + "".concat(a, "] cannot be broadcast to [") + b.shape + "]."',
    '`broadcastTo(): [${a}` + "] cannot be broadcast to [".concat(b.shape) + "]."',
    '"broadcastTo(): [".concat(a).concat("] cannot be broadcast to [", b.shape, "].")',
    '("broadcastTo(): ".concat("[", a, "] cannot be broadcast to [")).concat(b.shape, "].")',
)


def test_template_plus_and_concat_give_one_signature() -> None:
    for body in SAME:
        assert only(body) == only(TEMPLATE), body


def test_concat_of_other_text_is_another_signature() -> None:
    assert only(SAME[0].replace("cannot", "can not")) != only(TEMPLATE)
    # where the holes are matters: "[" + a + "]" is not "[" "]" joined
    assert only('"broadcastTo(): [".concat("] cannot be broadcast to [", a).concat(b.shape, "].")') != only(TEMPLATE)
    # a template substitution's own text is a token of its own, not the outer string's
    assert only('"a".concat(b + "x", "c")') == only('`a${b + "x"}c`')
    assert only('"a".concat(b + "x", "c")') != only('"a" + b + "x" + "c"')


def test_concat_of_a_value_is_a_property() -> None:
    """`list.concat(more)` (arrays) keeps its `concat` name; only a string's `.concat` is read."""
    assert only("[a].concat(b, 'x is missing').join()") != only("[a, b, 'x is missing'].join()")
    assert only("a.concat(b, 'x is missing')") != only("`${a}${b}x is missing`")


# ---- literal constants folded into built strings (the package side) -------------------------

KDBUSH = b"""
const VERSION = 1;
const HEADER_SIZE = 8;
const PREFIX = 'kd';
export default class KDBush {
    static from(data) {
        if (!(data instanceof ArrayBuffer)) throw new Error('Data must be an instance of ArrayBuffer.');
        const [magic, versionAndType] = new Uint8Array(data, 0, 2);
        if (magic !== 0xdb) throw new Error('Data does not appear to be in a KDBush format.');
        const version = versionAndType >> 4;
        if (version !== VERSION) throw new Error(`Got v${version} data when expected v${VERSION}.`);
        return new KDBush(data.numItems, HEADER_SIZE + version);
    }
}
"""
#: what rolldown made of it in maplibre-gl 6.20.0: VERSION inlined and folded into the template
INLINED = b"""class e{static from(t){
if(!(t instanceof ArrayBuffer))throw Error("Data must be an instance of ArrayBuffer.");
let[n,r]=new Uint8Array(t,0,2);if(n!==219)throw Error("Data does not appear to be in a KDBush format.");
let i=r>>4;if(i!==1)throw Error(`Got v${i} data when expected v1.`);return new e(t.numItems,8+i)}}"""


def indexed_keys(source: bytes, name: str) -> set[int]:
    """The keys of `name` as written and with constants folded (no ES5 outputs: below)."""
    return {f.key for f in index_sources([("index.js", source)], lowerings=()).functions if f.name == name}


def bundle_key(source: bytes) -> int:
    return signature(source)[0]


def test_a_folded_constant_matches_the_package() -> None:
    keys = indexed_keys(KDBUSH, "KDBush.from")
    assert len(keys) == 2  # as written, and with VERSION folded
    assert bundle_key(INLINED) in keys
    # a bundle that kept the name matches too
    kept = INLINED.replace(b"class e{", b"const V=1;class e{").replace(b"expected v1.`", b"expected v${V}.`")
    assert bundle_key(kept) in keys


def test_another_constant_value_does_not_match() -> None:
    assert bundle_key(INLINED) not in indexed_keys(KDBUSH.replace(b"VERSION = 1", b"VERSION = 2"), "KDBush.from")
    assert bundle_key(INLINED) not in indexed_keys(KDBUSH.replace(b"expected v$", b"expected V$"), "KDBush.from")


def test_only_certain_constants_are_folded() -> None:
    for unsure in (
        b"let VERSION = 1; VERSION++;", b"var VERSION = 1; function g(VERSION) {}",
        b"const VERSION = 1; { const VERSION = 2; }", b"const VERSION = version(); ", b"const VERSION = 1n;",
    ):
        source = KDBUSH.replace(b"const VERSION = 1;", unsure)
        assert len(indexed_keys(source, "KDBush.from")) == 1, unsure
    assert len(indexed_keys(KDBUSH.replace(b"const VERSION = 1;", b"let VERSION = 1;"), "KDBush.from")) == 2


def test_numbers_are_text_only_after_text() -> None:
    """`HEADER_SIZE + version` adds numbers: nothing to fold; `PREFIX + version` is text."""
    source = KDBUSH.replace(b"expected v${VERSION}.", b"expected v${version}.")
    assert len(indexed_keys(source, "KDBush.from")) == 1
    folded = source.replace(b"HEADER_SIZE + version", b"PREFIX + version + 'items'")
    inlined = INLINED.replace(b"expected v1.", b"expected v${i}.").replace(b"8+i", b'"kd"+i+"items"')
    assert len(indexed_keys(folded, "KDBush.from")) == 2
    assert bundle_key(inlined) in indexed_keys(folded, "KDBush.from")


def test_a_small_concat_function_keeps_its_concat_tokens() -> None:
    """Read as a template, `expectNumbersClose` (tfjs-core) is 3 tokens, too few to be distinctive;
    its ES5 form keeps the `concat` tokens instead, on both sides, so that the ES5 copy in a
    package's dist bundle still matches the ES5 code of a bundle."""
    es5 = b'function f(e,t){throw new Error("Numbers differ: actual === ".concat(e,", expected === ").concat(t));' \
          b'expect().nothing()}'
    template = b"function f(a, b) { throw new Error(`Numbers differ: actual === ${a}, expected === ${b}`); " \
               b"expect().nothing(); }"
    assert signature(es5) == signature(template)
    assert signature(es5)[1] == 3
    minified = es5.replace(b"(e,t)", b"(n,r)").replace(b"(e,", b"(n,").replace(b"(t)", b"(r)")
    chosen = distinctive_signatures(parse(es5), es5, {})[1]
    assert chosen is not None and chosen.tokens == 5
    assert chosen.key == distinctive_signatures(parse(minified), minified, {})[1].key  # type: ignore[union-attr]
    assert distinctive_signatures(parse(template), template, {})[1] is None
    assert {f.key for f in index_sources([("tf-core.js", es5)]).functions} == {chosen.key}


# ---- ES5 output: a package's ES2015 class as Babel and TypeScript compile it (docs/corpus.md) -----

CLASS = b"""
export class FrameDecoder extends Emitter {
  add(frame, strict = true) {
    if (typeof frame === "string") {
      throw new Error("frame decoder: got text while reassembling a binary frame");
    }
    if (typeof frame === "object" && frame.byteLength !== undefined) {
      super.emitReserved("decoded", frame);
    }
  }
}
"""
#: TypeScript (and Babel's loose mode): the method outside its function, `super` through `prototype`
TYPESCRIPT = b"""var r=function(t){function n(){return t!==null&&t.apply(this,arguments)||this}
return n.prototype.add=function(n,e){if(e===void 0){e=!0}if(typeof n=="string")
throw new Error("frame decoder: got text while reassembling a binary frame");
typeof n=="object"&&n.byteLength!==void 0&&t.prototype.emitReserved.call(this,"decoded",n)},n}(o);"""
#: Babel preset-env since 7.23: `_typeof(n) === "object"`, `arguments.length` for the default,
#: `_superPropGet(...)`, which names no property
BABEL = b"""var H=(function(e){return K(r,[{key:"add",value:function(n){var t=arguments.length>1&&arguments[1]!==
void 0?arguments[1]:!0;if(typeof n=="string")throw new Error("frame decoder: got text while reassembling a binary \
frame");l(n)==="object"&&n.byteLength!==void 0&&F(r,"emitReserved",this,3)(["decoded",n])}}])})(he);"""


def bundle_keys(source: bytes) -> set[int]:
    return {s.key for s in distinctive_signatures(parse(source), source, {})[1:] if s is not None}


def test_a_class_method_matches_its_es5_output() -> None:
    indexed = {f.key for f in index_sources([("index.js", CLASS)]).functions}
    for compiled in (TYPESCRIPT, BABEL):
        assert bundle_keys(compiled) & indexed, compiled[:40]
    # the method as written is not what either bundle holds: the lowered rows are what match
    written = {s.key for s in distinctive_signatures(parse(CLASS), CLASS, {})[1:] if s is not None}
    assert not (bundle_keys(TYPESCRIPT) | bundle_keys(BABEL)) & written


def test_es5_output_of_another_method_does_not_match() -> None:
    indexed = {f.key for f in index_sources([("index.js", CLASS)]).functions}
    for compiled in (TYPESCRIPT, BABEL):
        assert not bundle_keys(compiled.replace(b"got text", b"got words")) & indexed
        assert not bundle_keys(compiled.replace(b'"decoded"', b'"received"')) & indexed


# ---- async functions compiled to generators by Babel's regenerator (docs/corpus.md) --------------

ASYNC = b"""
export class Loader {
  async load(url) {
    const response = await fetch(url);
    if (!response.ok) throw new Error("loader: request failed with status " + response.status);
    try {
      return await response.json();
    } catch (error) {
      throw new Error("loader: the body is not JSON");
    }
  }
}
"""
#: regenerator-runtime's form (Babel before 7.27): `_context.prev`, `.next`, `.sent`, `.abrupt("return")`
REGENERATOR_RUNTIME = b"""var L=function(){function t(){s(this,t)}return h(t,[{key:"load",value:function(){var e=\
c(o().mark((function e(t){var n;return o().wrap((function(e){for(;;)switch(e.prev=e.next){case 0:return e.next=2,\
fetch(t);case 2:if((n=e.sent).ok){e.next=5;break}throw new Error("loader: request failed with status "+n.status);\
case 5:return e.prev=5,e.next=8,n.json();case 8:return e.abrupt("return",e.sent);case 11:throw e.prev=11,\
e.t0=e.catch(5),new Error("loader: the body is not JSON");case 14:case"end":return e.stop()}}),e,null,[[5,11]])})));\
return function(t){return e.apply(this,arguments)}}()}]),t}();"""
#: Babel 7.29 and terser: `_context.p`, `.n`, `.v`, `.a(2, ...)`, `_regenerator().w` and `.m`
REGENERATOR = b"""{key:"load",value:(u=r().m(function t(n){var e;return r().w(function(t){for(;;)switch(t.p=t.n){\
case 0:return t.n=1,fetch(n);case 1:if((e=t.v).ok){t.n=2;break}throw new Error("loader: request failed with status "\
+e.status);case 2:return t.p=2,t.n=3,e.json();case 3:return t.a(2,t.v);case 4:throw t.p=4,t.v,new Error("loader: \
the body is not JSON");case 5:return t.a(2)}},t,null,[[2,4]])}),a=function(){var t=this,r=arguments;return new \
Promise(function(n,o){var i=u.apply(t,r);function a(t){e(i,n,o,a,c,"next",t)}function c(t){e(i,n,o,a,c,"throw",t)}\
a(void 0)})},function(t){return a.apply(this,arguments)})}"""


def scanned_keys(source: bytes) -> set[int]:
    """The keys `scan --signatures` writes for `source` as one unit."""
    unit = Unit(name="bundle.js", source=source, sha256="")
    return {int(f.key, 16) for f in unit_functions(unit, parse(source), {})}


def test_an_async_method_matches_its_regenerator_output() -> None:
    indexed = {f.key for f in index_sources([("index.js", ASYNC)]).functions}
    for compiled in (REGENERATOR_RUNTIME, REGENERATOR):
        assert scanned_keys(compiled) & indexed, compiled[:40]
        assert not bundle_keys(compiled) & indexed  # the state machine's own tokens differ


def test_regenerator_output_of_another_method_does_not_match() -> None:
    indexed = {f.key for f in index_sources([("index.js", ASYNC)]).functions}
    for compiled in (REGENERATOR_RUNTIME, REGENERATOR):
        assert not scanned_keys(compiled.replace(b"not JSON", b"not XML")) & indexed
        assert not scanned_keys(compiled.replace(b".json()", b".text()")) & indexed
    # a nested function's own `e.next` is the package's code, not the state machine's
    nested = REGENERATOR_RUNTIME.replace(b"n.json()", b"n.json(function(e){return e.next})")
    assert not scanned_keys(nested) & indexed
    written = ASYNC.replace(b"response.json()", b"response.json(function (e) { return e.next; })")
    assert scanned_keys(nested) & {f.key for f in index_sources([("index.js", written)]).functions}


# ---- imported bindings' members, as ESM bundlers hoist them (docs/corpus.md) ---------------------

IMPORTING = b"""
import { util } from "@tensorflow/tfjs-core";
import * as broadcast from "./broadcast_util";
export function raggedRange(starts, limits) {
  if (starts.length > 1) throw new Error("starts must be a scalar or vector");
  const splits = util.getArrayFromDType("int32", limits.length + 1);
  return broadcast.assertAndGetBroadcastShape(splits.shape, limits.shape);
}
"""
#: rollup (and esbuild, webpack's module concatenation) call the imported functions directly
HOISTED = b"""function q(e,t){if(e.length>1)throw new Error("starts must be a scalar or vector");\
var n=Ue("int32",t.length+1);return Wn(n.shape,t.shape)}"""


def test_imported_members_match_their_hoisted_form() -> None:
    indexed = {f.key for f in index_sources([("index.js", IMPORTING)]).functions}
    assert bundle_keys(HOISTED) & indexed
    # the function as written stays indexed (a bundle that keeps the members)
    assert bundle_keys(IMPORTING) <= indexed
    assert not bundle_keys(HOISTED) & bundle_keys(IMPORTING)


def test_hoisted_form_of_other_code_does_not_match() -> None:
    indexed = {f.key for f in index_sources([("index.js", IMPORTING)]).functions}
    assert not bundle_keys(HOISTED.replace(b"scalar or vector", b"scalar or matrix")) & indexed
    assert not bundle_keys(HOISTED.replace(b"n.shape,t.shape", b"n.shape,t.size")) & indexed
    # members of a local object are no import's: they are not dropped
    local = IMPORTING.replace(b'import { util } from "@tensorflow/tfjs-core";\n', b"const util = makeUtil();\n")
    assert not bundle_keys(HOISTED) & {f.key for f in index_sources([("index.js", local)]).functions}


#: a method whose computed key reads an imported member (@effect/platform 0.97's `httpMultiplex.js`)
KEYED = b"""
import * as Inspectable from "effect/Inspectable";
export class Multiplex {
  [Inspectable.NodeInspectSymbol]() {
    return Inspectable.toJSON(this);
  }
  [Inspectable.TypeId](request) {
    if (!this.apps.length) throw new Error("multiplex: no route for " + request.headers.host);
    return Inspectable.format(this, request.url);
  }
}
"""
KEYED_HOISTED = b"""var M=class{[Xe](){return Ye(this)}[Ze](t){if(!this.apps.length)throw new Error(\
"multiplex: no route for "+t.headers.host);return Qe(this,t.url)}};"""


def test_a_computed_keys_imported_members_are_not_taken_from_the_method() -> None:
    """A method's signature reads its parameters and body, not its key: the key's hoisted member
    was taken away from them too, a negative count for a short method (an internal error of
    `corpus add`) and, for a longer one, a key the hoisted form never has."""
    indexed = {f.key for f in index_sources([("index.js", KEYED)]).functions}
    assert bundle_keys(KEYED_HOISTED) & indexed
    assert not bundle_keys(KEYED_HOISTED.replace(b"no route", b"no path")) & indexed


# ---- a minifier's dropped `console` calls and a bundler's `require`s (docs/corpus.md) --------------

REQUIRED_IN_CONSOLE = b"""
const cli = {};
cli.dumpParseResults = () => {
  console.log(require("jsdoc/util/dumper").dump(props.docs));
  return cli;
};
cli.load = () => {
  const dumper = require("jsdoc/util/dumper");
  console.log("loaded: " + dumper.name);
  return dumper.dump(cli, { depth: 3, keys: "all", format: "pretty-json", header: "parse results" });
};
"""


def test_a_require_inside_a_dropped_console_call_is_taken_away_once() -> None:
    """Both rewrites together drop the `console` call and, with it, the `require` it holds: the
    package's index is made (a token taken away twice made a negative count), and each variant
    matches what the bundle writes."""
    indexed = {f.key for f in index_sources([("cli.js", REQUIRED_IN_CONSOLE)]).functions}
    # terser's drop_console and a bundler's module reference, both: the call is gone whole
    dropped = (b'const c={};c.load=()=>{const d=n(12);'
               b'return d.dump(c,{depth:3,keys:"all",format:"pretty-json",header:"parse results"})};')
    assert bundle_keys(dropped) & indexed
    assert not bundle_keys(dropped.replace(b'keys:"all"', b'keys:"own"')) & indexed
