"""Which bundled files a package's entry points reach, checked against a bundle's shipped map.

A bundler takes from a package only what its entry points reach: the targets of its `exports`
(patterns included), `main`, `module` and `browser`, then their relative `import`, `export ...
from`, `require`, `import()` and `new URL("./x", import.meta.url)`. This measures how well that
resolver (byte patterns, not a parse) agrees with a map: for every package the map's sources name,
the last version published before the bundle (`--before`, npm's times) is fetched, and each
bundled file of it is `reached`, `missed` (the resolver would call it unreachable) or `absent`
(not in that version's tarball). Packages without `exports` are counted apart: any file of theirs
may be imported.

    python bench/exports_reach.py ~/.cache/erratlas/npm/@anthropic-ai__claude-code-2.1.88/package/cli.js.map \\
        --before 2026-03-31T00:59:04 --work ~/.cache/erratlas/exports-reach
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import re
import subprocess
import tarfile
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

_SPECIFIER = re.compile(rb"""(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*|\bexport\s*\*\s*from\s*|"""
                        rb"""new\s+URL\s*\(\s*)["'](\.{1,2}/[^"']+)["']""")
_SUFFIXES = ("", ".js", ".mjs", ".cjs", "/index.js", "/index.mjs")


def bundled_files(map_path: Path) -> dict[str, set[str]]:
    """Package name -> the files of it the map's sources name."""
    by: dict[str, set[str]] = collections.defaultdict(set)
    for source in json.loads(map_path.read_bytes())["sources"]:
        if "node_modules/" not in source:
            continue
        parts = source.rsplit("node_modules/", 1)[1].split("/")
        width = 2 if parts[0].startswith("@") else 1
        by["/".join(parts[:width])].add("/".join(parts[width:]))
    return by


def _targets(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for inner in value.values():
            yield from _targets(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from _targets(inner)


def reached(root: Path) -> tuple[set[str] | None, set[str]]:
    """(the files the entry points reach, None without `exports`; every JavaScript file)."""
    described = json.loads((root / "package.json").read_bytes())
    files = {str(p.relative_to(root)) for p in root.rglob("*") if p.is_file() and p.suffix in (".js", ".mjs", ".cjs")}
    if "exports" not in described:
        return None, files
    entries: set[str] = set()
    for target in _targets(described["exports"]):
        target = target[2:] if target.startswith("./") else target
        if "*" in target:
            pattern = re.compile("^" + re.escape(target).replace(r"\*", ".*") + "$")
            entries |= {f for f in files if pattern.match(f)}
        elif target in files:
            entries.add(target)
    for field in ("main", "module", "browser"):
        value = described.get(field)
        if isinstance(value, str):
            entries |= {os.path.normpath(value) + suffix for suffix in _SUFFIXES} & files
    seen, queue = set(entries), list(entries)
    while queue:
        path = queue.pop()
        for found in _SPECIFIER.finditer((root / path).read_bytes()):
            relative = os.path.normpath(os.path.join(os.path.dirname(path), found.group(1).decode()))
            for candidate in (relative + suffix for suffix in _SUFFIXES):
                if candidate in files and candidate not in seen:
                    seen.add(candidate)
                    queue.append(candidate)
    return seen, files


def _fetched(name: str, before: str, work: Path) -> tuple[str, Path] | None:
    """The last release of `name` published before `before`, unpacked under `work`."""
    run = subprocess.run(["npm", "view", name, "time", "--json"], capture_output=True, text=True, timeout=120)
    times = json.loads(run.stdout or "{}")  # an error is a document too, {"error": {...}}
    releases = [(when, version) for version, when in times.items() if isinstance(when, str)
                and version not in ("created", "modified") and "-" not in version and when <= before]
    if not releases:
        return None
    version = max(releases)[1]
    where = work / name.replace("/", "__") / version
    if not (where / "package").is_dir():
        where.mkdir(parents=True, exist_ok=True)
        packed = subprocess.run(["npm", "pack", f"{name}@{version}", "--silent"], cwd=where, capture_output=True,
                                text=True, timeout=300, check=True).stdout.strip().splitlines()[-1]
        with tarfile.open(where / packed) as archive:
            archive.extractall(where, filter="data")
        unpacked = [p for p in where.iterdir() if p.is_dir()]
        if unpacked and unpacked[0].name != "package":
            unpacked[0].rename(where / "package")
    return version, where / "package"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("map", type=Path)
    parser.add_argument("--before", required=True, help="the bundle's publication time (ISO 8601)")
    parser.add_argument("--work", type=Path, default=Path.home() / ".cache" / "erratlas" / "exports-reach")
    args = parser.parse_args()
    by = bundled_files(args.map)

    def one(name: str) -> tuple[str, str, collections.Counter[str], list[str]]:
        counts: collections.Counter[str] = collections.Counter()
        try:
            fetched = _fetched(name, args.before, args.work)
        except (subprocess.SubprocessError, OSError, ValueError, tarfile.TarError) as exc:
            counts["packages not fetched"] += 1
            return name, f"({type(exc).__name__})", counts, []
        if fetched is None:
            counts["packages without a release before"] += 1
            return name, "", counts, []
        version, root = fetched
        seen, files = reached(root)
        if seen is None:
            counts["packages without exports"] += 1
            return name, version, counts, []
        counts["packages with exports"] += 1
        missed = sorted(f for f in by[name] if f in files and f not in seen)
        counts["reached"] += sum(1 for f in by[name] if f in seen)
        counts["missed"] += len(missed)
        counts["absent"] += sum(1 for f in by[name] if f not in files)
        return name, version, counts, missed

    total: collections.Counter[str] = collections.Counter()
    with ThreadPoolExecutor(8) as pool:
        for name, version, counts, missed in pool.map(one, sorted(by)):
            total.update(counts)
            if missed:
                print(f"missed {name}@{version}: {', '.join(missed[:5])}")
    print(json.dumps(dict(sorted(total.items())), indent=1))


if __name__ == "__main__":
    main()
