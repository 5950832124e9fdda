"""Where a source map's sources lie against the bundle's own package (docs/modules.md, "Places"):
`node_modules`, `package` (inside the package root), `outside` (named only by its own reachable
`package.json` or a dependency of the bundle's) or `unplaced`. Only `package.json` files are read,
each a regular file of at most MAX_MANIFEST_BYTES, at most MAX_LOOKUPS directories per map.
`Manifests` is the seam: the file system (`FileManifests`) or an archive's members
(`TreeManifests`, rooted at ARCHIVE_ROOT, a path no file system is asked about)."""

from __future__ import annotations

import hashlib
import os
import posixpath
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Protocol

import orjson

from analyzer.errors import InputError
from analyzer.limits import read_regular_file
from analyzer.model import PackageRoot, SourcePlace
from analyzer.sourcemap import package_of, url_parts

#: a package.json larger than this is not read (and is no package.json here)
MAX_MANIFEST_BYTES = 1 << 20
#: directories looked up for the package.json of outside sources, per map
MAX_LOOKUPS = 10_000
_NAME = re.compile(r"^(?:@[a-z0-9][a-z0-9._~-]*/)?[a-z0-9][a-z0-9._~-]*$")
_DEPENDS = ("dependencies", "devDependencies", "peerDependencies", "optionalDependencies")


class Manifests(Protocol):
    """package.json files of the tree the bundle lies in."""

    def read(self, directory: PurePosixPath) -> bytes | None:
        """The bytes of `directory`/package.json, None when there is no usable one."""


class FileManifests:
    """package.json files on disk: regular files of at most MAX_MANIFEST_BYTES."""

    def read(self, directory: PurePosixPath) -> bytes | None:
        try:
            return read_regular_file(Path(directory) / "package.json", MAX_MANIFEST_BYTES, "package.json")
        except InputError:
            return None


#: the root of an archive's tree, in the paths its units' sources resolve to
ARCHIVE_ROOT = PurePosixPath("/<archive>")


class TreeManifests:
    """The package.json members of an archive, by their directory inside its tree ("" the root)."""

    def __init__(self, files: dict[str, bytes]) -> None:
        self._files = {ARCHIVE_ROOT / directory: data for directory, data in files.items()}

    def read(self, directory: PurePosixPath) -> bytes | None:
        data = self._files.get(directory)
        return data if data is not None and len(data) <= MAX_MANIFEST_BYTES else None


@dataclass(frozen=True, slots=True)
class UnitPlace:
    """Where a unit lies, for finding its map and placing the map's sources."""

    #: the unit's own file, whose map may lie beside it (a bundle given as a file); else None:
    #: only an inline map is read
    beside: Path | None
    #: the unit's directory, absolute (under ARCHIVE_ROOT in an archive); None: it lies in none
    #: (a module embedded in an executable)
    directory: PurePosixPath | None
    manifests: Manifests
    #: an archive's root: the package root when no package.json is nearer, and the highest looked at
    top: PurePosixPath | None = None


#: a module embedded in an executable
EMBEDDED = UnitPlace(None, None, FileManifests())


def file_place(bundle: Path) -> UnitPlace:
    """A bundle given as a file: its directory as an absolute path (symlinks kept, as the user
    named it)."""
    return UnitPlace(bundle, PurePosixPath(os.path.abspath(bundle.parent)), FileManifests())


def tree_place(root: Path, name: str, archive: TreeManifests | None) -> UnitPlace:
    """A file of a directory tree (`archive` None) or of an archive's, by its unit name."""
    inside = posixpath.dirname(name)
    if archive is not None:
        return UnitPlace(None, ARCHIVE_ROOT / inside, archive, ARCHIVE_ROOT)
    if "\\" in name:  # a name escaped to be text (trees.portable_name) is no path to look under
        return UnitPlace(None, None, FileManifests())
    return UnitPlace(None, PurePosixPath(os.path.abspath(root)) / inside, FileManifests())


def package_root(directory: PurePosixPath, manifests: Manifests,
                 top: PurePosixPath | None = None) -> tuple[PurePosixPath, PackageRoot] | None:
    """The nearest package.json at or above `directory` (absolute), not above `top`: its
    directory and what it says; else `top` itself, naming nothing."""
    for candidate in (directory, *directory.parents):
        if top is not None and not candidate.is_relative_to(top):
            break
        raw = manifests.read(candidate)
        if raw is None:
            continue
        document = _object(raw)
        depends: set[str] = set()
        for field in _DEPENDS:
            value = document.get(field)
            if isinstance(value, dict):
                depends.update(k for k in value if isinstance(k, str) and _NAME.match(k))
        for field in ("bundleDependencies", "bundledDependencies"):
            value = document.get(field)
            if isinstance(value, list):
                depends.update(k for k in value if isinstance(k, str) and _NAME.match(k))
        relative = posixpath.relpath(candidate, directory)
        return candidate, PackageRoot(relative, _name(document), hashlib.sha256(raw).hexdigest(),
                                      tuple(sorted(depends)))
    if top is not None:
        return top, PackageRoot(posixpath.relpath(top, directory), None, None, ())
    return None


def place_sources(sources: Sequence[str], written: Sequence[str], directory: PurePosixPath | None,
                  map_directory: PurePosixPath | None, root: tuple[PurePosixPath, PackageRoot] | None,
                  manifests: Manifests) -> list[SourcePlace]:
    """One place per distinct normalized source (`sources`, with `written`: each as the map
    writes it), sorted by source. `directory`, `map_directory`: the bundle's and the map's,
    absolute; None when they lie in no directory (a module embedded in an executable)."""
    placer = _Placer(directory, map_directory, root, manifests)
    by_source: dict[str, list[SourcePlace]] = {}
    for source, as_written in zip(sources, written):
        by_source.setdefault(source, []).append(placer.place(source, as_written))
    out = []
    for source, found in sorted(by_source.items()):
        if len(set(found)) > 1:  # two entries of `sources` that read the same but lie apart
            found = [SourcePlace(source, None, "unplaced", None, "named twice in the map's sources, in two places")]
        out.append(found[0])
    return out


class _Placer:
    def __init__(self, directory: PurePosixPath | None, map_directory: PurePosixPath | None,
                 root: tuple[PurePosixPath, PackageRoot] | None, manifests: Manifests) -> None:
        self.map_directory = map_directory
        self.root_directory: PurePosixPath | None = root[0] if root is not None else None
        self.root: PackageRoot | None = root[1] if root is not None else None
        self.base = self.root_directory or directory
        self.manifests = manifests
        self.named: dict[PurePosixPath, tuple[str, str] | None] = {}

    def place(self, source: str, written: str) -> SourcePlace:
        resolved, unplaced = self._resolve(written)
        path = None
        if resolved is not None:
            path = str(resolved) if self._absolute(written) else self._relative(resolved)
        package = package_of(source)
        if package is not None:
            return SourcePlace(source, path, "node_modules", package, f"under node_modules/{package}/")
        if resolved is None:
            return SourcePlace(source, None, "unplaced", None, unplaced)
        if self.root_directory is None or self.root is None:
            return SourcePlace(source, path, "unplaced", None, "no package.json above the bundle: no package root")
        if resolved.is_relative_to(self.root_directory):
            return SourcePlace(source, path, "package", None, f"inside the package root ({self._own()})")
        named = self._manifest_name(resolved) or self._dependency(resolved)
        if named is None:
            return SourcePlace(source, path, "outside", None, "outside the package root; no package.json names it "
                               "and no directory of its path is a dependency in " + self._own())
        package, why = named
        return SourcePlace(source, path, "outside", package, f"outside the package root; {why}")

    def _resolve(self, written: str) -> tuple[PurePosixPath | None, str]:
        """The absolute path a source names, or None and why not."""
        parts = url_parts(written)
        if parts is not None:
            scheme, authority, rest = parts
            if scheme == "file":
                return _normal(PurePosixPath("/" + rest)), ""
            if scheme == "webpack":
                own = self.root.name if self.root is not None else None
                if self.root_directory is not None and authority == own:
                    return _normal(self.root_directory / rest), ""
                return None, (f"a webpack://{authority}/ path: relative to a webpack context that is not the "
                              "package root" + (f" ({own})" if own else "") + ", so it names no file here")
            return None, f"a {scheme}:// URL, not a file"
        path = written.replace("\\", "/")
        if path.startswith("/"):
            return _normal(PurePosixPath(path)), ""
        if self.map_directory is None:
            return None, "the map lies in no directory (an embedded module): its relative paths name no file"
        return _normal(self.map_directory / path), ""

    def _absolute(self, written: str) -> bool:
        parts = url_parts(written)
        return (parts is not None and parts[0] == "file") or written.startswith("/")

    def _relative(self, resolved: PurePosixPath) -> str:
        assert self.base is not None  # a relative source resolves only against a directory
        return posixpath.relpath(resolved, self.base)

    def _own(self) -> str:
        assert self.root is not None
        if self.root.sha256 is None:
            return "the archive's root, which has no package.json"
        return f"the package.json of {self.root.name}" if self.root.name else "a package.json without a name"

    def _manifest_name(self, resolved: PurePosixPath) -> tuple[str, str] | None:
        """The name in the nearest named package.json between the source and the package root's
        ancestors (a package.json holding the package root is a workspace's, never the source's)."""
        assert self.root_directory is not None and self.root is not None
        for directory in resolved.parents:
            if self.root_directory.is_relative_to(directory):
                return None
            if directory not in self.named:
                self.named[directory] = self._read_name(directory)
            found = self.named[directory]
            if found is not None:
                return found
        return None

    def _read_name(self, directory: PurePosixPath) -> tuple[str, str] | None:
        if len(self.named) >= MAX_LOOKUPS:
            return None
        raw = self.manifests.read(directory)
        name = _name(_object(raw)) if raw is not None else None
        if name is None:
            return None
        assert self.root_directory is not None and self.root is not None
        shown = posixpath.relpath(directory / "package.json", self.root_directory)
        if name == self.root.name:
            return None  # the bundle's own package at another path: not a dependency, not the product here
        return name, f"{shown} names {name}"

    def _dependency(self, resolved: PurePosixPath) -> tuple[str, str] | None:
        """The one dependency of the bundle's package that a directory of the path names: its
        name, or (for a scoped package) its name without the scope."""
        assert self.root_directory is not None and self.root is not None
        parts = [p for p in posixpath.relpath(resolved, self.root_directory).split("/")[:-1] if p != ".."]
        depends = set(self.root.depends)
        full = {f"{a}/{b}" if a.startswith("@") else a for a, b in zip(parts, [*parts[1:], ""])} & depends
        if len(full) == 1:
            (name,) = full
            return name, f"the directory '{name}' of its path is a dependency in {self._own()}"
        if full:
            return None
        unscoped = {d for d in depends if "/" in d and d.split("/", 1)[1] in parts}
        if len(unscoped) == 1:
            (name,) = unscoped
            short = name.split("/", 1)[1]
            return name, (f"the directory '{short}' of its path is the unscoped name of {name}, "
                          f"a dependency in {self._own()}")
        return None


def _normal(path: PurePosixPath) -> PurePosixPath:
    return PurePosixPath(posixpath.normpath(path))


def _object(raw: bytes) -> dict[str, object]:
    try:
        document = orjson.loads(raw)
    except orjson.JSONDecodeError:
        return {}
    return document if isinstance(document, dict) else {}


def _name(document: dict[str, object]) -> str | None:
    name = document.get("name")
    return name if isinstance(name, str) and _NAME.match(name) else None
