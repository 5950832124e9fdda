"""What a helper tests (docs/reference.md, "What a helper tests"): a branch's test made through a
call of a top-level function of one parameter (`isNotFound(e)`, `errorCode(e) === "EISDIR"`,
`switch (errorCode(e))`) is read from the function's body and stated on the caught value
(`reads`): a test of its parameter (after guards the test implies; `||` of one value's literals
as `in`; of a local holding a field or an accessor's result), or a field of it returned under
guards that the field's having a value implies, through helpers of helpers; `CODES.has(x)` of a
constant `Set` (or array and `includes`) whose name is read only so is `in`, and `[...].includes(e.code)`
too. Not read: a `Set` written elsewhere, a loose comparison of an accessor, a literal of a type its
guard excludes, a name the handler's function declares. Driven through `erratlas scan` on
fixtures/flow/src/helpers.js and its esbuild and terser builds, which rename every helper and
drop the accessor's `return undefined`."""

from __future__ import annotations

import json

import pytest
from conftest import FIXTURES, handlers_of_reads, scan

FLOW = FIXTURES / "flow"
READS = {"source": FLOW / "src" / "helpers.js", "esbuild": FLOW / "built" / "helpers.min.js",
         "terser": FLOW / "built" / "helpers.terser.min.js"}
_NOT_FOUND = ("code", "===", "ENOENT")

#: each exported function in order: each branch's (field, op, value or the helper's name as written
#: in the source, through a helper, reads) or None, and its dispositions
CASES = [
    ("aPredicateThroughAnAccessor", [((None, "predicate", "isNotFound", False, _NOT_FOUND), ["return-value"]),
                                     (None, ["rethrow"])]),
    ("aNegatedPredicate", [((None, "!predicate", "isNotFound", False, ("code", "!==", "ENOENT")), ["rethrow"]),
                           (None, ["return-value"])]),
    ("anAccessorCompared", [((None, "===", "EISDIR", True, ("code", "===", "EISDIR")), ["return-value"]),
                            (None, ["rethrow"])]),
    ("aSwitchOnAnAccessor", [((None, "===", "EACCES", True, ("code", "===", "EACCES")), ["return-value"]),
                             ((None, "===", "EPERM", True, ("code", "===", "EPERM")), ["return-value"]),
                             (None, ["rethrow"])]),
    ("anArrowPredicate", [((None, "predicate", "isTimeout", False, ("name", "===", "TimeoutError")),
                           ["return-value"]), (None, ["rethrow"])]),
    ("anAccessorOfAGuardedField", [(("response", "===", 404, True, ("response.status", "===", 404)),
                                    ["return-value"]), (None, ["rethrow"])]),
    ("aHelperOfAConstantSet", [((None, "predicate", "isMissingOrDenied", False, ("code", "in", ["ENOENT", "EACCES"])),
                                ["return-value"]), (None, ["rethrow"])]),
    ("aLooseComparisonIsNotRead", [((None, "==", "ENOENT", True, None), ["return-value"]), (None, ["rethrow"])]),
    ("aTypeTheGuardExcludesIsNotRead", [((None, "===", "-2", True, None), ["return-value"]), (None, ["rethrow"])]),
    ("aTypeTheGuardAsksIsRead", [((None, "===", -2, True, ("errno", "===", -2)), ["return-value"]),
                                 (None, ["rethrow"])]),
    ("aLocalOfTheHelpersNameIsNotRead", [((None, "===", "ENOENT", True, None), ["return-value"]),
                                         (None, ["rethrow"])]),
    ("aHelperOfALocalOfTheAccessor", [((None, "predicate", "isGone", False, ("code", "in", ["ENOENT", "ENOTDIR"])),
                                       ["return-value"]), (None, ["rethrow"])]),
    ("aHelperOfALocalOfTheField", [((None, "!predicate", "isRetryable", False, ("status", "!in", [429, 503])),
                                    ["rethrow"]), (None, ["return-value"])]),
    ("aGuardedTestOfTheField", [((None, "predicate", "isTooLarge", False, ("code", "===", "ERR_TOO_LARGE")),
                                 ["return-value"]), (None, ["rethrow"])]),
    ("anArrayOfLiteralsIncludesTheField", [(("code", "in", ["ENOENT", "ENOTDIR"], False, None), ["return-value"]),
                                           (None, ["rethrow"])]),
    ("aSetWrittenElsewhereIsNotRead", [((None, "predicate", "wasSeen", False, None), ["return-value"]),
                                       (None, ["rethrow"])]),
    ("aPredicateOfAnAccessorsResult", [((None, "!predicate", "isKnown", True, ("code", "!in", ["ENOENT", "EEXIST"])),
                                        ["rethrow"]), (None, ["return-value"])]),
    ("aConstantSetHasTheField", [(("code", "predicate", "KNOWN.has", False, ("code", "in", ["ENOENT", "EEXIST"])),
                                  ["return-value"]), (None, ["rethrow"])]),
    ("aHelperOfASetOrAValue", [((None, "predicate", "isUnusable", True, ("code", "in", ["EACCES", "EPERM", "EISDIR"])),
                                ["return-value"]), (None, ["rethrow"])]),
    ("again", [(None, ["return-value", "callback"])]),  # SEEN.add(e.code): wasSeen's set is written
    ("andAgain", [(None, ["return-value"])]),
    ("aHelperOfAFieldsType", [((None, "!predicate", "hasErrno", False, ("errno", "!typeof", "number")), ["rethrow"]),
                              (None, ["return-value"])]),
    ("aHelperOfAFieldsTypeAgain", [((None, "predicate", "hasErrno", False, ("errno", "typeof", "number")),
                                   ["return-value"]), (None, ["rethrow"])]),
]


@pytest.fixture(scope="module")
def handlers(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[dict[str, object]]]:
    return handlers_of_reads(tmp_path_factory, READS)


def _read(branch: dict[str, object], read: str, expected: object) -> tuple[object, list[str]]:
    test = branch["test"]
    kinds = [d["kind"] for d in branch["dispositions"]]  # type: ignore[attr-defined]
    if test is None:
        return None, kinds
    assert isinstance(test, dict)
    value = test["value"]
    if read != "source" and "predicate" in test["op"]:  # the builds rename the helper: the source's name
        assert isinstance(expected, tuple) and isinstance(value, str) and len(value.removesuffix(".has")) <= 2
        value = expected[2]
    reads = test["reads"]
    return (test["field"], test["op"], value, test["through"] is not None,
            None if reads is None else (reads["field"], reads["op"], reads["value"])), kinds


@pytest.mark.parametrize("read", sorted(READS))
@pytest.mark.parametrize(("at", "case"), list(enumerate(name for name, _ in CASES)), ids=[n for n, _ in CASES])
def test_each_test_through_a_helper_reads_what_its_body_tests(
        handlers: dict[str, list[dict[str, object]]], read: str, at: int, case: str) -> None:
    assert len(handlers[read]) == len(CASES)
    expected = CASES[at][1]
    got = [_read(branch, read, want[0]) for branch, want in
           zip(handlers[read][at]["branches"], expected, strict=False)]  # type: ignore[call-overload]
    assert got == expected


def test_the_flow_page_states_what_a_helper_reads(tmp_path) -> None:  # type: ignore[no-untyped-def]
    scanned = tmp_path / "scan"
    scan(READS["source"], scanned, "--jobs", 1)
    page = (scanned / "index" / "flow-tests-01.md").read_text()  # the field -> decision table
    assert 'e.code === "ENOENT" via isNotFound(e)' in page
    assert 'e.code === "EISDIR" via errorCode(e) |' in page
    assert 'errorCode(e) == "ENOENT" |' in page  # not read: as written
    assert "wasSeen(e) |" in page and "via wasSeen" not in page
    # one row a test read, however its branches wrote it
    assert '| e.code in \\["ENOENT","ENOTDIR"\\] (as written ×1, via isGone(e) ×1) | 2 |' in page


_OPPOSITE = {"===": "!==", "!==": "===", "in": "!in", "!in": "in", "truthy": "falsy", "falsy": "truthy",
             "instanceof": "!instanceof", "!instanceof": "instanceof", "typeof": "!typeof", "!typeof": "typeof"}


@pytest.mark.network
@pytest.mark.slow
def test_a_real_bundles_helpers_read_alike_wherever_they_are_called(release_scan) -> None:  # type: ignore[no-untyped-def]
    """Claude Code 2.1.100's cli.js: its accessor `c1` (`if(q&&typeof q==="object"&&"code"in
    q&&typeof q.code==="string")return q.code`) compared reads as `code` compared alike, and each
    predicate helper reads one test wherever it is called, its negation under `!`: `a1` (`return
    c1(q)==="ENOENT"`) and `U3` (`let K=c1(q);return K==="ENOENT"||...`) among them."""
    out = release_scan("@anthropic-ai/claude-code", "2.1.100")
    tests = [b["test"] for line in (out / "handlers.jsonl").read_text().splitlines()
             for b in json.loads(line)["branches"] if b["test"] is not None]
    read = [t for t in tests if t["reads"] is not None]
    assert len(read) >= 170
    for test in read:
        if test["through"] is not None and "predicate" not in test["op"]:  # an accessor compared
            assert (test["reads"]["op"], test["reads"]["value"]) == (test["op"], test["value"])
    by_helper: dict[str, set[tuple[str, str, str]]] = {}
    for test in read:
        if "predicate" in test["op"]:
            reads = test["reads"]
            op = reads["op"] if test["op"] == "predicate" else _OPPOSITE[reads["op"]]
            by_helper.setdefault(test["value"], set()).add((reads["field"], op, json.dumps(reads["value"])))
    assert all(len(found) == 1 for found in by_helper.values()), by_helper
    assert by_helper["a1"] == {("code", "===", '"ENOENT"')}
    assert by_helper["U3"] == {("code", "in", '["ENOENT", "EACCES", "EPERM", "ENOTDIR", "ELOOP"]')}
