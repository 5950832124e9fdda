"""The handler records and what is made of them (analyzer/scan.py, `Handler.findings`,
analyzer/owners/handlers.py, analyzer/reports/handlers.py) give what the oracle kept at 429e5c6
(tests/support/handler_records_429e5c6.py) gives: the same records, findings, owner rows,
`handlers.jsonl` byte for byte and summary block, on our fixtures (JavaScript with and without a
source map, an allowlist with every level, Python trees), on generated branches and on real
releases."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import get_args

import pytest
from conftest import FIXTURES
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support import handler_records_429e5c6 as oracle
from support import identity_429e5c6 as identity_oracle
from support import npm_cache
from support.in_child import in_a_child

from analyzer import identity
from analyzer.facts import HANDLERS, REFERENCES
from analyzer.handler_model import (
    BranchTest,
    Handler,
    HandlerBranch,
    HandlerDisposition,
    PythonBranch,
    PythonDisposition,
    PythonHandler,
)
from analyzer.identity import IdentityInput
from analyzer.model import CauseKept, Disposition
from analyzer.owners.allowlist import load_allowlists
from analyzer.owners.handlers import project_handlers
from analyzer.owners.projection import project
from analyzer.owners.references import ReferenceGraph
from analyzer.parallel.executor import Inline
from analyzer.reports.handlers import handler_summary
from analyzer.reports.inventory import inventory_files
from analyzer.scan import ScanResult, _handlers, _places, scan, scan_input
from analyzer.scandir.files import HANDLERS_FILE
from analyzer.scandir.load import in_bundle_order


def _same_identities(result: ScanResult) -> None:
    """Every identity of the scan (callsites, handlers, functions, bindings) as the oracle's."""
    sites = [site.identity for unit in result.units for site in unit.sites]
    handlers = [h.identity for unit in result.units if (found := unit.extra(HANDLERS)) for h in found.handlers]
    assert identity.callsite_identities(sites) == identity_oracle.callsite_identities(sites)
    assert identity.callsite_fingerprints(sites) == identity_oracle.callsite_fingerprints(sites)
    assert identity.handler_identities(handlers) == identity_oracle.handler_identities(handlers)
    functions = sorted({(unit.unit.name, site.function_offset): site.function_digest for unit in result.units
                        for site in unit.sites if site.function_digest is not None
                        and site.function_offset is not None}.items())
    keys, digests = [key for key, _ in functions], [digest for _, digest in functions]
    assert identity.function_identities(digests, keys) == identity_oracle.function_identities(digests, keys)  # type: ignore[arg-type]
    bindings = sorted(((unit.unit.name, position, binding), digest) for unit in result.units
                      if (graph := unit.extra(REFERENCES)) is not None
                      for (position, binding), digest in graph.binding_digests.items())
    order, digests = [(name, position, 0) for (name, position, _), _ in bindings], [d for _, d in bindings]
    assert identity.binding_identities(digests, order) == identity_oracle.binding_identities(digests, order)


def _same_as_the_oracle(path: Path, allowlists: list[Path] | None = None) -> ScanResult:
    result = scan(scan_input(path), None, Inline())
    _same_identities(result)
    assert result.modules is not None and result.handlers
    places = _places(result.units, result.readable)
    made = _handlers(result.units, places, result.modules, result.callsites)
    assert made == oracle.handler_records(result.units, places, result.modules, result.callsites)
    assert [type(h) for h in made] == [type(h) for h in result.handlers]
    handlers = result.handlers
    assert [h.findings() for h in handlers] == [oracle.findings(h) for h in handlers]
    loaded = load_allowlists(allowlists or [])
    graph = ReferenceGraph(result.references) if result.references else None
    projection = project(in_bundle_order(result.callsites), loaded, graph)
    rows = project_handlers(handlers, loaded, projection, graph)
    assert rows == oracle.project_handlers(handlers, loaded, projection, graph)
    assert {name: data for name, data in inventory_files(result).items() if name == HANDLERS_FILE} \
        == oracle.handler_files(result)
    assert handler_summary(result) == oracle.handler_summary(result)
    return result


@pytest.mark.parametrize("path", [
    FIXTURES / "flow" / "built" / "flow.min.js", FIXTURES / "flow" / "built" / "fates.min.js",
    FIXTURES / "demo" / "demo.min.js", FIXTURES / "demo" / "demo.webpack.min.js",
    FIXTURES / "python-handlers" / "handled", FIXTURES / "python-handlers" / "called",
    FIXTURES / "python-handlers" / "fates",
], ids=lambda path: f"{path.parent.name}/{path.name}")
def test_the_fixtures(path: Path) -> None:
    _same_as_the_oracle(path)


def test_an_allowlist_that_owns_handlers_by_function_module_and_references() -> None:
    result = _same_as_the_oracle(FIXTURES / "flow-gate" / "head" / "app.js", [FIXTURES / "flow-gate" / "product.toml"])
    loaded = load_allowlists([FIXTURES / "flow-gate" / "product.toml"])
    graph = ReferenceGraph(result.references)
    projection = project(in_bundle_order(result.callsites), loaded, graph)
    owned = [row for row in project_handlers(result.handlers or [], loaded, projection, graph) if row.evidence]
    assert owned, "the fixture's allowlist owns a handler"


_WORDS = st.sampled_from(["error", "diagnostic", "handler", "throw", "new", "a", ""])
_INPUT = st.builds(
    IdentityInput, _WORDS, _WORDS, st.sampled_from(["", "x", "code:E1", "ä" * 300]), _WORDS,
    st.sampled_from([b"", b"\x00" * 16, b"\x01" * 16, b"a" * 300]),
    st.tuples(st.sampled_from(["u", "v"]), st.integers(0, 3)),
    st.tuples(st.sampled_from(["u", "v"]), st.integers(0, 5)))


@settings(max_examples=300, deadline=None)
@given(inputs=st.lists(_INPUT, max_size=40))
def test_identities_of_generated_inputs(inputs: list[IdentityInput]) -> None:
    """Equal inputs in one anchor and across it, orders tied and not: the oracle's identities."""
    assert identity.callsite_identities(inputs) == identity_oracle.callsite_identities(inputs)
    assert identity.handler_identities(inputs) == identity_oracle.handler_identities(inputs)
    digests = [i.anchor for i in inputs]
    order = [i.order for i in inputs]
    assert identity.function_identities(digests, order) == identity_oracle.function_identities(digests, order)
    bindings = [(*i.order, len(i.kind)) for i in inputs]
    assert identity.binding_identities(digests, bindings) == identity_oracle.binding_identities(digests, bindings)


_TEMPLATES: dict[str, Handler] = {}


def _template(python: bool) -> Handler:
    """A handler of a fixture, for generated branches to replace."""
    key = "python" if python else "javascript"
    if key not in _TEMPLATES:
        path = FIXTURES / "python-handlers" / "handled" if python else FIXTURES / "flow" / "built" / "flow.min.js"
        handlers = scan(scan_input(path), None, Inline()).handlers
        assert handlers
        _TEMPLATES[key] = handlers[0]
    return _TEMPLATES[key]


_DISPOSITION = st.tuples(st.sampled_from(get_args(Disposition)), st.sampled_from((None, *get_args(CauseKept))),
                         st.sampled_from((None, False, True)))
_BRANCHES = st.lists(st.tuples(st.booleans(), st.lists(_DISPOSITION, min_size=1, max_size=4)), min_size=1, max_size=4)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(branches=_BRANCHES, python=st.booleans(), lone=st.booleans())
def test_findings_of_generated_branches(branches: list[tuple[bool, list[tuple[str, str | None, bool | None]]]],
                                        python: bool, lone: bool) -> None:
    test = BranchTest("code", "===", "ENOENT")
    if python:
        made: tuple[HandlerBranch, ...] = tuple(
            PythonBranch(test if tested else None, tuple(PythonDisposition(kind, cause, (), (), None, suppressed)
                                                         for kind, cause, suppressed in kinds))  # type: ignore[arg-type]
            for tested, kinds in branches)
    else:
        made = tuple(HandlerBranch(test if tested else None, tuple(HandlerDisposition(kind, cause, (), (), None)
                                                                   for kind, cause, _ in kinds))  # type: ignore[arg-type]
                     for tested, kinds in branches)
    handler = dataclasses.replace(_template(python), branches=made, loneRethrow=lone)  # type: ignore[call-arg]
    assert isinstance(handler, PythonHandler) == python
    assert handler.findings() == oracle.findings(handler)


@pytest.mark.network
@pytest.mark.slow
@pytest.mark.parametrize(("package", "version"), [
    ("@anthropic-ai/claude-code", "2.1.100"), ("@anthropic-ai/claude-code-linux-x64", "2.1.235")])
def test_a_real_release(package: str, version: str) -> None:
    path = npm_cache.main_file(package, version)  # fetched here: the cache is the test process's
    in_a_child(lambda: _same_as_the_oracle(path))  # its 1.4 GB peak not left in the test process
