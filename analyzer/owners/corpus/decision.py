"""What matching decides: a corpus function with a bundle function's signature (`Hit`), and what
decides a callsite's package (`Decision`) (analyzer/owners/corpus/match.py, docs/corpus.md
"Matching")."""

from __future__ import annotations

from dataclasses import dataclass

from analyzer.signatures import PLACED, BundleFunction


@dataclass(frozen=True, slots=True)
class Hit:
    """A corpus function with the same signature."""

    #: the package the code is from: the entry's, or the one a `node_modules/<pkg>/` path in
    #: the entry's tarball names (a package that ships its dependencies)
    package: str
    #: the corpus entry (package name, version) holding the file
    entry: tuple[str, str]
    file: str
    function: str
    line: int
    #: the file is a bundle: its code may be any package's, so the hit alone decides nothing
    weak: bool
    #: the hit names `package` because a directory of the file is named like it (the entry's
    #: package carries that package's code: vendored, or absorbed from it in a later version)
    by_directory: bool = False
    #: the version was published after the bundle's time window: it cannot be the bundle's, so the
    #: hit decides nothing, but its package stays a candidate (the code may be older than it)
    late: bool = False
    #: the file is a roll-up (rollups.py) and another package's own sources hold it: it decides nothing
    rolled: bool = False

    @property
    def decides(self) -> bool:
        return not self.weak and not self.late and not self.rolled

    @property
    def version(self) -> str:
        return self.entry[1] if self.entry[0] == self.package else f"? (in {self.entry[0]}@{self.entry[1]})"

    def describe(self) -> str:
        where = " (bundle file)" if self.weak else " (published after the bundle's window)" if self.late else \
            " (a roll-up of other files' code; another package's own sources hold it)" if self.rolled else ""
        named = "" if not self.by_directory else f" (its file's own map places it in {self.package})" \
            if PLACED in self.file else f" (a directory named like {self.package})"
        return f"{self.package}@{self.version} {self.file}:{self.line}{where}{named} {self.function}"



@dataclass(frozen=True, slots=True)
class Decision:
    packages: tuple[str, ...]
    hits: tuple[Hit, ...]
    #: "function" (an enclosing function matched) or "module" (containment)
    how: str
    #: how many enclosing distinctive functions were passed before the deciding one
    depth: int
    detail: str
    #: a module decision's reach: the offsets its containment covers
    reach: tuple[int, int] | None = None
    #: a function decision's deciding function
    function: BundleFunction | None = None
    #: why the package's code here may be a copy in a package the corpus lacks: not exact
    #: (neighbours.py, `copy_doubt`)
    doubt: str | None = None

    def contains(self, offset: int) -> bool:
        return self.reach is None or self.reach[0] <= offset < self.reach[1]


