"""Where code sits: which corpus packages a package file's directories name (`DirectoryNames`),
and a bundle unit's distinctive functions nested as they are (`FunctionTree`); matching reads both
(analyzer/owners/corpus/match.py, docs/corpus.md "Matching")."""

from __future__ import annotations

import bisect
from collections import defaultdict
from collections.abc import Iterable

from analyzer.signatures import BundleFunction


class DirectoryNames:
    """Which corpus packages a file's directories name. A package's published files can carry
    another package's code under a directory of its name: vendored (`plist`'s `lib/xmldom/`,
    `chalk`'s `source/vendor/supports-color/`) or absorbed in a later version (`@smithy/core`'s
    `dist-es/submodules/retry/middleware-retry/`, once `@smithy/middleware-retry`'s own). A hit
    there names both packages, so it never decides for either alone (docs/corpus.md, "Matching").
    Only names a directory would not hold by chance count: a name with a `-` or `.` (its whole
    hyphenated name, or two or more of its words in a row: `util-body-length` for
    `@smithy/util-body-length-browser`), or a scoped name that repeats its scope (`@xmldom/xmldom`)."""

    def __init__(self, packages: Iterable[str]) -> None:
        self.by_name: dict[str, set[str]] = defaultdict(set)
        for package in packages:
            tail = package.rsplit("/", 1)[-1]
            scope = package[1:].split("/", 1)[0] if package.startswith("@") else None
            if "-" in tail or "." in tail or scope == tail:
                self.by_name[tail].add(package)
        self.words = [(f"-{tail}-", names) for tail, names in sorted(self.by_name.items()) if "-" in tail]
        self._cache: dict[str, frozenset[str]] = {}

    def named(self, path: str, own: set[str]) -> tuple[str, ...]:
        found: set[str] = set()
        for directory in path.split("/")[:-1]:
            found |= self._directory(directory)
        return tuple(sorted(found - own))

    def _directory(self, directory: str) -> frozenset[str]:
        known = self._cache.get(directory)
        if known is None:
            found = set(self.by_name.get(directory, ()))
            if "-" in directory:
                needle = f"-{directory}-"
                for tail, names in self.words:
                    if needle in tail:
                        found |= names
            known = self._cache[directory] = frozenset(found)
        return known


class FunctionTree:
    """One unit's distinctive functions (sorted by start) with the innermost one holding each."""

    def __init__(self, functions: list[BundleFunction]) -> None:
        self.functions = sorted(functions, key=lambda f: (f.start, -f.end))
        self.starts = [f.start for f in self.functions]
        self.parents: list[int] = []
        open_: list[int] = []
        for number, function in enumerate(self.functions):
            while open_ and self.functions[open_[-1]].end <= function.start:
                open_.pop()
            self.parents.append(open_[-1] if open_ else -1)
            open_.append(number)

    def enclosing(self, offset: int) -> list[BundleFunction]:
        """The functions holding `offset`, innermost first."""
        at = bisect.bisect_right(self.starts, offset) - 1
        out = []
        while at >= 0:
            function = self.functions[at]
            if function.end > offset:
                out.append(function)
            at = self.parents[at]
        return out

    def within(self, start: int, end: int) -> list[BundleFunction]:
        return self.functions[bisect.bisect_left(self.starts, start):bisect.bisect_left(self.starts, end)]
