"""Write a scan's files into a private temporary directory beside the target, then swap it in.

A killed scan leaves the previous output directory as it was. Symlinks are never followed
when replacing or deleting.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import shutil
import stat
import tempfile
from pathlib import Path

from analyzer.errors import InputError

MARKER = "error-diagnostic-owner-summary.json"
_RENAME_EXCHANGE = 2
_AT_FDCWD = -100


def write_directory(target: Path, files: dict[str, bytes], marker: str = MARKER) -> None:
    """`marker`: the file whose presence says an existing `target` is erratlas's to replace."""
    target = Path(os.path.abspath(target))
    _check_replaceable(target, marker)
    parent = target.parent
    try:
        parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.tmp-", dir=parent))
    except OSError as exc:
        raise InputError(target, f"cannot create the output directory: {exc.strerror}") from None
    try:
        for name in sorted(files):
            if "/" in name:
                (staging / name).parent.mkdir(parents=True, exist_ok=True)
            with open(staging / name, "xb") as handle:
                handle.write(files[name])
                handle.flush()
                os.fsync(handle.fileno())
        for directory in sorted({(staging / n).parent for n in files}):
            os.chmod(directory, 0o755)
        _swap_in(staging, target)
    finally:
        if staging.exists() or staging.is_symlink():
            shutil.rmtree(staging, ignore_errors=True)


def _check_replaceable(target: Path, marker: str = MARKER) -> None:
    try:
        info = os.lstat(target)
    except FileNotFoundError:
        return
    if stat.S_ISLNK(info.st_mode):
        raise InputError(target, "output path is a symlink; refusing to replace it")
    if not stat.S_ISDIR(info.st_mode):
        raise InputError(target, "output path exists and is not a directory")
    entries = os.listdir(target)
    if entries and marker not in entries:
        raise InputError(target, f"output directory is not empty and holds no {marker}; refusing to replace it")


def _swap_in(staging: Path, target: Path) -> None:
    if not os.path.lexists(target):
        os.rename(staging, target)
        return
    if _exchange(staging, target):
        shutil.rmtree(staging)  # now holds the previous output; rmtree does not follow symlinks
        return
    retired = Path(tempfile.mkdtemp(prefix=f".{target.name}.old-", dir=target.parent))
    os.rmdir(retired)
    os.rename(target, retired)
    os.rename(staging, target)
    shutil.rmtree(retired)


def _exchange(a: Path, b: Path) -> bool:
    """Atomically exchange two paths (Linux renameat2 RENAME_EXCHANGE); False if unsupported."""
    name = ctypes.util.find_library("c")
    if name is None:
        return False
    libc = ctypes.CDLL(name, use_errno=True)
    renameat2 = getattr(libc, "renameat2", None)
    if renameat2 is None:
        return False
    result = renameat2(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE)
    return result == 0


def read_directory(source: Path) -> dict[str, bytes]:
    """The files of a scan directory (one level of subdirectories), refusing symlinks."""
    files: dict[str, bytes] = {}
    try:
        entries = sorted(os.scandir(source), key=lambda e: e.name)
    except FileNotFoundError:
        raise InputError(source, "no such scan directory") from None
    except NotADirectoryError:
        raise InputError(source, "not a scan directory") from None
    for entry in entries:
        if entry.is_symlink():
            raise InputError(Path(entry.path), "symlink in a scan directory")
        if entry.is_dir():
            for inner in sorted(os.scandir(entry.path), key=lambda e: e.name):
                if inner.is_symlink() or not inner.is_file():
                    raise InputError(Path(inner.path), "unexpected entry in a scan directory")
                files[f"{entry.name}/{inner.name}"] = Path(inner.path).read_bytes()
        elif entry.is_file():
            files[entry.name] = Path(entry.path).read_bytes()
    return files
