"""The bundle's time window: no version published after the bundle was built can be in it
(docs/corpus.md, "The bundle's time window"). `corpus add --for PATH` finds it and records it in
the corpus, keyed by the bundle's sha256 (each file's, for an npm tarball), for `suggest --corpus`
to use and report.

Found, in this order: `--before` as given; the registry's publish time of the bundle's own
package, named by the `package.json` of the npm tarball it came in or the nearest one above the
bundle; the publish time of the newest version the bundle's unique matches prove it holds.
"""

from __future__ import annotations

import hashlib
import tarfile
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO

import orjson

from analyzer.errors import InputError
from analyzer.owners.corpus.registry import publish_times, semver_key, valid_name, valid_version
from analyzer.scandir.files import SUMMARY_FILE
from analyzer.signatures import BundleFunction

#: a package.json larger than this is not read (it is not a manifest)
MAX_MANIFEST_BYTES = 1 << 20
#: an npm tarball's files whose sha256 a window is recorded under, at most
MAX_TARBALL_FILES = 10_000
#: how many distinct bundle functions must prove a version before it bounds the window
MIN_PROOFS = 2


@dataclass(frozen=True, slots=True)
class Window:
    #: ISO time: a version published after it is not the bundle's
    before: str
    #: how it was found, for a person
    how: str

    def to_json(self) -> dict[str, str]:
        return {"before": self.before, "how": self.how}


@dataclass(frozen=True, slots=True)
class Target:
    """What `--for` named: the bundle's sha256 (as its scan records it; for an npm tarball, that
    of every file it holds, any of which may be the bundle scanned) and its own package."""

    sha256s: tuple[str, ...]
    #: (name, version, where the manifest was read), or None
    package: tuple[str, str, str] | None
    #: a scan directory's function signatures, when `--for` named one
    scan: Path | None = None


def target_of(path: Path) -> Target:
    """A bundle file, an npm tarball (`.tgz`) or a scan directory."""
    if path.is_dir():
        summary = path / SUMMARY_FILE
        try:
            document = orjson.loads(summary.read_bytes())
            sha256 = str(document["inputs"]["bundle"]["sha256"])
        except (OSError, orjson.JSONDecodeError, KeyError, TypeError):
            raise InputError(path, "not a scan directory (no readable summary), a bundle or an npm tarball") from None
        return Target((sha256,), None, path)
    if not path.is_file():
        raise InputError(path, "not a bundle, an npm tarball or a scan directory")
    if path.name.endswith((".tgz", ".tar.gz")):
        return Target(_tarball_files(path), _tarball_package(path))
    with open(path, "rb") as handle:
        return Target((_digest(handle),), _nearest_package(path))


def _digest(handle: IO[bytes]) -> str:
    digest = hashlib.sha256()
    for block in iter(lambda: handle.read(1 << 20), b""):
        digest.update(block)
    return digest.hexdigest()


def _tarball_files(path: Path) -> tuple[str, ...]:
    """The sha256 of each regular file in an npm tarball (at most MAX_TARBALL_FILES of them)."""
    found: set[str] = set()
    try:
        with tarfile.open(path, mode="r:gz") as archive:
            for info in archive:
                if info.isfile() and len(found) < MAX_TARBALL_FILES:
                    handle = archive.extractfile(info)
                    if handle is not None:
                        found.add(_digest(handle))
    except (tarfile.TarError, EOFError, OSError, ValueError) as exc:
        raise InputError(path, f"not a readable npm tarball ({exc})") from None
    return tuple(sorted(found))


def _tarball_package(path: Path) -> tuple[str, str, str] | None:
    try:
        with tarfile.open(path, mode="r:gz") as archive:
            for info in archive:
                parts = info.name.strip("/").split("/")
                if len(parts) == 2 and parts[1] == "package.json" and info.isfile():
                    if info.size > MAX_MANIFEST_BYTES:
                        return None
                    handle = archive.extractfile(info)
                    return _manifest(handle.read() if handle is not None else b"", f"{path.name}:{info.name}")
    except (tarfile.TarError, EOFError, OSError, ValueError) as exc:
        raise InputError(path, f"not a readable npm tarball ({exc})") from None
    return None


def _nearest_package(bundle: Path) -> tuple[str, str, str] | None:
    """The package of the nearest package.json above the bundle that has a `name`: one without
    (`{"type": "commonjs"}` in mathjs's `lib/browser/`) only sets the module type of its folder."""
    for directory in bundle.resolve().parents:
        manifest = directory / "package.json"
        if manifest.is_file():
            if manifest.stat().st_size > MAX_MANIFEST_BYTES:
                return None
            data = manifest.read_bytes()
            document = _document(data)
            if isinstance(document, dict) and "name" not in document:
                continue
            return _manifest(data, str(manifest))
    return None


def _document(data: bytes) -> object:
    try:
        return orjson.loads(data)
    except orjson.JSONDecodeError:
        return None


def _manifest(data: bytes, where: str) -> tuple[str, str, str] | None:
    document = _document(data)
    if not isinstance(document, dict):
        return None
    name, version = document.get("name"), document.get("version")
    if isinstance(name, str) and isinstance(version, str) and valid_name(name) and valid_version(version):
        return name, version, where
    return None


def published_window(target: Target, warn: Callable[[str], None]) -> Window | None:
    """The publish time of the bundle's own package, if the registry has it."""
    if target.package is None:
        return None
    name, version, where = target.package
    try:
        times = publish_times(name)
    except InputError as exc:
        warn(f"erratlas: {where} names {name}@{version}; its publish time is unknown ({exc.problem})")
        return None
    if version not in times:
        warn(f"erratlas: {where} names {name}@{version}, which the registry has not published")
        return None
    return Window(times[version], f"the publish time of {name}@{version} (named by {where})")


@dataclass(frozen=True, slots=True)
class Proof:
    package: str
    #: the earliest version (in the corpus) holding the proving functions
    version: str
    published: str
    #: how many distinct bundle functions prove it
    functions: int


def proven_versions(functions: list[BundleFunction], holders: Callable[[str], dict[str, set[str]]],
                    versions: dict[str, list[str]], published: Callable[[str, str], str]) -> list[Proof]:
    """Per package, the newest version the bundle provably holds code of: a bundle function whose
    signature this package alone has, in a version V but not in the version just below V of the
    same release line, proves the bundle's copy is newer than that one; V is the earliest version
    of the corpus that can be it. `holders(key)`: package -> its versions holding the signature."""
    found: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for key in sorted({f.key for f in functions}):
        by_package = holders(key)
        if len(by_package) != 1:
            continue
        ((package, holding),) = by_package.items()
        if not holding:
            continue
        ordered = sorted(versions.get(package, ()), key=semver_key)
        first = min(holding, key=semver_key)
        below = [v for v in ordered if semver_key(v) < semver_key(first) and semver_key(v)[0] == semver_key(first)[0]]
        if below and below[-1] not in holding:
            found[package][first] += 1
    proofs = []
    for package, counted in found.items():
        proved = [v for v, n in counted.items() if n >= MIN_PROOFS]
        if proved:
            version = max(proved, key=semver_key)
            if when := published(package, version):
                proofs.append(Proof(package, version, when, counted[version]))
    return sorted(proofs, key=lambda p: (p.published, p.package))


def proven_window(proofs: list[Proof]) -> Window | None:
    """The newest proven version's publish time. One package can be wrong (a registry that
    republished old versions gives them new times), so the newest is taken only when a second
    package's proof is within 31 days of it; otherwise the second newest."""
    if not proofs:
        return None
    newest = proofs[-1]
    if len(proofs) >= 2 and _days_between(proofs[-2].published, newest.published) > 31:
        newest = proofs[-2]
    return Window(newest.published, f"the publish time of {newest.package}@{newest.version}, the newest version "
                                    f"the bundle's unique matches prove ({newest.functions} functions; "
                                    f"{len(proofs)} packages proved)")


def _days_between(earlier: str, later: str) -> float:
    from datetime import datetime

    def parse(text: str) -> datetime:
        return datetime.fromisoformat(text.replace("Z", "+00:00"))

    try:
        return (parse(later) - parse(earlier)).total_seconds() / 86400
    except ValueError:
        return float("inf")


def day_after(when: str) -> str:
    """An ISO time one day later (candidates published on the bundle's own day are in)."""
    from datetime import datetime, timedelta

    try:
        moment = datetime.fromisoformat(when.replace("Z", "+00:00"))
    except ValueError:
        return when
    return (moment + timedelta(days=1)).isoformat()


def read_window(document: dict[str, object], sha256: str) -> Window | None:
    """The window the corpus manifest recorded for this bundle."""
    windows = document.get("windows")
    row = windows.get(sha256) if isinstance(windows, dict) else None
    if isinstance(row, dict) and isinstance(row.get("before"), str) and isinstance(row.get("how"), str):
        return Window(row["before"], row["how"])
    return None


def signatures_of(scan: Path) -> Path:
    """The scan's function signatures, from which `--for` proves a window; refused when absent."""
    from analyzer.owners.corpus.signature_file import SIGNATURES_FILE

    path = scan / SIGNATURES_FILE
    if not path.is_file():
        raise InputError(path, "no function signatures: scan the bundle with --signatures")
    return path


def read_summary_functions(scan: Path) -> list[BundleFunction]:
    from analyzer.owners.corpus.signature_file import read_signatures

    path = signatures_of(scan)
    try:
        data = path.read_bytes()
    except OSError:
        raise InputError(path, "no function signatures: scan the bundle with --signatures") from None
    return read_signatures(data, str(path))

