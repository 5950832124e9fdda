"""The index's flow section: where errors are caught and what the handlers do (docs/reference.md,
"The flow pages"): `index/flow.md` with its Mermaid flowchart, the tests table, the Product
handlers that swallow an error or lose its cause, and every handler under an anchor of its own,
pages cut under the index's page budget."""

from __future__ import annotations

import functools
import re
from collections import Counter, defaultdict
from typing import get_args

import orjson

from analyzer.errors import InvariantError
from analyzer.handler_model import (
    BranchTest,
    Handler,
    HandlerDisposition,
    HandlerOwnerRow,
    MappedJavaScriptHandler,
    PythonDisposition,
    ReadTest,
)
from analyzer.model import Callsite, Disposition, HandlerFinding, SourceBody
from analyzer.reports.index import PAGE_LIMIT, cell
from analyzer.scandir.files import INDEX_DIRECTORY, INDEX_FILE

OWNERS = ("Product", "Dependency", "Unresolved")
FLOW_PAGE = f"{INDEX_DIRECTORY}flow.md"
_TESTS = "flow-tests"
_PRODUCT = "flow-product"
_HANDLERS = "flow-handlers"
_BUDGET = 400_000
#: handlers linked in one row of the field -> decision table
_LINKED = 8
#: the chart's source nodes (the rest are one `other` node): a chart a reader can follow
_CHART_SOURCES = 12
_FINDINGS: tuple[HandlerFinding, ...] = get_args(HandlerFinding)
_UNSAFE_LABEL = re.compile(r"[^A-Za-z0-9 _.$:()/@-]")


def flow_pages(handlers: list[Handler], rows: list[HandlerOwnerRow], findings: list[tuple[HandlerFinding, ...]],
               records: list[Callsite]) -> tuple[list[str], dict[str, bytes]]:
    """(the lines that end the first page, the flow pages by path); `rows` and `findings`: each
    handler's owner and `findings()`, in handler order."""
    owner: dict[str, str] = {row.id: row.owner for row in rows}
    found = {handler.id: flagged for handler, flagged in zip(handlers, findings, strict=True)}
    errors = {record.id: record for record in records}
    anchors = handler_anchors(handlers)
    placed: list[str] = []
    listed = _paged("Handlers", _HANDLERS_INTRO, _HANDLERS_HEADER,
                    [_handler_row(h, anchors[h.id], owner[h.id], found[h.id]) for h in handlers], _HANDLERS, placed)
    at = {h.id: f"{page.removeprefix(INDEX_DIRECTORY)}#{anchors[h.id]}" for h, page in zip(handlers, placed)}
    tests = _paged("Field -> decision", _TESTS_INTRO, _TESTS_HEADER, _test_rows(handlers, owner, at), _TESTS)
    flagged = [h for h in handlers if owner[h.id] == "Product"
               and {"swallowed-error", "wrap-loses-cause"} & set(found[h.id])]
    product = _paged("Product handlers that swallow an error or lose its cause", _PRODUCT_INTRO, _PRODUCT_HEADER,
                     [_product_row(h, at[h.id], found[h.id]) for h in flagged], _PRODUCT)
    pages = {**listed, **tests, **product}
    pages[FLOW_PAGE] = _encode(_overview(handlers, owner, found, errors, sorted(tests), sorted(product), len(flagged),
                                         sorted(listed)))
    too_big = sorted(path for path, data in pages.items() if len(data) >= PAGE_LIMIT)
    if too_big:
        raise InvariantError(f"flow page {too_big[0]} is {len(pages[too_big[0]])} bytes (limit {PAGE_LIMIT})")
    counts = Counter(owner.values())
    main = ["## Flow: where errors are caught", "",
            f"{len(handlers)} handlers (" + ", ".join(f"{counts.get(o, 0)} {o}" for o in OWNERS) + "): "
            f"[dispositions by owner and the flowchart]({FLOW_PAGE}), "
            f"[field -> decision]({sorted(tests)[0]}) ({_plural(len(_tests_of(handlers)), 'test')}), "
            f"[Product handlers that swallow an error or lose its cause]({sorted(product)[0]}) ({len(flagged)}), "
            f"[every handler]({sorted(listed)[0]}).", ""]
    return main, pages


def _plural(number: int, noun: str) -> str:
    return f"{number} {noun}" + ("" if number == 1 else "s")


def _encode(lines: list[str]) -> bytes:
    return ("\n".join(lines).rstrip("\n") + "\n").encode("utf-8")


def _where(handler: Handler) -> str:
    place = handler.readable
    return f"{_file_cell(place.file)}:{place.line}"


@functools.lru_cache(maxsize=1024)
def _file_cell(file: str) -> str:
    """A readable slice's name in a cell (a scan's thousands of handlers lie in a few slices)."""
    return cell(file.rsplit("/", 1)[-1], 60)


def _link(handler: Handler) -> str:
    """The handler at its line in its readable slice, from a page under `index/`, and its offset."""
    place = handler.readable
    return f"[{_where(handler)}](../{place.file}#L{place.line}) @{handler.offset}"


def _to_anchor(handler: Handler, at: str) -> str:
    """A link to the handler's anchor (its row on the handler pages), from a page under `index/`."""
    return f"[{_where(handler)}]({at})"


def handler_anchors(handlers: list[Handler]) -> dict[str, str]:
    """Each handler's anchor: `h-` and its unit and offset in letters, digits and `-`, made
    unique in handler order (`-2`, `-3`, ... after one already taken)."""
    taken: set[str] = set()
    out = {}
    units: dict[str, str] = {}  # each unit's part, made once
    for handler in handlers:
        unit = units.get(handler.unit)
        if unit is None:
            unit = units[handler.unit] = re.sub(r"[^a-z0-9]+", "-", handler.unit.lower()).strip("-")[:80] or "x"
        wanted = f"h-{unit}-{handler.offset}"
        anchor, number = wanted, 1
        while anchor in taken:
            number += 1
            anchor = f"{wanted}-{number}"
        taken.add(anchor)
        out[handler.id] = anchor
    return out


def _paged(title: str, intro: list[str], header: list[str], rows: list[str], stem: str,
           placed: list[str] | None = None) -> dict[str, bytes]:
    """A table on numbered pages under the budget (one page, saying so, when it has no row);
    `placed` gets the page of each row."""
    pages: dict[str, bytes] = {}
    sizes = [len(row.encode()) + 1 for row in rows]  # each row's bytes and its newline
    start = 0
    while start < len(rows) or not pages:
        number = len(pages) + 1
        lines = [f"# {title}, page {number}", "", f"[Back to the index](../{INDEX_FILE}), "
                 f"[the flow overview](flow.md).", "", *intro, ""]
        if not rows:
            lines.append("None in this scan.")
        else:
            lines += ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
        size = sum(len(line.encode()) + 1 for line in lines)
        end = start
        while end < len(rows) and (end == start or size + sizes[end] < _BUDGET):
            size += sizes[end]
            end += 1
        lines += rows[start:end]
        path = f"{INDEX_DIRECTORY}{stem}-{number:02d}.md"
        pages[path] = _encode(lines)
        if placed is not None:
            placed += [path] * (end - start)
        start = end
    return pages


# ---- field -> decision ---------------------------------------------------------------------------

_TESTS_INTRO = ["Each test a handler's branch makes of the caught value `e` (docs/reference.md, \"Handler records\"; a "
                "test read through a helper under the test it reads, with the calls it was read through; each "
                "test of a conjunction on its own row), "
                "how many handlers make it (Product / Dependency / Unresolved), what the branches under it do "
                "(a branch counts once per disposition it has), and the handlers, in bundle order."]
_TESTS_HEADER = ["test", "handlers", "P / D / U", "then", "where"]


def test_text(test: BranchTest) -> str:
    """A test as code reads it: `e.code === "ENOENT"`, `e instanceof X`, `!e.code`; through a
    helper whose body was read, what it reads and then the call (`e.code === "ENOENT" via or(e)`);
    a conjunction joined by `&&`."""
    return " && ".join(_one_text(t) for t in atoms(test))


def atoms(test: BranchTest) -> tuple[BranchTest, ...]:
    """The test and each of its `also`, in order."""
    return (test, *test.also)


def _one_text(test: BranchTest) -> str:
    if test.reads is None:
        return _test_text(test)
    return f"{_test_text(test.reads)} via {_via(test)}"


def _via(test: BranchTest) -> str:
    """The call a read test was read through: `or(e)`, `!or(e)`, `vt(e)` for `vt(e) === "EISDIR"`
    (the comparison is the read test's own)."""
    if test.through is not None and test.op not in ("predicate", "!predicate"):
        return f"{test.through}({_subject(test)})"
    return _test_text(test)


def _subject(test: BranchTest | ReadTest) -> str:
    return "e" if test.field is None else f"e.{test.field}"


def _test_text(test: BranchTest | ReadTest) -> str:
    subject = _subject(test)
    if isinstance(test, BranchTest) and test.through is not None:
        subject = f"{test.through}({subject})"
    value = test.value if test.op in ("instanceof", "!instanceof") else orjson.dumps(test.value).decode()
    if isinstance(test, BranchTest) and test.compared is not None:  # a named constant, and what it holds
        value = test.compared if test.value is None else f"{test.compared} ({value})"
    if test.op == "truthy":
        return subject
    if test.op == "falsy":
        return f"!{subject}"
    if test.op in ("includes", "startsWith", "endsWith"):
        return f"{subject}.{test.op}({value})"
    if test.op in ("!includes", "!startsWith", "!endsWith"):
        return f"!{subject}.{test.op[1:]}({value})"
    if test.op == "!instanceof":
        return f"!({subject} instanceof {value})"
    if test.op in ("in", "!in"):
        return f"{subject} {'in' if test.op == 'in' else 'not in'} {value}"
    if test.op in ("predicate", "!predicate"):
        return f"{'!' if test.op[0] == '!' else ''}{test.value}({subject})"
    if test.op in ("typeof", "!typeof"):
        return f"typeof {subject} {'===' if test.op == 'typeof' else '!=='} {value}"
    return f"{subject} {test.op} {value}"


_Uses = dict[str, list[tuple[Handler, list[Disposition]]]]


def _tests_of(handlers: list[Handler]) -> tuple[_Uses, dict[str, Counter[str]]]:
    """Test text -> (handler, the dispositions of its branch under that test), in bundle order; a
    test read through a helper under the test it reads. And per text, how its branches wrote it
    (the helper's call, `""` for the test itself)."""
    found: _Uses = defaultdict(list)
    written: dict[str, Counter[str]] = defaultdict(Counter)
    for handler in handlers:
        for branch in handler.branches:
            for test in atoms(branch.test) if branch.test is not None else ():  # each of a conjunction's on its row
                text = _test_text(test.reads) if test.reads is not None else _test_text(test)
                found[text].append((handler, [d.kind for d in branch.dispositions]))
                written[text][_via(test) if test.reads is not None else ""] += 1
    return found, written


def _tested_text(text: str, written: Counter[str]) -> str:
    """A row's test: alone, `... via or(e)` when one helper wrote every branch of it, else each way
    with its branches (`e.code === "ENOENT" (via or(e) ×136, via vt(e) ×46, as written ×23)`)."""
    if set(written) == {""}:
        return text
    if len(written) == 1:
        return f"{text} via {next(iter(written))}"
    ways = sorted(written.items(), key=lambda kv: (-kv[1], kv[0]))
    return f"{text} ({', '.join(f'via {way} ×{n}' if way else f'as written ×{n}' for way, n in ways)})"


def _test_rows(handlers: list[Handler], owner: dict[str, str], at: dict[str, str]) -> list[str]:
    tests, written = _tests_of(handlers)
    rows = []
    for text, uses in sorted(tests.items(), key=lambda kv: (-len({h.id for h, _ in kv[1]}), kv[0])):
        distinct = list({h.id: h for h, _ in uses}.values())
        owners = Counter(owner[h.id] for h in distinct)
        then = Counter(kind for _, kinds in uses for kind in kinds)
        done = ", ".join(f"{kind} ×{then[kind]}" for kind in get_args(Disposition) if then[kind])
        links = ", ".join(_to_anchor(h, at[h.id]) for h in distinct[:_LINKED])
        more = f", … {len(distinct) - _LINKED} more" if len(distinct) > _LINKED else ""
        rows.append(f"| {cell(_tested_text(text, written[text]), 160)} | {len(distinct)} | "
                    f"{' / '.join(str(owners.get(o, 0)) for o in OWNERS)} | {done} | {links}{more} |")
    return rows


# ---- Product handlers that swallow or lose a cause ----------------------------------------------------

_PRODUCT_INTRO = ["Handlers of Product code with a `swallow` branch (the error is dropped) or a `wrap` whose new "
                  "error carries nothing of the caught one (`cause` lost), in bundle order. `erratlas explain DIR ID` "
                  "tells one."]
_PRODUCT_HEADER = ["function", "location", "id", "form", "finding", "branches", "fingerprint"]


def suppressed_text(disposition: HandlerDisposition) -> str:
    """`, suppressed` for a Python `wrap` whose `raise` says `from None` (or another value)."""
    return ", suppressed" if isinstance(disposition, PythonDisposition) and disposition.causeSuppressed else ""


def branch_text(handler: Handler) -> str:
    """`test -> dispositions; ...`, `else` for a branch without a test."""
    parts = []
    for branch in handler.branches:
        kinds = ", ".join(d.kind + (f" ({d.cause} cause{suppressed_text(d)})" if d.cause else "")
                          for d in branch.dispositions)
        parts.append(f"{test_text(branch.test) if branch.test is not None else 'else'} -> {kinds}"
                     if len(handler.branches) > 1 else kinds)
    return "; ".join(parts)


#: what a swallow's finding adds when the source map tells what the empty body held in the original
SOURCE_BODY_NOTE: dict[SourceBody, str] = {
    "empty": "empty in the source too", "comments": "commented in the source", "code": "code removed by the minifier"}


def _product_row(handler: Handler, at: str, findings: tuple[HandlerFinding, ...]) -> str:
    body = handler.sourceBody if isinstance(handler, MappedJavaScriptHandler) else None
    found = [f + (f" ({SOURCE_BODY_NOTE[body]})" if f == "swallowed-error" and body is not None else "")
             for f in findings if f != "useless-catch"]
    function = (handler.scope.scopePath or ("<module>",))[-1]
    cells = [cell(function, 80), _to_anchor(handler, at), f"`{cell(handler.id, 80)}`", handler.form,
             ", ".join(found), cell(branch_text(handler), 200), f"`{handler.fingerprint}`"]
    return "| " + " | ".join(cells) + " |"


# ---- every handler, under its anchor ------------------------------------------------------------

_HANDLERS_INTRO = ["Every handler, in bundle order, under an anchor of its own (`h-`, its unit and offset): the links "
                   "to a handler on the other flow pages land here. Its location links to its line in a readable "
                   "slice; `erratlas explain DIR ID` tells one."]
_HANDLERS_HEADER = ["function", "location", "id", "owner", "form", "findings", "branches", "fingerprint"]


def _handler_row(handler: Handler, anchor: str, owner: str, findings: tuple[HandlerFinding, ...]) -> str:
    function = (handler.scope.scopePath or ("<module>",))[-1]
    cells = [f'<a id="{anchor}"></a>{cell(function, 80)}', _link(handler), f"`{cell(handler.id, 80)}`", owner,
             handler.form, ", ".join(findings) or "none", cell(branch_text(handler), 200),
             f"`{handler.fingerprint}`"]
    return "| " + " | ".join(cells) + " |"


# ---- the overview --------------------------------------------------------------------------------


def _overview(handlers: list[Handler], owner: dict[str, str], found: dict[str, tuple[HandlerFinding, ...]],
              errors: dict[str, Callsite],
              tests: list[str], product: list[str], flagged: int, listed: list[str]) -> list[str]:
    by_kind: dict[str, Counter[str]] = {kind: Counter() for kind in get_args(Disposition)}
    findings: dict[str, Counter[str]] = {finding: Counter() for finding in _FINDINGS}
    for handler in handlers:
        for branch in handler.branches:
            for disposition in branch.dispositions:
                by_kind[disposition.kind][owner[handler.id]] += 1
        for finding in found[handler.id]:
            findings[finding][owner[handler.id]] += 1
    handled = Counter(owner.values())
    lines = ["# Flow: where errors are caught", "", f"[Back to the index](../{INDEX_FILE}).", "",
             f"{_plural(len(handlers), 'handler')}; the field -> decision table: "
             + ", ".join(f"[{p.removeprefix(INDEX_DIRECTORY)}]({p.removeprefix(INDEX_DIRECTORY)})" for p in tests)
             + f"; Product handlers that swallow an error or lose its cause ({flagged}): "
             + ", ".join(f"[{p.removeprefix(INDEX_DIRECTORY)}]({p.removeprefix(INDEX_DIRECTORY)})" for p in product)
             + "; every handler, under its anchor: "
             + ", ".join(f"[{p.removeprefix(INDEX_DIRECTORY)}]({p.removeprefix(INDEX_DIRECTORY)})" for p in listed)
             + ".", "", "## Dispositions by owner", "",
             "Branches by what they do with the caught value (a branch counts once per disposition it has), "
             "and handlers by owner.", ""]
    lines += _table(["disposition", *OWNERS, "all"],
                    [[kind, *(str(c.get(o, 0)) for o in OWNERS), str(sum(c.values()))]
                     for kind, c in by_kind.items()]
                    + [["**handlers**", *(str(handled.get(o, 0)) for o in OWNERS), str(len(handlers))]])
    lines += ["## Findings by owner", "",
              "`swallowed-error`: a branch drops the error; `wrap-loses-cause`: a new error carries nothing of the "
              "caught one; `useless-catch`: the handler only rethrows what it caught.", ""]
    lines += _table(["finding", *OWNERS, "all"],
                    [[finding, *(str(c.get(o, 0)) for o in OWNERS), str(sum(c.values()))]
                     for finding, c in findings.items()])
    return lines + _chart(handlers, owner, errors)


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    return ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|",
            *("| " + " | ".join(row) + " |" for row in rows), ""]


def _chart(handlers: list[Handler], owner: dict[str, str], errors: dict[str, Callsite]) -> list[str]:
    """From what is caught (an inventoried error a handler catches directly, by the handler's
    owner and the error's constructor; a class a branch tests with `instanceof`) to what the
    handler (the branch) then does; the edges count handlers (branches)."""
    edges: Counter[tuple[str, str]] = Counter()
    for handler in handlers:
        whose = owner[handler.id]
        done = {d.kind for b in handler.branches for d in b.dispositions}
        for caught in handler.sources:
            if caught.via != "direct":
                continue  # the chart's edges are what a handler catches directly
            error = errors.get(caught.id)
            constructor = error.constructor if error is not None and error.constructor else "unknown"
            for kind in done:
                edges[(f"{whose} - {constructor}", kind)] += 1
        for branch in handler.branches:
            for test in atoms(branch.test) if branch.test is not None else ():
                if test.op == "instanceof" and test.field is None:
                    for disposition in branch.dispositions:
                        edges[(f"{whose} - instanceof {test.value}", disposition.kind)] += 1
    lines = ["## From what is caught to what is done", ""]
    if not edges:
        return [*lines, "No handler catches an inventoried error directly or tests the caught value's class."]
    weight: Counter[str] = Counter()
    for (source, _), count in edges.items():
        weight[source] += count
    kept = {s for s, _ in sorted(weight.items(), key=lambda kv: (-kv[1], kv[0]))[:_CHART_SOURCES]}
    merged: Counter[tuple[str, str]] = Counter()
    for (source, done_kind), count in edges.items():
        merged[(source if source in kept else "other", done_kind)] += count
    sources = sorted({s for s, _ in merged}, key=lambda s: (s == "other", -weight.get(s, 0), s))
    kinds: list[str] = [k for k in get_args(Disposition) if any(drawn == k for _, drawn in merged)]
    lines += ["Errors a handler catches directly, by the handler's owner and the error's constructor, and classes a "
              "branch tests with `instanceof`, to what the handler (the branch) then does; each edge counts "
              f"handlers (branches). At most {_CHART_SOURCES} sources are drawn, the rest are `other`.", "",
              "```mermaid", "flowchart LR"]
    names = {source: f"s{number}" for number, source in enumerate(sources)}
    for source in sources:
        lines.append(f'  {names[source]}["{_label(source)}"]')
    for target in kinds:
        lines.append(f'  d_{target.replace("-", "_")}(["{target}"])')
    order = lambda kv: (sources.index(kv[0][0]), kinds.index(kv[0][1]))  # noqa: E731
    for (source, target), count in sorted(merged.items(), key=order):
        lines.append(f'  {names[source]} -->|{count}| d_{target.replace("-", "_")}')
    return [*lines, "```", ""]


def _label(text: str) -> str:
    """A node's text that no Mermaid or markdown syntax reads: other characters become `_`."""
    return _UNSAFE_LABEL.sub("_", text)[:80]
