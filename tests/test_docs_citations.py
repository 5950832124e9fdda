"""Every citation of a document's section names a section that exists. The code, the tests, the
benchmarks and the documents point a reader at a section by quoting its heading after the file's
name (the file, a comma, the heading in double quotes; in a comment or a docstring the citation
may wrap across lines); the heading a citation quotes must start a heading of that document, so
that renaming a section fails here until every citation follows it. Relative links into a
document's sections must name an anchor GitHub makes from one of its headings, and
docs/performance.md's first section must fit on one screen."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

from conftest import ROOT

#: where citations are looked for: the package, its tests, the benchmarks, the documents
CITING_DIRECTORIES = ("analyzer", "tests", "bench", "docs")
CITING_FILES = ("README.md", "pyproject.toml")
TEXT_SUFFIXES = {".py", ".md", ".toml", ".scm", ".txt", ".cfg", ".yml", ".yaml", ".sh"}
SKIPPED_PARTS = {"node_modules", "__pycache__", "build"}
#: a document's name (with or without a directory; `[x.md](x.md)` as a link too), a comma, the quoted heading
CITATION = re.compile(r'((?:[\w.-]+/)*[\w-]+)\.md\)?,\s+"([^"]{1,300})"')
#: a line's comment markers and indentation, taken off before a wrapped citation's lines are joined
LEAD = re.compile(r"^\s*(?:#+:?)?\s*")
ATX_HEADING = re.compile(r"^#{1,6}\s+(.*?)(?:\s+#+)?\s*$")
#: a run-in heading: a paragraph or a list item that starts with a bold label (`**Flow** (...)`)
RUN_IN = re.compile(r"^\s*(?:[-*+]\s+|\d+\.\s+)?\*\*(.+?)\*\*")
LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d+\.)\s+")
FENCE = re.compile(r"^\s*(```|~~~)")
LINK = re.compile(r"\]\(([^)\s]*?\.md)?#([^)\s]+)\)")
PERFORMANCE = ROOT / "docs" / "performance.md"
ONE_SCREEN = 45


def citing_files() -> list[Path]:
    found = [ROOT / name for name in CITING_FILES]
    for directory in CITING_DIRECTORIES:
        found += [path for path in (ROOT / directory).rglob("*")
                  if path.is_file() and path.suffix in TEXT_SUFFIXES
                  and not SKIPPED_PARTS & set(path.relative_to(ROOT).parts)]
    return sorted(found)


def joined(text: str) -> str:
    """The file as one line: each line without its indentation and comment markers."""
    return " ".join(LEAD.sub("", line) for line in text.splitlines())


def headings(document: Path) -> list[str]:
    """The text of every heading outside code blocks: ATX headings and run-in bold labels."""
    found: list[str] = []
    fenced = False
    previous = ""
    for line in document.read_text(encoding="utf-8").splitlines():
        if FENCE.match(line):
            fenced = not fenced
        elif not fenced:
            atx = ATX_HEADING.match(line)
            run_in = RUN_IN.match(line)
            if atx:
                found.append(atx.group(1))
            elif run_in and (not previous.strip() or LIST_ITEM.match(line) or ATX_HEADING.match(previous)):
                found.append(run_in.group(1))
        previous = line
    return found


def cited_document(name: str, citing: Path) -> Path | None:
    """`docs/x` and `bench/README` from the repository's root; a bare `x`, docs/x.md first."""
    if "/" in name:
        candidates = [ROOT / f"{name}.md"]
    else:
        candidates = [ROOT / "docs" / f"{name}.md", citing.parent / f"{name}.md", ROOT / f"{name}.md"]
    return next((path for path in candidates if path.is_file()), None)


def github_anchors(document: Path) -> set[str]:
    """The anchors GitHub makes from a document's ATX headings: lowercased, punctuation but `-`
    and `_` dropped, each space a `-`; a repeated anchor numbered from `-1`."""
    seen: dict[str, int] = {}
    anchors: set[str] = set()
    fenced = False
    for line in document.read_text(encoding="utf-8").splitlines():
        if FENCE.match(line):
            fenced = not fenced
            continue
        heading = None if fenced else ATX_HEADING.match(line)
        if heading is None:
            continue
        slug = "".join(c for c in heading.group(1).strip().lower()
                       if c in " -_" or unicodedata.category(c)[0] in "LMN").replace(" ", "-")
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        anchors.add(slug if count == 0 else f"{slug}-{count}")
    return anchors


def test_every_cited_heading_starts_a_heading_of_its_document() -> None:
    cache: dict[Path, list[str]] = {}
    unresolved: list[str] = []
    cited = 0
    for citing in citing_files():
        for match in CITATION.finditer(joined(citing.read_text(encoding="utf-8", errors="replace"))):
            name, heading = match.group(1), match.group(2)
            document = cited_document(name, citing)
            where = f'{citing.relative_to(ROOT)}: {name}.md, "{heading}"'
            cited += 1
            if document is None:
                unresolved.append(f"{where}: no such document")
                continue
            if document not in cache:
                cache[document] = headings(document)
            if not any(text.startswith(heading) for text in cache[document]):
                unresolved.append(f"{where}: no heading of {document.relative_to(ROOT)} starts so")
    assert cited > 100, f"only {cited} citations found: the pattern no longer matches how they are written"
    assert not unresolved, "\n".join(unresolved)


def test_every_relative_link_into_a_section_names_a_heading() -> None:
    broken: list[str] = []
    for document in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), ROOT / "bench" / "README.md"]:
        for match in LINK.finditer(document.read_text(encoding="utf-8")):
            target = (document.parent / match.group(1)).resolve() if match.group(1) else document
            if "://" in (match.group(1) or ""):
                continue
            if not target.is_file():
                broken.append(f"{document.relative_to(ROOT)}: {match.group(0)}: no such file")
            elif match.group(2) not in github_anchors(target):
                broken.append(f"{document.relative_to(ROOT)}: {match.group(0)}: no such heading")
    assert not broken, "\n".join(broken)


def test_performance_opens_with_the_design_on_one_screen() -> None:
    lines = PERFORMANCE.read_text(encoding="utf-8").splitlines()
    sections = [i for i, line in enumerate(lines) if line.startswith("## ")]
    assert lines[sections[0]] == "## The design in one screen"
    first = lines[:sections[1]]
    assert len(first) <= ONE_SCREEN, f"the first section is {len(first)} lines, more than one screen ({ONE_SCREEN})"
