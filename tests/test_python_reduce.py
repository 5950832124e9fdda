"""Code that cannot hold a callsite is not parsed (`analyzer.python.reduce`), and the outputs
are byte-identical to a scan that parses every line (the `whole` oracle,
tests/support/python_oracles.py)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import FIXTURES, records, run, tree_bytes
from support import python_oracles, python_trees

from analyzer.python.reduce import Hits, reduce
from analyzer.python.rules import compile_rules
from analyzer.python.tokens import Tokens, logical_lines
from analyzer.python.vocabulary import input_vocabulary
from analyzer.rules import load_rules

PACKAGE = FIXTURES / "python" / "reduce" / "pkg"
#: standard-library packages that are not in the golden sample (tests/test_python_identity.py)
OTHER_STDLIB = ("ctypes", "idlelib", "sqlite3", "tkinter", "tomllib", "wsgiref", "xmlrpc", "zoneinfo")


def scan_both(tree: Path, tmp_path: Path) -> tuple[dict[str, bytes], dict[str, bytes]]:
    reduced, whole = tmp_path / "scan-reduced", tmp_path / "scan-whole"
    done = run("scan", tree, "--out", reduced, timeout=1800)
    assert done.returncode == 0, done.stderr
    done = python_oracles.run("whole", "scan", tree, "--out", whole)
    assert done.returncode == 0, done.stderr
    return tree_bytes(reduced), tree_bytes(whole)


def test_the_fixture_scans_to_the_same_bytes_reduced_or_whole(tmp_path: Path) -> None:
    reduced, whole = scan_both(PACKAGE, tmp_path)
    assert reduced == whole
    callees = {str(r["callee"]) for r in records(tmp_path / "scan-reduced", "error")}
    # TimeoutError is read as the builtin, as libcst reads it: `log`, looked up, is bound in a
    # replaced comprehension
    assert callees == {"TimeoutError", "ValueError", "KeyError", "RuntimeError"}


@pytest.mark.slow
def test_more_of_the_standard_library_scans_to_the_same_bytes_reduced_or_whole(tmp_path: Path) -> None:
    tree = tmp_path / "stdlib-other"
    tree.mkdir()
    for package in OTHER_STDLIB:
        if (python_trees.STDLIB / package).is_dir():
            shutil.copytree(python_trees.STDLIB / package, tree / package,
                            ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    reduced, whole = scan_both(tree, tmp_path)
    assert reduced == whole


def reduced_pieces(source: str) -> list[str]:
    vocabulary = input_vocabulary(compile_rules(load_rules("python")), [source.encode()])
    stream = Tokens(source)
    reduction = reduce(stream, logical_lines(stream), Hits(vocabulary.hits))
    return [source[start:end] for start, end in reduction.regions] if reduction else []


def test_bodies_and_values_without_callsites_are_replaced_and_the_rest_is_kept() -> None:
    source = (PACKAGE / "__init__.py").read_text()
    pieces = reduced_pieces(source)
    assert pieces[0].startswith('{"a": [1, 2, 3]')  # a module-level table
    assert "return [log for log in items if log]" in pieces  # helper's body
    assert any(p.startswith("total = a + b") for p in pieces)  # a nested def in a kept function
    kept = ["log.info", "raise TimeoutError", "logging.Formatter", "ValueError(value)", "KeyError", "yield",
            "warnings.warn", "global log", "self.logger = logging", "TimeoutError = TimeoutError",
            "log = logging.getLogger"]
    for text in kept:
        assert not any(text in piece for piece in pieces), text


def test_a_body_indented_with_tabs_is_kept() -> None:
    assert reduced_pieces("def f():\n\tx = [1, 2, 3]\n\treturn x\n") == ["[1, 2, 3]"]


def test_calls_that_may_reach_a_raise_are_kept() -> None:
    """A call of a function that raises is parsed anywhere (`self.m()` only through `self`), a
    call of one that calls it only in a `try` block (docs/performance.md)."""
    source = (
        "def fails(x):\n    raise ValueError(x)\n\n\ndef calls(x):\n    return fails(x)\n\n\n"
        "class C:\n    def check(self):\n        raise KeyError('k')\n\n"
        "    def run(self, other):\n        a = self.check()\n        b = other.check(2)\n"
        "        c = calls(1)\n        try:\n            d = calls(2)\n        except KeyError:\n            pass\n"
    )
    vocabulary = input_vocabulary(compile_rules(load_rules("python")), [source.encode()])
    assert (vocabulary.raising_functions, vocabulary.raising_methods) == ({"fails"}, {"check"})
    assert (vocabulary.calling_functions, vocabulary.calling_methods) == ({"calls"}, {"run"})
    stream = Tokens(source)
    hits = Hits(vocabulary.hits, vocabulary.raising_functions, vocabulary.raising_methods,
                vocabulary.calling_functions, vocabulary.calling_methods)
    reduction = reduce(stream, logical_lines(stream), hits)
    assert reduction is not None
    assert [source[start:end] for start, end in reduction.regions] == ["other.check(2)", "calls(1)"]
