"""Source maps as evidence: every callsite's `origin`, checked against an independent oracle
(fixtures/tools/map-oracle.mjs, @jridgewell/trace-mapping) on bundles built by the real tools."""

from __future__ import annotations

import base64
import json
import posixpath
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import FIXTURES, records, scan
from hypothesis import given, settings
from hypothesis import strategies as st
from support import sourcemap_4488b67 as eager

from analyzer.model import Origin
from analyzer.sourcemap import SourceMap, SourceMapError, _decode, normalize_source, package_of, url_parts

#: every demo bundle, and where its map is found
BUNDLES = {
    "demo.min.js": "sourceMappingURL file",
    "demo.cjs.min.js": "sourceMappingURL file",
    "demo.terser.min.js": "sourceMappingURL file (terser, chained through esbuild's map)",
    "demo.bun.min.js": "beside the bundle, no sourceMappingURL",
    "demo.webpack.min.js": "sourceMappingURL file, webpack:// sources",
    "demo.browserify.min.js": "sourceMappingURL file (terser, chained through browserify's inline map)",
}


def oracle_origins(bundle: Path, map_path: Path, offsets: list[int]) -> list[dict[str, object] | None]:
    """Original positions of byte offsets, by the node oracle, with sources normalized as the
    map's `sources` strings are (`webpack://x/` and `./` removed)."""
    done = subprocess.run(
        ["node", str(FIXTURES / "tools" / "map-oracle.mjs"), str(bundle), str(map_path)],
        input=json.dumps(offsets), capture_output=True, text=True, cwd=FIXTURES, check=True, timeout=120,
    )
    out = json.loads(done.stdout)
    for origin in out:
        if origin is not None:
            origin["source"] = normalize_source(origin["source"])
    return out


def all_records(out: Path) -> list[dict[str, object]]:
    return records(out, "error") + records(out, "diagnostic")


@pytest.mark.parametrize("bundle", sorted(BUNDLES))
def test_every_callsite_origin_is_what_the_map_says(bundle: str, tmp_path: Path) -> None:
    path = FIXTURES / "demo" / bundle
    summary = scan(path, tmp_path / "out")
    rows = all_records(tmp_path / "out")
    expected = oracle_origins(path, path.with_name(bundle + ".map"), [r["offset"] for r in rows])
    assert [r["origin"] for r in rows] == expected
    assert sum(1 for r in rows if r["origin"] is not None) >= len(rows) - 1  # at most a runtime helper
    (used,) = summary["modules"]["sourceMaps"]
    assert used["status"] == "used" and used["map"] == bundle + ".map"


def test_origins_count_utf16_columns_on_a_bundle_with_astral_characters(tmp_path: Path) -> None:
    path = FIXTURES / "hostile" / "hostile.min.js"
    scan(path, tmp_path / "out")
    rows = all_records(tmp_path / "out")
    assert [r["origin"] for r in rows] == oracle_origins(path, path.with_name("hostile.min.js.map"),
                                                         [r["offset"] for r in rows])


def test_an_inline_base64_map_gives_the_same_origins(tmp_path: Path, demo_scanned_once: Path) -> None:
    source = (FIXTURES / "demo" / "demo.min.js").read_bytes()
    data = base64.b64encode((FIXTURES / "demo" / "demo.min.js.map").read_bytes())
    body = source[: source.rindex(b"//# sourceMappingURL=")]
    inline = tmp_path / "inline.min.js"
    inline.write_bytes(body + b"//# sourceMappingURL=data:application/json;charset=utf-8;base64," + data + b"\n")
    summary = scan(inline, tmp_path / "inline")
    assert [r["origin"] for r in all_records(tmp_path / "inline")] == [
        r["origin"] for r in all_records(demo_scanned_once)  # the session's scan of the file beside its map
    ]
    assert summary["modules"]["sourceMaps"][0]["map"] == "inline"


def test_a_source_mapping_url_may_name_another_file(tmp_path: Path) -> None:
    source = (FIXTURES / "demo" / "demo.min.js").read_bytes()
    renamed = tmp_path / "bundle.js"
    renamed.write_bytes(source.replace(b"sourceMappingURL=demo.min.js.map", b"sourceMappingURL=maps/b.map"))
    (tmp_path / "maps").mkdir()
    shutil.copy(FIXTURES / "demo" / "demo.min.js.map", tmp_path / "maps" / "b.map")
    summary = scan(renamed, tmp_path / "out")
    assert summary["modules"]["sourceMaps"][0]["map"] == "maps/b.map"
    assert all(r["origin"] is not None for r in all_records(tmp_path / "out")[1:])


def test_without_a_map_every_origin_is_null(tmp_path: Path) -> None:
    bare = tmp_path / "demo.min.js"
    shutil.copy(FIXTURES / "demo" / "demo.min.js", bare)
    summary = scan(bare, tmp_path / "out")
    rows = all_records(tmp_path / "out")
    assert rows and all("origin" in r and r["origin"] is None for r in rows)
    assert summary["modules"]["sourceMaps"][0]["status"] == "none"


def test_an_unusable_map_is_reported_and_never_fatal(tmp_path: Path) -> None:
    bare = tmp_path / "demo.min.js"
    shutil.copy(FIXTURES / "demo" / "demo.min.js", bare)
    (tmp_path / "demo.min.js.map").write_text('{"version": 3, "sources": [], "mappings": "A!!"}')
    summary = scan(bare, tmp_path / "out")
    (used,) = summary["modules"]["sourceMaps"]
    assert used["status"].startswith("unusable: demo.min.js.map: invalid Base64-VLQ character")
    assert all(r["origin"] is None for r in all_records(tmp_path / "out"))


def test_vlq_segments_decode_with_signs_continuations_and_running_sums() -> None:
    # "AAAA": (0,0,0,0); "SAASA": col+9, name; "gBACE" col+16 line+1 col+2; "D" col-1 unmapped
    document = {"version": 3, "sources": ["a.js", "b.js"], "names": ["x"],
                "mappings": "AAAA,SAASA,gBACE,D;ACAA,2BAAe"}
    source_map = SourceMap.from_json(json.dumps(document).encode())
    assert source_map.origin(0, 0) == Origin("a.js", 1, 1)
    assert source_map.origin(0, 9) == Origin("a.js", 1, 10)
    assert source_map.origin(0, 25) == Origin("a.js", 2, 12)
    assert source_map.origin(0, 24) is None  # the 1-field segment at 24 maps nothing
    assert source_map.origin(1, 0) == Origin("b.js", 2, 12)
    assert source_map.origin(1, 27) == Origin("b.js", 2, 27)  # 2B = 27, e = 15
    assert source_map.origin(2, 0) is None


MAPS = sorted(p for p in FIXTURES.rglob("*.map") if "node_modules" not in p.parts)


def assert_lines_as_eager(document: dict[str, object]) -> None:
    """Every line made when asked (`sourcemap._decode`) is the eager decoder's, and no other line."""
    sources, lines, written = _decode(document)
    their_sources, their_lines, their_written = eager._decode(document)
    assert (sources, written) == (their_sources, their_written)
    assert {line: made for line, made in lines.items() if made != ([], [])} == \
        {line: made for line, made in their_lines.items() if made != ([], [])}
    for line in range(max(their_lines, default=0) + 2):  # an empty line is none: it maps nothing either way
        theirs = their_lines.get(line)
        assert lines.get(line) == (None if theirs == ([], []) else theirs)


@pytest.mark.parametrize("path", MAPS, ids=lambda p: str(p.relative_to(FIXTURES)))
def test_every_fixture_maps_lines_are_the_eager_decoders(path: Path) -> None:
    assert_lines_as_eager(json.loads(path.read_bytes()))


#: segments with 1, 4 and 5 fields, negative deltas, continuations; empty lines and empty segments
SEGMENTS = ["A", "C", "D", "AAAA", "SAASA", "gBACE", "ACAA", "2BAAe", "DADD", "gCAAgC", "AgBAA", "E"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(st.sampled_from([*SEGMENTS, ""]), max_size=8), max_size=12))
def test_made_up_mappings_decode_as_the_eager_decoder(lines: list[list[str]]) -> None:
    mappings = ";".join(",".join(line) for line in lines)
    assert_lines_as_eager({"version": 3, "sources": ["a.js", "b.js", "c.js"], "mappings": mappings})


def test_index_maps_shift_each_section() -> None:
    part = {"version": 3, "sources": ["s.js"], "names": [], "mappings": "AAAA"}
    document = {"version": 3, "sections": [{"offset": {"line": 0, "column": 0}, "map": part},
                                           {"offset": {"line": 0, "column": 100}, "map": part}]}
    source_map = SourceMap.from_json(json.dumps(document).encode())
    assert source_map.origin(0, 100) == Origin("s.js", 1, 1)
    assert source_map.sources == ["s.js", "s.js"]


@pytest.mark.parametrize("bad", [b"not json", b"[]", b'{"version": 2, "sources": [], "mappings": ""}'])
def test_malformed_maps_raise_one_error(bad: bytes) -> None:
    with pytest.raises(SourceMapError):
        SourceMap.from_json(bad)


@pytest.mark.parametrize(
    ("source", "package"),
    [
        ("../node_modules/commander/lib/command.js", "commander"),
        ("node_modules/@scope/pkg/index.js", "@scope/pkg"),
        ("../node_modules/a/node_modules/b/x.js", "b"),
        ("../src/demo-app/main.js", None),
        ("node_modules/.pnpm/ms@2.1.3/node_modules/ms/index.js", "ms"),
    ],
)
def test_package_of_a_source_is_its_last_node_modules_entry(source: str, package: str | None) -> None:
    assert package_of(source) == package


def test_sources_are_normalized_but_never_made_absolute() -> None:
    assert normalize_source("webpack://erratlas-fixtures/./node_modules/ms/index.js") == "node_modules/ms/index.js"
    assert normalize_source("./src/../src/x.js", "") == "src/x.js"
    assert normalize_source("x.js", "../lib/") == "../lib/x.js"
    assert posixpath.isabs(normalize_source("/abs/x.js"))  # an absolute source stays as the map wrote it


def test_a_scoped_webpack_namespace_is_the_authority_of_its_sources() -> None:
    """webpack's namespace is the package's name: a scoped one spans two segments, and a monorepo
    sibling's source keeps its `../` (it lies outside the package)."""
    assert normalize_source("webpack://@jupyter-widgets/html-manager/./lib/embed.js") == "lib/embed.js"
    assert normalize_source("webpack://@jupyter-widgets/html-manager/../base/lib/x.js") == "../base/lib/x.js"
    assert url_parts("webpack://@scope/name/./src/a.js") == ("webpack", "@scope/name", "./src/a.js")
    assert normalize_source("webpack://@scope/./src/a.js") == "src/a.js"  # a namespace of one segment
    assert normalize_source("https://example.com/@x/y.js") == "@x/y.js"  # another URL's path is kept
