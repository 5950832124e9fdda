"""Facts made ahead on chunks of a unit are the facts the whole unit gives (speculate.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import FIXTURES, records, scan, tree_bytes

from analyzer.javascript.extract import extract_unit
from analyzer.javascript.speculate import ChunkFacts, TopStatements, chunks_of, facts_ahead, is_wrapped
from analyzer.javascript.syntax import parse
from analyzer.model import Unit
from analyzer.readable import render
from analyzer.rules import load_javascript_rules

WRAPPER = b"// @bun @bun-cjs\n(function(exports, require, module, __filename, __dirname) {"


def _bundle(wrapped: bool, copies: int = 24) -> bytes:
    """Top-level `var` modules made of the demo app (esbuild CommonJS build), optionally inside
    Bun's CommonJS wrapper."""
    demo = (FIXTURES / "demo" / "demo.cjs.min.js").read_bytes().strip()
    demo = demo[: demo.rfind(b"\n//# sourceMappingURL")]
    body = b"".join(b"var M%d=(()=>{%s})();" % (i, demo) for i in range(copies))
    return WRAPPER + body + b"})\n" if wrapped else body


@pytest.mark.parametrize("wrapped", [False, True])
def test_every_usable_chunk_fact_equals_the_whole_units_fact(wrapped: bool) -> None:
    source = _bundle(wrapped, copies=40)
    unit = Unit(name="big.js", source=source, sha256="0" * 64)
    assert is_wrapped(source) == wrapped
    rules = load_javascript_rules(None)
    whole = extract_unit(unit, rules, None, Path("big.js"))
    expected = {(s.offset, s.end_offset, s.kind): s for s in whole.sites}
    chunks: list[ChunkFacts] = []
    facts_ahead(unit, chunks_of(unit, render(source).hidden, len(source) // 5), rules, None,
                lambda _, chunk: chunks.append(chunk), lambda: True)
    assert len(chunks) >= 5
    top = TopStatements(parse(source), source)
    used = 0
    for chunk in chunks:
        usable = top.usable(chunk)
        assert usable, "a chunk cut at a statement boundary agrees with the whole tree"
        for key, facts in usable.items():
            if key in expected:
                assert facts == expected[key], key
                used += 1
    assert used > len(expected) * 0.6  # all but the first and last statement of each chunk


def test_a_chunk_from_another_tree_is_not_used() -> None:
    source = _bundle(False)
    unit = Unit(name="big.js", source=source, sha256="0" * 64)
    chunks: list[ChunkFacts] = []
    facts_ahead(unit, chunks_of(unit, render(source).hidden, len(source) // 4), load_javascript_rules(None), None,
                lambda _, chunk: chunks.append(chunk), lambda: True)
    shifted = b" " + source  # every statement one byte later
    top = TopStatements(parse(shifted), shifted)
    assert all(top.usable(chunk) == {} for chunk in chunks)


def test_wanted_stops_the_work_between_chunks() -> None:
    source = _bundle(False)
    unit = Unit(name="big.js", source=source, sha256="0" * 64)
    chunks: list[ChunkFacts] = []
    facts_ahead(unit, chunks_of(unit, render(source).hidden, len(source) // 8), load_javascript_rules(None), None,
                lambda _, chunk: chunks.append(chunk), lambda: len(chunks) < 2)
    assert len(chunks) == 2


@pytest.mark.parametrize("wrapped", [False, True])
def test_scans_with_and_without_helpers_write_the_same_bytes(tmp_path: Path, wrapped: bool) -> None:
    """Through the CLI, on a unit big enough for the rendering worker to work ahead and for the
    helper to share the callsites."""
    bundle = tmp_path / "big.js"
    bundle.write_bytes(_bundle(wrapped, copies=40))  # over 1 MiB
    scan(bundle, tmp_path / "one", "--jobs", "1")
    scan(bundle, tmp_path / "two", "--jobs", "2")
    assert tree_bytes(tmp_path / "one") == tree_bytes(tmp_path / "two")
    assert len(records(tmp_path / "two", "error")) > 100
