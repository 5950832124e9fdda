"""handlers.jsonl (docs/reference.md, "Handler records"): every catch clause, `.catch(fn)` and
`.then(ok, fn)` rejection handler of a JavaScript scan, its branches on tests of the caught value,
what each branch does, and the error callsites it catches directly. Driven through `erratlas scan`
on fixtures/flow/: flow.js, one exported function per case named after it, and its esbuild
--minify build."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from conftest import FIXTURES, SUMMARY, plain_tests, records, scan
from support.schemas import validate_file

SOURCE = FIXTURES / "flow" / "src" / "flow.js"
BUILT = FIXTURES / "flow" / "built" / "flow.min.js"
HANDLERS = "handlers.jsonl"


def _handlers(out: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (out / HANDLERS).read_text(encoding="utf-8").splitlines()]


@pytest.fixture(scope="module")
def flow(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("flow") / "scan"
    scan(SOURCE, out)
    return out


@pytest.fixture(scope="module")
def by_case(flow: Path) -> dict[str, list[dict[str, Any]]]:
    """The handlers of flow.js by the exported function holding them (its outermost named scope)."""
    cases: dict[str, list[dict[str, Any]]] = {}
    for handler in _handlers(flow):
        function = next(p.split(":")[1].split("@")[0] for p in handler["scope"]["scopePath"][1:])
        cases.setdefault(function, []).append(handler)
    return cases


def _kinds(handler: dict[str, Any]) -> list[list[str]]:
    return [[d["kind"] for d in branch["dispositions"]] for branch in handler["branches"]]


def _one(by_case: dict[str, list[dict[str, Any]]], case: str) -> dict[str, Any]:
    (handler,) = by_case[case]
    return handler


@pytest.mark.parametrize(("case", "kinds"), [
    ("rethrows", [["rethrow"]]),
    ("wrapsKeepingCause", [["wrap"]]),
    ("logs", [["log"]]),
    ("returnsFallback", [["return-value"]]),
    ("returnsTheError", [["return-error"]]),
    ("rejects", [["reject"]]),
    ("passesToCallback", [["callback"]]),
    ("reports", [["report"]]),
    ("reportsAndRethrows", [["rethrow", "report"]]),
    ("reportsFromAPromise", [["report"]]),
    ("retries", [["retry"]]),
    ("exits", [["exit"]]),
    ("stores", [["store"]]),
    ("swallows", [["swallow"]]),
    ("swallowsWithAComment", [["swallow"]]),
])
def test_each_disposition_is_named_for_what_the_handler_does(by_case: dict[str, Any], case: str,
                                                              kinds: list[list[str]]) -> None:
    handler = _one(by_case, case)
    assert _kinds(handler) == kinds
    assert [b["test"] for b in handler["branches"]] == [None]


@pytest.fixture(scope="module")
def fallthrough(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[dict[str, Any]]]:
    """The handlers of fixtures/flow/src/fallthrough.js by the exported function holding them."""
    out = tmp_path_factory.mktemp("fallthrough") / "scan"
    scan(FIXTURES / "flow" / "src" / "fallthrough.js", out)
    return {h["scope"]["scopePath"][-1].split(":")[1].split("@")[0]: [h] for h in _handlers(out)}


@pytest.mark.parametrize(("case", "kinds"), [
    ("throwsOnBothArms", ["rethrow", "wrap"]),  # if (strict) throw err; else throw new Error(...)
    ("callsBackIfReady", ["callback", "swallow"]),  # ready && done(err)
    ("logsWhenVerbose", ["log", "swallow"]),  # if (verbose) console.error(err)
    ("callsBackOnBothArms", ["callback"]),  # ready ? done(err) : fail(err)
    ("releasesAndRethrows", ["rethrow"]),  # throw (lock.release(), err)
    ("returnsOneOrTheOther", ["return-value"]),  # if (first) return 1; return 2
    ("returnsTheCallback", ["callback"]),  # return done(err)
    ("logsInALoop", ["callback"]),  # a loop is unclear: it decides
    ("callsBackInACondition", ["callback"]),  # if ((done(err), ready)) later(): done(err) is a statement
    ("skipsOnAFlag", ["callback", "swallow"]),  # if (skip) continue; done(err): the continue drops it
    ("logsIfThereIsALogger", ["callback", "swallow"]),  # logger?.error(m, err)
    ("callsBackIfGiven", ["callback", "swallow"]),  # done?.(err)
    ("callsPastAnOptionalObject", ["callback"]),  # (state?.log).warn(err)
])
def test_a_branch_also_swallows_when_a_path_meets_none_of_its_dispositions(
        fallthrough: dict[str, Any], case: str, kinds: list[str]) -> None:
    assert _kinds(_one(fallthrough, case)) == [kinds]


def test_a_test_through_a_helper_splits_and_its_untested_branch_swallows(fallthrough: dict[str, Any]) -> None:
    # if (codeOf(err) !== "EEXIST") throw err: the rest of the body runs nothing
    handler = _one(fallthrough, "rethrowsUnlessItExists")
    assert _kinds(handler) == [["rethrow"], ["swallow"]]
    assert handler["branches"][0]["test"] == {"field": None, "op": "!==", "value": "EEXIST", "through": "codeOf",
                                              "reads": None, "also": [], "compared": None}


def test_a_break_of_the_loop_drops_the_caught_value_on_each_test_that_leads_to_it(fallthrough: dict[str, Any]) -> None:
    """`if (e.name === "A" || e.name === "B") break; throw e`: a branch for each name, the break
    leaving the loop with the error dropped, and the rest rethrows."""
    assert _kinds(_one(fallthrough, "stopsOnAPartialMessage")) == [["swallow"], ["swallow"], ["rethrow"]]


@pytest.mark.parametrize(("case", "branches"), [
    # while (true) { try { r = read() } catch (err) { if (t) { await more(); continue } throw err }
    # use(r); return done(r) }: the statements after the try leave the loop when the read succeeds
    ("retriesAfterMoreData", [["retry"], ["rethrow"]]),
    # while (true) { try { item = read() } catch (err) { continue } if (!item) break; done(item) }
    ("skipsAnUnreadableItem", [["swallow"]]),
    # if (++i > limit) throw err; if (err.message.startsWith("MOVED")) { ...; continue } throw err:
    # the MOVED branch rethrows past the limit, else tries again
    ("retriesOrRethrows", [["rethrow", "retry"], ["rethrow"]]),
    # while (!c) { n++; try { c = await connect() } catch (err) { if (err.code === "ELOCKED") {
    # if (n < 5) { await sleep(); continue } throw new Error(...) } throw err } }: success sets c
    ("retriesUntilConnected", [["wrap", "retry"], ["rethrow"]]),
    # while (!done) { try { step() } catch (err) { continue } done = next() }: set outside the try
    ("stepsUntilDone", [["swallow"]]),
    # for (; !done; ) { ...; try { await create(); done = true } catch (err) { if (err.status === 400)
    # { if (n >= 5) throw err; await sleep(1000) } else throw err } }: `while (!done)` as minifiers write it
    ("retriesUntilDoneAsMinified", [["rethrow", "retry"], ["rethrow"]]),
    # for (let i = 0; !found; i++) { try { found = read(items[i]) } catch (err) { console.warn(err) } }
    ("stepsWhileUnsetWithACounter", [["log"]]),
    ("retriesUpToALimit", [["rethrow", "retry"]]),  # if (++attempts > limit) throw err
    # log.warn(err); if (state.stopped) break: tries again, or leaves the loop once it has logged
    ("retriesUnlessStopped", [["callback", "retry"]]),
    # if (state.stopped) break; log.warn(err): leaves the loop dropping the error, or logs and tries again
    ("retriesUntilStopped", [["callback", "retry", "swallow"]]),
    # a statement before the try reads the next chunk of a stream the turn did not open: it reads on
    ("readsChunkByChunk", [["callback"]]),  # const {value, done} = await reader.read()
    ("readsUntilTheEnd", [["swallow"]]),  # const chunk = stream.read(64); ... catch (err) { continue }
    ("fetchesAgain", [["retry"]]),  # await client.get(url): the same request again
    ("reopensAndReadsAgain", [["retry"]]),  # const stream = open(); stream.read(): new each turn
])
def test_a_loop_left_by_the_statements_after_its_try_retries_it_and_a_branch_that_may_leave_too(
        fallthrough: dict[str, Any], case: str, branches: list[list[str]]) -> None:
    assert _kinds(_one(fallthrough, case)) == branches


@pytest.mark.parametrize(("case", "branches"), [
    ("yieldsTheError", [["return-error"]]),  # yield err, in a loop over items
    ("yieldsItBesideItsPath", [["return-value"]]),  # yield [path, err], as return [path, err]
    ("yieldsItsMessage", [["return-value"]]),  # yield err.message
    ("delegatesToARecovery", [["callback"]]),  # yield* recover(err), as return recover(err)
    ("yieldsItUnlessQuiet", [["return-error", "swallow"]]),  # if (!quiet) yield err
    # __awaiter(this, void 0, void 0, function* () {...}): `yield sleep(err)` is `await sleep(err)`, `yield err`
    # hands it to no consumer
    ("awaitsThroughACompiledYield", [["callback"]]),
    ("eachHookYields", [["return-value"]]),  # hooks.map(async function* (hook) {...}): yield {error: err}
])
def test_a_yield_hands_a_value_to_the_consumer_as_a_return_does(
        fallthrough: dict[str, Any], case: str, branches: list[list[str]]) -> None:
    """A generator's `yield` in a catch clause is read as a `return` of its value that goes on after
    it: the caught value itself a `return-error`, anything else a `return-value` (or the call's own)."""
    assert _kinds(_one(fallthrough, case)) == branches


@pytest.mark.parametrize(("case", "cause", "constructor"), [
    ("wrapsKeepingCause", "kept", "Error"),  # new Error(m, {cause: err})
    ("wrapsPartially", "partial", "Error"),  # only err.message is carried
    ("wrapsLosingCause", "lost", "TypeError"),
    ("wrapsTheErrorAsMessage", "partial", "Error"),  # new Error(err): only its text is the message
    ("wrapsKeepingCauseThroughAssign", "kept", "Error"),  # Object.assign(new Error(m), {cause: err})
    ("wrapsKeepingCauseInOptions", "kept", "Error"),  # const options = {cause: err}; new Error(m, options)
])
def test_a_wrap_says_what_it_keeps_of_the_cause_and_links_the_new_error(
        flow: Path, by_case: dict[str, Any], case: str, cause: str, constructor: str) -> None:
    (wrap,) = _one(by_case, case)["branches"][0]["dispositions"]
    assert (wrap["kind"], wrap["cause"], wrap["callee"]) == ("wrap", cause, constructor)
    errors = {r["id"]: r for r in records(flow, "error")}
    (linked,) = wrap["callsites"]
    assert errors[linked]["constructor"] == constructor and errors[linked]["context"]["inCatch"]


def test_a_built_in_error_keeps_the_cause_only_as_the_last_cause_field_of_its_options(tmp_path: Path) -> None:
    """`new Error(m, options)` reads the message and `options.cause`, nothing else: the caught value
    under another key, or as the options themselves, is read, not kept; an object holds the last
    field of a key (bundlers keep both, with a warning), a later spread may override or not. A class
    of the program's own may keep any field."""
    cases = {
        "overridden": ('new Error("m", { cause: err, "cause": undefined })', "partial"),
        "overriddenByAComputedKey": ('new Error("m", { cause: err, ["cause"]: undefined })', "partial"),
        "overridesAnother": ('new Error("m", { cause: undefined, cause: err })', "kept"),
        "beforeASpread": ('new Error("m", { cause: err, ...extra })', "kept"),
        "underAnotherKey": ('new TypeError("m", { error: err })', "partial"),
        "asTheOptions": ('new Error("m", err)', "partial"),
        "inAnOwnClass": ('new ReadError("m", { error: err })', "kept"),
    }
    source = tmp_path / "causes.js"
    source.write_text("class ReadError extends Error {}\n" + "".join(
        f"export function {name}(read, extra) {{\n  try {{\n    return read();\n  }} catch (err) {{\n"
        f"    throw {thrown};\n  }}\n}}\n" for name, (thrown, _) in cases.items()), encoding="utf-8")
    scan(source, tmp_path / "out")
    causes = [h["branches"][0]["dispositions"][0]["cause"] for h in _handlers(tmp_path / "out")]
    assert causes == [cause for _, cause in cases.values()]


def test_a_log_links_its_diagnostic_callsites_and_their_levels(flow: Path, by_case: dict[str, Any]) -> None:
    diagnostics = {r["id"]: r for r in records(flow, "diagnostic")}
    (log,) = _one(by_case, "logs")["branches"][0]["dispositions"]
    assert log["levels"] == ["warn"] and diagnostics[log["callsites"][0]]["level"] == "warn"
    assert all(d["kind"] != "log" or d["callsites"] for h in by_case.values() for x in h for b in x["branches"]
               for d in b["dispositions"])


def test_the_error_sink_is_the_binding_most_called_with_a_caught_value(flow: Path, by_case: dict[str, Any]) -> None:
    """reportError takes the caught value in three handlers (`.catch(reportError)` among them),
    every other name in one, each a parameter (a caller's callback, never the sink, nor a
    runner-up): it is the sink, with its evidence in the summary."""
    (sink,) = json.loads((flow / SUMMARY).read_text())["handlers"]["sinks"]
    assert (sink["name"], sink["calls"], sink["declaration"]["kind"]) == ("reportError", 3, "function")
    assert sink["runnerUps"] == [] and sink["reasons"]
    assert _one(by_case, "reportsFromAPromise")["branches"][0]["dispositions"][0]["callee"] == "reportError"


def test_a_callback_and_a_reject_name_what_they_call(by_case: dict[str, Any]) -> None:
    assert _one(by_case, "passesToCallback")["branches"][0]["dispositions"][0]["callee"] == "done"
    assert _one(by_case, "rejects")["branches"][0]["dispositions"][0]["callee"] == "reject"


@pytest.mark.parametrize(("case", "tests", "kinds"), [
    ("testsCode", [{"field": "code", "op": "===", "value": "ENOENT"}, None], [["return-value"], ["rethrow"]]),
    ("testsName", [{"field": "name", "op": "==", "value": "AbortError"}, None],
     [["log", "return-value"], ["rethrow"]]),
    ("testsInstance", [{"field": None, "op": "instanceof", "value": "SyntaxError"}, None], [["wrap"], ["rethrow"]]),
    ("testsStatus", [{"field": "status", "op": ">=", "value": 500}, None], [["return-value"], ["rethrow"]]),
    ("testsNotInstance", [{"field": None, "op": "!instanceof", "value": "TypeError"}, None],
     [["rethrow"], ["return-value"]]),
    ("testsSwitch", [{"field": "code", "op": "===", "value": v} for v in ("EACCES", "EPERM", "ENOENT")] + [None],
     [["return-value"], ["return-value"], ["return-value"], ["rethrow"]]),
    ("testsLiteralOnTheLeft", [{"field": "status", "op": "===", "value": 404}, None], [["return-value"], ["rethrow"]]),
])
def test_each_test_of_the_caught_value_is_a_branch_and_the_rest_is_the_untested_branch(
        by_case: dict[str, Any], case: str, tests: list[Any], kinds: list[list[str]]) -> None:
    handler = _one(by_case, case)
    assert plain_tests(handler["branches"]) == tests
    assert _kinds(handler) == kinds


def _error_ids(flow: Path, message: str) -> list[str]:
    return [r["id"] for r in records(flow, "error") if r["message"]["text"] == message]


def test_an_error_thrown_in_the_protected_block_is_a_direct_source(flow: Path, by_case: dict[str, Any]) -> None:
    assert _one(by_case, "throwsDirectly")["sources"] == [
        {"id": i, "via": "direct", "hops": 0} for i in _error_ids(flow, "no value")]


def test_a_thrown_local_bound_to_an_error_is_a_direct_source(flow: Path, by_case: dict[str, Any]) -> None:
    (source,) = _one(by_case, "throwsALocal")["sources"]  # const error = Error(...); error.code = ...; throw error
    assert [r["message"]["template"] for r in records(flow, "error") if r["id"] == source["id"]] == [
        "bad value ${}"]


def test_a_throw_in_a_nested_function_is_not_a_direct_source(by_case: dict[str, Any]) -> None:
    assert _one(by_case, "nestedFunctionIsNotDirect")["sources"] == []


def test_the_innermost_handler_catches_first_and_its_own_throw_goes_to_the_outer_one(
        flow: Path, by_case: dict[str, Any]) -> None:
    outer, inner = sorted(by_case["innerHandlerCatchesFirst"], key=lambda h: h["offset"], reverse=True)
    assert [s["id"] for s in inner["sources"]] == _error_ids(flow, "inner")
    assert [s["id"] for s in outer["sources"]] == _error_ids(flow, "from the inner handler")
    assert inner["branches"][0]["dispositions"][0]["callsites"] == _error_ids(flow, "from the inner handler")


def test_promise_handlers_are_found_with_their_forms(by_case: dict[str, Any]) -> None:
    caught = _one(by_case, "promiseCatch")
    assert (caught["form"], caught["param"], _kinds(caught)) == ("promise-catch", "err", [["log", "return-value"]])
    then = _one(by_case, "promiseThen")
    assert (then["form"], _kinds(then)) == ("promise-then", [["wrap"]])
    assert then["branches"][0]["dispositions"][0]["cause"] == "kept"
    reference = _one(by_case, "promiseCatchReference")  # .catch(onError): onError is called with it
    assert (reference["param"], reference["branches"][0]["dispositions"][0]) == (
        None, {"kind": "callback", "cause": None, "callsites": [], "levels": [], "callee": "onError"})


def test_the_param_is_the_caught_name_and_null_when_destructured_or_absent(by_case: dict[str, Any]) -> None:
    assert _one(by_case, "rethrows")["param"] == "err"
    assert _one(by_case, "destructured")["param"] is None  # catch ({ code })
    assert _one(by_case, "swallows")["param"] is None  # catch {}


def test_records_have_a_callsites_identity_and_location(flow: Path) -> None:
    handlers = _handlers(flow)
    validate_file(flow / HANDLERS, "erratlas.handler/1")
    source = SOURCE.read_bytes()
    for handler in handlers:
        assert handler["id"] == f"h:flow.js@{handler['offset']}"
        assert handler["line"] == source.count(b"\n", 0, handler["offset"]) + 1
        at = source[handler["offset"]:]
        assert at.startswith(b"catch") or handler["form"] != "catch"
        assert handler["readable"]["file"].startswith("readable/")
    assert len({h["fingerprint"] for h in handlers}) == len(handlers)
    assert [h["offset"] for h in handlers] == sorted(h["offset"] for h in handlers)
    assert all(h["branches"] and all(b["dispositions"] for b in h["branches"]) for h in handlers)


def test_fingerprints_survive_renaming_a_local_and_an_unrelated_edit(flow: Path, tmp_path: Path) -> None:
    edited = tmp_path / "flow.js"
    text = re.sub(r"\berr\b", "failure", SOURCE.read_text(encoding="utf-8"))  # a name only code uses
    edited.write_text(text + "\nexport function unrelated() {\n  return 1;\n}\n", encoding="utf-8")
    scan(edited, tmp_path / "out")
    assert "err" not in {h["param"] for h in _handlers(tmp_path / "out")}
    assert [h["fingerprint"] for h in _handlers(tmp_path / "out")] == [h["fingerprint"] for h in _handlers(flow)]


def test_the_minified_build_has_the_same_handlers(flow: Path, tmp_path: Path) -> None:
    """esbuild renames every local, drops an unused catch parameter and writes `if (t) throw a;
    throw b` as `throw t ? a : b`: the same forms, sources, tests and dispositions, and each
    handler's origin is its line in flow.js."""
    scan(BUILT, tmp_path / "built")
    built = _handlers(tmp_path / "built")

    def shape(handler: dict[str, Any]) -> object:
        return (handler["form"], len(handler["sources"]),
                [(b["test"], [(d["kind"], d["cause"], len(d["callsites"]), d["levels"]) for d in b["dispositions"]])
                 for b in handler["branches"]])

    assert [shape(h) for h in built] == [shape(h) for h in _handlers(flow)]
    lines = SOURCE.read_text(encoding="utf-8").splitlines()
    for handler in built:
        origin = handler["origin"]
        assert origin["source"].endswith("flow.js")
        wanted = "catch" if handler["form"] == "catch" else "" if handler["form"] == "promise-then" else ".catch("
        assert wanted in lines[origin["line"] - 1] or handler["form"] != "catch"


def test_the_summary_counts_handlers_by_form_and_disposition(flow: Path) -> None:
    handlers = _handlers(flow)
    counted = json.loads((flow / SUMMARY).read_text())["handlers"]
    assert counted["count"] == len(handlers) == sum(counted["byForm"].values())
    assert counted["branches"] == sum(len(h["branches"]) for h in handlers)
    assert counted["byDisposition"]["swallow"] == 2 and counted["sources"] == 4
    assert HANDLERS in json.loads((flow / SUMMARY).read_text())["outputs"]


@pytest.mark.network
@pytest.mark.slow
def test_a_real_bundle_has_valid_handlers_each_branch_with_a_disposition(release_scan) -> None:  # type: ignore[no-untyped-def]
    """Claude Code 2.1.100's cli.js (13 MB, the session's shared scan with --jobs 2): handlers.jsonl
    validates, every handler has a branch and every branch a disposition, every id it links is an
    inventoried callsite, and the summary's counts are the records'."""
    out = release_scan("@anthropic-ai/claude-code", "2.1.100")
    validate_file(out / HANDLERS, "erratlas.handler/1")
    handlers = _handlers(out)
    assert len(handlers) > 3000
    assert all(h["branches"] and all(b["dispositions"] for b in h["branches"]) for h in handlers)
    callsites = {r["id"]: r for kind in ("error", "diagnostic") for r in records(out, kind)}
    for handler in handlers:
        assert all(s["id"] in callsites and callsites[s["id"]]["context"]["inTry"]
                   for s in handler["sources"] if s["via"] == "direct")
        for disposition in (d for b in handler["branches"] for d in b["dispositions"]):
            assert all(i in callsites for i in disposition["callsites"])
            if disposition["kind"] == "log":
                assert disposition["levels"] == [callsites[i]["level"] for i in disposition["callsites"]]
    counted = json.loads((out / SUMMARY).read_text())["handlers"]
    kinds = [d["kind"] for h in handlers for b in h["branches"] for d in b["dispositions"]]
    assert counted["byDisposition"] == {kind: kinds.count(kind) for kind in counted["byDisposition"]}
    assert counted["count"] == len(handlers) and counted["sources"] + counted["callSources"] == sum(
        len(h["sources"]) for h in handlers)


@pytest.mark.parametrize("source, name, limit", [
    (b"", b"Ce", 0), (b"Ce", b"Ce", 0), (b"Ce", b"Ce", 1), (b"CeCeCe", b"Ce", 2), (b"CeCeCe", b"Ce", 3),
    (b"aaaa", b"aa", 1), (b"aaaa", b"aa", 2), (b"aaa", b"aa", 1), (b"x Ce(e) y Ce(e)", b"Ce", 1),
    (b"x Ce(e) y Ce(e)", b"Ce", 2), (b"AaAaAa", b"Aa", 3), (b"AaAaAa", b"Aa", 2), (b"eb eb", b"eb", 2),
    (b"$a$a$a.$a", b"$a", 4), (b"$a$a$a.$a", b"$a", 3), (b"AAAA", b"AA", 2), (b"abab ab", b"ab", 3),
    (b"abab ab", b"ab", 2), (b"tab.tab(tab)", b"tab", 3), (b"ababa", b"aba", 1), (b"e(e(", b"e(", 2),
    (b"a.b a.b", b"a.b", 2), (b"\xc3\xa9b\xc3\xa9b", b"\xa9b", 2),
])
def test_the_sink_bound_counts_as_bytes_count_does(source: bytes, name: bytes, limit: int) -> None:
    """The occurrence bound stops at the first occurrence past it, and counts non-overlapping
    occurrences, as `bytes.count` does (`aaaa` holds `aa` twice); within it, their offsets."""
    from analyzer.javascript.sink import _at_most

    found = _at_most(source, name, limit)
    assert (found is not None) == (source.count(name) <= limit)
    if found is not None:
        assert len(found) == source.count(name) and all(source.startswith(name, at) for at in found)
        stepped, at = [], source.find(name)  # most names are found by a regex scanning for one byte
        while at >= 0:
            stepped.append(at)
            at = source.find(name, at + len(name))
        assert found == stepped


@pytest.mark.parametrize("name", ["Ce", "aa", "a", "$", "a$a", "eb", "tab"])
def test_a_sink_name_resolves_the_same_from_its_counted_offsets(name: str) -> None:
    """The sink's names are resolved from the offsets its bound counted, when no two occurrences
    can overlap; the references are those of the resolution's own pass."""
    from analyzer.javascript.resolve import Resolution
    from analyzer.javascript.sink import _at_most, _overlaps
    from analyzer.javascript.syntax import parse

    raw = (f"function {name}(x){{return x}} {name}({name}a); {name}a({name}); "
           f"function g({name}){{{name}({name}); {name}.{name}}} `${{{name}}}{name}` // {name}\n{name}")
    source = raw.encode()
    tree = parse(source)
    starts = _at_most(source, name.encode(), 4096)
    assert starts is not None

    def seen(resolution: Resolution) -> list[tuple[str, int, object]]:
        return [(r.name, r.node.start_byte, r.binding.key if r.binding else None) for r in resolution.references]

    alone = seen(Resolution(tree, source, {name}))
    assert alone
    if not _overlaps(name.encode()):
        assert seen(Resolution(tree, source, {name}, starts=starts)) == alone


def test_handlers_and_callsites_are_placed_in_one_pass_as_each_offset_alone() -> None:
    """`scan._places` places the callsites' and the handlers' offsets of a unit in one pass over its
    rendering: each record's readable place is where `Rendering.places` puts its offset alone."""
    from analyzer.scan import scan as run_scan
    from analyzer.scan import scan_input

    result = run_scan(scan_input(BUILT))
    assert result.handlers and result.callsites
    for record in [*result.handlers, *result.callsites]:
        written = result.readable[record.unit]
        [alone] = written.rendering.places([record.offset], written.slicing)
        assert (record.readableLine, record.readable.file, record.readable.line, record.readable.column) == (
            alone.line, written.files[alone.slice], alone.slice_line, alone.column)


def test_records_made_from_their_fields_are_the_records_their_init_makes() -> None:
    """`model.made`, which the scan and the handlers' search make their records with."""
    from analyzer.facts import BranchFacts, DispositionFacts, HandlerFacts
    from analyzer.handler_model import HandlerBranch, HandlerDisposition, HandlerSource
    from analyzer.identity import IdentityInput
    from analyzer.model import Scope, made

    scope = Scope(scopePath=("module:a.js@0",), function="<module>", functionKind="module")
    disposition = ("wrap", "lost", (3, 9), "f")
    identity = ("handler", "catch", "", "", b"\x01", ("a.js", 4), ("a.js", 7))
    branch = (None, (DispositionFacts(*disposition),))
    facts = (7, 30, 1, 8, "catch", "e", scope, (BranchFacts(*branch),), False, IdentityInput(*identity), None, True)
    for record, values in [(DispositionFacts, disposition), (DispositionFacts, (*disposition, True)),
                           (BranchFacts, branch), (IdentityInput, identity),
                           (HandlerFacts, facts), (HandlerSource, ("e:a.js@3", "call", 1)),
                           (HandlerDisposition, ("log", None, ("d:a.js@9",), ("warn",), "log")),
                           (HandlerBranch, (None, ()))]:
        made_one = made(record)(*values)
        assert type(made_one) is record and made_one == record(*values) and hash(made_one) == hash(record(*values))
