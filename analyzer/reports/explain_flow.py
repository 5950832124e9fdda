"""`erratlas explain`'s flow: for a callsite, the handler that catches it (handlers.jsonl's
`sources`), what that handler does and the diagnostic lines it writes; for a handler
(`explain DIR h:...`), its place, parameter, branches with their tests and dispositions, sources
and owner (docs/reference.md, "Other verbs")."""

from __future__ import annotations

from pathlib import Path

from analyzer.errors import InputError
from analyzer.handler_model import (
    Handler,
    HandlerDisposition,
    HandlerOwnerRow,
    HandlerSource,
    MappedJavaScriptHandler,
)
from analyzer.model import Callsite
from analyzer.reports.evidence import evidence_lines
from analyzer.reports.explain import Section, Story, code_section, one_line
from analyzer.reports.flow import SOURCE_BODY_NOTE, suppressed_text, test_text
from analyzer.scandir.targets import nothing_named
from analyzer.summary_model import Summary


def is_handler_target(target: str) -> bool:
    return target.startswith(("h:", "fp1h:"))


def find_handler(handlers: list[Handler] | None, target: str, directory: Path) -> Handler:
    if handlers is None:
        raise InputError(directory, f"'{target}' names a handler, and this scan has no handlers.jsonl "
                                    "(its frontend does not look for handlers)")
    for handler in handlers:
        if target in (handler.id, handler.fingerprint):
            return handler
    raise InputError(directory, nothing_named("handler", target, (h.id for h in handlers)))


def disposition_text(disposition: HandlerDisposition) -> str:
    """`wrap (cause lost) by Error -> e:x@1`, `log at error -> d:x@2`, `swallow`."""
    text: str = disposition.kind
    if disposition.cause is not None:
        text += f" (cause {disposition.cause}{suppressed_text(disposition)})"
    if disposition.levels:
        text += " at " + ", ".join(disposition.levels)
    if disposition.callee is not None:
        text += f" by {disposition.callee}"
    if disposition.callsites:
        text += " -> " + ", ".join(disposition.callsites)
    return text


def _branches(handler: Handler, callsites: dict[str, Callsite]) -> list[tuple[str, str]]:
    """A fact per branch (its test, what it does), then a fact per callsite it makes or writes."""
    facts = []
    for number, branch in enumerate(handler.branches, start=1):
        test = test_text(branch.test) if branch.test is not None else "none (else, or the whole body)"
        facts.append((f"branch {number}", f"test {test}: " + "; ".join(disposition_text(d)
                                                                      for d in branch.dispositions)))
        for disposition in branch.dispositions:
            for identifier in disposition.callsites:
                made = callsites.get(identifier)
                if made is None:
                    continue
                what = "writes" if made.kind == "diagnostic" else "throws"
                level = f"{made.level}: " if made.kind == "diagnostic" else f"{made.constructor}: "
                facts.append((f"  {what}", one_line(f"{level}{made.message.comparisonKey} ({identifier})")))
    return facts


def flow_section(record: Callsite, handlers: list[Handler] | None, rows: list[HandlerOwnerRow] | None,
                 callsites: dict[str, Callsite]) -> Section:
    """The handlers that catch the callsite directly, and those whose dispositions make or write it."""
    section = Section("Flow")
    if handlers is None or rows is None:
        section.notes.append("This scan has no handlers.jsonl: its frontend does not look for handlers.")
        return section
    owners = {row.id: row for row in rows}
    catching = [h for h in handlers if any(source.id == record.id for source in h.sources)]
    making = [h for h in handlers if any(record.id in d.callsites for b in h.branches for d in b.dispositions)]
    if record.flow is not None:
        flow = record.flow
        section.facts.append(("fate", f"{flow.fate or 'not followed'}, "
                                      f"{'escapes its function' if flow.escapes else 'stays in its function'}"
                                      + (f", fields {', '.join(flow.fields)}" if flow.fields else "")))
    for handler in catching:
        source = next(source for source in handler.sources if source.id == record.id)
        section.facts.append(("caught by", _handler_line(handler, owners.get(handler.id)) + f", {_via(source)}"))
        section.facts += _branches(handler, callsites)
    for handler in making:
        kinds = sorted({d.kind for b in handler.branches for d in b.dispositions if record.id in d.callsites})
        section.facts.append(("made in", _handler_line(handler, owners.get(handler.id)) + f" ({', '.join(kinds)})"))
    if not catching:
        section.notes.append(f"No handler lists it among the errors it catches (handlers.jsonl `sources`); its "
                             f"consumer is `{record.consumer.role}`.")
    return section


def _via(source: HandlerSource) -> str:
    """How a source reaches its handler: `direct`, or `through a call, N hop(s)`."""
    hops = f"{source.hops} hop{'s' if source.hops > 1 else ''}"
    return source.via if source.via == "direct" else f"through a call, {hops}"


def _handler_line(handler: Handler, row: HandlerOwnerRow | None) -> str:
    owner = row.owner + (f" {row.package}" if row.package else "") if row is not None else "no owner row"
    return f"{handler.id} ({handler.form}, {handler.readable.file}:{handler.readable.line}, {owner})"


def handler_story(files: dict[str, bytes], summary: Summary, handler: Handler, row: HandlerOwnerRow | None,
                  callsites: dict[str, Callsite]) -> Story:
    """A handler's whole story: where, its parameter, its branches, its sources, its owner."""
    facts = [
        ("form", handler.form),
        ("param", handler.param if handler.param is not None else "none (absent, destructured or a named handler)"),
        ("function", f"{handler.scope.function} ({handler.scope.functionKind})"),
        ("scope", " > ".join(handler.scope.scopePath)),
        ("where", f"{handler.unit} @{handler.offset}..{handler.endOffset}, line {handler.line} "
                  f"column {handler.column}"),
        ("readable", f"{handler.readable.file}:{handler.readable.line}:{handler.readable.column}"),
    ]
    if handler.module is not None:
        module = handler.module
        facts.append(("module", f"{module.name} ({module.kind}) {module.id} {module.fingerprint}"))
    if handler.origin is not None:
        facts.append(("source map", f"{handler.origin.source}:{handler.origin.line}:{handler.origin.column}"))
    if isinstance(handler, MappedJavaScriptHandler) and handler.sourceBody is not None:
        facts.append(("original body", f"{handler.sourceBody}: the body is empty in the bundle, "
                                       f"{SOURCE_BODY_NOTE[handler.sourceBody]}"))
    if handler.copies.count > 1:
        facts.append(("copies", f"{handler.copies.count} handlers of this scan are the same code "
                                f"(group {handler.copies.group})"))
    found = handler.findings()
    facts.append(("findings", ", ".join(found) if found else "none"))
    sources = Section("Sources (errors it catches)")
    for source in handler.sources:
        error = callsites.get(source.id)
        said = f"{error.constructor}: {error.message.comparisonKey}" if error is not None else "not in the inventory"
        sources.facts.append((source.id, one_line(f"{_via(source)}, {said}")))
    if not handler.sources:
        sources.notes.append("No inventoried error is listed as caught by it.")
    return Story(
        heading=f"{handler.id}  {handler.fingerprint}",
        sections=[Section("Handler", facts), code_section(files, handler),
                  Section("Branches", _branches(handler, callsites)), sources, _owner(summary, row)],
    )


def _owner(summary: Summary, row: HandlerOwnerRow | None) -> Section:
    if row is None:
        return Section("Owner", notes=["No owner row: handler-owner-projection.jsonl does not list it."])
    section = Section(f"Owner: {row.owner}" + (f" {row.package}" if row.package else ""))
    if row.function:
        section.facts.append(("reviewed function", row.function))
    for line in evidence_lines(row.evidence):
        section.facts.append(("evidence", line))
    if row.owner == "Unresolved":
        section.notes.append("A handler is owned like the code it sits in: the function entry that owns the "
                             "callsites of its function, a module entry of its module, or a references entry "
                             "whose root reaches it (docs/owners.md, \"Handlers\"); "
                             + ("none of the allowlists' entries does." if summary.allowlists
                                else "no allowlist was applied to this scan."))
    return section
