"""Read a bundle from disk into units, refusing unusable input with one clear line."""

from __future__ import annotations

import hashlib
import os
import stat
from dataclasses import dataclass
from pathlib import Path

from analyzer.bundle.sniff import refuse_archive, refuse_not_javascript
from analyzer.errors import InputError
from analyzer.limits import (
    MAX_EXECUTABLE_BYTES,
    MAX_JAVASCRIPT_BYTES,
    BoundExceeded,
    read_regular_file,
)
from analyzer.model import Unit

_EXECUTABLE_MAGIC = (b"\x7fELF", b"MZ", b"\xcf\xfa\xed\xfe", b"\xce\xfa\xed\xfe", b"\xca\xfe\xba\xbe")


#: Bun loaders whose embedded source is a module of the program
JAVASCRIPT_LOADERS = ("js", "jsx", "ts", "tsx", "mjs", "cjs", "javascript")


@dataclass(frozen=True, slots=True)
class Embedded:
    """One module of a Bun executable's graph, scanned or not, and why (summary evidence)."""

    path: str
    bytes: int
    loader: str
    source: bool
    bytecode: bool
    scanned: bool
    why: str


def load_units(path: Path) -> list[Unit]:
    return load_bundle(path)[0]


def load_bundle(path: Path) -> tuple[list[Unit], list[Embedded]]:
    """The units to scan, and, for a Bun executable, every embedded module with whether it is
    scanned (empty for a plain bundle)."""
    info = stat_input(path)
    if stat.S_ISDIR(info.st_mode):
        raise InputError(path, "is a directory, expected a JavaScript bundle file")
    if not stat.S_ISREG(info.st_mode):
        raise InputError(path, "not a regular file")  # a device or a FIFO: a read might never end
    if _read_regular_file(path, limit=4).startswith(_EXECUTABLE_MAGIC):
        if info.st_size > MAX_EXECUTABLE_BYTES:
            raise BoundExceeded(path, f"executable of {info.st_size} bytes, more than the bound of "
                                      f"{MAX_EXECUTABLE_BYTES} bytes")
        return _executable_units(path)  # read through a mapping: a 300 MB binary is never copied whole
    data = read_regular_file(path, MAX_JAVASCRIPT_BYTES, "JavaScript bundle file")
    unit = javascript_unit(path, file_name(path), data)
    refuse_not_javascript(path, unit.source)
    return [unit], []


def file_name(path: Path) -> str:
    """The name of a file as records show it: a name that is not UTF-8 keeps each other byte
    as `\\xNN` (`bun.decode_name`), never a lone surrogate that no JSON writer takes."""
    from analyzer.bundle.bun import decode_name

    return decode_name(os.fsencode(path.name))


def javascript_unit(path: Path | str, name: str, data: bytes) -> Unit:
    if not data or data.isspace():  # what `not data.strip()` says, without a copy of the unit
        raise InputError(path, "empty file, expected a JavaScript bundle")
    refuse_archive(path, data)  # what would be 'binary data' below, said as what it is
    nul = data.find(b"\x00")
    if nul >= 0:
        raise InputError(path, f"binary data (NUL byte at offset {nul}), expected JavaScript source")
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(path, f"not valid UTF-8 (byte offset {exc.start})") from None
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]  # offsets count from the first character after a BOM
    return Unit(name=name, source=data, sha256=hashlib.sha256(data).hexdigest())


def stat_input(path: Path) -> os.stat_result:
    """`os.stat` of an input path, every failure one InputError line."""
    try:
        return os.stat(path)
    except FileNotFoundError:
        raise InputError(path, "no such file") from None
    except NotADirectoryError:
        raise InputError(path, "no such file (a parent is not a directory)") from None
    except PermissionError:
        raise InputError(path, "permission denied") from None
    except OSError as exc:
        raise InputError(path, f"cannot read: {exc.strerror}") from None


def _read_regular_file(path: Path, limit: int | None = None) -> bytes:
    info = stat_input(path)
    if stat.S_ISDIR(info.st_mode):
        raise InputError(path, "is a directory, expected a JavaScript bundle file")
    if not stat.S_ISREG(info.st_mode):
        raise InputError(path, "not a regular file")
    try:
        if limit is not None:
            with open(path, "rb") as handle:
                return handle.read(limit)
        return path.read_bytes()
    except PermissionError:
        raise InputError(path, "permission denied") from None
    except OSError as exc:
        raise InputError(path, f"cannot read: {exc.strerror}") from None


def _executable_units(path: Path) -> tuple[list[Unit], list[Embedded]]:
    try:
        from analyzer.bundle import bun
    except ImportError:  # pragma: no cover - reader not present
        raise InputError(path, "native executable: reading Bun executables is not available") from None
    units, listing = [], []
    modules = bun.read_bun_executable(path)  # its refusal says what is wrong: truncated, corrupt, not Bun's
    names = unique_names([module.path for module in modules])
    for module, name in zip(modules, names):
        scanned = module.has_source and module.loader in JAVASCRIPT_LOADERS
        if scanned:
            units.append(javascript_unit(f"{path}!{name}", name, bun.text_bytes(module)))
            why = "a JavaScript module of the program"
        elif module.loader in JAVASCRIPT_LOADERS:
            why = "not scanned: bytecode only, no source"
        else:
            why = f"not scanned: a `{module.loader}` file the program reads, not a module it runs"
        listing.append(Embedded(module.path, module.size, module.loader, module.has_source, module.has_bytecode,
                                scanned, why))
    if not units:
        raise InputError(path, "Bun executable embeds no JavaScript source (bytecode only?)")
    return sorted(units, key=lambda u: u.name), sorted(listing, key=lambda m: m.path)


def unique_names(paths: list[str]) -> list[str]:
    """Unit names for embedded modules, in graph order: a module's path, and for the second
    and later modules of a path already taken, `path#N` (N its index in the graph, the first
    free one upwards), so that every unit, callsite id and rendering stays distinct."""
    taken: set[str] = set()
    out = []
    for index, path in enumerate(paths):
        name, number = path, index
        while name in taken:
            name = f"{path}#{number}"
            number += 1
        taken.add(name)
        out.append(name)
    return out

