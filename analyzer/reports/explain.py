"""`erratlas explain DIR ID|FINGERPRINT`: one callsite's whole story, as data the CLI prints.

The record and its message, the readable code around it, its owner with the entry and
evidence (or why it is Unresolved: no entry, a drifted one, stale entries that expect its
message), the suggestions that touch it, and the command that would own it. Nothing here
prints: the CLI renders a `Story` with rich on a terminal and as plain text otherwise.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass, field
from pathlib import Path

from analyzer.errors import InputError, visible
from analyzer.handler_model import Handler
from analyzer.model import Callsite, ProjectionRow, Suggestion
from analyzer.reports.evidence import evidence_lines
from analyzer.scandir.files import SUGGESTION_SCHEMA, SUGGESTIONS_FILE
from analyzer.scandir.load import records_of
from analyzer.scandir.targets import nothing_named
from analyzer.summary_model import Summary

_CONTEXT_LINES = 3
#: characters of a readable line shown around the callsite's column
_WINDOW = 150
_OWNER_FIELDS = ("catchOwner", "retryOwner", "toolResultOwner", "userSurfaceOwner")


@dataclass(frozen=True, slots=True)
class CodeLine:
    number: int
    text: str
    #: the callsite's line, and where in `text` the callsite begins (0-based), else None
    at: int | None


@dataclass
class Section:
    title: str
    #: (label, value) facts
    facts: list[tuple[str, str]] = field(default_factory=list)
    #: free lines after the facts
    notes: list[str] = field(default_factory=list)
    code: list[CodeLine] = field(default_factory=list)
    #: shell commands
    commands: list[str] = field(default_factory=list)


@dataclass
class Story:
    heading: str
    sections: list[Section]


def find_record(records: list[Callsite], target: str, directory: Path) -> Callsite:
    for record in records:
        if target in (record.id, record.fingerprint):
            return record
    holders = {
        "function": [r for r in records if r.functionFingerprint == target],
        "module": [r for r in records if r.module is not None and r.module.fingerprint == target],
    }
    for what, found in holders.items():
        if found:
            ids = ", ".join(r.id for r in found[:5]) + (" …" if len(found) > 5 else "")
            raise InputError(directory, f"'{target}' is the fingerprint of a {what} holding {len(found)} callsites "
                                        f"({ids}); explain one of them by id or fp1: fingerprint")
    raise InputError(directory, nothing_named("callsite", target, (r.id for r in records)))


def explain(
    directory: Path, files: dict[str, bytes], summary: Summary, record: Callsite, row: ProjectionRow,
    corpus: Section | None = None, flow: Section | None = None,
) -> Story:
    """`corpus`: what `explain --corpus` found (analyzer/owners/corpus/nearest.py), told after the owner;
    `flow`: the handlers that catch it or make it (`flow_section`), told after the code."""
    suggestions = _suggestions(files)
    return Story(
        heading=f"{record.id}  {record.fingerprint}",
        sections=[
            _callsite(record),
            code_section(files, record),
            *([flow] if flow is not None else []),
            _owner(summary, record, row),
            *([corpus] if corpus is not None else []),
            _suggested(record, suggestions),
            _commands(directory, summary, record, row, suggestions),
        ],
    )


def _callsite(record: Callsite) -> Section:
    message = record.message
    what = (f"{record.constructor} ({record.form})" if record.kind == "error"
            else f"{record.callee} at level {record.level} ({record.levelSource})")
    facts = [
        ("kind", (f"{record.kind}: {what}, callee `{record.callee}` ({record.calleeRole}), "
                  f"{record.argCount} argument(s)")),
        ("message", one_line(f"{message.shape}: "
                              f"{message.text if message.text is not None else message.template or '—'}")),
        ("comparison key", one_line(message.comparisonKey)),
        ("consumer", f"{record.consumer.role} ({record.consumer.node}.{record.consumer.relation})"),
        ("function", f"{record.scope.function or 'none'} ({record.scope.functionKind})"),
        ("scope", " > ".join(record.scope.scopePath)),
        ("where", (f"{record.unit} @{record.offset}..{record.endOffset}, line {record.line} "
                   f"column {record.column}")),
        ("readable", f"{record.readable.file}:{record.readable.line}:{record.readable.column}"),
    ]
    module = record.module
    if module is not None:
        facts.append(("module", f"{module.name} ({module.kind}) {module.id} {module.fingerprint}"))
    if record.origin is not None:
        origin = record.origin
        facts.append(("source map", f"{origin.source}:{origin.line}:{origin.column}"))
    context = record.context
    flags = [name for name in ("inTry", "inCatch", "inErrorRegion") if getattr(context, name)]
    if flags:
        facts.append(("context", ", ".join(flags) + (f" (catch parameter {context.catchParam})"
                                                       if context.catchParam else "")))
    facts.append(("function fingerprint", record.functionFingerprint or "none: outside every function"))
    if record.copies.count > 1:
        facts.append(("copies", (f"{record.copies.count} callsites of this scan are the same code "
                                 f"(group {record.copies.group})")))
    return Section("Callsite", facts)


def one_line(text: str) -> str:
    return visible(text)


def visible_story(story: Story) -> Story:
    """The story with every text as a terminal shows it as written (`errors.visible`): the code
    of a hostile bundle may hold escape sequences, carriage returns or bidirectional overrides."""
    def line(code: CodeLine) -> CodeLine:
        if code.at is None:
            return CodeLine(code.number, visible(code.text), None)
        before = visible(code.text[:code.at])
        return CodeLine(code.number, before + visible(code.text[code.at:]), len(before))

    return Story(visible(story.heading), [
        Section(visible(s.title), [(visible(label), visible(value)) for label, value in s.facts],
                [visible(n) for n in s.notes], [line(c) for c in s.code], [visible(c) for c in s.commands])
        for s in story.sections])


def code_section(files: dict[str, bytes], record: Callsite | Handler) -> Section:
    place = record.readable
    data = files.get(place.file)
    if data is None:
        return Section("Readable code", notes=[f"{place.file} is not in the scan directory"])
    lines = data.decode("utf-8", "replace").split("\n")
    target = place.line - 1
    column = place.column - 1
    start = max(0, column - _WINDOW // 3)
    code = []
    for number in range(max(0, target - _CONTEXT_LINES), min(len(lines), target + _CONTEXT_LINES + 1)):
        text = lines[number]
        shown = text[start:start + _WINDOW]
        if start > 0 and text[:start]:
            shown = "…" + shown
        if len(text) > start + _WINDOW:
            shown += "…"
        at = (column - start + (1 if start > 0 and text[:start] else 0)) if number == target else None
        code.append(CodeLine(number + 1, shown, at))
    return Section(f"Readable code ({place.file})", code=code)


def _owner(summary: Summary, record: Callsite, row: ProjectionRow) -> Section:
    section = Section(f"Owner: {row.owner}" + (f" {row.package}" if row.package else ""))
    if row.owner != "Unresolved":
        if row.function:
            section.facts.append(("reviewed function", row.function))
        for line in evidence_lines(row.evidence):
            section.facts.append(("evidence", line))
    for name in _OWNER_FIELDS:
        if getattr(row, name) is not None:
            section.facts.append((name, str(getattr(row, name))))
    if row.owner == "Unresolved":
        section.notes += _why_unresolved(summary, record)
    return section


def _why_unresolved(summary: Summary, record: Callsite) -> list[str]:
    allowlists = summary.allowlists
    if not allowlists:
        return ["No allowlist was applied to this scan: every callsite is Unresolved."]
    module = record.module
    keys = [f"callsite {record.fingerprint}", f"function {record.functionFingerprint or '(module level)'}",
            f"module {module.fingerprint if module else '(outside every module)'}"]
    names = ", ".join(a.path for a in allowlists)
    notes = [f"No entry of {names} owns it: none matches its " + ", ".join(keys) + "."]
    for drifted in summary.drifted:
        if drifted.callsite == record.id:
            notes.append(f"Drifted entry {drifted.entry} ({drifted.level} {drifted.fingerprint}) matches it but "
                         f"expects {drifted.expect!r}; the message is now {drifted.found!r}, so it does not apply.")
    key = record.message.comparisonKey
    for entry in summary.stale:
        if entry.expect == key:
            owner = entry.owner + (f" {entry.package}" if entry.package else "")
            notes.append(f"Stale entry {entry.entry} ({entry.level} {entry.fingerprint}, {owner}) matches "
                         f"nothing in this scan but expects this callsite's message: the code around it changed "
                         f"since the review; review it again and replace the entry.")
    if record.copies.count > 1:
        notes.append(f"{record.copies.count} callsites of this scan are the same code: a callsite entry names "
                     f"one copy only by its place among them.")
    return notes


def _suggestions(files: dict[str, bytes]) -> list[Suggestion] | None:
    data = files.get(SUGGESTIONS_FILE)
    if data is None:
        return None
    rows = records_of(data, SUGGESTIONS_FILE, Suggestion, SUGGESTION_SCHEMA, "an erratlas suggestion")
    for number, row in enumerate(rows, start=1):
        if len(row.match) != 1:  # a suggestion names one level and its fingerprint
            raise InputError(f"{SUGGESTIONS_FILE}:{number}", f"not the shape erratlas writes: match holds "
                                                             f"{len(row.match)} entries, not 1")
    return rows


def _touching(record: Callsite, suggestions: list[Suggestion]) -> list[Suggestion]:
    mine = {("callsite", record.fingerprint), ("function", record.functionFingerprint),
            ("module", record.module.fingerprint if record.module is not None else None)}
    return [s for s in suggestions
            if any((level, fingerprint) in mine for level, fingerprint in s.match.items()) or record.id in s.exampleIds]


def _suggested(record: Callsite, suggestions: list[Suggestion] | None) -> Section:
    section = Section("Suggestions")
    if suggestions is None:
        section.notes.append("This scan has no suggestions.jsonl (`erratlas suggest DIR` writes it).")
        return section
    touching = _touching(record, suggestions)
    if not touching:
        section.notes.append("No suggestion touches this callsite.")
    for suggestion in touching:
        (level, fingerprint), = suggestion.match.items()
        owner = (suggestion.owner or "no owner") + (f" {suggestion.package}" if suggestion.package else "")
        section.facts.append((suggestion.id, (f"{owner}, {suggestion.confidence}, {level} {fingerprint}, "
                                              f"{suggestion.callsites} callsite(s)")))
        for evidence in suggestion.evidence:
            section.notes.append(f"{suggestion.id}: {evidence.kind}: {evidence.detail}")
    return section


def _commands(
    directory: Path, summary: Summary, record: Callsite, row: ProjectionRow,
    suggestions: list[Suggestion] | None,
) -> Section:
    stem = Path(summary.bundle.name).stem or "bundle"
    allowlist = summary.allowlists[0].path if summary.allowlists else f"allowlists/{stem}.toml"
    where = shlex.quote(str(directory))
    title = "Command that would own it" if row.owner == "Unresolved" else "Commands to change its owner"
    section = Section(title)
    for suggestion in _touching(record, suggestions or []):
        section.commands.append(f"erratlas accept {where} --allowlist {shlex.quote(allowlist)} --reviewer NAME "
                                f"--id {shlex.quote(suggestion.id)}")
    base = (f"erratlas allow {where} {shlex.quote(record.id)} --allowlist {shlex.quote(allowlist)} "
            f"--owner Dependency --package PACKAGE --name FUNCTION --reason 'WHAT YOU CHECKED' --reviewer NAME")
    section.commands.append(base)
    if record.functionFingerprint is not None:
        section.commands.append(base + " --function")
    section.commands.append(f"erratlas project {where} --allowlist {shlex.quote(allowlist)}")
    section.notes.append("Use --owner Product (and no --package) for the product's own code; --function covers every "
                         "callsite of its function.")
    return section


def plain(story: Story) -> str:
    """The story as plain text (piped output)."""
    lines = [story.heading, "=" * len(story.heading)]
    for section in story.sections:
        lines += ["", section.title, "-" * len(section.title)]
        width = max((len(label) for label, _ in section.facts), default=0)
        lines += [f"{label.ljust(width)}  {value}" for label, value in section.facts]
        for code in section.code:
            marker = ">" if code.at is not None else " "
            lines.append(f"{marker} {code.number:>7} | {code.text}")
            if code.at is not None:
                lines.append(" " * (12 + code.at) + "^")
        lines += section.notes
        lines += [f"$ {command}" for command in section.commands]
    return "\n".join(lines) + "\n"
