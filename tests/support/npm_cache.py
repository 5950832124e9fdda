"""A verified download cache for the real npm bundles that tests and benchmarks scan.

    from tests.support import npm_cache
    package_dir = npm_cache.fetch("@anthropic-ai/claude-code", "2.1.100")   # .../package/
    cli_js = npm_cache.main_file("@anthropic-ai/claude-code", "2.1.100")    # .../package/cli.js

Every fetchable release is pinned in ``bundles.toml`` beside this file: the sha256 of the
tarball ``npm pack`` writes, and the path of the file to scan inside it. An entry lives in
``$ERRATLAS_CACHE/npm/<name>-<version>/`` (default cache root ``~/.cache/erratlas``; the
``/`` of a scoped name becomes ``__``) and holds the unpacked ``package/`` tree plus a stamp
recording the verified sha256. A stamped entry is reused without touching the network.

A fetch packs into a staging directory next to the entry, checks the sha256, unpacks
(regular files and directories only, nothing outside ``package/``), writes the stamp and
renames the finished tree into place, so an interrupted or concurrent fetch never leaves a
half entry. Fetches of one entry are serialized by a lock file where ``fcntl`` exists.

``python -m tests.support.npm_cache [PACKAGE@VERSION ...]`` fetches the given pins (all of
them by default) and prints where they are.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass

PINS_FILE = pathlib.Path(__file__).with_name("bundles.toml")
STAMP = ".erratlas-verified.json"
PACK_TIMEOUT = 30 * 60  # seconds; the largest tarballs are ~100 MB

_NAME = re.compile(r"^(?:@[a-z0-9][a-z0-9._~-]*/)?[a-z0-9][a-z0-9._~-]*$")
_VERSION = re.compile(r"^[0-9A-Za-z][0-9A-Za-z.+-]*$")


class CacheError(Exception):
    """A pinned bundle could not be fetched, verified or unpacked."""


class ChecksumMismatch(CacheError):
    """The tarball npm returned is not the pinned one."""

    def __init__(self, package: str, version: str, expected: str, actual: str) -> None:
        super().__init__(
            f"{package}@{version}: tarball sha256 mismatch: "
            f"pinned {expected} in {PINS_FILE.name}, npm returned {actual}"
        )
        self.package, self.version = package, version
        self.expected, self.actual = expected, actual


@dataclass(frozen=True)
class Pin:
    package: str
    version: str
    sha256: str
    main: str  # path inside the tarball, e.g. "package/cli.js"

    @property
    def spec(self) -> str:
        return f"{self.package}@{self.version}"


@functools.cache
def _load_pins() -> dict[str, Pin]:
    with PINS_FILE.open("rb") as handle:
        table = tomllib.load(handle)
    result = {}
    for spec, fields in table.items():
        package, _, version = spec.rpartition("@")
        if not package or not _NAME.match(package) or not _VERSION.match(version):
            raise CacheError(f"{PINS_FILE}: bad table name {spec!r}, want \"<package>@<version>\"")
        sha256 = str(fields.get("sha256", "")).lower()
        if not re.fullmatch(r"[0-9a-f]{64}", sha256):
            raise CacheError(f"{PINS_FILE}: {spec}: sha256 must be 64 hex digits")
        main = _inside_path(str(fields.get("main", "")), f"{PINS_FILE}: {spec}: main")
        result[spec] = Pin(package, version, sha256, main.as_posix())
    return result


def pins() -> list[Pin]:
    """Every pinned release, in file order."""
    return list(_load_pins().values())


def pin(package: str, version: str) -> Pin:
    try:
        return _load_pins()[f"{package}@{version}"]
    except KeyError:
        raise CacheError(
            f"{package}@{version} is not pinned in {PINS_FILE}; "
            "add its tarball sha256 and main file"
        ) from None


def cache_root() -> pathlib.Path:
    """``$ERRATLAS_CACHE`` when set, else ``~/.cache/erratlas``."""
    configured = os.environ.get("ERRATLAS_CACHE")
    return pathlib.Path(configured) if configured else pathlib.Path.home() / ".cache" / "erratlas"


def entry_dir(package: str, version: str) -> pathlib.Path:
    """Where the entry of one release lives (whether or not it is there yet)."""
    if not _NAME.match(package) or not _VERSION.match(version):
        raise CacheError(f"not an npm package name and version: {package!r} {version!r}")
    return cache_root() / "npm" / f"{package.replace('/', '__')}-{version}"


def cached(package: str, version: str) -> pathlib.Path | None:
    """The ``package/`` directory when a verified entry exists, else ``None``; never fetches."""
    entry = entry_dir(package, version)
    return entry / "package" if _is_valid(entry, pin(package, version)) else None


def fetch(package: str, version: str) -> pathlib.Path:
    """The unpacked ``package/`` directory of a pinned release, fetched and verified if needed."""
    wanted = pin(package, version)
    entry = entry_dir(package, version)
    if _is_valid(entry, wanted):
        return entry / "package"
    entry.parent.mkdir(parents=True, exist_ok=True)
    with _locked(entry.parent / f".{entry.name}.lock") as exclusive:
        if _is_valid(entry, wanted):  # another process finished it while we waited
            return entry / "package"
        if exclusive:
            _remove_leftovers(entry)
        staging = pathlib.Path(tempfile.mkdtemp(prefix=f".{entry.name}.tmp-", dir=entry.parent))
        try:
            built = _build(wanted, staging)
            _install(built, entry, wanted, staging)
        finally:
            shutil.rmtree(staging, ignore_errors=True)
    return entry / "package"


def main_file(package: str, version: str) -> pathlib.Path:
    """The pinned main file (``cli.js``, a Bun executable …) of a release, fetched if needed."""
    return fetch(package, version).parent / pin(package, version).main


def _build(wanted: Pin, staging: pathlib.Path) -> pathlib.Path:
    """Pack, verify and unpack into ``staging/entry``; return that finished, stamped tree."""
    download = staging / "download"
    download.mkdir()
    tarball = _npm_pack(wanted, download)
    actual = _sha256(tarball)
    if actual != wanted.sha256:
        raise ChecksumMismatch(wanted.package, wanted.version, wanted.sha256, actual)
    built = staging / "entry"
    built.mkdir()
    _unpack(tarball, built, wanted.spec)
    tarball.unlink()
    main = built / wanted.main
    if not main.is_file() or main.is_symlink():
        raise CacheError(f"{wanted.spec}: pinned main file {wanted.main} is not in the tarball")
    stamp = {
        "package": wanted.package,
        "version": wanted.version,
        "sha256": wanted.sha256,
        "main": wanted.main,
    }
    (built / STAMP).write_text(json.dumps(stamp, indent=2) + "\n", encoding="utf-8")
    return built


def _install(built: pathlib.Path, entry: pathlib.Path, wanted: Pin, staging: pathlib.Path) -> None:
    """Rename the finished tree into place, moving an unverified old entry out of the way."""
    try:
        os.rename(built, entry)
        return
    except OSError:
        if not entry.exists():
            raise
    if _is_valid(entry, wanted):  # raced with a process that could not take the lock
        return
    os.rename(entry, staging / "replaced")  # removed with the staging directory
    os.rename(built, entry)


def _is_valid(entry: pathlib.Path, wanted: Pin) -> bool:
    try:
        stamp = json.loads((entry / STAMP).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return (
        isinstance(stamp, dict)
        and stamp.get("package") == wanted.package
        and stamp.get("version") == wanted.version
        and stamp.get("sha256") == wanted.sha256
        and (entry / "package").is_dir()
        and (entry / wanted.main).is_file()
    )


def _npm_pack(wanted: Pin, dest: pathlib.Path) -> pathlib.Path:
    npm = shutil.which("npm")
    if npm is None:
        raise CacheError(f"{wanted.spec}: not cached and `npm` is not on PATH to fetch it")
    env = dict(
        os.environ,
        npm_config_update_notifier="false",
        npm_config_fund="false",
        npm_config_audit="false",
    )
    command = [npm, "pack", wanted.spec, "--json", "--ignore-scripts"]
    command += ["--pack-destination", str(dest)]
    try:
        done = subprocess.run(
            command,
            cwd=dest,
            env=env,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=PACK_TIMEOUT,
            check=False,
        )
    except subprocess.TimeoutExpired:
        raise CacheError(f"{wanted.spec}: `npm pack` took over {PACK_TIMEOUT} s") from None
    if done.returncode != 0:
        tail = "\n".join(done.stderr.strip().splitlines()[-5:])
        raise CacheError(f"{wanted.spec}: `npm pack` exited {done.returncode}:\n{tail}")
    tarballs = sorted(dest.glob("*.tgz"))
    with contextlib.suppress(ValueError, TypeError, KeyError, IndexError):
        named = dest / pathlib.PurePath(json.loads(done.stdout)[0]["filename"]).name
        if named.is_file():
            return named
    if len(tarballs) != 1:
        raise CacheError(f"{wanted.spec}: `npm pack` left {len(tarballs)} tarballs in {dest}")
    return tarballs[0]


def _sha256(path: pathlib.Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while chunk := handle.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


def _inside_path(name: str, what: str) -> pathlib.PurePosixPath:
    """A relative path with no ``..``, drive or absolute part, rooted at ``package/``."""
    if not name or "\0" in name or "\\" in name:
        raise CacheError(f"{what}: unsafe path {name!r}")
    path = pathlib.PurePosixPath(name)
    parts = [part for part in path.parts if part not in ("", ".")]
    if (
        path.is_absolute()
        or not parts
        or parts[0] != "package"
        or any(part == ".." or ":" in part for part in parts)
    ):
        raise CacheError(f"{what}: path {name!r} is not inside package/")
    return pathlib.PurePosixPath(*parts)


def _unpack(tarball: pathlib.Path, dest: pathlib.Path, spec: str) -> None:
    """Extract regular files and directories under ``dest``; anything else is an error."""
    try:
        with tarfile.open(tarball, "r:gz") as archive:
            for member in archive:
                relative = _inside_path(member.name, f"{spec}: {tarball.name}")
                target = dest.joinpath(*relative.parts)
                if member.isdir():
                    target.mkdir(parents=True, exist_ok=True)
                    continue
                if not member.isfile():
                    kind = "link" if member.issym() or member.islnk() else "special file"
                    raise CacheError(
                        f"{spec}: {tarball.name}: {member.name} is a {kind}; "
                        "only regular files and directories are unpacked"
                    )
                target.parent.mkdir(parents=True, exist_ok=True)
                source = archive.extractfile(member)
                assert source is not None  # a regular file always has data
                mode = 0o755 if member.mode & 0o111 else 0o644
                flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0)
                descriptor = os.open(target, flags | getattr(os, "O_BINARY", 0), mode)
                with os.fdopen(descriptor, "wb") as out:
                    shutil.copyfileobj(source, out, 1 << 20)
    except (tarfile.TarError, EOFError, OSError) as error:
        raise CacheError(f"{spec}: cannot unpack {tarball.name}: {error}") from error


def _remove_leftovers(entry: pathlib.Path) -> None:
    """Staging directories of interrupted fetches (only called while holding the lock)."""
    for leftover in entry.parent.glob(f".{entry.name}.tmp-*"):
        shutil.rmtree(leftover, ignore_errors=True)


@contextlib.contextmanager
def _locked(path: pathlib.Path) -> Iterator[bool]:
    """Hold an exclusive lock on ``path``; yields False where file locks are unavailable."""
    try:
        import fcntl
    except ImportError:
        yield False
        return
    with path.open("a+b") as handle:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
        try:
            yield True
        finally:
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)


def _main(argv: list[str]) -> int:
    specs = argv or [p.spec for p in pins()]
    status = 0
    for spec in specs:
        package, _, version = spec.rpartition("@")
        try:
            print(f"{spec}\t{main_file(package, version)}")
        except CacheError as error:
            print(error, file=sys.stderr)
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:]))
