"""A parameter is never the error sink (docs/reference.md, "The error sink"): a function's own
parameter, or a catch clause's, is the callback its caller passed, and giving it the caught value
passes the error on (`callback`), however often (fastify's `wrap(fn, server, done)` gives `done`
the error 3 times; terser's bundle, where `done` is `r`, made them `report`s). The `reasons` name
one given the caught value at least 3 times; a binding of the bundle is still chosen past it."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import SUMMARY, scanned_whole_and_in_slices

#: fastify's shape: a parameter given the caught value three times in its function, then a
#: top-level reporter given it three times from three functions
WRAP = (
    "async function wrap(fn,server,done){"
    "if(fn.length===1){try{fn.call(server,done)}catch(e){done(e)}return}"
    "try{const ret=fn.call(server);if(ret&&typeof ret.then==='function'){ret.then(done,done);return}done()}"
    "catch(error){done(error)}}\n"
)
CATCH = "function c(){try{g()}catch(e){try{h()}catch(f){e(f)}try{h()}catch(f){e(f)}h().catch(e)}}\n"


def _scan(tmp_path: Path, text: str) -> tuple[dict[str, object], dict[str, list[list[tuple[str, str | None]]]]]:
    bundle = tmp_path / "bundle.js"
    bundle.write_text(text)
    out = scanned_whole_and_in_slices(bundle, tmp_path, 2)
    (choice,) = json.loads((out / SUMMARY).read_text())["handlers"]["sinks"]
    handlers: dict[str, list[list[tuple[str, str | None]]]] = {}
    for line in (out / "handlers.jsonl").read_text().splitlines():
        record = json.loads(line)
        handlers.setdefault(record["scope"]["function"], []).append(
            [(d["kind"], d["callee"]) for branch in record["branches"] for d in branch["dispositions"]])
    return choice, handlers


def test_a_parameter_given_the_error_three_times_is_no_sink(tmp_path: Path) -> None:
    choice, handlers = _scan(tmp_path, WRAP + CATCH)
    assert choice["name"] is None and choice["runnerUps"] == [], choice
    assert any("done (a parameter, declared at" in reason and "3 calls" in reason for reason in choice["reasons"])
    assert any(reason.startswith("e (a parameter") for reason in choice["reasons"])  # a catch clause's
    kinds = {kind for readings in handlers.values() for reading in readings for kind, _ in reading}
    assert "report" not in kinds and "callback" in kinds


def test_a_binding_of_the_bundle_is_chosen_past_a_parameter(tmp_path: Path) -> None:
    reporter = "function report(e){send(e)}\n" + "".join(
        f"function r{at}(){{try{{g()}}catch(e){{report(e)}}}}\n" for at in range(3))
    choice, handlers = _scan(tmp_path, WRAP + reporter)
    assert choice["name"] == "report" and choice["calls"] == 3, choice
    assert all(name != "done" for name in (row["name"] for row in choice["runnerUps"]))
    assert handlers["r0"] == [[("report", "report")]]
    assert [("callback", "done")] in handlers["wrap"]
