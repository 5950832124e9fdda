"""Writing without losing anything of the user's: scan directories, extractions, single files
(docs/reference.md, "Nothing of yours is deleted or overwritten"). A directory is replaced only
when it is absent, empty, or holds exactly what erratlas wrote there; everything is written into
a private staging directory beside it and swapped into place."""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import stat
from collections.abc import Callable
from pathlib import Path

import orjson

from analyzer.bounded import (
    MAX_DOCUMENT_BYTES,
    file_kind,
    list_directory,
    open_directory,
    open_inside,
    read_inside,
)
from analyzer.errors import InputError
from analyzer.scandir.files import SUMMARY_FILE, SUMMARY_SCHEMA
from analyzer.trace import mark

# shutil and tempfile are imported where a directory is written: the verbs that only read one
# (gate) never load them
_RENAME_EXCHANGE = 2
_AT_FDCWD = -100
#: staging names keep this many bytes of the target's name (NAME_MAX is 255 bytes)
_NAME_KEPT = 80
_STAGING = ".erratlas-"
_HEX64 = re.compile(r"^[0-9a-f]{64}$")
_CREATE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
#: reads a manifest's bytes: file name -> sha256 it lists, or None when it is not erratlas's
Manifest = Callable[[bytes], "dict[str, str] | None"]


# ---- a scan directory's manifest: its summary -------------------------------------------------


def safe_name(name: object) -> bool:
    """A relative posix path that stays inside its directory."""
    return (
        isinstance(name, str)
        and bool(name)
        and "\0" not in name
        and "\\" not in name
        and all(part not in ("", ".", "..") for part in name.split("/"))
    )


def scan_outputs(raw: bytes) -> dict[str, str] | None:
    """The files a scan summary lists with their sha256 (the summary itself excluded), of any
    schema version: a scan replaces the output of an erratlas of another release too."""
    try:
        summary = orjson.loads(raw)
    except orjson.JSONDecodeError:
        return None
    schema = summary.get("schema") if isinstance(summary, dict) else None
    if not isinstance(schema, str) or not schema.startswith(SUMMARY_SCHEMA.rsplit("/", 1)[0] + "/"):
        return None
    outputs = summary.get("outputs")
    if not isinstance(outputs, dict):
        return None
    if not all(safe_name(n) and isinstance(d, str) and _HEX64.match(d) for n, d in outputs.items()):
        return None
    return outputs


# ---- writing -----------------------------------------------------------------------------------


def write_directory(target: Path, files: dict[str, bytes], manifest: str = SUMMARY_FILE,
                    owned: Manifest = scan_outputs) -> None:
    """Replace `target` with a directory holding exactly `files`, atomically."""
    import shutil

    target = Path(os.path.abspath(target))
    staging = staging_name(target)
    try:
        stage(target, staging, files)
        replace_with(staging, target, manifest, owned)
    finally:
        if os.path.lexists(staging):
            shutil.rmtree(staging, ignore_errors=True)


def staging_name(target: Path) -> Path:
    """A new name beside `target` for this process's staging directory (`stage` makes it): the
    name says which process writes it, so that a later run removes it only once that process is
    dead (`sweep_stale`), wherever the files are written from (a scan's isolated child)."""
    return target.parent / (_prefix(target.name) + _writer() + "-" + os.urandom(4).hex())


def stage(target: Path, staging: Path, files: dict[str, bytes]) -> None:
    """Make the directory `staging` (`staging_name(target)`) holding exactly `files`, each written
    whole to disk; stale staging directories of dead writers beside `target` are removed first."""
    open_staging(target, staging)
    mark("output: staging made")
    write_staged(target, staging, files)
    mark("output: staged")


def open_staging(target: Path, staging: Path) -> None:
    """Make the empty directory `staging` (`staging_name(target)`), after removing the stale
    staging directories of dead writers beside `target`; `write_staged` fills it."""
    _output_stat(target)  # a path that cannot be an output says why, not what mkdir met on the way
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        sweep_stale(target)
        os.mkdir(staging, 0o700)
    except OSError as exc:
        raise InputError(target, f"cannot create a staging directory beside it: {exc.strerror}") from None


def write_staged(target: Path, staging: Path, files: dict[str, bytes], again: bool = False) -> None:
    """Write `files` into `staging` (`open_staging`), each whole to disk; two processes may write
    their own files into it at once. `again`: a file of these names already there (written by a
    worker that was lost) is replaced."""
    try:
        for name in sorted(files):
            if "/" in name:
                (staging / name).parent.mkdir(parents=True, exist_ok=True)
            if again:
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(staging / name)  # the staging directory is this scan's alone (0o700)
            _write_new(staging / name, files[name])
        for directory in sorted({(staging / n).parent for n in files}):
            os.chmod(directory, 0o755)
    except OSError as exc:
        raise InputError(target, f"cannot write the output directory: {exc.strerror}") from None


def replace_with(staging: Path, target: Path, manifest: str = SUMMARY_FILE, owned: Manifest = scan_outputs) -> None:
    """Swap the staged directory in at `target`, once `target` is checked (right before the swap:
    a refusal leaves `target` as it was, as a refusal before staging would; each check hashes
    every file of an earlier output)."""
    check_replaceable(target, manifest, owned)
    try:
        swap_in(staging, target)
    except OSError as exc:
        raise InputError(target, f"cannot write the output directory: {exc.strerror}") from None
    mark("output: swapped")


def write_file(target: Path, data: bytes) -> None:
    """Replace the regular file `target` (or create it) with `data`, atomically, once the staged
    copy reads back as `data`; a symlink, a directory or a special file at `target` is refused."""
    import shutil

    target = Path(os.path.abspath(target))
    mode = replaceable_file(target)
    staging = staging_beside(target)
    try:
        inner = staging / "file"
        _write_new(inner, data, mode)
        if inner.read_bytes() != data:  # what replaces the file is what was validated
            raise InputError(target, "the staged copy does not read back as written; nothing replaced")
        os.replace(inner, target)
    except OSError as exc:
        raise InputError(target, f"cannot write: {exc.strerror}") from None
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def replaceable_file(target: Path) -> int | None:
    """The mode of the regular file at `target`, None when there is none; anything else there (a
    symlink, a directory, a device, a FIFO) is refused: a verb checks its --out before its work."""
    refuse_inside_a_scan(target)
    info = _output_stat(target)
    if info is None:
        return None
    if not stat.S_ISREG(info.st_mode):
        raise InputError(target, f"is {file_kind(info.st_mode)}; erratlas writes only regular files, refusing")
    return stat.S_IMODE(info.st_mode)


def _write_new(path: Path, data: bytes, mode: int | None = None) -> None:
    """A new file, created exclusively (never through a planted name or symlink)."""
    fd = os.open(path, _CREATE, 0o666 if mode is None else 0o600)
    try:
        if mode is not None:
            os.fchmod(fd, mode)  # the replaced file's mode, whatever the umask
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        os.fsync(fd)
    finally:
        os.close(fd)


def staging_beside(target: Path) -> Path:
    """A new private directory beside `target`, after removing stale ones of dead writers."""
    import tempfile

    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        sweep_stale(target)
        return Path(tempfile.mkdtemp(prefix=_prefix(target.name) + _writer() + "-", dir=target.parent))
    except OSError as exc:
        raise InputError(target, f"cannot create a staging directory beside it: {exc.strerror}") from None


def _prefix(name: str) -> str:
    kept = os.fsdecode(os.fsencode(name)[:_NAME_KEPT])  # bytes: NAME_MAX counts bytes
    return f".{kept}{_STAGING}"


def _writer() -> str:
    """This process, as `boot.pid.start`; `x` where that cannot be known (no /proc)."""
    boot, start = _boot_id(), _start_time(os.getpid())
    return f"{boot}.{os.getpid()}.{start[1]}" if boot and start else "x"


def _boot_id() -> str | None:
    try:
        return Path("/proc/sys/kernel/random/boot_id").read_text().strip().replace("-", "")[:16]
    except OSError:
        return None


def _start_time(pid: int) -> tuple[str, str] | None:
    """(state, start time in clock ticks since boot) of a process, None when there is none."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return fields[0], fields[19]


def _dead(writer: str) -> bool:
    """True when the writer named `boot.pid.start` provably no longer runs."""
    try:
        boot, pid, start = writer.split(".")
        number = int(pid)
    except ValueError:
        return False  # not a name we make: not provably ours, keep it
    if boot != _boot_id():
        return _boot_id() is not None
    process = _start_time(number)
    return process is None or process[1] != start or process[0] in ("Z", "X")


def sweep_stale(target: Path) -> None:
    """Remove the staging directories beside `target` whose writers are provably dead."""
    import shutil

    prefix = _prefix(target.name)
    try:
        names = [n for n in os.listdir(target.parent) if n.startswith(prefix)]
    except OSError:
        return
    for name in names:
        writer = name[len(prefix):].split("-", 1)[0]
        path = target.parent / name
        if writer == "x" or not _dead(writer):
            continue
        if stat.S_ISDIR(os.lstat(path).st_mode):
            shutil.rmtree(path, ignore_errors=True)  # never follows symlinks


def swap_in(staging: Path, target: Path) -> None:
    """Put the directory `staging` at `target`, atomically where the system can."""
    import shutil
    import tempfile

    if not os.path.lexists(target):
        os.rename(staging, target)
        return
    if _exchange(staging, target):
        shutil.rmtree(staging)  # now holds the previous output; rmtree does not follow symlinks
        return
    retired = Path(tempfile.mkdtemp(prefix=_prefix(target.name) + _writer() + "-", dir=target.parent))
    os.rmdir(retired)
    os.rename(target, retired)
    os.rename(staging, target)
    shutil.rmtree(retired)


def _exchange(a: Path, b: Path) -> bool:
    """Atomically exchange two paths (Linux renameat2 RENAME_EXCHANGE); False if unsupported."""
    import ctypes  # here: the verbs that only read a directory (gate) never load it

    try:  # the process's own symbols, the C library's among them (no `ldconfig` run to find it)
        libc = ctypes.CDLL(None, use_errno=True)
    except OSError:
        return False
    renameat2 = getattr(libc, "renameat2", None)
    if renameat2 is None:
        return False
    result = renameat2(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE)
    return result == 0


# ---- what may be replaced ----------------------------------------------------------------------


class _Vanished(Exception):
    """A file went away while we hashed it: another erratlas replaced the directory."""


def check_replaceable(target: Path, manifest: str = SUMMARY_FILE, owned: Manifest = scan_outputs) -> None:
    """Refuse, naming the first thing that is not erratlas's, unless `target` is absent, empty,
    or holds exactly the files `manifest` lists with their recorded sha256."""
    refuse_inside_a_scan(target)
    for _ in range(5):
        try:
            _check_once(target, manifest, owned)
            return
        except _Vanished:
            continue
    raise InputError(target, "changes while erratlas checks it (another writer?); refusing to replace it")


def _output_stat(target: Path) -> os.stat_result | None:
    """`lstat` of an output path, None when nothing is there; a path that cannot be one (a name too
    long, a file where a parent directory belongs, a loop of links) is refused, naming why."""
    try:
        return os.lstat(target)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise InputError(target, f"cannot be an output path: {exc.strerror}") from None


def _check_once(target: Path, manifest: str, owned: Manifest) -> None:
    info = _output_stat(target)
    if info is None:
        return
    if stat.S_ISLNK(info.st_mode):
        raise InputError(target, "output path is a symlink; refusing to replace it")
    if not stat.S_ISDIR(info.st_mode):
        raise InputError(target, "output path exists and is not a directory")
    if _holds_working_directory(target):
        raise InputError(target, "is the current directory or holds it: it would be replaced whole, leaving the "
                                 "shell in a deleted directory; give a directory below it")
    try:
        fd = open_directory(target, "output directory", follow=False)
    except InputError as exc:
        if "no such" in exc.problem:
            raise _Vanished from None
        raise
    try:
        _check_contents(fd, target, manifest, owned)
    finally:
        os.close(fd)


def refuse_inside_a_scan(target: Path) -> None:
    """Refuse a target inside a scan directory (below a directory holding a summary): a file there
    that the summary does not list makes every later `gate` of that directory refuse it."""
    here = Path(os.path.abspath(target)).parent
    for directory in (here, *here.parents):
        try:
            held = stat.S_ISREG(os.lstat(directory / SUMMARY_FILE).st_mode)
        except OSError:
            continue
        if held:
            raise InputError(target, f"inside the scan directory {directory}, whose summary would not list it "
                                     "(the gate refuses such a directory); write it beside that directory")


def _holds_working_directory(target: Path) -> bool:
    try:
        here = os.getcwd()
    except OSError:  # the working directory was removed: nothing to leave
        return False
    held = os.path.realpath(target)
    return here == held or here.startswith(held.rstrip("/") + "/")


#: the directories erratlas writes, by the file that marks each: one is never replaced by another's
_DIRECTORIES = {SUMMARY_FILE: "a scan directory", "diff.json": "a diff directory",
                "manifest.json": "an extraction directory", "corpus.json": "a corpus"}


def _not_ours(top: list[str], manifest: str) -> str:
    """Why a directory without `manifest` is not replaced: another verb's output, or none."""
    for marker, what in _DIRECTORIES.items():
        if marker in top and marker != manifest:
            return f"{what} ({marker}), not {_DIRECTORIES.get(manifest, 'an output of this command')}"
    return f"not empty and holds no erratlas output (no {manifest})"


def _check_contents(fd: int, target: Path, manifest: str, owned: Manifest) -> None:
    refuse = f"refusing to replace {target}, nothing was deleted"
    top = os.listdir(fd)  # before the whole walk: a home directory is refused for what it is, not for a link deep in it
    if top and manifest not in top:
        raise InputError(target, f"{_not_ours(top, manifest)}; {refuse}")
    listing = list_directory(fd, target)
    if not listing.files and not listing.directories:
        return
    if manifest not in listing.files:
        raise InputError(target, f"not empty and holds no erratlas output (no {manifest}); {refuse}")
    try:
        recorded = owned(read_inside(fd, manifest, target, MAX_DOCUMENT_BYTES))
    except InputError:
        recorded = None
    if recorded is None:
        raise InputError(target / manifest, f"not a manifest erratlas wrote; {refuse}")
    for name in sorted(listing.files):
        if name != manifest and name not in recorded:
            raise InputError(target / name, f"not written by erratlas (not listed in {manifest}); {refuse}")
    parents = {"/".join(name.split("/")[:depth]) for name in recorded for depth in range(1, name.count("/") + 1)}
    for directory in sorted(listing.directories - parents):
        raise InputError(target / directory, f"a directory erratlas did not write; {refuse}")
    for name in sorted(set(recorded) & set(listing.files)):
        if _sha256_inside(fd, name, target) != recorded[name]:
            raise InputError(target / name, f"changed since erratlas wrote it; {refuse}")


def _sha256_inside(fd: int, name: str, where: Path) -> str:
    try:
        handle = open_inside(fd, name, where)
    except InputError as exc:
        if exc.problem == "missing":
            raise _Vanished from None
        raise
    with os.fdopen(handle, "rb") as stream:
        if not stat.S_ISREG(os.fstat(stream.fileno()).st_mode):
            raise InputError(where / name, "not a regular file")
        return hashlib.file_digest(stream, "sha256").hexdigest()
