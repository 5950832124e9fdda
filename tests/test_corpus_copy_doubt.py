"""`copy_doubt` (analyzer/owners/corpus/neighbours.py): when a bundler module's code naming a
package is that package's, and when it is a copy in a module of a package the corpus lacks
(docs/corpus.md, "Matching", a module is one file's copy)."""

from __future__ import annotations

from analyzer.owners.corpus.neighbours import copy_doubt, foreign
from analyzer.signatures import BundleFunction


def module(named: int, strangers: int) -> list[BundleFunction]:
    """A wrapper holding `named` functions naming P alone, then `strangers` no corpus function equals."""
    inner = [BundleFunction("u", 10 + 10 * i, 15 + 10 * i, f"p{i:015x}", 8, 40) for i in range(named)]
    inner += [BundleFunction("u", 1000 + 10 * i, 1005 + 10 * i, f"s{i:015x}", 8, 40) for i in range(strangers)]
    return [BundleFunction("u", 0, 5000, "w" * 16, 90, 400), *inner]


def alone(key: str) -> str | None:
    return "p" if key.startswith("p") else None


def unknown(key: str) -> bool:
    return not key.startswith("p")


def test_a_wrapper_is_no_stranger() -> None:
    assert foreign(module(2, 3), unknown) == 3


def test_strangers_that_the_file_could_hold_in_another_version_fit() -> None:
    assert copy_doubt(module(4, 8), "p", alone, unknown, lambda keys: (7, 4, 4, "1.0.0 index.js")) is None


def test_strangers_beyond_what_the_file_could_hold_are_another_packages_code() -> None:
    said = copy_doubt(module(4, 11), "p", alone, unknown, lambda keys: (2, 4, 16, "1.0.0 dist/index.js"))
    assert said is not None and "11 distinctive functions that no corpus package holds" in said
    assert "p@1.0.0 dist/index.js" in said


def test_a_file_whose_own_copy_sits_in_another_module_leaves_this_one_a_copy() -> None:
    said = copy_doubt(module(3, 9), "p", alone, unknown, lambda keys: (500, 3, 190, "1.0.0 cjs/p.js"))
    assert said is not None and "another bundler module holds 190 functions of p@1.0.0 cjs/p.js" in said
    # the same module holding most of its file's functions is the file's own copy
    assert copy_doubt(module(3, 9), "p", alone, unknown, lambda keys: (500, 190, 190, "1.0.0 cjs/p.js")) is None


def test_two_strangers_are_spared() -> None:
    assert copy_doubt(module(2, 2), "p", alone, unknown, lambda keys: (0, 2, 50, "1.0.0 index.js")) is None


def test_functions_only_other_packages_hold_are_strangers_too() -> None:
    # 2 functions name p alone, 7 are held by other packages only (none of p's files), none unknown
    def others(key: str) -> bool:
        return key.startswith("s")

    def nothing_unknown(key: str) -> bool:
        return False

    assert copy_doubt(module(2, 7), "p", alone, nothing_unknown, lambda keys: (0, 4, 23, "3.1.2 dist/index.js")) is None
    said = copy_doubt(module(2, 7), "p", alone, nothing_unknown, lambda keys: (0, 4, 23, "3.1.2 dist/index.js"), others)
    assert said is not None, said
    assert "7 distinctive functions that no file of p holds (0 no corpus package's, 7 only other packages')" in said
    # what p's file could hold in another version's form still spares them
    assert copy_doubt(module(2, 7), "p", alone, nothing_unknown, lambda keys: (5, 4, 4, "3.1.2 dist/index.js"),
                      others) is None
