"""Each error callsite's `flow` (docs/reference.md, "Flow") and handlers' sources through a call
("Sources"). Driven through `erratlas scan` on fixtures/flow/src/fates.js, one exported function
per case named after what becomes of its error, and on its esbuild --minify build."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import FIXTURES, SUMMARY, records, scan

SOURCE = FIXTURES / "flow" / "src" / "fates.js"
BUILT = FIXTURES / "flow" / "built" / "fates.min.js"


def _handlers(out: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (out / "handlers.jsonl").read_text(encoding="utf-8").splitlines()]


@pytest.fixture(scope="module", params=["source", "minified"])
def fates(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The scan of fates.js as written (its logger named) and of its minified build (whose logger
    is `s`): the same flow from both."""
    out = tmp_path_factory.mktemp("fates") / "scan"
    if request.param == "source":
        scan(SOURCE, out, "--logger", "logDebug")
    else:
        scan(BUILT, out, "--logger", "s")
    return out


def _message(record: dict[str, Any]) -> str:
    return str(record["message"]["text"] or record["message"]["template"])


@pytest.fixture(scope="module")
def flows(fates: Path) -> dict[str, dict[str, Any]]:
    """Each error's flow by its message."""
    return {_message(r): r["flow"] for r in records(fates, "error")}


@pytest.fixture(scope="module")
def errors(fates: Path) -> dict[str, str]:
    """Each error's id by its message."""
    return {_message(r): str(r["id"]) for r in records(fates, "error")}


@pytest.mark.parametrize(("message", "fate", "escapes"), [
    ("thrown", "thrown", True),
    ("thrown local ${}", "thrown", True),  # const e = Error(); e.code = ...; throw e
    ("thrown assigned", "thrown", True),  # throw Object.assign(Error(), {...})
    ("thrown arm", "thrown", True),  # throw c ? Error(a) : Error(b)
    ("other arm", "thrown", True),
    ("returned", "returned", True),
    ("returned local", "returned", True),  # minified: return e.code = "E", e
    ("rejected by Promise.reject", "rejected", True),
    ("rejected in executor", "rejected", True),  # new Promise((resolve, reject) => reject(Error()))
    ("rejected in a promise class of this", "rejected", True),  # new this.Promise(...)
    ("rejected in an awaiter", "rejected", True),  # TypeScript's new (P || (P = Promise))(...)
    ("passed", "passed", False),
    ("stored", "stored", False),
    ("stored pushed", "stored", False),
    ("logged", "logged", False),  # console.error(Error())
    ("logged through the logger", "logged", False),  # the diagnostic logger's call
    ("discarded", "discarded", False),
    ("discarded local", "discarded", False),  # const e = Error(); never read
    ("caught here", "thrown", False),
    ("caught local", "thrown", False),
    ("from the catch body", "thrown", True),  # a catch body is not its own try's block
    ("read by a sibling declarator", None, None),  # const e = Error(), box = {e}: not followed
    ("passed in an object", "passed", False),  # done({code, error: Error()}): the object's fate
    ("returned in an object", "returned", True),
    ("stored in an object", "stored", False),
    ("logged in an object", "logged", False),
    ("thrown in an object", None, None),  # throw {error: Error()}: the object is thrown, not followed
])
def test_each_fate_and_whether_it_leaves_its_function(flows: dict[str, Any], message: str, fate: str | None,
                                                      escapes: bool | None) -> None:
    assert (flows[message]["fate"], flows[message]["escapes"]) == (fate, escapes)


def test_the_reject_of_any_promise_class_s_executor_is_a_reject(fates: Path) -> None:
    """The consumer's role agrees with the fate: `new Promise`, `new this.Promise` and TypeScript's
    `new (P || (P = Promise))` executors' second parameter rejects."""
    roles = {_message(r): r["consumer"]["role"] for r in records(fates, "error")}
    messages = ("rejected in executor", "rejected in a promise class of this", "rejected in an awaiter")
    assert [roles[m] for m in messages] == ["reject"] * 3


@pytest.mark.parametrize(("message", "fields"), [
    ("thrown local ${}", ["code", "path"]),
    ("thrown assigned", ["name", "status"]),
    ("thrown with cause", ["cause"]),
    ("returned local", ["code"]),
    ("caught local", ["code"]),
    ("thrown", []),
])
def test_fields_are_the_properties_set_before_it_is_thrown(flows: dict[str, Any], message: str,
                                                           fields: list[str]) -> None:
    assert flows[message]["fields"] == fields


def test_the_handler_is_the_one_listing_it_as_a_direct_source(fates: Path, flows: dict[str, Any],
                                                              errors: dict[str, str]) -> None:
    direct = {s["id"]: h["id"] for h in _handlers(fates) for s in h["sources"] if s["via"] == "direct"}
    assert {errors[m] for m in ("caught here", "caught local", "caught inside")} == set(direct)
    for message, flow in flows.items():
        assert flow["handler"] == direct.get(errors[message])
        assert flow["handler"] is None or not flow["escapes"]


def test_diagnostics_have_no_flow(fates: Path) -> None:
    assert {json.dumps(r["flow"]) for r in records(fates, "diagnostic")} == {"null"}


def _case_of(handler: dict[str, Any]) -> str:
    """The function of fates.js holding a handler: the last declared at or above its line there
    (the minified build's, through its source map)."""
    line = handler["origin"]["line"] if handler["origin"] is not None else handler["line"]
    declared = [(number, text.split("function ")[1].split("(")[0])
                for number, text in enumerate(SOURCE.read_text().splitlines(), start=1) if "function " in text]
    return [name for number, name in declared if number <= line][-1]


def _called(fates: Path, case: str, errors: dict[str, str]) -> list[tuple[str, int]]:
    """The sources through calls of the handler in the function `case`, as (message, hops)."""
    by_id = {i: m for m, i in errors.items()}
    (handler,) = [h for h in _handlers(fates) if _case_of(h) == case]
    assert all(s["via"] == "call" for s in handler["sources"])
    return [(by_id[s["id"]], s["hops"]) for s in handler["sources"]]


@pytest.mark.parametrize(("case", "sources"), [
    ("callsOneHop", [("one hop", 1)]),
    # twoHops throws its own error and lets oneHop's through
    ("callsTwoHops", [("one hop", 2), ("two hops own", 1)]),
    # at most two hops: oneHop's error, three calls away, is not listed
    ("callsThreeHops", [("two hops own", 2)]),
    ("callsCaughtInside", []),  # caught where it is thrown
    ("callsInNestedFunction", []),  # the call runs later, outside the try
    ("callsShadowed", []),  # the parameter, not the top-level function
    ("awaitsAsync", [("async", 1)]),  # await asyncThrower()
    ("callsAsyncWithoutAwait", []),  # its throw is a rejection nobody awaits here
])
def test_sources_through_calls_with_their_hops(fates: Path, errors: dict[str, str], case: str,
                                               sources: list[tuple[str, int]]) -> None:
    assert _called(fates, case, errors) == sources


def test_the_summary_counts_direct_and_call_sources_apart(fates: Path) -> None:
    counted = json.loads((fates / SUMMARY).read_text())["handlers"]
    sources = [s for h in _handlers(fates) for s in h["sources"]]
    assert (counted["sources"], counted["callSources"]) == (
        sum(s["via"] == "direct" for s in sources), sum(s["via"] == "call" for s in sources)) == (3, 5)
    assert counted["withCallSources"] == 4


@pytest.mark.network
@pytest.mark.slow
def test_a_real_bundle_s_flow_agrees_with_its_handlers(release_scan) -> None:  # type: ignore[no-untyped-def]
    """Claude Code 2.1.100's cli.js (the session's shared scan): every error has a flow, a handled
    one does not escape, its handler lists it as a direct source and no other does, and every
    source through a call is an error thrown out of its function."""
    out = release_scan("@anthropic-ai/claude-code", "2.1.100")
    errors = {r["id"]: r["flow"] for r in records(out, "error")}
    handlers = _handlers(out)
    direct = {(s["id"], h["id"]) for h in handlers for s in h["sources"] if s["via"] == "direct"}
    assert direct == {(i, f["handler"]) for i, f in errors.items() if f["handler"] is not None}
    assert all(not f["escapes"] for f in errors.values() if f["handler"] is not None)
    called = [s for h in handlers for s in h["sources"] if s["via"] == "call"]
    assert len(called) > 100 and {s["hops"] for s in called} == {1, 2}
    assert all(errors[s["id"]]["fate"] == "thrown" and errors[s["id"]]["escapes"] for s in called)


def test_records_written_before_flow_and_hops_still_load(fates: Path) -> None:
    """A callsite without `flow` loads with None, a handler's source without `hops` with 0; a
    record with another unknown key is still refused."""
    from analyzer.errors import InputError
    from analyzer.handler_model import JavaScriptHandler, MappedJavaScriptHandler
    from analyzer.model import CALLSITE_SCHEMA, HANDLER_SCHEMA, Callsite
    from analyzer.scandir.load import records_of

    error = json.loads((fates / "error-message-callsites.jsonl").read_text().splitlines()[0])
    del error["flow"]
    (loaded,) = records_of(json.dumps(error).encode() + b"\n", "e.jsonl", Callsite, CALLSITE_SCHEMA, "a callsite")
    assert loaded.flow is None
    handler = next(h for h in _handlers(fates) if h["sources"])
    for source in handler["sources"]:
        del source["hops"]
    record = MappedJavaScriptHandler if "sourceBody" in handler else JavaScriptHandler  # the build has a map
    (read,) = records_of(json.dumps(handler).encode() + b"\n", "h.jsonl", record, HANDLER_SCHEMA, "a handler")
    assert {s.hops for s in read.sources} == {0}
    error["flows"] = None
    with pytest.raises(InputError, match="flows"):
        records_of(json.dumps(error).encode() + b"\n", "e.jsonl", Callsite, CALLSITE_SCHEMA, "a callsite")
