"""A handler given by name that does nothing (docs/reference.md, "Dispositions" and "The error
sink"): `.catch(noop)`, `noop` a top-level function whose body is empty and that nothing writes,
is a `swallow` as `.catch(() => {})` is, not a `callback`; and such a function is never the error
sink, however often it is given a caught value (zwave-js passes its `noop` 19 times). The shapes
are Bun's (`function Xru(){}` then `.catch(Xru)`, claude-code 2.1.235) and esbuild's."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import scan, scanned_whole_and_in_slices

BUNDLE = "\n".join([
    "function noop(){}",
    "var quiet=()=>{};",
    "const still=function(){};",
    "let later=()=>{};later=console.error;",  # written again: not read as empty
    "function busy(e){send(e)}",
    "function report(e){send(e)}",
    *(f"function n{at}(){{p.catch(noop)}}" for at in range(4)),  # more calls than the real sink's
    *(f"function r{at}(){{try{{g()}}catch(e){{report(e)}}}}" for at in range(3)),
    "function q(){p.catch(quiet)}",
    "function s(){p.catch(still)}",
    "function t(){p.then(ok,noop)}",
    "function u(){p.catch(later)}",
    "function v(noop){p.catch(noop)}",  # a parameter of its name
    "function w(){p.catch(busy)}",
    "function x(){try{g()}catch(e){noop(e)}}",  # a call in a body: its arguments run, not read here
]) + "\n"

#: function -> its one branch's dispositions as (kind, callee)
EXPECTED = {
    **{f"n{at}": [("swallow", None)] for at in range(4)},
    **{f"r{at}": [("report", "report")] for at in range(3)},
    "q": [("swallow", None)],
    "s": [("swallow", None)],
    "t": [("swallow", None)],
    "u": [("callback", "later")],
    "v": [("callback", "noop")],
    "w": [("callback", "busy")],
    "x": [("callback", "noop")],
}


@pytest.fixture(scope="module")
def scanned(tmp_path_factory: pytest.TempPathFactory) -> Path:
    where = tmp_path_factory.mktemp("noops")
    bundle = where / "noops.js"
    bundle.write_text(BUNDLE)
    scan(bundle, where / "out")
    return where / "out"


@pytest.mark.parametrize("function", sorted(EXPECTED))
def test_a_handler_given_a_function_that_does_nothing_swallows(scanned: Path, function: str) -> None:
    lines = (scanned / "handlers.jsonl").read_text().splitlines()
    handlers = {h["scope"]["function"]: h for h in map(json.loads, lines)}
    (branch,) = handlers[function]["branches"]
    assert branch["test"] is None
    assert [(d["kind"], d["callee"]) for d in branch["dispositions"]] == EXPECTED[function]


def test_a_function_that_does_nothing_is_never_the_sink(scanned: Path) -> None:
    sinks = json.loads((scanned / "error-diagnostic-owner-summary.json").read_text())["handlers"]["sinks"]
    (sink,) = sinks
    assert sink["name"] == "report" and sink["calls"] == 3
    assert "noop (declared at 9) left out: its body is empty" in sink["reasons"]
    assert not any(reason.startswith(("quiet", "later")) for reason in sink["reasons"])  # a `var`, a `let`


def test_the_unit_read_in_slices_reads_alike(tmp_path: Path) -> None:
    bundle = tmp_path / "noops.js"
    bundle.write_text(BUNDLE)
    scanned_whole_and_in_slices(bundle, tmp_path, 4)
