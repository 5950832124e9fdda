"""Catch clauses of async functions compiled to ES5 state machines (docs/reference.md, "Compiled
catch clauses"): Babel's regenerator (preset-env for IE 11) and TypeScript's `__generator` (target
ES5), as written and minified by terser and esbuild (fixtures/es5-async/, built by
fixtures/tools/es5-async-build.mjs). The oracle is the source itself, scanned as written: each build
has a handler for each of its catch clauses, with the same branches and dispositions; the older
regenerator runtime is read on axios 1.7.9's shipped bundle; the calls in compiled catches count for
the error sink."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import FIXTURES, scan, scanned_whole_and_in_slices

BUILDS = FIXTURES / "es5-async"
SOURCE = FIXTURES / "src" / "es5-async" / "handlers.js"
OUTPUTS = ("babel.js", "babel.terser.min.js", "babel.esbuild.min.js",
           "typescript.js", "typescript.terser.min.js", "typescript.esbuild.min.js")
#: the source's handlers a build leaves out, counted from the end: `awaitedPassedOn`, `temporaries`,
#: `retries` and `innerLeftOut`'s inner catch; terser's builds `awaitedReturned` (below); and
#: TypeScript's minified builds `elseChain`, whose `if`/`else` of jumps they fold into `return c ? [3, 3] :
#: (a, [3, 5])`, a jump that is none of the shapes read
LEFT_OUT = (-5, -4, -3, -2)
TERSER_LEFT_OUT = (*LEFT_OUT, -6)
ELSE_CHAIN = -8


def _kept(oracle: list[Any], name: str) -> list[Any]:
    left_out = TERSER_LEFT_OUT if "terser" in name else LEFT_OUT
    if name.startswith("typescript.") and ".min." in name:
        left_out = (*left_out, ELSE_CHAIN)
    return [h for at, h in enumerate(oracle) if at - len(oracle) not in left_out]


def _read(handler: dict[str, Any]) -> list[tuple[Any, ...]]:
    """A handler's branches as a build keeps them: each test and each disposition's kind and cause
    (callees and parameters are renamed by the minifiers), after the count of its direct sources."""
    out: list[tuple[Any, ...]] = [("direct sources", sum(1 for s in handler["sources"] if s["via"] == "direct"))]
    for branch in handler["branches"]:
        test = branch["test"]
        tested = None if test is None else (test["field"], test["op"], json.dumps(test["value"]))
        out.append((tested, tuple((d["kind"], d["cause"]) for d in branch["dispositions"])))
    return out


def _handlers(out: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (out / "handlers.jsonl").read_text(encoding="utf-8").splitlines() if line]


def _compiled(out: Path, bundle: Path) -> list[dict[str, Any]]:
    """The handlers at a `case` keyword: the compiled catch clauses."""
    text = bundle.read_bytes()
    return [h for h in _handlers(out) if text[h["offset"]:h["offset"] + 4] == b"case"]


@pytest.fixture(scope="module")
def oracle(tmp_path_factory: pytest.TempPathFactory) -> list[list[tuple[Any, ...]]]:
    out = tmp_path_factory.mktemp("source")
    scan(SOURCE, out, "--jobs", 1)
    return [_read(h) for h in _handlers(out)]


def test_the_oracle_reads_every_catch_clause_of_the_source(oracle: list[list[tuple[Any, ...]]]) -> None:
    assert len(oracle) == 26
    kinds = {kind for handler in oracle for _, dispositions in handler[1:] for kind, _ in dispositions}
    assert sum(handler[0][1] for handler in oracle) == 2  # "empty read" and "inner empty"
    assert kinds == {"rethrow", "log", "wrap", "return-value", "callback", "swallow", "store", "return-error", "retry"}


@pytest.mark.parametrize("name", OUTPUTS)
def test_each_es5_build_has_the_sources_handlers_branches_and_dispositions(
        name: str, oracle: list[list[tuple[Any, ...]]], tmp_path: Path) -> None:
    bundle = BUILDS / name
    out = scanned_whole_and_in_slices(bundle, tmp_path, 3)
    compiled = _compiled(out, bundle)
    assert [_read(h) for h in compiled] == _kept(oracle, name)
    assert all(h["form"] == "catch" for h in compiled)


@pytest.mark.parametrize("name", OUTPUTS)
def test_a_catch_reading_the_machines_temporaries_or_in_a_loop_is_left_out(
        name: str, oracle: list[list[tuple[Any, ...]]], tmp_path: Path) -> None:
    """Three handlers of the source: `report(e, await read())` and `report(await convert(e))`,
    whose compiled calls read from temporaries the machine saved before the await
    (`_t2(_t3, _context.v)`, `_a.apply(void 0, [_b.sent()])`), and a catch that retries (its try
    is in a loop): the clause parsed alone would not read them as the source, so their compiled
    catches are not recorded."""
    assert [o[1:] for o in oracle[-5:-2]] == [[(None, (("callback", None),))], [(None, (("callback", None),))],
                                              [(None, (("log", None), ("retry", None)))]]
    scan(BUILDS / name, tmp_path, "--jobs", 1)
    assert len(_compiled(tmp_path, BUILDS / name)) == len(_kept(oracle, name))


@pytest.mark.parametrize("name", OUTPUTS)
def test_an_error_a_left_out_catch_catches_names_no_handler(name: str, tmp_path: Path) -> None:
    """`innerLeftOut`: "inner empty" is thrown in an inner try whose compiled catch is left out
    (it reads the machine's temporaries): its flow names no handler, not the outer catch."""
    bundle = BUILDS / name
    scan(bundle, tmp_path, "--jobs", 1)
    sites = [json.loads(line) for line in (tmp_path / "error-message-callsites.jsonl").read_text().splitlines()]
    site = next(s for s in sites if s["message"]["text"] == "inner empty")
    assert site["flow"]["handler"] is None


@pytest.mark.parametrize("name", ["babel.js", "typescript.js"])
def test_an_awaited_value_the_next_case_reads_is_the_awaited_call(name: str, tmp_path: Path) -> None:
    """`const gError = await getError(e, "read"); throw gError` and `return await convert(e)`:
    the value `_a.sent()` (`_context.v`) gives back in the case after the await is the call's, so
    the compiled catches read as the source does, the callee too: a `wrap` alone (not a `callback`
    of `getError` and a `wrap` that lost the cause), a `callback` of `convert` (not a
    `return-value` besides)."""
    bundle = BUILDS / name
    scan(SOURCE, tmp_path / "source", "--jobs", 1)
    scan(bundle, tmp_path / "built", "--jobs", 1)
    text = bundle.read_bytes()

    def branches(handler: dict[str, Any]) -> list[list[tuple[Any, ...]]]:
        return [[(d["kind"], d["cause"], d["callee"]) for d in b["dispositions"]] for b in handler["branches"]]

    source = _handlers(tmp_path / "source")
    built = {call: next(h for h in _compiled(tmp_path / "built", bundle)
                        if call in text[h["offset"]:h["endOffset"]]) for call in (b"getError(", b"convert(")}
    assert branches(built[b"getError("]) == branches(source[-7]) == [[("wrap", "partial", None)]]
    assert branches(built[b"convert("]) == branches(source[-6]) == [[("callback", None, "convert")]]


def test_a_compiled_catch_is_at_its_case_keyword_and_spans_its_region(tmp_path: Path) -> None:
    bundle = BUILDS / "babel.terser.min.js"
    scan(bundle, tmp_path, "--jobs", 1)
    text = bundle.read_bytes()
    first = _compiled(tmp_path, bundle)[0]
    region = text[first["offset"]:first["endOffset"]]
    assert region.startswith(b"case 2:throw ") and region.endswith(b'.v,console.error("read failed",t),t;')
    assert first["param"] == "t" and first["id"] == f"h:babel.terser.min.js@{first['offset']}"


def test_the_caught_value_is_named_as_each_runtime_writes_it(tmp_path: Path) -> None:
    params = {}
    for name in ("babel.js", "typescript.js", "typescript.terser.min.js"):
        scan(BUILDS / name, tmp_path / name, "--jobs", 1)
        params[name] = [h["param"] for h in _compiled(tmp_path / name, BUILDS / name)]
    assert params["babel.js"][:3] == ["_t", "_t2", "_t3"]
    assert params["typescript.js"][:3] == ["e_1", "e_2", "e_3"]
    # `catch (e) {}` binds nothing, and terser returns `e.sent()` where the source returned `e`
    assert params["typescript.terser.min.js"][4] is None and params["typescript.terser.min.js"][6] is None


@pytest.mark.parametrize("name", OUTPUTS)
def test_an_error_thrown_in_the_protected_cases_is_the_compiled_catchs_source(name: str, tmp_path: Path) -> None:
    """`throwsInside`: `if (!r) throw new Error("empty read")` in the try, compiled into its cases:
    the callsite's flow names the compiled catch, whose direct source it is."""
    bundle = BUILDS / name
    scan(bundle, tmp_path, "--jobs", 1)
    sites = [json.loads(line) for line in (tmp_path / "error-message-callsites.jsonl").read_text().splitlines()]
    site = next(s for s in sites if s["message"]["text"] == "empty read")
    catcher = next(h for h in _compiled(tmp_path, bundle) if h["id"] == site["flow"]["handler"])
    assert site["flow"]["escapes"] is False
    assert [s["id"] for s in catcher["sources"]] == [site["id"]]


@pytest.mark.parametrize(("entries", "read"), [(256, True), (257, False)])
def test_a_machine_of_more_try_statements_than_the_bound_is_not_read(entries: int, read: bool,
                                                                      tmp_path: Path) -> None:
    """A machine's try entries padded to the bound (`compiled_regions._MAX_ENTRIES`, each region
    checked against the others) and past it: its catch is read, then not; a catch elsewhere is."""
    built = (BUILDS / "babel.terser.min.js").read_bytes()
    first = built.index(b"[[0,2]]")
    padding = b"".join(b",[%d,%d]" % (90000 + 2 * k, 90001 + 2 * k) for k in range(entries - 1))
    bundle = tmp_path / "padded.js"
    bundle.write_bytes(built[:first] + b"[[0,2]" + padding + b"]" + built[first + 7:])
    scan(BUILDS / "babel.terser.min.js", tmp_path / "as-built", "--jobs", 1)
    scan(bundle, tmp_path / "padded", "--jobs", 1)
    before = len(_compiled(tmp_path / "as-built", BUILDS / "babel.terser.min.js"))
    assert len(_compiled(tmp_path / "padded", bundle)) == (before if read else before - 1) > 0


def test_a_unit_without_a_state_machine_has_the_same_handlers(tmp_path: Path) -> None:
    scan(SOURCE, tmp_path, "--jobs", 1)
    assert not _compiled(tmp_path, SOURCE)


#: Babel's older runtime with the caught value in a hoisted local (`err = _context["catch"](0)`), as
#: @okta/okta-auth-js 8.0.1's `umd/default.js` ships it minified (`case 6:throw e.prev=6,ho(v=e.catch(1))...`),
#: and a `catch {}` whose read is discarded (`case 3:throw e.prev=3,e.catch(2),new Error(m)`)
OLDER_RUNTIME_LOCALS = """function load(read, report) { return _load.apply(this, arguments); }
function _load() {
  _load = _asyncToGenerator(regeneratorRuntime.mark(function _callee(read, report) {
    var err;
    return regeneratorRuntime.wrap(function _callee$(_context) {
      while (1) switch (_context.prev = _context.next) {
        case 0:
          _context.prev = 0;
          _context.next = 3;
          return read();
        case 3:
          return _context.abrupt("return", _context.sent);
        case 6:
          _context.prev = 6;
          err = _context["catch"](0);
          report(err);
          throw err;
        case 10:
        case "end":
          return _context.stop();
      }
    }, _callee, null, [[0, 6]]);
  }));
  return _load.apply(this, arguments);
}
function start(open) { return _start.apply(this, arguments); }
function _start() {
  _start = _asyncToGenerator(regeneratorRuntime.mark(function _callee2(open) {
    return regeneratorRuntime.wrap(function _callee2$(_context2) {
      while (1) switch (_context2.prev = _context2.next) {
        case 0:
          _context2.prev = 0;
          _context2.next = 3;
          return open();
        case 3:
          return _context2.abrupt("return", _context2.sent);
        case 5:
          throw _context2.prev = 5, _context2["catch"](0), new Error("not supported");
        case 8:
        case "end":
          return _context2.stop();
      }
    }, _callee2, null, [[0, 5]]);
  }));
  return _start.apply(this, arguments);
}
"""


def test_the_older_runtime_with_the_caught_value_in_a_local_is_read(tmp_path: Path) -> None:
    bundle = tmp_path / "older.js"
    bundle.write_text(OLDER_RUNTIME_LOCALS, encoding="utf-8")
    scan(bundle, tmp_path / "out", "--jobs", 1)
    compiled = _compiled(tmp_path / "out", bundle)
    assert [h["param"] for h in compiled] == ["err", None]
    assert [_read(h)[1:] for h in compiled] == [[(None, (("rethrow", None), ("callback", None)))],
                                                [(None, (("wrap", "lost"),))]]


#: regenerator's `if (x) {a} else if (z) {b} else {c}` before `e(d); throw d`, each `if`'s arm
#: jumping over its `else` to the join (case 5), minified; then the same jumps with the inner
#: `else` joining after the outer one (case 6), which no nesting of blocks writes: left out
_ELSE_JOINS = ("function P(){{return regen}}\nvar k=F(P().m(function m(){{var d;return P().w(function(y){{"
               "for(;;)switch(y.p=y.n){{case 0:return y.p=0,y.n=1,g();case 1:return d=y.v,y.a(2,d);"
               "case 2:if(y.p=2,d=y.v,!x){{y.n=3;break}}a(d),y.n=5;break;case 3:if(!z){{y.n=4;break}}"
               "b(d),y.n={inner};break;case 4:c(d);case 5:{tail}}}}},m,null,[[0,2]])}}));\n")
_NESTED = "e(d);throw d;case 6:return y.a(2)"
_CROSSED = "e(d);case 6:throw d;case 7:return y.a(2)"


@pytest.mark.parametrize(("inner", "tail"), [(5, _NESTED), (6, _CROSSED)])
def test_an_else_is_read_where_its_blocks_nest(inner: int, tail: str, tmp_path: Path) -> None:
    bundle = tmp_path / "elses.js"
    bundle.write_text(_ELSE_JOINS.format(inner=inner, tail=tail), encoding="utf-8")
    scan(bundle, tmp_path / "out", "--jobs", 1)
    compiled = _compiled(tmp_path / "out", bundle)
    if tail == _CROSSED:
        assert compiled == []
        return
    assert [_read(h)[1:] for h in compiled] == [[(None, (("rethrow", None), ("callback", None)))]]
    callees = [d["callee"] for b in compiled[0]["branches"] for d in b["dispositions"] if d["kind"] == "callback"]
    assert callees == ["a"]  # the first callee written


#: TypeScript's `__generator` of three async functions whose catch gives the caught value to one
#: function (@firebase/firestore 2.4.1's `ignoreIfPrimaryLeaseLoss(e_1)`, 3 of its 6 such calls)
_REPORTED = """function {name}(read) {{
    return __awaiter(this, void 0, void 0, function () {{
        var e_1;
        return __generator(this, function (_a) {{
            switch (_a.label) {{
                case 0:
                    _a.trys.push([0, 2, , 3]);
                    return [4 /*yield*/, read()];
                case 1: return [2 /*return*/, _a.sent()];
                case 2:
                    e_1 = _a.sent();
                    reportError(e_1);
                    return [3 /*break*/, 3];
                case 3: return [2 /*return*/];
            }}
        }});
    }});
}}
"""


def test_a_compiled_catchs_calls_count_for_the_error_sink(tmp_path: Path) -> None:
    """A compiled catch's clause is parsed alone, at the region's offsets: the names it calls are
    resolved in the unit's tree (by search, as a name too common to search is by climb), so that
    `reportError(e_1)` in three compiled catches makes `reportError` the sink, whole and in slices."""
    bundle = tmp_path / "reported.js"
    bundle.write_text('function reportError(error) {\n    console.log("failed", error);\n}\n'
                      + "".join(_REPORTED.format(name=name) for name in ("load", "save", "remove")), encoding="utf-8")
    out = scanned_whole_and_in_slices(bundle, tmp_path, 3)
    compiled = _compiled(out, bundle)
    assert [_read(h)[1:] for h in compiled] == [[(None, (("report", None),))]] * 3
    summary = json.loads((out / "error-diagnostic-owner-summary.json").read_text(encoding="utf-8"))
    assert [(s["name"], s["calls"]) for s in summary["handlers"]["sinks"]] == [("reportError", 3)]


@pytest.mark.network
def test_the_older_regenerator_runtime_is_read_on_axios(tmp_path: Path) -> None:
    from support import npm_cache

    bundle = npm_cache.main_file("axios", "1.7.9")
    out = scanned_whole_and_in_slices(bundle, tmp_path, 3)
    compiled = {h["param"]: h for h in _compiled(out, bundle)}
    assert sorted(compiled) == ["e.t0", "e.t1", "e.t2", "t.t0"]
    # for await's iterator: `catch (err) { didIteratorError = true; iteratorError = err }`
    assert _read(compiled["e.t1"])[1:] == [(None, (("store", None),))]
    # `case 15:throw t.prev=15,t.t0=t.catch(0),u(t.t0),t.t0`
    assert _read(compiled["t.t0"])[1:] == [(None, (("rethrow", None), ("callback", None)))]
    # Axios.request: `if (err instanceof Error) {...stack...} throw err`
    assert _read(compiled["e.t0"])[1:] == [((None, "instanceof", '"Error"'), (("rethrow", None),)),
                                           (None, (("rethrow", None),))]
    # fetch: `if (err && err.name === "TypeError" && /fetch/i.test(err.message)) throw Object.assign(new
    # AxiosError(...), {cause: err.cause || err}); throw AxiosError.from(err, ...)`, as the negated jump reads it
    fetch = _read(compiled["e.t2"])[1:]
    assert fetch[-1] == (None, (("wrap", "partial"),))
    assert {dispositions for _, dispositions in fetch[:-1]} == {(("wrap", "kept"),)}
