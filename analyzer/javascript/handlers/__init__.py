"""The handlers of one JavaScript unit: `catch` clauses, `.catch(fn)` and the rejection argument of
`.then(ok, fn)`, each split into branches on tests of the caught value, each branch with what it
does with it (docs/reference.md, "Handler records").

`find` finds them and reads each body once (`body`), `branches` splits a body on its tests of
the caught value, `dispositions` says what each branch does, `flow` follows each error
callsite's error in its function (its fate, the handler that catches it directly), `sources`
finds the errors a handler catches through a call made in its protected block.
"""

from __future__ import annotations

from analyzer.javascript.handlers.find import MAX_NESTED_TRIES, find_handlers
from analyzer.javascript.handlers.flow import flow_of
from analyzer.javascript.handlers.sources import called_sources

__all__ = ["MAX_NESTED_TRIES", "called_sources", "find_handlers", "flow_of"]
