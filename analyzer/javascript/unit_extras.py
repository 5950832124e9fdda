"""The JavaScript frontend's side table of a unit: what only this frontend produces (bundler
modules, source-map evidence, the reference graph, the callsites found, the handlers, the logger's detection), typed,
and its entries under the capabilities the shared stages ask for (`analyzer.facts`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from analyzer.facts import CALLSITES_FOUND, HANDLERS, LOGGER_DETECTION, REFERENCES, Capability, UnitHandlers
from analyzer.javascript.logger import Detection
from analyzer.javascript.modules import ModuleMap, UnitEvidence
from analyzer.javascript.references import UnitReferences


@dataclass(frozen=True, slots=True)
class JavaScriptUnit:
    #: bundler modules found by shape (esbuild/Bun wrappers, webpack, browserify)
    modules: ModuleMap
    #: the modules with source-map evidence, their rows before fingerprints
    evidence: UnitEvidence
    #: top-level items, the bindings they declare and reference, and the digests of the roots
    references: UnitReferences
    #: callsites found, by kind: inventoried or left out (`UnitFacts.left_out`)
    found: dict[str, int]
    #: catch clauses and promise handlers, the error callsites they catch directly, the error sink
    handlers: UnitHandlers
    #: the logger's detection: the chosen binding, why, and the runner-ups
    logger: Detection

    def side_table(self) -> dict[Capability[Any], object]:
        return dict([JAVASCRIPT_UNIT.entry(self), REFERENCES.entry(self.references), CALLSITES_FOUND.entry(self.found),
                     HANDLERS.entry(self.handlers), LOGGER_DETECTION.entry(self.logger)])


#: the whole side table, for the frontend's own later steps (the input's module rows)
JAVASCRIPT_UNIT: Capability[JavaScriptUnit] = Capability("javascript-unit")
