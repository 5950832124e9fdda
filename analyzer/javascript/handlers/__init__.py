"""The handlers of one JavaScript unit: `catch` clauses, `.catch(fn)` and the rejection argument of
`.then(ok, fn)`, each split into branches on tests of the caught value, each branch with what it
does with it (docs/reference.md, "Handler records").

`find` finds them and reads each body once (`body`), `branches` splits a body on its tests of
the caught value, `dispositions` says what each branch does, `sources` finds the error
callsites a handler catches directly, from the callsites' side.
"""

from __future__ import annotations

from analyzer.javascript.handlers.find import MAX_NESTED_TRIES, find_handlers
from analyzer.javascript.handlers.sources import direct_handler

__all__ = ["MAX_NESTED_TRIES", "direct_handler", "find_handlers"]
