"""JavaScript trees -> units: a directory, or an archive (`npm pack`'s `.tgz`, a `.tar.gz`, a
`.zip`), every `.js`, `.mjs` and `.cjs` file of it a unit, read within the bounds of
`analyzer.bundle.trees`. Source maps, type declarations and JSON are not code and are not read.

Unit names are posix paths inside the tree: relative to the directory, below the single
top-level directory of an archive (`package/` of an npm tarball), kept losslessly as text
(`trees.portable_name`)."""

from __future__ import annotations

import hashlib
import posixpath
import stat
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from analyzer.bundle.load import javascript_unit, stat_input
from analyzer.bundle.python_inputs import tree_digest
from analyzer.bundle.trees import (
    Member,
    archive_members,
    directory_files,
    directory_name,
    file_digest,
    portable_name,
    strip_top,
)
from analyzer.errors import InputError
from analyzer.limits import MAX_JAVASCRIPT_BYTES, BoundExceeded
from analyzer.model import Unit

#: the files of a tree that are JavaScript modules
JAVASCRIPT_SUFFIXES = (".js", ".mjs", ".cjs")
#: the file of an archive read besides them: it places the units' source maps
MANIFEST = "package.json"


@dataclass(frozen=True, slots=True)
class JavaScriptTree:
    """A JavaScript tree read into units."""

    #: directory or archive name as given
    name: str
    #: sha256 of the archive; for a directory, of its sorted (unit name, unit sha256) list
    sha256: str
    #: bytes of the archive; for a directory, the sum of its units
    size: int
    #: the JavaScript files, sorted by name
    units: list[Unit]
    #: an archive's package.json files by their directory inside the tree, named as units are
    #: ("" its root: where a unit's source map is placed, analyzer/places.py); None for a directory
    manifests: dict[str, bytes] | None = None


def javascript_source(name: str) -> bool:
    """A file of a tree that is a JavaScript module (`.js`, `.mjs`, `.cjs`)."""
    return name.endswith(JAVASCRIPT_SUFFIXES)


def load_javascript_tree(path: Path) -> JavaScriptTree:
    info = stat_input(path)
    if stat.S_ISDIR(info.st_mode):
        files = [(portable_name(relative), data, path / relative)
                 for relative, data in directory_files(path, javascript_source, "JavaScript source")]
        units = _units(path, files, "directory")
        return JavaScriptTree(directory_name(path), tree_digest(units), sum(len(u.source) for u in units), units)
    if not stat.S_ISREG(info.st_mode):
        raise InputError(path, "not a regular file or directory")
    read = archive_members(path, lambda name: javascript_source(name) or posixpath.basename(name) == MANIFEST)
    code = [m for m in read if javascript_source(m.name)]
    members: list[Member] = strip_top(code)
    top = code[0].name.split("/", 1)[0] + "/" if members is not code else ""  # what strip_top took off
    units = _units(path, [(portable_name(m.name), m.data, f"{path}: member {top + m.name!r}") for m in members],
                   "archive")
    manifests = {portable_name(posixpath.dirname(m.name[len(top):])): m.data for m in read
                 if posixpath.basename(m.name) == MANIFEST and m.name.startswith(top)}
    return JavaScriptTree(portable_name(path.name), *file_digest(path), units, manifests)


def _units(path: Path, files: Sequence[tuple[str, bytes, Path | str]], what: str) -> list[Unit]:
    """The units of a tree's JavaScript files: (unit name, bytes, where the file is, as a refusal names
    it). One that is not JavaScript text refuses the whole tree: a scan without it would be an
    inventory short of its callsites that nothing tells apart from a whole one (docs/reference.md)."""
    if not files:
        raise InputError(path, f"{what} holds no JavaScript (.js, .mjs, .cjs) or Python (.py) source files")
    units = []
    for name, data, where in files:
        if len(data) > MAX_JAVASCRIPT_BYTES:
            raise BoundExceeded(path, f"{name}: {len(data)} bytes, more than the bound of {MAX_JAVASCRIPT_BYTES} "
                                      "bytes of a JavaScript file")
        if not data or data.isspace():
            units.append(_empty(name, data))
            continue
        try:
            units.append(javascript_unit(where, name, data))
        except InputError as exc:
            raise InputError(where, f"{exc.problem}; {_REFUSED[what].format(path=path)}") from None
    return sorted(units, key=lambda u: u.name)


#: what a refusal of one file of a tree adds: the tree is read whole or not at all
_REFUSED = {"directory": "the directory {path} is read whole or not at all: move the file out of it or make it "
                         "UTF-8 text",
            "archive": "refusing the archive"}


def _empty(name: str, data: bytes) -> Unit:
    """A file of whitespace only: a unit without callsites (a tree may hold one; a bundle may not)."""
    return Unit(name=name, source=data, sha256=hashlib.sha256(data).hexdigest())
