"""A promise rejected with the caught value is a `reject`; rejected with anything else, through
the executor's `reject` or `Promise.reject`, a `wrap`, read as a throw of it is; the caught value
assigned to state as one operand of `||` or `??`, an arm of `?:` or by `||=` is a `store` on one
path and a `swallow` on the other; a local bound to a call and returned is the call returned, and
a new error made from the caught value passes it on; a name the handler does not declare, assigned
a new error, holds it; `new Promise(...)` and `new Date(...)` make no error; what a method of the
caught value gives is read from it; the caught value assigned to a field of a new error of the
handler, at any depth (`n.errors[e.path] = e`), is its cause, no store; `.catch(console.error)`
is a `log`; a local holding what a call made of the caught value, thrown, is that call thrown;
`global.process.exit(1)` is an `exit`; the caught value as a field of an object literal, or an
element of an array, assigned to state is a `store`; the executor of `new (P ||
(P = Promise))(...)` (TypeScript's `__awaiter`) rejects; an error from outside the handler
given the caught value's message keeps part of it; a `?:` returned as a sequence's last member
returns either arm; the executor's `reject` given a status code or a text rejects without the
caught value; a new Node stream, `new stream.PassThrough()`, is no new error; the cause assigned to an error a
call made, then thrown, is no store; the caught value kept in a collection by `unshift`, `add` or a
Map's `set` is a `store`, as by `push`, and so is a local that is the caught value on one path and a
new error keeping it on another, or a local bound to such a new error; a call given the caught value
whose promise is chained (`f(e).catch(noop)`) is a `callback`; a call of a console method chosen by a
condition, `(c ? console.error : console.warn)(m)`, is a `log` (docs/reference.md,
"Dispositions", "Which name is the caught value"). Driven
through `erratlas scan` on fixtures/flow/src/rejects.js and its esbuild and terser builds: the
same dispositions each way."""

from __future__ import annotations

import re

import pytest
from conftest import FIXTURES, handlers_of_reads

FLOW = FIXTURES / "flow"
READS = {"source": FLOW / "src" / "rejects.js", "esbuild": FLOW / "built" / "rejects.min.js",
         "terser": FLOW / "built" / "rejects.terser.min.js"}

#: each exported function of rejects.js in order, with its catch clause's dispositions (of its one
#: branch, or of each): kind, kind/cause for a wrap, and `+callee` where the callee is checked
CASES: list[tuple[str, list[str] | list[list[str]]]] = [
    ("rejectsWhatACallMakes", ["wrap/kept+makeError"]),
    ("rejectsTheMessage", ["wrap/partial+"]),
    ("rejectsTheCaughtValue", ["reject"]),
    ("rejectsEitherArm", ["wrap/kept+Error", "reject"]),
    ("promiseRejectOfACall", ["wrap/kept+makeError"]),
    ("promiseRejectOfTheMessage", ["wrap/partial+"]),
    ("promiseRejectOfTheCaughtValue", ["reject+Promise.reject"]),
    ("promiseRejectOfANewError", ["wrap/partial+Error"]),
    ("storesEitherOperand", ["store", "swallow"]),
    ("storesTheNullishOperand", ["store", "swallow"]),
    ("storesByLogicalAssignment", ["store", "swallow"]),
    ("storesOneArm", ["store", "swallow"]),
    ("storesTheCaughtValue", ["store"]),
    ("returnsWhatACallMadeThroughALocal", [["callback+formatted"], ["rethrow"]]),
    ("passesANewErrorThroughALocal", ["callback+reporter.emit"]),
    ("returnsALocalAfterABranch", ["return-value"]),
    # the two wraps are one disposition, which keeps the constructor however the minifier orders them
    ("throwsARewrittenValueOrANewError", ["wrap/partial+Error"]),
    # a name of the enclosing function assigned a new error made from the caught value, then thrown
    ("throwsAnOuterNameMadeFromIt", ["wrap/partial+Error"]),
    # a built-in class that makes no error: the value returned is a value, not a new error
    ("returnsANewPromise", ["return-value"]),
    ("returnsANewDate", ["return-value"]),
    # what a method of the caught value gives is read from it, as `error.inner` is
    ("throwsWhatAMethodOfItGives", ["wrap/partial"]),
    # `wrapped.cause = error` is the new error's cause, state that ends with the throw: no store
    ("keepsTheCauseOnALocalError", ["wrap/kept+Error"]),
    # TypeScript's `__awaiter` makes its promise with `new (P || (P = Promise))(...)`
    ("rejectsFromTypeScriptsAwaiter", ["reject"]),
    # an error from outside the handler, given the caught value's message, then thrown (jest-circus)
    ("throwsAnOuterErrorGivenItsMessage", ["wrap/partial"]),
    # esbuild returns the sequence `error = error || "unknown", c ? new Error(m) : new Error(error.message)`
    ("returnsANewErrorAfterAnAssignment", ["wrap/partial", "wrap/lost"]),
    # `invalid.errors[error.path] = error; throw invalid` (mongoose's): kept, at any depth of its
    # fields, and no store
    ("keepsItInAFieldOfALocalError", ["wrap/kept+AggregateError"]),
    # `const error = toError(caught); throw error` throws what the call made, as `throw toError(caught)`
    # (how both minifiers fold a local used once) does: the caught value is the call's argument
    ("throwsWhatACallMadeThroughALocal", ["wrap/kept+toError"]),
    ("throwsWhatACallMadeThroughALocalUsedTwice", ["wrap/kept+toError"]),
    # `global.process.exit(1)` and `globalThis.process.exit(2)` end the process: no swallow
    ("exitsThroughTheGlobalProcess", ["log", "exit"]),
    ("exitsThroughGlobalThis", ["log", "exit"]),
    # `results[at] = {status: "rejected", reason: error}`, `state.failures = [...state.failures, error]`:
    # kept in state as a field or an element; `state.last = {message: error.message}` keeps only its text
    ("storesItInAnObject", ["store"]),
    ("storesItInAnArray", ["store"]),
    ("storesItInAnObjectPushed", ["store"]),  # failures.push({text, error}), as failures.push(error)
    ("storesOnlyItsMessage", ["swallow"]),
    # `throw await explained(error, response)` (imapflow's): what the awaited call makes is thrown,
    # as `throw explained(error, response)` throws it: the caught value is its argument
    ("throwsWhatAnAwaitedCallMakes", ["wrap/kept+explained"]),
    # `new Response(...)`, `new Request(...)`, `new Headers(...)`: built-in classes of no error
    ("returnsANewResponse", ["return-value"]),
    # `failure = new Error(m, {cause: error})` outside the handler keeps the caught value in state
    ("storesANewErrorThatKeepsIt", ["store"]),
    # the executor's `reject(-70402)`, `reject("unparsable")`: rejected without it, as `throw -70402` is
    ("rejectsAStatusCode", ["wrap/lost", "log"]),
    ("rejectsAText", ["wrap/lost"]),
    # `new stream.PassThrough()`: a built-in class of no error, as a module's member
    ("returnsANewStream", ["return-value", "callback"]),
    # `const n = errors.getErr(code); n.cause = e; throw n` (oracledb's): the cause of the error a call
    # made, no store; an object a call gave, not thrown, keeps it in state (`state.failure = e`)
    ("keepsTheCauseOnAnErrorACallMade", ["wrap/kept"]),
    ("storesInAnObjectACallGave", ["store"]),
    # kept in a collection: `unshift`, a Set's `add`, a Map's `set` (its value), as `push`
    ("storesItUnshifted", ["store"]),
    ("storesItInASet", ["store"]),
    ("storesItInAMap", ["store"]),
    # a local that is the caught value or a new error keeping it, pushed or assigned to state (liquidjs')
    ("storesALocalThatIsEither", ["rethrow", "wrap/kept", "store"]),
    ("storesALocalAssignedOnEachPath", ["store"]),
    # a local bound to a new error that keeps it, pushed by an optional call (swagger-client's)
    ("storesANewErrorThroughALocal", ["store", "swallow"]),
    # `reader.cancel(error).finally(release)`, `await writer.abort(error).then(f).finally(f)`: the call
    # given the caught value is handed it, whatever its promise is chained to (the AI SDK's readers)
    ("passesItToACallWhosePromiseIsChained", ["rethrow", "callback"]),
    ("passesItToACallWhoseChainIsAwaited", ["callback"]),
    # `(handler.raiseError ? console.error : console.warn)(m)` (@langchain/core's): every value of the
    # callee a console method, a `log`; `(handler.log || console.warn)(e)` may call anything, a callback
    ("logsThroughAConsoleMethodChosen", ["log"]),
    ("logsThroughEitherConsoleMethod", ["log"]),
    ("callsAFunctionChosen", ["callback"]),
]
#: `makeError` as each build names it: the function of two parameters whose body makes an Error
_MAKE_ERROR = re.compile(r"function (\w+)\(\w+,\w+\)\{const \w+=new Error\(")


#: `formatted` and the reporter parameter of `passesANewErrorThroughALocal` as each build names them
_FORMATTED = re.compile(r"function (\w+)\(\w+,\w+,\w+\)\{return\{self:")
_REPORTER = re.compile(r"(\w+)\.emit\(\"error\"")
_TO_ERROR = re.compile(r"function (\w+)\(\w+\)\{return \w+ instanceof Error\?")
_EXPLAINED = re.compile(r"async function (\w+)\(\w+,\w+\)\{return Object\.assign\(")


def _names(read: str) -> dict[str, str]:
    if read == "source":
        return {}
    built = READS[read].read_text()
    names = {}
    for name, pattern in (("makeError", _MAKE_ERROR), ("formatted", _FORMATTED), ("reporter", _REPORTER),
                          ("toError", _TO_ERROR), ("explained", _EXPLAINED)):
        found = pattern.search(built)
        assert found is not None, name
        names[name] = found.group(1)
    return names


def _written(branch: dict[str, object], wanted: list[str]) -> list[str]:
    out = []
    for disposition, want in zip(branch["dispositions"], wanted + [""] * 99):  # type: ignore[arg-type]
        kind = disposition["kind"] + (f"/{disposition['cause']}" if disposition["cause"] else "")
        out.append(kind + (f"+{disposition['callee'] or ''}" if "+" in want else ""))
    return out


@pytest.fixture(scope="module")
def handlers(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[dict[str, object]]]:
    return handlers_of_reads(tmp_path_factory, READS)


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
    wanted = CASES[at][1]
    expected = [list(b) for b in wanted] if isinstance(wanted[0], list) else [list(wanted)]  # type: ignore[arg-type]
    for source_name, built_name in _names(read).items():
        expected = [[want.replace(f"+{source_name}", f"+{built_name}") for want in b] for b in expected]
    assert len(branches) == len(expected)  # type: ignore[arg-type]
    assert [_written(branch, want) for branch, want in zip(branches, expected)] == expected  # type: ignore[arg-type]


@pytest.mark.parametrize("read", sorted(READS))
def test_a_wrap_rejected_links_its_new_error(catches: dict[str, list[dict[str, object]]], read: str) -> None:
    """A new error rejected is linked as a thrown one is: its callsite id."""
    at = [name for name, _ in CASES].index("promiseRejectOfANewError")
    (wrap,) = catches[read][at]["branches"][0]["dispositions"]  # type: ignore[index]
    assert wrap["kind"] == "wrap" and len(wrap["callsites"]) == 1


@pytest.mark.parametrize("read", sorted(READS))
def test_an_array_holding_the_caught_value_keeps_it(handlers: dict[str, list[dict[str, object]]], read: str) -> None:
    """`.catch(error => reject([error]))`: the rejection carries the error whole."""
    (handler,) = [h for h in handlers[read] if h["form"] == "promise-catch" and h["param"] is not None]
    (branch,) = handler["branches"]  # type: ignore[misc]
    assert [(d["kind"], d["cause"]) for d in branch["dispositions"]] == [("wrap", "kept")]


@pytest.mark.parametrize("read", sorted(READS))
def test_a_console_method_given_by_name_logs(handlers: dict[str, list[dict[str, object]]], read: str) -> None:
    """`.catch(console.error)` calls console.error with the caught value, as `e => console.error(e)` does."""
    (handler,) = [h for h in handlers[read] if h["form"] == "promise-catch" and h["param"] is None]
    (branch,) = handler["branches"]  # type: ignore[misc]
    assert [(d["kind"], d["callee"]) for d in branch["dispositions"]] == [("log", "console.error")]


@pytest.mark.parametrize("read", sorted(READS))
def test_a_console_method_chosen_by_a_condition_logs_as_written(catches: dict[str, list[dict[str, object]]],
                                                                read: str) -> None:
    """Its callee as written, no callsite nor level: the inventory counts no console call (as `console.error(m)`)."""
    at = [name for name, _ in CASES].index("logsThroughAConsoleMethodChosen")
    (log,) = catches[read][at]["branches"][0]["dispositions"]  # type: ignore[index]
    assert re.fullmatch(r"\(\w+\.raiseError ?\? ?console\.error ?: ?console\.warn\)", log["callee"])
    assert (log["kind"], log["callsites"], log["levels"]) == ("log", [], [])
