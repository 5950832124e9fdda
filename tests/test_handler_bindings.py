"""Which binding a name in a handler's body is (docs/reference.md, "Handler records"): the caught
value only where no nested scope declares its name again, as terser writes `catch(r){...const
r=...}`; a thrown `?:` arm's sequence, `||` and `??`; names destructured from what was read of
the caught value, or from it in the parameter (`catch ({message})`); a promise executor's
`reject` in parentheses or deep below it, and of `new this.Promise(...)`, and
`this.Promise.reject(e)`; a negated string test; a switch on a negative number; what follows a
`throw`; a local assigned the caught value, the parameter assigned again; a name thrown, returned
or rejected that holds the caught value on one path and another value on another; a promise
handler's bare `return`, in a `switch` case or a loop too; a test of a name destructured from the
caught value, as a test of that field; a local declared as a `?:` one of whose arms is the caught
value, thrown, as each arm; an arrow's expression body, split as a `return` of it; an `if (cb(e),
t)` split on `t`, the call on every branch; a `?:` whose test alone reads the caught value, which
holds neither it nor anything read from it; a local built up with `+=` from it; a local given a
local that is the caught value on one path, thrown; terser's `!function (e) {...}(e)` statement, its
`new (load().URL)(...)`, and its temporary `var c` beside a block's own `const c`, assigned inside
another local's declaration. Driven through `erratlas scan` on
fixtures/flow/src/bindings.js and its esbuild and terser builds: the same dispositions each way
(the builds keep the shapes)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from conftest import FIXTURES, plain_tests, run, scan

FLOW = FIXTURES / "flow"
READS = {"source": FLOW / "src" / "bindings.js", "esbuild": FLOW / "built" / "bindings.min.js",
         "terser": FLOW / "built" / "bindings.terser.min.js"}

#: each exported function of bindings.js in order, with its catch clause's branches: each
#: disposition as kind, kind/cause for a wrap, and `+callee` where the callee is checked
CASES = [
    ("innerConstIsANewError", [["wrap/lost+Error"], ["rethrow"]]),
    ("innerNameIsNotTheCause", [["wrap/lost+Error"], ["rethrow"]]),
    ("loopVariableIsItsOwn", [["rethrow"]]),
    ("arrowParameterIsItsOwn", [["swallow"]]),
    ("functionParameterIsItsOwn", [["swallow"]]),
    ("closureCapturesTheCaughtValue", [["callback"]]),
    ("blocksBindTheirOwn", [["return-value", "return-error"]]),
    ("sequenceInAThrownArm", [["rethrow"], ["wrap/lost+Error"]]),
    ("callInAThrownArm", [["wrap/lost+Error", "callback"]]),
    ("eitherOperandIsThrown", [["rethrow", "wrap/lost"]]),
    ("nullishOperandIsThrown", [["rethrow", "wrap/lost"]]),
    ("destructuredFieldsAreRead", [["return-value", "callback"]]),
    ("rejectsFromAnExecutor", [["reject"]]),
    ("rejectsFromDeepInsideAnExecutor", [["reject"]]),
    ("rethrowsUnlessGone", [["rethrow"], ["swallow"]]),
    ("deadCodeAfterAThrow", [["rethrow"]]),
    ("localHoldsTheCaughtValueOrANewOne", [["wrap/partial+Error"], ["wrap/partial+Error"]]),
    ("localAssignedOnlyTheCaughtValue", [["wrap/kept+Error"]]),
    ("parameterAssignedAgain", [["wrap/partial"]]),
    ("parameterAssignedAgainInABranch", [["wrap/partial+Error"], ["rethrow"]]),
    ("bareReturnResolvesAsTheEndDoes", [["callback", "swallow"]]),
    ("bareReturnInATestedBranch", [["swallow"], ["rethrow"]]),
    ("voidReturnAfterACallback", [["callback"]]),
    ("promiseParameterAssignedAgain", [["wrap/partial"]]),
    ("bareReturnLeavesACatchClause", [["return-value", "callback"]]),
    ("localThrownIsTheCaughtValueOrANewOne", [["rethrow", "wrap/lost+Error"]]),
    ("rejectsTheMessageOfAnError", [["wrap/partial"], ["reject"]]),
    ("returnsTheCaughtValueOrAFallback", [["return-value", "return-error"]]),
    ("bareReturnInASwitchCase", [["callback", "swallow"]]),
    ("bareReturnInALoop", [["callback", "swallow"]]),
    ("returnAfterACallbackInASwitch", [["callback"]]),
    ("rejectsFromAPromiseClassOfThis", [["reject", "swallow"]]),
    ("rejectsThroughAPromiseClassOfThis", [["reject+this.Promise.reject"]]),
    ("switchesOnANegativeErrno", [["return-value"], ["wrap/kept+Error"], ["rethrow"]]),
    ("destructuredParameterIsRead", [["wrap/partial+Error"]]),
    ("testsADestructuredCode", [["return-value"], ["rethrow"]]),
    ("switchesOnANestedDestructuredField", [["return-value"], ["rethrow"]]),
    ("testsADestructuredParameter", [["return-value"], ["wrap/partial+Error"]]),
    ("aDefaultIsNotTheField", [["rethrow", "return-value"]]),
    ("aDestructuredNameAssignedAgainIsNotTheField", [["rethrow", "return-value"]]),
    # nats' `const perr = code === "ECONNREFUSED" ? errorForCode(c, err) : err; ...; throw perr`
    ("localDeclaredAsEitherArm", [["rethrow", "wrap/kept+Error"]]),
    # an arrow's expression body is split as a `return` of it
    ("arrowBodySplitsOnItsTest", [["return-value"], ["reject"]]),
    # the builds write `if (track(...), e.code === "ENOENT")`: the call runs on every branch
    ("testAfterACallInTheCondition", [["return-value", "callback"], ["rethrow", "callback"]]),
    # terser's temporary of an inlined test, `(o = e, o.status === "X")` with `var o` of the function that
    # the handler alone writes and reads (firebase-tools' enable): no store, and `o` is the caught value
    ("inlinedTestThroughATemporary", [["wrap/kept+Error"], ["rethrow"]]),
    # the same name read after the handler keeps the caught value: a store (and `o.status` no test of it)
    ("temporaryReadAfterTheHandler", [["wrap/kept+Error", "store"]]),
    # zwave-js' Driver: a message chosen by a test of the caught value, `?:` in the builds, holds
    # nothing of it (the source's `if` splits on the test; the builds' `?:` does not)
    ("messageChosenByATest", [["return-value"], ["return-value"]]),
    ("messageChosenInTheCall", [["swallow"]]),
    ("messageChosenWithAnArmReadingIt", [["callback"]]),
    # zwave-js' Driver: `message += e.message`, as `message = message + e.message`, reads it
    ("messageBuiltUpFromIt", [["wrap/partial+Error"]]),
    ("messageBuiltUpAndLogged", [["callback"]]),
    # arangojs' connection: `error = cause` (terser: `c = x instanceof N ? o : ...`), `cause` the caught value or
    # a new error: thrown, the caught value on one path (a rethrow), new errors on the others
    ("localGivenALocalThatIsEither", [["rethrow", "wrap/partial"]]),
    # @expo/cli's xcrun as terser writes it: `!function (e) {...}(e)` as a statement gives the function the
    # caught value (a `swallow` before: the negation's operand was not read as discarded)
    ("negatedFunctionGivenIt", [["callback"]]),
    # @expo/cli's coerceUrl as terser writes it: `new (load().URL)(...)` makes no error (a `wrap` before)
    ("newOfAClassInParentheses", [["return-value"]]),
    # @sveltejs/kit's dev server as terser writes it: `var c`, a temporary beside a block's own `const c`, is no
    # store, and `(c = e)` inside the declaration of `error` makes it the caught value's (`fix(error)`)
    ("temporaryBesideABlockConstant", [["log+console.error", "callback"]]),
]
#: the tests of the cases whose branches test a name destructured from the caught value, split an
#: arrow's expression body, or split on the last member of an `if`'s `(a, b)` condition
FIELD_TESTS = {
    "testsADestructuredCode": [{"field": "code", "op": "===", "value": "ENOENT"}, None],
    "switchesOnANestedDestructuredField": [{"field": "response.status", "op": "===", "value": 404}, None],
    "testsADestructuredParameter": [{"field": "code", "op": "===", "value": "ENOENT"}, None],
    "arrowBodySplitsOnItsTest": [{"field": "code", "op": "===", "value": "ENOENT"}, None],
    "testAfterACallInTheCondition": [{"field": "code", "op": "===", "value": "ENOENT"}, None],
}
#: what a build made of a case differently: the builds test `!(e instanceof Error)` in a `?:` or `||`,
#: which does not split, and `!==` where the source tests `===`
BUILT_AS = {**{(read, "localHoldsTheCaughtValueOrANewOne"): [["wrap/partial+Error"]] for read in ("esbuild", "terser")},
            **{(read, "parameterAssignedAgainInABranch"): [["rethrow", "wrap/partial+Error"]]
               for read in ("esbuild", "terser")},
            **{(read, "rejectsTheMessageOfAnError"): [["wrap/partial", "reject"]] for read in ("esbuild", "terser")},
            **{(read, "bareReturnInATestedBranch"): [["rethrow"], ["swallow"]] for read in ("esbuild", "terser")},
            **{(read, "messageChosenByATest"): [["return-value"]] for read in ("esbuild", "terser")}}


def _dispositions(branches: list[dict[str, object]], checked: list[list[str]]) -> list[list[str]]:
    out = []
    for branch, wanted in zip(branches, checked + [[]] * len(branches)):
        written = []
        for disposition, want in zip(branch["dispositions"], wanted + [""] * 99):  # type: ignore[index]
            kind = disposition["kind"] + (f"/{disposition['cause']}" if disposition["cause"] else "")
            written.append(kind + (f"+{disposition['callee']}" if "+" in want else ""))
        out.append(written)
    return out


@pytest.fixture(scope="module")
def catches(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[dict[str, object]]]:
    """Each read's catch clauses, and its promise handlers given a function outside them, in
    source order (one per case)."""
    out = {}
    for read, path in READS.items():
        scanned = tmp_path_factory.mktemp(read) / "scan"
        scan(path, scanned, "--jobs", 1)
        handlers = [json.loads(line) for line in (scanned / "handlers.jsonl").read_text().splitlines()]
        clauses = [h for h in handlers if h["form"] == "catch"]
        promised = [h for h in handlers if h["form"] != "catch" and h["param"] is not None
                    and not any(c["offset"] <= h["offset"] < c["endOffset"] for c in clauses)]
        out[read] = sorted(clauses + promised, key=lambda h: h["offset"])  # type: ignore[arg-type,return-value]
    return out


@pytest.mark.parametrize("read", sorted(READS))
@pytest.mark.parametrize(("at", "case"), list(enumerate(name for name, _ in CASES)), ids=[n for n, _ in CASES])
def test_each_name_is_the_binding_its_scope_says(catches: dict[str, list[dict[str, object]]], read: str,
                                                 at: int, case: str) -> None:
    assert len(catches[read]) == len(CASES)
    expected = BUILT_AS.get((read, case), CASES[at][1])
    assert _dispositions(catches[read][at]["branches"], expected) == expected  # type: ignore[arg-type]


@pytest.mark.parametrize("read", sorted(READS))
def test_a_negated_string_test_splits(catches: dict[str, list[dict[str, object]]], read: str) -> None:
    at = [name for name, _ in CASES].index("rethrowsUnlessGone")
    tests = plain_tests(catches[read][at]["branches"])
    assert tests == [{"field": "message", "op": "!includes", "value": "gone"}, None]


@pytest.mark.parametrize("read", sorted(READS))
def test_a_negative_number_is_a_literal(catches: dict[str, list[dict[str, object]]], read: str) -> None:
    at = [name for name, _ in CASES].index("switchesOnANegativeErrno")
    tests = plain_tests(catches[read][at]["branches"])
    assert tests == [{"field": "errno", "op": "===", "value": -2}, {"field": "errno", "op": "===", "value": -13}, None]


@pytest.mark.parametrize("read", sorted(READS))
@pytest.mark.parametrize("case", sorted(FIELD_TESTS))
def test_a_branch_tests_the_field_it_reads(catches: dict[str, list[dict[str, object]]], read: str,
                                          case: str) -> None:
    at = [name for name, _ in CASES].index(case)
    tests = plain_tests(catches[read][at]["branches"])
    assert tests == FIELD_TESTS[case]


def test_terser_reuses_the_catch_parameter_s_name_inside_the_handler() -> None:
    """The build these cases stand for: its inner names are the parameter's own."""
    built = READS["terser"].read_text()
    for shape in ("catch(r){if(\"EACCES\"===r.code){const r=", "catch(r){for(const r of n)",
                  ".catch(r=>t(\"retry\",r))", "catch(r){e(function(r){throw r})}"):
        assert shape in built, shape


def test_a_read_in_slices_tells_each_binding_as_the_whole_tree(tmp_path: Path) -> None:
    """The bindings are found in each handler's own subtree: the esbuild build, its top-level
    functions made statements that a cut may follow, read in three slices says the same."""
    program = tmp_path / "bindings.js"
    program.write_text(READS["esbuild"].read_text().replace("}function ", "};function "))
    whole, sliced = tmp_path / "whole", tmp_path / "sliced"
    scan(program, whole, "--jobs", 1)
    result = run("scan", program, "--out", sliced, "--jobs", 1, "--slices", 3,
                 env={**os.environ, "ERRATLAS_TRACE": "1"})
    assert result.returncode == 0, result.stderr
    assert "slice 3 of 3 read" in result.stderr
    assert (whole / "handlers.jsonl").read_bytes() == (sliced / "handlers.jsonl").read_bytes()
