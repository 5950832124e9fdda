"""Where a package's code sits in the bundle: the package each distinctive function names alone, in
bundle order. A bundler lays a package's code out together, so the code beside a function
settles what its own hits cannot (docs/corpus.md, "Matching", Neighbours): islands of moved code
(`surrounded_by`), ties (`settled`), copies beside their package (`beside`) and modules that are
a copy in a package the corpus lacks (`copy_doubt`)."""

from __future__ import annotations

import bisect
from collections.abc import Callable
from dataclasses import replace

from analyzer.owners.corpus.decision import Decision
from analyzer.signatures import PLACED, BundleFunction

#: functions of no corpus package a module of `package` may hold beyond what its file lacks
#: in the bundle (`copy_doubt`)
SPARE = 2
#: how many times more of a file another module must hold to be that file's own (`copy_doubt`)
HOME = 4


class Neighbours:
    """`alone(key)`: the one package a signature names alone (decisively), else None; `holders(key)`:
    every package its corpus hits name (none for a function of a package the corpus lacks)."""

    def __init__(self, functions: list[BundleFunction], alone: Callable[[str], str | None],
                 holders: Callable[[str], frozenset[str]],
                 files: Callable[[str, str], frozenset[tuple[str, str]]] = lambda key, package: frozenset()
                 ) -> None:
        """`files(key, package)`: (file, function name) of the package's own versions' functions with
        the signature (decisively), any version and build: a function's file, for `astray`."""
        named = []
        self.holders = holders
        self.files = files
        self._files_of: dict[str, dict[str, list[int]]] = {}
        self._starts: dict[str, list[tuple[int, int]]] = {}
        #: every distinctive function in bundle order, with the one package it names alone (or None)
        self.every: list[tuple[BundleFunction, str | None]] = []
        for function in sorted(functions, key=lambda f: (f.unit, f.start, -f.end)):
            package = alone(function.key)
            self.every.append((function, package))
            if package is not None:
                named.append((function, package))
        self.in_every = {(f.unit, f.start, f.end, f.key): i for i, (f, _) in enumerate(self.every)}
        self.at = {(f.unit, f.start, f.end, f.key): i for i, (f, _) in enumerate(named)}
        self.named = named
        #: per position, the nearest position before (after) it naming another package in its unit
        self.before = [-1] * len(named)
        self.after = [-1] * len(named)
        for i in range(1, len(named)):
            (f, p), (g, q) = named[i], named[i - 1]
            self.before[i] = -1 if f.unit != g.unit else i - 1 if p != q else self.before[i - 1]
        for i in range(len(named) - 2, -1, -1):
            (f, p), (g, q) = named[i], named[i + 1]
            self.after[i] = -1 if f.unit != g.unit else i + 1 if p != q else self.after[i + 1]
        #: per position, how many functions its run of one package holds (bundle order, one unit)
        self.run = [0] * len(named)
        first = 0
        for i in range(1, len(named) + 1):
            if i == len(named) or (named[i][0].unit, named[i][1]) != (named[first][0].unit, named[first][1]):
                self.run[first:i] = [i - first] * (i - first)
                first = i

    def _position(self, function: BundleFunction) -> int | None:
        return self.at.get((function.unit, function.start, function.end, function.key))

    def surrounded_by(self, function: BundleFunction) -> tuple[BundleFunction, BundleFunction, str] | None:
        """The other package that the nearest code naming another package on both sides names,
        when both sides name the same one and each of its runs there is at least as long as this
        function's run: (the function before, the one after, that package)."""
        i = self._position(function)
        if i is None or self.before[i] < 0 or self.after[i] < 0:
            return None
        left, right = self.named[self.before[i]], self.named[self.after[i]]
        if left[1] != right[1] or min(self.run[self.before[i]], self.run[self.after[i]]) < self.run[i]:
            return None
        return left[0], right[0], left[1]

    def astray(self, function: BundleFunction) -> tuple[BundleFunction, str, BundleFunction] | None:
        """A function naming P alone, beside code naming another package Q alone, whose file's other
        functions (naming P alone, from a file of P that holds it too) sit elsewhere in the bundle,
        not beside it but past code of P's other files: a bundler lays each file's code out together,
        so it is a copy of P's function in Q's code as much as P's own. A function there that P's
        versions hold as this very function (same file and name: another version's form) says the
        file is bundled twice, nothing else.
        (the function beside it naming Q, Q, the nearest function of its file)."""
        i = self._position(function)
        if i is None:
            return None
        package = self.named[i][1]
        mine = self.files(function.key, package)
        paths = {file for file, _ in mine}
        beside = [self.named[j] for j in (i - 1, i + 1)
                  if 0 <= j < len(self.named) and self.named[j][0].unit == function.unit]
        other = next(((g, q) for g, q in beside if q != package), None)
        if other is None or not mine or any(q == package and paths & {f for f, _ in self.files(g.key, q)}
                                            for g, q in beside):
            return None
        mates = sorted(j for file in paths for j in self._of_file(package).get(file, ())
                       if self.named[j][0].unit == function.unit and self.named[j][0].key != function.key
                       and self._mate(self.files(self.named[j][0].key, package), mine, paths))
        before, after = [j for j in mates if j < i], [j for j in mates if j > i]
        for j, span in ((before[-1], range(before[-1] + 1, i)) if before else (None, range(0)),
                        (after[0], range(i + 1, after[0])) if after else (None, range(0))):
            # the nearest function of its file on that side, past code of P's other files
            if j is not None and any(self._elsewhere(self.named[k], package, paths) for k in span):
                return other[0], other[1], self.named[j][0]
        return None

    @staticmethod
    def _mate(theirs: frozenset[tuple[str, str]], mine: frozenset[tuple[str, str]], paths: set[str]) -> bool:
        """Whether a function is of the same file only (a file that also holds P's other files' code,
        a build rolling them up, says nothing) and not another version's form of this very one."""
        return not theirs & mine and {f for f, _ in theirs} <= paths

    def _elsewhere(self, named: tuple[BundleFunction, str | None], package: str, paths: set[str]) -> bool:
        """Whether a function names the package alone from files of it other than `paths`."""
        theirs = self.files(named[0].key, package) if named[1] == package else frozenset()
        return bool(theirs) and not paths & {f for f, _ in theirs}

    def _of_file(self, package: str) -> dict[str, list[int]]:
        """The positions of the functions naming the package alone, by each of its files that holds
        them (once a package)."""
        found = self._files_of.get(package)
        if found is None:
            found = self._files_of[package] = {}
            for j, (g, q) in enumerate(self.named):
                if q == package:
                    for file in {f for f, _ in self.files(g.key, q)}:
                        found.setdefault(file, []).append(j)
        return found

    def nearest(self, function: BundleFunction, packages: frozenset[str], step: int) -> BundleFunction | None:
        """The nearest distinctive function before (`step` -1) or after (1) this one, outside it and not
        a copy of it, that names one package alone, when every distinctive function between them
        names one of `packages` too (among others) or is a wrapper that names nothing."""
        i = self.in_every.get((function.unit, function.start, function.end, function.key))
        j = -1 if i is None else i + step
        while 0 <= j < len(self.every) and self.every[j][0].unit == function.unit:
            other, named = self.every[j]
            outside = other.end <= function.start if step < 0 else other.start >= function.end
            if outside and other.key != function.key:
                if named is not None:
                    return other
                held = self.holders(other.key)
                if not held & packages and (held or not self._holds_code(j)):
                    return None
            j += step
        return None

    def settled(self, decision: Decision) -> Decision:
        """A function decision for several packages whose nearest code on both sides names one of
        them, P, alone: P's, when P holds the function in a file of its own (a decisive hit, not in
        a directory or a part of the file that names another package) (docs/corpus.md, "Matching")."""
        function = decision.function
        if function is None or len(decision.packages) < 2:
            return decision
        candidates = frozenset(decision.packages)
        left, right = self.nearest(function, candidates, -1), self.nearest(function, candidates, 1)
        if left is None or right is None:
            return decision
        package = self.every[self.in_every[(left.unit, left.start, left.end, left.key)]][1]
        if package != self.every[self.in_every[(right.unit, right.start, right.end, right.key)]][1] \
                or package not in candidates or not any(h.package == package and h.decides and not h.by_directory
                                                        and PLACED not in h.file for h in decision.hits):
            return decision
        detail = (f"{decision.detail} [the nearest code on both sides in the bundle names {package} alone (offsets "
                  f"{left.start} and {right.start}), and {package}'s own files hold it]")
        return replace(decision, packages=(package,), detail=detail)

    def beside(self, function: BundleFunction) -> tuple[BundleFunction, str] | None:
        """The nearest distinctive function before or after this one (outside it, and not a copy
        of it) that names this function's package alone, when every distinctive function between
        them names that package too (among others) or is a wrapper around others that names
        nothing: (that function, its package). One that names no package of the corpus, or only
        others, is another package's code beside it."""
        i = self.in_every.get((function.unit, function.start, function.end, function.key))
        package = self.named[self.at[(function.unit, function.start, function.end, function.key)]][1] \
            if i is not None and (function.unit, function.start, function.end, function.key) in self.at else None
        if i is None or package is None:
            return None
        for step in (-1, 1):
            j = i + step
            while 0 <= j < len(self.every) and self.every[j][0].unit == function.unit:
                other, named = self.every[j]
                outside = other.end <= function.start if step < 0 else other.start >= function.end
                if outside and other.key != function.key:
                    if named == package:
                        return other, package
                    packages = self.holders(other.key) if named is None else frozenset([named])
                    if package not in packages and (packages or not self._holds_code(j)):
                        break
                j += step
        return None

    def stretch(self, function: BundleFunction, package: str) -> tuple[int, int]:
        """Where the package's code around a function starts and ends, as `beside` reads it: the distinctive
        functions on both sides, outside it, up to one that names another package alone or no corpus
        package (a wrapper that holds others and names nothing is passed over)."""
        i = self.in_every.get((function.unit, function.start, function.end, function.key))
        first, last = function.start, function.end
        for step in (-1, 1):
            j = -1 if i is None else i + step
            while 0 <= j < len(self.every) and self.every[j][0].unit == function.unit:
                other, named = self.every[j]
                if other.start >= function.end or other.end <= function.start:  # not inside it, nor holding it
                    packages = self.holders(other.key) if named is None else frozenset([named])
                    if package not in packages and (packages or not self._holds_code(j)):
                        break
                    if named == package:
                        first, last = min(first, other.start), max(last, other.end)
                j += step
        return first, last

    def parted(self, one: BundleFunction, other: BundleFunction, package: str) -> bool:
        """Whether the package's code around two functions of one unit (`stretch`) lies in two places with
        another package's code between them: a function that names another package alone."""
        if one.unit != other.unit:
            return False
        (_, b), (c, _) = sorted((self.stretch(one, package), self.stretch(other, package)))
        if c < b:
            return False
        starts = self._starts.get(one.unit)
        if starts is None:
            starts = [(f.start, i) for i, (f, _) in enumerate(self.named) if f.unit == one.unit]
            self._starts[one.unit] = starts
        k = bisect.bisect_left(starts, (b, -1))
        while k < len(starts) and starts[k][0] < c:
            if self.named[starts[k][1]][1] != package and self.named[starts[k][1]][0].end <= c:
                return True
            k += 1
        return False

    def _holds_code(self, j: int) -> bool:
        """Whether the function at `j` holds other distinctive functions (a bundler's module wrapper,
        which is no package's code itself)."""
        f = self.every[j][0]
        if j + 1 >= len(self.every):
            return False
        g = self.every[j + 1][0]
        return g.unit == f.unit and f.start <= g.start and g.end <= f.end

    def checked(self, decision: Decision) -> Decision:
        """A function decision for one package whose code on both sides names another is neither's;
        one for several packages is settled by the code on both sides (`settled`)."""
        function = decision.function
        if len(decision.packages) > 1:
            return self.settled(decision)
        found = self.surrounded_by(function) if function is not None else None
        if found is not None:
            left, right, other = found
            detail = (f"{decision.detail} [the code before and after it in the bundle names {other} alone (offsets "
                      f"{left.start} and {right.start}): {other}'s code that {decision.packages[0]} also holds]")
            return replace(decision, packages=tuple(sorted({*decision.packages, other})), detail=detail)
        stray = self.astray(function) if function is not None else None
        if stray is None:
            return decision
        beside, other, mate = stray
        detail = (f"{decision.detail} [it sits beside {other}'s code (offset {beside.start}), apart from the rest of "
                  f"its file of {decision.packages[0]} (offset {mate.start}), past that package's other files: "
                  f"a copy in {other}'s code as much as {decision.packages[0]}'s own]")
        return replace(decision, packages=tuple(sorted({*decision.packages, other})), detail=detail)

    def placed(self, decision: Decision, module_names: set[str | None]) -> Decision | None:
        """The function decision of a copy, when the bundle code beside its function names its one
        package too and no function of its module names another (docs/corpus.md, "Matching", copies)."""
        function = decision.function
        if function is None or len(decision.packages) != 1 or not any(h.decides for h in decision.hits) \
                or not module_names <= set(decision.packages):
            return None
        found = self.beside(function)
        if found is None or found[1] != decision.packages[0]:
            return None
        return replace(decision, detail=f"{decision.detail} [the distinctive function beside it in the bundle (offset "
                                        f"{found[0].start}) names {found[1]} alone too]")


def foreign(functions: list[BundleFunction], unknown: Callable[[str], bool]) -> int:
    """How many of a module's distinctive functions (sorted by start) name no corpus package
    (`unknown`: no corpus function has their signature), outside wrappers (a function that holds
    another is no package's code itself)."""
    count = 0
    for i, function in enumerate(functions):
        holds = i + 1 < len(functions) and functions[i + 1].start < function.end
        count += not holds and unknown(function.key)
    return count


def copy_doubt(functions: list[BundleFunction], package: str, alone: Callable[[str], str | None],
               unknown: Callable[[str], bool], room: Callable[[set[str]], tuple[int, int, int, str]],
               others: Callable[[str], bool] = lambda key: False) -> str | None:
    """Why a bundler module's code naming `package` alone may be its copy in another package's file
    (docs/corpus.md, "Matching", a module is one file's copy). Its strangers are its functions of no
    corpus package (`unknown`) and those only other packages' files hold (`others`). The file of
    `package` it matches (`room`) holds fewer functions that this module could hold in another
    version's form than the module holds strangers; or another module holds most of that file, and
    this one holds more strangers than functions of it. Either way the strangers are another
    package's code, whose file carries a copy of `package`'s. None when they fit."""
    keys = {f.key for f in functions if alone(f.key) == package}
    lacking, elsewhere = foreign(functions, unknown), foreign(functions, others)
    strangers = lacking + elsewhere
    if not keys or strangers <= SPARE:
        return None
    absent, mine, most, file = room(keys)
    held = (f"{strangers} distinctive functions that no corpus package holds" if not elsewhere else
            f"{strangers} distinctive functions that no file of {package} holds ({lacking} no corpus package's, "
            f"{elsewhere} only other packages')")
    if strangers > SPARE + absent:
        return (f"its bundler module holds {held}, more than the {absent} functions of {package}@{file} it could "
                f"hold in another form: code of another package, which may carry a copy of {package}'s")
    if most >= HOME * mine and strangers > mine:
        return (f"another bundler module holds {most} functions of {package}@{file}, this one {mine} and "
                f"{held}: code of another package, which may carry a copy of {package}'s")
    return None
