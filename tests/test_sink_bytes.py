"""A one-byte name's count over a slice's range against the bound (`sink._byte_past`, counted in
C over prefixes grown by the byte's rate so far) is the count of the whole range, whatever the
byte's rate and where it lies."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer.javascript.sink import _byte_past


@settings(max_examples=500, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 300_000), st.integers(0, 40)), max_size=6), st.integers(0, 6000),
       st.data())
def test_a_byte_passes_the_bound_as_its_count_in_the_range_does(runs: list[tuple[int, int]], limit: int,
                                                                data: st.DataObject) -> None:
    """Runs of filler, each followed by a burst of the byte: rates that change along the range."""
    source = b"".join(b"x" * filler + b"e" * burst for filler, burst in runs)
    start = data.draw(st.integers(0, len(source)))
    end = data.draw(st.integers(start, len(source)))
    assert _byte_past(source, b"e", limit, start, end) is (source.count(b"e", start, end) > limit)


def test_the_bounds_edges() -> None:
    source = b"e" * 4098 + b"x" * (1 << 20) + b"e"
    assert not _byte_past(source, b"e", 4099, 0, len(source))
    assert _byte_past(source, b"e", 4098, 0, len(source))
    assert not _byte_past(source, b"e", 0, 4098, len(source) - 1)
    assert _byte_past(source, b"e", 0, 4098, len(source))
    assert not _byte_past(b"", b"e", 0, 0, 0)
