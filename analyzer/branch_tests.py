"""Conjunctions of a branch's tests, shared by both frontends (docs/reference.md, "Branches"): one
test holding several (`also`), `&&`/`and` distributed over `||`/`or`, and `!`/`not` over both."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from analyzer.handler_model import BranchTest
from analyzer.model import TestOp

#: how many branches one condition may distribute into
MOST = 16


def each(test: BranchTest) -> tuple[BranchTest, ...]:
    """A conjunction's tests, each without an `also` of its own."""
    return (replace(test, also=()), *test.also)


def all_of(tests: Sequence[BranchTest]) -> BranchTest:
    """One test holding `tests` (each flattened into itself and its `also`): the first, with the
    rest, in order and without repeats, as its `also`."""
    flat = list(dict.fromkeys(t for test in tests for t in each(test)))
    return replace(flat[0], also=tuple(flat[1:]))


def product(options: Sequence[Sequence[BranchTest]]) -> list[BranchTest] | None:
    """The tests of a conjunction whose operands open `options`: one per choice of a test from each
    (`a && (b || c)` is `a && b` or `a && c`); None past `MOST` of them or of tests in one."""
    chosen: list[list[BranchTest]] = [[]]
    for tests in options:
        chosen = [[*made, test] for made in chosen for test in tests]
        if len(chosen) > MOST:
            return None
    made = [all_of(tests) for tests in chosen]
    return None if any(len(test.also) >= MOST for test in made) else made


def negated(alternatives: Sequence[BranchTest], negate: Callable[[TestOp], TestOp | None]) -> list[BranchTest] | None:
    """The tests of the negation of a condition that opens `alternatives`: `!(a || b)` is `!a && !b`,
    `!(a && b)` is `!a || !b`; None when a test has no negation or past `MOST`."""
    options = []
    for alternative in alternatives:
        negations = []
        for test in each(alternative):
            op = negate(test.op)
            if op is None:
                return None
            negations.append(replace(test, op=op))
        options.append(negations)
    return product(options)


def unguarded(test: BranchTest) -> BranchTest:
    """A conjunction without its truthiness tests of the value, or of a field, that another of its
    tests reads from (`e.response and e.response.status == 404` tests `response.status`)."""
    tests = each(test)
    fields = [t.field for t in tests]
    kept = [t for t in tests if not (t.op == "truthy" and any(
        f is not None and f != t.field and (t.field is None or f.startswith((t.field + ".", t.field + "[")))
        for f in fields))]
    return all_of(kept)
