"""Which class a Python `except` clause names (docs/reference.md, "Handler records", Python:
`catches`) when the module binds a builtin exception's name: bound under a condition (`try`, `if`)
or by a function's `global`, the read finds the binding or the builtin, so the class stays
unresolved; bound unconditionally, or to the builtin itself, it resolves. Driven through
`erratlas scan` on a tree written here."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import scan, write_tree

_COMPAT = """import sys

try:
    WindowsError
except NameError:
    WindowsError = Exception

if sys.version_info < (3, 5):
    RecursionError = RuntimeError

try:
    BrokenPipeError = BrokenPipeError
except NameError:
    class BrokenPipeError(Exception):
        pass

try:
    ConnectionError = ConnectionError
except NameError:
    pass

TimeoutError = OSError


def install():
    global EOFError
    EOFError = ValueError


def run(f):
    try:
        f()
    except WindowsError:
        pass
    try:
        f()
    except RecursionError:
        pass
    try:
        f()
    except BrokenPipeError:
        pass
    try:
        f()
    except ConnectionError:
        pass
    try:
        f()
    except TimeoutError:
        pass
    try:
        f()
    except EOFError:
        pass
"""
_USER = """from pkg.compat import BrokenPipeError, WindowsError


def send(f):
    try:
        f()
    except (BrokenPipeError, WindowsError, KeyError):
        pass
"""

_BACKPORT = """class BaseExceptionGroup(BaseException):
    pass
"""
# the `exceptiongroup` backport's way: its own class imported only where the builtin is missing
_GROUPS = """import sys

if sys.version_info < (3, 11):
    from pkg.backport import BaseExceptionGroup


def run(f):
    try:
        f()
    except BaseExceptionGroup:
        pass


def local(f):
    from pkg.backport import BaseExceptionGroup

    try:
        f()
    except BaseExceptionGroup:
        pass
"""
# a type parameter: the module is read through libcst's scope analysis
_TYPED = _GROUPS + """

def first[T](items: list[T]) -> T:
    return items[0]
"""


@pytest.fixture(scope="module")
def catches(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, int], list[dict[str, str | None]]]:
    root = tmp_path_factory.mktemp("catches")
    tree = write_tree(root / "tree", {"pkg/__init__.py": "", "pkg/compat.py": _COMPAT, "pkg/user.py": _USER,
                                       "pkg/backport.py": _BACKPORT, "pkg/groups.py": _GROUPS, "pkg/typed.py": _TYPED})
    out = root / "scan"
    scan(tree, out, "--jobs", 1)
    found = {}
    for line in (out / "handlers.jsonl").read_text().splitlines():
        handler = json.loads(line)
        found[(Path(handler["unit"]).name, handler["line"])] = handler["catches"]
    return found


def _resolved(catches: dict[tuple[str, int], list[dict[str, str | None]]], unit: str) -> dict[str, str | None]:
    return {c["written"]: c["resolved"] for (name, _), items in catches.items() if name == unit for c in items}


def test_a_builtin_name_bound_under_a_condition_stays_unresolved(catches: dict) -> None:
    told = _resolved(catches, "compat.py")
    assert told["WindowsError"] is None and told["RecursionError"] is None and told["BrokenPipeError"] is None
    assert told["EOFError"] is None  # bound by a function's `global`: only once it is called


def test_a_builtin_name_bound_to_itself_or_unconditionally_resolves(catches: dict) -> None:
    told = _resolved(catches, "compat.py")
    assert told["ConnectionError"] == "ConnectionError" and told["TimeoutError"] == "OSError"


def test_an_import_of_a_conditionally_bound_builtin_name_stays_unresolved(catches: dict) -> None:
    assert _resolved(catches, "user.py") == {"BrokenPipeError": None, "WindowsError": None, "KeyError": "KeyError"}


@pytest.mark.parametrize("unit", ["groups.py", "typed.py"])
def test_a_builtin_name_imported_under_a_condition_stays_unresolved(catches: dict, unit: str) -> None:
    told = {line: items[0]["resolved"] for (name, line), items in catches.items() if name == unit}
    assert told == {10: None, 19: "pkg.backport.BaseExceptionGroup"}  # a function's own import decides
