"""The escapes written fast are the tables' translations: an index cell (`reports.index.cell`,
its markup characters replaced one after the other) and an allowlist string (`allowlist._string`,
left as it is when nothing in it is escaped), on any text."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer.owners.allowlist import _ESCAPES, _string
from analyzer.reports.index import _CELL_TABLE, cell

#: every character either table changes, and a few they keep, so that a drawn text holds many
_CHARACTERS = st.sampled_from([*map(chr, sorted(_CELL_TABLE)), *map(chr, sorted(_ESCAPES)), *"ab é€😀\u00a0u0;"])
_TEXTS = st.text(_CHARACTERS, max_size=30) | st.text(max_size=30)


@settings(max_examples=3000, deadline=None)
@given(_TEXTS)
def test_a_cell_is_the_tables_translation(text: str) -> None:
    assert cell(text, 1000) == text.translate(_CELL_TABLE)


@settings(max_examples=3000, deadline=None)
@given(_TEXTS)
def test_an_allowlist_string_is_the_tables_translation(text: str) -> None:
    assert _string(text) == '"' + text.translate(_ESCAPES) + '"'
