"""What `corpus add` accepts, read into package requests: `name`, `name@version`, a lockfile
(`package-lock.json`, `bun.lock`, `pnpm-lock.yaml`, `yarn.lock`), a `node_modules` directory,
or a source-mapped bundle."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import orjson

from analyzer.errors import InputError
from analyzer.owners.corpus.registry import valid_name, valid_version

LOCKFILES = ("package-lock.json", "npm-shrinkwrap.json", "bun.lock", "pnpm-lock.yaml", "yarn.lock")


@dataclass(frozen=True, slots=True)
class Request:
    """A package to put in the corpus: an exact version, or (version None) its best candidates."""

    name: str
    version: str | None
    #: the integrity a lockfile pinned (checked against the registry's), else None
    integrity: str | None = None


def registry_spec(spec: str) -> Request:
    """`name` or `name@version` (scoped names keep their leading `@`)."""
    at = spec.rfind("@")
    name, version = (spec[:at], spec[at + 1:]) if at > 0 else (spec, None)
    if not valid_name(name) or (version is not None and not valid_version(version)):
        raise InputError(spec, "not a package name, name@version, lockfile, node_modules directory or bundle")
    return Request(name, version)


def lockfile_requests(path: Path) -> list[Request]:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(path, f"cannot read the lockfile ({exc})") from None
    reader = {"bun.lock": _bun_lock, "pnpm-lock.yaml": _pnpm_lock, "yarn.lock": _yarn_lock}.get(path.name, _npm_lock)
    found = reader(text, path)
    unique = {(r.name, r.version): r for r in found if valid_name(r.name) and r.version and valid_version(r.version)}
    return [unique[key] for key in sorted(unique)]


def _json(text: str, path: Path) -> object:
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError as exc:
        raise InputError(path, f"not JSON: {exc}") from None


def _npm_lock(text: str, path: Path) -> list[Request]:
    document = _json(text, path)
    if not isinstance(document, dict):
        raise InputError(path, "not an npm lockfile")
    packages = document.get("packages")
    if isinstance(packages, dict):  # lockfileVersion 2 and 3
        out = []
        for key, row in packages.items():
            if not key or "node_modules/" not in key or not isinstance(row, dict) or row.get("link"):
                continue
            name = row.get("name") or key.rsplit("node_modules/", 1)[1]
            out.append(Request(str(name), str(row.get("version") or ""), row.get("integrity")))
        return out
    out = []
    stack = [document.get("dependencies")]
    while stack:  # lockfileVersion 1: nested dependencies
        level = stack.pop()
        if not isinstance(level, dict):
            continue
        for name, row in level.items():
            if isinstance(row, dict):
                out.append(Request(name, str(row.get("version") or ""), row.get("integrity")))
                stack.append(row.get("dependencies"))
    return out


def _bun_lock(text: str, path: Path) -> list[Request]:
    document = _json(re.sub(r",(\s*[}\]])", r"\1", text), path)  # bun.lock is JSON with trailing commas
    packages = document.get("packages") if isinstance(document, dict) else None
    if not isinstance(packages, dict):
        raise InputError(path, "not a bun.lock (no 'packages')")
    out = []
    for row in packages.values():
        if isinstance(row, list) and row and isinstance(row[0], str):
            name, _, version = row[0].rpartition("@")
            integrity = next((x for x in row[1:] if isinstance(x, str) and x.startswith("sha512-")), None)
            out.append(Request(name, version, integrity))
    return out


_PNPM_KEY = re.compile(r"^\s{2}['\"]?/?((?:@[^/@\s]+/)?[^@/\s'\"]+)@([0-9][^(:'\"\s]*)[^:]*['\"]?:\s*$")
_PNPM_INTEGRITY = re.compile(r"integrity:\s*(sha512-[A-Za-z0-9+/=]+)")


def _pnpm_lock(text: str, path: Path) -> list[Request]:
    out: list[Request] = []
    section = None
    for line in text.splitlines():
        if line and not line[0].isspace():
            section = line.rstrip(":").strip()
            continue
        if section not in ("packages", "snapshots"):
            continue
        key = _PNPM_KEY.match(line)
        if key:
            out.append(Request(key.group(1), key.group(2)))
        elif out and (found := _PNPM_INTEGRITY.search(line)):
            last = out[-1]
            out[-1] = Request(last.name, last.version, found.group(1))
    return out


_YARN_HEAD = re.compile(r'^"?((?:@[^/@\s"]+/)?[^@\s"]+)@')
_YARN_VERSION = re.compile(r'^\s+version:?\s+"?([^"\s]+)"?')
_YARN_INTEGRITY = re.compile(r"^\s+integrity\s+(sha512-[A-Za-z0-9+/=]+)")


def _yarn_lock(text: str, path: Path) -> list[Request]:
    out: list[Request] = []
    name = None
    for line in text.splitlines():
        if line and not line[0].isspace() and not line.startswith("#"):
            head = _YARN_HEAD.match(line)
            name = head.group(1) if head else None
        elif name is not None and (version := _YARN_VERSION.match(line)):
            out.append(Request(name, version.group(1)))
        elif out and name is not None and (found := _YARN_INTEGRITY.match(line)):
            last = out[-1]
            out[-1] = Request(last.name, last.version, found.group(1))
    return out


def installed_packages(directory: Path) -> list[tuple[str, str, Path]]:
    """(name, version, directory) of every package installed below a `node_modules` directory."""
    root = directory / "node_modules" if (directory / "node_modules").is_dir() else directory
    out = []
    for manifest in sorted(root.rglob("package.json")):
        relative = manifest.parent.relative_to(root).as_posix().split("/")
        parts = relative if relative[0] != "node_modules" else relative[1:]
        # a package's own directory: node_modules/<name> or node_modules/@scope/<name>, possibly nested
        tail = parts[-2:] if len(parts) >= 2 and parts[-2].startswith("@") else parts[-1:]
        above = parts[: len(parts) - len(tail)]
        if above and above[-1] != "node_modules":
            continue
        try:
            document = orjson.loads(manifest.read_bytes())
        except (OSError, orjson.JSONDecodeError):
            continue
        if (
            isinstance(document, dict)
            and document.get("name") == "/".join(tail)
            and isinstance(document.get("version"), str)
        ):
            out.append((document["name"], document["version"], manifest.parent))
    return out
