"""The handlers of one JavaScript unit: `catch` clauses, `.catch(fn)` and `.then(ok, fn)`'s
rejection argument, split into branches on tests of the caught value, each with what it does
(docs/reference.md, "Handler records"). `find` finds them, `body` reads a body once, `branches`
splits it, `dispositions`, `flow` (each error's fate) and `sources` (errors caught through a
call)."""

from __future__ import annotations

from analyzer.javascript.handlers.find import MAX_NESTED_TRIES, find_handlers
from analyzer.javascript.handlers.flow import flow_of
from analyzer.javascript.handlers.sources import called_sources

__all__ = ["MAX_NESTED_TRIES", "called_sources", "find_handlers", "flow_of"]
