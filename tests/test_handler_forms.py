"""Which calls are promise handlers (docs/reference.md, "Handler records"): an optional call
(`p.catch?.(f)`, `p?.catch(f)`) and a quoted method (`p["catch"](f)`, Babel's output for old
engines) are; a call with a spread argument (`p.then(...a, f)`) is not, the place of `f` being
unknown, nor regenerator's `_context["catch"](0)`. A unit read in slices finds the same."""

from __future__ import annotations

import json

import pytest
from conftest import scanned_whole_and_in_slices

BUNDLE = "\n".join([
    "function a(q){q.catch?.(e=>{log(e)})}",
    "function b(p){p[\"catch\"](function(e){throw e})}",
    "function c(p,x){p.then(...x,e=>0)}",
    "function d(p){p['then'](ok,e=>{})}",
    "function f(p){p?.catch((e)=>null)}",
    "function g(ctx){ctx[\"catch\"](0)}",
    "function h(p){p[ \"catch\" ] ( e=>1 )}",
    "function i(p){p.catch ?. (e=>2)}",
    "function j(p){p[\"cat\"+\"ch\"](e=>3)}",
    "function k(p){p.catch(...handlers)}",
]) + "\n"

#: function -> (form, dispositions of its one branch); absent: no handler
EXPECTED = {
    "a": ("promise-catch", ["callback"]),
    "b": ("promise-catch", ["rethrow"]),
    "d": ("promise-then", ["swallow"]),
    "f": ("promise-catch", ["return-value"]),
    "h": ("promise-catch", ["return-value"]),
    "i": ("promise-catch", ["return-value"]),
}


@pytest.fixture(scope="module")
def scanned(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, object]]:
    where = tmp_path_factory.mktemp("forms")
    bundle = where / "forms.js"
    bundle.write_text(BUNDLE)
    lines = (scanned_whole_and_in_slices(bundle, where, 3) / "handlers.jsonl").read_text().splitlines()
    return {h["scope"]["function"]: h for h in map(json.loads, lines)}


def test_exactly_these_calls_are_handlers(scanned: dict[str, dict[str, object]]) -> None:
    assert sorted(scanned) == sorted(EXPECTED)


@pytest.mark.parametrize("function", sorted(EXPECTED))
def test_each_is_read_as_its_form(scanned: dict[str, dict[str, object]], function: str) -> None:
    handler = scanned[function]
    (branch,) = handler["branches"]  # type: ignore[misc]
    assert (handler["form"], [d["kind"] for d in branch["dispositions"]]) == EXPECTED[function]
