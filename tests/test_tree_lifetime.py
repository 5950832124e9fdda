"""A unit's syntax tree, the biggest object of a JavaScript scan (a gigabyte for the 2.1.235
executable's main unit), is freed once the unit's facts are made: nothing the extraction returns
or keeps holds it or any of its nodes (docs/performance.md, "Memory")."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from conftest import FIXTURES
from tree_sitter import Tree

from analyzer.javascript import extract
from analyzer.javascript.rules import JavaScriptRules, compile_rules
from analyzer.model import Unit
from analyzer.rules import load_rules

DEMO = FIXTURES / "demo" / "demo.min.js"


@pytest.fixture(scope="module")
def rules() -> JavaScriptRules:
    return compile_rules(load_rules("javascript"))


def _extracted(monkeypatch: pytest.MonkeyPatch, rules: JavaScriptRules, keep: list[Tree] | None) -> Tree:
    """Extract the demo's unit; the tree its parse made (held here too)."""
    parsed: list[Tree] = []
    parse = extract.parse

    def recording(source: bytes) -> Tree:
        parsed.append(parse(source))
        return parsed[-1]

    monkeypatch.setattr(extract, "parse", recording)
    source = DEMO.read_bytes()
    facts = extract.extract_unit(Unit(name=DEMO.name, source=source, sha256="0" * 64), rules, None, Path(DEMO),
                                 keep=keep)
    assert facts.sites  # the demo has callsites: their facts were made from the tree
    return parsed.pop()


def test_the_tree_is_held_by_nothing_once_the_facts_are_made(monkeypatch: pytest.MonkeyPatch,
                                                             rules: JavaScriptRules) -> None:
    tree = _extracted(monkeypatch, rules, None)
    # this name and getrefcount's argument: no node (a node holds its tree), list or cache is left
    assert sys.getrefcount(tree) == 2


def test_the_tree_is_kept_when_asked(monkeypatch: pytest.MonkeyPatch, rules: JavaScriptRules) -> None:
    kept: list[Tree] = []
    tree = _extracted(monkeypatch, rules, kept)
    assert kept == [tree]
    assert tree.root_node.end_byte == DEMO.stat().st_size
