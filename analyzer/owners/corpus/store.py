"""The corpus directory: verified tarballs by name and version, their index, and a manifest
(docs/corpus.md, "`corpus add`": the layout). A tarball is indexed only after its sha512
matched the registry's integrity (or the lockfile's), and a cached one is checked again every
time it is indexed; the index is written once per version."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from analyzer.errors import InputError
from analyzer.owners.corpus.index import tarball_sources
from analyzer.owners.corpus.registry import (
    Candidates,
    Release,
    candidates,
    download,
    matches_integrity,
    publish_times,
    releases,
)
from analyzer.owners.corpus.specs import Request
from analyzer.signatures import Indexer, PackageIndex

CORPUS_SCHEMA = "erratlas.corpus/1"
MANIFEST = "corpus.json"
#: candidate versions fetched for a plain package name
DEFAULT_CANDIDATES = 3
#: the index's format: an index of another format is made again from its verified tarball
INDEX_FORMAT = 16


def default_corpus() -> Path:
    configured = os.environ.get("ERRATLAS_CACHE")
    base = Path(configured) if configured else Path.home() / ".cache" / "erratlas"
    return base / "corpus"


def _safe(name: str) -> str:
    return name.replace("/", "__")


@dataclass(slots=True)
class PackageEntry:
    """One package name in the corpus and the versions indexed for it."""

    name: str
    #: "version" (an exact version was asked for) or "name" (the best of the candidates)
    requested: str
    #: where the versions came from: registry, lockfile, node_modules, sourcemap
    source: str
    versions: list[str] = field(default_factory=list)
    #: for a plain name: each choice of candidates (`--before`, `--candidates`) and the versions
    #: it chose; adding the name again with a known choice reuses them without the registry, with
    #: another choice adds its candidates to the others (a corpus for releases of several eras)
    choices: dict[str, list[str]] = field(default_factory=dict)

    def to_json(self) -> dict[str, object]:
        return {"name": self.name, "requested": self.requested, "source": self.source, "versions": self.versions,
                "choices": self.choices}


def _entry(row: object) -> PackageEntry | None:
    """A manifest's package row as written (`PackageEntry.to_json`), else None."""
    texts = lambda value: isinstance(value, list) and all(isinstance(v, str) for v in value)  # noqa: E731
    if not isinstance(row, dict) or not all(isinstance(row.get(k), str) for k in ("name", "requested", "source")):
        return None
    choices = row.get("choices") or {}
    if not texts(row.get("versions")) or not isinstance(choices, dict) or not all(map(texts, choices.values())):
        return None
    return PackageEntry(row["name"], row["requested"], row["source"], list(row["versions"]), dict(choices))


class Corpus:
    """`indexer`: what indexes a package's files (the JavaScript frontend's `index_sources`), for
    the verbs that add to the corpus or match against it; reading needs none."""

    def __init__(self, root: Path, indexer: Indexer | None = None) -> None:
        self.root = root
        self.indexer = indexer
        self.packages: dict[str, PackageEntry] = {}
        #: bundle sha256 -> its time window as `corpus add --for` found it (analyzer/owners/corpus/window.py)
        self.windows: dict[str, dict[str, str]] = {}
        manifest = root / MANIFEST
        if manifest.exists():
            try:
                document = orjson.loads(manifest.read_bytes())
            except (OSError, orjson.JSONDecodeError) as exc:
                raise InputError(manifest, f"not a corpus manifest ({exc})") from None
            if not isinstance(document, dict) or document.get("schema") != CORPUS_SCHEMA:
                raise InputError(manifest, f"not a corpus manifest (schema {CORPUS_SCHEMA})")
            packages = document.get("packages", [])
            for number, row in enumerate(packages if isinstance(packages, list) else [None], start=1):
                entry = _entry(row)
                if entry is None:  # a hand-edited manifest: never an internal error
                    raise InputError(manifest, f"not a corpus manifest: packages[{number}] is not a package entry")
                self.packages[entry.name] = entry
            windows = document.get("windows")
            if isinstance(windows, dict):
                self.windows = {str(k): dict(v) for k, v in windows.items() if isinstance(v, dict)}

    # ---- paths --------------------------------------------------------------------------

    def index(self, files: Iterable[tuple[str, bytes]]) -> PackageIndex:
        if self.indexer is None:
            raise TypeError("this Corpus was opened without an indexer")
        return self.indexer(files)

    def tarball(self, name: str, version: str) -> Path:
        return self.root / "tarballs" / _safe(name) / f"{version}.tgz"

    def release_file(self, name: str, version: str) -> Path:
        return self.root / "tarballs" / _safe(name) / f"{version}.json"

    def index_file(self, name: str, version: str) -> Path:
        return self.root / "index" / _safe(name) / f"{version}.json"

    # ---- reading ------------------------------------------------------------------------

    def load_index(self, name: str, version: str) -> PackageIndex:
        path = self.index_file(name, version)
        try:
            return PackageIndex.from_json(self.load_index_document(name, version))
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise InputError(path, f"not a corpus index ({exc})") from None

    def load_index_document(self, name: str, version: str) -> dict[str, Any]:
        """The index as written: `files`, `bundles`, `functions` rows [file, name, line, key, tokens, weight]."""
        path = self.index_file(name, version)
        try:
            document = orjson.loads(path.read_bytes())
            if not isinstance(document, dict) or not isinstance(document.get("functions"), list):
                raise InputError(path, "not a corpus index")
            if document.get("format") != INDEX_FORMAT:
                raise InputError(path, self._stale(document.get("format")))
            return document
        except FileNotFoundError:
            raise InputError(
                path, f"{name}@{version} is in the manifest but not indexed (run `corpus add {name}@{version}`, "
                      "or add again the directory or map it came from)"
            ) from None
        except (OSError, orjson.JSONDecodeError, KeyError, TypeError, ValueError, AttributeError) as exc:
            raise InputError(path, f"not a corpus index ({exc})") from None

    def _stale(self, found: object) -> str:
        """What to say of an index of another format: how many of the corpus's are, and one command that
        indexes again those whose tarball the corpus holds (the others came from a directory or a map)."""
        versions = [(n, v) for n in sorted(self.packages) for v in self.packages[n].versions]
        stale = [(n, v) for n, v in versions if not self.index_current(n, v)]
        again = [f"{n}@{v}" for n, v in stale if self.cached_release(n, v) is not None]
        said = f"index of another erratlas (format {found}, not {INDEX_FORMAT}): {len(stale)} of the corpus's " \
               f"{len(versions)} indexes are"
        if again:
            said += f"; index them again: erratlas corpus add --corpus {self.root} {' '.join(again)}"
        if len(again) < len(stale):
            said += f"; add again the directories or maps the other {len(stale) - len(again)} came from"
        return said

    def index_current(self, name: str, version: str) -> bool:
        try:
            document = orjson.loads(self.index_file(name, version).read_bytes())
        except (OSError, orjson.JSONDecodeError):
            return False
        return isinstance(document, dict) and document.get("format") == INDEX_FORMAT

    def cached_release(self, name: str, version: str) -> Release | None:
        path = self.release_file(name, version)
        if not path.exists() or not self.tarball(name, version).exists():
            return None
        row = orjson.loads(path.read_bytes())
        return Release(row["name"], row["version"], row["integrity"], row.get("published", ""))

    def published(self, name: str, version: str) -> str:
        """The registry's publish time of a version ("" when it came from elsewhere, or none is known)."""
        release = self.cached_release(name, version)
        return release.published if release is not None else ""

    def cached_versions(self, name: str) -> list[str]:
        directory = self.root / "tarballs" / _safe(name)
        return sorted(p.stem for p in directory.glob("*.json")) if directory.is_dir() else []

    # ---- writing ------------------------------------------------------------------------

    def save(self) -> None:
        document: dict[str, object] = {
            "schema": CORPUS_SCHEMA, "packages": [self.packages[n].to_json() for n in sorted(self.packages)]}
        if self.windows:
            document["windows"] = {k: self.windows[k] for k in sorted(self.windows)}
        _write(self.root / MANIFEST, orjson.dumps(document, option=orjson.OPT_INDENT_2) + b"\n")

    def record(self, name: str, version: str, requested: str, source: str, choice: str | None = None) -> None:
        """Add a version. A later add never hides an earlier one: the versions are every add's,
        `requested` stays "version" only while every version was asked for exactly, and `source`
        names every source (`registry+lockfile`)."""
        entry = self.packages.get(name)
        if entry is None:
            entry = self.packages[name] = PackageEntry(name, requested, source, [])
        if requested != entry.requested:
            entry.requested = "name"
        if source not in entry.source.split("+"):
            entry.source = f"{entry.source}+{source}"
        if version not in entry.versions:
            entry.versions.append(version)
            entry.versions.sort()
        if choice is not None and version not in entry.choices.setdefault(choice, []):
            entry.choices[choice].append(version)


def _write(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, staging = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    with os.fdopen(handle, "wb") as out:
        out.write(data)
    os.replace(staging, path)


# ---- adding ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Added:
    name: str
    version: str
    #: "fetched", "cached" (verified tarball reused) or "indexed" (index reused)
    how: str
    functions: int


def add_requests(corpus: Corpus, requests: list[Request], before: str | None, choice: Candidates, jobs: int,
                 warn: Callable[[str], None] = print) -> list[Added]:
    """Resolve, fetch (what is not cached), verify and index every request."""
    wanted: list[tuple[Release, str]] = []
    with ThreadPoolExecutor(max_workers=8) as pool:  # npm calls wait on the network, not on a core
        resolved = list(pool.map(lambda request: _resolve(corpus, request, before, choice, warn), requests))
    for request, found in zip(requests, resolved):
        wanted.extend((release, "version" if request.version else "name") for release in found)
    missing = [r for r, _ in wanted if corpus.cached_release(r.name, r.version) is None]
    if missing:
        fetched = download(missing, corpus.root / "tarballs")
        for release, data in fetched.items():
            _write(corpus.tarball(release.name, release.version), data)
            _write(corpus.release_file(release.name, release.version),
                   orjson.dumps({"name": release.name, "version": release.version, "integrity": release.integrity,
                                 "published": release.published}))
    fresh = {(r.name, r.version) for r in missing}
    todo = [r for r, _ in wanted if not corpus.index_current(r.name, r.version) or (r.name, r.version) in fresh]
    for release, _ in wanted:
        _verified_tarball(corpus, release)  # a tampered cached tarball is refused even when its index exists
    indexed = dict(zip(((r.name, r.version) for r in todo), _index_all(corpus, todo, jobs)))
    added = []
    for release, requested in wanted:
        corpus.record(release.name, release.version, requested, "registry",
                      choice.describe(before) if requested == "name" else None)
        key = (release.name, release.version)
        how = "fetched" if key in fresh else "cached" if key in indexed else "indexed"
        functions = indexed[key] if key in indexed else len(corpus.load_index(*key).functions)
        added.append(Added(release.name, release.version, how, functions))
    corpus.save()
    return added


def _resolve(corpus: Corpus, request: Request, before: str | None, choice: Candidates,
             warn: Callable[[str], None]) -> list[Release]:
    if request.version is not None:
        release = corpus.cached_release(request.name, request.version)
        if release is None:
            (release,) = releases(request.name, [request.version])
        if request.integrity and release.integrity != request.integrity:
            raise InputError(
                f"{request.name}@{request.version}",
                f"the lockfile's integrity {request.integrity} differs from the registry's {release.integrity}",
            )
        return [release]
    entry = corpus.packages.get(request.name)
    chosen_before = entry.choices.get(choice.describe(before), []) if entry is not None and before else []
    if chosen_before:
        reused = [r for v in chosen_before if (r := corpus.cached_release(request.name, v)) is not None]
        if len(reused) == len(chosen_before):
            return reused
    try:
        times = publish_times(request.name)
    except InputError as exc:
        cached_versions = corpus.cached_versions(request.name)
        if not cached_versions:
            if "E404" in exc.problem or "404" in exc.problem:
                warn(f"erratlas: {request.name}: not in the registry, skipped")
                return []
            raise
        warn(f"erratlas: {request.name}: registry unreachable ({exc.problem}); using the cached versions "
             f"{', '.join(cached_versions)}")
        return [r for v in cached_versions if (r := corpus.cached_release(request.name, v)) is not None]
    chosen = candidates(times, before, choice)
    if not chosen:
        warn(f"erratlas: {request.name}: no stable version published" + (f" before {before}" if before else "")
             + ", skipped")
        return []
    known = {v: corpus.cached_release(request.name, v) for v in chosen}
    unknown = [v for v, r in known.items() if r is None]
    fetched = {r.version: r for r in releases(request.name, unknown, times)} if unknown else {}
    return [known[v] or fetched[v] for v in chosen]


def _verified_tarball(corpus: Corpus, release: Release) -> bytes:
    path = corpus.tarball(release.name, release.version)
    data = path.read_bytes()
    if not matches_integrity(data, release.integrity):
        raise InputError(path, f"cached tarball does not match its integrity {release.integrity}: "
                               "refused (delete it to fetch it again)")
    return data


def _index_all(corpus: Corpus, releases_: list[Release], jobs: int) -> list[int]:
    work = [(str(corpus.root), r.name, r.version, r.integrity, corpus.indexer) for r in releases_]
    if jobs <= 1 or len(work) <= 1:
        return [_index_one(*item) for item in work]
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        return list(pool.map(_index_one_packed, work, chunksize=1))


def _index_one_packed(item: tuple[str, str, str, str, Indexer | None]) -> int:
    return _index_one(*item)


def _index_one(root: str, name: str, version: str, integrity: str, indexer: Indexer | None) -> int:
    corpus = Corpus.__new__(Corpus)
    corpus.root = Path(root)
    corpus.indexer = indexer
    data = _verified_tarball(corpus, Release(name, version, integrity, ""))
    index = corpus.index(tarball_sources(data, described=True))
    write_index(corpus, name, version, index)
    return len(index.functions)


def write_index(corpus: Corpus, name: str, version: str, index: PackageIndex) -> None:
    document = {"format": INDEX_FORMAT, "name": name, "version": version, **index.to_json()}
    _write(corpus.index_file(name, version), orjson.dumps(document))


def add_sources(corpus: Corpus, name: str, version: str, source: str, files: Iterable[tuple[str, bytes]]) -> Added:
    """A package read from a node_modules directory or a source map's sourcesContent."""
    index = corpus.index(files)
    write_index(corpus, name, version, index)
    corpus.record(name, version, "version", source)
    return Added(name, version, "indexed", len(index.functions))
