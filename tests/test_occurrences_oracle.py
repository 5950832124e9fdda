"""The words pass read in one pass per chunk (`occurrences._Words.ranges`) gives what the pass of
a26b21f gave (tests/support/occurrences_a26b21f.py, 1 KB windows): the same references per item
(as sets: neither pass promises an order), scope walks, shadowed pairs and suspects, on every
fixture, on token soups, on ranges cut anywhere (inside words, inside a spread's dots) and on
both real bundles."""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path

import pytest
from conftest import FIXTURES
from hypothesis import given, settings
from hypothesis import strategies as st
from support import npm_cache
from support import occurrences_a26b21f as frozen
from test_occurrences import CALLS, SHAPES

from analyzer.bundle.load import load_bundle
from analyzer.javascript import occurrences
from analyzer.javascript.modules import find_modules
from analyzer.javascript.references import Listing, listing
from analyzer.javascript.syntax import parse

Pass = list[tuple[list[set[bytes]], int, set[tuple[int, bytes]]]]


def every_chunk(module: object, items: Listing, source: bytes, root: object) -> Pass:
    """`module.references_of` over each chunk of the listing, as `chunk_references` calls it."""
    out: Pass = []
    for first, last in items.chunks:
        following = items.raw[last][0] if last < len(items.raw) else items.span[1]
        shadowed: set[tuple[int, bytes]] = set()
        referenced, walked = module.references_of(  # type: ignore[attr-defined]
            items.raw[first:last], items.names, source, root, items.tops, items.declared,
            (items.span[0] if first == 0 else items.raw[first][0], following), shadowed)
        out.append(([set(names) for names in referenced], walked, shadowed))
    return out


def assert_as_frozen(source: bytes, chunk_bytes: int = 1 << 16) -> Pass:
    tree = parse(source)
    items = listing(tree, source, find_modules(tree, source), chunk_bytes)
    done = every_chunk(occurrences, items, source, tree.root_node)
    assert done == every_chunk(frozen, items, source, tree.root_node)
    return done


def assert_ranges_as_frozen(source: bytes, names: frozenset[bytes], bounds: list[int], trusted: bool = True) -> None:
    """Each range between `bounds` read in one pass: each range's occurrences and the suspects
    of all of them, as the frozen pass reading each range alone gives them."""
    words = occurrences._Words(source, names, set(), trusted)
    old = frozen._Words(source, names, set(), trusted)
    expected = [old.of(start, end) for start, end in pairwise(bounds)]
    assert words.ranges(bounds) == expected
    assert sorted(words.suspects) == sorted(old.suspects)


@pytest.mark.parametrize("path", sorted(p for p in FIXTURES.rglob("*.*js") if "node_modules" not in p.parts),
                         ids=lambda p: str(p.relative_to(FIXTURES)))
def test_every_fixture(path: Path) -> None:
    assert_as_frozen(path.read_bytes())


@pytest.mark.parametrize("chunk_bytes", [1, 50, 300])
def test_the_shapes_in_chunks_of_any_size(chunk_bytes: int) -> None:
    for source in (SHAPES, CALLS, SHAPES + b"function g( { var a = ; b( c", b"var Q=1;f(...Q);...Q;a....Q;x.Q;#Q"):
        assert any(walked for _, walked, _ in assert_as_frozen(source, chunk_bytes)) or b"Q" in source


#: tokens that make names, members, privates, escapes, spreads, literals, declarations and calls
TOKENS = [b"a", b"b", b"ab", b"ba", b"a1", b"$", b"_a", b"\xc3\xa9", b"\xc3\xa9a", b" ", b"\n", b"\t", b".", b"...",
          b"#", b"\\", b"\\u0061", b"(", b")", b"[", b"]", b"{", b"}", b";", b",", b":", b"?", b"=", b"=>", b"==",
          b"+", b"*", b"/", b"//c a\n", b"/*a b*/", b"'a b'", b"\"a\\\"b\"", b"`a${b}a`", b"/a b/g", b"var ",
          b"let ", b"const ", b"function ", b"function*", b"class ", b"extends ", b"in ", b"of ", b"as ",
          b"return ", b"catch(a)", b"for(", b"new ", b"1", b"0x1a"]
NAMES = frozenset({b"a", b"b", b"ab", b"$", b"_a", b"\xc3\xa9", b"\xc3\xa9a", b"u0061"})


@settings(max_examples=2000, deadline=None)
@given(st.lists(st.sampled_from(TOKENS), max_size=60), st.data(), st.booleans())
def test_token_soups_read_in_ranges(tokens: list[bytes], data: st.DataObject, trusted: bool) -> None:
    """Ranges cut anywhere in a soup, inside words and dots too: a word a cut splits is in no
    range, a run of dots is read from its first dot."""
    source = b"".join(tokens)
    cuts = data.draw(st.lists(st.integers(0, len(source)), max_size=6))
    bounds = sorted({*cuts, 0, len(source)})
    assert_ranges_as_frozen(source, NAMES, bounds, trusted)
    assert_ranges_as_frozen(source, NAMES, bounds[1:-1], trusted)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(TOKENS), min_size=1, max_size=50))
def test_token_soups_as_programs(tokens: list[bytes]) -> None:
    """A soup after top-level declarations of the names, parsed (often with errors) and passed
    whole, as a scan's chunks pass it."""
    source = b"var a=1,b=2,ab=3;function _a(){}\n" + b"".join(tokens) + b"\nvar \xc3\xa9=a;"
    assert_as_frozen(source, 40)


def test_empty_ranges_and_a_range_at_the_source_end() -> None:
    source = b"a.b;...a;b"
    for bounds in ([0, 0], [0, 3, 3, 3, 10], [10, 10], [4, 5, 10], [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]):
        assert_ranges_as_frozen(source, frozenset({b"a", b"b"}), bounds)


@pytest.mark.network
@pytest.mark.slow
@pytest.mark.parametrize(("package", "version"), [("@anthropic-ai/claude-code", "2.1.100"),
                                                  ("@anthropic-ai/claude-code-linux-x64", "2.1.235")])
def test_the_real_bundles(package: str, version: str) -> None:
    units, _ = load_bundle(npm_cache.main_file(package, version))
    source = max(units, key=lambda unit: len(unit.source)).source
    done = assert_as_frozen(source)
    assert sum(walked for _, walked, _ in done) > 200
