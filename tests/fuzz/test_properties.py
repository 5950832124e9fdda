"""Properties of the readers hostile input reaches first, checked in process with hypothesis
(cheap enough for thousands of examples; the harness drives the command itself)."""

from __future__ import annotations

import contextlib
import struct
from pathlib import PurePosixPath

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.bunexe import Module, graph

from analyzer.bundle.bun import TRAILER, EmbeddedModule, _Malformed, _read_graph, decode_name
from analyzer.bundle.embedded import MANIFEST, planned_files
from analyzer.bundle.load import unique_names
from analyzer.facts import CALLSITES_FOUND
from analyzer.javascript.extract import extract_unit
from analyzer.javascript.rules import compile_rules
from analyzer.readable import slice_names
from analyzer.rules import load_rules
from analyzer.sourcemap import SourceMap, SourceMapError

PROPERTIES = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])

_json = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**40), 2**40) | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)
_vlq = st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/;,!", max_size=200)


@PROPERTIES
@given(
    mappings=_vlq,
    sources=st.lists(st.one_of(st.text(max_size=10), st.none(), st.integers(-(2**40), 2**40)), max_size=5),
    extra=st.dictionaries(st.sampled_from(["version", "sourceRoot", "sections", "names"]), _json, max_size=2),
)
def test_a_source_map_decodes_or_is_unusable(mappings: str, sources: list[object], extra: dict[str, object]) -> None:
    document = {"version": 3, "sources": sources, "mappings": mappings, **extra}
    try:
        decoded = SourceMap.from_json(orjson.dumps(document))
    except SourceMapError:
        return
    for line in range(3):
        for column in (0, 1, 5, 1000):
            origin = decoded.origin(line, column)
            assert origin is None or (origin.line >= 1 and origin.column >= 1 and origin.source in decoded.sources)


@PROPERTIES
@given(sections=_json)
def test_an_index_map_decodes_or_is_unusable(sections: object) -> None:
    with contextlib.suppress(SourceMapError):
        SourceMap.from_json(orjson.dumps({"version": 3, "sections": sections}))


@PROPERTIES
@given(data=st.data())
def test_a_damaged_module_graph_is_read_or_refused(data: st.DataObject) -> None:
    payload = bytearray(graph([Module("/$bunfs/root/a.js", b"new Error('x')"), Module(b"/$bunfs/root/\xff", b"1")]))
    table_end = len(payload) - len(TRAILER)
    for _ in range(data.draw(st.integers(1, 4))):
        at = data.draw(st.integers(0, table_end - 4))
        struct.pack_into("<I", payload, at, data.draw(st.integers(0, 2**32 - 1)))
    try:
        modules = _read_graph(memoryview(bytes(payload)))
    except _Malformed:
        return
    assert all(isinstance(m.path, str) and len(m.contents) == m.size for m in modules)


@PROPERTIES
@given(raw=st.binary(max_size=40))
def test_every_name_decodes_and_valid_utf8_is_kept(raw: bytes) -> None:
    name = decode_name(raw)
    name.encode("utf-8")  # never a lone surrogate
    try:
        assert name == raw.decode("utf-8")
    except UnicodeDecodeError:
        assert "\\x" in name


@PROPERTIES
@given(names=st.lists(st.sampled_from(["a", "a#1", "a#2", "b", "", "a/b"]), max_size=8))
def test_unit_names_are_unique(names: list[str]) -> None:
    unique = unique_names(names)
    assert len(set(unique)) == len(unique)
    assert all(u == n or u.startswith(f"{n}#") for u, n in zip(unique, names))


_embedded = st.one_of(
    st.sampled_from(["/$bunfs/root/a", "/$bunfs/root/a/b.js", "manifest.json", "/$bunfs/root/manifest.json", "..",
                     "../x", "/", "B:\\~BUN\\root\\a", "a:b", "a\x00b", "/$bunfs/root/" + "n" * 300]),
    st.text(max_size=30),
)


@PROPERTIES
@given(paths=st.lists(_embedded, min_size=1, max_size=8))
def test_extract_plans_distinct_files_that_fit(paths: list[str]) -> None:
    modules = [EmbeddedModule(p, b"x", 1, "latin1", "js", True, False, None) for p in paths]
    files = [PurePosixPath(f) for f in planned_files(modules) if f is not None]
    texts = [str(f) for f in files]
    assert len(set(texts)) == len(texts)
    assert MANIFEST not in texts
    directories = {str(p) for f in files for p in f.parents}
    assert not directories & set(texts)
    for file in files:
        assert not file.is_absolute() and ".." not in file.parts
        assert all(len(part.encode("utf-8", "surrogatepass")) <= 255 and "\x00" not in part for part in file.parts)


@PROPERTIES
@given(unit=st.text(min_size=1, max_size=400))
def test_a_rendering_name_fits_a_file_system(unit: str) -> None:
    for name in [*slice_names([unit], [1])[0], *slice_names([unit, unit], [1, 120])[1]]:
        assert name.startswith("readable/") and all(len(p.encode()) <= 255 for p in name.split("/"))


_JS_ATOMS = ["{", "}", "(", ")", "[", "]", ";", ",", "=>", "function", "Error", "new", "throw", "T", "`", "${", "'",
             '"', "class", "extends", "var", "let", "x", "1", ":", "?", ".", "/", "*", "\n", " ", "{level:'debug'}"]


@pytest.fixture(scope="module")
def rules():  # type: ignore[no-untyped-def]
    return compile_rules(load_rules("javascript"))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                   HealthCheck.function_scoped_fixture])
@given(atoms=st.lists(st.sampled_from(_JS_ATOMS), max_size=60))
def test_any_token_soup_gives_facts_that_add_up(atoms: list[str], rules, tmp_path_factory) -> None:  # type: ignore[no-untyped-def]
    """Token soup parses into whatever tree-sitter recovers; extraction never raises, and every
    callsite found is inventoried or left out."""
    from analyzer.model import Unit

    source = "".join(atoms).encode()
    unit = Unit(name="soup.js", source=source, sha256="0" * 64)
    facts = extract_unit(unit, rules, None, tmp_path_factory.getbasetemp() / "soup.js")
    found = sum((facts.extra(CALLSITES_FOUND) or {}).values())
    assert found == len(facts.sites) + len(facts.left_out)
