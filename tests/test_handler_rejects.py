"""A promise rejected with the caught value is a `reject`; rejected with anything else, through
the executor's `reject` or `Promise.reject`, a `wrap`, read as a throw of it is (docs/reference.md,
"Dispositions"). Driven through `erratlas scan` on fixtures/flow/src/rejects.js and its esbuild and
terser builds: the same dispositions each way."""

from __future__ import annotations

import json

import pytest
from conftest import FIXTURES, scan

FLOW = FIXTURES / "flow"
READS = {"source": FLOW / "src" / "rejects.js", "esbuild": FLOW / "built" / "rejects.min.js",
         "terser": FLOW / "built" / "rejects.terser.min.js"}

#: each exported function of rejects.js in order, with its catch clause's dispositions (one
#: branch): kind, kind/cause for a wrap, and `+callee` where the callee is checked
CASES = [
    ("rejectsWhatACallMakes", ["wrap/kept+makeError"]),
    ("rejectsTheMessage", ["wrap/partial+"]),
    ("rejectsTheCaughtValue", ["reject"]),
    ("rejectsEitherArm", ["wrap/kept+Error", "reject"]),
    ("promiseRejectOfACall", ["wrap/kept+makeError"]),
    ("promiseRejectOfTheMessage", ["wrap/partial+"]),
    ("promiseRejectOfTheCaughtValue", ["reject+Promise.reject"]),
    ("promiseRejectOfANewError", ["wrap/partial+Error"]),
]
#: the minified builds name the functions and the executor's parameter otherwise
NAMES = {"esbuild": {"makeError": "a"}, "terser": {"makeError": "r"}}


def _written(branch: dict[str, object], wanted: list[str]) -> list[str]:
    out = []
    for disposition, want in zip(branch["dispositions"], wanted + [""] * 99):  # type: ignore[arg-type]
        kind = disposition["kind"] + (f"/{disposition['cause']}" if disposition["cause"] else "")
        out.append(kind + (f"+{disposition['callee'] or ''}" if "+" in want else ""))
    return out


@pytest.fixture(scope="module")
def handlers(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[dict[str, object]]]:
    """Each read's handlers, in source order."""
    out = {}
    for read, path in READS.items():
        scanned = tmp_path_factory.mktemp(read) / "scan"
        scan(path, scanned, "--jobs", 1)
        found = [json.loads(line) for line in (scanned / "handlers.jsonl").read_text().splitlines()]
        out[read] = sorted(found, key=lambda h: h["offset"])  # type: ignore[arg-type, return-value]
    return out


@pytest.fixture(scope="module")
def catches(handlers: dict[str, list[dict[str, object]]]) -> dict[str, list[dict[str, object]]]:
    """Each read's catch clauses, in source order (one per case)."""
    return {read: [h for h in found if h["form"] == "catch"] for read, found in handlers.items()}


@pytest.mark.parametrize("read", sorted(READS))
@pytest.mark.parametrize(("at", "case"), list(enumerate(name for name, _ in CASES)), ids=[n for n, _ in CASES])
def test_a_rejection_is_read_as_a_throw_of_its_value(catches: dict[str, list[dict[str, object]]], read: str,
                                                      at: int, case: str) -> None:
    assert len(catches[read]) == len(CASES)
    branches = catches[read][at]["branches"]
    assert len(branches) == 1  # type: ignore[arg-type]
    expected = CASES[at][1]
    for source_name, built_name in NAMES.get(read, {}).items():
        expected = [want.replace(f"+{source_name}", f"+{built_name}") for want in expected]
    assert _written(branches[0], expected) == expected  # type: ignore[index]


@pytest.mark.parametrize("read", sorted(READS))
def test_a_wrap_rejected_links_its_new_error(catches: dict[str, list[dict[str, object]]], read: str) -> None:
    """A new error rejected is linked as a thrown one is: its callsite id."""
    at = [name for name, _ in CASES].index("promiseRejectOfANewError")
    (wrap,) = catches[read][at]["branches"][0]["dispositions"]  # type: ignore[index]
    assert wrap["kind"] == "wrap" and len(wrap["callsites"]) == 1


@pytest.mark.parametrize("read", sorted(READS))
def test_an_array_holding_the_caught_value_keeps_it(handlers: dict[str, list[dict[str, object]]], read: str) -> None:
    """`.catch(error => reject([error]))`: the rejection carries the error whole."""
    (handler,) = [h for h in handlers[read] if h["form"] == "promise-catch"]
    (branch,) = handler["branches"]  # type: ignore[misc]
    assert [(d["kind"], d["cause"]) for d in branch["dispositions"]] == [("wrap", "kept")]
