"""Fuzz cases of every input kind: a case is the files to put in an empty directory and the
erratlas command to run there. Every case is made from (kind, seed, number) alone, so that a
failure is reproduced by its number: `python -m fuzz --kind K --seed S --number N`.

Kinds (the part of the issue that owns each in parentheses):
- `js-mutant`: our JavaScript fixtures (the demo bundles, the hostile and shadowing ones, what the
  handler readers were made on) with bytes flipped, cut, spliced, deleted, stray
  punctuation and tokens inserted (A);
- `js-shapes`: generated nesting of blocks, functions, arrows, ifs, try/catch, calls,
  parentheses, arrays, classes, templates, with callsites inside, sometimes broken (A);
- `bun`: hand-assembled Bun executables (ELF, Mach-O, PE, appended) with hostile names, and
  their offsets tables, module entries or trailer damaged; `scan` and `extract` (A);
- `sourcemap`: a bundle whose map has bad VLQ, out-of-range indexes, huge `sources`, malformed
  `sections`, wrong types, or whose `sourceMappingURL` leaves the directory, names a FIFO,
  is 300 characters long (A);
- `rules`: the default JavaScript rules mutated (A);
- `python`: the Python fixture tree mutated (the Python engineer);
- `allowlist`: an allowlist of real fingerprints mutated, for `scan -a`, `project`, `gate` (B);
- `archive`: wheels, sdists and `.pyz` of the Python fixture, damaged (B, Python).
"""

from __future__ import annotations

import io
import json
import random
import struct
import tarfile
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from support.bunexe import CONTAINERS, FILE, JS, NAPI, Module, elf_appended, graph

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
RULES = Path(__file__).resolve().parents[2] / "rules"

#: special file contents: a FIFO, or a symlink to the text after the colon
FIFO = b"\x00erratlas-fuzz:fifo"
SYMLINK = b"\x00erratlas-fuzz:symlink:"


@dataclass(frozen=True, slots=True)
class Case:
    kind: str
    seed: int
    number: int
    #: relative path -> bytes (or FIFO, or SYMLINK + target)
    files: dict[str, bytes]
    argv: tuple[str, ...]
    #: the directory the command replaces, holding a previous output before the run (checked
    #: untouched on exit 2); None when the verb writes nothing
    out: str | None
    #: what `out` holds before the run: `scan` (a scan of fixtures' small bundle) or `extract`
    previous: str = "scan"
    #: exit statuses that are findings rather than failures (gate: 1)
    codes: tuple[int, ...] = (0, 2)
    #: what was done to the input, for the report
    note: str = ""
    #: files the command reads (their bytes set the memory bound)
    inputs: tuple[str, ...] = field(default=())


# ---- corpora ------------------------------------------------------------------------------

_SMALL_JS = ("hostile/hostile.min.js", "hostile/hostile.js", "shadowing/shadowing.js", "shadowing/bun-wrapper.js",
             "shadowing/shadowing-esm.mjs")
_LARGE_JS = ("demo/demo.min.js", "demo/demo.bun.min.js", "demo/demo.webpack.min.js", "demo/demo.browserify.min.js",
             "demo/demo.terser.min.js", "demo/demo.cjs.min.js")
#: what the handler readers were made on: catches compiled to state machines, every disposition
#: and split, named constants, as esbuild and terser write them
_FLOW_JS = ("es5-async/babel.esbuild.min.js", "es5-async/babel.terser.min.js", "es5-async/typescript.esbuild.min.js",
            "es5-async/typescript.terser.min.js", "flow/built/splits.min.js", "flow/built/splits.terser.min.js",
            "flow/built/helpers.min.js", "flow/built/rejects.terser.min.js", "flow/built/bindings.min.js",
            "flow/built/fates.min.js", "eslint/built/app.terser.min.js")
_PUNCTUATION = b"{}()[];,:?=.'\"`/\\<>!*+-&|^%~@#$"
_TOKENS = (b"function(", b"=>", b"{", b"}", b"`${", b"/*", b"*/", b"//", b'"', b"'", b"new Error(", b"Error(",
           b"TypeError(", b"class X extends Error{", b"T(", b',{level:"debug"}',
           b"function T(e,{level:t}={level:\"debug\"}){",
           b"(function(exports, require, module, __filename, __dirname) {", b"var Error=", b"let ", b"catch(Error){",
           b"import{a as Error}from'x';", b"#!", b"\xe2\x80\xa8", b"\xf0\x9f\x98\x80", b"\\u{", b"/[", b"]/g",
           b"//# sourceMappingURL=", b"...", b"?.", b"??", b"async ", b"yield ", b"await ", b"static{", b"#x")


def _corpus(names: tuple[str, ...]) -> list[tuple[str, bytes]]:
    return [(name, (FIXTURES / name).read_bytes()) for name in names]


_CACHE: dict[str, object] = {}


def _cached(key: str, make: Callable[[], object]) -> object:
    if key not in _CACHE:
        _CACHE[key] = make()
    return _CACHE[key]


def small_js() -> list[tuple[str, bytes]]:
    return _cached("small", lambda: _corpus(_SMALL_JS))  # type: ignore[return-value]


def large_js() -> list[tuple[str, bytes]]:
    return _cached("large", lambda: _corpus(_LARGE_JS))  # type: ignore[return-value]


def flow_js() -> list[tuple[str, bytes]]:
    return _cached("flow", lambda: _corpus(_FLOW_JS))  # type: ignore[return-value]


# ---- byte mutations -----------------------------------------------------------------------


def mutate(rng: random.Random, data: bytes, rounds: int | None = None) -> tuple[bytes, str]:
    """`data` with 1-3 mutations (what was done, for the report)."""
    done = []
    buffer = bytearray(data)
    for _ in range(rounds or rng.randint(1, 3)):
        buffer, what = _MUTATIONS[rng.randrange(len(_MUTATIONS))](rng, buffer)
        done.append(what)
    return bytes(buffer), ", ".join(done)


def _flip(rng: random.Random, data: bytearray) -> tuple[bytearray, str]:
    for _ in range(rng.randint(1, 8)):
        if data:
            data[rng.randrange(len(data))] = rng.randrange(32, 127) if rng.random() < 0.9 else rng.randrange(256)
    return data, "flipped bytes"


def _truncate(rng: random.Random, data: bytearray) -> tuple[bytearray, str]:
    cut = rng.randrange(len(data) + 1)
    return data[:cut], f"cut at {cut}"


def _splice(rng: random.Random, data: bytearray) -> tuple[bytearray, str]:
    if not data:
        return data, "splice of nothing"
    start = rng.randrange(len(data))
    piece = data[start:start + rng.randint(1, 2000)]
    at = rng.randrange(len(data) + 1)
    data[at:at] = piece
    return data, f"spliced {len(piece)} bytes at {at}"


def _delete(rng: random.Random, data: bytearray) -> tuple[bytearray, str]:
    if not data:
        return data, "delete of nothing"
    start = rng.randrange(len(data))
    end = min(len(data), start + rng.randint(1, 2000))
    del data[start:end]
    return data, f"deleted {start}..{end}"


def _punctuate(rng: random.Random, data: bytearray) -> tuple[bytearray, str]:
    for _ in range(rng.randint(1, 10)):
        at = rng.randrange(len(data) + 1)
        data[at:at] = bytes([_PUNCTUATION[rng.randrange(len(_PUNCTUATION))]])
    return data, "stray punctuation"


def _tokens(rng: random.Random, data: bytearray) -> tuple[bytearray, str]:
    for _ in range(rng.randint(1, 4)):
        at = rng.randrange(len(data) + 1)
        data[at:at] = rng.choice(_TOKENS)
    return data, "stray tokens"


_MUTATIONS = (_flip, _truncate, _splice, _delete, _punctuate, _tokens)


# ---- JavaScript ---------------------------------------------------------------------------


def js_mutant(rng: random.Random) -> tuple[dict[str, bytes], str]:
    pick = rng.random()
    name, data = rng.choice(large_js() if pick < 0.25 else flow_js() if pick < 0.5 else small_js())
    mutated, note = mutate(rng, data)
    suffix = ".mjs" if name.endswith(".mjs") else ".js"
    return {f"bundle{suffix}": mutated}, f"{name}: {note}"


_WRAPPERS = (
    (b"{", b"}"), (b"function a(b){", b"}"), (b"(()=>{", b"})"), (b"if(a){", b"}"), (b"try{", b"}catch(e){}"),
    (b"f(", b")"), (b"(", b")"), (b"[", b"]"), (b"x={a:", b"}"), (b"class C extends Error{m(){", b"}}"),
    (b"`${", b"}`"), (b"a?", b":0"), (b"async function*g(){", b"}"), (b"switch(a){case 1:", b"}"),
    (b"for(let i of a){", b"}"), (b"label:{", b"}"), (b"new F(", b")"), (b"a=>", b""),
)
_INNER = (b'throw new Error("x");', b'new TypeError(`a${b}c`);', b"Error(m);", b'T("m",{level:"warn"});',
          b"RangeError();", b"return new Error(x?'a':'b');", b"var Error=1;new Error('shadowed');")


_WIDE = (
    ("array of errors", lambda n: b"x=[" + b'new Error("e"),' * n + b"];"),
    ("arguments of errors", lambda n: b"f(" + b"Error(a)," * n + b");"),
    ("object of errors", lambda n: b"x={" + b"".join(b"k%d:new TypeError(`%d`)," % (i, i) for i in range(n)) + b"};"),
    (
        "class chain",
        lambda n: b"class A0 extends Error{}" + b"".join(b"class A%d extends A%d{}" % (i + 1, i) for i in range(n)),
    ),
    ("sequence", lambda n: b"x=(" + b"a," * n + b"new Error(1));"),
    ("or chain", lambda n: b"throw " + b"a||" * n + b"new Error(1);"),
    ("switch cases", lambda n: b"switch(a){" + b"case 1:throw new Error(1);" * n + b"}"),
    ("template holes", lambda n: b"x=`" + b"${new Error(1)}" * n + b"`;"),
    ("sequential", lambda n: b'new Error("x");' * n),
    # a handler's body, wide or deep: its tests, branches and dispositions are read iteratively
    ("caught: negations", lambda n: _caught(b"if(" + b"!" * n + b"e.code)return 1;throw e")),
    ("caught: blocks", lambda n: _caught(b"if(e.code)" + b"{" * n + b"throw e" + b"}" * n)),
    ("caught: thrown ?: chain", lambda n: _caught(b"throw " + b"".join(b"a[%d]?e:" % i for i in range(n)) + b"e")),
    ("caught: thrown || chain", lambda n: _caught(b"throw " + b"a||" * n + b"e")),
    ("caught: returned ?: chain", lambda n: _caught(b"return " + b"a?1:" * n + b"e")),
    ("caught: stored ?: chain", lambda n: _caught(b"s=" + b"a?1:" * n + b"e")),
    ("caught: aliases", lambda n: _caught(b"let t0=e;" + b"".join(b"let t%d=t%d;" % (i + 1, i) for i in range(n))
                                          + b"throw t%d" % n)),
    ("caught: else if chain", lambda n: _caught(b"else ".join(b'if(e.code==="C%d")return %d;' % (i, i)
                                                             for i in range(n)) + b"throw e")),
    ("caught: tests in a row", lambda n: _caught(b"".join(b'if(e.code==="C%d")throw new Error("x",{cause:e});' % i
                                                          for i in range(n)) + b"return 1")),
    ("caught: || of tests", lambda n: _caught(b"if(" + b"||".join(b'e.code==="C%d"' % i for i in range(n))
                                              + b")return 1;throw e")),
    ("caught: && of tests", lambda n: _caught(b"if(" + b"&&".join(b"e.c%d" % i for i in range(n))
                                              + b")return 1;throw e")),
    ("caught: ! of an ||", lambda n: _caught(b"if(!(" + b"||".join(b'e.code==="C%d"' % i for i in range(n))
                                             + b"))throw e;return 1")),
    ("caught: nested && and ||", lambda n: _caught(b"if(" + b"e.a&&(e.b||(" * n + b"e.code" + b"))" * n
                                                   + b")return 1;throw e")),
    ("promise handlers chained", lambda n: b"g()" + b".catch(e=>{throw e})" * n + b";"),
    # catch clauses compiled to state machines (Babel's regenerator, TypeScript's __generator), wide
    ("compiled: cases", lambda n: _machine(b"".join(b"case %d:t.next=%d;return g(%d);" % (2 * i + 1, 2 * i + 3, i)
                                                    for i in range(n)), 2 * n + 1)),
    ("compiled: catch tests", lambda n: _machine(b"".join(b'if(t.t0.code==="C%d")return t.abrupt("return",%d);' % (i, i)
                                                          for i in range(n)), 1)),
    ("compiled: trys", lambda n: b"function f(){return __generator(this,function(a){switch(a.label){"
                                 + b"".join(b"case %d:a.trys.push([%d,%d,,%d]);return[4,g()];" % (i, i, i + 1, i + 2)
                                            for i in range(n)) + b"}})}"),
    # named constants: a table read many times, namespaces re-exporting one another, names given once
    ("constants: reads", lambda n: b'var X={A:"a",B:{code:"b"}};' + b"f(X.A),g(X.B.code);" * n
                                   + _caught(b"if(e.code===X.A||e.code===X.B.code)return 1;throw e")),
    ("constants: namespaces", lambda n: b"var _t=(e,t)=>{for(var r in t)Object.defineProperty(e,r,{get:t[r]})};"
                                        b'var v="x";var N0={};_t(N0,{a:()=>v});'
                                        + b"".join(b"var N%d={};_t(N%d,{a:()=>N%d});" % (i + 1, i + 1, i)
                                                   for i in range(n))
                                        + _caught(b"if(e.code===N%d.a)return 1;throw e" % n)),
    # the error sink's name too common to search (climbed from each call), in a compiled catch too
    ("sink: a name too common to search", lambda n: _common_sink(4097 + n)),
    ("constants: names given once", lambda n: b"".join(b'var K%d;function i%d(){K%d="k%d"}' % (i, i, i, i)
                                                         for i in range(n))
                                              + _caught(b"".join(b"if(e.code===K%d)return %d;" % (i, i)
                                                                 for i in range(min(n, 50))) + b"throw e")),
)


def _machine(cases: bytes, catch_case: int) -> bytes:
    """Babel's regenerator (the old runtime) with these cases before its catch case."""
    return (b"function f(){return r().wrap(function(t){for(;;)switch(t.prev=t.next){case 0:t.prev=0;" + cases
            + b"case %d:t.prev=%d;t.t0=t.catch(0);if(t.t0.code)throw t.t0;case 99999:case\"end\":return t.stop()}"
            % (catch_case, catch_case) + b"},null,null,[[0,%d]])}" % catch_case)


def _common_sink(occurrences: int) -> bytes:
    """`r`, the error sink, given the caught value in three functions, shadowed by a parameter given
    it in a catch clause and in a compiled one (parsed alone: climbed from the unit's `r`), its
    bytes past the search's bound."""
    machine = (b"function m(r){return q().wrap(function(t){for(;;)switch(t.prev=t.next){case 0:t.prev=0;t.next=3;"
               b'return g();case 3:t.prev=3;t.t0=t.catch(0);r(t.t0);case 99999:case"end":return t.stop()}},null,null,'
               b"[[0,3]])}")
    return (b"function r(e){s(e)}" + b"function f(a){try{g()}catch(e){r(e)}}" * 3
            + b"function h(r){try{g()}catch(e){r(e)}}" + machine + b"x=[" + b"r," * occurrences + b"];")


def _caught(body: bytes) -> bytes:
    return b"var s;function f(a){try{g()}catch(e){" + body + b"}}"


def js_shapes(rng: random.Random) -> tuple[dict[str, bytes], str]:
    if rng.random() < 0.3:
        name, make = rng.choice(_WIDE)
        width = rng.choice((1, 10, 100, 1000, 5000))
        data = make(width)
        note = f"{name} x{width}"
        if rng.random() < 0.3:
            data, more = mutate(rng, data, 1)
            note += f", {more}"
        return {"bundle.js": data + b"\n"}, note
    depth = rng.choice((1, 10, 100, 1000, rng.randint(1, 3000)))
    chosen = [rng.choice(_WRAPPERS) for _ in range(rng.randint(1, 3))]
    opens, closes = [], []
    for level in range(depth):
        opening, closing = chosen[level % len(chosen)]
        opens.append(opening)
        closes.append(closing)
        if rng.random() < 0.02:
            opens.append(rng.choice(_INNER))
    inner = b"".join(rng.choice(_INNER) for _ in range(rng.randint(1, 5)))
    tail = b"".join(reversed(closes))
    note = f"depth {depth} of {b' / '.join(o for o, _ in chosen).decode()}"
    if rng.random() < 0.3:
        cut = rng.randrange(len(tail) + 1)
        tail, note = tail[:cut], note + f", closers cut at {cut}"
    head = b'function T(e,{level:t}={level:"debug"}){}' if rng.random() < 0.5 else b""
    return {"bundle.js": head + b"".join(opens) + inner + tail + b"\n"}, note


# ---- Bun executables ----------------------------------------------------------------------

_NAMES = (
    "/$bunfs/root/cli", "/$bunfs/root/a.js", "/$bunfs/root/a", "/$bunfs/root/a/b.js", "manifest.json",
    "/$bunfs/root/" + "n" * 250 + ".js", "B:/~BUN/root/win.js", "B:\\~BUN\\root\\w2.js", "../../escape.js", "/", "",
    "/$bunfs/root/../../x.js", "C:/drive.js", "/$bunfs/root/a b.js", "/$bunfs/root/a_b.js",
)
_RAW_NAMES = (b"/$bunfs/root/\xff\xfe.js", b"/$bunfs/root/a\x00b.js", b"/$bunfs/root/\x01\x1f.js",
              b"/$bunfs/root/" + b"x/" * 400 + b"deep.js")


def bun(rng: random.Random) -> tuple[dict[str, bytes], str, bool]:
    """(files, note, whether to extract rather than scan)."""
    modules = []
    for _ in range(rng.randint(1, 4)):
        name: str | bytes = rng.choice(_NAMES) if rng.random() < 0.75 else rng.choice(_RAW_NAMES)
        if name == "":
            name = "/$bunfs/root/empty-name-replaced.js"
        _, source = rng.choice(small_js())
        if rng.random() < 0.3:
            source, _ = mutate(rng, source, 1)
        loader = rng.choice((JS, JS, JS, FILE, NAPI))
        modules.append(Module(name, source, loader=loader, bytecode=b"\xfa" * rng.choice((0, 0, 64))))
    if rng.random() < 0.3:
        modules.append(Module(modules[0].path, b'new Error("twin");'))
    payload = graph(modules, entry_point=rng.randrange(len(modules)))
    container = rng.choice([*sorted(CONTAINERS), "appended"])
    data = bytearray(elf_appended(payload) if container == "appended" else CONTAINERS[container](payload))
    note = f"{container}, {len(modules)} modules"
    damage = rng.random()
    if damage < 0.45:
        data, what = _damage_graph(rng, data, len(modules))
        note += f", {what}"
    elif damage < 0.55:
        data, what = _truncate(rng, data)
        note += f", {what}"
    return {"app": bytes(data)}, note, rng.random() < 0.35


def _damage_graph(rng: random.Random, data: bytearray, count: int) -> tuple[bytearray, str]:
    """Overwrite u32 fields of the offsets table or of the module entries."""
    trailer = data.rfind(b"\n---- Bun! ----\n")
    if trailer < 32:
        return data, "no trailer to damage"
    offsets = trailer - 32
    table_offset, table_length = struct.unpack_from("<II", data, offsets + 8)
    byte_count = struct.unpack_from("<Q", data, offsets)[0]
    graph_start = offsets - byte_count
    targets = [offsets + at for at in range(0, 32, 4)]
    table_at = graph_start + table_offset
    if table_at >= 0 and table_at + table_length <= offsets:
        targets += [table_at + at for at in range(0, min(table_length, 52 * count), 4)]
    what = []
    for _ in range(rng.randint(1, 3)):
        at = rng.choice(targets)
        value = rng.choice((0, 1, 0xFFFFFFFF, 0x7FFFFFFF, rng.randrange(1 << 32), rng.randrange(4096),
                            struct.unpack_from("<I", data, at)[0] + rng.choice((-1, 1, 52))))
        struct.pack_into("<I", data, at, value & 0xFFFFFFFF)
        what.append(f"u32 at {at - offsets:+d} = {value & 0xFFFFFFFF}")
    if rng.random() < 0.2:
        at = trailer + rng.randrange(16)
        data[at] ^= 0x20
        what.append("trailer byte")
    return data, "; ".join(what)


# ---- source maps --------------------------------------------------------------------------

_URLS = ("../../../../etc/passwd", "a" * 300 + ".map", "data:application/json;base64,!!!", "%2e%2e/%2e%2e/x.map",
         "/etc/hostname", "sub/../../x.map", "fifo.map", "link.map", "bundle.js.map?x#y",
         "data:application/json,{\"version\":3,\"sections\":7}", "file:///etc/passwd", "dir.map")
_VLQ = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"


def sourcemap(rng: random.Random) -> tuple[dict[str, bytes], str]:
    bundle = (FIXTURES / "hostile" / "hostile.min.js").read_bytes()
    document = json.loads((FIXTURES / "hostile" / "hostile.min.js.map").read_bytes())
    cut = bundle.rfind(b"//# sourceMappingURL=")
    body = bundle[:cut] if cut >= 0 else bundle
    files: dict[str, bytes] = {}
    choice = rng.random()
    if choice < 0.3:
        url = rng.choice(_URLS)
        files["fifo.map"] = FIFO
        files["link.map"] = SYMLINK + b"/etc/hostname"
        files["dir.map/x"] = b"{}"
        files["bundle.js"] = body + b"//# sourceMappingURL=" + url.encode() + b"\n"
        return files, f"sourceMappingURL={url[:60]}"
    note = _damage_map(rng, document)
    raw = json.dumps(document).encode()
    if rng.random() < 0.2:
        raw, more = mutate(rng, raw, 1)
        note += f", map bytes: {more}"
    files["bundle.js"] = body + b"//# sourceMappingURL=bundle.js.map\n"
    files["bundle.js.map"] = raw
    return files, note


def _damage_map(rng: random.Random, document: dict[str, object]) -> str:
    what = rng.randrange(9)
    if what == 0:
        document["mappings"] = "".join(rng.choice(_VLQ + ";,!é") for _ in range(rng.randint(0, 4000)))
        return "random mappings"
    if what == 1:
        document["mappings"] = rng.choice(("gggggggggggggggggggggggggggg", "A" * 100000, ";" * 50000, "AAAAA,B", "Z"))
        return "bad VLQ"
    if what == 2:
        document["mappings"] = ",".join(
            rng.choice(("AAAA", "ACAA", "A/AA", "AZZZ", "gBgBgBgB", "Ag+/A")) for _ in range(300)
        )
        return "out-of-range indexes"
    if what == 3:
        document["sources"] = ["s"] * rng.choice((0, 1, 100000, 1_100_000))
        return f"{len(document['sources'])} sources"  # type: ignore[arg-type]
    if what == 4:
        document["sources"] = [rng.choice((1, None, {}, [], "x", True)) for _ in range(5)]
        return "sources of other types"
    if what == 5:
        section: dict[str, object] = {
            "offset": rng.choice(
                ({"line": 0, "column": 0}, {"line": -1}, {"line": "1"}, "x", None, {"line": 2**40}, {"line": 1.5}, [])
            ),
            "map": rng.choice((dict(document), {}, "x", None, {"version": 3, "sources": [], "mappings": "A"})),
        }
        sections = [section] * rng.randint(0, 3)
        document.clear()
        document.update({"version": 3, "sections": rng.choice((sections, "x", None, [1, 2], {}))})
        return "index map sections"
    if what == 6:
        document["version"] = rng.choice((2, "3", None, 3.0, 4))
        return "version"
    if what == 7:
        document["sourceRoot"] = rng.choice(("../../..", "/abs", 7, None, "webpack://x/", "\x00"))
        return "sourceRoot"
    for key in rng.sample(sorted(document), k=min(len(document), 2)):
        document[key] = rng.choice((None, 1, [], {}, "x"))
    return "keys of other types"


# ---- rules --------------------------------------------------------------------------------


def rules(rng: random.Random) -> tuple[dict[str, bytes], str]:
    text = (RULES / "javascript.toml").read_bytes()
    choice = rng.random()
    if choice < 0.2:
        depth = rng.choice((10, 1000, 20000))
        text = text.replace(b'["Error", "TypeError", "RangeError"]', b"[" * depth + b"]" * depth, 1)
        note = f"constructors nested {depth} deep"
    elif choice < 0.45:
        replacements = (
            (b'name = ""', b"name = 7"),
            (b"minLevelOptionCalls = 2", b"minLevelOptionCalls = -1"),
            (b'levelKey = "level"', b'levelKey = ""'),
            (b"messageArgument = 0", b"messageArgument = 99999999999"),
            (b'defaultLevel = "debug"', b'defaultLevel = "nope"'),
            (b"[logger]", b"[logger]\ncolour = 1"),
            (b'"Error", "TypeError"', b'"Error", "Error"'),
            (b'name = ""', b'name = "a-b"'),
            (b"[errors]", b"[errors.x]"),
            (b'name = ""', b'name = "' + b"x" * 100000 + b'"'),
        )
        old, new = rng.choice(replacements)
        text = text.replace(old, new, 1)
        note = f"{old.decode()} -> {new[:40].decode(errors='replace')}"
    else:
        text, note = mutate(rng, text)
    return {"rules.toml": text, "bundle.js": (FIXTURES / "shadowing" / "bun-wrapper.js").read_bytes()}, note


# ---- Python -------------------------------------------------------------------------------


_IN = b"        "  # a statement of the except clause's body
_PYTHON_HANDLERS = (
    ("elif chain", lambda n: _IN + b"if e.errno == 0:\n            return 0\n"  # past the bound of 5,000 `elif`s
     + b"".join(_IN + b"elif e.errno == %d:\n            return %d\n" % (i, i) for i in range(1, 2 * n))
     + _IN + b"raise"),
    ("ifs in a row", lambda n: b"".join(_IN + b"if e.errno == %d:\n            raise X() from e\n" % i
                                        for i in range(n)) + _IN + b"return 1"),
    ("aliases", lambda n: _IN + b"t0 = e\n" + b"".join(_IN + b"t%d = t%d\n" % (i + 1, i) for i in range(n))
     + _IN + b"raise t%d" % n),
    ("an or of tests", lambda n: _IN + b"if " + b" or ".join(b"e.errno == %d" % i for i in range(n))
     + b":\n            raise"),
    ("an and of tests", lambda n: _IN + b"if " + b" and ".join(b"e.a%d" % i for i in range(n))
     + b":\n            raise"),
    ("statements", lambda n: (_IN + b"log(e)\n") * n + _IN + b"raise"),
)


def python_tree() -> dict[str, bytes]:
    root = FIXTURES / "python" / "shadowing" / "app"
    return {f"app/{p.name}": p.read_bytes() for p in sorted(root.glob("*.py"))}


def python(rng: random.Random) -> tuple[dict[str, bytes], str]:
    files = python_tree()
    name = rng.choice(sorted(files))
    if rng.random() < 0.1:
        # 1,300 levels hang the Python scan today (its owner's, KNOWN in test_fuzz.py): rare,
        # so that a long run spends its time on cases that end
        depth = rng.choice((50, 500, 500, 500, 500, 1300))
        files[name] += b"\nx = " + b"(" * depth + b"1" + b")" * depth + b"\n"
        return files, f"{name}: parentheses {depth} deep"
    if rng.random() < 0.1:  # an except clause's body wide or deep: its branches and dispositions
        width = rng.choice((10, 1000, 5000))  # 30,000 statements of a function take 0.5 GB in libcst, handler or not
        shape, body = rng.choice(_PYTHON_HANDLERS)
        files[name] += b"\ndef fuzzed(a):\n    try:\n        g()\n    except OSError as e:\n" + body(width) + b"\n"
        return files, f"{name}: {shape} x{width}"
    files[name], note = mutate(rng, files[name])
    if rng.random() < 0.1:
        files[b"app/caf\xe9.py".decode("utf-8", "surrogateescape")] = b"raise ValueError('x')\n"
        note += ", a file name that is not UTF-8"
    return files, f"{name}: {note}"


# ---- allowlists ---------------------------------------------------------------------------

_ALLOWLIST = """schema = "erratlas.allowlist/1"

[[entry]]
match = {{ callsite = "{callsite}" }}
owner = "Product"
function = "f"
reason = "checked"
reviewedBy = "fuzz"
reviewedOn = "2026-01-01"

[[entry]]
match = {{ function = "fp1f:{function}" }}
owner = "Dependency"
package = "commander"
expect = "x"
catchOwner = "Product"
reason = "checked"
reviewedBy = "fuzz"
reviewedOn = "2026-01-01"
"""


def allowlist(rng: random.Random, callsite: str) -> tuple[dict[str, bytes], str, str]:
    """(files, note, verb): `callsite` is a real fingerprint of the small bundle's scan."""
    text = _ALLOWLIST.format(callsite=callsite, function="0" * 32).encode()
    if rng.random() < 0.15:
        depth = rng.choice((100, 20000))
        text += b"x = " + b"[" * depth + b"]" * depth + b"\n"
        note = f"array nested {depth} deep"
    elif rng.random() < 0.2:
        text = (
            b'entry = [ { match = { callsite = "'
            + callsite.encode()
            + b'" }, owner = "Product", reason = "r", reviewedBy = "f", reviewedOn = "2026-01-01" } ]\n'
        )
        note = "inline entry array"
    else:
        text, note = mutate(rng, text)
    verb = rng.choice(("scan", "project", "gate"))
    return {"allow.toml": text}, note, verb


# ---- archives -----------------------------------------------------------------------------


def archive(rng: random.Random) -> tuple[dict[str, bytes], str]:
    files = {name.removeprefix("app/"): data for name, data in python_tree().items()}
    form = rng.choice(("whl", "sdist", "pyz"))
    names = {f"app/{n}": d for n, d in files.items()}
    if rng.random() < 0.2:
        extra = rng.choice(("app/" + "n" * 250 + ".py", "app/\udce9.py", "app/a.py"))
        names[extra] = b"raise KeyError\n"
    buffer = io.BytesIO()
    if form == "sdist":
        with tarfile.open(
            fileobj=buffer, mode="w:gz", format=rng.choice((tarfile.GNU_FORMAT, tarfile.PAX_FORMAT))
        ) as tar:
            for name, data in sorted(names.items()):
                info = tarfile.TarInfo(f"app-1.0/{name}")
                info.size = len(data)
                info.mtime = 0
                tar.addfile(info, io.BytesIO(data))
        archive_name = "app-1.0.tar.gz"
    else:
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zip_file:
            for name, data in sorted(names.items()):
                zip_file.writestr(
                    zipfile.ZipInfo(name.encode("utf-8", "surrogateescape").decode("cp437"), (1980, 1, 1, 0, 0, 0)),
                    data,
                )
            if form == "whl":
                zip_file.writestr("app-1.0.dist-info/METADATA", "Name: app\nVersion: 1.0\n")
            else:
                zip_file.writestr("__main__.py", "import app\n")
        archive_name = "app-1.0-py3-none-any.whl" if form == "whl" else "app.pyz"
    data = buffer.getvalue()
    note = form
    if rng.random() < 0.7:
        data, more = mutate(rng, data, rng.randint(1, 2))
        note += f", {more}"
    return {archive_name: data}, note
