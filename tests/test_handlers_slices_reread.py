"""The statements of a slice read again for the sink's names (docs/slices.md, "In the driver"):
a function's or class's declaration whose name is none of them declares none of them in L's
scope (its body's declarations are its own) and is not read again; one whose bytes do not
spell its name in plain ASCII words is."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_slices_handlers import SINK, _halves

from analyzer.javascript.handlers.slices import _declares_other
from analyzer.javascript.syntax import new_parser

NAMES = frozenset({"report", "note"})


@pytest.mark.parametrize(("statement", "other"), [
    ("function z(){return report}", True),
    ("async function z(){return report}", True),
    ("async  function\n z (){return report}", True),
    ("function* z(){yield report}", True),
    ("async function *z(){yield report}", True),
    ("class z extends report{}", True),
    ("class $z_1{m(){return note}}", True),
    ("function report(e){}", False),
    ("async function note(){}", False),
    ("class report{}", False),
    ("function/**/z(){return report}", False),  # not read from bytes: read again
    ("function z\\u0061(){return report}", False),
    ("function z\u00e9(){return report}", False),
    ("class z/**/extends report{}", True),
])
def test_a_declarations_name_is_read_from_its_first_bytes(statement: str, other: bool) -> None:
    source = statement.encode()
    kind = new_parser().parse(source).root_node.named_children[0].type
    assert _declares_other(source, 0, kind, NAMES) is other


def test_no_other_statement_is_taken_for_a_declaration() -> None:
    for statement in ("var z=function report(){};", "let report;", "if(a){var report}", "z(report);"):
        source = statement.encode()
        kind = new_parser().parse(source).root_node.named_children[0].type
        assert not _declares_other(source, 0, kind, NAMES)


def test_functions_holding_the_sinks_name_inside_are_not_read_again(tmp_path: Path) -> None:
    """Slices holding the sink's name only inside functions and classes named otherwise: no
    statement of theirs is read again, and the outputs stay the whole tree's."""
    around = "".join(f"function z{at}(){{return report}};class c{at} extends note{{}};" for at in range(4))
    trace = _halves(tmp_path, (around + SINK + around).encode(), 7)
    again = [int(line.split("slices: unit.js: ", 1)[1].split()[0]) for line in trace.splitlines()
             if "read again for the sink's names" in line]
    assert sum(again) <= 2  # at most `function note` and `function report`
    assert "merged from slices" in trace
