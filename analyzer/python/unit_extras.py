"""The Python frontend's side table of a unit: what only this frontend produces (the unit as a
module of a package: its dotted name, vendoring, why it was not parsed), typed, and its entry
under the capability the shared stages ask for (`analyzer.facts.PACKAGE_MODULE`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from analyzer.facts import PACKAGE_MODULE, Capability
from analyzer.python.modules import Vendored


@dataclass(frozen=True, slots=True)
class PythonUnit:
    #: the dotted module name (`pip._internal.cli.main`)
    module: str
    #: the dependency it is vendored as (`pip/_vendor/rich/`), else None
    vendored: Vendored | None
    #: why the unit was not parsed (its syntax error, a nesting limit), None when it was
    parse_error: str | None

    def side_table(self) -> dict[Capability[Any], object]:
        return dict([PACKAGE_MODULE.entry(self)])
