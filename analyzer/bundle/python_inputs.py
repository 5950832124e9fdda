"""Python inputs -> units: a `.py` file, a directory tree, a wheel, an sdist (`.tar.gz`,
`.tgz`, `.zip`) or a `.pyz` zipapp, read within the bounds of `analyzer.bundle.trees`.

Unit names are posix paths inside the input: members as stored for wheels and zipapps,
below the single top-level directory for sdists, and below the directory's parent when the
scanned directory is itself a package (so `site-packages/pip` gives `pip/...`, like the
wheel does), kept losslessly as text (`trees.portable_name`).
"""

from __future__ import annotations

import hashlib
import stat
from dataclasses import dataclass
from pathlib import Path

from analyzer.bundle.load import stat_input
from analyzer.bundle.trees import (
    Member,
    archive_members,
    directory_files,
    directory_name,
    file_digest,
    portable_name,
    read_file,
    strip_top,
)
from analyzer.errors import InputError
from analyzer.model import Unit

#: besides `.py`, the files read as evidence: pip-style vendoring manifests
MANIFEST_NAMES = frozenset({"vendor.txt"})
#: inputs that are Python by their name alone (a directory, a `.zip` or a `.tar.gz` may hold either language)
PYTHON_NAMES = (".py", ".whl", ".pyz")
_BOM = b"\xef\xbb\xbf"


@dataclass(frozen=True, slots=True)
class PythonInput:
    """A Python input read into units."""

    #: file or directory name as given
    name: str
    #: sha256 of the file; for a directory, of its sorted (unit name, unit sha256) list
    sha256: str
    #: bytes of the file; for a directory, the sum of its units
    size: int
    #: `.py` sources, sorted by name
    units: list[Unit]
    #: vendoring manifests (`<pkg>/_vendor/vendor.txt`) by path inside the input
    manifests: dict[str, bytes]


def is_python_name(path: Path) -> bool:
    """A `.py` file, a wheel or a zipapp: Python whatever it holds."""
    return path.name.lower().endswith(PYTHON_NAMES)


def python_source(name: str) -> bool:
    """A file of a tree that is Python source (`.py`)."""
    return name.endswith(".py")


def load_python_input(path: Path) -> PythonInput:
    info = stat_input(path)
    if stat.S_ISDIR(info.st_mode):
        return _directory_input(path)
    if not stat.S_ISREG(info.st_mode):
        raise InputError(path, "not a regular file or directory")
    name = path.name.lower()
    if name.endswith(".py"):
        data = read_file(path, "Python source file")
        if not data or data.isspace():  # as a JavaScript bundle: a file given alone is the whole input
            raise InputError(path, "empty file, expected Python source")
        unit = python_unit(portable_name(path.name), data)
        return PythonInput(portable_name(path.name), hashlib.sha256(data).hexdigest(), len(data), [unit], {})
    members = archive_members(path, _wanted)
    if name.endswith((".tar.gz", ".tgz", ".zip")):
        members = strip_top(members)
    return _archive_input(path, members)


def python_unit(name: str, data: bytes) -> Unit:
    if data.startswith(_BOM):
        data = data[3:]  # offsets count from the first character after a BOM, as for JavaScript
    return Unit(name=name, source=data, sha256=hashlib.sha256(data).hexdigest())


def _wanted(name: str) -> bool:
    return python_source(name) or name.rsplit("/", 1)[-1] in MANIFEST_NAMES


def _directory_input(root: Path) -> PythonInput:
    prefix = portable_name(root.resolve().name) + "/" if (root / "__init__.py").is_file() else ""
    units: list[Unit] = []
    manifests: dict[str, bytes] = {}
    total = 0
    for relative, data in directory_files(root, _wanted, "Python source"):
        total += len(data)
        name = prefix + portable_name(relative)
        if python_source(name):
            units.append(python_unit(name, data))
        else:
            manifests[name] = data
    if not units:
        raise InputError(root, "directory holds no Python source files (.py)")
    units.sort(key=lambda u: u.name)
    return PythonInput(directory_name(root), tree_digest(units), total, units, manifests)


def tree_digest(units: list[Unit]) -> str:
    """A directory's sha256: of its sorted (unit name, unit sha256) list."""
    listing = "".join(f"{u.name}\0{u.sha256}\n" for u in units).encode("utf-8", "surrogateescape")
    return hashlib.sha256(listing).hexdigest()


def _archive_input(path: Path, members: list[Member]) -> PythonInput:
    units = sorted((python_unit(portable_name(m.name), m.data) for m in members if python_source(m.name)),
                   key=lambda u: u.name)
    if not units:
        raise InputError(path, "archive holds no Python source files (.py)")
    manifests = {portable_name(m.name): m.data for m in members if not python_source(m.name)}
    return PythonInput(portable_name(path.name), *file_digest(path), units, manifests)
