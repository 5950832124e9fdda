"""How a handler's body splits on its tests (docs/reference.md, "Branches"). A test of a local
that holds a field of the caught value splits as a test of the field does: `const {code} = e`,
`const {code: c} = e` switched on, `var code = e.code`, a nested pattern under an object
default, a local holding an object of it, a destructured parameter of a catch clause or a
promise handler; a local that may hold something else does not: one assigned again, in the body
or in a closure, or given a default of its own. Tests in a row whose branches leave are one
chain, as an `else if` chain is once minified (`if (a) return x; if (b) throw y; ...`), a thrown
`?:` chain after them too, with the statements between in the next test's branches; a test whose
branch falls through ends it. What runs before a test in its condition (`if (f(e), t)`, how
minifiers write `f(e); if (t)`), or before a thrown `?:` chain (`throw f(e), t ? a : e`), runs
in each of its branches. An expression statement's `?:` chain splits as an `if`/`else` of its arms
(how both minifiers write one of expressions). An arrow's `?:` body splits as a returned one (`e => e.code === "ENOENT"
? null : Promise.reject(e)`). A guard that the value it reads is there, `e && e.code === "ENOENT"`,
is no part of the test, nor are guards the test's holding implies (`e != null && typeof e === "object"
&& "code" in e && e.code === "ENOENT"`, how TypeScript narrows an unknown). Tests joined by `&&` are one
test and its `also` (`e instanceof X && e.code === "E"`), `&&` distributed over `||` and `!` over both; a
conjunct that tests something else does not split. `typeof e.code === "string"` is a `typeof` test, `!=` /
`!==` a `!typeof` one, and so is `e.code !== undefined` (`"undefined"`; `!= undefined` is `!= null`, as
minifiers write it). A call given the caught value, or a field of it, alone is a `predicate` test (`isNotFound(e)`,
`!RETRYABLE.has(e.code)`); one given more does not split. A loop that takes its next item before the `try`
(`await it.next()`) walks items: no `retry`; a `for` variable that indexes only in the handler
(what it frees on a failure) does not; a loop that runs until a field of a result is set that the
protected block sets (`while (!r.ok) { try { r = {ok: true, ...} } ...`) retries. A call before a `switch`
in its value (`switch (f(e), v)`) runs on every path, and a `switch (f(e), e.code)` splits on the code. An `else`
whose statement is a `?:` chain of expressions that test the caught value splits as the `else if` chain it was.
Driven through `erratlas scan` on
fixtures/flow/src/splits.js and its esbuild and terser builds (esbuild writes the `switch` as an
`if`; both fold `const response = e.response` into the test)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import FIXTURES, handlers_of_reads, run, scan

FLOW = FIXTURES / "flow"
READS = {"source": FLOW / "src" / "splits.js", "esbuild": FLOW / "built" / "splits.min.js",
         "terser": FLOW / "built" / "splits.terser.min.js"}

#: each exported function in order: its branches as (field, op, value) or None, and dispositions
CASES = [
    ("destructuredConstIsTested", [(("code", "===", "ENOENT"), ["return-value"]), (None, ["rethrow"])]),
    ("renamedFieldIsSwitchedOn", [(("code", "===", "EACCES"), ["log", "return-value"]), (None, ["rethrow"])]),
    ("varHoldsAField", [(("code", "===", "ENOENT"), ["return-value"]), (None, ["rethrow"])]),
    ("nestedPatternWithADefaultObject", [(("response.status", ">=", 500), ["wrap/kept"]), (None, ["return-value"])]),
    ("localHoldsAnObjectOfIt", [(("response.status", "===", 404), ["return-value"]), (None, ["rethrow"])]),
    ("destructuredParameterIsTested", [(("code", "===", "ENOENT"), ["return-value"]), (None, ["wrap/lost"])]),
    ("promiseParameterDestructuredIsTested", [(("status", "===", 404), ["return-value"]), (None, ["wrap/lost"])]),
    ("reassignedLocalDoesNotSplit", [(None, ["rethrow", "return-value"])]),
    ("ownDefaultDoesNotSplit", [(None, ["rethrow", "return-value"])]),
    ("writtenInAClosureDoesNotSplit", [(None, ["rethrow", "return-value", "callback"])]),
    ("elseIfChainOfLeavingBranches", [(("code", "===", "ENOENT"), ["return-value"]),
                                      (("code", "===", "EACCES"), ["wrap/kept"]),
                                      (("code", "===", "EISDIR"), ["return-value", "callback"]), (None, ["rethrow"])]),
    ("testsInARowThatLeave", [((None, "instanceof", "TypeError"), ["return-value"]),
                              ((None, "instanceof", "RangeError"), ["rethrow"]), (None, ["wrap/lost"])]),
    ("aTestThenAThrownChain", [(("code", "===", "EPERM"), ["return-value"]), (("code", "===", "EBUSY"), ["wrap/lost"]),
                               (None, ["rethrow"])]),
    ("aTestThatFallsThroughEndsTheChain", [(("code", "===", "ENOENT"), ["rethrow", "return-value", "callback"]),
                                           (None, ["rethrow", "return-value"])]),
    ("aStatementBetweenJoinsTheNextTest", [(("code", "===", "ENOENT"), ["return-value"]),
                                          (("code", "===", "EACCES"), ["return-value", "callback"]),
                                          (None, ["rethrow", "callback"])]),
    ("aCallBeforeTheTest", [(("code", "===", "ENOENT"), ["return-value", "callback"]),
                            (None, ["rethrow", "callback"])]),
    ("aConditionalCallBeforeTheTest", [(("code", "===", "ENOENT"), ["return-value", "callback"]),
                                       (None, ["rethrow", "callback"])]),
    ("aCallBeforeAThrownChain", [(("code", "===", "EBUSY"), ["wrap/kept", "callback"]),
                                 (None, ["rethrow", "callback"])]),
    ("anArrowBodyThatTests", [(("code", "===", "ENOENT"), ["return-value"]), (None, ["reject"])]),
    ("anArrowBodyThatLogsThenTests", [(("status", "===", 404), ["return-value", "callback"]),
                                      (None, ["wrap/kept", "callback"])]),
    ("aGuardOfTheValueItReads", [(("code", "===", "ENOENT"), ["return-value"]), (None, ["rethrow"])]),
    ("aGuardOfAnotherValueDoesNotSplit", [(None, ["rethrow", "return-value"])]),
    ("aPredicateOfTheValue", [((None, "predicate", "isNotFound"), ["return-value"]), (None, ["rethrow"])]),
    ("aNegatedPredicateOfAField", [(("code", "!predicate", "RETRYABLE.has"), ["rethrow"]), (None, ["return-value"])]),
    ("aPredicateGivenMoreDoesNotSplit", [(None, ["rethrow", "return-value"])]),
    ("aCallBeforeTestsInARow", [(("code", "===", "ENOENT"), ["return-value", "callback"]),
                                ((None, "predicate", "isBusy"), ["wrap/kept", "callback"]),
                                (None, ["rethrow", "callback"])]),
    # minified `t instanceof TypeError ? s.result = t.args[0] : s.error = t`: an expression statement
    ("anIfElseOfExpressionsThatTests", [((None, "instanceof", "TypeError"), ["swallow"]), (None, ["store"])]),
    ("aTestOfEitherValue", [(("code", "===", "ENOENT"), ["return-value"]),
                            (("code", "===", "ENOTDIR"), ["return-value"]), (None, ["rethrow"])]),
    ("eitherClassOrAnotherTest", [((None, "instanceof", "TypeError"), ["return-value"]),
                                  ((None, "predicate", "isBusy"), ["return-value"]), (None, ["reject"])]),
    ("anOperandThatIsNoTestDoesNotSplit", [(None, ["rethrow", "return-value"])]),
    ("aPredicateOfAnImportCalledIndirectly", [((None, "predicate", "errors.isBusy"), ["return-value"]),
                                              (None, ["rethrow"])]),
    ("aTypeOfAField", [(("code", "typeof", "string"), ["return-value"]), (None, ["rethrow"])]),
    ("aTypeNotOfTheValue", [((None, "!typeof", "object"), ["rethrow"]), (None, ["return-value"])]),
    ("guardsTheTestImplies", [(("code", "===", "ENOENT"), ["return-value"]), (None, ["rethrow"])]),
    ("guardsOfAFieldsType", [(("status", "typeof", "number"), ["return-value"]), (None, ["rethrow"])]),
    ("guardsOfEachValueOnTheWay", [(("response.status", "===", 404), ["return-value"]), (None, ["rethrow"])]),
    ("aGuardOfAnotherTypeIsATestOfItsOwn", [((("code", "typeof", "number"), ("code", "===", "ENOENT")),
                                             ["return-value"]), (None, ["rethrow"])]),
    ("aGuardBeforeANegatedTestDoesNotSplit", [(None, ["rethrow", "return-value"])]),
    ("aTypeComparedWithANumberDoesNotSplit", [(None, ["rethrow", "return-value"])]),
    ("aFieldStrictlyUndefined", [(("code", "!typeof", "undefined"), ["rethrow"]), (None, ["return-value"])]),
    ("aFieldLooselyUndefined", [(("code", "!=", None), ["rethrow"]), (None, ["return-value"])]),
    # `if (attempt < attempts) continue; throw isBusy(e) ? new TypeError(m, {cause: e}) : new Error(...)`
    # (esbuild's): the path through the `continue` runs in every branch of the chain after it
    ("aContinueBeforeAThrownChain", [((None, "predicate", "isBusy"), ["wrap/kept", "swallow"]),
                                     (None, ["wrap/kept", "swallow"])]),
    ("aRetryBeforeAThrownChain", [((None, "predicate", "isBusy"), ["wrap/kept", "retry"]),
                                  (None, ["wrap/kept", "retry"])]),
    # a promise handler's `return paused ? void 0 : load(path)` (esbuild's `if (paused) return; return
    # load(path)`) resolves undefined on one path, as reaching its end does
    ("aBareReturnBeforeAnotherValue", [((None, "predicate", "isBusy"), ["return-value", "swallow"]),
                                       (None, ["callback"])]),
    # a conjunction: its tests in order, the first the test, the rest its `also`
    ("aClassAndAFieldTogether", [(((None, "instanceof", "TypeError"), ("code", "===", "ERR_INVALID_ARG")),
                                  ["return-value"]), (None, ["rethrow"])]),
    ("aClassAndEitherName", [(((None, "instanceof", "Error"), ("name", "===", "AbortError")), ["return-value"]),
                             (((None, "instanceof", "Error"), ("name", "===", "TimeoutError")), ["return-value"]),
                             (None, ["rethrow"])]),
    ("notAClassAndAField", [((None, "!instanceof", "TypeError"), ["rethrow"]),
                            (("code", "!==", "ERR_INVALID_ARG"), ["rethrow"]), (None, ["return-value"])]),
    ("neitherOfTwoCodes", [((("code", "!==", "ENOENT"), ("code", "!==", "ENOTDIR")), ["rethrow"]),
                           (None, ["return-value"])]),
    ("aGuardAndTwoFields", [((("code", "===", "EPIPE"), ("syscall", "===", "write")), ["return-value"]),
                            (None, ["rethrow"])]),
    ("aConjunctOfAnotherValueDoesNotSplit", [(None, ["rethrow", "return-value"])]),
    ("aGuardOfTheStringItSearches", [(("message", "includes", "gone"), ["return-value"]), (None, ["rethrow"])]),
    ("anObjectTypeAndNotNull", [((("detail", "typeof", "object"), ("detail", "!==", None)), ["return-value"]),
                                (None, ["rethrow"])]),
    # `const {value, done} = await iterator.next()` before the try: a failure moves on, no retry
    ("aLoopThatTakesTheNextItem", [(None, ["log"])]),
    ("aLoopThatMakesItsAttemptsEachTurn", [(None, ["log", "retry"])]),
    # the loop's variable indexes only in the handler (what it frees): each turn tries the same write, a retry
    ("aLoopWhoseHandlerPicksWhatToFree", [(None, ["rethrow", "retry"])]),
    # a `try` whose block leaves, an `if` whose two arms leave: the test's branch ends there
    ("aTryThatLeavesEndsItsBranch", [((None, "instanceof", "TypeError"), ["return-value"]),
                                     (None, ["callback", "swallow"])]),
    ("anIfElseThatLeavesEndsItsBranch", [(("code", "===", "ENOENT"), ["rethrow", "return-value"]),
                                         (None, ["callback"])]),
    ("aFieldComparedWithFalse", [(("retryable", "===", False), ["rethrow"]), (None, ["return-value"])]),
    ("aCaseEndingInATryThatLeaves", [(("code", "===", "ENOENT"), ["return-value"]),
                                     (("code", "===", "EACCES"), ["return-value", "callback"]),
                                     (None, ["rethrow", "return-value"])]),
    # esbuild's `switch (debugErr(e), await classify(e))`: the call runs on every path
    ("aCallBeforeASwitch", [(None, ["rethrow", "return-value", "callback"])]),
    # `while (!result.ok)`, and the protected block sets `result = {ok: true, ...}`: success ends the loop
    ("aLoopUntilTheResultIsOk", [(None, ["rethrow", "callback", "retry"])]),
    # both write `switch (report(e.message), e.code)`: it splits on the code, the call in each branch
    ("aCallBeforeASwitchOnIt", [(("code", "===", "ENOENT"), ["return-value", "callback"]),
                                (("code", "===", "EACCES"), ["rethrow", "callback"]), (None, ["callback"])]),
    # both write the `else if` chain of calls after a branch that declares a local as `else t ? f(e.request) : ...`
    ("anElseOfConditionalCalls", [(("response", "truthy", None), ["callback"]),
                                  (("request", "truthy", None), ["callback"]),
                                  (("message", "truthy", None), ["callback"]), (None, ["swallow"])]),
]
#: what a build made of a case differently: both write `if (e.code === "ENOENT" && log(e), e.code
#: === "EACCES")`, the first test run before the second in each of its branches
BUILT_AS = {(read, "aTestThatFallsThroughEndsTheChain"): [(("code", "===", "EACCES"), ["return-value", "callback"]),
                                                          (None, ["rethrow", "callback"])]
            for read in ("esbuild", "terser")}


@pytest.fixture(scope="module")
def handlers(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[dict[str, object]]]:
    return handlers_of_reads(tmp_path_factory, READS)


def _read(branch: dict[str, object]) -> tuple[object, list[str]]:
    test = branch["test"]
    kinds = [d["kind"] + (f"/{d['cause']}" if d["cause"] else "") for d in branch["dispositions"]]  # type: ignore[attr-defined]
    if test is None:
        return None, kinds
    tests = [(t["field"], t["op"], t["value"]) for t in [test, *test["also"]]]  # type: ignore[index,list-item]
    return (tests[0] if len(tests) == 1 else tuple(tests)), kinds


@pytest.mark.parametrize("read", sorted(READS))
@pytest.mark.parametrize(("at", "case"), list(enumerate(name for name, _ in CASES)), ids=[n for n, _ in CASES])
def test_each_handler_splits_as_its_tests_say(handlers: dict[str, list[dict[str, object]]], read: str,
                                              at: int, case: str) -> None:
    assert len(handlers[read]) == len(CASES)
    got = [_read(branch) for branch in handlers[read][at]["branches"]]  # type: ignore[union-attr]
    assert got == BUILT_AS.get((read, case), CASES[at][1])


def test_a_chain_of_thirty_thousand_guards_is_read_without_recursion(tmp_path: Path) -> None:
    """The conjuncts of a test are listed iteratively: a minified `&&` chain may be thousands long."""
    guards = "&&".join(["e!=null", 'typeof e==="object"'] + ['"code"in e'] * 30_000)
    bundle = tmp_path / "chain.js"
    bundle.write_text(f'function f(){{try{{g()}}catch(e){{if({guards}&&e.code==="X")return 1;throw e}}}}\n')
    scan(bundle, tmp_path / "out")
    (handler,) = [json.loads(line) for line in (tmp_path / "out" / "handlers.jsonl").read_text().splitlines()]
    assert [(b["test"]["field"], b["test"]["op"], b["test"]["value"]) if b["test"] else None
            for b in handler["branches"]] == [("code", "===", "X"), None]  # type: ignore[index,union-attr]


def test_a_conjunction_loads_and_a_test_written_before_also_loads_without_one(
        handlers: dict[str, list[dict[str, object]]]) -> None:
    """A test holding its `also` loads as the records it was written from; one without the keys `also`
    and `compared` (a scan directory written before them) loads with none."""
    from analyzer.handler_model import JavaScriptHandler, MappedJavaScriptHandler
    from analyzer.model import HANDLER_SCHEMA
    from analyzer.scandir.load import records_of

    at = [name for name, _ in CASES].index("aClassAndEitherName")
    for read in sorted(READS):
        handler = json.loads(json.dumps(handlers[read][at]))  # the module's records stay as read
        record = MappedJavaScriptHandler if "sourceBody" in handler else JavaScriptHandler
        (loaded,) = records_of(json.dumps(handler).encode() + b"\n", "h.jsonl", record, HANDLER_SCHEMA, "a handler")
        assert [(t.field, t.op, t.value) for t in loaded.branches[1].test.also] == [("name", "===", "TimeoutError")]
        for branch in handler["branches"]:  # type: ignore[union-attr]
            for test in [branch["test"], *(branch["test"] or {}).get("also", [])]:  # type: ignore[index]
                if test is not None:
                    del test["also"], test["compared"]
        (older,) = records_of(json.dumps(handler).encode() + b"\n", "h.jsonl", record, HANDLER_SCHEMA, "a handler")
        assert [b.test.also if b.test else None for b in older.branches] == [(), (), None]


@pytest.mark.parametrize(("condition", "body", "test"), [
    ("!" * 30_000 + "e.code", "return 1", ("code", "truthy", None)),  # an even count of `!`
    ("!" * 29_999 + "e.code", "return 1", ("code", "falsy", None)),
    ('e.code==="X"', "{" * 30_000 + "return 1" + "}" * 30_000, ("code", "===", "X")),  # blocks in blocks
])
def test_thirty_thousand_negations_or_blocks_are_read_without_recursion(tmp_path: Path, condition: str, body: str,
                                                                        test: tuple[object, ...]) -> None:
    bundle = tmp_path / "deep.js"
    bundle.write_text(f"function f(){{try{{g()}}catch(e){{if({condition}){body};throw e}}}}\n")
    scan(bundle, tmp_path / "out")
    (handler,) = [json.loads(line) for line in (tmp_path / "out" / "handlers.jsonl").read_text().splitlines()]
    assert [(b["test"]["field"], b["test"]["op"], b["test"]["value"]) if b["test"] else None
            for b in handler["branches"]] == [test, None]  # type: ignore[index,union-attr]


@pytest.mark.parametrize(("statement", "kinds"), [
    ("throw " + "".join(f"a[{i}]?e:" for i in range(30_000)) + "e", [("rethrow", None)]),
    ("throw " + "||".join(f"a[{i}]" for i in range(30_000)) + "||e", [("rethrow", None), ("wrap", "lost")]),
    ("return " + "".join(f"a[{i}]?1:" for i in range(30_000)) + "e", [("return-value", None), ("return-error", None)]),
    ("s=" + "".join(f"a[{i}]?1:" for i in range(30_000)) + "e", [("store", None), ("swallow", None)]),
    # a local given another's value, 30,000 times over: what each may hold, read in turn
    ("let t0=e;" + "".join(f"let t{i}=t{i - 1};" for i in range(1, 30_000)) + "throw t29999",
     [("rethrow", None)]),
])
def test_thirty_thousand_arms_or_operands_are_read_without_recursion(tmp_path: Path, statement: str,
                                                                     kinds: list[tuple[str, str | None]]) -> None:
    """Each value a thrown, returned or assigned `?:` or `||` chain can have is read iteratively."""
    bundle = tmp_path / "chain.js"
    bundle.write_text(f"var s;function f(a){{try{{g()}}catch(e){{{statement}}}}}\n")
    scan(bundle, tmp_path / "out")
    (handler,) = [json.loads(line) for line in (tmp_path / "out" / "handlers.jsonl").read_text().splitlines()]
    assert [[(d["kind"], d["cause"]) for d in b["dispositions"]] for b in handler["branches"]] == [kinds]  # type: ignore[union-attr,index]


def test_an_else_if_chain_of_ten_thousand_tests_is_read_branch_by_branch(tmp_path: Path) -> None:
    """Each branch of a long chain reads the nodes of its own statements, found by bisection."""
    chain = "else ".join(f'if(e.code==="C{i}")return {i};' for i in range(10_000))
    bundle = tmp_path / "chain.js"
    bundle.write_text(f"function f(){{try{{g()}}catch(e){{{chain}throw e}}}}\n")
    scan(bundle, tmp_path / "out")
    (handler,) = [json.loads(line) for line in (tmp_path / "out" / "handlers.jsonl").read_text().splitlines()]
    branches = handler["branches"]  # type: ignore[index]
    assert len(branches) == 10_001 and branches[-1]["test"] is None  # type: ignore[index]
    assert [b["test"]["value"] for b in branches[:-1]] == [f"C{i}" for i in range(10_000)]  # type: ignore[index]
    assert {d["kind"] for b in branches[:-1] for d in b["dispositions"]} == {"return-value"}  # type: ignore[index]
    assert [d["kind"] for d in branches[-1]["dispositions"]] == ["rethrow"]  # type: ignore[index]


def test_a_conjunction_is_written_whole_by_explain_and_each_test_on_its_row(tmp_path: Path) -> None:
    """`explain` writes a conjunction joined by `&&`; the field -> decision table counts each of its tests."""
    scanned = tmp_path / "scan"
    scan(READS["terser"], scanned)
    handlers = sorted((json.loads(line) for line in (scanned / "handlers.jsonl").read_text().splitlines()),
                      key=lambda h: h["offset"])
    handler = handlers[[name for name, _ in CASES].index("aClassAndAFieldTogether")]
    told = run("explain", scanned, handler["id"])
    assert told.returncode == 0, told.stderr
    assert 'test e instanceof TypeError && e.code === "ERR_INVALID_ARG":' in told.stdout
    rows = [line for page in sorted((scanned / "index").glob("flow-tests-*.md"))
            for line in page.read_text(encoding="utf-8").splitlines()]
    for test in ("e instanceof TypeError", 'e.code === "ERR\\_INVALID\\_ARG"'):  # as markdown escapes it
        assert any(line.startswith(f"| {test} |") for line in rows), test


def test_a_try_whose_block_and_catch_leave_ends_its_branch(tmp_path: Path) -> None:
    """google-gax's resumed upload, as esbuild writes it: the `try` in the test's branch returns from its
    block and from its own `catch` (a handler of its own, whose call passes nothing of the outer caught
    value), so the report after the test runs in the other branch only."""
    bundle = tmp_path / "resumed.js"
    bundle.write_text("async function f(l){try{await g(l)}catch(a){if(a instanceof R)try{await h(l);return}"
                      "catch(p){this.c||q(p);return}this.c||q(a)}}\n")
    scan(bundle, tmp_path / "out")
    outer, _ = [json.loads(line) for line in (tmp_path / "out" / "handlers.jsonl").read_text().splitlines()]
    assert [_read(b) for b in outer["branches"]] == [((None, "instanceof", "R"), ["return-value"]),
                                                    (None, ["callback", "swallow"])]
