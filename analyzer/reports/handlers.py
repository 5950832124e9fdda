"""The summary's `handlers` block: where a scan's errors are caught and what each handler does
(docs/reference.md, "Handler records"); `handlers.jsonl` is written with the other inventory files."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, get_args

from analyzer.model import Disposition, JavaScriptHandlerForm, PythonHandlerForm

if TYPE_CHECKING:
    from analyzer.scan import ScanResult


def handler_summary(result: ScanResult) -> dict[str, object] | None:
    """Handlers by form, branches by disposition (a branch counts once per disposition it has),
    how many handlers test the caught value, and how many catch an inventoried error directly
    (`withSources`, `sources`) or through a call (`withCallSources`, `callSources`)."""
    from analyzer.facts import HANDLERS  # a scan's: the gate, which reads handlers.jsonl, never loads the facts

    if result.handlers is None:
        return None
    handlers = result.handlers
    found = [h for u in result.units if (h := u.extra(HANDLERS)) is not None]
    forms = Counter([h.form for h in handlers])
    dispositions = Counter([d.kind for h in handlers for b in h.branches for d in b.dispositions])
    with_sources = direct = with_calls = called = 0
    for handler in handlers:  # the sources' four counts in one pass (most handlers have none)
        sources = handler.sources
        if sources:
            calls = sum(1 for s in sources if s.via == "call")
            direct += len(sources) - calls
            called += calls
            with_sources += calls < len(sources)
            with_calls += calls > 0
    kinds = get_args(PythonHandlerForm if result.language == "python" else JavaScriptHandlerForm)
    return {
        "count": len(handlers),
        "byForm": {form: forms.get(form, 0) for form in kinds},
        "branches": sum(len(h.branches) for h in handlers),
        "byDisposition": {kind: dispositions.get(kind, 0) for kind in get_args(Disposition)},
        "withTests": sum(1 for h in handlers if any(b.test is not None for b in h.branches)),
        "withSources": with_sources,
        "sources": direct,
        "withCallSources": with_calls,
        "callSources": called,
        "sinks": [h.sink.to_json() for h in found if h.sink is not None],
        "leftOut": sum(h.left_out for h in found),
    }
