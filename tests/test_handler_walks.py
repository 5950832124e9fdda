"""A handler body's walk (docs/performance.md, "What handlers cost"): the nodes it keeps found by
one compiled query and the discarded or returned calls by a walk of the statements only give
what one walk of every node gives; a callee search run over each occurrence of a name's bytes
finds what a query over the whole block finds; the shortcuts (an empty body, the descent's
cursor, the names declared once) give what the general paths give."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

import pytest
from conftest import FIXTURES
from tree_sitter import Node, QueryCursor

from analyzer.facts import BranchFacts
from analyzer.javascript.handlers import body, find, sources
from analyzer.javascript.handlers.branches import split
from analyzer.javascript.handlers.dispositions import HandlerBody
from analyzer.javascript.syntax import parse
from analyzer.javascript.unit_tree import UnitTree

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
        assert [n.id for n in body._kept_in(block, statements)[0]] == [n.id for n in every.nodes]
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


_EMPTY_BODIES = [
    b"try { f() } catch {}",
    b"try { f() } catch (e) {}",
    b"try { f() } catch (e) { /* ignored */ }",
    b"p.catch(() => {}); p.catch(function (e) { // nothing\n }); p.then(ok, e => {})",
    b"for (;;) { try { return f() } catch (e) {} }",
    b"while (go) { try { g(); break } catch {} }",
    b"for (let i = 0; i < a.length; i++) { try { return a[i]() } catch (e) {} }",
]


def _found(source: bytes) -> list[body.Found]:
    """Every handler of `source`, found as the scan finds them."""
    return list(find.handlers_on("u.js", UnitTree(parse(source), source), []))


@pytest.mark.parametrize("source", _EMPTY_BODIES, ids=lambda s: s[:40].decode("utf-8", "replace"))
def test_an_empty_body_gets_what_the_walk_and_the_split_of_its_statements_give(source: bytes) -> None:
    handlers = _found(source)
    assert handlers
    for handler in handlers:
        param = body.param_name(handler)
        fast = HandlerBody(handler, {}, param)
        assert not fast.statements and fast.expression is None
        walked = fast._walk(param.encode() if param is not None else None)
        assert (walked.nodes, walked.aliases, walked.made, walked.derived, walked.consumed) == \
            (fast.walked.nodes, fast.walked.aliases, fast.walked.made, fast.walked.derived, fast.walked.consumed)
        general = tuple(BranchFacts(test, fast._dispositions(parts, values))
                        for test, parts, values in split(fast.statements, fast._is_caught))
        assert fast.branches() == general


@pytest.mark.parametrize("indexed", [0, 1 << 30], ids=["every-wide-node-indexed", "cursor-only"])
def test_the_descent_finds_the_same_handlers_whether_wide_nodes_are_indexed_or_stepped_in_c(
        indexed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    source = b"const a = [" + b", ".join(b"x%d.catch(e => f(e, %d))" % (i, i) for i in range(300)) + \
        b"];\nfunction g() { try { h() } catch (e) { throw e } }\n" + b"p.then(ok, e => e);\n" * 100
    def described(handlers: list[body.Found]) -> list[tuple[object, ...]]:
        return [(h.form, _span(h.node), [_span(n) for n in h.chain], h.scope, h.in_error_region, h.anchor,
                 h.anchor_start) for h in handlers]

    expected = described(_found(source))
    assert len(expected) == 401
    monkeypatch.setattr(find, "_INDEXED", indexed)
    assert described(_found(source)) == expected


def _span(node: Node) -> tuple[str, int, int]:
    return node.type, node.start_byte, node.end_byte


def test_names_declared_once_are_those_a_count_of_every_declaration_gives() -> None:
    root = parse(b"x").root_node
    raw = [(0, 1, root, ((0, b"a"),)), (1, 2, root, ((1, b"b"), (1, b"c"))), (2, 3, root, ((2, b"c"),)),
           (3, 4, root, ((3, b"d"),)), (4, 5, root, ((4, b"d"),)), (5, 6, root, ()), (6, 7, root, ((6, b"e"),)),
           (7, 8, root, ((7, b"f"), (7, b"f"))), (8, 9, root, ((8, b"f"),))]
    counts = Counter(name for item in raw for _, name in item[3])
    oracle = {item[3][0][1]: at for at, item in enumerate(raw) if len(item[3]) == 1 and counts[item[3][0][1]] == 1}
    assert sources.declared_once(raw) == oracle == {b"a": 0, b"e": 6}
