"""The resource limits of a JavaScript scan, stated in one place (docs/reference.md, "Bounds").

An input past a bound is refused with exit status 2 and one line that names the bound; nothing
is written. The bounds are far above what real bundles need (measured on claude-code 2.1.100's
13 MB `cli.js` and the 26 MB of JavaScript in the 2.1.235 executable, docs/performance.md).
"""

from __future__ import annotations

import os
import resource
import stat
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

from analyzer.errors import InputError

MiB = 1 << 20

#: a JavaScript bundle or a source map is read only when it is a regular file of
#: at most this many bytes (a Bun executable is mapped, not read, and may be larger)
MAX_JAVASCRIPT_BYTES = 512 * MiB
MAX_EXECUTABLE_BYTES = 4096 * MiB
MAX_SOURCE_MAP_BYTES = 512 * MiB

#: every process of a scan may use this much data memory plus MEMORY_PER_BYTE bytes per byte
#: of JavaScript it scans (2.1.100's cli.js peaks at 60 bytes per byte, the 2.1.235
#: executable at 55), plus MEMORY_PER_MAP_BYTE per byte of a source map it decodes (2.1.88's
#: 60 MB map takes 6)
MEMORY_BASE = 256 * MiB
MEMORY_PER_BYTE = 96
MEMORY_PER_MAP_BYTE = 16

#: callsites in one unit (claude-code 2.1.100 has 5,904 in 13 MB)
MAX_CALLSITES = 250_000

#: syntax nodes visited for the callsites of one unit beyond their anchors (every level of
#: every callsite's ancestors, every node of the functions and classes digested whole), at
#: most this many per syntax node of the unit plus WORK_BASE: work that grows with nesting
#: depth times callsites (2.1.100 visits 0.23 per node)
WORK_PER_NODE = 16
WORK_BASE = 1 << 22


class BoundExceeded(InputError):
    """An input past one of the bounds above (exit status 2, the line names the bound)."""


def memory_bound(javascript_bytes: int) -> int:
    """The data memory each process of a scan of that much JavaScript may use, in bytes."""
    return MEMORY_BASE + MEMORY_PER_BYTE * javascript_bytes


def describe_memory_bound(javascript_bytes: int) -> str:
    return (f"the memory bound of {memory_bound(javascript_bytes) // MiB} MiB "
            f"({MEMORY_BASE // MiB} MiB + {MEMORY_PER_BYTE} bytes per byte of JavaScript)")


#: set in the process an isolated scan runs in: told every memory bound set
_on_limit: Callable[[int, int], None] | None = None


def isolate(on_limit: Callable[[int, int], None]) -> None:
    """In the process an isolated scan runs in: `limit_memory` sets the bound from now on, and
    tells `on_limit(bound, javascript bytes)`."""
    global _on_limit
    _on_limit = on_limit


def limit_memory(javascript_bytes: int) -> int | None:
    """Bound this process's data memory (and its workers', which inherit it) by
    `memory_bound`, in an isolated scan only: elsewhere the caller owns its process. The bound
    set, or None."""
    if _on_limit is None or not hasattr(resource, "RLIMIT_DATA"):
        return None
    return _set_limit(memory_bound(javascript_bytes), javascript_bytes)


def grow_memory_limit(extra: int) -> None:
    """Raise this process's bound by `extra` bytes (a source map about to be decoded)."""
    if _on_limit is None or not hasattr(resource, "RLIMIT_DATA"):
        return
    soft, _ = resource.getrlimit(resource.RLIMIT_DATA)
    if soft != resource.RLIM_INFINITY:
        _set_limit(soft + extra, None)


def _set_limit(bound: int, javascript_bytes: int | None) -> int:
    _, hard = resource.getrlimit(resource.RLIMIT_DATA)
    if hard != resource.RLIM_INFINITY:
        bound = min(bound, hard)
    resource.setrlimit(resource.RLIMIT_DATA, (bound, hard))
    if _on_limit is not None:
        _on_limit(bound, javascript_bytes if javascript_bytes is not None else -1)
    return bound


class WorkBudget:
    """Syntax nodes a unit's callsites may visit (`WORK_PER_NODE`, `WORK_BASE`)."""

    __slots__ = ("left", "path", "total")

    def __init__(self, path: str, nodes: int) -> None:
        self.path = path
        self.total = self.left = WORK_BASE + WORK_PER_NODE * nodes

    def spend(self, nodes: int) -> None:
        self.left -= nodes
        if self.left < 0:
            raise BoundExceeded(
                self.path,
                f"callsites nest too deep: their scopes and enclosing functions take more than "
                f"{self.total} node visits (bound: {WORK_PER_NODE} per syntax node + {WORK_BASE})",
            )


def check_callsites(path: str, count: int) -> None:
    if count > MAX_CALLSITES:
        raise BoundExceeded(path, f"{count} callsites in one unit, more than the bound of {MAX_CALLSITES}")


def read_regular_file(path: Path, limit: int, what: str) -> bytes:
    """The bytes of `path` when it is a regular file of at most `limit` bytes: a device, a FIFO
    or a directory is refused before it is opened for reading (it could never end)."""
    try:
        with open(path, "rb", opener=_open_nonblocking) as handle:
            info = os.fstat(handle.fileno())
            if stat.S_ISDIR(info.st_mode):
                raise InputError(path, f"is a directory, expected a {what}")
            if not stat.S_ISREG(info.st_mode):
                raise InputError(path, f"not a regular file, expected a {what}")
            if info.st_size > limit:
                raise BoundExceeded(path, f"{what} of {info.st_size} bytes, more than the bound of {limit} bytes")
            os.set_blocking(handle.fileno(), True)
            data = _read_at_most(handle, info.st_size, limit)
    except FileNotFoundError:
        raise InputError(path, "no such file") from None
    except NotADirectoryError:
        raise InputError(path, "no such file (a parent is not a directory)") from None
    except IsADirectoryError:
        raise InputError(path, f"is a directory, expected a {what}") from None
    except PermissionError:
        raise InputError(path, "permission denied") from None
    except OSError as exc:
        raise InputError(path, f"cannot read: {exc.strerror or exc}") from None
    if len(data) > limit:  # grew while read
        raise BoundExceeded(path, f"{what} of more than the bound of {limit} bytes")
    return data


def _read_at_most(handle: BinaryIO, size: int, limit: int) -> bytes:
    """The file's bytes, `limit + 1` at most (a file that grows while read is read on, in
    megabyte steps: `read(n)` allocates n bytes before it reads one)."""
    chunks = [handle.read(size + 1)]
    total = len(chunks[0])
    while total > size and total <= limit:
        chunk = handle.read(min(MiB, limit + 1 - total))
        if not chunk:
            break
        chunks.append(chunk)
        total += len(chunk)
    return b"".join(chunks)


def _open_nonblocking(path: str, flags: int) -> int:
    """Opening a FIFO for reading blocks until a writer comes; O_NONBLOCK returns at once."""
    return os.open(path, flags | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
