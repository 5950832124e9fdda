"""Ties settled by neighbours (docs/corpus.md, "Matching", 5) never pick a package whose only
holder of the function is a version published after the bundle's window (Matching, 7); a function
apart from the rest of its file, beside another package's code, decides for neither (Matching, 5,
strays)."""

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



def _layout(stray_file: str, twin: bool = False, rolled: bool = False) -> tuple[Neighbours, Decision]:
    """P's `utils.js` (two functions), P's `sha.js` (two), then a function that P's corpus versions
    hold in `stray_file` alone, then Q's code: @solana/web3.js 1.98.4's `hexToBytes`, which
    @noble/curves 1.7.0 copies from @noble/hashes (the corpus's curves versions import it instead).
    `twin`: `utils.js`'s functions there are two versions' forms of this very function (the file
    is bundled twice). `rolled`: P's `index` build also holds `utils.js`'s functions, and
    those of `sha.js` (the package's own roll-up, vscode-uri's `lib/esm/index.mjs`)."""
    files = {"u1" * 8: "utils.js", "u2" * 8: "utils.js", "s1" * 8: "sha.js", "s2" * 8: "sha.js",
             "hx" * 8: stray_file, "q1" * 8: "q.js", "q2" * 8: "q.js"}
    names = {key: "hexToBytes" if twin and key[0] in "uh" else key for key in files}
    rows = [_function(20 * i, key) for i, key in enumerate(files)]
    alone = {key: Q if key.startswith("q") else P for key in files}
    neighbours = Neighbours(rows, alone.get, lambda key: frozenset({alone[key]}),
                            lambda key, package: frozenset({(files[key], names[key])} | ({("index", key)} if rolled and
                                                                                   key[0] in "us" else set()))
                            if alone[key] == package else frozenset())
    hits = (Hit(P, (P, "1.7.1"), stray_file, "hexToBytes", 1, False),)
    return neighbours, Decision((P,), hits, "function", 0, "its innermost distinctive function equals",
                                function=rows[4])


def test_a_function_apart_from_its_file_beside_another_packages_code_names_both() -> None:
    neighbours, decision = _layout("utils.js")
    checked = neighbours.checked(decision)
    assert checked.packages == (P, Q) and "apart from the rest of its file of package-p (offset 20)" in checked.detail


def test_a_function_beside_another_packages_code_with_its_own_file_beside_it_stays_its_packages() -> None:
    neighbours, decision = _layout("sha.js")  # the last of sha.js's functions: its file is right before it
    assert neighbours.checked(decision).packages == (P,)
    neighbours, decision = _layout("other.js")  # no other function of its file in the bundle: nothing to say
    assert neighbours.checked(decision).packages == (P,)


def test_a_function_whose_file_is_bundled_twice_stays_its_packages() -> None:
    """Two versions of P's file in the bundle (browserify's exceljs holds safe-buffer 5.1 and 5.2,
    each beside other packages' modules): another version's form of the function says nothing."""
    neighbours, decision = _layout("utils.js", twin=True)
    assert neighbours.checked(decision).packages == (P,)


def test_a_function_whose_file_mates_are_also_in_a_roll_up_of_its_package_stays_its_packages() -> None:
    """P's functions held by a build of P that rolls up several of its files say nothing of where
    one file's code is (pyright's vendor.js: vscode-uri's `index.mjs` holds its `uri.ts` and
    `platform.ts`)."""
    neighbours, decision = _layout("utils.js", rolled=True)
    assert neighbours.checked(decision).packages == (P,)
