"""The reviewer's index: markdown a code host renders, on ten thousand callsites
(docs/reference.md, "A scan directory"): `error-diagnostic-owner-index.md` holds the totals,
the allowlists' health and the contents, linking to pages under `index/` with one row per
callsite. No page reaches `PAGE_LIMIT` bytes, and every cell is escaped, so no message can break
a table."""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field

from analyzer.errors import InvariantError
from analyzer.model import Callsite, Module, ProjectionRow
from analyzer.reports.evidence import evidence_summary
from analyzer.scandir.files import INDEX_DIRECTORY, INDEX_FILE
from analyzer.summary_model import DriftedEntry, OwnerPart, RecordedAllowlist, ScanHead, StaleEntry

_CELL_LIMIT = 140
_TOP_MESSAGES = 3
#: no page of the index reaches this many bytes (code hosts stop rendering markdown near it)
PAGE_LIMIT = 500_000
#: pages are filled up to about this many bytes
_PAGE_BUDGET = 400_000
_CONTROLS = [*range(0x20), 0x7F, 0x2028, 0x2029, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A)]
#: what `cell` writes for each character it changes: HTML entities, markdown escapes, and
#: control and direction characters made visible (a line break as ↵, the rest as an escaped \uXXXX)
_CELL_TABLE = {
    **{ord(c): "\\" + c for c in "\\`*_[]#~|!"},
    ord("&"): "&amp;", ord("<"): "&lt;", ord(">"): "&gt;",
    **{c: "↵" if chr(c) in "\n\r\u2028\u2029" else f"\\\\u{c:04x}" for c in _CONTROLS},
}
#: any character `cell` changes
_SPECIAL = re.compile("[" + "".join(re.escape(chr(c)) for c in sorted(_CELL_TABLE)) + "]")
#: the markup characters of the table, the backslash and the ampersand first: replaced one after the
#: other, no escape writes a character a later one changes, so the text is the table's translation
_MARKUP = [("\\", "\\\\"), ("&", "&amp;"), *((c, "\\" + c) for c in "`*_[]#~|!"), ("<", "&lt;"), (">", "&gt;")]
#: a control or direction character: the table's translation (a cell rarely holds one)
_CONTROL = re.compile("[" + "".join(re.escape(chr(c)) for c in _CONTROLS) + "]")


def cell(value: object, limit: int = _CELL_LIMIT) -> str:
    """Text safe inside a markdown table cell: no pipes, no markup, no HTML, one line."""
    text = "" if value is None else str(value)
    if len(text) > limit:
        text = text[:limit] + "…"
    if not _SPECIAL.search(text):
        return text
    if _CONTROL.search(text):
        return text.translate(_CELL_TABLE)
    for character, escaped in _MARKUP:  # a few scans of the text: translate looks each character up
        if character in text:
            text = text.replace(character, escaped)
    return text


Record = Callsite
Row = ProjectionRow


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    return _table_head(header) + ["| " + " | ".join(row) + " |" for row in rows] + [""]


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" + ("" if number == 1 else "s")


def _table_head(header: list[str]) -> list[str]:
    return ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:80] or "x"


@dataclass
class _Group:
    """One section of the detail pages: a package, or a module (or the code of a unit outside
    every module) of one owner class."""

    owner: str
    #: the contents' label (package, or module name)
    label: str
    anchor: str
    #: lines under the heading, before the table
    intro: list[str]
    members: list[tuple[Record, Row]] = field(default_factory=list)
    #: the page (and part) each slice of the group's rows landed on, filled by `_pages`
    pages: list[str] = field(default_factory=list)
    #: its most frequent messages (a module's group: its intro and its row of the contents)
    top: str = ""


def index_files(records: list[Record], rows: list[Row], owners: OwnerPart, head: ScanHead,
                allowlists: list[RecordedAllowlist], flow: list[str] | None = None) -> dict[str, bytes]:
    """The index and its pages, by path in the scan directory: `rows`, the projection's row of
    each record; `owners`, the summary's owner part; `head`, the scan's input and versions;
    `allowlists`, those applied; `flow`, the lines of the flow section that ends the first page
    (a scan with handlers: reports/flow.py)."""
    paired = list(zip(records, rows))
    groups = _dependency_groups(paired) + _module_groups(paired, "Product") + _module_groups(paired, "Unresolved")
    pages = _pages(groups)
    files = {path: _encode(lines) for path, lines in pages.items()}
    health = _allowlist_health(allowlists, owners)
    contents = [_contents(groups, owner) for owner in ("Dependency", "Product", "Unresolved")]
    main, moved = _fit_main(_head(head, owners), health, contents, flow or [])
    files |= moved
    files[INDEX_FILE] = main
    too_big = sorted(path for path, data in files.items() if len(data) >= PAGE_LIMIT)
    if too_big:
        raise InvariantError(f"index page {too_big[0]} is {len(files[too_big[0]])} bytes (limit {PAGE_LIMIT})")
    return files


def _encode(lines: list[str]) -> bytes:
    return ("\n".join(lines).rstrip("\n") + "\n").encode("utf-8")


# ---- groups ---------------------------------------------------------------------------------


def _dependency_groups(paired: list[tuple[Record, Row]]) -> list[_Group]:
    by_package: dict[str, list[tuple[Record, Row]]] = defaultdict(list)
    for record, row in paired:
        if row.owner == "Dependency":
            by_package[row.package or ""].append((record, row))
    anchors = _Anchors()
    return [_Group("Dependency", package, anchors.take("p-" + _slug(package)), [], members)
            for package, members in sorted(by_package.items())]


def _module_groups(paired: list[tuple[Record, Row]], owner: str) -> list[_Group]:
    """One group per module (or unit, for code outside every module), in bundle order."""
    by_place: dict[tuple[str, int], list[tuple[Record, Row]]] = defaultdict(list)
    modules: dict[tuple[str, int], Module | None] = {}
    for record, row in paired:
        if row.owner != owner:
            continue
        module = record.module
        key = (record.unit, _module_offset(module))
        by_place[key].append((record, row))
        modules[key] = module
    anchors = _Anchors()
    groups = []
    for key, members in sorted(by_place.items()):
        module = modules[key]
        if module is None:
            label, anchor = f"{key[0]} (outside every module)", "u-" + _slug(key[0])
            intro = [f"Code of unit `{cell(key[0], 200)}` outside every bundler module."]
        else:
            label, anchor = f"{module.name} ({module.kind})", _slug(module.id)
            intro = [f"Module `{cell(module.id, 200)}` ({module.kind}), fingerprint `{module.fingerprint}`."]
        top, ranked = _top_messages([r for r, _ in members])
        intro.append(f"Most frequent messages: {top}." if ranked else top if top.endswith("…") else f"{top}.")
        groups.append(_Group(owner, label, anchors.take(anchor), intro, members, top=top))
    return groups


def _module_offset(module: Module | None) -> int:
    """Modules sort by where they begin; code outside every module first."""
    if module is None:
        return -1
    return int(module.id.rsplit("@", 1)[1])


class _Anchors:
    def __init__(self) -> None:
        self._taken: set[str] = set()

    def take(self, wanted: str) -> str:
        anchor, number = wanted, 1
        while anchor in self._taken:
            number += 1
            anchor = f"{wanted}-{number}"
        self._taken.add(anchor)
        return anchor


def _top_messages(records: list[Record]) -> tuple[str, bool]:
    """The most frequent messages with their counts (ranked: True), or, when no message
    repeats, how many distinct ones there are and the first few in bundle order: a ranking of
    ties says nothing."""
    keys = Counter(r.message.comparisonKey for r in records)
    if max(keys.values()) == 1:
        shown = ", ".join(cell(key, 100) for key in list(keys)[:_TOP_MESSAGES])
        more = ", …" if len(keys) > _TOP_MESSAGES else ""
        return (f"1 message: {shown}" if len(keys) == 1 else f"{len(keys)} distinct messages: {shown}{more}"), False
    top = sorted(keys.items(), key=lambda kv: (-kv[1], kv[0]))[:_TOP_MESSAGES]
    return ", ".join(f"{cell(key, 100)} ×{count}" for key, count in top), True


# ---- detail pages ---------------------------------------------------------------------------

_HEADER = ["function", "location", "kind", "message", "role", "evidence", "fingerprint"]
_PAGE_FILE = {"Dependency": "dependency", "Product": "product", "Unresolved": "unresolved"}


def _evidence(record: Record, row: Row, by_package: bool) -> str:
    """What says who owns the callsite, or could: the entry that owns it, where the source map
    places it, and on a package's page (whose rows come from several modules) its module."""
    said = [evidence_summary(row.evidence)] if row.evidence is not None else []
    origin = record.origin
    if origin is not None:
        said.append(f"source map: {origin.source}:{origin.line}:{origin.column}")
    module = record.module
    if by_package and module is not None:
        said.append(f"module: {module.name} ({module.kind})")
    return "; ".join(said) if said else "none"


def _row(record: Record, row: Row, prefix: str, by_package: bool = False) -> str:
    place = record.readable
    name = place.file.rsplit("/", 1)[-1]
    location = f"[{cell(name, 60)}:{place.line}]({prefix}{place.file}#L{place.line}) @{record.offset}"
    what = record.constructor if record.kind == "error" else record.level
    function = row.function or (record.scope.scopePath or ("<module>",))[-1]
    cells = [
        cell(function, 80),
        location,
        cell(f"{record.kind} {what}"),
        cell(record.message.comparisonKey),
        cell(record.consumer.role),
        cell(_evidence(record, row, by_package), 260),
        f"`{record.fingerprint}`",
    ]
    return "| " + " | ".join(cells) + " |"


def _pages(groups: list[_Group]) -> dict[str, list[str]]:
    """Pack each owner class's groups, in order, into pages of about _PAGE_BUDGET bytes; a
    group bigger than what is left of a page goes on with a heading on the next page."""
    pages: dict[str, list[str]] = {}
    for owner, name in _PAGE_FILE.items():
        current: list[str] = []
        size = 0
        number = 0

        for group in (g for g in groups if g.owner == owner):
            rows = [_row(record, row, "../", owner == "Dependency") for record, row in group.members]
            part = 0
            while rows:
                part += 1
                heading = _section_heading(group, part)
                if not current or size + sum(len(h) + 1 for h in heading) + 2 * len(rows[0]) > _PAGE_BUDGET:
                    if current:
                        pages[f"{INDEX_DIRECTORY}{name}-{number:02d}.md"] = current
                    number += 1
                    current = [f"# {owner} callsites, page {number}", "",
                               f"[Back to the index](../{INDEX_FILE}).", ""]
                    size = sum(len(line.encode()) + 1 for line in current)
                current += heading
                size += sum(len(line.encode()) + 1 for line in heading)
                group.pages.append(f"{name}-{number:02d}.md")
                taken = 0
                while taken < len(rows) and (taken == 0 or size + len(rows[taken].encode()) + 1 < _PAGE_BUDGET):
                    current.append(rows[taken])
                    size += len(rows[taken].encode()) + 1
                    taken += 1
                current.append("")
                rows = rows[taken:]
        if current:
            pages[f"{INDEX_DIRECTORY}{name}-{number:02d}.md"] = current
    return pages


def _section_heading(group: _Group, part: int) -> list[str]:
    anchor = group.anchor if part == 1 else f"{group.anchor}-part-{part}"
    title = f"{cell(group.label, 200)} ({_count(len(group.members), 'callsite')})" + (
        "" if part == 1 else f", continued ({part})"
    )
    return [f'<a id="{anchor}"></a>', "", f"## {title}", "", *(group.intro if part == 1 else []),
            *([""] if part == 1 and group.intro else []), *_table_head(_HEADER)]


# ---- the first page -------------------------------------------------------------------------


def _head(head: ScanHead, owners: OwnerPart) -> list[str]:
    lines = [f"# erratlas owner index: {cell(head.bundle.name)}", ""]
    lines.append(f"Bundle sha256 `{head.bundle.sha256}`, {head.units} unit(s); "
                 f"erratlas {head.tool}, fingerprints {head.fingerprint}.")
    lines.append("")
    lines += ["## Totals and coverage", ""]
    counts, coverage = owners.owners, owners.coverage
    rows = []
    for kind, covered in (("error", coverage.error), ("diagnostic", coverage.diagnostic)):
        c = counts.byKind[kind]
        rows.append([kind, str(sum(c.values())), str(c["Product"]), str(c["Dependency"]), str(c["Unresolved"]),
                     covered.display])
    t = counts.total
    rows.append(["**all**", str(sum(t.values())), str(t["Product"]), str(t["Dependency"]), str(t["Unresolved"]),
                 coverage.overall.display])
    lines += _table(["kind", "callsites", "Product", "Dependency", "Unresolved", "coverage"], rows)
    return lines + _LEGEND


#: how the messages of every page read (their comparison keys: docs/reference.md, "Callsite records")
_LEGEND = [
    "## Reading the messages",
    "",
    "A message is shown as its comparison key, which no minified name changes:",
    "",
    "- `${}` is a hole where the code puts a value: a template literal's `${…}`, an expression joined with `+`, "
    "an f-string's or a `%` or `.format` field;",
    "- `<shape:code>` is a message that is not text in the code: what is passed (`identifier`, `member-or-call`, "
    "`call`, `conditional`, `array`, `expression`) and its code with every name written `_`, property names and "
    "literals kept: `<identifier:_>` is a variable, `<member-or-call:_.data.message>` the `message` of some "
    "value's `data`, `<call:_(_)>` what a function returns; `<missing>` is no message at all;",
    "- `↵` is a line break in the message, `…` the end of a cell cut short.",
    "",
]


@dataclass
class _Section:
    """A part of the first page that moves to pages of its own when the page is too big."""

    title: str
    intro: list[str]
    header: list[str]
    rows: list[list[str]]
    #: file name stem of its own pages
    name: str


def _allowlist_health(allowlists: list[RecordedAllowlist], owners: OwnerPart) -> list[_Section]:
    if not allowlists:
        intro = ["No allowlist was applied: every callsite is Unresolved."]
    else:
        intro = _table(["allowlist", "entries", "sha256"],
                       [[cell(a.path), str(a.entries), f"`{a.sha256[:16]}…`"] for a in allowlists])[:-1]
    sections = [_Section("Allowlists", intro, [], [], "allowlists")]
    stale: list[StaleEntry | DriftedEntry] = list(owners.stale)
    drifted: list[StaleEntry | DriftedEntry] = list(owners.drifted)
    for title, key, entries in (
        ("Stale entries (match nothing)", "stale", stale),
        ("Drifted entries (expect no longer holds)", "drifted", drifted),
    ):
        rows = [[cell(e.entry), e.level, cell(f"{e.owner} {e.package or ''}".strip()), cell(e.function),
                 f"`{e.fingerprint}`", *_where_drifted(e)] for e in entries]
        sections.append(_Section(f"{title}: {len(entries)}", [], ["entry", "level", "owner", "function", "fingerprint",
                                                                  "callsite", "found"], rows, key))
    return sections


def _where_drifted(entry: StaleEntry | DriftedEntry) -> tuple[str, str]:
    """A drifted entry's callsite and the message found there (a stale entry has neither)."""
    return (cell(entry.callsite), cell(entry.found)) if isinstance(entry, DriftedEntry) else ("", "")


def _contents(groups: list[_Group], owner: str) -> _Section:
    mine = [g for g in groups if g.owner == owner]
    total = sum(len(g.members) for g in mine)
    what = "package" if owner == "Dependency" else "module"
    mine.sort(key=lambda g: (-len(g.members), g.label, g.anchor))
    rows = []
    for group in mine:
        kinds = Counter(record.kind for record, _ in group.members)
        pages = sorted(set(group.pages), key=group.pages.index)
        link = ", ".join(
            f"[{page}]({INDEX_DIRECTORY}{page}#{group.anchor if n == 0 else f'{group.anchor}-part-{n + 1}'})"
            for n, page in enumerate(group.pages)
        )
        rows.append(
            [
                cell(group.label),
                str(len(group.members)),
                str(kinds.get("error", 0)),
                str(kinds.get("diagnostic", 0)),
                group.top if owner == "Unresolved" else f"{len(pages)} page(s)",
                link,
            ]
        )
    header = [
        what,
        "callsites",
        "errors",
        "diagnostics",
        "messages" if owner == "Unresolved" else "pages",
        "where",
    ]
    return _Section(f"{owner}: {_count(total, 'callsite')} in {_count(len(mine), what)}", [], header, rows,
                    f"contents-{_PAGE_FILE[owner]}")


def _section_lines(section: _Section, level: str = "##") -> list[str]:
    lines = [f"{level} {section.title}", ""]
    if section.intro:
        lines += [*section.intro, ""]
    if section.rows:
        lines += _table(section.header, section.rows)
    return lines


def _fit_main(head: list[str], health: list[_Section], contents: list[_Section],
              tail: list[str]) -> tuple[bytes, dict[str, bytes]]:
    """The first page, with the biggest sections moved to pages of their own until it fits;
    `tail` ends it."""
    sections = health + contents
    moved: dict[str, bytes] = {}
    inline = {id(s) for s in sections}
    while True:
        lines = list(head)
        for number, section in enumerate(sections):
            if number == len(health):
                lines += ["## Contents", ""]
            level = "###" if number >= len(health) else "##"
            if id(section) in inline:
                lines += _section_lines(section, level)
            else:
                links = ", ".join(
                    f"[{path.removeprefix(INDEX_DIRECTORY)}]({path})"
                    for path in sorted(p for p in moved if p.startswith(f"{INDEX_DIRECTORY}{section.name}-"))
                )
                lines += [f"{level} {section.title}", "", f"On their own pages: {links}.", ""]
        main = _encode(lines + tail)
        if len(main) < _PAGE_BUDGET or not inline:
            return main, moved
        biggest = max((s for s in sections if id(s) in inline and s.rows), key=lambda s: len(s.rows), default=None)
        if biggest is None:
            return main, moved
        inline.discard(id(biggest))
        moved |= _own_pages(biggest)


def _own_pages(section: _Section) -> dict[str, bytes]:
    """A section's table on pages of its own (its links made relative to `index/`)."""
    rows = [[c.replace(f"]({INDEX_DIRECTORY}", "](") for c in row] for row in section.rows]
    pages: dict[str, bytes] = {}
    number, start = 0, 0
    while start < len(rows):
        number += 1
        lines = [f"# {section.title}, page {number}", "", f"[Back to the index](../{INDEX_FILE}).", ""]
        lines += _table_head(section.header)
        size = sum(len(line.encode()) + 1 for line in lines)
        end = start
        while end < len(rows) and (end == start or size + len(_cells(rows[end]).encode()) + 1 < _PAGE_BUDGET):
            lines.append(_cells(rows[end]))
            size += len(_cells(rows[end]).encode()) + 1
            end += 1
        pages[f"{INDEX_DIRECTORY}{section.name}-{number:02d}.md"] = _encode(lines)
        start = end
    return pages


def _cells(row: list[str]) -> str:
    return "| " + " | ".join(row) + " |"
