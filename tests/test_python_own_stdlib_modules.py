"""An input that defines a module of the standard library's name (a vendored backport, or the
standard library itself): a name the rules' `external` list gives that module is resolved as the
input's own name, its class record, alias and bases, never as the standard library's class
(docs/reference.md, "Rules")."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import records, scan, write_tree

_TREE = {
    # the input's own configparser: a backport of the module, smaller than the standard library's
    "configparser.py": '''class Error(Exception):
    pass


class NoSectionError(Error):
    def __init__(self, section):
        Error.__init__(self, section)
        self.section = section
''',
    "dbm/__init__.py": "",
    "dbm/dumb.py": '''error = OSError


def open_file(path):
    raise error("cannot open %r" % path)
''',
    # the input's own xml.parsers.expat re-exports a module outside the input, as the standard
    # library's does: its listed names resolve through the star import
    "xml/__init__.py": "",
    "xml/parsers/__init__.py": "",
    "xml/parsers/expat.py": "from pyexpat import *\n",
    "app/__init__.py": "",
    "app/reading.py": '''import configparser


def section(parser, name):
    try:
        raise configparser.NoSectionError(name)
    except configparser.Error:
        return None


def duplicate(parser, name):
    raise configparser.DuplicateSectionError(name)
''',
    "app/parsing.py": '''from xml.parsers import expat


def parse(data):
    raise expat.ExpatError(data)
''',
}


@pytest.fixture(scope="module")
def scanned(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tree = tmp_path_factory.mktemp("own-stdlib-modules") / "input"
    write_tree(tree, _TREE)
    out = tree.parent / "scan"
    scan(tree, out)
    return out


@pytest.fixture(scope="module")
def errors(scanned: Path) -> dict[str, dict[str, Any]]:
    return {str(r["id"]): r for r in records(scanned, "error")}


def test_a_raise_of_the_inputs_class_has_the_inputs_constructor(errors: dict[str, dict[str, Any]]) -> None:
    # `configparser.DuplicateSectionError` is listed, but the input's configparser has no such
    # class: nothing is guessed, so it is no error callsite; `expat.ExpatError` is the input's
    # name for a class of `pyexpat`, a module the input does not define
    told = sorted((e["unit"], e["line"], e["constructor"], e["callee"]) for e in errors.values())
    assert told == [
        ("app/parsing.py", 5, "pyexpat.ExpatError", "expat.ExpatError"),
        ("app/reading.py", 6, "configparser.NoSectionError", "configparser.NoSectionError"),
        ("dbm/dumb.py", 5, "OSError", "error"),
    ]


def test_a_module_level_alias_of_the_input_resolves_to_its_target(errors: dict[str, dict[str, Any]]) -> None:
    [raised] = [e for e in errors.values() if e["unit"] == "dbm/dumb.py"]
    assert raised["constructor"] == "OSError"  # not the listed `dbm.dumb.error`


def test_the_inputs_classes_point_at_their_bases(scanned: Path) -> None:
    found = [json.loads(line) for line in (scanned / "error-classes.jsonl").read_text().splitlines()]
    assert sorted((r["name"], r["parent"], r["rootConstructor"]) for r in found) == [
        ("configparser.Error", "Exception", "Exception"),
        ("configparser.NoSectionError", "Error", "Exception"),  # the base as written
    ]


def test_a_clause_naming_the_inputs_class_resolves_and_catches(scanned: Path,
                                                               errors: dict[str, dict[str, Any]]) -> None:
    [handler] = [json.loads(line) for line in (scanned / "handlers.jsonl").read_text().splitlines()]
    assert handler["catches"] == [{"written": "configparser.Error", "resolved": "configparser.Error"}]
    assert [(s["via"], errors[s["id"]]["constructor"]) for s in handler["sources"]] == [
        ("direct", "configparser.NoSectionError")]
    [source] = handler["sources"]
    assert errors[source["id"]]["flow"] == {"fate": "thrown", "handler": handler["id"], "escapes": False, "fields": []}
