"""A Python `except` clause that keeps the caught value in a container (docs/reference.md, "Handler
records", Python: `store`): `errors.append(e)`, and so a tuple, list, set or dict literal holding
it (`errors.append((server, e))`, dnspython's resolver); one holding only what is read of it
(its text, a field) is a `callback`. Driven through `erratlas scan` on a tree written here."""

from __future__ import annotations

import pytest
from conftest import dispositions_by_function, scan, write_tree

CASES = {
    "itself": ("ERRORS.append(e)", [["store"]]),
    "in_a_tuple": ("ERRORS.append((x, e))", [["store"]]),
    "in_a_list": ("ERRORS.extend([x, e])", [["store"]]),
    "in_a_dict": ("ERRORS.append({'at': x, 'error': e})", [["store"]]),
    "its_text_in_a_tuple": ("ERRORS.append((x, str(e)))", [["callback"]]),
    "a_field_in_a_tuple": ("ERRORS.append((x, e.errno))", [["callback"]]),
}
_HEAD = "ERRORS = []\n\n\ndef g(x):\n    raise OSError(x)\n"


@pytest.fixture(scope="module")
def by_case(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[list[str]]]:
    root = tmp_path_factory.mktemp("keepers")
    cases = "".join(f"\n\ndef {name}(x):\n    try:\n        g(x)\n    except OSError as e:\n        {body}\n"
                    for name, (body, _) in CASES.items())
    tree = write_tree(root / "tree", {"cases.py": _HEAD + cases})
    out = root / "scan"
    scan(tree, out, "--jobs", 1)
    return dispositions_by_function(out)


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_container_holding_the_caught_value_stores_it(by_case: dict[str, list[list[str]]], case: str) -> None:
    assert by_case[case] == CASES[case][1]
