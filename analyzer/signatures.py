"""Function signatures, as the JavaScript frontend makes them and the corpus matches them
(docs/corpus.md): of every function of a package's files (`PackageIndex`) and of a bundle
(`BundleFunction`, the rows of function-signatures.jsonl). Plain records: no parser."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class IndexedFunction:
    file: int
    name: str
    line: int
    key: int
    tokens: int
    weight: int


#: a package index's file entry `<file> <- <source>`: the functions of `<file>` that its own source
#: map (or its bundler's path comments) places in `<source>`, another package's file
PLACED = " <- "

#: the path of a package's description among an indexer's sources (never a file's: no tarball path
#: has `<`): JSON of its declared dependencies, its own directory names and its tarball's files,
#: which say whose code its bundler's path comments name (docs/corpus.md, "Matching", 11)
DESCRIPTION = "<package>"


@dataclass(frozen=True, slots=True)
class PackageIndex:
    files: list[str]
    functions: list[IndexedFunction]
    #: indices of `files` that are bundles (bundler modules inside): their code may be other packages'
    bundles: frozenset[int] = frozenset()
    #: indices of `files` placed in a declared dependency (by the file's map, its path comments,
    #: or as a twin build of such a part): a copy of that package's code, as a roll-up's
    siblings: frozenset[int] = frozenset()

    def to_json(self) -> dict[str, object]:
        return {
            "files": self.files,
            "bundles": sorted(self.bundles),
            "siblings": sorted(self.siblings),
            "functions": [[f.file, f.name, f.line, f"{f.key:016x}", f.tokens, f.weight] for f in self.functions],
        }

    @classmethod
    def from_json(cls, document: dict[str, object]) -> PackageIndex:
        rows = document["functions"]
        assert isinstance(rows, list)
        return cls(list(document["files"]),  # type: ignore[call-overload]
                   [IndexedFunction(r[0], r[1], r[2], int(r[3], 16), r[4], r[5]) for r in rows],
                   frozenset(document.get("bundles", ())),  # type: ignore[call-overload]
                   frozenset(document.get("siblings", ())))  # type: ignore[call-overload]


@dataclass(frozen=True, slots=True)
class BundleFunction:
    unit: str
    start: int
    end: int
    #: the signature key, 16 hex digits
    key: str
    tokens: int
    weight: int


#: what indexes a package's files, (path, bytes) each: the JavaScript frontend's `index_sources`
Indexer = Callable[[Iterable[tuple[str, bytes]]], PackageIndex]
