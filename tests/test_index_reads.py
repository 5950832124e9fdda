"""The reviewer's index reads without a manual: one legend of the message placeholders, messages
ranked by count (or counted when none repeats), an evidence column that says something, and
Python renderings a code host highlights as Python."""

from __future__ import annotations

import re
from pathlib import Path

from conftest import FIXTURES, ROOT, scan

INDEX = "error-diagnostic-owner-index.md"
LEGEND = "## Reading the messages"
DEMO = FIXTURES / "demo" / "demo.min.js"


def pages(out: Path) -> dict[str, str]:
    return {p.relative_to(out).as_posix(): p.read_text() for p in [out / INDEX, *(out / "index").glob("*.md")]}


def rows(text: str) -> list[list[str]]:
    """The cells of every table row below a header (not the header or its rule)."""
    table = [line for line in text.splitlines() if line.startswith("| ")]
    return [[c.strip() for c in line.strip("|").split(" | ")] for line in table if not line.startswith("| function |")
            and not line.startswith("| kind |") and not line.startswith("| module |")
            and not line.startswith("| package |") and not line.startswith("| allowlist |")]


def test_the_placeholders_are_explained_once_on_the_first_page(demo_scan_copy: Path) -> None:
    found = pages(demo_scan_copy)
    assert [name for name, text in found.items() if LEGEND in text] == [INDEX]
    legend = found[INDEX].split(LEGEND, 1)[1].split("\n## ", 1)[0]
    for placeholder in ("`${}`", "`<identifier:_>`", "`<member-or-call:_.data.message>`", "`<missing>`", "↵"):
        assert placeholder in legend, placeholder


def test_a_module_whose_messages_are_all_distinct_says_how_many(demo_scan_copy: Path) -> None:
    text = (demo_scan_copy / INDEX).read_text()
    assert "×1" not in text  # no ranking of ties
    main = next(line for line in text.splitlines() if line.startswith("| ../src/demo-app/main.js (esm) |"))
    assert "| 10 distinct messages: " in main and main.count(", ") >= 2
    assert "| 1 message: unknown log level: ${} |" in text


def test_repeated_messages_are_ranked_by_count(tmp_path: Path) -> None:
    source = tmp_path / "repeats.js"
    source.write_text("".join(f'function f{n}(v){{if(!v)throw new Error("{m}")}}\n'
                              for n, m in enumerate(["seldom", "often", "often", "often", "twice", "twice"])))
    scan(source, tmp_path / "out")
    text = (tmp_path / "out" / INDEX).read_text()
    assert "| often ×3, twice ×2, seldom ×1 |" in text, text
    page = (tmp_path / "out" / "index" / "unresolved-01.md").read_text()
    assert "Most frequent messages: often ×3, twice ×2, seldom ×1." in page


def test_every_row_says_its_evidence(tmp_path: Path) -> None:
    """With the demo's allowlist: the owning entry and the map's place on every owned row; the
    package pages name the bundler module too; the one Unresolved callsite has none of these.
    (The flow pages list handlers, not callsites: tests/test_flow_reports.py reads them.)"""
    out = tmp_path / "out"
    scan(DEMO, out, "-a", ROOT / "allowlists" / "demo.toml")
    found = pages(out)
    checked = 0
    for name, text in found.items():
        if not name.startswith("index/") or name.startswith("index/flow"):
            continue
        for cells in rows(text):
            checked += 1
            evidence = cells[5]
            if name.startswith("index/unresolved"):
                assert evidence == "none", cells
                continue
            assert "entry" in evidence and "allowlists/demo.toml:" in evidence, cells
            if "node\\_modules" in cells[0] or name.startswith("index/dependency"):
                assert "source map: ../node\\_modules/" in evidence, cells
            if name.startswith("index/dependency"):
                assert "module: ../node\\_modules/" in evidence, cells
    assert checked == 65


def test_unresolved_rows_say_where_the_map_places_them(demo_scan_copy: Path) -> None:
    text = (demo_scan_copy / "index" / "unresolved-01.md").read_text()
    evidence = [cells[5] for cells in rows(text)]
    assert len(evidence) == 65
    assert sum(1 for e in evidence if e.startswith("source map: ../")) == 64
    assert evidence.count("none") == 1  # the esbuild helper the map gives no source


def test_python_renderings_are_named_as_python(tmp_path: Path) -> None:
    out = tmp_path / "out"
    scan(FIXTURES / "python", out)
    names = sorted(p.name for p in (out / "readable").iterdir())
    assert names and all(name.endswith(".py") for name in names), names
    linked = set()
    for text in pages(out).values():
        linked |= set(re.findall(r"\]\(\.\./(readable/[^)#]+)#L\d+\)", text))
    assert linked and all((out / path).is_file() for path in linked), linked
    assert not any(".py.js" in text for text in pages(out).values())
