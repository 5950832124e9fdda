"""Package tarballs from the npm registry, through the `npm` command and its configuration.

`npm view` gives a package's publish times and each version's `dist.integrity`; `npm pack`
downloads many tarballs in one call (npm verifies them on the way); erratlas checks every
tarball's sha512 against the integrity before it is cached or indexed, and again before a
cached tarball is indexed. Nothing else talks to the network.
"""

from __future__ import annotations

import base64
import hashlib
import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import orjson

from analyzer.errors import InputError

NPM_TIMEOUT = 600  # seconds for one npm call (a batch of tarballs)
_NAME = re.compile(r"^(?:@[a-z0-9][a-z0-9._~-]*/)?[a-z0-9][a-z0-9._~-]*$")
_VERSION = re.compile(r"^[0-9]+\.[0-9]+\.[0-9]+(?:[-+][0-9A-Za-z.+-]*)?$")
_STABLE = re.compile(r"^[0-9]+\.[0-9]+\.[0-9]+$")


@dataclass(frozen=True, slots=True)
class Release:
    name: str
    version: str
    #: `sha512-<base64>` as the registry publishes it
    integrity: str
    #: ISO 8601 publish time, or "" when the registry gave none
    published: str


def valid_name(name: str) -> bool:
    return bool(_NAME.match(name))


def valid_version(version: str) -> bool:
    return bool(_VERSION.match(version))


def _npm() -> str:
    found = shutil.which("npm")
    if found is None:
        raise InputError("npm", "the npm command is not on PATH (needed to fetch from the registry)")
    return found


def _run_npm(arguments: list[str], what: str, cwd: Path | None = None) -> str:
    env = dict(os.environ, npm_config_update_notifier="false", npm_config_fund="false", npm_config_audit="false",
               npm_config_loglevel="error")
    try:
        done = subprocess.run([_npm(), *arguments], cwd=cwd, env=env, stdin=subprocess.DEVNULL, capture_output=True,
                              text=True, timeout=NPM_TIMEOUT, check=False)
    except subprocess.TimeoutExpired:
        raise InputError(what, f"npm {arguments[0]} took over {NPM_TIMEOUT} s") from None
    if done.returncode != 0:
        lines = [line for line in done.stderr.strip().splitlines() if line.strip()]
        detail = next((line for line in lines if "code" in line.lower() or "404" in line), lines[0] if lines else "")
        raise InputError(what, f"npm {arguments[0]} failed (exit {done.returncode}): {detail.strip()}")
    return done.stdout


def publish_times(name: str) -> dict[str, str]:
    """Version -> ISO publish time, from the registry (`npm view NAME time --json`)."""
    raw = _run_npm(["view", name, "time", "--json"], name)
    try:
        times = orjson.loads(raw or b"{}")
    except orjson.JSONDecodeError:
        raise InputError(name, "npm view returned something that is not JSON") from None
    if not isinstance(times, dict):
        raise InputError(name, "npm view returned no publish times")
    return {v: str(t) for v, t in times.items() if valid_version(v)}


@dataclass(frozen=True, slots=True)
class Candidates:
    """Which versions a plain name brings: the `count` highest, and the highest of each of the
    `lines` release lines below theirs (a bundle often ships an older major: lockfiles pin)."""

    count: int = 3
    lines: int = 0

    def describe(self, before: str | None) -> str:
        """The key a choice is recorded under in the corpus manifest."""
        lines = f", {self.lines} older lines" if self.lines else ""
        return f"before {before or 'now'}, {self.count} candidates{lines}"


def candidates(times: dict[str, str], before: str | None, wanted: Candidates) -> list[str]:
    """The `wanted.count` highest stable versions published before `before` (ISO date or time),
    highest first (by version, not by time: a maintenance release of an old line is not newer
    code), then the highest version of each of the next `wanted.lines` release lines down (a
    line: the major version, or `0.minor` below 1.0.0, as semver ranges read them)."""
    stable = sorted((v for v, t in times.items() if _STABLE.match(v) and (before is None or t < before)), key=_semver)
    chosen = stable[-wanted.count:][::-1]
    seen = {_line(v) for v in chosen}
    for version in reversed(stable[:-wanted.count]):
        if len(chosen) >= wanted.count + wanted.lines:
            break
        if _line(version) not in seen:
            seen.add(_line(version))
            chosen.append(version)
    return chosen


def _line(version: str) -> tuple[int, ...]:
    major, minor = _semver(version)[:2]
    return (major,) if major else (0, minor)


def _semver(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in version.split("+")[0].split("-")[0].split("."))


def semver_key(version: str) -> tuple[int, ...]:
    """A sort key of a version by its numbers (a pre-release sorts as its release)."""
    try:
        return _semver(version)
    except ValueError:
        return (-1,)


def releases(name: str, versions: Iterable[str], times: dict[str, str] | None = None) -> list[Release]:
    """The integrity of each version, in one `npm view` call."""
    wanted = sorted(set(versions), key=_semver)
    if not wanted:
        return []
    what = f"{name}@{wanted[0]}" if len(wanted) == 1 else name
    raw = _run_npm(["view", f"{name}@{' || '.join(wanted)}", "version", "dist.integrity", "--json"], what)
    try:
        rows = orjson.loads(raw or b"[]")
    except orjson.JSONDecodeError:
        raise InputError(name, "npm view returned something that is not JSON") from None
    rows = rows if isinstance(rows, list) else [rows]
    found = {str(r.get("version")): str(r.get("dist.integrity") or "") for r in rows if isinstance(r, dict)}
    out = []
    for version in wanted:
        integrity = found.get(version, "")
        if not integrity.startswith("sha512-"):
            raise InputError(f"{name}@{version}", "the registry gives no sha512 integrity for this version")
        out.append(Release(name, version, integrity, (times or {}).get(version, "")))
    return out


def matches_integrity(data: bytes, integrity: str) -> bool:
    """Whether `data` has the `sha512-...` integrity (other algorithms in the string are ignored)."""
    wanted = [part[len("sha512-"):] for part in integrity.split() if part.startswith("sha512-")]
    actual = base64.b64encode(hashlib.sha512(data).digest()).decode()
    return bool(wanted) and actual in wanted


def download(releases_: list[Release], destination: Path, batch: int = 40) -> dict[Release, bytes]:
    """The verified tarball bytes of each release (`npm pack` in batches, two batches at once)."""
    chunks = [releases_[i:i + batch] for i in range(0, len(releases_), batch)]
    out: dict[Release, bytes] = {}
    with ThreadPoolExecutor(max_workers=2) as pool:
        for part in pool.map(lambda chunk: _pack(chunk, destination), chunks):
            out.update(part)
    return out


def _pack(chunk: list[Release], destination: Path) -> dict[Release, bytes]:
    destination.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix=".pack-", dir=destination) as staging:
        where = Path(staging)
        specs = [f"{r.name}@{r.version}" for r in chunk]
        raw = _run_npm(["pack", *specs, "--json", "--ignore-scripts", "--pack-destination", str(where)],
                       specs[0] if len(specs) == 1 else f"{specs[0]} (+{len(specs) - 1})", cwd=where)
        try:
            rows = orjson.loads(raw)
        except orjson.JSONDecodeError:
            raise InputError(specs[0], "npm pack returned something that is not JSON") from None
        by_spec = {f"{row['name']}@{row['version']}": row for row in rows if isinstance(row, dict)}
        out = {}
        for release in chunk:
            row = by_spec.get(f"{release.name}@{release.version}")
            if row is None:
                raise InputError(f"{release.name}@{release.version}", "npm pack did not write this tarball")
            data = (where / Path(str(row["filename"])).name).read_bytes()
            if not matches_integrity(data, release.integrity):
                raise InputError(f"{release.name}@{release.version}",
                                 f"downloaded tarball does not match the registry's integrity {release.integrity}")
            out[release] = data
        return out
