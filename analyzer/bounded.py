"""Files read within bounds: only regular files, never more than a stated size, never a hang.

A path a user names (an allowlist, a rules file, a baseline summary, suggestions) is opened
without blocking (a FIFO cannot stall the open) and read only when it is a regular file no
larger than its cap. A scan directory is walked through directory descriptors without
following a single symlink, so a listed file is always a regular file inside the directory.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from pathlib import Path

from analyzer.errors import InputError

#: an allowlist or a rules file (the reviewed 2.1.100 allowlist is 43 kB)
MAX_TOML_BYTES = 16 * 2**20
#: keys, values, brackets and line ends of a TOML file (an allowlist entry has about 40)
MAX_TOML_TOKENS = 1_000_000
#: a summary, a baseline summary, a suggestions file
MAX_DOCUMENT_BYTES = 256 * 2**20
#: one file of a scan directory (a readable rendering is about the size of its unit)
MAX_OUTPUT_BYTES = 1 * 2**30
#: files and directories in a scan directory (a Python tree of 50,000 units has 50,000 renderings)
MAX_ENTRIES = 200_000
#: directory levels below a scan directory (erratlas writes one: readable/)
MAX_DEPTH = 4
_OPEN = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOCTTY", 0)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_DIRECTORY = getattr(os, "O_DIRECTORY", 0)
_CHUNK = 1 << 20


def read_regular(path: Path, what: str, cap: int) -> bytes:
    """The bytes of the regular file `path` (symlinks to one are fine), at most `cap` of them."""
    try:
        fd = os.open(path, _OPEN)
    except FileNotFoundError:
        raise InputError(path, f"{what} not found") from None
    except PermissionError:
        raise InputError(path, f"cannot read {what}: permission denied") from None
    except OSError as exc:
        raise InputError(path, f"cannot read {what}: {exc.strerror}") from None
    try:
        return _read_fd(fd, path, what, cap)
    finally:
        os.close(fd)


def _read_fd(fd: int, path: object, what: str, cap: int) -> bytes:
    info = os.fstat(fd)
    if stat.S_ISDIR(info.st_mode):
        raise InputError(path, f"{what} is a directory")
    if not stat.S_ISREG(info.st_mode):
        raise InputError(path, f"{what} is not a regular file ({file_kind(info.st_mode)})")
    if info.st_size > cap:
        raise InputError(path, f"{what} is {info.st_size} bytes, more than the limit of {cap}")
    parts = []
    size = 0
    # the whole file in one read when it holds still: one buffer, no copy to join
    wanted = info.st_size + 1
    try:
        while True:
            chunk = os.read(fd, min(max(wanted - size, _CHUNK), cap + 1 - size))
            if not chunk:
                break
            parts.append(chunk)
            size += len(chunk)
            if size > cap:  # it grew while we read
                raise InputError(path, f"{what} is more than the limit of {cap} bytes")
    except OSError as exc:
        raise InputError(path, f"cannot read {what}: {exc.strerror}") from None
    return b"".join(parts)


def file_kind(mode: int) -> str:
    for test, name in ((stat.S_ISFIFO, "a FIFO"), (stat.S_ISLNK, "a symlink"), (stat.S_ISSOCK, "a socket"),
                       (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                       (stat.S_ISDIR, "a directory"), (stat.S_ISREG, "a regular file")):
        if test(mode):
            return name
    return "not a regular file"


# ---- directories, through descriptors ------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Listing:
    """What a directory holds, read without following symlinks."""

    #: relative posix path -> size, for every regular file
    files: dict[str, int]
    #: relative posix paths of the directories below the root
    directories: frozenset[str]


def open_directory(path: Path, what: str, follow: bool = True) -> int:
    """A descriptor of the directory `path` (itself a symlink only when `follow`)."""
    flags = _OPEN | _DIRECTORY | (0 if follow else _NOFOLLOW)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise InputError(path, f"no such {what}") from None
    except NotADirectoryError:
        raise InputError(path, f"not a {what}") from None
    except OSError as exc:
        if not follow and os.path.islink(path):
            raise InputError(path, f"{what} is a symlink; refusing it") from None
        raise InputError(path, f"cannot read {what}: {exc.strerror}") from None
    if not stat.S_ISDIR(os.fstat(fd).st_mode):  # pragma: no cover - O_DIRECTORY says so
        os.close(fd)
        raise InputError(path, f"not a {what}")
    return fd


def list_directory(root_fd: int, where: Path) -> Listing:
    """Every entry below the directory `root_fd`, iteratively; anything but regular files and
    directories (a symlink, a FIFO, a device, a socket) is refused, naming it."""
    files: dict[str, int] = {}
    directories: set[str] = set()
    pending: list[tuple[str, int]] = [("", os.dup(root_fd))]
    try:
        while pending:
            prefix, fd = pending.pop()
            try:
                names = sorted(os.listdir(fd))
                for name in names:
                    relative = prefix + name
                    if len(files) + len(directories) >= MAX_ENTRIES:
                        raise InputError(where, f"more than {MAX_ENTRIES} entries")
                    info = os.stat(name, dir_fd=fd, follow_symlinks=False)
                    if stat.S_ISREG(info.st_mode):
                        files[relative] = info.st_size
                    elif stat.S_ISDIR(info.st_mode):
                        if relative.count("/") + 1 > MAX_DEPTH:
                            raise InputError(where / relative, f"nested more than {MAX_DEPTH} directories deep")
                        directories.add(relative)
                        pending.append((relative + "/", os.open(name, _OPEN | _DIRECTORY | _NOFOLLOW, dir_fd=fd)))
                    else:
                        raise InputError(where / relative, f"{file_kind(info.st_mode)}, not a regular file")
            finally:
                os.close(fd)
    except OSError as exc:
        raise InputError(where, f"cannot read the directory: {exc.strerror}") from None
    finally:
        for _, fd in pending:
            os.close(fd)
    return Listing(files=files, directories=frozenset(directories))


def open_inside(root_fd: int, relative: str, where: Path) -> int:
    """A descriptor of the regular file `relative` below `root_fd`; no component may be a
    symlink, `..` or absolute (the name comes from a file we do not trust)."""
    parts = relative.split("/")
    if not relative or any(part in ("", ".", "..") or "\0" in part for part in parts):
        raise InputError(where, f"'{relative}' is not a path inside the directory")
    fd = os.dup(root_fd)
    try:
        for part in parts[:-1]:
            inner = os.open(part, _OPEN | _DIRECTORY | _NOFOLLOW, dir_fd=fd)
            os.close(fd)
            fd = inner
        return os.open(parts[-1], _OPEN | _NOFOLLOW, dir_fd=fd)
    except FileNotFoundError:
        raise InputError(where / relative, "missing") from None
    except OSError as exc:
        raise InputError(where / relative, f"not a regular file inside the directory ({exc.strerror})") from None
    finally:
        os.close(fd)


def read_inside(root_fd: int, relative: str, where: Path, cap: int = MAX_OUTPUT_BYTES) -> bytes:
    fd = open_inside(root_fd, relative, where)
    try:
        return _read_fd(fd, where / relative, "file", cap)
    finally:
        os.close(fd)
