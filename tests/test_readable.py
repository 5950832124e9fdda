"""Readable renderings are written as slices a code host displays (issue 15): every slice is
under 1 MB, the slices concatenated are the rendering, and every place names the slice, line
and column that hold the original offset."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer.readable import SLICE_LIMIT, as_written, readable_units, render, slice_names


def _check(rendering_source: bytes, python: bool = False) -> None:
    rendering = as_written(rendering_source) if python else render(rendering_source)
    slicing = rendering.slices()
    texts = rendering.slice_texts(slicing)
    assert b"".join(texts) == rendering.text
    assert all(0 < len(text) < SLICE_LIMIT for text in texts)
    lines = rendering.text.split(b"\n")
    offsets = sorted(set(range(0, len(rendering_source), max(1, len(rendering_source) // 300))))
    for offset, place in zip(offsets, rendering.places(offsets, slicing)):
        if 0x80 <= rendering_source[offset] < 0xC0 or rendering.hidden[offset] in b"}\n":
            continue  # no callsite begins inside a character, nor at a `}` (moved to the next line)
        slice_lines = texts[place.slice].split(b"\n")
        assert slice_lines[place.slice_line - 1].decode("utf-8", "replace")[place.column - 1:].encode("utf-8")[:1] \
            == rendering_source[offset:offset + 1].replace(b"\x01", b";"), offset
        assert slice_lines[place.slice_line - 1] in lines[place.line - 1]


def test_a_bundle_is_cut_at_top_level_statements() -> None:
    statements = b"".join(b"var a%d=function(b){if(b){return b+%d;}return 0;};" % (i, i) for i in range(60000))
    source = b"(function(){" + statements + b"})();"
    rendering = render(source)
    texts = rendering.slice_texts(rendering.slices())
    assert len(texts) >= 3
    for text in texts[1:]:
        assert text.startswith(b"var a"), text[:40]  # a statement of the wrapper's body begins each slice
    _check(source)


def test_one_line_of_megabytes_is_cut_between_characters() -> None:
    source = b'var s="' + "é".encode() * 1_500_000 + b'";throw Error(s);'
    _check(source)


def test_dense_breaks_still_give_slices_under_the_limit() -> None:
    _check(b";" * 3_000_000 + b"throw Error(1);")
    _check(b"{}" * 10 + b"{" * 1_200_000 + b"}" * 1_200_000)


def test_python_source_keeps_its_own_lines_with_braces() -> None:
    source = b"X = [" + b", ".join([b"{}"] * 40) + b"]\ndef f():\n    raise ValueError('a')\n"
    rendering = as_written(source)
    offset = source.index(b"ValueError")
    (place,) = rendering.places([offset], rendering.slices())
    assert (place.line, place.slice_line, place.column) == (3, 3, 11)
    _check(source * 20000, python=True)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from([b"var x=1;", b"function f(a){return a}", b"'a;{}'", b"`t${1}`", b"/re;}/g",
                                 b"\n", b"{", b"}", b";", "ü".encode(), b"x" * 5000]), min_size=1, max_size=600))
def test_any_source_slices_into_the_rendering(parts: list[bytes]) -> None:
    _check(b"".join(parts) * 50)


def test_slice_names_never_collide() -> None:
    names = slice_names(["a/b.js", "a_b.js", "A_B.js", "cli", "x.py"], [1, 2, 1, 12, 1])
    assert names == [["readable/a_b.js"], ["readable/a_b~u2~01.js", "readable/a_b~u2~02.js"], ["readable/A_B~u3.js"],
                     [f"readable/cli~{i:02d}.js" for i in range(1, 13)], ["readable/x.py.js"]]
    units = readable_units({"cli.js": render(b"x;" * 10)})
    assert units["cli.js"].files == ["readable/cli.js"]


def test_python_renderings_are_named_as_python() -> None:
    """A code host highlights by extension: a Python unit's rendering ends in `.py`, never `.py.js`."""
    names = slice_names(["pkg/mod.py", "pkg_mod.py", "pkg/big.py"], [1, 1, 3], ".py")
    assert names == [["readable/pkg_mod.py"], ["readable/pkg_mod~u2.py"],
                     ["readable/pkg_big~01.py", "readable/pkg_big~02.py", "readable/pkg_big~03.py"]]
