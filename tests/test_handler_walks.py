"""A handler body's walk (docs/performance.md, "What handlers cost"): the nodes it keeps found by
one compiled query and the discarded or returned calls by a walk of the statements only give
what one walk of every node gives; a callee search run over each occurrence of a name's bytes
finds what a query over the whole block finds."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from conftest import FIXTURES
from tree_sitter import Node, QueryCursor

from analyzer.javascript.handlers import body, sources
from analyzer.javascript.syntax import parse

_SNIPPETS = [
    b"try { f() } catch (e) { if (e.code === 'A') throw e; log(e), g(e); return cb(e) }",
    b"try { f() } catch (e) { x && report(e); void h(e); throw (clean(), wrap(e)) }",
    b"try { f() } catch (e) { const t = e; k(() => { inner(t) }); for (;;) { a = b(c(d(e))) } }",
    b"try { f() } catch (e) { if ((note(e), e.ok)) return; switch (e.k) { case 1: s(e); break } }",
    b"p.catch(e => e ? first(e) : second(e)); p.then(ok, e => (await1(e), last(e)))",
    b"try { f() } catch (e) { class A { m() { q(e) } }; x = function () { r(e) }(); y = (z(e), w) }",
]


def _bodies(root: Node) -> Iterator[Node]:
    """Every catch clause's block and every arrow's or function's body."""
    stack = [root]
    while stack:
        node = stack.pop()
        if node.type in ("catch_clause", "arrow_function", "function_expression"):
            found = node.child_by_field_name("body")
            if found is not None:
                yield found
        stack.extend(node.children)


def _sources() -> list[bytes]:
    return [*_SNIPPETS, (FIXTURES / "flow" / "src" / "flow.js").read_bytes(),
            (FIXTURES / "flow" / "built" / "flow.min.js").read_bytes()]


@pytest.mark.parametrize("source", _sources(), ids=lambda s: s[:24].decode("utf-8", "replace"))
def test_the_query_and_the_walk_of_statements_keep_what_a_walk_of_every_node_keeps(source: bytes) -> None:
    root = parse(source).root_node
    assert not root.has_error
    bodies = list(_bodies(root))
    assert bodies
    for block in bodies:
        statements = body.named(block) if block.type == "statement_block" else []
        expression = None if block.type == "statement_block" else block
        every = body._Walked()
        body._walk_every_node(statements, expression, every)
        consumed: set[int] = set()
        body._walk_consumed(statements, expression, consumed)
        assert [n.id for n in body._kept_in(block)] == [n.id for n in every.nodes]
        assert consumed == every.consumed


def test_a_body_with_a_parse_error_is_walked_node_by_node() -> None:
    tree = parse(b"try { f() } catch (e) { g(e) +; return h(e) }")
    (block,) = list(_bodies(tree.root_node))
    assert block.has_error
    walked = body._Walked()
    body._walk_every_node(body.named(block), None, walked)
    calls = [n.text for n in walked.nodes if n.type == "call_expression"]
    assert calls == [b"g(e)", b"h(e)"]


@pytest.mark.parametrize("limit", [0, 10**9], ids=["whole", "ranged"])
@pytest.mark.parametrize("source", _sources(), ids=lambda s: s[:24].decode("utf-8", "replace"))
def test_callees_found_at_each_occurrence_are_those_of_the_whole_query(
        source: bytes, limit: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sources, "_RANGED_LIMIT", limit)
    root = parse(source).root_node
    everything = QueryCursor(sources._CALLS).captures(root).get("callee", [])
    names = sorted({n.text or b"" for n in everything})
    assert names
    whole = sorted((n.start_byte, n.text) for n in everything)
    found = [(n.start_byte, n.text) for n in sources._calls_named(root, names, source)]
    assert found == whole
    some = set(names[::2])
    assert [(n.start_byte, n.text) for n in sources._calls_named(root, some, source)] == \
        [pair for pair in whole if pair[1] in some]
