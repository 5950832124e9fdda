"""Handlers over slices (docs/slices.md, "Step 7 as built"): each slice tree's handlers found with
the head chain (`find.tree_handlers` with its range), the sink's candidates resolved in their
slice and re-bound at the merge, the bodies that wait for the sink made under each sink their
candidates can make, and the sources through a call from each slice's rows (`sources.slice_sources`
with the byte supersets): merged with no tree, every handler record, the sink with its evidence
and its calls, and the sources through a call equal the whole tree's; for N = 2, 3, 7 slices of
the demo bundles and synthetic units, and a slice per statement of the synthetic units."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Sequence
from pathlib import Path

import pytest
from conftest import FIXTURES, run, tree_bytes
from test_slices_references import slice_trees, statement_plan
from tree_sitter import Node, Tree

from analyzer.facts import HandlerFacts, SiteFacts
from analyzer.javascript import slices
from analyzer.javascript.extract import _columns, _find_sites, _root_candidates, _Tasks
from analyzer.javascript.handlers import slices as handling
from analyzer.javascript.handlers.dispositions import HandlerBody
from analyzer.javascript.handlers.find import TreeHandlers, tree_handlers, unit_handlers
from analyzer.javascript.handlers.sink_calls import SinkCalls
from analyzer.javascript.handlers.slices import Potential, handler_visits, settle, slice_handlers
from analyzer.javascript.handlers.sources import (
    SourceRows,
    called_sources,
    escaping_of,
    slice_sources,
    unit_sources,
)
from analyzer.javascript.modules import find_modules
from analyzer.javascript.modules.statements import main_container
from analyzer.javascript.reference_merge import slice_references, unit_references
from analyzer.javascript.references import chunk_references, listing
from analyzer.javascript.resolve import Resolution
from analyzer.javascript.rules import compile_rules
from analyzer.javascript.sink import SinkChoice, unit_sink
from analyzer.javascript.slice_supersets import supersets
from analyzer.javascript.sliced import SlicedHalves, sliced_halves
from analyzer.javascript.syntax import ancestors, new_parser
from analyzer.javascript.top_bindings import TopBindings, TopScopes, head_bindings, merged, top_bindings
from analyzer.javascript.unit_tree import UnitTree
from analyzer.limits import WorkBudget
from analyzer.model import Unit
from analyzer.parallel.executor import Inline
from analyzer.rules import load_rules

RULES = compile_rules(load_rules("javascript"))
BUN_HEAD = "// @bun @bun-cjs\n(function(exports, require, module, __filename, __dirname) {"

#: the sink `report` declared last, called from several slices with the caught value (and a
#: message read from it: a `report`), shadowed by a local in one function, a runner-up `note`
SINK = (
    "function u1(){try{a()}catch(e){report(e)}};"
    "function u2(){try{a()}catch(e){if(e.code)report(e);else note(e)}};"
    "function u3(){let report=x=>x;try{a()}catch(e){report(e)}};"
    "var u4=()=>a().catch(e=>report(e.message));"
    "function u5(){try{a()}catch(e){note(e);report(e)}};"
    "function u6(){return a().then(null,report)};"
    "function u7(){try{a()}catch(e){note(e)}};"
    "function a(){return Promise.resolve(1)};"
    "function note(e){console.log(e)};"
    "function report(e){console.error(e)};"
)
#: a protected block calling `mid` (declared after it), which calls the thrower `deep` (declared
#: last); an async thrower awaited and not; a local shadowing `deep`
THROUGH = (
    "function top(){try{mid()}catch(e){return null}};"
    "async function waits(){try{await slow()}catch(e){return 1}try{slow()}catch(e){return 2}};"
    "function shadows(){const deep=()=>1;try{deep()}catch(e){return 3}};"
    "function mid(){return deep()+1};"
    "async function slow(){throw new TypeError(\"slow\")};"
    "function deep(){if(Math.random())throw new RangeError(\"deep\");return 1};"
)
#: the logger `L` declared after every call of it, some in handlers; a runner-up `M` whose calls
#: with the caught value are then the sink's candidates
LOGGER = (
    "function f(){try{g()}catch(e){L(\"f\",{level:\"error\"});throw e}};"
    "function m(){try{g()}catch(e){M(e,{level:\"warn\"})}};"
    "function h(){try{g()}catch(e){L(e,{level:\"warn\"});sink(e)}};"
    "function n(){try{g()}catch(e){M(e,{level:\"info\"});L(e)}};"
    "function k(){try{g()}catch(e){sink(e)}try{g()}catch(e){sink(e)}};"
    "function g(){throw new Error(\"g\")};"
    "function sink(e){L(e)};"
    "function M(m,o){console.log(m,o)};"
    "function L(m,o){console.log(m,o)};"
)
#: handler-heavy (their node visits, docs/slices.md, "Step 7 as built"): handlers in nested
#: functions (scope entries), two sharing their function's anchor, promise handlers, functions
#: whose sites' facts digest them first, a catch clause past ANCHOR_LIMIT nodes (its own anchor),
#: one in a large function (a window), in compiled ES5 error classes (one digested by the classes),
#: in a class's constructor, method and static block
HEAVY = (
    'function h1(){try{a()}catch(e){L(e,{level:"error"})}};'
    "function h2(){try{a()}catch(e){sink(e)}try{a()}catch(f){sink(f)}};"
    "function h3(){return a().then(function(v){return v},function(e){sink(e)}).catch(e=>sink(e))};"
    'function h4(){return function(){return function(){try{a()}catch(e){throw new Error("w",{cause:e})}}}};'
    "function h5(){try{a()}catch(e){" + "x=1;" * 200 + "sink(e)}};"
    "function h6(){" + "y=1;" * 200 + "try{a()}catch(e){sink(e)}" + "z=1;" * 200 + "};"
    'var W=function(e){__extends(t,e);try{a()}catch(x){}function t(){try{a()}catch(x){sink(x)}'
    'return e.call(this,"w")||this}return t}(Error);'
    "function mk(){function E5(m){try{a()}catch(x){}this.message=m}"
    "E5.prototype=Object.create(Error.prototype);return E5};"
    'class K extends Error{constructor(){super("k");try{a()}catch(e){sink(e)}}m(){return a().catch(e=>L(e))}'
    "static{try{a()}catch(e){}}};"
    + "".join(f"function g{i}(){{try{{a({i})}}catch(e){{{('sink(e)', 'L(e)', 'return a()', 'throw e')[i % 4]}}}}};"
              f"function p{i}(){{return a().then(()=>{i},e=>sink(e))}};" for i in range(24))
    + "function a(){return Promise.resolve(1)};"
    "function __extends(d,b){d.prototype=Object.create(b.prototype)};"
    "function sink(e){console.error(e)};"
    "function L(m,o){console.log(m,o)};"
)
SYNTHETIC = {
    "heavy.js": HEAVY.encode(),
    "heavy.bun.js": (BUN_HEAD + HEAVY + "})\n").encode(),
    "sink.js": SINK.encode(),
    "sink.bun.js": (BUN_HEAD + SINK + "})\n").encode(),
    "through.js": THROUGH.encode(),
    "through.bun.js": (BUN_HEAD + THROUGH + "})\n").encode(),
    "logger.js": LOGGER.encode(),
    "logger.bun.js": (BUN_HEAD + LOGGER + "})\n").encode(),
}
DEMOS = ["demo.min.js", "demo.cjs.min.js", "demo.bun.min.js"]


def _source(name: str) -> bytes:
    return SYNTHETIC[name] if name in SYNTHETIC else (FIXTURES / "demo" / name).read_bytes()


def _unit(source: bytes) -> Unit:
    return Unit("unit.js", source, hashlib.sha256(source).hexdigest())


def _positions(source: bytes):
    return lambda offsets: _columns(source, offsets)


def _whole(source: bytes) -> tuple[list[HandlerFacts], SinkChoice, dict, list[tuple[Node, str]], list[SiteFacts]]:
    """The whole tree's handler records, sink and sources through a call, as `extract_unit`
    makes them, with its callsites and their facts."""
    tree = new_parser().parse(source)
    part = UnitTree(tree, source)
    modules = find_modules(tree, source, part.statement_lists())
    _, _, choice, sites, _ = _find_sites(tree, source, RULES, None)
    items = listing(tree, source, modules)
    roots = _root_candidates(items.raw, [node.start_byte for node, _ in sites], choice)
    unit = _unit(source)
    work = _Tasks(unit, part, RULES, items, sites, roots)
    references, site_facts, _, _ = work.gather(Inline().map(work.run, work.count))
    facts = [fact for fact in site_facts if isinstance(fact, SiteFacts)]
    found = tree_handlers(unit.name, UnitTree(tree, source), sites)
    sink = unit_sink(unit.name, source, [found.sink])
    records = unit_handlers(unit.name, [found], sink, _positions(source))
    called = called_sources(source, items.raw, references.shadowed, facts, found.blocks)
    return records, sink, called, sites, facts


def _same_node(root: Node, node: Node) -> Node:
    found = root.descendant_for_byte_range(node.start_byte, node.end_byte)
    while found is not None and (found.type, found.start_byte, found.end_byte) != \
            (node.type, node.start_byte, node.end_byte):
        found = found.parent
    assert found is not None
    return found


def _tops(source: bytes, plan: slices.Plan, trees: list[Tree], chain: Sequence[Node],
          names: frozenset[bytes]) -> TopBindings:
    """The unit's top-level bindings (docs/slices.md 5e) of every name L may declare: each
    slice's, from a `Resolution` of those names on its tree, merged with the head's."""
    list_type = "statement_block" if plan.kind == "bun-cjs-body" else "program"
    wanted = {name.decode() for name in names}
    parts = [head_bindings(chain, list_type)]
    for span, tree in zip(plan.ranges, trees, strict=True):
        resolution = Resolution(tree, source, wanted, within=span)
        parts.append(top_bindings(resolution, TopScopes(tree.root_node, chain, list_type)))
    return merged(parts)


def _sliced(source: bytes, plan: slices.Plan, head: Tree | None, trees: list[Tree],
            sites: list[tuple[Node, str]], facts: list[SiteFacts]) -> tuple[list[HandlerFacts], SinkChoice, dict]:
    """The same, each slice read alone (its handlers, its sink rows, its sources' rows), merged."""
    made = supersets(source, plan.braces, RULES.level_key, RULES.options_argument)
    assert made is not None
    chain = () if head is None else ancestors(main_container(head.root_node), head.root_node)
    bun = plan.kind == "bun-cjs-body"
    unit = _unit(source)
    modules = find_modules(new_parser().parse(source), source)
    found: list[TreeHandlers] = []
    summaries, raw, rows = [], [], []
    for (start, end), tree in zip(plan.ranges, trees, strict=True):
        part = UnitTree(tree, source, None, chain, "statement_block" if bun else "program")
        mine = [(_same_node(tree.root_node, node), kind) for node, kind in sites if start <= node.start_byte < end]
        handlers = slice_handlers(unit.name, part, mine, (start, end))
        items = listing(tree, source, modules, span=(start, end), names=made.names)
        summary = slice_references(items, [chunk_references(items, chunk, source, tree.root_node)
                                           for chunk in range(len(items.chunks))], {})
        escaping = escaping_of(f for f in facts if start <= f.offset < end)
        rows.append(slice_sources(source, items.raw, summary.shadowed, escaping, handlers.blocks,
                                  callees=made.hot, throwers=made.throwers, cold=made.cold, guarded=made.guarded))
        handlers.blocks.clear()  # its nodes die with the tree
        found.append(handlers)
        summaries.append(summary)
        raw.extend((item[0], item[1], None, item[3]) for item in items.raw)
    tops = _tops(source, plan, trees, chain, made.names)
    found = settle(found, [(node.start_byte, node.end_byte, kind) for node, kind in sites])
    sink = unit_sink(unit.name, source, [part.sink for part in found], tops)
    records = unit_handlers(unit.name, found, sink, _positions(source))
    references = unit_references(summaries)
    assert all(not part.blocks for part in found)
    assert all(isinstance(part, SourceRows) for part in rows)
    called = unit_sources(rows, raw, references.shadowed, escaping_of(facts), made.throwers, made.hot)
    return records, sink, called


def assert_as_the_whole(source: bytes, plan: slices.Plan, head: Tree | None, trees: list[Tree]) -> tuple:
    records, sink, called, sites, facts = _whole(source)
    mine, my_sink, my_called = _sliced(source, plan, head, trees, sites, facts)
    assert my_sink.evidence == sink.evidence
    assert my_sink.calls == sink.calls
    assert my_called == called
    assert [h.offset for h in mine] == [h.offset for h in records]
    low = plan.ranges[0][0]
    for a, b in zip(mine, records, strict=True):
        where = f"{a.form} at {a.offset}"
        assert (a.end_offset, a.line, a.column, a.form, a.param, a.scope, a.branches, a.in_error_region,
                a.lone_rethrow) == (b.end_offset, b.line, b.column, b.form, b.param, b.scope, b.branches,
                                    b.in_error_region, b.lone_rethrow), where
        if len(a.scope.scopePath) == 1 or (head is not None and int(a.scope.scopePath[-1].rpartition("@")[2]) < low):
            continue  # module level: a window over L, or the head's function (docs/slices.md step 8)
        assert a.identity == b.identity, where
    return records, sink, called


@pytest.mark.parametrize("count", [2, 3, 7])
@pytest.mark.parametrize("name", DEMOS)
def test_the_plans_slices_give_the_whole_trees_handlers(name: str, count: int) -> None:
    source = _source(name)
    plan = slices.plan(source, count)
    assert plan is not None
    head = slices.parse_head(new_parser(), source, plan)
    records, _, _ = assert_as_the_whole(source, plan, head, slice_trees(source, plan, head))
    assert records


@pytest.mark.parametrize("count", [2, 3, 7, 10_000])
@pytest.mark.parametrize("name", sorted(SYNTHETIC) + DEMOS)
def test_slices_cut_before_any_statement_give_the_whole_trees_handlers(name: str, count: int) -> None:
    source = _source(name)
    plan, head = statement_plan(source, count)
    assert_as_the_whole(source, plan, head, slice_trees(source, plan, head))


@pytest.mark.parametrize("name", ["sink.js", "sink.bun.js"])
def test_a_sink_declared_last_is_chosen_from_calls_in_every_slice(name: str) -> None:
    source = _source(name)
    plan, head = statement_plan(source, 10_000)
    _, sink, _ = assert_as_the_whole(source, plan, head, slice_trees(source, plan, head))
    evidence = sink.evidence
    assert evidence.name == "report" and evidence.declaration is not None
    assert evidence.declaration[0] == source.index(b"report(e){")
    # the local `report` of u3 is a binding of its own, the runner-up after `note`
    assert evidence.calls == 4 and [(c.name, c.declaration_offset) for c in evidence.runner_ups] == \
        [("note", source.index(b"note(e){")), ("report", source.index(b"report=x"))]
    # `report(e.message)` is a report: its call is among the sink's, from its own slice
    start = source.index(b"report(e.message)")
    assert (start, start + len(b"report")) in sink.calls
    local = source.index(b"report(e)", source.index(b"let report"))
    assert (local, local + len(b"report")) not in sink.calls


@pytest.mark.parametrize("name", ["through.js", "through.bun.js"])
def test_a_block_catches_a_thrower_of_another_slice_through_a_third(name: str) -> None:
    source = _source(name)
    plan, head = statement_plan(source, 10_000)
    _, _, called = assert_as_the_whole(source, plan, head, slice_trees(source, plan, head))
    deep, slow = source.index(b"new RangeError"), source.index(b"new TypeError")
    catch = source.index(b"catch", source.index(b"function top"))
    assert called[catch] == ((deep, 2),)
    waits = source.index(b"catch", source.index(b"async function waits"))
    assert called[waits] == ((slow, 1),)
    assert len(called) == 2  # not the unawaited async call, not the shadowed `deep`


@pytest.mark.parametrize("count", [2, 3, 7, 10_000])
@pytest.mark.parametrize("name", ["heavy.js", "heavy.bun.js", "sink.js", "logger.bun.js"])
def test_the_slices_note_the_node_visits_of_the_whole_trees_handlers(name: str, count: int) -> None:
    """Each slice notes its handlers' scope entries and anchor nodes instead of spending them:
    summed, each node once, they are what the whole tree's handlers spend of a fresh budget."""
    source = _source(name)
    plan, head = statement_plan(source, count)
    tree = new_parser().parse(source)
    budget = WorkBudget(name, tree.root_node.descendant_count)
    tree_handlers(name, UnitTree(tree, source, budget), ())
    chain = () if head is None else ancestors(main_container(head.root_node), head.root_node)
    list_type = "statement_block" if plan.kind == "bun-cjs-body" else "program"
    parts = [slice_handlers(name, UnitTree(part, source, None, chain, list_type), (), span)
             for span, part in zip(plan.ranges, slice_trees(source, plan, head), strict=True)]
    assert all(part.inexact is None for part in parts)
    assert handler_visits(parts, (), ()) == budget.total - budget.left > 0
    assert sum(len(part.digested) for part in parts) > 1 and sum(part.scopes for part in parts) > 1


@pytest.mark.parametrize("count", [2, 3, 7])
@pytest.mark.parametrize("name", ["heavy.js", "heavy.bun.js", "sink.js", "logger.bun.js"])
def test_a_slice_tree_holding_the_digests_already_notes_the_same_visits(name: str, count: int) -> None:
    """The handlers read a slice on the facts' `UnitTree` (docs/slices.md, stage 7): on a tree
    whose normalizer holds every anchor's digest already, they make the same handlers and note
    the same scope entries and anchor nodes as on a tree of their own."""
    source = _source(name)
    plan, head = statement_plan(source, count)
    chain = () if head is None else ancestors(main_container(head.root_node), head.root_node)
    list_type = "statement_block" if plan.kind == "bun-cjs-body" else "program"
    for span, tree in zip(plan.ranges, slice_trees(source, plan, head), strict=True):
        part = UnitTree(tree, source, None, chain, list_type)
        made = [slice_handlers(name, part, (), span) for _ in range(2)]  # the second on the first's digests
        first, again = ((m.handlers, m.sink, m.left_out, m.inexact, m.scopes, m.digested) for m in made)
        assert repr(again) == repr(first)


def _through_rows(callees: frozenset[bytes], throwers: frozenset[bytes], cold: dict[int, int] | None = None,
                  guarded: frozenset[bytes] | None = None) -> tuple[list, list, list]:
    """through.js's sources' rows, 3 slices, given these supersets; its raw items and facts."""
    source = _source("through.js")
    plan, head = statement_plan(source, 3)
    _, _, _, sites, facts = _whole(source)
    trees = slice_trees(source, plan, head)
    modules = find_modules(new_parser().parse(source), source)
    rows, raw = [], []
    for (start, end), tree in zip(plan.ranges, trees, strict=True):
        part = UnitTree(tree, source, None, (), "program")
        mine = [(_same_node(tree.root_node, node), kind) for node, kind in sites if start <= node.start_byte < end]
        handlers = slice_handlers("unit.js", part, mine, (start, end))
        items = listing(tree, source, modules, span=(start, end))
        escaping = escaping_of(f for f in facts if start <= f.offset < end)
        rows.append(slice_sources(source, items.raw, frozenset(), escaping, handlers.blocks,
                                  callees=callees, throwers=throwers, cold=cold, guarded=guarded))
        raw.extend(items.raw)
    return rows, raw, facts


def test_a_missing_thrower_is_caught_by_the_merge() -> None:
    rows, raw, facts = _through_rows(frozenset({b"mid", b"deep", b"slow"}), frozenset({b"slow"}))
    with pytest.raises(ValueError, match="throwers missing"):
        unit_sources(rows, raw, frozenset(), escaping_of(facts), frozenset({b"slow"}))


def test_a_missing_hot_function_is_caught_by_the_merge() -> None:
    """`mid` calls the thrower `deep`: a block's call of it must be kept; a superset without it
    is caught at the merge (and the driver reads the unit whole), one with it gives the calls."""
    throwers = frozenset({b"deep", b"slow"})
    rows, raw, facts = _through_rows(throwers, throwers)
    with pytest.raises(ValueError, match=r"hot functions missing from the superset: \[b'mid'\]"):
        unit_sources(rows, raw, frozenset(), escaping_of(facts), throwers, throwers)
    rows, raw, facts = _through_rows(throwers | {b"mid"}, throwers)
    source = _source("through.js")
    called = unit_sources(rows, raw, frozenset(), escaping_of(facts), throwers, throwers | {b"mid"})
    assert called[source.index(b"catch")] == ((source.index(b"new RangeError"), 2),)


def test_a_cold_function_the_merge_asks_for_is_caught() -> None:
    """A function the supersets call cold gets no row; the merge needing it (here `deep`, which
    throws: a wrong superset) fails, and the driver reads the unit whole."""
    source = _source("through.js")
    named = source.index(b"deep(){")
    throwers = frozenset({b"deep", b"slow"})
    rows, raw, facts = _through_rows(throwers | {b"mid"}, throwers, {named: len(source)})
    with pytest.raises(ValueError, match=f"no slice's row for the body of the function at {named - len(b'function ')}"):
        unit_sources(rows, raw, frozenset(), escaping_of(facts), throwers, throwers | {b"mid"})


def test_only_the_functions_a_protected_block_names_get_a_body_row() -> None:
    """Given the words of the protected blocks (`Supersets.guarded`), a slice makes the body's
    row of those functions only, and the merge finds the same sources; a block naming a word
    outside them fails in its slice (the driver then reads the unit whole)."""
    source = _source("through.js")
    throwers = frozenset({b"deep", b"slow"})
    hot = throwers | {b"mid"}
    made = supersets(source, None, RULES.level_key, RULES.options_argument)
    assert made is not None and made.guarded is not None
    assert {b"mid", b"slow", b"deep", b"await"} <= made.guarded and b"top" not in made.guarded
    every, raw, facts = _through_rows(hot, throwers)
    rows, _, _ = _through_rows(hot, throwers, guarded=made.guarded)
    bodies = [start for part in rows for start in part.bodies]
    assert len(bodies) < len([start for part in every for start in part.bodies])
    assert sorted(bodies) == sorted(source.index(head) for head in (b"function mid", b"async function slow",
                                                                      b"function deep"))
    assert unit_sources(rows, raw, frozenset(), escaping_of(facts), throwers, hot) == \
        unit_sources(every, raw, frozenset(), escaping_of(facts), throwers, hot)
    with pytest.raises(ValueError, match=r"the protected block at \d+ names words outside the superset: \[b'mid'\]"):
        _through_rows(hot, throwers, guarded=made.guarded - {b"mid"})


FLOW_BUILDS = sorted((FIXTURES / "flow" / "built").glob("*.js"))


def test_the_branches_under_each_sink_are_those_of_the_body_read_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """A waiting body's branches under a sink are made from what it noted with none (`SinkCalls`):
    on every handler of the sink, logger, demo and flow fixtures, cut in 3 slices, they are the
    branches of the body read again under that sink."""
    under_sink = HandlerBody.under_sink
    noted: list[bool] = []

    def checked(body: HandlerBody, calls: SinkCalls, tests: list, sink: frozenset[tuple[int, int]]) -> tuple:
        made = under_sink(body, calls, tests, sink)
        noted.append(calls.under(sink) is not None and len(calls.lists) == len(tests))  # made from the notes
        recording, body.recording, body.sink = body.recording, None, sink
        assert made == body.branches(), f"the handler at {body.handler.node.start_byte}"
        body.recording, body.sink = recording, frozenset()
        return made

    monkeypatch.setattr(HandlerBody, "under_sink", checked)
    sources = [_source(name) for name in ("sink.js", "logger.js", "logger.bun.js", *DEMOS)]
    for source in sources + [path.read_bytes() for path in FLOW_BUILDS]:
        plan, head = statement_plan(source, 3)
        _, _, _, sites, _ = _whole(source)
        chain = () if head is None else ancestors(main_container(head.root_node), head.root_node)
        list_type = "statement_block" if plan.kind == "bun-cjs-body" else "program"
        for (start, end), tree in zip(plan.ranges, slice_trees(source, plan, head), strict=True):
            mine = [(_same_node(tree.root_node, node), kind) for node, kind in sites if start <= node.start_byte < end]
            slice_handlers("unit.js", UnitTree(tree, source, None, chain, list_type), mine, (start, end))
    assert noted.count(True) >= 3 and noted.count(False) >= 1, noted


def test_the_bodies_waiting_for_the_sink_are_made_under_each_choice() -> None:
    """A slice's body calling two names that may be the sink has three variants: neither, one, the other."""
    source = _source("sink.js")
    plan, head = statement_plan(source, 2)
    trees = slice_trees(source, plan, head)
    _, _, _, sites, _ = _whole(source)
    start, end = plan.ranges[0]
    mine = [(_same_node(trees[0].root_node, node), kind) for node, kind in sites if start <= node.start_byte < end]
    found = slice_handlers("unit.js", UnitTree(trees[0], source, None, (), "program"), mine, (start, end))
    at = source.index(b"catch", source.index(b"function u2"))
    variants = next(h[11] for h in found.handlers if h[0] == at)
    assert variants is not None and len(variants) == 1  # one logger choice: it calls no candidate
    assert len(next(iter(variants.values()))[1]) == 3
    assert all(h[9] is None for h in found.handlers)  # no body kept past its tree


def test_a_slices_sink_rows_need_the_units_top_level_bindings() -> None:
    source = _source("sink.js")
    plan, head = statement_plan(source, 3)
    trees = slice_trees(source, plan, head)
    _, _, _, sites, _ = _whole(source)
    parts = []
    for (start, end), tree in zip(plan.ranges, trees, strict=True):
        mine = [(_same_node(tree.root_node, node), kind) for node, kind in sites if start <= node.start_byte < end]
        parts.append(slice_handlers("unit.js", UnitTree(tree, source, None, (), "program"), mine, (start, end)))
    parts = settle(parts, [(node.start_byte, node.end_byte, kind) for node, kind in sites])
    with pytest.raises(ValueError, match="top-level bindings"):
        unit_sink("unit.js", source, [part.sink for part in parts])


def test_a_body_calling_a_logger_candidate_is_made_under_each_logger_choice() -> None:
    """A slice's handler calling two candidates' bindings has three logger choices (neither, one,
    the other), merged as the whole tree's once `L` is chosen."""
    source = _source("logger.js")
    plan, head = statement_plan(source, 2)
    trees = slice_trees(source, plan, head)
    start, end = plan.ranges[0]
    resolution = Resolution(trees[0], source, {"L", "M", *RULES.constructors}, within=(start, end))
    rows = [(ref.name, call.start_byte, call.end_byte, call.type == "call_expression", False, None)
            for ref, call in resolution.calls() if ref.binding is None or ref.binding.scope == trees[0].root_node]
    potential = Potential(rows, RULES.constructors, {"L", "M"}, ())
    found = slice_handlers("unit.js", UnitTree(trees[0], source, None, (), "program"), (), (start, end),
                           potential, (False, True))
    at = source.index(b"catch", source.index(b"function n"))
    variants = next(h[11] for h in found.handlers if h[0] == at)
    assert variants is not None and len(variants) == 3
    _, sink, _, _, _ = _whole(source)
    assert sink.evidence.name == "sink"  # `M(e)` is a candidate of the sink, not chosen


def _halves(tmp_path: Path, source: bytes, cuts: int) -> str:
    """The trace of a scan in `cuts` slices, whose outputs are the whole tree's."""
    bundle = tmp_path / "unit.js"
    bundle.write_bytes(source)
    env = {**os.environ, "ERRATLAS_TRACE": "1"}
    whole = run("scan", bundle, "--out", tmp_path / "whole", "--jobs", 1)
    cut = run("scan", bundle, "--out", tmp_path / "cut", "--jobs", 1, "--slices", cuts, env=env)
    assert whole.returncode == cut.returncode == 0, cut.stderr
    assert tree_bytes(tmp_path / "cut") == tree_bytes(tmp_path / "whole")
    return cut.stderr


def test_a_module_level_handler_whose_window_reaches_a_cut_reads_the_unit_whole(tmp_path: Path) -> None:
    source = b"function a(){return 1};try{a()}catch(e){b(e)};function b(e){return e};"
    assert sliced_halves("u.js", source, 3, RULES, None) == \
        f"a module-level handler at {source.index(b'catch')}: its window over L reaches a cut"
    assert "the whole tree: a module-level handler at" in _halves(tmp_path, source, 3)


def test_a_module_level_handler_of_a_small_bun_list_reads_the_unit_whole(tmp_path: Path) -> None:
    """The whole tree anchors it on Bun's wrapper when L has at most ANCHOR_LIMIT nodes."""
    source = (BUN_HEAD + "function a(){return 1};try{a()}catch(e){b(e)};function b(e){return e};})\n").encode()
    found = sliced_halves("u.js", source, 3, RULES, None)
    assert found == f"a module-level handler at {source.index(b'catch')}: L may be small enough to anchor it " \
                    "on its function"
    assert "the whole tree: a module-level handler at" in _halves(tmp_path, source, 3)


def test_a_module_level_handler_between_large_statements_is_read_in_slices(tmp_path: Path) -> None:
    """Its window over L cannot grow past its neighbours (each above ANCHOR_LIMIT nodes) and
    reaches no cut: the slice's anchor is the whole tree's."""
    large = [f"function f{i}(){{{'x=1;' * 400}}};" for i in range(5)]
    source = (large[0] + "try{f0()}catch(e){f1(e)};" + "".join(large[1:])).encode()
    assert isinstance(sliced_halves("u.js", source, 2, RULES, None), SlicedHalves)
    trace = _halves(tmp_path, source, 2)
    assert "slice 2 of 2 read" in trace and "a module-level handler" not in trace


def test_a_constructor_shadowed_from_another_slice_reads_the_unit_whole(tmp_path: Path) -> None:
    """A slice takes the `Error` its handler makes for the global one; a `var Error` of another
    slice makes it none of the handler's choices."""
    source = (b'function f(){try{g()}catch(e){throw new Error("f",{cause:e})}};function g(){return 1};'
              b"function h(){return 2};var Error=function(m){};")
    found = sliced_halves("u.js", source, 3, RULES, None)
    assert found == f"handlers: the sites in the handler at {source.index(b'catch')} are none of its slice's " \
                    "choices"
    assert "the whole tree: handlers: the sites in the handler" in _halves(tmp_path, source, 3)


def test_a_slice_declaring_the_sink_without_calling_it_is_read_again(tmp_path: Path) -> None:
    source = _source("sink.js")
    trace = _halves(tmp_path, source, 7)
    assert "read again for the sink's names" in trace and "report" in trace
    assert "merged from slices" in trace


def test_statements_that_declare_nothing_in_Ls_scope_are_not_read_again(tmp_path: Path) -> None:
    """A slice holding the sink's name only in expression statements (an IIFE's body, a
    function's value) cannot declare it in L's scope: it is not read again, and the outputs
    stay the whole tree's."""
    source = ("(function(){return report})();" * 3 + SINK + "(function(){return report})();" * 3).encode()
    trace = _halves(tmp_path, source, 7)
    again = [int(line.split("slices: unit.js: ", 1)[1].split()[0]) for line in trace.splitlines()
             if "read again for the sink's names" in line]
    # at most the two declarations (`function note`, `function report`), none of the six IIFEs
    assert again and sum(again) <= 2
    assert "merged from slices" in trace


def test_a_statement_read_alone_with_an_error_reads_the_unit_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    """The statements declaring the sink's names are read again each alone: one with an error
    there is refused, not guessed from."""
    source = _source("sink.js")
    plan = slices.plan(source, 7)
    assert plan is not None
    read = handling.slices.parse_slice

    def broken(parser: object, source: bytes, given: slices.Plan, index: int) -> Tree:
        return read(parser, source, given, index) if given.ranges == plan.ranges else new_parser().parse(b"(")

    monkeypatch.setattr(handling.slices, "parse_slice", broken)
    found = sliced_halves("u.js", source, 7, RULES, None)
    assert isinstance(found, str) and found.startswith("handlers: a statement at ")
    assert found.endswith("read alone has an error")
