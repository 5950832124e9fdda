"""The normalizer (`javascript/normalize.py`: a node holding nodes whose names are kept reads theirs
and queries only the bytes between them) against the one of a26b21f, which queried every node it
had not kept whole (`tests/support/normalize_a26b21f.py`): the same names, normalized texts and
digests for every anchor, asked in any order, on every fixture, made-up programs and the two real
bundles."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import FIXTURES
from hypothesis import given, settings
from hypothesis import strategies as st
from support import normalize_a26b21f as recorded
from support import npm_cache
from tree_sitter import Node, Query, QueryCursor, Tree

from analyzer.bundle.load import load_bundle
from analyzer.javascript import normalize
from analyzer.javascript.syntax import FUNCTION_TYPES, LANGUAGE, ancestors, new_parser

SOURCES = sorted(p for p in FIXTURES.rglob("*")
                 if p.suffix in (".js", ".mjs", ".cjs") and p.is_file() and "node_modules" not in p.parts)


def _named(tree: Tree) -> Iterator[tuple[Node, list[Node]]]:
    """Every named node with its ancestors (innermost first), in pre-order."""
    stack: list[tuple[Node, list[Node]]] = [(tree.root_node, [])]
    while stack:
        node, chain = stack.pop()
        yield node, chain
        inner = [node, *chain]
        stack.extend((child, inner) for child in reversed(node.named_children))


def _anchors(tree: Tree, limit: int, every: bool) -> list[normalize.Anchor]:
    """The anchors a scan would ask for (each call's function and `anchor_of`, windows among them,
    at `limit`), and, when `every`, every named node besides."""
    siblings = normalize.Siblings()
    out: list[normalize.Anchor] = []
    for node, chain in _named(tree):
        if every or node.type in FUNCTION_TYPES:
            out.append(node)
        if node.type in ("call_expression", "new_expression"):
            out.append(normalize.anchor_of(node, chain, limit, siblings))
            function = normalize.innermost_function(chain)
            if function is not None:
                out.append(function)
    return out


def assert_as_recorded(source: bytes, orders: int = 3, limit: int = 24, every: bool = True) -> int:
    """Each anchor's names, normalized text and digest the recorded normalizer's, the anchors asked
    pre-order (outer first), post-order (inner first, the spans read) and shuffled."""
    tree = new_parser().parse(source)
    anchors = _anchors(tree, limit, every)
    shuffled = list(anchors)
    random.Random(len(source)).shuffle(shuffled)
    for order in (anchors, anchors[::-1], shuffled)[:orders]:
        mine, theirs = normalize.Normalizer(source), recorded.Normalizer(source)
        for anchor in order:
            assert mine.names(anchor) == theirs.names(anchor), anchor
            assert mine.normalized(anchor) == theirs.normalized(anchor), anchor
            assert mine.digest(anchor) == theirs.digest(anchor), anchor
    return len(anchors)


def _fixture_cases() -> list[object]:
    """Every fixture asked for every named node, but the six builds of the demo (11,000 to 29,000
    named nodes each, where the other fixtures have hundreds; 2/3 of the test's time): CI asks those
    for the anchors a scan asks for (1,000 to 3,300 each, in the same three orders), every named
    node of them is `long`."""
    cases: list[object] = []
    for path in SOURCES:
        name = str(path.relative_to(FIXTURES))
        if path.parent.name == "demo":
            cases.append(pytest.param(path, False, id=f"{name}-scanned"))
            cases.append(pytest.param(path, True, id=f"{name}-every", marks=pytest.mark.long))
        else:
            cases.append(pytest.param(path, True, id=name))
    return cases


@pytest.mark.parametrize(("path", "every"), _fixture_cases())
def test_every_fixture_normalizes_as_recorded(path: Path, every: bool) -> None:
    source = path.read_bytes()
    assert_as_recorded(source, every=every and len(source) <= 400_000)


@pytest.mark.parametrize("source", [
    b"function a(b){return function c(d){return b(d,{e:1}.e)}}",
    b"x(function(){var y=1;return function(){return y+z(function(q){return q.r})}})",
    b"var a={VERSION:'1'}.VERSION;function b(){return {K:1}.K+c({L:'x'})['L']}",
    b"class A{#p=1;m(){return this.#p+B(()=>{C:for(;;){break C}})}}",
    b"f(a,b,c,function(){g(a)},d,function(){h(b,{c})},e);",
    b"function a(){b(;c(function(){d()})}",  # an error: never kept
    b"({a,b:[c,{d}]})=>a+c+d;x(({e})=>e)",
])
def test_nested_names_normalize_as_recorded(source: bytes) -> None:
    assert_as_recorded(source)
    assert_as_recorded(b"(function(){" + source + b"})();")


SNIPPETS = [b"a();", b"b=c(d)/e;", b"function f(g){return g(h)}", b"var i=function(j){k(j,l)};",
            b"m(()=>{n(o)});", b"p=(q)=>r(q,{s});", b"t={u:1,v:'w'}.u;", b"x({y:1}).z;", b"class A{B(){C(this.#D)}}",
            b"E:for(;;){break E}", b"if(F)G();else H(I);", b"try{J()}catch(K){L(K)}", b"let{M,N:[O]}=P;",
            b"Q(function(){R(function(){S(T)})});", b"U=`${V(W)}`;", b"X(", b")", b"}", b"{", b"Y.Z=a=>a;"]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(SNIPPETS), min_size=1, max_size=30), st.integers(0, 2), st.integers(3, 64))
def test_made_up_programs_normalize_as_recorded(parts: list[bytes], depth: int, limit: int) -> None:
    body = b"".join(parts)
    assert_as_recorded(b"a(function(){" * depth + body + b"})" * depth, limit=limit)


@pytest.mark.network
@pytest.mark.slow
@pytest.mark.parametrize(("package", "version"), [
    ("@anthropic-ai/claude-code", "2.1.100"),
    # the executable's main unit is its Bun wrapper's one function: digested whole by the
    # recorded normalizer, past 12 minutes
    pytest.param("@anthropic-ai/claude-code-linux-x64", "2.1.235", marks=pytest.mark.long),
])
def test_the_real_bundles_normalize_as_recorded(package: str, version: str) -> None:
    """The callsites' functions and anchors, in source order (the functions are kept, their anchors
    read from them) and then every function again from the last (inner ones first: kept spans read
    inside the outer ones), on one normalizer each."""
    units, _ = load_bundle(npm_cache.main_file(package, version))
    source = max(units, key=lambda unit: len(unit.source)).source
    tree = new_parser().parse(source)
    root, siblings = tree.root_node, normalize.Siblings()
    calls = QueryCursor(Query(LANGUAGE, "[(call_expression) (new_expression)] @call")).captures(root)["call"]
    calls.sort(key=lambda node: node.start_byte)
    anchors: list[normalize.Anchor] = []
    for call in calls[::7]:
        chain = ancestors(call, root)
        function = normalize.innermost_function(chain)
        if function is not None:
            anchors.append(function)
        anchors.append(normalize.anchor_of(call, chain, siblings=siblings))
    functions = [anchor for anchor in anchors if anchor.type in FUNCTION_TYPES]
    mine, theirs = normalize.Normalizer(source), recorded.Normalizer(source)
    for anchor in anchors + sorted(functions, key=lambda node: -node.start_byte):
        assert mine.digest(anchor) == theirs.digest(anchor), anchor
        assert mine.names(anchor) == theirs.names(anchor), anchor
    assert len(anchors) > 5_000
