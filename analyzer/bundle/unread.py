"""What a tree's scan leaves unread, and says in a line before its own: environments of installed
packages below its root (a virtual environment, a conda environment), and in a directory the
links it does not follow and the files that are not regular files (docs/reference.md, "Inputs")."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

#: a directory holding this file is a virtual environment (PEP 405: `python -m venv`, virtualenv)
VIRTUAL_ENVIRONMENT_MARK = "pyvenv.cfg"
#: a directory holding this file is a conda environment (what conda itself tests a prefix by)
CONDA_ENVIRONMENT_MARK = "conda-meta/history"

Why = Literal["virtual environment", "conda environment", "link", "directory link", "special", "resource forks"]
_MARKS: dict[Why, str] = {"virtual environment": VIRTUAL_ENVIRONMENT_MARK,
                          "conda environment": CONDA_ENVIRONMENT_MARK}
#: the top directory of a zip that macOS's Archive Utility fills with the AppleDouble `._NAME` file of each
#: file it compresses (resource forks, extended attributes): metadata, never code
RESOURCE_FORKS = "__MACOSX"
#: how many paths a line names of one kind
_NAMED = 5


@dataclass(frozen=True, slots=True)
class Unread:
    """A path of a tree that its scan does not read, and why."""

    #: posix path inside the tree as text (`trees.portable_name`): a directory's relative to it, an
    #: archive's as stored
    path: str
    why: Why


def directory_environment(directory: str, entries: Iterable[os.DirEntry[str]]) -> Why | None:
    """What kind of environment the directory whose entries these are is, if it is one."""
    listed = {entry.name: entry for entry in entries}
    mark = listed.get(VIRTUAL_ENVIRONMENT_MARK)
    if mark is not None and mark.is_file(follow_symlinks=False):
        return "virtual environment"
    meta = listed.get("conda-meta")
    if meta is not None and meta.is_dir(follow_symlinks=False):
        try:
            if stat.S_ISREG(os.lstat(os.path.join(directory, CONDA_ENVIRONMENT_MARK)).st_mode):
                return "conda environment"
        except OSError:
            pass
    return None


def archive_environments(names: list[str]) -> list[Unread]:
    """The directories of an archive, by its members' stored paths, that are environments: not its
    root, nor its single top-level directory (the archive is then one environment, given as such)."""
    found: dict[str, Why] = {}
    for name in names:
        for why, mark in _MARKS.items():
            if name == mark or name.endswith("/" + mark):
                found.setdefault(name[:-len(mark)].rstrip("/"), why)
    tops = {name.split("/", 1)[0] for name in names}
    top = next(iter(tops)) if len(tops) == 1 and all("/" in name for name in names) else ""
    inner = sorted(directory for directory in found if directory and directory != top)
    outermost = [d for d in inner if not any(d.startswith(other + "/") for other in inner)]
    return [Unread(directory, found[directory]) for directory in outermost]


def archive_forks(names: list[str]) -> list[Unread]:
    """An archive's `__MACOSX/` top directory, when every file in it is an AppleDouble `._NAME`."""
    held = [name for name in names if name.startswith(RESOURCE_FORKS + "/")]
    if held and all(name.rsplit("/", 1)[-1].startswith("._") for name in held):
        return [Unread(RESOURCE_FORKS, "resource forks")]
    return []


def inside(name: str, environments: list[Unread]) -> bool:
    return any(name.startswith(environment.path + "/") for environment in environments)


def unread_lines(where: str, unread: list[Unread]) -> tuple[str, ...]:
    """The lines a scan says of what it left unread: environments in one, macOS metadata in
    another, links and special files in a third."""
    environments = [u for u in unread if u.why in _MARKS]
    others = [u for u in unread if u.why in _OTHERS]
    lines = []
    if environments:
        lines.append(f"{where}: skipped {environments_said(environments)}")
    if any(u.why == "resource forks" for u in unread):
        lines.append(f"{where}: skipped {RESOURCE_FORKS}/: macOS metadata (an AppleDouble `._NAME` file for each file "
                     "compressed), not code")
    if others:
        lines.append(f"{where}: not read: {others_said(others)}")
    return tuple(lines)


def environments_said(environments: list[Unread]) -> str:
    """`venv/: virtual environment (holding pyvenv.cfg), installed packages and not ...`."""
    groups = []
    for why, mark in _MARKS.items():
        paths = [u.path for u in environments if u.why == why]
        if paths:
            plural = "s" if len(paths) > 1 else ""
            groups.append(f"{_named(p + '/' for p in paths)}: {why}{plural} (holding {mark})")
    return "; ".join(groups) + ", installed packages and not this tree's source; scan one on its own to read it"


_OTHERS: dict[Why, tuple[str, str]] = {
    "link": ("a symbolic link, not followed", "symbolic links, not followed"),
    "directory link": ("a symbolic link to a directory, not followed", "symbolic links to directories, not followed"),
    "special": ("not a regular file", "not regular files"),
}


def others_said(others: list[Unread]) -> str:
    """`lib/a.js (a symbolic link, not followed); ...; scan what one names on its own to read it`."""
    groups = []
    for why, (one, many) in _OTHERS.items():
        paths = [u.path + ("/" if why == "directory link" else "") for u in others if u.why == why]
        if paths:
            groups.append(f"{_named(paths)} ({one if len(paths) == 1 else many})")
    return "; ".join(groups) + "; scan what one names on its own to read it"


def _named(paths: Iterable[str]) -> str:
    shown = sorted(paths)
    more = f" and {len(shown) - _NAMED} more" if len(shown) > _NAMED else ""
    return ", ".join(shown[:_NAMED]) + more
