"""handlers.jsonl and the summary's `handlers` block: where a scan's errors are caught
and what each handler does (docs/reference.md, "Handler records")."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, get_args

import orjson

from analyzer.model import Disposition, JavaScriptHandlerForm, PythonHandlerForm
from analyzer.scandir.files import HANDLERS_FILE

if TYPE_CHECKING:
    from analyzer.scan import ScanResult


def handler_files(result: ScanResult) -> dict[str, bytes]:
    if result.handlers is None:
        return {}
    return {HANDLERS_FILE: b"".join(orjson.dumps(handler) + b"\n" for handler in result.handlers)}


def handler_summary(result: ScanResult) -> dict[str, object] | None:
    """Handlers by form, branches by disposition (a branch counts once per disposition it has),
    how many handlers test the caught value, and how many catch an inventoried error directly
    (`withSources`, `sources`) or through a call (`withCallSources`, `callSources`)."""
    from analyzer.facts import HANDLERS  # a scan's: the gate, which reads handlers.jsonl, never loads the facts

    if result.handlers is None:
        return None
    handlers = result.handlers
    found = [h for u in result.units if (h := u.extra(HANDLERS)) is not None]
    forms = Counter(h.form for h in handlers)
    kinds = get_args(PythonHandlerForm if result.language == "python" else JavaScriptHandlerForm)
    dispositions = Counter(d.kind for h in handlers for b in h.branches for d in b.dispositions)
    return {
        "count": len(handlers),
        "byForm": {form: forms.get(form, 0) for form in kinds},
        "branches": sum(len(h.branches) for h in handlers),
        "byDisposition": {kind: dispositions.get(kind, 0) for kind in get_args(Disposition)},
        "withTests": sum(1 for h in handlers if any(b.test is not None for b in h.branches)),
        "withSources": sum(1 for h in handlers if any(s.via == "direct" for s in h.sources)),
        "sources": sum(1 for h in handlers for s in h.sources if s.via == "direct"),
        "withCallSources": sum(1 for h in handlers if any(s.via == "call" for s in h.sources)),
        "callSources": sum(1 for h in handlers for s in h.sources if s.via == "call"),
        "sinks": [h.sink.to_json() for h in found if h.sink is not None],
        "leftOut": sum(h.left_out for h in found),
    }
