"""Which binding the caught value's name is in a Python `except` clause (docs/reference.md, "Which
name is the caught value"): a nested scope that binds the name again (a lambda's parameter, a
comprehension's target) reads its own there; what the enclosing scope evaluates of it (a default,
a comprehension's first iterable) and a closure that does not bind it read the caught value.
Driven through `erratlas scan` on a tree written here."""

from __future__ import annotations

import pytest
from conftest import dispositions_by_function, scan, write_tree

CASES = {
    "lambda_parameter": ("later(lambda e: log(e))", [["swallow"]]),
    "lambda_default": ("later(lambda y=e: log(y))", [["callback"]]),
    "lambda_closure": ("later(lambda: log(e))", [["callback"]]),
    "comprehension_target": ("report([e for e in range(3)])", [["swallow"]]),
    "comprehension_iterable": ("report([y for y in e.args])", [["callback"]]),
    "inner_lambda_parameter": ("later(lambda: (lambda e: e)(1))", [["swallow"]]),
    "nested_comprehension_target": ("report([[e for e in y] for y in range(2)])", [["swallow"]]),
    "later_for_reads_the_target": ("report([z for y in e.args for e in y for z in e])", [["callback"]]),
}
_HEAD = "def g(x):\n    raise OSError(x)\n\n\ndef later(f):\n    f()\n\n\ndef log(v):\n    print(v)\n\n\n" \
        "def report(v):\n    print(v)\n"


def _source() -> str:
    cases = "".join(f"\n\ndef {name}(x):\n    try:\n        g(x)\n    except OSError as e:\n        {body}\n"
                    for name, (body, _) in CASES.items())
    return _HEAD + cases


@pytest.fixture(scope="module")
def by_case(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[list[str]]]:
    root = tmp_path_factory.mktemp("bindings")
    tree = write_tree(root / "tree", {"cases.py": _source()})
    out = root / "scan"
    scan(tree, out, "--jobs", 1)
    return dispositions_by_function(out)


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_nested_scope_that_binds_the_name_reads_its_own(by_case: dict[str, list[list[str]]], case: str) -> None:
    assert by_case[case] == CASES[case][1]

