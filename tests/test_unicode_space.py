"""White space past ASCII between tokens (`syntax.spaced`): tree-sitter-javascript skips U+00A0,
U+2028, U+FEFF and the others like a space, while the byte passes take any byte past ASCII for
part of a name. The same code with such spaces where it had ASCII ones makes the same callsites,
handlers and references, and a scan in slices writes the whole tree's files."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from conftest import run, tree_bytes

from analyzer.javascript.syntax import new_parser, spaced

#: every code point tree-sitter-javascript skips between tokens past ASCII (`syntax._UNICODE_SPACE`)
SPACES = [0xA0, 0x1680, *range(0x2000, 0x200C), 0x2028, 0x2029, 0x202F, 0x205F, 0x2060, 0x3000, 0xFEFF]
#: past ASCII and no white space to the parser: part of a name (U+0085 and U+180E included)
NOT_SPACES = [0x85, 0xE0, 0x180E, 0x200C, 0x200D, 0x2010, 0x2014, 0x20AC, 0xFEFE, 0x1F600]

#: code with `{S}` wherever white space may go between tokens (and one `{S}` where it must)
CODE = """var v1=function(){{throw{S}new{S}Error('v1 boom')}};
function{S}t1(){{throw new{S}TypeError('t1 boom')}}
class{S}MyErr extends{S}Error{{}}
const g1=(){S}=>{S}t1();
var r1={S}v1;
function h1(){{try{{g1()}}catch{S}(e){{console.error(e)}}}}
function h2(){{try{{t1()}}catch(e){{throw new RangeError{S}('wrapped')}}}}
function h3(p){{return p.catch{S}(function(e){{console.warn(e)}})}}
function h4(){{v1();{S}throw{S}Error{S}('bad',{S}{{cause:{S}1}})}}
var q2=x=>{S}r1(x);
"""


def _filler(prefix: str) -> str:
    return "".join(f"var {prefix}{at}=function(){{return {at}}};\n" for at in range(300))


@pytest.mark.parametrize("point", SPACES + NOT_SPACES)
def test_the_spaces_are_the_parsers(point: int) -> None:
    """`spaced` makes ASCII spaces of exactly what the parser skips between two tokens."""
    character = chr(point).encode()
    source = b"var q=" + character + b"foo;"
    value = new_parser().parse(source).root_node.named_children[0].named_children[0].child_by_field_name("value")
    assert value is not None
    skipped = value.text == b"foo"
    assert skipped is (point in SPACES)
    view = spaced(source)
    assert len(view) == len(source)
    assert view == (b"var q=" + b" " * len(character) + b"foo;" if skipped else source)
    if not skipped:
        assert view is source


def _records(directory: Path, name: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in (directory / name).read_text().splitlines()]


def _inventory(directory: Path) -> tuple[object, ...]:
    """What a scan found, without offsets, lines and the fingerprints made from them."""
    calls = [(r["kind"], r["constructor"], r["callee"], r["message"], r["consumer"], r["flow"]["fate"])
             for r in _records(directory, "error-message-callsites.jsonl")]
    handlers = [(r["form"], r["param"], len(r["sources"]),  # type: ignore[arg-type]
                 [(b["test"], [(d["kind"], d["cause"], d["callee"], len(d["callsites"]))  # ids name offsets
                               for d in b["dispositions"]]) for b in r["branches"]])  # type: ignore[attr-defined]
                for r in _records(directory, "handlers.jsonl")]
    references = [([d["name"] for d in r["declares"]], r["references"])  # type: ignore[union-attr]
                  for r in _records(directory, "references.jsonl")]
    classes = [r["name"] for r in _records(directory, "error-classes.jsonl")]
    return calls, handlers, references, classes


@pytest.mark.parametrize("point", [0xA0, 0x2028, 0x3000, 0xFEFF])
def test_code_with_unicode_spaces_is_read_as_with_ascii_ones(tmp_path: Path, point: int) -> None:
    plain, other = tmp_path / "plain.js", tmp_path / "other.js"
    plain.write_text(CODE.format(S=" "), encoding="utf-8")
    other.write_text(CODE.format(S=chr(point)), encoding="utf-8")
    found = []
    for bundle in (plain, other):
        done = run("scan", bundle, "--out", tmp_path / bundle.stem, "--jobs", 1)
        assert done.returncode == 0, done.stderr
        found.append(_inventory(tmp_path / bundle.stem))
    assert found[0] == found[1]
    calls, handlers, _, _ = found[1]
    assert len(calls) == 4 and len(handlers) == 3


def test_a_scan_in_slices_reads_them_as_the_whole_tree(tmp_path: Path) -> None:
    """Cut between statements holding such spaces, the slices' byte supersets (the names L
    declares, the functions that throw and those that call them) see the same words."""
    bundle = tmp_path / "spaced.js"
    pieces = CODE.format(S="\u00a0").splitlines(keepends=True)
    bundle.write_text(_filler("a") + "".join(pieces[:5]) + _filler("b") + "".join(pieces[5:]) + _filler("c"),
                      encoding="utf-8")
    whole = run("scan", bundle, "--out", tmp_path / "whole", "--jobs", 1)
    assert whole.returncode == 0, whole.stderr
    for count in (3, 5):
        done = run("scan", bundle, "--out", tmp_path / f"sliced-{count}", "--slices", count,
                   env={**os.environ, "ERRATLAS_TRACE": "1"})
        assert done.returncode == 0, done.stderr
        assert "merged from slices" in done.stderr
        assert tree_bytes(tmp_path / f"sliced-{count}") == tree_bytes(tmp_path / "whole"), f"{count} slices"
    sources = [r["sources"] for r in _records(tmp_path / "whole", "handlers.jsonl")]
    assert [len(s) for s in sources] == [1, 1, 0]  # type: ignore[arg-type]
