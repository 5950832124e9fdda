"""Which files of a package version are indexed (the JavaScript a bundler takes from it), read
from an npm tarball; `analyzer.javascript.corpus.index_sources` indexes them."""

from __future__ import annotations

import io
import posixpath
import tarfile
from collections.abc import Iterable, Iterator

import orjson

from analyzer.signatures import DESCRIPTION

#: JavaScript a bundler takes from a package; TypeScript sources are read through the package's JS
SOURCE_SUFFIXES = (".js", ".cjs", ".mjs", ".jsx")
#: larger files are skipped (generated data, not code a reviewer names)
MAX_FILE_BYTES = 8 << 20
#: a file's own source map is read up to this size: it says which of the file's code is another
#: package's (a dist built with its dependencies inside)
MAX_MAP_BYTES = 32 << 20
#: files that are never bundled into a program
_SKIPPED_DIRECTORIES = frozenset(
    {"test", "tests", "__tests__", "spec", "example", "examples", "benchmark", "benchmarks"}
)


#: the package.json fields whose names a package's bundle may hold the code of
DEPENDENCY_FIELDS = ("dependencies", "peerDependencies", "optionalDependencies", "bundleDependencies",
                     "bundledDependencies")


def tarball_sources(data: bytes, described: bool = False) -> Iterator[tuple[str, bytes]]:
    """(path inside the package, bytes) of the JavaScript files of an npm tarball, and of their
    own source maps (`<file>.map`); `described`: first the package's description (`describe`)."""
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as archive:
        members = [m for m in archive.getmembers() if m.isfile()]
        names = {_inside(m.name) for m in members}
        if described:
            manifest = next((m for m in members if _inside(m.name) == "package.json"), None)
            handle = archive.extractfile(manifest) if manifest is not None else None
            yield DESCRIPTION, describe(handle.read() if handle is not None else None, names)
        for member in sorted(members, key=lambda m: m.name):
            path = _inside(member.name)
            if not (wanted_file(path, member.size, names) or wanted_map(path, member.size, names)):
                continue
            handle = archive.extractfile(member)
            if handle is not None:
                yield path, handle.read()


def describe(manifest: bytes | None, files: Iterable[str]) -> bytes:
    """The indexer's description of a package (analyzer.signatures.DESCRIPTION): the names its
    package.json declares in `DEPENDENCY_FIELDS`, its own directory names (its name's last part,
    and the last part of `repository.directory`, where a monorepo keeps it) and its files."""
    try:
        document = orjson.loads(manifest) if manifest is not None else {}
    except orjson.JSONDecodeError:
        document = {}
    document = document if isinstance(document, dict) else {}
    declared: set[str] = set()
    for field in DEPENDENCY_FIELDS:
        value = document.get(field)
        declared.update(value if isinstance(value, list) else value.keys() if isinstance(value, dict) else ())
    directories = set()
    name, repository = document.get("name"), document.get("repository")
    if isinstance(name, str) and name:
        directories.add(name.rsplit("/", 1)[-1])
    if isinstance(repository, dict) and isinstance(repository.get("directory"), str):
        directories.add(posixpath.basename(posixpath.normpath(repository["directory"])))
    return orjson.dumps({"dependencies": sorted(d for d in declared if isinstance(d, str)),
                         "directories": sorted(directories - {"", ".", ".."}), "files": sorted(files)})


def _inside(name: str) -> str:
    """The path without the tarball's first directory (`package/` for npm)."""
    parts = posixpath.normpath(name).lstrip("/").split("/", 1)
    return parts[1] if len(parts) == 2 else parts[0]


def wanted_map(path: str, size: int, names: set[str]) -> bool:
    """The source map of a file that is indexed (`<file>.map`, read by the indexer, not indexed)."""
    return (path.endswith(".map") and size <= MAX_MAP_BYTES and path[:-4] in names
            and wanted_file(path[:-4], 0, names))


def wanted_file(path: str, size: int, names: set[str]) -> bool:
    if not path.endswith(SOURCE_SUFFIXES) or size > MAX_FILE_BYTES or path.startswith("../"):
        return False
    if any(part in _SKIPPED_DIRECTORIES or part.startswith(".") for part in path.split("/")[:-1]):
        return False  # tests, examples, and tool directories (`.yarn/plugins` bundles other packages)
    stem = posixpath.splitext(path)[0]
    # a minified copy says what its source says: index the source when both ship
    return not (stem.endswith(".min") and any(stem[:-4] + s in names for s in SOURCE_SUFFIXES))
