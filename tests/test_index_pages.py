"""Issue 15: the reviewer's index renders on a code host. Every page is under 500 kB, every
readable slice under 1 MB, every page parses as markdown with well-formed tables, and every
link lands on a file of the scan directory, at a line that file has or an anchor it holds;
every callsite has its row. Checked on the demo and on the 2.1.235 executable's scan."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from conftest import FIXTURES, records, run, scan
from markdown_it import MarkdownIt
from markdown_it.token import Token
from test_owners import table_widths, table_widths_of

INDEX = "error-diagnostic-owner-index.md"
EXECUTABLE = "@anthropic-ai/claude-code-linux-x64"
_ANCHOR = re.compile(r'<a id="([^"]+)">')
_LINE = re.compile(r"L([0-9]+)")
_ROW_PLACE = re.compile(r"\.\./[^)#\s]+#L[0-9]+\) @[0-9]+ ")


def pages_of(out: Path) -> list[Path]:
    return [out / INDEX, *sorted((out / "index").glob("*.md"))]


def links_and_anchors(tokens: list[Token]) -> tuple[list[str], set[str]]:
    links, anchors = [], set()
    for token in tokens:
        if token.type == "html_block":
            anchors |= set(_ANCHOR.findall(token.content))
        for child in token.children or []:
            if child.type == "link_open":
                links.append(str(child.attrs["href"]))
            elif child.type == "html_inline":
                anchors |= set(_ANCHOR.findall(child.content))
    return links, anchors


def check_index(out: Path) -> int:
    """Every page, slice and link of a scan directory's index; returns the links checked."""
    root = out.resolve()
    for slice_file in (out / "readable").iterdir():
        assert slice_file.stat().st_size < 1_000_000, slice_file
    tokens = {page.resolve(): MarkdownIt("commonmark").enable("table").parse(page.read_text(encoding="utf-8"))
              for page in pages_of(out)}  # each page parsed once: its tables, links and anchors
    parsed = {page: links_and_anchors(page_tokens) for page, page_tokens in tokens.items()}
    line_counts: dict[Path, int] = {}
    targets: dict[tuple[Path, str], Path] = {}  # each page's link path resolved once (20,000 links, hundreds of files)
    checked = 0
    for page, (links, _) in parsed.items():
        assert page.stat().st_size < 500_000, page
        for header, rows in table_widths_of(tokens[page]):
            assert all(width == header for width in rows), page
        for link in links:
            assert "://" not in link, link
            path, _, fragment = link.partition("#")
            if (page.parent, path) not in targets:
                targets[(page.parent, path)] = (page.parent / path).resolve()
            target = targets[(page.parent, path)]
            assert target.is_relative_to(root) and target.is_file(), (page.name, link)
            if target.suffix == ".md":
                assert not fragment or fragment in parsed[target][1], (page.name, link)
            else:
                number = _LINE.fullmatch(fragment)
                assert number is not None, (page.name, link)
                if target not in line_counts:
                    line_counts[target] = target.read_bytes().count(b"\n") + 1
                assert 1 <= int(number.group(1)) <= line_counts[target], (page.name, link)
            checked += 1
    detail = "".join(p.read_text(encoding="utf-8") for p in pages_of(out)[1:])
    # every `../FILE#LLINE) @OFFSET ` the pages hold, found in one pass (each is a substring of
    # `detail`); a place not among them is looked for as a substring, as before
    rows = set(_ROW_PLACE.findall(detail))
    for record in records(out, "error") + records(out, "diagnostic"):
        place = record["readable"]
        wanted = f"../{place['file']}#L{place['line']}) @{record['offset']} "  # type: ignore[index]
        assert wanted in rows or wanted in detail, record["id"]
    if (out / "handlers.jsonl").exists():
        checked += _check_handler_anchors(out)
    return checked


_HANDLER_ROW = re.compile(r'^\| <a id="(h-[a-z0-9-]+)"></a>.*?\| '
                          r"\[([^\]]+)\]\(\.\./([^)#]+)#L([0-9]+)\) @([0-9]+) \| `([^`]+)` \|", re.M)
#: a link's label holds no bracket: as CommonMark reads it, an unclosed `[` before it (a test's list of
#: literals cut at a cell's width, `e.name in ["A","B"…`) is text
_HANDLER_LINK = re.compile(r"\[([^\[\]]+)\]\((flow-handlers-[0-9]{2}\.md)#(h-[a-z0-9-]+)\)")


def _check_handler_anchors(out: Path) -> int:
    """Every handler has one row under an anchor of its own on the handler pages, linked at its
    readable line and offset; every link to a handler from a flow page lands on the line of that
    anchor, a row that names the place the link names (and the id, on the Product page)."""
    rows: dict[str, dict[str, tuple[str, str]]] = {}
    for page in sorted((out / "index").glob("flow-handlers-*.md")):
        for anchor, label, file, line, offset, identifier in _HANDLER_ROW.findall(page.read_text(encoding="utf-8")):
            assert anchor not in rows.setdefault(page.name, {}), anchor
            rows[page.name][anchor] = (identifier, f"{label}|{file}|{line}|{offset}")
    by_id = {identifier: place for anchors in rows.values() for identifier, place in anchors.values()}
    handlers = [json.loads(line) for line in (out / "handlers.jsonl").read_text(encoding="utf-8").splitlines()]
    assert len(by_id) == sum(len(anchors) for anchors in rows.values()) == len(handlers)
    for handler in handlers:
        place = handler["readable"]
        label, file, line, offset = by_id[handler["id"]].split("|")
        assert re.sub(r"\\(.)", r"\1", label) == f"{place['file'].rsplit('/', 1)[-1]}:{place['line']}", handler["id"]
        assert (file, int(line), int(offset)) == (place["file"], place["line"], handler["offset"]), handler["id"]
    checked = 0
    for page in sorted((out / "index").glob("flow*.md")):
        text = page.read_text(encoding="utf-8")
        for row in text.splitlines():
            for label, target, anchor in _HANDLER_LINK.findall(row):
                identifier, place = rows[target][anchor]
                assert place.startswith(f"{label}|"), (page.name, anchor, label)  # both as the page writes them
                if page.name.startswith("flow-product-"):
                    assert f"`{identifier}`" in row, (page.name, anchor)
                checked += 1
    return checked


def test_demo_index_pages_and_links(demo_scanned_once: Path) -> None:
    assert check_index(demo_scanned_once) > 65  # the session's scan of the demo (read only)


@pytest.mark.parametrize("bundle", ["hostile/hostile.js", "hostile/hostile.min.js"])
def test_owned_hostile_index_pages_tables_and_links(tmp_path: Path, bundle: str) -> None:
    """Hostile messages, and reviewed names holding `|`, a backtick, HTML and a line break: every
    page's tables keep their width, no HTML gets through, every link lands (one scan, allows and
    projection for both: the table and HTML checks were a test of their own in tests/test_owners.py)."""
    out = tmp_path / "out"
    scan(FIXTURES / bundle, out)
    allowlist = tmp_path / "a.toml"
    for index, record in enumerate((records(out, "error") + records(out, "diagnostic"))[:12]):
        owner = (
            ("--owner", "Product") if index % 2 else ("--owner", "Dependency", "--package", f"@scope/pkg-{index % 3}")
        )
        assert run("allow", out, record["id"], "-a", allowlist, *owner, "--reason", "r", "--reviewer", "t",
                   "--name", f"f|`<b>{index}\n", "--on", "2026-11-29").returncode == 0
    assert run("project", out, "-a", allowlist).returncode == 0
    check_index(out)
    pages = pages_of(out)
    assert "dependency-01.md" in [p.name for p in pages] and "product-01.md" in [p.name for p in pages]
    markdown = "\n".join(page.read_text(encoding="utf-8") for page in pages)
    tables = [table for page in pages for table in table_widths(page.read_text(encoding="utf-8"))]
    assert len(tables) >= 4
    assert sum(len(rows) for _, rows in tables) >= 10  # every width checked in check_index
    assert "<b>" not in markdown and "<script" not in markdown.lower()


@pytest.mark.network
@pytest.mark.slow
def test_executable_index_renders_on_a_code_host(release_scan, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """The 2.1.235 executable (10230 callsites): every page under 500 kB, every slice under 1 MB,
    every link resolves, also with owners, stale and drifted entries in the index.

    40 functions spread over the bundle are owned. The first of each owner is reviewed through
    `allow --function` on this scan; the other 38 entries are written as that command writes
    them (one `allow` reads the whole 10,230-callsite scan: 38 more cost a minute and check
    nothing about the index that the two do not; `allow` itself is tested on the fixtures)."""
    out = release_scan(EXECUTABLE, "2.1.235")
    assert check_index(out) > 10230
    copy = tmp_path / "scan"
    shutil.copytree(out, copy)
    rows = records(copy, "error") + records(copy, "diagnostic")
    allowlist = tmp_path / "a.toml"
    single = [r for r in rows if r["copies"]["count"] == 1 and (r["functionCopies"] or {"count": 1})["count"] == 1]  # type: ignore[index]
    picked = single[:: len(single) // 40][:40]
    reviewed = [next(r for r in picked if r["offset"] % 2), next(r for r in picked if not r["offset"] % 2)]  # type: ignore[operator]
    for record in reviewed:
        owner = ("--owner", "Product") if record["offset"] % 2 else ("--owner", "Dependency", "--package", "pkg")  # type: ignore[operator]
        assert run("allow", copy, record["id"], "-a", allowlist, *owner, "--function", "--reason", "r",
                   "--reviewer", "t", "--on", "2026-11-29").returncode == 0
    written = [r for r in picked if r not in reviewed]
    assert len(written) == 38 and all(r["functionFingerprint"] for r in written)
    text = allowlist.read_text() + "".join(
        f'\n[[entry]]\nmatch = {{ function = "{r["functionFingerprint"]}" }}\n'
        + ('owner = "Product"\n' if r["offset"] % 2 else 'owner = "Dependency"\npackage = "pkg"\n')  # type: ignore[operator]
        + 'reason = "r"\nreviewedBy = "t"\nreviewedOn = 2026-11-29\n' for r in written)
    text += "".join(
        f'\n[[entry]]\nmatch = {{ callsite = "fp1:{n:032x}" }}\nowner = "Product"\nreason = "gone"\n'
        f'reviewedBy = "t"\nreviewedOn = 2026-01-01\n' for n in range(3))
    allowlist.write_text(text)
    assert run("project", copy, "-a", allowlist).returncode == 0
    summary = json.loads((copy / "error-diagnostic-owner-summary.json").read_text())
    owners = summary["owners"]["total"]
    assert owners["Product"] > 0 and owners["Dependency"] > 0 and owners["Product"] + owners["Dependency"] >= 40
    assert len(summary["stale"]) == 3  # the 40 function entries all own their callsites
    assert check_index(copy) > 10230
    for record in (rows[0], rows[:: len(rows) // 40][0], rows[-1]):  # explain works on the real scan too
        told = run("explain", copy, record["id"])
        assert told.returncode == 0 and record["fingerprint"] in told.stdout, told.stderr  # type: ignore[operator]
