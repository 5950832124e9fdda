"""A test against a named constant (docs/reference.md, "A named constant"): `e.code ===
yc.MethodNotFound` and `e.code === NOT_FOUND` split, `compared` the name or member as written,
`value` the literal it holds when the name is given its members once (a TypeScript enum as
TypeScript, esbuild and Bun write it, an object literal of literals or of tables, a namespace's
getters) and every other occurrence of it reads a member, or, for a name alone, when a `const` or
one assignment gives it a literal and nothing may write it again; else null. The shapes are copied
from real bundles (claude-code 2.1.235's MCP SDK, MSAL). The unit read in slices gives the same
outputs as read whole."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import run, scan, scanned_whole_and_in_slices

#: the definitions each case's handler reads, in one unit
DEFINITIONS = (
    "var yc,Gu,Ibe,Sjn,Fz,Mut,Two,Far,Arg,Sh;"
    # Bun's and esbuild's enum: a function given `X||(X={})`
    '(function(e){e[e.ConnectionClosed=-32000]="ConnectionClosed",e[e.MethodNotFound=-32601]="MethodNotFound"})'
    "(yc||(yc={}));"
    # TypeScript's string members and a numeric one, the function's value assigned
    'Gu=function(e){return e.NotConnected="NOT_CONNECTED",e[e.Busy=7]="Busy",e}({});'
    'Ibe=function(e){return e["InvalidGrant"]="invalid_grant",e}({});'
    'Sjn={INVALID_GRANT_ERROR:"invalid_grant","CLIENT_MISMATCH":"client_mismatch"};'
    'Fz=Object.freeze({EPIPE:"EPIPE"});'
    'Mut={A:"a"};Mut.A="b";'  # written after: unresolved
    '((e)=>{e.X="x"})(Two||={});((e)=>{e.Y="y"})(Two||={});'  # given members twice: unresolved
    'Far={A:"a"};keep(Far);'  # passed on, which may change it: unresolved
    'Arg={A:"a"};const all=new Set(Object.values(Arg));'  # listed: still read only
    'Sh={A:"a"};'  # a local of its name below: that function's own
    # names of one literal: a `const`; a `var` given once, where declared or later, read in calls,
    # tables and keys; written again, looped over, destructured into: unresolved
    'const NF="ENOENT";var BZ="EBUSY",LT,CH="a",LP="b",DS="c",PS="d",PR="e",PK="k",PO="o",PF="f",SENT=Error("s");'
    "function init(){LT=42}function touch(){CH=\"z\"}function walk(a){for(LP of a);}function pick(a){[DS]=a}"
    "function pass(){h(PS,1);h(1,PR,1)}for(var FV of[1]);FV=\"f\";"
    "var PT={[PK]:\"m\",t:{code:PK,d:PT[PK]}};function po(o){({k:PO}=o)}function pf(m){for([k,PF]of m);}"
    # tables of tables (MSAL's error codes): read through; one handed on, or one of whose members is
    # written, unresolved
    'var Tb,Th,Tw,Tt={a:{code:"x"}};Tb={noServer:{code:"no_server",desc:"No server"},"other":{code:"o"}};'
    'Th={a:{code:"x"},b:{code:"y"}};keep(Th.a);Tw={a:{code:"x"}};Tw.a.code="z";'
    "function m(){return Tb.noServer.desc+Tb.other.code.length}"
)

#: (condition, the first branch's tests as (field, op, value, compared)); each case a function of its own
CASES = [
    ("e.code===yc.MethodNotFound", [("code", "===", -32601, "yc.MethodNotFound")]),
    ("yc.ConnectionClosed!==e.code", [("code", "!==", -32000, "yc.ConnectionClosed")]),
    ("e instanceof Error&&e.code===Gu.NotConnected",
     [(None, "instanceof", "Error", None), ("code", "===", "NOT_CONNECTED", "Gu.NotConnected")]),
    ("e.status==Gu.Busy", [("status", "==", 7, "Gu.Busy")]),
    ("e.code===Ibe.InvalidGrant", [("code", "===", "invalid_grant", "Ibe.InvalidGrant")]),
    ("e.errorCode===Sjn.CLIENT_MISMATCH", [("errorCode", "===", "client_mismatch", "Sjn.CLIENT_MISMATCH")]),
    ("e.code===Fz.EPIPE", [("code", "===", "EPIPE", "Fz.EPIPE")]),
    ("e.code===Arg.A", [("code", "===", "a", "Arg.A")]),
    ("!(e.code===yc.MethodNotFound)", [("code", "!==", -32601, "yc.MethodNotFound")]),
    # unresolved: the test still splits, its value unknown
    ("e.code===Mut.A", [("code", "===", None, "Mut.A")]),
    ("e.code===Two.X", [("code", "===", None, "Two.X")]),
    ("e.code===Far.A", [("code", "===", None, "Far.A")]),
    ("e.code===yc.Missing", [("code", "===", None, "yc.Missing")]),
    ("e.message===Sjn.Deep.NO_PROJECT", [("message", "===", None, "Sjn.Deep.NO_PROJECT")]),
    ("e.code===t.code", [("code", "===", None, "t.code")]),  # a parameter's field
    ("e.code===Sh.A", [("code", "===", "a", "Sh.A")]),
    ("e.code===NF", [("code", "===", "ENOENT", "NF")]),
    ("BZ===e.code", [("code", "===", "EBUSY", "BZ")]),
    ("e.code===LT", [("code", "===", 42, "LT")]),
    ("e.code===CH", [("code", "===", None, "CH")]),
    ("e.code===LP", [("code", "===", None, "LP")]),
    ("e.code===DS", [("code", "===", None, "DS")]),
    ("e.code===PS", [("code", "===", "d", "PS")]),
    ("e.code===PR", [("code", "===", "e", "PR")]),
    ("e.code===PK", [("code", "===", "k", "PK")]),
    ("e.code===PO", [("code", "===", None, "PO")]),
    ("e.code===PF", [("code", "===", None, "PF")]),
    ("e.code===FV", [("code", "===", None, "FV")]),
    ("e===SENT", [(None, "===", None, "SENT")]),  # a sentinel error: the caught value is it
    ("e.code===t", [("code", "===", None, "t")]),  # a parameter
    ("e.errorCode===Tb.noServer.code", [("errorCode", "===", "no_server", "Tb.noServer.code")]),
    ("e.errorCode!==Tb.other.code", [("errorCode", "!==", "o", "Tb.other.code")]),
    ("e.code===Tt.a", [("code", "===", None, "Tt.a")]),  # a table, not a literal
    ("e.code===Th.a.code", [("code", "===", None, "Th.a.code")]),
    ("e.code===Th.b.code", [("code", "===", "y", "Th.b.code")]),
    ("e.code===Tw.a.code", [("code", "===", None, "Tw.a.code")]),
]
#: a local of the name: where the scope walk says it may be the local, unresolved; elsewhere the
#: top-level constant still is
SHADOWED = "function shadowed(Sh){try{g(Sh.A)}catch(e){if(e.code===Sh.A)return 1;throw e}}"
SHADOWED_NAME = "function shadowedName(NF){try{g(NF)}catch(e){if(e.code===NF)return 1;throw e}}"
#: a `switch` on the field whose cases are named constants and literals
SWITCH = ("function sw(t){try{g()}catch(e){switch(e.code){case yc.MethodNotFound:return 1;case \"E\":return 2;"
          "case grpc.status.NOT_FOUND:return 3;default:throw e}}}")
#: not a constant: no split
NOT_CONSTANTS = ["e.code===e.other", "e.code===this.code", "e.code===f().code", "e.code===yc?.MethodNotFound",
                 "e.code===e"]


def _bundle() -> str:
    cases = [f"function c{at}(t){{try{{g()}}catch(e){{if({condition})return {at};throw e}}}}"
             for at, (condition, _) in enumerate(CASES)]
    others = [f"function n{at}(t){{try{{g()}}catch(e){{if({condition})return 1;throw e}}}}"
              for at, condition in enumerate(NOT_CONSTANTS)]
    return DEFINITIONS + "\n" + "\n".join([*cases, SHADOWED, SHADOWED_NAME, *others, SWITCH]) + "\n"


@pytest.fixture(scope="module")
def handlers(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, object]]:
    where = tmp_path_factory.mktemp("constants")
    bundle = where / "constants.js"
    bundle.write_text(_bundle())
    scan(bundle, where / "out")
    return [json.loads(line) for line in (where / "out" / "handlers.jsonl").read_text().splitlines()]


def _tests(branch: dict[str, object]) -> list[tuple[object, ...]] | None:
    test = branch["test"]
    if test is None:
        return None
    return [(t["field"], t["op"], t["value"], t["compared"]) for t in [test, *test["also"]]]  # type: ignore[index]


@pytest.mark.parametrize(("at", "case"), list(enumerate(CASES)), ids=[c for c, _ in CASES])
def test_a_test_against_a_named_constant_splits_with_its_value(handlers: list[dict[str, object]], at: int,
                                                               case: tuple[str, list[tuple[object, ...]]]) -> None:
    branches = handlers[at]["branches"]
    assert [_tests(b) for b in branches] == [case[1], None]  # type: ignore[union-attr]


def test_a_parameter_of_the_constants_name_is_not_the_constant(handlers: list[dict[str, object]]) -> None:
    branches = handlers[len(CASES)]["branches"]
    assert [_tests(b) for b in branches] == [[("code", "===", None, "Sh.A")], None]  # type: ignore[union-attr]
    branches = handlers[len(CASES) + 1]["branches"]
    assert [_tests(b) for b in branches] == [[("code", "===", None, "NF")], None]  # type: ignore[union-attr]


@pytest.mark.parametrize("at", range(len(NOT_CONSTANTS)), ids=NOT_CONSTANTS)
def test_what_is_no_named_constant_does_not_split(handlers: list[dict[str, object]], at: int) -> None:
    branches = handlers[len(CASES) + 2 + at]["branches"]
    assert [_tests(b) for b in branches] == [None]  # type: ignore[union-attr]


def test_a_switch_case_may_be_a_named_constant(handlers: list[dict[str, object]]) -> None:
    branches = handlers[-1]["branches"]
    assert [_tests(b) for b in branches] == [  # type: ignore[union-attr]
        [("code", "===", -32601, "yc.MethodNotFound")], [("code", "===", "E", None)],
        [("code", "===", None, "grpc.status.NOT_FOUND")], None]


def test_the_unit_read_in_slices_resolves_alike_and_the_pages_show_both(tmp_path: Path) -> None:
    bundle = tmp_path / "constants.js"
    bundle.write_text(_bundle())
    scanned_whole_and_in_slices(bundle, tmp_path, 4)
    tests = "".join(p.read_text() for p in sorted((tmp_path / "whole" / "index").glob("flow-tests-*.md")))
    assert "| e.code === yc.MethodNotFound (-32601) |" in tests
    assert "| e.code === Mut.A |" in tests
    assert "| e.code === NF (\"ENOENT\") |" in tests
    first = json.loads((tmp_path / "whole" / "handlers.jsonl").read_text().splitlines()[0])
    explained = run("explain", tmp_path / "whole", first["id"])
    assert explained.returncode == 0, explained.stderr
    assert "e.code === yc.MethodNotFound (-32601)" in explained.stdout


#: esbuild's and Bun's namespace objects: `var X = {}; __export(X, {A: () => a})`, a getter per member
NAMESPACES = (
    "var __defProp=Object.defineProperty;"
    "var _t=(e,t)=>{for(var r in t)__defProp(e,r,{get:t[r],enumerable:!0,configurable:!0})};"
    'var mgt="auth_time_not_found",trr="token_refresh_required",cst="c",LL={Error:0,Info:1};'
    "var IM={};_t(IM,{authTimeNotFound:()=>mgt,tokenRefreshRequired:()=>trr});"
    "var Cke={};_t(Cke,{ClientAuthErrorCodes:()=>IM,LogLevel:()=>LL});"
    "var HN={};_t(HN,{a:()=>mgt});keep(HN);"  # handed on whole
    "var IN={};_t(IN,{x:()=>mgt});var HO={};_t(HO,{inner:()=>IN});keep(HO.inner);"  # re-exported, handed on
    "var IW={};_t(IW,{a:()=>mgt});IW.a=\"z\";"  # written through its setter
    "var NH={};other(NH,{a:()=>mgt});"  # not an export helper
    "var CW={};_t(CW,{a:()=>cst});cst=\"d\";"  # its getter's name given twice
    "function use(){return Cke.LogLevel.Error+Cke.ClientAuthErrorCodes.authTimeNotFound+IN.x}\n"
)
NAMESPACE_CASES = [
    ("e.errorCode===IM.tokenRefreshRequired", "token_refresh_required"),
    ("e.errorCode===Cke.ClientAuthErrorCodes.authTimeNotFound", "auth_time_not_found"),
    ("e.level===Cke.LogLevel.Info", 1),
    ("e.errorCode===HN.a", None),
    ("e.errorCode===IN.x", None),
    ("e.errorCode===IW.a", None),
    ("e.errorCode===NH.a", None),
    ("e.errorCode===CW.a", None),
]


def test_a_namespace_objects_getters_give_its_constants(tmp_path: Path) -> None:
    cases = [f"function n{at}(t){{try{{g()}}catch(e){{if({condition})return {at};throw e}}}}"
             for at, (condition, _) in enumerate(NAMESPACE_CASES)]
    bundle = tmp_path / "namespaces.js"
    bundle.write_text(NAMESPACES + "\n".join(cases) + "\n")
    scanned_whole_and_in_slices(bundle, tmp_path, 4)
    records = [json.loads(line) for line in (tmp_path / "whole" / "handlers.jsonl").read_text().splitlines()]
    found = [(r["branches"][0]["test"]["compared"], r["branches"][0]["test"]["value"]) for r in records]
    assert found == [(condition.partition("===")[2], value) for condition, value in NAMESPACE_CASES]


def test_hostile_namespaces_and_reads_are_bounded(tmp_path: Path) -> None:
    """A chain of namespaces each re-exporting the last, a name read 20,000 times between commas and
    a namespace of 30,000 getters: read within the unit's budgets (docs/reference.md, "A named
    constant"), what is past them unknown, never a recursion or a quadratic walk."""
    chain = [f"var N{at}={{}};_t(N{at},{{a:()=>N{at - 1}}});" for at in range(1, 400)]
    bundle = tmp_path / "hostile.js"
    bundle.write_text(
        NAMESPACES + 'var v="x";var N0={};_t(N0,{a:()=>v});' + "".join(chain)
        + "h(" + ",".join(["1,v"] * 20000) + ");"
        + "var W={};_t(W,{" + ",".join(f"k{at}:()=>mgt" for at in range(30000)) + "});"
        + "function f(t){try{g()}catch(e){if(e.code===N399.a.a)return 1;if(e.code===v)return 2;"
        "if(e.code===W.k5)return 3;if(e.code===N1.a.a)return 4;throw e}}\n")
    scan(bundle, tmp_path / "out")
    handlers = [json.loads(line) for line in (tmp_path / "out" / "handlers.jsonl").read_text().splitlines()]
    tests = [(b["test"]["compared"], b["test"]["value"]) for b in handlers[-1]["branches"] if b["test"] is not None]
    # past the depth and the bytes read for brackets: unknown; a namespace of many getters: read
    assert tests == [("N399.a.a", None), ("v", None), ("W.k5", "auth_time_not_found"), ("N1.a.a", None)]


def test_names_tested_in_a_large_item_are_searched_within_the_budget(tmp_path: Path) -> None:
    """16,000 names each given a literal and tested in one handler: each name's search reads that
    whole handler, so the unit's budget of bytes searched is met; the names read before it hold their
    literals, the rest are unknown, never guessed."""
    count = 16000
    bundle = tmp_path / "names.js"
    bundle.write_text("".join(f'var K{at}="k{at}";' for at in range(count)) + "function f(){try{g()}catch(e){"
                      + "".join(f"if(e.code===K{at})return {at};" for at in range(count)) + "throw e}}\n")
    scan(bundle, tmp_path / "out", "--jobs", 1)
    handler = json.loads((tmp_path / "out" / "handlers.jsonl").read_text().splitlines()[0])
    values = [branch["test"]["value"] for branch in handler["branches"] if branch["test"] is not None]
    read = [value for value in values if value is not None]
    assert len(values) == count and 0 < len(read) < count // 10
    assert read == [f"k{at}" for at in range(len(read))] and values[len(read):] == [None] * (count - len(read))
