"""The error sink's names too common to search (docs/reference.md, "The error sink"): each call
is bound by a climb up its scopes (`sink_levels.Climb`) to the binding a resolution of every
occurrence gives, and through the scan a one-letter sink whose bytes occur past the search's
bound is chosen, its shadowing locals apart, in the whole tree and in slices alike."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import FIXTURES, SUMMARY, run, scanned_whole_and_in_slices, tree_bytes
from test_sink_levels import HERITAGES, UNDECIDED, WRAPPER, _calls
from tree_sitter import Node

from analyzer.javascript import sink
from analyzer.javascript.resolve import Resolution
from analyzer.javascript.sink_levels import Climb
from analyzer.javascript.syntax import parse
from analyzer.parallel.executor import Inline
from analyzer.scan import scan, scan_input

ONE_LETTER = FIXTURES / "sink" / "one-letter.js"

#: each way a scope binds `r` around a call of it: a block's `let`, `for` heads, a `switch`
#: case, catch parameters (a pattern too), a function expression's and a class expression's own
#: name, a class's static block, parameters with defaults and patterns, a function declaration
#: in a block, a hoisted `var`, an arrow's parameter, a `var` declared after the call, two
#: declarations in one scope (the first binds), a `with`, `for in`, a class declaration,
#: imports, and the same name at the top; then those in the program's own scope
SCOPES = """
function r(e) {}
var q = 1;
{ let r = 2; try {} catch (e) { r(e) } }
for (let r of xs) { try {} catch (e) { r(e) } }
for (let r = 0;;) { try {} catch (e) { r(e) } }
switch (x) { case 1: let r = 3; try {} catch (e) { r(e) } }
try {} catch (r) { try {} catch (e) { r(e) } }
try {} catch ({r}) { try {} catch (e) { r(e) } }
(function r() { try {} catch (e) { r(e) } })();
(class r { m() { try {} catch (e) { r(e) } } });
(class r { static { try {} catch (e) { r(e) } } });
class K { static { var r; try {} catch (e) { r(e) } } x = function () { try {} catch (e) { r(e) } } }
function f(a = r, {b: [r]} = {}) { try {} catch (e) { r(e) } }
function g(r) { { function r() {} try {} catch (e) { r(e) } } try {} catch (e) { r(e) } }
function h() { if (x) { var r; } try {} catch (e) { r(e); q(e) } }
const k = (r) => { try {} catch (e) { r(e) } };
const k2 = r => { try {} catch (e) { r(e) } };
const k3 = () => { try {} catch (e) { r(e) } var r; };
function m() { try {} catch (e) { r(e) } function r() {} function r() {} }
label: { var r2; try {} catch (e) { r(e) } }
with (o) { try {} catch (e) { r(e) } }
function n() { for (var r in o) {} try {} catch (e) { r(e) } }
function p() { try {} catch (e) { r(e) } class r {} }
function s() { { let r; } try {} catch (e) { r(e) } }
export function t() { try {} catch (e) { r(e) } }
export default function (r) { try {} catch (e) { r(e) } }
import { a as r3, r as r4 } from "x";
function u() { try {} catch (e) { r(e); q(e); r3(e); r4(e) } let q; }
function v() { try { } catch (e) { (() => { try {} catch (e2) { r(e2); e(e2) } })() } }
async function w() { try {} catch (e) { await r(e) } const { r: [, r] } = o; }
"""


def _climbed_as_resolved(source: bytes) -> tuple[int, int]:
    """Every identifier called, climbed as a whole tree (its binding) and as a slice (None for
    the root's scope) against a resolution of every occurrence of its name: the calls checked,
    and the bindings among them."""
    tree = parse(source)
    root = tree.root_node
    assert not root.has_error
    callees = _calls(root)
    names = frozenset(callee.text for callee in callees)
    keys = set()
    whole, sliced = Climb(tree, names, True), Climb(tree, names, False)
    for name in names:
        resolution = Resolution(tree, source, {name.decode()})
        expected = {reference.node.id: reference.binding for reference in resolution.references}
        for callee in (callee for callee in callees if callee.text == name):
            binding = expected.get(callee.id)
            key = binding.key if binding is not None else None
            keys.add(key)
            found = whole.binding(name, callee)
            assert (found.key if found is not None else None) == key, (name, callee.start_byte)
            below = key if binding is not None and binding.scope.id != root.id else None
            found = sliced.binding(name, callee)
            assert (found.key if found is not None else None) == below, (name, callee.start_byte)
    return len(callees), len(keys - {None})


@pytest.mark.parametrize("text", [SCOPES, WRAPPER + UNDECIDED + HERITAGES], ids=["scopes", "wrappers"])
def test_a_climb_binds_every_call_as_a_resolution_of_every_occurrence(text: str) -> None:
    calls, bindings = _climbed_as_resolved(text.encode())
    assert calls > 30 and bindings > 25


@pytest.mark.parametrize("path", [
    *(FIXTURES / "demo" / name for name in ("demo.min.js", "demo.terser.min.js", "demo.bun.min.js",
                                            "demo.webpack.min.js")),
    FIXTURES / "shadowing" / "shadowing.js", FIXTURES / "shadowing" / "bun-wrapper.js", ONE_LETTER,
], ids=lambda path: path.name)
def test_real_and_hand_written_bundles_are_climbed_as_resolved(path: Path) -> None:
    calls, bindings = _climbed_as_resolved(path.read_bytes())
    assert calls > 10 and bindings > 2


def test_the_fixture_is_its_scripts_output() -> None:
    import importlib.util

    spec = importlib.util.spec_from_file_location("make_sink_fixture", FIXTURES / "sink" / "make.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    made = module.source().encode()
    assert ONE_LETTER.read_bytes() == made
    assert made.count(b"r") > sink._MAX_OCCURRENCES  # past the search's bound


def _scan(path: Path, out: Path, *extra: object) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    done = run("scan", path, "--out", out, "--jobs", 1, *extra)
    assert done.returncode == 0, done.stderr
    (sinks,) = json.loads((out / SUMMARY).read_text())["handlers"]["sinks"]
    handlers = [json.loads(line) for line in (out / "handlers.jsonl").read_text().splitlines()]
    return sinks, handlers


def _callee_kinds(handlers: list[dict[str, Any]], source: bytes) -> dict[str, list[str]]:
    """Per function of the fixture holding a handler (its name as written before it), the kinds
    of its dispositions with callee `r`."""
    out: dict[str, list[str]] = {}
    for handler in handlers:
        before = source[:handler["offset"]].decode()
        function = before.rsplit("\n", 1)[-1].strip().split("(")[0].replace("function ", "")
        out.setdefault(function, []).extend(d["kind"] for branch in handler["branches"]
                                            for d in branch["dispositions"] if d.get("callee") == "r")
    return out


def test_a_one_letter_sink_past_the_search_is_chosen_and_its_shadows_are_not_it(tmp_path: Path) -> None:
    source = ONE_LETTER.read_bytes()
    sinks, handlers = _scan(ONE_LETTER, tmp_path / "out")
    assert (sinks["name"], sinks["declaration"], sinks["calls"]) == (
        "r", {"offset": source.index(b"r(t)"), "line": 1, "kind": "function"}, 5)
    assert sinks["unresolvedNames"] == []
    # the module's own `r`, 4 calls, then the shadowing locals' (1 each), by offset
    assert sinks["runnerUps"][0] == {"name": "r", "declarationOffset": source.index(b"r = function"), "calls": 4}
    assert [runner["calls"] for runner in sinks["runnerUps"][1:]] == [1, 1]
    kinds = _callee_kinds(handlers, source)
    assert {name: kinds[name] for name in ("open", "read", "stat", "remove", "parse")} == {
        "open": ["report"], "read": ["report"], "stat": ["report"], "remove": ["report"], "parse": ["report"]}
    assert all(kinds[name] == ["callback"] for name in ("each", "local", "retry", "inner", "a", "b", "c", "d"))


def test_before_a_tree_with_an_error_the_name_is_left_unresolved(tmp_path: Path) -> None:
    """A recovered tree's scopes are not climbed: the name stays too common to resolve."""
    broken = tmp_path / "broken.js"
    broken.write_bytes(ONE_LETTER.read_bytes() + b"var broken = ;\n")
    sinks, _ = _scan(broken, tmp_path / "out")
    assert sinks["name"] is None and sinks["unresolvedNames"] == [{"name": "r", "calls": 13}]


@pytest.mark.parametrize("count", [2, 3, 7])
def test_slices_climb_and_write_the_whole_trees_outputs(tmp_path: Path, count: int) -> None:
    _scan(ONE_LETTER, tmp_path / "whole")
    _scan(ONE_LETTER, tmp_path / "sliced", "--slices", count)
    assert tree_bytes(tmp_path / "sliced") == tree_bytes(tmp_path / "whole")


def test_a_slice_holding_the_names_bytes_past_the_bound_climbs(monkeypatch: pytest.MonkeyPatch) -> None:
    """In process, so the climbs are seen: a slice holding a padded statement climbs, below its root."""
    climbs: list[bool] = []
    binding = Climb.binding

    def counted(self: Climb, name: bytes, node: Node) -> object:
        climbs.append(self.through_root)
        return binding(self, name, node)

    monkeypatch.setattr(Climb, "binding", counted)
    executor = Inline()
    executor.slices = 2
    scan(scan_input(ONE_LETTER), executor=executor)
    assert False in climbs and True not in climbs


def test_a_compiled_catchs_call_is_climbed_from_the_same_name_in_the_unit(tmp_path: Path) -> None:
    """A compiled catch's clause is parsed alone at its region's offsets (msal 1.4.18's esbuild
    bundle): its call of a name too common to search is bound where that name is in the unit's
    tree, in its machine's functions, whole and in slices alike (a climb from the clause's own
    node ended the scan with an internal error)."""
    built = FIXTURES / "es5-async" / "typescript.esbuild.min.js"
    result = run("scan", built, "--out", tmp_path / "plain", "--jobs", 1)
    assert result.returncode == 0, result.stderr
    source = built.read_bytes()
    compiled = [  # a compiled catch's record is placed on its catch case
        disposition["callee"] for handler in map(json.loads, (tmp_path / "plain" / "handlers.jsonl").open())
        if source.startswith(b"case", handler["offset"]) for branch in handler["branches"]
        for disposition in branch["dispositions"]
        if disposition["kind"] == "callback" and len(disposition["callee"] or "") == 1
    ]
    name = compiled[0]
    # NAME declared at the top, given the caught value twice there, and written 5,000 times more
    word = name.encode()
    padding = b"function %s(e){send(e)}function zz(){try{g()}catch(e){%s(e)}try{g()}catch(e){%s(e)}return[%s]}" % (
        word, word, word, b",".join([word] * 5000))
    bundle = tmp_path / "compiled.js"
    bundle.write_bytes(source.rstrip(b"\n") + b"\n" + padding + b"\n")
    whole = scanned_whole_and_in_slices(bundle, tmp_path, 2)
    (choice,) = json.loads((whole / SUMMARY).read_text())["handlers"]["sinks"]
    # the compiled call is bound in its machine's function: the top-level NAME keeps its 2 calls
    # (given the third, it would be the sink)
    top = len(source.rstrip(b"\n")) + 1 + len(b"function ")
    assert choice["unresolvedNames"] == [] and choice["name"] is None, choice
    assert {"name": name, "declarationOffset": top, "calls": 2} in choice["runnerUps"], choice
