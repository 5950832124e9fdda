"""Fingerprints (docs/fingerprints.md) survive any consistent renaming, are unique, and are local to a function."""

from __future__ import annotations

import json
import random
import string
from pathlib import Path

import pytest
from conftest import FIXTURES, records, scan
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tree_sitter import Node

from analyzer.javascript.normalize import ANCHOR_LIMIT, Anchor, Normalizer, Siblings, anchor_of
from analyzer.javascript.normalize import innermost_function as enclosing_function
from analyzer.javascript.syntax import FUNCTION_TYPES, ancestors, parse

MINIFIED = [
    FIXTURES / "demo" / "demo.min.js",
    FIXTURES / "demo" / "demo.terser.min.js",
    FIXTURES / "demo" / "demo.bun.min.js",
]
_RENAMEABLE = {"identifier", "shorthand_property_identifier", "shorthand_property_identifier_pattern",
               "private_property_identifier", "statement_identifier"}
_KEYWORDS = set(
    "break case catch class const continue debugger default delete do else export extends false finally for "
    "function if import in instanceof new null return super switch this throw true try typeof var void while "
    "with yield let static await async of get set enum implements interface package private protected public "
    "arguments eval undefined NaN Infinity".split()
)
_DECLARING_PARENTS = {"variable_declarator", "formal_parameters", "function_declaration", "function_expression",
                      "generator_function_declaration", "generator_function", "class_declaration", "class",
                      "arrow_function", "catch_clause", "import_specifier", "namespace_import", "import_clause",
                      "object_pattern", "array_pattern", "pair_pattern", "assignment_pattern",
                      "object_assignment_pattern", "rest_pattern", "field_definition", "method_definition",
                      "labeled_statement"}


def name_nodes(source: bytes) -> list[Node]:
    tree = parse(source)
    out, stack = [], [tree.root_node]
    while stack:
        node = stack.pop()
        if node.type in _RENAMEABLE:
            out.append(node)
        stack.extend(node.children)
    return sorted(out, key=lambda n: n.start_byte)


_ALWAYS_DECLARED = ("private_property_identifier", "statement_identifier", "shorthand_property_identifier_pattern")


def bound_names(nodes: list[Node]) -> set[bytes]:
    """Names the bundle declares somewhere (a private name is always the bundle's own)."""
    bound = set()
    for node in nodes:
        parent = node.parent
        if node.type in _ALWAYS_DECLARED:
            bound.add(node.text)
        elif parent is not None and parent.type in _DECLARING_PARENTS:
            bound.add(node.text)
    return bound


def rename(source: bytes, rng: random.Random) -> bytes:
    """A consistent renaming of every name the bundle declares, to fresh random names."""
    nodes = name_nodes(source)
    bound = bound_names(nodes)
    taken = {n.text for n in nodes if n.text not in bound} | {k.encode() for k in _KEYWORDS}
    mapping: dict[bytes, bytes] = {}
    first = string.ascii_letters + "_$"
    for name in sorted(bound):
        while True:
            fresh = rng.choice(first) + "".join(rng.choice(first + string.digits) for _ in range(rng.randrange(0, 5)))
            candidate = (b"#" if name.startswith(b"#") else b"") + fresh.encode()
            if candidate not in taken and candidate not in mapping.values():
                break
        mapping[name] = candidate
    pieces, at = [], 0
    for node in nodes:
        if node.text in mapping:
            pieces += [source[at:node.start_byte], mapping[node.text]]
            at = node.end_byte
    pieces.append(source[at:])
    return b"".join(pieces)


def fingerprints(out: Path) -> list[str]:
    return [r["fingerprint"] for r in records(out, "error") + records(out, "diagnostic")]  # type: ignore[misc]


@pytest.fixture(scope="module")
def original(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    """`original(bundle)`: the scan directory and summary of an unchanged fixture, scanned once
    for the module (every renaming of it is compared with the same bytes). Read only."""
    done: dict[Path, tuple[Path, dict[str, object]]] = {}

    def get(bundle: Path) -> tuple[Path, dict[str, object]]:
        if bundle not in done:
            out = tmp_path_factory.mktemp("original") / "scan"
            done[bundle] = (out, scan(bundle, out))
        return done[bundle]

    return get


@pytest.mark.parametrize("bundle", MINIFIED, ids=lambda p: p.name)
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(min_value=0, max_value=2**32))
def test_consistent_renaming_keeps_every_fingerprint(tmp_path_factory, original, bundle: Path, seed: int) -> None:  # type: ignore[no-untyped-def]
    """Each renaming is scanned; the unchanged bundle is scanned once (`original`), not once per
    example: the same bytes, scanned again, are the same scan."""
    work = tmp_path_factory.mktemp("rename")
    source = bundle.read_bytes()
    renamed = rename(source, random.Random(seed))
    assert renamed != source
    (work / bundle.name).write_bytes(renamed)
    unchanged, original_summary = original(bundle)
    renamed_summary = scan(work / bundle.name, work / "b")
    before, after = fingerprints(unchanged), fingerprints(work / "b")
    assert len(before) == len(set(before)), "fingerprints are unique"
    assert after == before
    assert renamed_summary["loggers"][0]["source"] == original_summary["loggers"][0]["source"] == "detected"
    functions = lambda out: [r["functionFingerprint"] for r in records(out, "error")]  # noqa: E731
    assert functions(work / "b") == functions(unchanged)
    def classes(out: Path) -> list[str]:
        return [json.loads(line)["fingerprint"] for line in (out / "error-classes.jsonl").read_text().splitlines()]

    assert classes(work / "b") == classes(unchanged)


def innermost_function(root: Node, offset: int) -> Node | None:
    node = root.descendant_for_byte_range(offset, offset + 1)
    while node is not None and node.type not in FUNCTION_TYPES:
        node = node.parent
    return node


def edited_functions(root: Node, offsets: list[int], limit: int) -> list[Node]:
    """Functions with a block body that directly hold a callsite, spread over the bundle."""
    found: dict[int, Node] = {}
    for offset in offsets:
        function = innermost_function(root, offset)
        body = function.child_by_field_name("body") if function is not None else None
        if function is not None and body is not None and body.type == "statement_block":
            found[function.start_byte] = function
    ordered = [found[start] for start in sorted(found)]
    return ordered[:: max(1, len(ordered) // limit)][:limit]


@pytest.mark.parametrize("bundle", MINIFIED[:2], ids=lambda p: p.name)
def test_editing_one_function_changes_only_its_own_callsites(tmp_path: Path, bundle: Path) -> None:
    source = bundle.read_bytes()
    scan(bundle, tmp_path / "before")
    before = records(tmp_path / "before", "error") + records(tmp_path / "before", "diagnostic")
    tree = parse(source)
    functions = edited_functions(tree.root_node, [int(r["offset"]) for r in before], limit=8)
    assert len(functions) >= 5
    for index, function in enumerate(functions):
        start = function.start_byte
        body = function.child_by_field_name("body")
        assert body is not None
        insert_at = body.start_byte + 1
        edited = source[:insert_at] + b"void 0;" + source[insert_at:]
        target = tmp_path / f"edit{index}" / bundle.name
        target.parent.mkdir()
        target.write_bytes(edited)
        scan(target, tmp_path / f"edit{index}" / "out")
        after = records(tmp_path / f"edit{index}" / "out", "error") + records(
            tmp_path / f"edit{index}" / "out", "diagnostic"
        )
        assert len(after) == len(before)
        inside = [
            b["offset"] >= function.start_byte and b["offset"] < function.end_byte
            and innermost_function(tree.root_node, b["offset"]).start_byte == function.start_byte  # type: ignore[union-attr]
            for b in before
        ]
        for was, now, own in zip(before, after, inside):
            if own:
                assert now["fingerprint"] != was["fingerprint"], (start, was["id"])
            else:
                assert now["fingerprint"] == was["fingerprint"], (start, was["id"], "changed outside the edit")


def _call_anchors(source: bytes, limit: int) -> list[Anchor]:
    """Every call's anchor (within `limit` nodes) and innermost function, in source order."""
    tree = parse(source)
    root = tree.root_node
    siblings = Siblings()
    out: list[Anchor] = []
    stack = [root]
    while stack:
        node = stack.pop()
        if node.type in ("call_expression", "new_expression"):
            chain = ancestors(node, root)
            out.append(anchor_of(node, chain, limit, siblings))
            function = enclosing_function(chain)
            if function is not None:
                out.append(function)
        stack.extend(reversed(node.children))
    assert out
    return out


def _damaged(source: bytes) -> bytes:
    """The bundle with `&&` before every 20th `)`: the parser recovers with MISSING names."""
    pieces = source.split(b")")
    return b"".join(piece + (b"&&)" if at % 20 == 19 else b")") for at, piece in enumerate(pieces[:-1])) + pieces[-1]


@pytest.mark.parametrize("damaged", [False, True], ids=["clean", "damaged"])
@pytest.mark.parametrize("limit", [ANCHOR_LIMIT, 48])
@pytest.mark.parametrize("bundle", MINIFIED, ids=lambda p: p.name)
def test_an_anchor_digest_does_not_depend_on_the_anchors_digested_before(
    bundle: Path, limit: int, damaged: bool
) -> None:
    """The normalizer reads an anchor's names from the nodes it captured before: digesting every
    anchor in source order, in reverse order, or each with a normalizer of its own gives the same
    digests (windows and functions overlapping, and a tree the parser recovered)."""
    source = _damaged(bundle.read_bytes()) if damaged else bundle.read_bytes()
    assert parse(source).root_node.has_error == damaged
    assert any(name.is_missing for name in name_nodes(source)) == damaged
    anchors = _call_anchors(source, limit)
    forward, backward = Normalizer(source), Normalizer(source)
    in_order = [forward.digest(anchor) for anchor in anchors]
    reversed_order = [backward.digest(anchor) for anchor in reversed(anchors)][::-1]
    alone = [Normalizer(source).digest(anchor) for anchor in anchors]
    assert in_order == reversed_order == alone
