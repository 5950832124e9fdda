"""The sink candidates' bindings in a large statement of L, read by levels (docs/slices.md, "A
large statement's sink names"): wherever `LevelBindings` decides a call's binding, it is the one
a resolution over the whole statement gives (the search it replaces), and the shapes it cannot
decide say so."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import FIXTURES
from tree_sitter import Node, Tree

from analyzer.javascript import sink_levels
from analyzer.javascript.resolve import Resolution
from analyzer.javascript.sink import _within
from analyzer.javascript.sink_levels import LevelBindings, Undecided
from analyzer.javascript.syntax import parse
from analyzer.parallel.executor import Inline
from analyzer.scan import scan, scan_input

#: one wrapper holding a declaration of each kind at its own level, in blocks at its level, in a
#: module function and in a nested function, then calls of each name from a handler
WRAPPER = """
var top1 = 1;
function outside(e) {}
(function (exports, p1, {d1, d2: [d3]}, ...rest) {
  var a1 = 1;
  function f1(e) {}
  let l1 = 2; const c1 = 3;
  class K1 {}
  if (x) { var v1 = 0; let bl = 1; function fb() {} }
  for (var fv = 0; ;) {}
  for (var fi in o) {}
  try {} catch (e) { var cv; }
  lbl: { var lv; }
  switch (q) { case 1: var sv; }
  var dup; function dup() {}
  function mod() {
    var local = 1;
    try { g() } catch (e) {
      local(e); a1(e); f1(e); l1(e); c1(e); K1(e); v1(e); bl(e); fb(e); fv(e); fi(e); cv(e); lv(e); sv(e);
      p1(e); d1(e); d3(e); rest(e); exports(e); top1(e); outside(e); glob(e); shadow(e); mod(e); later(e); dup(e);
      e(e)
    }
    function shadow() {}
    return function inner(p1) { try {} catch (e) { p1(e); a1(e); inner(e); mod(e) } }
  }
  var later = 1;
  { let blockLevel; try {} catch (e) { blockLevel(e); a1(e) } }
})(exports, 1, {});
(function named() { try {} catch (e) { named(e); a1(e); top1(e) } })();
(() => { var ar; try {} catch (e) { ar(e); outside(e) } })();
var W = (function () { try {} catch (e) { W(e); top1(e) } })();
x = function () { let y; { let y2; try {} catch (y3) { y(y3); y2(y3); y3(y3) } } };
"""

#: the shapes the levels leave to the statement's search, one statement each (a block scope above
#: the function, a call in its parameters, no function), and a class body, which is no scope
UNDECIDED = """
{ let blk; (function () { try {} catch (e) { blk(e) } })(); }
(function (a = function () { try {} catch (e) { a(e) } }) {})();
try {} catch (e) { atTop(e) }
class Holder { m() { try {} catch (e) { Holder(e) } } }
"""


def _calls(node: Node) -> list[Node]:
    """The identifiers called in `node`, in source order."""
    out, stack = [], [node]
    while stack:
        current = stack.pop()
        if current.type == "call_expression":
            callee = current.child_by_field_name("function")
            if callee is not None and callee.type == "identifier":
                out.append(callee)
        stack.extend(reversed(current.named_children))
    return out


def _statement_key(tree: Tree, source: bytes, statement: Node, callee: Node) -> tuple[str, int] | None:
    """What the search of the whole statement binds the call to below L (None: L's scope or the global)."""
    resolution = Resolution(tree, source, {callee.text.decode()}, within=(statement.start_byte, statement.end_byte))
    (binding,) = [r.binding for r in resolution.references if r.node.id == callee.id]
    return None if binding is None or binding.scope.id == tree.root_node.id else binding.key


def _decided(source: bytes, undecided_names: list[bytes] | None = None) -> tuple[int, int]:
    """Every call of every statement, by levels against the statement's search: (decided,
    undecided); `undecided_names` gets the names of the latter."""
    tree = parse(source)
    calls = [(statement, callee) for statement in tree.root_node.named_children for callee in _calls(statement)]
    names = frozenset(callee.text for _, callee in calls)
    levels = LevelBindings(tree, names, lambda name, within: _within(tree, source, name, within))
    decided = undecided = 0
    for statement, callee in calls:
        try:
            found = levels.bindings(callee.text, [callee]).get(callee.id)
        except Undecided:
            undecided += 1
            if undecided_names is not None:
                undecided_names.append(callee.text)
            continue
        decided += 1
        expected = _statement_key(tree, source, statement, callee)
        assert (found.key if found is not None else None) == expected, callee.text
    return decided, undecided


def test_every_call_the_levels_decide_is_bound_as_the_statements_search_binds_it() -> None:
    decided, undecided = _decided(WRAPPER.encode())
    assert (decided, undecided) == (len(_calls(parse(WRAPPER.encode()).root_node)), 0)


def test_a_scope_above_the_function_its_parameters_or_no_function_leave_the_search() -> None:
    assert _decided(UNDECIDED.encode()) == (1, 3)


def test_a_name_too_common_in_the_statement_of_the_functions_list_is_undecided() -> None:
    source = ("(function(){ function m(){ " + "z;" * 10 + "try{}catch(e){z(e)} } })();").encode()
    tree = parse(source)
    (callee,) = [c for c in _calls(tree.root_node) if c.text == b"z"]
    levels = LevelBindings(tree, frozenset({b"z"}), lambda name, within: None)  # as `_within` past its count
    with pytest.raises(Undecided):
        levels.bindings(b"z", [callee])


@pytest.mark.parametrize("name", ["demo.min.js", "demo.cjs.min.js", "demo.terser.min.js", "demo.bun.min.js"])
def test_real_bundles_wrapped_whole_are_bound_by_levels_as_by_the_search(name: str) -> None:
    bundle = (FIXTURES / "demo" / name).read_bytes().split(b"\n//# sourceMappingURL")[0]
    source = b"(function(){\n" + bundle + b"\n})();\n"
    names: list[bytes] = []
    decided, undecided = _decided(source, names)
    # undecided: `e` and `t`, whose bytes occur past the count (4,098) in their function's statement
    assert decided > 100 and undecided < decided / 10 and {len(name) for name in names} <= {1}
    tree = parse(source)
    (statement,) = tree.root_node.named_children
    heritages = _heritages(tree.root_node)
    levels = LevelBindings(tree, frozenset(h.text for h in heritages), lambda name, within: Resolution(
        tree, source, {name.decode()}, within))
    for heritage in heritages:
        found = levels.with_global(source, heritage.text, heritage)
        key = found.key if found is not None else None
        assert key == _statement_key(tree, source, statement, heritage), heritage.text
    assert heritages


def _heritages(root: Node) -> list[Node]:
    """The identifiers a class extends (`class A extends B`), in source order."""
    out, stack = [], [root]
    while stack:
        node = stack.pop()
        if node.type == "class_heritage" and node.named_children and node.named_children[0].type == "identifier":
            out.append(node.named_children[0])
        stack.extend(reversed(node.named_children))
    return out


def test_a_sliced_scan_binds_its_large_statements_by_levels(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Through the scan: a wrapped bundle read in slices asks the levels, and every name it asks
    is decided (the outputs are the whole tree's: test_slices_scan's wrapped bundles)."""
    asked: list[bool] = []
    bindings = LevelBindings.bindings

    def counted(self: LevelBindings, name: bytes, nodes: list[Node]) -> object:
        try:
            found = bindings(self, name, nodes)
        except Undecided:
            asked.append(False)
            raise
        asked.append(True)
        return found

    monkeypatch.setattr(LevelBindings, "bindings", counted)
    bundle = tmp_path / "wrapped.js"
    bundle.write_bytes(b"".join(b"(function(){\n" + (FIXTURES / "demo" / name).read_bytes() + b"\n})();\n"
                                for name in ("demo.cjs.min.js", "demo.terser.min.js", "demo.cjs.min.js")))
    assert (FIXTURES / "demo" / "demo.cjs.min.js").stat().st_size >= sink_levels.LARGE_STATEMENT
    executor = Inline()
    executor.slices = 3
    scan(scan_input(bundle), executor=executor)
    assert asked and all(asked)


#: heritages in a wrapper: bound in the class's function, at the wrapper's level (first
#: declaration kept), in L's scope in another statement or global (None: the merge re-binds
#: it), and in L's scope in the wrapper's own statement (undecided: the caller needs L's binding)
HERITAGES = """
class Outer extends Error {}
(function (P) {
  var Twice = 1;
  class Base extends Error {}
  function make() { class Local {} return class extends Local {} }
  class A extends Base {}
  class Twice2 extends Twice {}
  var Twice = 2;
  const B = class extends A {};
  if (x) { class C extends B {} }
  class D extends P {}
  class E extends Outer {}
  class F extends Missing {}
  function G() { class H extends G {} }
})();
var Same = class {}, Wrapped = (function () { class Z extends Same {} })();
"""


def test_every_heritage_the_levels_decide_is_bound_as_the_statements_search_binds_it() -> None:
    source = HERITAGES.encode()
    tree = parse(source)
    heritages = _heritages(tree.root_node)
    levels = LevelBindings(tree, frozenset(h.text for h in heritages), lambda name, within: Resolution(
        tree, source, {name.decode()}, within))
    decided = {}
    for heritage in heritages:
        statement = next(s for s in tree.root_node.named_children if s.start_byte <= heritage.start_byte < s.end_byte)
        try:
            found = levels.with_global(source, heritage.text, heritage)
        except Undecided:
            continue
        decided[heritage.text] = found.key if found is not None else None
        assert decided[heritage.text] == _statement_key(tree, source, statement, heritage), heritage.text
    assert set(decided) == {b"Local", b"Base", b"A", b"Twice", b"B", b"P", b"G", b"Missing", b"Outer", b"Error"}
    assert decided[b"Twice"] == ("Twice", source.index(b"Twice = 1")) and decided[b"Missing"] is None
