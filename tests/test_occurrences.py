"""The reference pass that reads names from the bytes (analyzer/javascript/occurrences.py) gives
what the pass that looked every occurrence up in the tree gave (tests/support/references_883a09a.py):
the same references for every item and the same count of scope walks, on our fixtures, on
shapes made to put a declared name in every position the bytes let through, on code the parser
recovered from, and on real releases."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import pytest
from conftest import FIXTURES
from support import npm_cache
from support.references_883a09a import _references as looked_up

from analyzer.javascript.modules import find_modules
from analyzer.javascript.occurrences import _Words, references_of
from analyzer.javascript.references import _items, _top_list, chunk_references, listing
from analyzer.javascript.syntax import parse


def both(source: bytes) -> tuple[tuple[list[set[bytes]], int], tuple[list[set[bytes]], int]]:
    tree = parse(source)
    root = tree.root_node
    container = _top_list(root)
    modules = sorted((m.start, m.end) for m in find_modules(tree, source).modules)
    raw = sorted(_items(container, modules, root), key=lambda item: item[0])
    top: dict[bytes, list[int]] = defaultdict(list)
    for position, (_, _, _, declared) in enumerate(raw):
        for _, name in declared:
            top[name].append(position)
    tops = {root.id, container.id} | ({container.parent.id} if container.parent is not None else set())
    declared_at = {offset for item in raw for offset, _ in item[3]}
    fast = as_sets(references_of(raw, frozenset(top), source, root, tops, declared_at))
    slow = looked_up([(a, b, node, tuple(n for _, n in d)) for a, b, node, d in raw], top, source, root, tops)
    return fast, slow


def as_sets(found: tuple[list[tuple[bytes, ...]], int]) -> tuple[list[set[bytes]], int]:
    """The pass's names per item as sets, each name given once."""
    names, walked = found
    assert all(len(set(item)) == len(item) for item in names)
    return [set(item) for item in names], walked


#: a top-level `a`, `b` and `c`, each also declared, named, keyed, quoted and shadowed in every way
SHAPES = b"""var a = 1, b = 2, c = 3;
function f1(a, {b, c: [d = a]}, ...e) { return b + d; }
function f2() { var a; let [b, , c] = [1]; for (const c of x) c(); return a + b; }
function f3() { try {} catch (a) { a(); } finally { b(); } }
const f4 = a => a + b, f5 = async (b) => b, f6 = async b => c;
function f7() { for (var a in x) ; for (b in y) ; return c; }
function f8() { function a() {} class b {} return function c() { c(); }; }
function f9() { function/* x */a() {} function
  b() {} function* c() {} return a + b + c; }
var o1 = { a: 1, b() {}, get c() { return 0; }, [a]: b, c };
var o2 = { a, b: c }, s1 = "a b c", s2 = `a ${b} c ${`${c}`}`, r1 = /a b c/g;
class K1 { a = b; static c; #a = 1; b() { return this.#a; } }
lab: for (;;) { break lab; continue lab; }
a: for (;;) break a;
var { a: q1, b: q2 = c } = o1, [q3, ...q4] = [a];
({ a: q5, b } = o1);
[a, b] = [b, a];
// a b c
/* a b c */
var f10 = function a(b) { return a(b, c); };
import("a"), a?.b, b ?? c, a ? b : c, a instanceof b, a in b;
var f11 = (a = b, { c } = {}) => a + c;
function f12() { if (x) { let a; a++; } a--; }
"""


#: calls of the top-level `a` and `b` after every kind of byte, beside functions declared with
#: their names after `function`, `*`, a comment and a line break
CALLS = b"""var a = 1, b = 2;
function g1() { return [a(), (b(1)), !a(), -b(), +a(), ~b(), a(b()), {k: a()}, `${b()}`, a?.(), b	()]; }
function g2() { x = a(); y = b() || a() && b(); if (a()) b(); return a() ? b() : a(); }
function g3() { function
b() {} function/**/a() {} return a() + b(); }
function g4() { function* a() {} return new b() ^ b() % a() | b() & a(); }
function g5() { function a () {} return b() }
"""


def by_chunks(source: bytes, chunk_bytes: int) -> tuple[list[set[bytes]], int]:
    """The pass made chunk by chunk (`references.chunk_references`), as a scan's tasks do."""
    tree = parse(source)
    items = listing(tree, source, find_modules(tree, source), chunk_bytes)
    done = [as_sets(chunk_references(items, chunk, source, tree.root_node)[:2]) for chunk in range(len(items.chunks))]
    return [names for chunk, _ in done for names in chunk], sum(walked for _, walked in done)


@pytest.mark.parametrize("chunk_bytes", [1, 50, 300, 1 << 20])
def test_chunks_give_the_pass_of_the_whole_unit(chunk_bytes: int) -> None:
    """Items cut into chunks of any size (one item each, a few, all): the same references and
    walks, on the shapes and on a fixture with bundler modules."""
    for source in (SHAPES, SHAPES + b"function g( { var a = ; b( c", (FIXTURES / "demo" / "demo.min.js").read_bytes()):
        assert by_chunks(source, chunk_bytes) == both(source)[0]


def test_shapes_made_to_put_names_everywhere() -> None:
    fast, slow = both(SHAPES)
    assert fast == slow
    assert fast[1] > 0  # the shapes do shadow


def test_calls_after_every_kind_of_byte() -> None:
    """A name followed by `(` is a suspect only where the byte before it lets it be a function's
    name: the same references and walks as the pass that looks every occurrence up."""
    fast, slow = both(CALLS)
    assert fast == slow
    assert fast[1] > 0  # g3, g4, g5 declare their own `a` or `b`


def test_a_tree_the_parser_recovered_from() -> None:
    broken = SHAPES + b"function g( { var a = ; b( c"
    assert parse(broken).root_node.has_error
    fast, slow = both(broken)
    assert fast == slow


@pytest.mark.parametrize("path", sorted(
    p for folder in ("demo", "references", "shadowing", "hostile", "hostile/mutants", "diff")
    for p in (FIXTURES / folder).glob("*.*js")
), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_the_fixtures(path: Path) -> None:
    fast, slow = both(path.read_bytes())
    assert fast == slow


@pytest.mark.network
def test_a_real_release() -> None:
    source = npm_cache.main_file("@anthropic-ai/claude-code", "2.1.100").read_bytes()
    fast, slow = both(source)
    assert fast == slow
    assert fast[1] == 233


@pytest.mark.parametrize(("start", "end", "expected"), [
    (0, 2, {}),  # `ab` of `abc`: the range ends inside a word
    (1, 4, {}),  # `bc;` after `a`: it starts inside one
    (4, 9, {}),  # `x.ab;`: a member's name
    (6, 9, {}),  # `ab;` right after the `.`
    (8, 12, {b"ab": [9]}),
    (9, 11, {b"ab": [9]}),
])
def test_a_range_cut_inside_a_word_or_after_a_dot_names_nothing(start: int, end: int,
                                                                 expected: dict[bytes, list[int]]) -> None:
    """The words pass reads a range alone: a name is whole in the source, not only in the range."""
    words = _Words(b"abc;x.ab;ab+1", frozenset({b"ab", b"bc"}), set(), trusted=True)
    assert words.of(start, end) == expected


def test_a_name_after_a_spread_or_rest_is_a_name() -> None:
    """`...Q` is no member's name: a rest binding declares a local `Q` (the item does not
    reference the top-level one), a spread of `Q` references it."""
    source = (b"var Q = 1;\nfunction f(...Q) { return Q; }\nfunction g() { var [...Q] = [1]; return Q; }\n"
              b"function h() { var {...Q} = {}; return Q; }\nfunction k() { return m(...Q, [...Q]); }\n"
              b"function m() {}\n")
    fast, slow = both(source)
    assert fast == slow
    assert fast[0] == [set(), set(), set(), set(), {b"Q", b"m"}, set()]


@pytest.mark.parametrize(("start", "end"), [(0, 7), (2, 7), (3, 7), (4, 7), (5, 7)])
def test_a_range_cut_inside_a_spreads_dots_still_reads_the_name(start: int, end: int) -> None:
    """`f(...Q)` read from anywhere before the name: its dots are read from the first."""
    words = _Words(b"f(...Q)", frozenset({b"Q", b"f"}), set(), trusted=True)
    assert words.of(start, end).get(b"Q") == [5]
