"""Directory trees and archives -> their members, within stated bounds; which files are read is
the caller's choice (a language's source files). Both frontends' tree inputs go through here.
Archives are read in memory and never extracted; one that holds anything that could escape or
exceed a bound is refused whole (docs/reference.md, "Inputs"). Names are kept losslessly as
text (`portable_name`)."""

from __future__ import annotations

import gzip
import hashlib
import lzma
import os
import re
import stat
import tarfile
import zipfile
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from analyzer.bundle.load import stat_input
from analyzer.bundle.unread import Unread, Why, archive_environments, archive_forks, directory_environment, inside
from analyzer.errors import InputError
from analyzer.limits import read_regular_file
from analyzer.scandir.files import SUMMARY_FILE

#: archives read member by member (a wheel and a zipapp are zip archives)
ARCHIVE_SUFFIXES = (".whl", ".pyz", ".zip", ".tar.gz", ".tgz")


#: every member of an archive counts, read or not
MAX_MEMBERS = 50_000
#: one member, uncompressed
MAX_MEMBER_BYTES = 64 * 2**20
#: all members together, uncompressed, as declared and as read
MAX_TOTAL_BYTES = 1 * 2**30
#: uncompressed / compressed, for members (or tar streams) larger than RATIO_FLOOR
MAX_RATIO = 200
RATIO_FLOOR = 1 * 2**20
#: a GNU long-name/long-link or pax header's own payload (a name, attributes)
MAX_HEADER_BYTES = 1 * 2**20
#: extended headers (GNU long names, pax) in a row before the member they describe
MAX_EXTENSIONS = 8
#: besides `.py`, the files read as evidence: pip-style vendoring manifests

_SKIPPED_DIRECTORIES = frozenset({"__pycache__", "node_modules"})
#: archives whose environments are read with the rest: a built artifact (a wheel, a zipapp) runs what it holds
_READ_WHOLE = (".whl", ".pyz")
#: what `erratlas extract` writes at the top of its directory (`analyzer.bundle.embedded`)
_EXTRACTION_MANIFEST = "manifest.json"

#: which files of a tree are read, by their posix path inside it
Wanted = Callable[[str], bool]


@dataclass(frozen=True, slots=True)
class Member:
    """A file of a tree or an archive: its posix path inside it, and its bytes."""

    name: str
    data: bytes


def read_file(path: Path, what: str) -> bytes:
    """A source file of a tree, or one given alone: a regular file of at most MAX_MEMBER_BYTES,
    refused before it is read when larger (a 3 GB `.py` would be held whole, then parsed for minutes)."""
    return read_regular_file(path, MAX_MEMBER_BYTES, what)


def file_digest(path: Path) -> tuple[str, int]:
    """An archive's sha256 and size, read in steps (the archive is never held whole)."""
    try:
        with open(path, "rb") as handle:
            digest = hashlib.file_digest(handle, "sha256")
            return digest.hexdigest(), handle.tell()
    except OSError as exc:
        raise InputError(path, f"cannot read: {exc.strerror or exc}") from None


def is_archive(path: Path) -> bool:
    return path.name.lower().endswith(ARCHIVE_SUFFIXES)


def archive_members(path: Path, wanted: Wanted, unread: list[Unread] | None = None) -> list[Member]:
    """The wanted members of the archive at `path`, every member checked against the bounds; in a
    tree archive (not a wheel or a zipapp), none inside an environment of installed packages below
    its top or in macOS's `__MACOSX/` (`bundle.unread`: appended to `unread`, when given)."""
    names: list[str] = []  # every regular file's, read or not: where the environments are
    if path.name.lower().endswith((".tar.gz", ".tgz")):
        members = _tar_members(path, wanted, names)
    else:
        members = _zip_members(path, wanted, names)
    if path.name.lower().endswith(_READ_WHOLE):
        return members
    skipped = archive_environments(names) + archive_forks(names)
    if unread is not None:
        unread.extend(Unread(portable_name(e.path), e.why) for e in skipped)
    return [m for m in members if not inside(m.name, skipped)] if skipped else members


def strip_top(members: list[Member]) -> list[Member]:
    """Members below their single top-level directory, when they share one (an sdist's
    `pkg-1.0/`, `npm pack`'s `package/`)."""
    tops = {m.name.split("/", 1)[0] for m in members}
    if len(tops) == 1 and all("/" in m.name for m in members):
        return [Member(m.name.split("/", 1)[1], m.data) for m in members]
    return members


def directory_files(root: Path, wanted: Wanted, what: str) -> Iterator[tuple[str, bytes]]:
    """The wanted files below `root` as (posix path relative to root, bytes), in walk order;
    `what` names them in a refusal ("Python source"). At most MAX_TOTAL_BYTES in all."""
    total = 0
    for relative in walk(root, wanted, what):
        data = read_file(root / relative, f"{what} file")
        total += len(data)
        if total > MAX_TOTAL_BYTES:
            raise InputError(root, f"more than {MAX_TOTAL_BYTES} bytes of {what}")
        yield relative, data


def walk(root: Path, wanted: Wanted, what: str, unread: list[Unread] | None = None) -> Iterator[str]:
    """Regular files worth reading, as posix paths relative to root (file system names, undecodable
    bytes as surrogates); links are not followed, and a scan directory or an environment of
    installed packages below root is not read. `unread`, when given, gets each environment, each
    link that is wanted or leads to a directory, and each wanted file that is not a regular file.
    Iterative: a tree may nest thousands deep."""
    count = 0
    pending = [""]  # directories still to list, relative to root; the next one last
    while pending:
        relative = pending.pop()
        directory = os.path.join(root, relative) if relative else os.fspath(root)
        try:
            with os.scandir(directory) as listing:
                entries = sorted(listing, key=lambda e: e.name)
        except OSError as exc:
            raise InputError(directory, f"cannot list: {exc.strerror}") from None
        if any(e.name == SUMMARY_FILE and e.is_file(follow_symlinks=False) for e in entries):
            if not relative:
                raise InputError(root, "an erratlas scan directory, not a bundle: scan the bundle its summary names")
            continue  # an earlier scan's output inside the tree (`scan .`'s erratlas-out) is none of its sources
        if not relative and any(e.name == _EXTRACTION_MANIFEST and e.is_file(follow_symlinks=False) for e in entries):
            _refuse_extraction(root)
        environment = directory_environment(directory, entries) if relative else None
        if environment is not None:
            if unread is not None:
                unread.append(Unread(portable_name(relative), environment))
            continue
        subdirectories = []
        for entry in entries:
            path = f"{relative}/{entry.name}" if relative else entry.name
            hidden = entry.name in _SKIPPED_DIRECTORIES or entry.name.startswith(".")
            if entry.is_dir(follow_symlinks=False):
                if not hidden:
                    subdirectories.append(path)
            elif entry.is_file(follow_symlinks=False):  # never a link out of the tree
                if wanted(path):
                    count += 1
                    if count > MAX_MEMBERS:
                        raise InputError(root, f"more than {MAX_MEMBERS} {what} files")
                    yield path
            elif unread is not None and not hidden:
                _not_followed(entry, path, wanted, unread)
        pending.extend(reversed(subdirectories))


def _not_followed(entry: os.DirEntry[str], path: str, wanted: Wanted, unread: list[Unread]) -> None:
    """A link or a special file of a directory, which the walk does not read: said when it is wanted
    or a link to a directory (a tree's code may lie behind one)."""
    if entry.is_symlink():
        try:
            leads_to_directory = entry.is_dir()
        except OSError:  # a loop of links leads nowhere
            leads_to_directory = False
        why: Why | None = "directory link" if leads_to_directory else "link" if wanted(path) else None
    else:
        why = "special" if wanted(path) else None
    if why is not None:
        unread.append(Unread(portable_name(path), why))


def _refuse_extraction(root: Path) -> None:
    """An `erratlas extract` directory given as the bundle is refused: a directory's scan reads its
    .js, .mjs and .cjs files, the assets the executable serves, and not its entry point (`root/cli`)."""
    import orjson

    from analyzer.bundle.embedded import MANIFEST_SCHEMA

    try:
        manifest = orjson.loads(read_regular_file(root / _EXTRACTION_MANIFEST, MAX_MEMBER_BYTES, "manifest"))
    except (orjson.JSONDecodeError, InputError):
        return  # a manifest.json of another kind: the tree's own
    if not isinstance(manifest, dict) or manifest.get("schema") != MANIFEST_SCHEMA:
        return
    binary, modules = manifest.get("binary"), manifest.get("modules")
    listed = modules if isinstance(modules, list) else []
    entry = next((m.get("file") for m in listed if isinstance(m, dict) and m.get("path") == manifest.get("entryPoint")),
                 None)
    came = f" ({binary})" if isinstance(binary, str) else ""
    alone = f", or one module of it on its own (its entry point: {root / entry})" if isinstance(entry, str) else ""
    raise InputError(root, f"an erratlas extraction directory (its manifest.json), not a bundle: scan the "
                           f"executable it came from{came}{alone}")


def directory_name(path: Path) -> str:
    """A scanned directory's name as the summary, the index and SARIF show it, given as `.`,
    `./` or `..` too (whose `Path.name` is empty or `..`): the last part of its absolute path."""
    return portable_name(Path(os.path.abspath(path)).name)


def portable_name(name: str) -> str:
    """A path as text, losslessly and encodable as UTF-8: a byte that was not UTF-8 (a
    surrogate from `surrogateescape`) is written `\\xNN`, any other surrogate `\\uNNNN`, a
    backslash `\\\\`; any other name is itself."""
    if "\\" not in name and not _SURROGATES.search(name):
        return name
    return _ESCAPED.sub(_escape, name)


def _escape(match: re.Match[str]) -> str:
    char = match.group()
    if char == "\\":
        return "\\\\"
    code = ord(char)
    return f"\\x{code - 0xDC00:02x}" if 0xDC80 <= code <= 0xDCFF else f"\\u{code:04x}"


# --- archives ----------------------------------------------------------------------------


_SURROGATES = re.compile("[\ud800-\udfff]")
_ESCAPED = re.compile("[\\\\\ud800-\udfff]")


def _safe_name(archive: Path, raw: str) -> str:
    """The member's posix path, or a refusal when it could land outside a directory."""
    if "\x00" in raw:
        raise InputError(archive, f"member {raw!r}: NUL in its name; refusing the archive")
    name = raw.replace("\\", "/")
    if name.startswith("/") or (len(name) > 1 and name[1] == ":"):
        raise InputError(archive, f"member {raw!r}: absolute path; refusing the archive")
    parts = [p for p in name.split("/") if p not in ("", ".")]
    if ".." in parts:
        raise InputError(archive, f"member {raw!r}: path escapes with '..'; refusing the archive")
    return "/".join(parts)


def _zip_members(path: Path, wanted: Wanted, names: list[str]) -> list[Member]:
    try:
        archive = zipfile.ZipFile(path)
    except zipfile.BadZipFile:
        raise InputError(path, "not a valid zip archive") from None
    except OSError as exc:
        raise InputError(path, f"cannot read: {exc.strerror}") from None
    with archive:
        infos = archive.infolist()
        if len(infos) > MAX_MEMBERS:
            raise InputError(path, f"{len(infos)} members, more than the limit of {MAX_MEMBERS}; refusing the archive")
        declared = 0
        seen: set[str] = set()
        for info in infos:
            name = _safe_name(path, info.filename)
            kind = stat.S_IFMT(info.external_attr >> 16)  # 0 when the writer stored no file type
            if kind == stat.S_IFLNK:
                raise InputError(path, f"member {info.filename!r}: symbolic link; refusing the archive")
            if kind not in (0, stat.S_IFREG, stat.S_IFDIR):
                raise InputError(path, f"member {info.filename!r}: not a regular file; refusing the archive")
            if name in seen and not info.is_dir():
                raise InputError(path, f"member {info.filename!r}: stored twice; refusing the archive")
            seen.add(name)
            if not info.is_dir():
                names.append(name)
            _check_size(path, info.filename, info.file_size, info.compress_size)
            declared += info.file_size
            if declared > MAX_TOTAL_BYTES:
                raise InputError(
                    path, f"members total more than {MAX_TOTAL_BYTES} bytes uncompressed; refusing the archive"
                )
        members = []
        for info in infos:
            name = _safe_name(path, info.filename)
            if info.is_dir() or not wanted(name):
                continue
            try:
                with archive.open(info) as handle:
                    data = handle.read(info.file_size + 1)
            except _UNREADABLE_MEMBER as exc:  # a corrupt deflate, bzip2 or lzma stream too
                raise InputError(path, f"member {info.filename!r}: cannot read: {exc}") from None
            if len(data) != info.file_size:
                raise InputError(path, f"member {info.filename!r}: size differs from its header; refusing the archive")
            members.append(Member(name, data))
    return members


#: what reading a zip member raises on a member it cannot give back (zipfile lets the codecs' own errors out)
_UNREADABLE_MEMBER = (zipfile.BadZipFile, OSError, EOFError, NotImplementedError, RuntimeError, zlib.error,
                      lzma.LZMAError)


def _check_size(path: Path, member: str, size: int, compressed: int) -> None:
    if size > MAX_MEMBER_BYTES:
        raise InputError(
            path, f"member {member!r}: {size} bytes uncompressed, more than {MAX_MEMBER_BYTES}; refusing the archive"
        )
    if size > RATIO_FLOOR and size > MAX_RATIO * max(compressed, 1):
        raise InputError(
            path, f"member {member!r}: compression ratio above {MAX_RATIO}:1 (zip bomb?); refusing the archive"
        )


def _tar_members(path: Path, wanted: Wanted, names: list[str]) -> list[Member]:
    compressed = stat_input(path).st_size
    _check_tar_headers(path, compressed)
    members: list[Member] = []
    declared = count = 0
    seen: dict[str, bool] = {}  # name -> is a directory
    try:
        with tarfile.open(path, mode="r:gz") as archive:
            for info in archive:
                count += 1
                if count > MAX_MEMBERS:
                    raise InputError(path, f"more than {MAX_MEMBERS} members; refusing the archive")
                name = _safe_name(path, info.name)
                if info.issym() or info.islnk():
                    raise InputError(path, f"member {info.name!r}: link to {info.linkname!r}; refusing the archive")
                if not (info.isfile() or info.isdir()):
                    raise InputError(path, f"member {info.name!r}: not a regular file; refusing the archive")
                if name in seen and not (seen[name] and info.isdir()):
                    raise InputError(path, f"member {info.name!r}: stored twice; refusing the archive")
                seen[name] = info.isdir()
                if info.size > MAX_MEMBER_BYTES:
                    raise InputError(
                        path,
                        f"member {info.name!r}: {info.size} bytes, more than {MAX_MEMBER_BYTES}; refusing the archive",
                    )
                declared += info.size
                if declared > MAX_TOTAL_BYTES:
                    raise InputError(path, f"members total more than {MAX_TOTAL_BYTES} bytes; refusing the archive")
                if declared > RATIO_FLOOR and declared > MAX_RATIO * max(compressed, 1):
                    raise InputError(path, f"compression ratio above {MAX_RATIO}:1 (gzip bomb?); refusing the archive")
                if info.isfile():
                    names.append(name)
                if info.isfile() and wanted(name):
                    handle = archive.extractfile(info)
                    data = handle.read() if handle is not None else b""
                    members.append(Member(name, data))
    except (tarfile.TarError, EOFError, OSError, ValueError) as exc:
        raise InputError(path, f"not a readable .tar.gz archive ({exc})") from None
    return members


# tar headers, read before tarfile reads any: tarfile loads a long-name or pax header's payload
# whole (a 2.5 GiB name from a 2.6 MB .tar.gz) and follows chained ones recursively

_BLOCK = 512
_EXTENSIONS = {b"L": "GNU long-name", b"K": "GNU long-link", b"x": "pax", b"g": "pax global", b"X": "pax"}
#: types whose size is data that follows the header (tarfile skips it for these and unknown types)
_NO_DATA = frozenset(b"123456")  # links, devices, directories, FIFOs


def _check_tar_headers(path: Path, compressed: int) -> None:
    """Walk the decompressed tar stream header by header, in bounded reads: every header counts
    as a member against MAX_MEMBERS, an extended header's payload is at most MAX_HEADER_BYTES,
    at most MAX_EXTENSIONS of them precede a member, every byte counts against MAX_TOTAL_BYTES
    and the compression ratio. A header tarfile would not read ends the walk: tarfile says why."""
    walk = _TarWalk(path, compressed)
    try:
        with gzip.open(path, "rb") as stream:
            while (header := stream.read(_BLOCK)) and len(header) == _BLOCK and _valid_header(header):
                walk.header(stream, header)
            walk.drain(stream)  # to the gzip trailer: its CRC and length are the archive's only check
    except (OSError, EOFError, zlib.error) as exc:
        raise InputError(path, f"not a readable .tar.gz archive ({exc})") from None


class _TarWalk:
    def __init__(self, path: Path, compressed: int) -> None:
        self.path, self.compressed = path, compressed
        self.count = self.total = self.chained = 0
        #: the `size` the last pax header set for the next member, and a global pax header's
        self.pax_size: int | None = None
        self.global_size: int | None = None

    def refuse(self, problem: str) -> InputError:
        return InputError(self.path, f"header {self.count}: {problem}; refusing the archive")

    def header(self, stream: gzip.GzipFile, header: bytes) -> None:
        self.count += 1
        if self.count > MAX_MEMBERS:
            raise InputError(self.path, f"more than {MAX_MEMBERS} members and headers; refusing the archive")
        kind, size = header[156:157], _tar_number(header[124:136])
        if size is None:
            raise self.refuse("its size is not a tar number")
        self.count_bytes(_BLOCK)
        if kind in _EXTENSIONS:
            self.extension(stream, kind, size)
            return
        self.chained = 0
        size = next((s for s in (self.pax_size, self.global_size) if s is not None), size)
        self.pax_size = None
        if kind == b"S" or size < 0:
            raise self.refuse("a sparse member" if kind == b"S" else "a negative size")
        if kind and kind[0] in _NO_DATA:
            return  # tarfile reads no data after these
        if size > MAX_MEMBER_BYTES:
            raise self.refuse(f"a member of {size} bytes, more than {MAX_MEMBER_BYTES}")
        self.count_bytes(_padded(size))
        _skip(stream, _padded(size))

    def extension(self, stream: gzip.GzipFile, kind: bytes, size: int) -> None:
        self.chained += 1
        if self.chained > MAX_EXTENSIONS:
            raise self.refuse(f"more than {MAX_EXTENSIONS} extended headers in a row")
        if size > MAX_HEADER_BYTES:
            raise self.refuse(f"a {_EXTENSIONS[kind]} header of {size} bytes, more than {MAX_HEADER_BYTES}")
        self.count_bytes(_padded(size))
        payload = stream.read(_padded(size))[:size]
        if kind in (b"x", b"X"):
            self.pax_size = _pax_size(self.path, payload)
        elif kind == b"g":
            self.global_size = next((s for s in (_pax_size(self.path, payload), self.global_size) if s is not None),
                                    None)

    def drain(self, stream: gzip.GzipFile) -> None:
        """Read the stream past the tar's end to its end, counted: gzip checks its trailer only there,
        so a truncated or corrupted .tar.gz whose tar ends early is refused, not read as whole."""
        while chunk := stream.read(1 << 20):
            self.count_bytes(len(chunk))

    def count_bytes(self, size: int) -> None:
        self.total += size
        if self.total > MAX_TOTAL_BYTES:
            raise InputError(self.path, f"more than {MAX_TOTAL_BYTES} bytes uncompressed, headers included; "
                                        "refusing the archive")
        if self.total > RATIO_FLOOR and self.total > MAX_RATIO * max(self.compressed, 1):
            raise InputError(self.path, f"compression ratio above {MAX_RATIO}:1, headers included (gzip bomb?); "
                                        "refusing the archive")


def _padded(size: int) -> int:
    return -(-size // _BLOCK) * _BLOCK


def _valid_header(block: bytes) -> bool:
    """A header tarfile accepts: its checksum holds (all zeros is the end of the archive)."""
    recorded = _tar_number(block[148:156])
    unsigned = sum(block[:148]) + 8 * 32 + sum(block[156:])
    signed = unsigned - 256 * sum(1 for b in block[:148] + block[156:] if b > 127)  # tarfile accepts both
    return recorded is not None and recorded in (unsigned, signed) and block.count(0) != _BLOCK


def _tar_number(field: bytes) -> int | None:
    """A tar number field: octal digits, or base-256 when the first byte has its high bit set."""
    if field and field[0] == 0x80:
        return int.from_bytes(field[1:], "big")
    if field and field[0] == 0xFF:
        return None  # negative
    digits = field.split(b"\0", 1)[0].strip()
    if not digits:
        return 0
    try:
        return int(digits, 8)
    except ValueError:
        return None


def _pax_size(path: Path, payload: bytes) -> int | None:
    """The `size` a pax header sets for the next member, if any (records: `LEN key=value\n`)."""
    found = None
    for record in payload.split(b"\n"):
        key, _, value = record.partition(b" ")[2].partition(b"=")
        if key.startswith(b"GNU.sparse."):
            raise InputError(path, "a sparse member (pax GNU.sparse); refusing the archive")
        if key == b"size":
            try:
                found = int(value)
            except ValueError:
                return None
    return found


def _skip(stream: gzip.GzipFile, size: int) -> None:
    while size > 0:
        chunk = stream.read(min(size, 1 << 20))
        if not chunk:
            return
        size -= len(chunk)
