"""The head chain (docs/slices.md, step 2): a whole tree's is empty and changes nothing; a tree
of the sliced list L alone, read with the head chain of the unit parsed with L emptied (H), gives
every callsite the chain length, scope, consumer, context, flow, innermost function and, inside
functions, the anchor and all the facts the whole tree gives it, and every class its scope."""

from __future__ import annotations

import hashlib

import pytest
from conftest import FIXTURES
from tree_sitter import Node, Point, Range, Tree

from analyzer.javascript.consumers import consumer_of
from analyzer.javascript.extract import _columns, _find_sites, _site
from analyzer.javascript.handlers import find_handlers
from analyzer.javascript.handlers.flow import flow_of
from analyzer.javascript.normalize import Normalizer, Siblings, anchor_of
from analyzer.javascript.references import _top_list
from analyzer.javascript.rules import compile_rules
from analyzer.javascript.scopes import context_of, scope_of
from analyzer.javascript.syntax import ancestors, new_parser, parse
from analyzer.javascript.unit_tree import UnitTree
from analyzer.limits import WorkBudget
from analyzer.model import Unit
from analyzer.rules import load_rules

RULES = compile_rules(load_rules("javascript"))

BUN = b"""// @bun @bun-cjs
(function(exports, require, module, __filename, __dirname) {var Q=Object.defineProperty;
function log(e,{level:t}={level:"debug"}){console.error(t,e)}
function a(x){if(!x)throw new TypeError("no x");log("a",{level:"info"});return x}
function b(x){exports(Error("to the wrapper's parameter"));module(new Error("and another"))}
function c(exports){exports(Error("to its own parameter"))}
function d(){return new Promise((ok,rej)=>{rej(Error("rejected"))})}
function e(){try{a()}catch(z){log(z);throw new RangeError("again")}}
function f(){const y=Error("kept");y.code="E";throw y}
var g=()=>{require(Error("required"))};
class K extends Error{constructor(m){super(m);this.code="K"}}
try{a(1)}catch(v){log(v,{level:"warn"})}Promise.resolve(1).then(a,log).catch(e);
var Z=Error("module level");Z.code="Z";throw Z;
})
"""
IIFE = b"""/* banner */
(function(){"use strict";
function h(exports){exports(Error("one"))}
var i=function(){throw new Error("two")};
function j(){try{h()}catch(q){return Error("three")}}
try{j()}catch(w){}
})();
"""
PROGRAM = b"""/* banner */
function k(x){if(!x)throw new Error("four");return x}
var l=x=>Promise.reject(new TypeError("five"));
function m(){try{k()}catch(r){console.error(r);throw Error("six")}}
"""
SYNTHETIC = {"bun.js": BUN, "iife.js": IIFE, "program.js": PROGRAM}
FIXTURE_FILES = [*sorted(FIXTURES.glob("demo/*.js")), FIXTURES / "shadowing" / "bun-wrapper.js"]


def _unit(name: str, source: bytes) -> Unit:
    return Unit(name, source, hashlib.sha256(source).hexdigest())


def _range(source: bytes, start: int, end: int) -> Range:
    def point(offset: int) -> Point:
        return Point(source.count(b"\n", 0, offset), offset - (source.rfind(b"\n", 0, offset) + 1))

    return Range(point(start), point(end), start, end)


def _parse_ranges(source: bytes, ranges: list[tuple[int, int]]) -> Tree:
    parser = new_parser()
    parser.included_ranges = [_range(source, start, end) for start, end in ranges if start < end]
    return parser.parse(source)


def _sliced(source: bytes, whole: Tree) -> tuple[UnitTree, Tree | None]:
    """L's statements parsed alone, with the head chain of H (the unit with L emptied). L is
    the references' top list, or the program when that holds no callsite (a UMD wrapper's body)."""
    top = _top_list(whole.root_node)
    sites = _find_sites(whole, source, RULES, None)[3]
    if not any(top.start_byte <= node.start_byte < top.end_byte for node, _ in sites):
        top = whole.root_node
    if top.type == "program":  # the list is the program: no head
        statements = top.named_children
        inner = _parse_ranges(source, [(statements[0].start_byte, statements[-1].end_byte)])
        return UnitTree(inner, source, None, (), top.type), None
    brace, close = top.start_byte + 1, top.end_byte - 1
    inner = _parse_ranges(source, [(brace, close)])
    head_tree = _parse_ranges(source, [(0, brace), (close, len(source))])
    emptied = head_tree.root_node.descendant_for_byte_range(top.start_byte, top.end_byte)
    while emptied is not None and emptied.type != top.type:
        emptied = emptied.parent
    assert emptied is not None
    assert (emptied.type, emptied.start_byte, emptied.end_byte) == (top.type, top.start_byte, top.end_byte)
    assert not inner.root_node.has_error and not head_tree.root_node.has_error
    return UnitTree(inner, source, None, ancestors(emptied, head_tree.root_node), top.type), head_tree


def _same_node(root: Node, node: Node) -> Node:
    found = root.descendant_for_byte_range(node.start_byte, node.end_byte)
    while found is not None and (found.type, found.start_byte, found.end_byte) != \
            (node.type, node.start_byte, node.end_byte):
        found = found.parent
    assert found is not None, f"{node.type} at {node.start_byte} is not in the slice"
    return found


def _cases() -> list[tuple[str, bytes]]:
    return list(SYNTHETIC.items()) + [(p.name, p.read_bytes()) for p in FIXTURE_FILES]


@pytest.mark.parametrize(("name", "source"), _cases(), ids=[name for name, _ in _cases()])
def test_a_whole_tree_has_no_head_and_reads_as_before(name: str, source: bytes) -> None:
    tree = parse(source)
    part = UnitTree(tree, source)
    assert part.head == () and part.list_type is None
    sites = _find_sites(tree, source, RULES, None)[3]
    assert sites
    siblings = Siblings()
    for node, _ in sites:
        chain = part.chain(node)
        plain = ancestors(node, part.root)
        assert [n.id for n in chain] == [n.id for n in plain]
        assert part.scope_of(name, chain) == scope_of(name, plain)
        mine, theirs = part.anchor_of(node, chain), anchor_of(node, plain, siblings=siblings)
        assert (mine.type, mine.start_byte, mine.end_byte) == (theirs.type, theirs.start_byte, theirs.end_byte)
        assert part.normalizer.digest(mine) == part.normalizer.digest(theirs)


@pytest.mark.parametrize(("name", "source"), _cases(), ids=[name for name, _ in _cases()])
def test_a_slice_with_its_head_chain_reads_as_the_whole_tree(name: str, source: bytes) -> None:
    whole_tree = parse(source)
    if whole_tree.root_node.has_error:
        pytest.skip("a unit with errors is never sliced")
    whole = UnitTree(whole_tree, source)
    part, head_tree = _sliced(source, whole_tree)
    assert len(part.head) == {"bun.js": 4, "iife.js": 5, "program.js": 0}.get(name, len(part.head))
    sites = _find_sites(whole_tree, source, RULES, None)[3]
    diagnostics = frozenset(node.start_byte for node, kind in sites if kind == "diagnostic")
    unit = _unit(name, source)
    columns = _columns(source, [node.start_byte for node, _ in sites])
    inside = 0
    for node, kind in sites:
        other = _same_node(part.root, node)
        chain, sliced = whole.chain(node), part.chain(other)
        where = f"{kind} at {node.start_byte}"
        assert len(sliced) == len(chain), where
        assert part.scope_of(name, sliced) == whole.scope_of(name, chain), where
        assert consumer_of(other, sliced) == consumer_of(node, chain), where
        assert context_of(other, sliced) == context_of(node, chain), where
        function, sliced_function = whole.innermost_function(chain), part.innermost_function(sliced)
        assert (function is None) == (sliced_function is None), where
        if kind == "error" and node.type != "identifier":
            callee = node.child_by_field_name("constructor" if node.type == "new_expression" else "function")
            constructor = (callee.text or b"").decode() if callee is not None else ""
            assert flow_of(other, sliced, diagnostics, constructor) == \
                flow_of(node, chain, diagnostics, constructor), where
        if function is None or sliced_function is None:
            continue
        assert function.start_byte == sliced_function.start_byte, where
        if function.type == "function_expression" and function.start_byte < part.root.start_byte:
            continue  # module level of a function list: the anchor is a window over L (not yet)
        inside += 1
        mine, theirs = part.anchor_of(other, sliced), whole.anchor_of(node, chain)
        assert (mine.type, mine.start_byte, mine.end_byte) == (theirs.type, theirs.start_byte, theirs.end_byte)
        assert part.normalizer.digest(mine) == whole.normalizer.digest(theirs), where
        # every fact, and the node visits they take (the chain's length among them)
        spent = []
        facts = []
        for tree_part, site in ((whole, node), (part, other)):
            budget = WorkBudget(name, 1 << 40)
            tree_part.normalizer = Normalizer(source, budget)  # nothing cached: every visit counts
            facts.append(_site(unit, tree_part, site, kind, RULES, columns[node.start_byte], diagnostics))
            spent.append(budget.total - budget.left)
        assert facts[0] == facts[1], where
        assert spent[0] == spent[1], where
    assert inside, "no callsite inside a function"
    for _, node in _find_sites(whole_tree, source, RULES, None)[1]:  # error classes' scopes too
        other = _same_node(part.root, node)
        assert part.scope_of(name, part.chain(other)) == whole.scope_of(name, whole.chain(node))
    del head_tree


def test_the_head_chain_reaches_the_wrapper_and_the_iife() -> None:
    """What a slice alone would get wrong: Bun's wrapper's parameters make `exports(Error())` a
    callback; a module-level window is over L, a `statement_block`, and the innermost function
    there is the wrapper; an IIFE list's function is the outermost entry of every scope path."""
    tree = parse(BUN)
    part, _ = _sliced(BUN, tree)
    node = _same_node(part.root, next(n for n, _ in _find_sites(tree, BUN, RULES, None)[3]
                                      if b"wrapper's parameter" in (n.text or b"")))
    assert consumer_of(node, part.chain(node)).role == "callback"
    assert consumer_of(node, ancestors(node, part.root)).role == "argument"
    # at module level, a window over the slice's root is typed as the list it stands for
    whole = UnitTree(tree, BUN)
    node = next(n for n, _ in _find_sites(tree, BUN, RULES, None)[3] if b"module level" in (n.text or b""))
    other = _same_node(part.root, node)
    limit = _top_list(tree.root_node).descendant_count - 1
    theirs = anchor_of(node, whole.chain(node), limit)
    mine = anchor_of(other, part.chain(other), limit, root=part.root, list_type=part.list_type)
    assert mine.type == theirs.type == "statement_block[]"
    assert (mine.start_byte, mine.end_byte) == (theirs.start_byte, theirs.end_byte)
    assert Normalizer(BUN).digest(mine) == Normalizer(BUN).digest(theirs)
    assert anchor_of(other, part.chain(other), limit).type == "program[]"
    function = part.innermost_function(part.chain(other))
    assert function is not None and function.start_byte == BUN.index(b"(function") + 1
    tree = parse(IIFE)
    part, _ = _sliced(IIFE, tree)
    node = _same_node(part.root, _find_sites(tree, IIFE, RULES, None)[3][0][0])
    iife = IIFE.index(b"function")
    assert part.scope_of("u", part.chain(node)).scopePath == ("module:u@0", f"function:<anonymous>@{iife}",
                                                              f"function:h@{IIFE.index(b'function h')}")
    assert scope_of("u", ancestors(node, part.root)).scopePath[1] != f"function:<anonymous>@{iife}"



def _handlers(name: str, part: UnitTree, sites: list[tuple[Node, str]], source: bytes) -> tuple[list, int]:
    """`find_handlers` on a tree, with a normalizer that caches nothing: its spend is every visit."""
    budget = WorkBudget(name, 1 << 40)
    part.normalizer = Normalizer(source, budget)
    found = find_handlers(name, part, sites, lambda offsets: _columns(source, offsets))[0]
    return found, budget.total - budget.left


@pytest.mark.parametrize(("name", "source"), _cases(), ids=[name for name, _ in _cases()])
def test_a_slice_with_its_head_chain_finds_the_whole_trees_handlers(name: str, source: bytes) -> None:
    """Every handler of L found on L alone with the head chain has the whole tree's facts: scope
    path, branches and their dispositions (the callsites they name are looked up by offset),
    the anchor inside functions, and the work spent."""
    whole_tree = parse(source)
    if whole_tree.root_node.has_error:
        pytest.skip("a unit with errors is never sliced")
    part, head_tree = _sliced(source, whole_tree)
    sites = _find_sites(whole_tree, source, RULES, None)[3]
    # a site's (start, end) is its own: `known` and the sink's calls are keyed by them
    assert len({(node.start_byte, node.end_byte) for node, _ in sites}) == len(sites)
    inner = [(node, kind) for node, kind in sites if part.root.start_byte <= node.start_byte < part.root.end_byte]
    theirs, spent = _handlers(name, UnitTree(whole_tree, source), sites, source)
    mine, my_spent = _handlers(name, part, [(_same_node(part.root, node), kind) for node, kind in inner], source)
    theirs = [h for h in theirs if part.root.start_byte <= h.offset < part.root.end_byte]
    assert [h.offset for h in mine] == [h.offset for h in theirs]
    if name in SYNTHETIC:
        assert mine, "no handler in L"
    windows = 0
    for a, b in zip(mine, theirs, strict=True):
        where = f"{a.form} at {a.offset}"
        assert (a.end_offset, a.line, a.column, a.form, a.param, a.scope, a.branches, a.in_error_region,
                a.lone_rethrow) == (b.end_offset, b.line, b.column, b.form, b.param, b.scope, b.branches,
                                    b.in_error_region, b.lone_rethrow), where
        if part.head and int(a.scope.scopePath[-1].rpartition("@")[2]) < part.root.start_byte:
            windows += 1  # module level of a function list: the anchor is the head's function (not yet)
            continue
        assert a.identity == b.identity, where
    if len(theirs) == len(mine) and not windows:
        assert my_spent == spent  # the head chain's scopes are spent as the whole tree's
    del head_tree
