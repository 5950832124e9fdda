"""A logger made by `logging.Logger(name)`, the standard library's own class called directly (as
eventlet's `patcher.py` makes one in an `except` clause), is a logger as one from
`logging.getLogger(name)` is (docs/reference.md, "Python": a logger the inventory knows): its
calls are diagnostic callsites, and a handler that makes one is a `log`, not a `swallow`. Driven
through `erratlas scan` on a tree written here."""

from __future__ import annotations

import json

import pytest
from conftest import dispositions_by_function, scan, write_tree

CASES = {
    "from_get_logger": ('logger = logging.getLogger("x")', [["log"]]),
    "from_the_class": ('logger = logging.Logger("x")', [["log"]]),
    "from_the_class_imported": ('logger = Logger("x")', [["log"]]),
    "from_a_class_of_its_own": ('logger = Journal("x")', [["callback"]]),
}
_HEAD = ("import logging\nfrom logging import Logger\n\n\nclass Journal:\n    def __init__(self, name):\n"
         "        self.name = name\n\n    def exception(self, message):\n        print(self.name, message)\n\n\n"
         "def g(x):\n    raise OSError(x)\n\n\nMODULE_LOG = logging.Logger(\"module\")\n")


@pytest.fixture(scope="module")
def scanned(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, list[list[str]]], list[str]]:
    root = tmp_path_factory.mktemp("logger-class")
    cases = "".join(f"\n\ndef {name}(x):\n    try:\n        g(x)\n    except OSError as e:\n        {made}\n"
                    f"        logger.exception(\"{name} failed: %s\", e)\n" for name, (made, _) in CASES.items())
    cases += '\n\ndef at_module_level():\n    MODULE_LOG.warning("module level")\n'
    tree = write_tree(root / "tree", {"cases.py": _HEAD + cases})
    out = root / "scan"
    scan(tree, out, "--jobs", 1)
    lines = (out / "diagnostic-message-callsites.jsonl").read_text(encoding="utf-8").splitlines()
    return dispositions_by_function(out), [json.loads(line)["message"]["text"] for line in lines]


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_handler_calling_a_logger_it_makes_logs(
        scanned: tuple[dict[str, list[list[str]]], list[str]], case: str) -> None:
    assert scanned[0][case] == CASES[case][1]


def test_the_loggers_calls_are_diagnostic_callsites(scanned: tuple[dict[str, list[list[str]]], list[str]]) -> None:
    texts = scanned[1]
    assert "module level" in texts
    assert sum(1 for text in texts if text.startswith(("from_get_logger", "from_the_class"))) == 3
    assert not any(text.startswith("from_a_class_of_its_own") for text in texts)
