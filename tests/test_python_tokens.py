"""Issue 14: each Python unit is tokenized once and every fingerprint piece (module, class,
function, anchor) is normalized from that token stream; the bytes are those of the normalizer
of bfb6b60 (`tests/support/tokens_bfb6b60.py`), which tokenized each piece on its own."""

from __future__ import annotations

import random

import pytest
from support import python_trees
from support import tokens_bfb6b60 as recorded

from analyzer.python import tokens

PIP = python_trees.pip_tree()


def sources() -> list[tuple[str, str]]:
    return [
        (p.relative_to(PIP).as_posix(), p.read_bytes().decode("utf-8", "replace")) for p in sorted(PIP.rglob("*.py"))
    ]


@pytest.fixture(scope="module")
def pip_sources() -> list[tuple[str, str]]:
    return sources()


def test_whole_units_normalize_as_before(pip_sources: list[tuple[str, str]]) -> None:
    for name, text in pip_sources:
        assert tokens.Tokens(text).normalized(0, len(text)) == recorded.normalized_code(text), name


def test_pieces_on_token_boundaries_normalize_as_before(pip_sources: list[tuple[str, str]]) -> None:
    rng = random.Random(14)
    for name, text in pip_sources:
        stream = tokens.Tokens(text)
        for _ in range(10):
            if len(stream.starts) < 2:
                break
            first = rng.randrange(len(stream.starts))
            last = rng.randrange(first, min(len(stream.starts), first + 500))
            start, end, base = stream.starts[first], stream.end(last), rng.randrange(8)
            assert stream.normalized(start, end, base) == recorded.normalized_code(text[start:end], base), (
                name,
                start,
                end,
            )


def test_any_other_piece_normalizes_as_before(pip_sources: list[tuple[str, str]]) -> None:
    """Inside a string, a comment or a token, the piece is tokenized on its own, as before."""
    rng = random.Random(13)
    for name, text in pip_sources:
        stream = tokens.Tokens(text)
        for _ in range(10 if len(text) > 1 else 0):
            start, end = sorted(rng.sample(range(len(text) + 1), 2))
            assert stream.normalized(start, end, 4) == recorded.normalized_code(text[start:end], 4), (name, start, end)


def test_expression_keys_are_as_before(pip_sources: list[tuple[str, str]]) -> None:
    for name, text in pip_sources:
        for line in text.splitlines()[:200]:
            assert tokens.expression_key(line) == recorded.expression_key(line), (name, line)
