"""What a real bundle's source map says about its dependencies, as the evaluations of the corpus
read it (bench/corpus_eval.py, tests/test_corpus_unseen.py)."""

from __future__ import annotations

import json
import posixpath
from pathlib import Path, PurePosixPath

from analyzer.sourcemap import normalize_source, package_of


def map_package_names(map_path: Path) -> list[str]:
    """The package names of the map's `node_modules/` sources: what a lockfile would give."""
    document = json.loads(map_path.read_bytes())
    root = document.get("sourceRoot") if isinstance(document.get("sourceRoot"), str) else ""
    return sorted({p for s in document["sources"] if (p := package_of(normalize_source(str(s or ""), root)))})


def callsite_packages(scan_dir: Path, kinds: tuple[str, ...] = ("error", "diagnostic")) -> dict[str, str | None]:
    """Each callsite id of a scan made with the map: the package its origin's source lies in, None
    for the bundle's own code."""
    out: dict[str, str | None] = {}
    for kind in kinds:
        for line in (scan_dir / f"{kind}-message-callsites.jsonl").read_text().splitlines():
            row = json.loads(line)
            out[row["id"]] = package_of(row["origin"]["source"]) if row["origin"] else None
    return out


class Truth:
    """A callsite's true package from its map origin: the last `node_modules/<pkg>/` of its source,
    or, with `siblings`, for a source that resolves outside the bundle's package (a monorepo
    sibling written `../../engine.io-client/build/esm/socket.js`), the sibling directory read as
    the dependency of the bundle's package.json it names (`@scope/name` is also written
    `scope-name`), else the directory's own name. None: the bundle's own code (without
    `siblings`, a source outside the package is the product's: claude-code's map names its own
    sources `../src/...`)."""

    def __init__(self, bundle: Path, map_path: Path, siblings: bool = False) -> None:
        self.siblings = siblings
        package_root = next((p for p in bundle.parents if (p / "package.json").is_file()), bundle.parent)
        self.map_dir = PurePosixPath(map_path.parent.relative_to(package_root).as_posix())
        manifest = json.loads((package_root / "package.json").read_bytes())
        names = {*manifest.get("dependencies", {}), *manifest.get("devDependencies", {}),
                 *manifest.get("peerDependencies", {})}
        self.by_dir = {n.lstrip("@").replace("/", "-"): n for n in names} | {n.rsplit("/", 1)[-1]: n for n in names}
        self.by_dir |= {n: n for n in names}

    def package(self, source: str) -> str | None:
        found = package_of(source)
        if found is not None:
            return found
        resolved = posixpath.normpath(posixpath.join(str(self.map_dir), source))
        if not self.siblings or not resolved.startswith("../"):
            return None
        parts = [p for p in resolved.split("/") if p != ".."]
        return self.by_dir.get(parts[0], parts[0]) if len(parts) > 1 else None

    def names(self, sources: list[str]) -> list[str]:
        return sorted({p for s in sources if (p := self.package(s))})
