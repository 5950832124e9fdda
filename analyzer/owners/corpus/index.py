"""Index package sources once: the distinctive signature of every function of every
JavaScript file of a package version, with the function's file, name and line."""

from __future__ import annotations

import io
import posixpath
import tarfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from tree_sitter import Node, Tree

from analyzer.javascript.modules import find_modules
from analyzer.javascript.syntax import parse
from analyzer.owners.corpus.signature import UnitTokens

#: JavaScript a bundler takes from a package; TypeScript sources are read through the package's JS
SOURCE_SUFFIXES = (".js", ".cjs", ".mjs", ".jsx")
#: larger files are skipped (generated data, not code a reviewer names)
MAX_FILE_BYTES = 8 << 20
#: files that are never bundled into a program
_SKIPPED_DIRECTORIES = frozenset({"test", "tests", "__tests__", "spec", "example", "examples", "benchmark", "benchmarks"})


@dataclass(frozen=True, slots=True)
class IndexedFunction:
    file: int
    name: str
    line: int
    key: int
    tokens: int
    weight: int


@dataclass(frozen=True, slots=True)
class PackageIndex:
    files: list[str]
    functions: list[IndexedFunction]
    #: indices of `files` that are bundles (bundler modules inside): their code may be other packages'
    bundles: frozenset[int] = frozenset()

    def to_json(self) -> dict[str, object]:
        return {
            "files": self.files,
            "bundles": sorted(self.bundles),
            "functions": [[f.file, f.name, f.line, f"{f.key:016x}", f.tokens, f.weight] for f in self.functions],
        }

    @classmethod
    def from_json(cls, document: dict[str, object]) -> PackageIndex:
        rows = document["functions"]
        assert isinstance(rows, list)
        return cls(list(document["files"]),  # type: ignore[call-overload]
                   [IndexedFunction(r[0], r[1], r[2], int(r[3], 16), r[4], r[5]) for r in rows],
                   frozenset(document.get("bundles", ())))  # type: ignore[call-overload]


def tarball_sources(data: bytes) -> Iterator[tuple[str, bytes]]:
    """(path inside the package, bytes) of the JavaScript files of an npm tarball."""
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as archive:
        members = [m for m in archive.getmembers() if m.isfile()]
        names = {_inside(m.name) for m in members}
        for member in sorted(members, key=lambda m: m.name):
            path = _inside(member.name)
            if not wanted_file(path, member.size, names):
                continue
            handle = archive.extractfile(member)
            if handle is not None:
                yield path, handle.read()


def _inside(name: str) -> str:
    """The path without the tarball's first directory (`package/` for npm)."""
    parts = posixpath.normpath(name).lstrip("/").split("/", 1)
    return parts[1] if len(parts) == 2 else parts[0]


def wanted_file(path: str, size: int, names: set[str]) -> bool:
    if not path.endswith(SOURCE_SUFFIXES) or size > MAX_FILE_BYTES or path.startswith("../"):
        return False
    if any(part in _SKIPPED_DIRECTORIES or part.startswith(".") for part in path.split("/")[:-1]):
        return False  # tests, examples, and tool directories (`.yarn/plugins` bundles other packages)
    stem = posixpath.splitext(path)[0]
    # a minified copy says what its source says: index the source when both ship
    return not (stem.endswith(".min") and any(stem[:-4] + s in names for s in SOURCE_SUFFIXES))


def index_sources(sources: Iterable[tuple[str, bytes]]) -> PackageIndex:
    files: list[str] = []
    functions: list[IndexedFunction] = []
    bundles: set[int] = set()
    cache: dict[str, int] = {}
    for path, data in sources:
        if b"\x00" in data:
            continue
        try:
            data.decode("utf-8")
        except UnicodeDecodeError:
            continue
        number = len(files)
        files.append(path)
        tree = parse(data)
        if len(find_modules(tree, data).modules) >= 2:
            bundles.add(number)
        functions.extend(_file_functions(number, tree, data, cache))
    return PackageIndex(files, functions, frozenset(bundles))


def _file_functions(number: int, tree: Tree, data: bytes, cache: dict[str, int]) -> Iterator[IndexedFunction]:
    tokens = UnitTokens(tree, data, cache)
    whole = tokens.whole()
    if whole.distinctive:
        yield IndexedFunction(number, "<module>", 1, whole.key, whole.tokens, whole.weight)
    for node, signature in zip(tokens.functions, tokens.function_signatures()):
        if signature.distinctive:
            yield IndexedFunction(number, function_name(node), signature.line, signature.key, signature.tokens,
                                  signature.weight)


def function_name(node: Node) -> str:
    """The name a reader would look for: declared, method, or what the function is assigned to."""
    named = node.child_by_field_name("name")
    if named is not None and node.type == "method_definition":
        body = node.parent
        owner = body.parent.child_by_field_name("name") if body is not None and body.parent is not None else None
        return _short(named) if owner is None else f"{_short(owner)}.{_short(named)}"
    if named is not None:
        return _short(named)
    parent = node.parent
    if parent is None:
        return "<anonymous>"
    if parent.type == "variable_declarator":
        target = parent.child_by_field_name("name")
    elif parent.type in ("pair", "field_definition", "public_field_definition"):
        target = parent.child_by_field_name("key") or parent.child_by_field_name("property")
    elif parent.type == "assignment_expression":
        target = parent.child_by_field_name("left")
    else:
        target = None
    return _short(target) if target is not None else "<anonymous>"


def _short(node: Node) -> str:
    text = (node.text or b"").decode("utf-8", "replace")
    return text if len(text) <= 80 else text[:77] + "..."
