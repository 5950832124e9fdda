"""Ties settled by neighbours (docs/corpus.md, "Matching", 5) never pick a package whose only
holder of the function is a version published after the bundle's window (Matching, 7)."""

from __future__ import annotations

from analyzer.owners.corpus.decision import Decision, Hit
from analyzer.owners.corpus.neighbours import Neighbours
from analyzer.signatures import BundleFunction

P, Q = "package-p", "package-q"


def _function(start: int, key: str) -> BundleFunction:
    return BundleFunction("bundle.js", start, start + 10, key, 8, 80)


def _tie(p_late: bool) -> tuple[Neighbours, Decision]:
    """A function held by P and Q between two functions naming P alone."""
    before, tied, after = _function(0, "a" * 16), _function(20, "b" * 16), _function(40, "c" * 16)
    alone = {before.key: P, after.key: P}
    neighbours = Neighbours([before, tied, after], alone.get, lambda key: frozenset({P, Q}))
    hits = (Hit(P, (P, "2.0.0"), "index.js", "f", 1, False, late=p_late),
            Hit(Q, (Q, "1.0.0"), "lib/f.js", "f", 1, False))
    return neighbours, Decision((P, Q), hits, "function", 0, "its innermost distinctive function equals", function=tied)


def test_a_tie_between_one_packages_code_is_that_packages_when_its_own_version_in_the_window_holds_it() -> None:
    neighbours, decision = _tie(p_late=False)
    assert neighbours.checked(decision).packages == (P,)


def test_a_tie_is_never_settled_for_a_package_whose_only_holder_is_published_after_the_window() -> None:
    neighbours, decision = _tie(p_late=True)
    assert neighbours.checked(decision).packages == (P, Q)

