"""handlers.jsonl for Python (docs/reference.md, "Handler records", Python): every `except` and
`except*` clause, the classes it names resolved as constructors are, the error callsites it
catches directly through the class hierarchy, its branches on tests of the caught value and what
each does. Driven through `erratlas scan` on fixtures/python-handlers/ (one function per case,
named after it); and bench/ruff_handlers.py on the same tree, with ruff as the oracle."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import FIXTURES, ROOT, SUMMARY, plain_tests, records, run, scan, tree_bytes, write_tree

TREE = FIXTURES / "python-handlers"
HANDLERS = "handlers.jsonl"


@pytest.fixture(scope="module")
def scanned(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("python-handlers") / "scan"
    scan(TREE, out, "--jobs", "2")
    return out


@pytest.fixture(scope="module")
def by_case(scanned: Path) -> dict[str, list[dict[str, Any]]]:
    """The handlers by the function holding them."""
    cases: dict[str, list[dict[str, Any]]] = {}
    for line in (scanned / HANDLERS).read_text(encoding="utf-8").splitlines():
        handler = json.loads(line)
        cases.setdefault(handler["scope"]["function"].rsplit(".", 1)[-1], []).append(handler)
    return cases


@pytest.fixture(scope="module")
def errors(scanned: Path) -> dict[str, dict[str, Any]]:
    return {str(r["id"]): r for r in records(scanned, "error")}


def _one(by_case: dict[str, list[dict[str, Any]]], case: str) -> dict[str, Any]:
    (handler,) = by_case[case]
    return handler


def _kinds(handler: dict[str, Any]) -> list[list[tuple[str, str | None]]]:
    return [[(d["kind"], d["cause"]) for d in b["dispositions"]] for b in handler["branches"]]


def _sources(handler: dict[str, Any], errors: dict[str, dict[str, Any]]) -> list[str]:
    return [errors[s["id"]]["constructor"] for s in handler["sources"]]


def test_a_base_class_catches_its_subclass(by_case: dict[str, list[dict[str, Any]]],
                                           errors: dict[str, dict[str, Any]]) -> None:
    handler = _one(by_case, "base_catches_subclass")
    assert handler["form"] == "except" and handler["param"] == "exc"
    assert handler["catches"] == [{"written": "HandledError", "resolved": "handled.errors.HandledError"}]
    assert _sources(handler, errors) == ["handled.errors.NotFound"]
    assert handler["sources"][0]["via"] == "direct"
    assert handler["id"] == f"h:{handler['unit']}@{handler['offset']}"
    assert handler["fingerprint"].startswith("fp1h:")


def test_a_tuple_names_several_classes(by_case: dict[str, list[dict[str, Any]]],
                                       errors: dict[str, dict[str, Any]]) -> None:
    handler = _one(by_case, "tuple_catches")
    assert [c["resolved"] for c in handler["catches"]] == ["KeyError", "ValueError"]
    assert _sources(handler, errors) == ["handled.errors.Other"]  # Other(ValueError)


def test_the_first_matching_clause_of_a_try_catches(by_case: dict[str, list[dict[str, Any]]],
                                                    errors: dict[str, dict[str, Any]]) -> None:
    value_error, lookup_error, exception = by_case["first_matching_handler_only"]
    assert value_error["sources"] == [] and exception["sources"] == []
    assert _sources(lookup_error, errors) == ["KeyError"]  # KeyError(LookupError), builtin hierarchy


def test_except_star_and_bare_except(by_case: dict[str, list[dict[str, Any]]],
                                     errors: dict[str, dict[str, Any]]) -> None:
    group = _one(by_case, "group_catch")
    assert group["form"] == "except*" and _sources(group, errors) == ["OSError"]
    bare = _one(by_case, "bare_catches_everything")
    assert bare["catches"] is None and bare["param"] is None and _sources(bare, errors) == ["RuntimeError"]


def test_direct_sources_only(by_case: dict[str, list[dict[str, Any]]], errors: dict[str, dict[str, Any]]) -> None:
    assert _sources(_one(by_case, "raised_local"), errors) == ["handled.errors.NotFound"]
    assert _one(by_case, "nested_function_is_not_direct")["sources"] == []
    assert _one(by_case, "not_matching")["sources"] == []  # Other is no HandledError


@pytest.mark.parametrize(("case", "kinds"), [
    ("base_catches_subclass", [[("log", None)]]),
    ("wrap_kept", [[("wrap", "kept")]]),
    ("wrap_lost", [[("wrap", "lost")]]),
    ("wrap_partial", [[("wrap", "partial")]]),
    ("wrap_from_none", [[("wrap", "lost")]]),
    ("rethrow_named", [[("rethrow", None)]]),
    ("bare_catches_everything", [[("rethrow", None)]]),
    ("tuple_catches", [[("return-value", None)]]),
    ("raised_local", [[("return-error", None)]]),
    ("exits", [[("exit", None)]]),
    ("exits_hard", [[("exit", None)]]),
    ("stores", [[("store", None)]]),
    ("stores_attribute", [[("store", None)]]),
    ("retries", [[("retry", None)]]),
    ("swallows", [[("swallow", None)]]),
    ("swallows_ellipsis", [[("swallow", None)]]),
])
def test_each_disposition(by_case: dict[str, list[dict[str, Any]]], case: str, kinds: list[Any]) -> None:
    assert _kinds(_one(by_case, case)) == kinds


@pytest.mark.parametrize(("case", "kinds"), [
    ("rethrows_unless_it_exists", [[("rethrow", None), ("swallow", None)]]),  # if not ...: raise
    ("raises_on_both_arms", [[("rethrow", None), ("wrap", "kept")]]),  # if strict: raise / else: raise X from e
    ("logs_when_verbose", [[("log", None), ("swallow", None)]]),  # verbose and logger.warning(...)
    ("returns_one_or_the_other", [[("return-value", None)]]),  # if first: return 1 / return 2
])
def test_a_branch_also_swallows_when_a_path_meets_none_of_its_dispositions(
        by_case: dict[str, list[dict[str, Any]]], case: str, kinds: list[Any]) -> None:
    assert _kinds(_one(by_case, case)) == kinds


@pytest.mark.parametrize(("case", "kinds"), [
    ("retries_unless_it_raises", [[("rethrow", None), ("wrap", "lost"), ("retry", None)]]),  # trio's accept loop
    ("retries_through_a_continue", [[("rethrow", None), ("retry", None)]]),  # if not strict: continue / raise
    ("leaves_on_every_path", [[("rethrow", None), ("exit", None)]]),  # raise / else: sys.exit(1)
    ("leaves_the_loop_after_the_try", [[("wrap", "lost"), ("swallow", None)]]),  # tarfile's: a `break` after the try
    ("retries_only_through_a_continue", [[("retry", None), ("swallow", None)]]),  # continue, or the `break`
    ("retries_or_gives_up", [[("retry", None), ("swallow", None)]]),  # continue / break
    ("logs_then_stops", [[("log", None), ("retry", None)]]),  # the `break` is met after the log
    # a `raise` or `return` after the `if` or `with` around the `try` (hypothesis' datatree.py)
    ("leaves_the_loop_after_an_if_around_the_try", [[("rethrow", None), ("swallow", None)]]),
    ("leaves_the_loop_after_a_with_around_the_try", [[("log", None)]]),
    ("retries_after_an_if_around_the_try", [[("rethrow", None), ("retry", None)]]),  # no statement leaves after
])
def test_a_branch_in_a_loop_retries_when_a_path_goes_on_to_the_next_turn(
        by_case: dict[str, list[dict[str, Any]]], case: str, kinds: list[Any]) -> None:
    assert _kinds(_one(by_case, case)) == kinds


@pytest.mark.parametrize(("case", "kinds"), [
    ("skips_an_item", [[("swallow", None)]]),  # for path in paths: ... except KeyError: continue
    ("logs_and_goes_on_to_the_next_item", [[("log", None)]]),
    ("skips_or_logs_an_item", [[("log", None), ("swallow", None)]]),  # if quiet: continue
    ("counts_turns_success_does_not_end", [[("swallow", None)]]),  # for _ in range(3), no break or return
    ("indexes_by_its_counter", [[("swallow", None)]]),  # for i in range(len(paths)): ... paths[i]
    ("takes_the_next_job", [[("swallow", None)]]),  # while queue: job = queue.pop()
    ("retries_inside_an_if", [[("retry", None)]]),  # while True: if ready(): try ... (tenacity's)
    ("reads_tokens_until_the_end", [[("swallow", None)]]),  # while value: token, value = get_token(value)
    ("retries_until_done", [[("retry", None)]]),  # while going: ... going = False (urllib3's should_loop)
    # a `while` that reads the next chunk of a stream before its `try` reads on (scrapy's `_inflate`)
    ("inflates_chunk_by_chunk", [[("rethrow", None), ("swallow", None)]]),  # data = stream.read(n)
    ("receives_until_closed", [[("swallow", None)]]),  # packet = sock.recv(n)
    ("asks_again_for_the_same", [[("retry", None)]]),  # response = session.get(url): the same request
    ("reopens_and_reads_again", [[("retry", None)]]),  # a stream the turn opens is new each time
])
def test_a_loop_that_steps_through_items_goes_on_to_the_next_one_and_does_not_retry(
        by_case: dict[str, list[dict[str, Any]]], case: str, kinds: list[Any]) -> None:
    """A `for` over items, a counted `for` that success does not leave or that indexes by its
    counter, and a `while` that takes an item each turn: a failure moves on, so a `continue` or
    the branch's end that meets no disposition is a `swallow`."""
    assert _kinds(_one(by_case, case)) == kinds


@pytest.mark.parametrize(("case", "kinds"), [
    ("yields_the_caught_error", [[("return-error", None)]]),  # yield exc, in a loop over items
    ("yields_it_beside_its_name", [[("return-value", None)]]),  # yield path, None, exc: as return (x, e)
    ("yields_its_message", [[("return-value", None)]]),  # yield str(exc)
    ("yields_from_a_helper", [[("return-value", None), ("callback", None)]]),  # yield from recover(exc)
    ("yields_it_unless_quiet", [[("return-error", None), ("swallow", None)]]),  # if not quiet: yield exc
    # @inlineCallbacks: a driver awaits what it yields, `yield report(exc)` is `await report(exc)`
    ("awaits_through_a_driven_yield", [[("callback", None)]]),
])
def test_a_yield_hands_a_value_to_the_consumer_as_a_return_does(
        by_case: dict[str, list[dict[str, Any]]], case: str, kinds: list[Any]) -> None:
    """A generator's `yield` in a handler is read as a `return` of its value that goes on after
    it: the caught value itself a `return-error`, anything else a `return-value`."""
    assert _kinds(_one(by_case, case)) == kinds


@pytest.mark.parametrize(("case", "told"), [
    # `push` is a candidate callsite (`push = pending.append`) that settles as none: a callback
    ("buffers_through_a_candidate_call", [("rethrow", None, None), ("callback", None, "self.queue.push")]),
    # what a `raise` builds is its `wrap`, not a callback too: unresolved, a local made in a
    # block, under `.with_traceback(tb)`
    ("raises_an_unresolved_class", [("wrap", "partial", "EncodeError")]),
    ("raises_a_local_made_in_a_block", [("rethrow", None, None), ("wrap", "partial", "HandledError")]),
    ("raises_with_a_traceback", [("wrap", "lost", "HandledError")]),
    # a `format` method makes a message, as `str(e)` does; `typing.cast` gives its argument back
    ("formats_a_message", [("return-value", None, None)]),
    ("casts_for_the_checker", [("return-value", None, None)]),
    ("raises_a_formatted_message", [("wrap", "partial", "HandledError")]),
    # a call in another call's arguments makes its value: `describe(exc)` is no callback
    ("raises_a_described_message", [("wrap", "partial", "HandledError")]),
    # a field set on the caught error itself changes it in place: no store (sphinx's intersphinx)
    ("annotates_before_raising", [("rethrow", None, None)]),
    # a name bound to what is read of it passes that on: a callback, a partial cause; one a
    # lambda binds again is the lambda's own
    ("a_name_bound_to_what_is_read_of_it_is_followed", [("wrap", "partial", "HandledError"),
                                                         ("callback", None, "notify")]),
    ("a_name_bound_again_inside_a_lambda_is_its_own", [("wrap", "lost", "HandledError")]),
])
def test_calls_that_build_or_format_are_no_callbacks(by_case: dict[str, list[dict[str, Any]]], case: str,
                                                    told: list[tuple[str, str | None, str | None]]) -> None:
    (branch,) = _one(by_case, case)["branches"]
    assert [(d["kind"], d["cause"], d["callee"]) for d in branch["dispositions"]] == told
    assert all(d["callsites"] for d in branch["dispositions"] if d["callee"] == "HandledError")


def test_a_raise_from_none_says_its_cause_is_suppressed(by_case: dict[str, list[dict[str, Any]]],
                                                         scanned: Path) -> None:
    """`raise X from None` (or from another value) drops the caught error on purpose: its `wrap`
    has `causeSuppressed`; `raise X from e` and `raise X` do not, and the other kinds say null.
    Only a lost cause not suppressed is a `wrap-loses-cause` finding: in the summary, and in
    `sarif --flow`, which reads the records back from the scan directory."""
    def told(case: str) -> list[list[tuple[str, str | None, bool | None]]]:
        return [[(d["kind"], d["cause"], d["causeSuppressed"]) for d in b["dispositions"]]
                for b in _one(by_case, case)["branches"]]

    assert told("wrap_from_none") == told("wrap_from_other") == [[("wrap", "lost", True)]]
    assert told("wrap_kept") == [[("wrap", "kept", False)]]
    assert told("wrap_lost") == [[("wrap", "lost", False)]]
    assert told("wrap_partial") == [[("wrap", "partial", False)]]
    assert told("wrap_lost_or_suppressed") == [[("wrap", "lost", False), ("wrap", "lost", True)]]
    assert told("swallows") == [[("swallow", None, None)]]
    cases = ("wrap_lost", "wrap_lost_or_suppressed", "wrap_from_none", "wrap_from_other", "wrap_kept")
    summary = json.loads((scanned / SUMMARY).read_text())
    lost = {fp for fps in summary["handlerOwners"]["findings"]["lostCause"].values() for fp in fps}
    assert [_one(by_case, case)["fingerprint"] in lost for case in cases] == [True, True, False, False, False]
    done = run("sarif", scanned, "--flow")
    assert done.returncode == 0, done.stderr
    results = json.loads(done.stdout)["runs"][0]["results"]
    lost = {r["properties"]["id"] for r in results if r["ruleId"] == "wrap-loses-cause"}
    assert [_one(by_case, case)["id"] in lost for case in cases] == [True, True, False, False, False]
    explained = run("explain", scanned, _one(by_case, "wrap_lost_or_suppressed")["id"])
    assert "wrap (cause lost) by HandledError" in explained.stdout, explained.stdout
    assert "wrap (cause lost, suppressed) by HandledError" in explained.stdout


def test_a_new_error_caught_in_the_clause_itself_wraps_nothing(by_case: dict[str, list[dict[str, Any]]]) -> None:
    """A `raise X(...)` in a `try` nested in the clause, that the nested `try`'s own clause
    catches, never leaves the clause: no `wrap` (ruff's B904 does not look there either); one
    that the nested `try` does not catch is a `wrap`."""
    outer, inner = by_case["wrap_caught_inside"]
    assert _kinds(outer) == [[("rethrow", None)]] and _kinds(inner) == [[("swallow", None)]]
    (made,) = inner["sources"]
    (leaves,) = by_case["wrap_in_nested_try"]
    assert _kinds(leaves) == [[("wrap", "lost")]] and made["via"] == "direct"


def test_links_the_new_error_and_the_diagnostic(by_case: dict[str, list[dict[str, Any]]],
                                                errors: dict[str, dict[str, Any]], scanned: Path) -> None:
    (wrap,) = _one(by_case, "wrap_kept")["branches"][0]["dispositions"]
    (made,) = wrap["callsites"]
    assert errors[made]["constructor"] == "handled.errors.HandledError" and wrap["callee"] == "HandledError"
    (log,) = _one(by_case, "base_catches_subclass")["branches"][0]["dispositions"]
    diagnostics = {r["id"]: r for r in records(scanned, "diagnostic")}
    assert [diagnostics[i]["level"] for i in log["callsites"]] == log["levels"] == ["warn"]


def test_branches_on_tests_of_the_caught_value(by_case: dict[str, list[dict[str, Any]]]) -> None:
    errno_case = _one(by_case, "tests_errno")
    assert plain_tests(errno_case["branches"]) == [
        {"field": "errno", "op": "==", "value": "errno.ENOENT"},
        {"field": None, "op": "instanceof", "value": "PermissionError"},
        None,
    ]
    assert _kinds(errno_case) == [[("return-value", None)], [("rethrow", None), ("log", None)], [("rethrow", None)]]
    code = _one(by_case, "tests_code")
    assert plain_tests(code["branches"]) == [{"field": "code", "op": "==", "value": 404}, None]


@pytest.mark.parametrize(("case", "tests"), [
    ("tests_a_local_holding_a_field", [{"field": "errno", "op": "==", "value": "errno.ENOENT"}, None]),
    ("tests_a_field_read_by_getattr", [{"field": "code", "op": "==", "value": 404}, None]),
    ("a_local_bound_again_does_not_split", [None]),
    ("tests_the_class_of_a_field", [{"field": "__cause__", "op": "instanceof", "value": "TimeoutError"}, None]),
    ("tests_a_predicate_of_the_value", [{"field": None, "op": "predicate", "value": "is_not_found"}, None]),
    ("tests_a_negated_predicate_of_a_field",
     [{"field": "errno", "op": "!predicate", "value": "RETRYABLE.__contains__"}, None]),
    ("a_predicate_given_more_does_not_split", [None]),
    ("tests_either_value", [{"field": "errno", "op": "==", "value": "errno.ENOENT"},
                            {"field": "errno", "op": "==", "value": "errno.ENOTDIR"}, None]),
    ("tests_membership", [{"field": "errno", "op": "!in", "value": ["errno.ENOENT", "errno.ENOTDIR"]}, None]),
    # an `and` of tests: one test and its `also`; `not` over an `or`; a guard of what another reads left out
    ("tests_a_class_and_a_field", [{"field": None, "op": "instanceof", "value": "OSError",
                                    "also": [{"field": "errno", "op": "==", "value": "errno.ENOENT"}]}, None]),
    ("tests_neither_value", [{"field": "errno", "op": "!=", "value": "errno.ENOENT",
                              "also": [{"field": "errno", "op": "!=", "value": "errno.ENOTDIR"}]}, None]),
    ("tests_a_field_behind_its_guard", [{"field": "response.status", "op": "==", "value": 404,
                                         "also": [{"field": "retryable", "op": "truthy", "value": None}]}, None]),
    ("a_conjunct_of_another_value_does_not_split", [None]),
])
def test_a_local_holding_a_field_and_getattr_are_tests_of_the_field(by_case: dict[str, list[dict[str, Any]]],
                                                                     case: str, tests: list[object]) -> None:
    """`code = exc.errno` then `if code == errno.ENOENT`, `getattr(exc, "code", None) == 404` and
    `isinstance(exc.__cause__, X)` test the field; a local bound again (`if not code: code =
    errno.EIO`) may hold another value. A call given the caught value or a field of it alone is a
    `predicate` test, one given more does not split."""
    assert plain_tests(_one(by_case, case)["branches"]) == tests


def test_tests_in_a_row_whose_branches_leave_are_one_chain(by_case: dict[str, list[dict[str, Any]]]) -> None:
    """`if a: return` then `if b: raise`, an `elif` chain written as tests in a row, the statement
    between in the next test's branches; a test whose branch falls through ends the chain."""
    row = _one(by_case, "tests_in_a_row")
    assert plain_tests(row["branches"]) == [
        {"field": "errno", "op": "==", "value": "errno.ENOENT"},
        {"field": "errno", "op": "==", "value": "errno.EACCES"},
        None,
    ]
    assert _kinds(row) == [[("return-value", None)], [("wrap", "kept")], [("rethrow", None)]]
    through = _one(by_case, "tests_in_a_row_after_one_that_falls_through")
    assert plain_tests(through["branches"]) == [{"field": "errno", "op": "==", "value": "errno.ENOENT"}, None]


def test_summary_counts_and_jobs_give_the_same_bytes(scanned: Path, tmp_path: Path) -> None:
    summary = json.loads((scanned / SUMMARY).read_text())
    lines = (scanned / HANDLERS).read_text().splitlines()
    assert summary["handlers"]["count"] == len(lines) and HANDLERS in summary["outputs"]
    assert summary["handlers"]["byForm"] == {"except": len(lines) - 1, "except*": 1}
    one = tmp_path / "one"
    scan(TREE, one, "--jobs", "1")
    assert tree_bytes(one) == tree_bytes(scanned)


def test_ruff_agrees_site_by_site(scanned: Path, tmp_path: Path) -> None:
    """bench/ruff_handlers.py on the fixture, ruff the oracle: every finding of each rule on both
    sides or explained by a stated difference of definition."""
    rows = {row["rule"]: row for row in _ruff_rows(scanned, tmp_path)}
    assert {rule: (row["ruff"], row["both"]) for rule, row in rows.items()} == {
        "B904": (11, 11), "S110": (4, 4), "TRY203": (5, 5), "TRY301": (6, 5)}
    differences = [d for row in rows.values() for d in (*row["onlyRuff"], *row["onlyErratlas"])]
    assert differences and all(d["why"] != "unexplained" for d in differences), differences
    assert {(d["line"], d["why"].split(": ruff")[0]) for d in rows["TRY301"]["onlyErratlas"]} == {
        (15, "caught through the class hierarchy (a base class named)"),
        (22, "caught through the class hierarchy (a base class named)"),
        (47, "a bare `except:` catches it"),
        (56, "a raised local (`e = X(...); raise e`)"),
    }


def _ruff_rows(scan: Path, tmp_path: Path) -> list[dict[str, Any]]:
    """bench/ruff_handlers.py's comparison of the fixture's tree with the scan `scan`, by rule."""
    report = tmp_path / "ruff.json"
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "ruff_handlers.py"), "--target", str(TREE / "handled"),
         "--scan", str(scan), "--json", str(report)],
        capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    rows: list[dict[str, Any]] = json.loads(report.read_text())
    return rows


def _doctored(handler: dict[str, Any]) -> dict[str, Any]:
    """One defect of each kind the harness must not explain away, planted in a copy of the scan."""
    if (handler["unit"], handler["line"]) == ("handled/flow.py", 80):  # `raise X from e`: kept, said lost
        handler["branches"][0]["dispositions"][0]["cause"] = "lost"
    elif (handler["unit"], handler["line"]) == ("handled/lints.py", 25):  # `except Exception: pass`, said log
        handler["branches"][0]["dispositions"][0]["kind"] = "log"
    elif (handler["unit"], handler["line"]) == ("handled/lints.py", 63):  # `raise ValueError` to `except ValueError`
        handler["sources"] = []
    return handler


def test_ruff_comparison_leaves_an_erratlas_defect_unexplained(scanned: Path, tmp_path: Path) -> None:
    """A wrong cause verdict (`from e` said lost), a `pass` body given another disposition and a
    direct source missed where every class resolves are `unexplained`, not passed off as a
    difference of definition."""
    doctored = tmp_path / "scan"
    shutil.copytree(scanned, doctored)
    handlers = [json.loads(line) for line in (doctored / HANDLERS).read_text(encoding="utf-8").splitlines()]
    (doctored / HANDLERS).write_text(
        "".join(json.dumps(_doctored(h)) + "\n" for h in handlers), encoding="utf-8")
    unexplained = {(row["rule"], d["unit"], d["line"]) for row in _ruff_rows(doctored, tmp_path)
                   for d in (*row["onlyRuff"], *row["onlyErratlas"]) if d["why"] == "unexplained"}
    assert unexplained == {("B904", "handled/flow.py", 80), ("S110", "handled/lints.py", 25),
                           ("TRY301", "handled/lints.py", 61)}


_TRIMMED = """def trimmed(run, trim):
    try:
        run()
    except BaseException as e:
        found = e.with_traceback(trim())
        raise found
"""


def test_ruff_comparison_explains_the_caught_error_raised_through_a_local(tmp_path: Path) -> None:
    """`found = e.with_traceback(tb); raise found` (hypothesis' `core.py`) raises the caught error
    itself, a `rethrow`: ruff's B904 flags the name raised, and the harness says why they differ."""
    tree = tmp_path / "trimmed"
    tree.mkdir()
    (tree / "trimmed.py").write_text(_TRIMMED, encoding="utf-8")
    out = tmp_path / "scan"
    scan(tree, out)
    [handler] = [json.loads(line) for line in (out / HANDLERS).read_text(encoding="utf-8").splitlines()]
    assert _kinds(handler) == [[("rethrow", None)]]
    report = tmp_path / "ruff.json"
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "ruff_handlers.py"), "--target", str(tree), "--scan", str(out),
         "--json", str(report)], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    rows = {row["rule"]: row for row in json.loads(report.read_text())}
    assert (rows["B904"]["ruff"], rows["B904"]["erratlas"]) == (1, 0)
    assert [(d["line"], d["why"].split(":")[0]) for d in rows["B904"]["onlyRuff"]] == [
        (4, "`x = e.with_traceback(tb); raise x`")]


_RETHROWS = '''def cleanup():
    pass


def alone(f):
    try:
        return f()
    except OSError:
        raise


def named(f):
    try:
        return f()
    except OSError as e:
        """Nothing to add."""
        pass
        raise e


def after_work(f):
    try:
        return f()
    except OSError:
        cleanup()
        raise


def from_none(f):
    try:
        return f()
    except OSError as e:
        raise e from None


def before_a_broader_clause(f):
    try:
        return f()
    except KeyError:
        raise
    except Exception:
        cleanup()


def before_another_lone_raise(f):
    try:
        return f()
    except KeyError:
        raise
    except ValueError as e:
        raise e
'''


def test_a_lone_rethrow_is_a_body_of_the_raise_alone(tmp_path: Path) -> None:
    """`loneRethrow` (ruff's TRY203): `raise` or `raise e` alone, `pass` and docstrings aside, and
    so is every later clause of its `try`; not `cleanup(); raise`, nor `raise e from None`, which
    the dispositions call a rethrow too, nor a lone `raise` that keeps errors from a later clause."""
    tree = tmp_path / "rethrows"
    tree.mkdir()
    (tree / "rethrows.py").write_text(_RETHROWS, encoding="utf-8")
    out = tmp_path / "scan"
    scan(tree, out)
    handlers = [json.loads(line) for line in (out / HANDLERS).read_text(encoding="utf-8").splitlines()]
    told = [(h["scope"]["function"].rsplit(".", 1)[-1], h["loneRethrow"]) for h in handlers]
    assert told == [("alone", True), ("named", True), ("after_work", False), ("from_none", False),
                    ("before_a_broader_clause", False), ("before_a_broader_clause", False),
                    ("before_another_lone_raise", True), ("before_another_lone_raise", True)]
    assert all(_kinds(h) == [[("rethrow", None)]] for h in handlers[:5] + handlers[6:])
    useless = [h for h in handlers if h["loneRethrow"]]
    sarif = run("sarif", out, "--flow", cwd=ROOT)
    assert sarif.returncode == 0, sarif.stderr
    assert [r["properties"]["id"] for r in json.loads(sarif.stdout)["runs"][0]["results"]
            if r["ruleId"] == "useless-catch"] == [h["id"] for h in useless]
    summary = json.loads((out / SUMMARY).read_text(encoding="utf-8"))
    assert summary["handlerOwners"]["findings"]["uselessCatch"]["Unresolved"] == sorted(
        h["fingerprint"] for h in useless)

_REBOUND = """def rebound(g):
    try:
        g()
    except OSError as e:
        e = RuntimeError("replaced")
        raise e


def rebound_with_traceback(g, tb):
    try:
        g()
    except OSError as e:
        e = e.with_traceback(tb)
        raise e


def raised_as_caught(g):
    try:
        g()
    except OSError as e:
        raise e
"""


def test_the_caught_name_bound_to_a_new_error_raises_that_error(tmp_path: Path) -> None:
    """`except E as e: e = X(...); raise e` throws X, not what was caught: a `wrap`, as in
    JavaScript (`catch (e) { e = new Error(...); throw e }`), not a `rethrow`."""
    tree = write_tree(tmp_path / "rebound", {"rebound.py": _REBOUND})
    out = tmp_path / "scan"
    scan(tree, out)
    handlers = [json.loads(line) for line in (out / HANDLERS).read_text(encoding="utf-8").splitlines()]
    told = {h["scope"]["function"].rsplit(".", 1)[-1]: _kinds(h) for h in handlers}
    assert told == {"rebound": [[("wrap", "lost")]], "rebound_with_traceback": [[("rethrow", None)]],
                    "raised_as_caught": [[("rethrow", None)]]}
    (error,) = records(out, "error")
    assert handlers[0]["branches"][0]["dispositions"][0]["callsites"] == [error["id"]]


_NAMESPACE_TREE = {
    "pkg/__init__.py": "",
    "pkg/errors.py": "class ExecError(Exception):\n    pass\n",
    "pkg/compilers/C/errors.py": "class CompileError(Exception):\n    pass\n",
    "pkg/compilers/C/unix.py": """from ...errors import ExecError
from .errors import CompileError


def compile_one(spawn, command):
    try:
        spawn(command)
        raise ExecError("no compiler")
    except ExecError as failure:
        raise CompileError(failure)
""",
    "pkg/_vendor/six.py": "class Error(Exception):\n    pass\n",
}


def test_a_directory_without_init_inside_a_package_is_its_subpackage(tmp_path: Path) -> None:
    """PEP 420: `pkg/compilers/C/unix.py` (no `__init__.py` in `compilers/` nor `C/`) is
    `pkg.compilers.C.unix`, so `from ...errors import ExecError` resolves, its clause catches the
    `raise` of its `try` and the new error is `pkg.compilers.C.errors.CompileError`; a vendor
    directory is put on `sys.path` instead (`pkg/_vendor/six.py` stays `six`)."""
    tree = tmp_path / "namespace"
    write_tree(tree, _NAMESPACE_TREE)
    out = tmp_path / "scan"
    scan(tree, out)
    modules = {m["unit"]: m["name"] for m in map(json.loads, (out / "modules.jsonl").read_text().splitlines())}
    assert modules["pkg/compilers/C/unix.py"] == "pkg.compilers.C.unix"
    assert modules["pkg/_vendor/six.py"] == "six"
    [handler] = [json.loads(line) for line in (out / HANDLERS).read_text(encoding="utf-8").splitlines()]
    assert handler["catches"] == [{"written": "ExecError", "resolved": "pkg.errors.ExecError"}]
    errors = {e["id"]: e for e in records(out, "error")}
    assert [errors[s["id"]]["constructor"] for s in handler["sources"]] == ["pkg.errors.ExecError"]
    [[wrap]] = [b["dispositions"] for b in handler["branches"]]
    assert (wrap["kind"], wrap["cause"]) == ("wrap", "partial")
    assert [errors[i]["constructor"] for i in wrap["callsites"]] == ["pkg.compilers.C.errors.CompileError"]

# --- flow (docs/reference.md, "Flow"): fixtures/python-handlers/fates/, one function per case ---

#: the escapes each fate gives when no handler of the function decides otherwise (JavaScript's rule)
_ESCAPES = {"thrown": True, "returned": True, "rejected": True, "passed": False, "stored": False,
            "logged": False, "discarded": False, None: None}


@pytest.fixture(scope="module")
def fates(errors: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """The flow of each error of fates/cases.py, by its message (which names the expected fate)."""
    return {r["message"]["text"]: r["flow"] for r in errors.values() if r["unit"] == "fates/cases.py"}


def test_each_error_has_the_fate_its_message_names(fates: dict[str, dict[str, Any]]) -> None:
    assert len(fates) == 28
    for message, flow in fates.items():
        expected = message.split(":", 1)[0]
        assert flow["fate"] == (None if expected == "null" else expected), message
        if flow["handler"] is None and "unknown" not in message:
            assert flow["escapes"] is _ESCAPES[flow["fate"]], message


def test_a_thrown_error_links_the_handler_that_catches_it(fates: dict[str, dict[str, Any]],
                                                           by_case: dict[str, list[dict[str, Any]]]) -> None:
    caught = fates["thrown: caught by a base class"]
    assert caught["handler"] == _one(by_case, "thrown_caught")["id"] and caught["escapes"] is False
    assert fates["thrown: a local with fields"]["handler"] == _one(by_case, "thrown_local_fields")["id"]
    for message in ("thrown: no handler matches", "thrown: in a nested function", "thrown: escapes"):
        assert (fates[message]["handler"], fates[message]["escapes"]) == (None, True), message
    # a handler whose class does not resolve leaves open whether the error leaves its function
    assert (fates["thrown: the handler's class is unknown"]["handler"],
            fates["thrown: the handler's class is unknown"]["escapes"]) == (None, None)


def test_flow_handlers_are_exactly_the_direct_sources(scanned: Path, errors: dict[str, dict[str, Any]]) -> None:
    """One decision for both: the handler of an error's flow lists it as a direct source, and
    every direct source's flow names that handler."""
    handlers = [json.loads(line) for line in (scanned / HANDLERS).read_text().splitlines()]
    direct = {(s["id"], h["id"]) for h in handlers for s in h["sources"] if s["via"] == "direct"}
    flows = {(i, r["flow"]["handler"]) for i, r in errors.items() if r["flow"]["handler"] is not None}
    assert direct == flows and len(direct) >= 8


def test_fields_are_the_attributes_set_before_the_fate(fates: dict[str, dict[str, Any]]) -> None:
    assert fates["thrown: a local with fields"]["fields"] == ["errno", "filename"]
    assert fates["returned: a local"]["fields"] == ["code"]
    assert all(f["fields"] == [] for m, f in fates.items() if "fields" not in m and m != "returned: a local")


def test_diagnostics_have_no_flow(scanned: Path) -> None:
    diagnostics = records(scanned, "diagnostic")
    assert diagnostics and all(d["flow"] is None for d in diagnostics)


# --- through a call (docs/reference.md, "Handler records", Python): fixtures/python-handlers/called/ ---

def _through(handler: dict[str, Any], errors: dict[str, dict[str, Any]]) -> list[tuple[str, str, int]]:
    """(unit, function) of each error callsite caught through a call, with its hops."""
    return [(errors[s["id"]]["unit"], errors[s["id"]]["scope"]["function"], s["hops"])
            for s in handler["sources"] if s["via"] == "call"]


def test_a_call_source_at_one_and_two_hops(by_case: dict[str, list[dict[str, Any]]],
                                           errors: dict[str, dict[str, Any]]) -> None:
    lookup = ("called/helpers.py", "called.helpers.lookup")
    assert _through(_one(by_case, "call_at_one_hop"), errors) == [(*lookup, 1)]
    assert _through(_one(by_case, "call_through_a_module"), errors) == [(*lookup, 1)]  # helpers.lookup(...)
    assert _through(_one(by_case, "call_at_two_hops"), errors) == [(*lookup, 2)]  # fetch -> lookup
    check = ("called/calls.py", "called.calls.Service.check", 1)
    assert _through(_one(by_case, "call_through_self"), errors) == [check]
    assert _through(_one(by_case, "call_awaited"), errors) == [("called/calls.py", "called.calls.async_lookup", 1)]


@pytest.mark.parametrize("case", [
    "call_caught_inside_the_callee",  # the callee's own handler catches it
    "call_of_a_class_not_caught",  # ValueError: the handler names HandledError
    "call_unresolved",  # a parameter called
    "call_overridden",  # self.fail(): a subclass defines fail again
    "call_not_awaited",  # an async function called without await runs nothing
])
def test_no_call_source_is_guessed(by_case: dict[str, list[dict[str, Any]]], case: str) -> None:
    assert _one(by_case, case)["sources"] == []


def test_the_error_sink_is_reported_and_set_exception_rejects(by_case: dict[str, list[dict[str, Any]]],
                                                              scanned: Path) -> None:
    for case in ("reported_once", "reported_thrice"):
        assert _kinds(_one(by_case, case)) == [[("report", None)]]
    assert _kinds(_one(by_case, "reported_twice")) == [[("report", None), ("return-value", None)]]
    assert _one(by_case, "reported_once")["branches"][0]["dispositions"][0]["callee"] == "report_failure"
    assert _kinds(_one(by_case, "rejected")) == [[("reject", None)]]
    (sink,) = json.loads((scanned / SUMMARY).read_text())["handlers"]["sinks"]
    assert sink["name"] == "called.helpers.report_failure" and sink["unit"] == "called/helpers.py"
    assert sink["calls"] == 3 and sink["declaration"]["kind"] == "function"


def test_a_tree_none_of_whose_units_parse_writes_no_handler_and_says_so(tmp_path: Path) -> None:
    """Python 2 code parses nowhere: the scan writes an empty handlers.jsonl, as for any Python scan
    (explain and sarif --flow read it), and its line says how many units did not parse."""
    tree = write_tree(tmp_path / "py2", {"pkg/__init__.py": "", "pkg/a.py": 'print "x"\nraise ValueError, "y"\n'})
    out = tmp_path / "out"
    result = run("scan", tree, "--out", out)
    assert result.returncode == 0, result.stderr
    assert "(1 of 2 units did not parse: the summary's loggers[].parseError)" in result.stdout + result.stderr
    assert (out / "handlers.jsonl").read_bytes() == b""
    summary = json.loads((out / SUMMARY).read_text())
    assert summary["handlers"]["count"] == 0
    flow = run("sarif", out, "--flow", "--out", tmp_path / "flow.sarif")
    assert flow.returncode == 0, flow.stderr
    parsed = run("scan", write_tree(tmp_path / "py3", {"a.py": "raise ValueError('y')\n"}), "--out", tmp_path / "o3")
    assert "did not parse" not in parsed.stdout + parsed.stderr
