"""The Python frontend's side table of a unit: what only this frontend produces (the unit as a
module of a package: its dotted name, vendoring, why it was not parsed; its logging bindings; its `except` clauses),
typed, and its entries under the capabilities the shared stages ask for (`analyzer.facts`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from analyzer.facts import HANDLERS, LOGGING_BINDINGS, PACKAGE_MODULE, Capability, UnitHandlers
from analyzer.python.modules import Vendored


@dataclass(frozen=True, slots=True)
class PythonUnit:
    #: the dotted module name (`pip._internal.cli.main`)
    module: str
    #: the dependency it is vendored as (`pip/_vendor/rich/`), else None
    vendored: Vendored | None
    #: why the unit was not parsed (its syntax error, a nesting limit), None when it was
    parse_error: str | None
    #: its logging bindings, sorted: module-level names (`pkg.mod.logger`), `Class.attr (attribute)`
    logging_bindings: tuple[str, ...]
    #: its `except` clauses and the error callsites they catch directly; None when not parsed
    handlers: UnitHandlers | None = None

    def side_table(self) -> dict[Capability[Any], object]:
        entries = [PACKAGE_MODULE.entry(self), LOGGING_BINDINGS.entry(self.logging_bindings)]
        if self.handlers is not None:
            entries.append(HANDLERS.entry(self.handlers))
        return dict(entries)
