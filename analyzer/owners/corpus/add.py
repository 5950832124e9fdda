"""`corpus add SPEC...`: each SPEC read into packages, then fetched, verified and indexed."""

from __future__ import annotations

import hashlib
import io
import re
import tarfile
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import orjson

from analyzer.bundle.load import load_units
from analyzer.errors import InputError
from analyzer.owners.corpus.index import SOURCE_SUFFIXES, describe, wanted_file
from analyzer.owners.corpus.ranges import allows
from analyzer.owners.corpus.registry import Candidates, publish_times, semver_key
from analyzer.owners.corpus.specs import (
    LOCKFILES,
    Request,
    installed_packages,
    lockfile_requests,
    registry_spec,
)
from analyzer.owners.corpus.store import Added, Corpus, add_requests, add_sources
from analyzer.owners.corpus.window import (
    Target,
    Window,
    day_after,
    proven_versions,
    proven_window,
    published_window,
    read_summary_functions,
    signatures_of,
    target_of,
)
from analyzer.signatures import DESCRIPTION
from analyzer.sourcemap import SourceMapError, normalize_source, package_of


def add_specs(corpus: Corpus, specs: list[str], before: str | None, choice: Candidates, jobs: int,
              warn: Callable[[str], None], for_path: Path | None = None) -> list[Added]:
    """`for_path`: the bundle (a file, its npm tarball or its scan directory) the corpus is for:
    a plain name's candidates are chosen in its time window (analyzer/owners/corpus/window.py)."""
    read = read_specs(specs)
    target = target_of(for_path) if for_path is not None else None
    if before is None and target is not None and target.scan is not None:
        signatures_of(target.scan)  # the window is proven from them: refused before any fetch, not after
    window = Window(before, "--before, as given") if before is not None else None
    if window is None and target is not None:
        window = published_window(target, warn)
    chosen_before = before if before is not None else day_after(window.before) if window is not None else None
    added = _add(corpus, read, chosen_before, choice, jobs, warn)
    if target is not None and window is None:
        window = _proven(corpus, target, warn)
        if window is not None:
            warn(f"erratlas: the bundle's window: before {window.before}: {window.how}; adding the names' candidates "
                 "published before it")
            added = _add(corpus, read, day_after(window.before), choice, jobs, warn)
    final_before = before if before is not None else day_after(window.before) if window is not None else None
    added.extend(_declared(corpus, specs, final_before, choice, jobs, warn))
    if target is not None and window is not None:
        if before is None:
            warn(f"erratlas: the bundle's window: before {window.before}: {window.how}")
        for sha256 in target.sha256s:
            corpus.windows[sha256] = window.to_json()
    elif target is not None:
        warn(f"erratlas: {for_path}: no window found (no package.json names a published version, and no version "
             "is proven); the names' newest candidates were added")
    corpus.save()
    return added


def _proven(corpus: Corpus, target: Target, warn: Callable[[str], None]) -> Window | None:
    if target.scan is None:
        warn("erratlas: to find the window from the bundle's matches, give --for its scan directory "
             "(scan --signatures)")
        return None
    from analyzer.owners.corpus.match import CorpusIndex

    index = CorpusIndex(corpus)
    versions = {name: list(entry.versions) for name, entry in corpus.packages.items()}
    return proven_window(proven_versions(read_summary_functions(target.scan), index.holders, versions,
                                         corpus.published))


def _add(corpus: Corpus, specs: list[Spec], before: str | None, choice: Candidates, jobs: int,
         warn: Callable[[str], None]) -> list[Added]:
    requests: list[Request] = []
    added: list[Added] = []
    for spec in specs:
        requests.extend(spec.requests)
        added.extend(add_sources(corpus, name, version, "node_modules", _package_files(where))
                     for name, version, where in spec.installed)
        if spec.bundle is not None:
            added.extend(_mapped_bundle(corpus, spec.bundle))
    if requests:
        added.extend(add_requests(corpus, requests, before, choice, jobs, warn))
    corpus.save()
    return added


@dataclass(frozen=True, slots=True)
class Spec:
    """One SPEC of `corpus add`, read."""

    #: the registry requests of a name or of a lockfile's pins
    requests: tuple[Request, ...] = ()
    #: (name, version, directory) of each package installed under a node_modules directory
    installed: tuple[tuple[str, str, Path], ...] = ()
    #: a bundle whose source map's node_modules sources are indexed
    bundle: Path | None = None


def read_specs(specs: list[str]) -> list[Spec]:
    """Every spec read before anything is fetched or written: one mistyped is refused, naming it,
    and the corpus is left as it was."""
    read: list[Spec] = []
    for spec in specs:
        path = Path(spec)
        if looks_like_name(spec):
            read.append(Spec(requests=(registry_spec(spec),)))
        elif path.name in LOCKFILES and path.is_file():
            read.append(Spec(requests=tuple(lockfile_requests(path))))
        elif path.is_dir():
            installed = installed_packages(path)
            if not installed:
                raise InputError(path, "no installed package (package.json under node_modules) found")
            read.append(Spec(installed=tuple(installed)))
        elif path.is_file() and path.suffix in (".js", ".mjs", ".cjs"):
            read.append(Spec(bundle=path))
        elif not path.exists() and spec.endswith((".js", ".mjs", ".cjs")) and _NAME_LIKE.match(spec):
            read.append(Spec(requests=(registry_spec(spec),)))  # chart.js, highlight.js: package names
        elif not path.exists() and (spec.startswith(".") or spec.endswith((".json", ".lock", ".yaml"))
                                    or spec in _NEVER_NAMES or not _NAME_LIKE.match(spec)):
            raise InputError(spec, "no such file or directory")
        else:
            raise InputError(spec, "not a package name, name@version, lockfile (" + ", ".join(LOCKFILES) + "), "
                                   "node_modules directory or bundle with a source map")
    return read


_NAME_LIKE = re.compile(r"^(?:@[^/]+/)?[^/]+$")
#: the package.json fields whose ranges the installed tree must satisfy
_DEPENDENCY_FIELDS = ("dependencies", "optionalDependencies", "peerDependencies")


def _declared(corpus: Corpus, specs: list[str], before: str | None, choice: Candidates, jobs: int,
              warn: Callable[[str], None]) -> list[Added]:
    """For each plain name, the highest version (before `before`) of every range that a corpus
    version's package.json declares for it and that none of its candidates satisfies: a bundle
    installs what its dependencies ask for, often an older major (docs/corpus.md, "Declared ranges")."""
    plain = {s for s in specs if looks_like_name(s) and registry_spec(s).version is None}
    ranges: dict[str, dict[str, str]] = defaultdict(dict)  # name -> range -> the first version declaring it
    for name, entry in sorted(corpus.packages.items()):
        # one round: a version a range brought declares none (nor on a later add: the same corpus either way)
        brought = _by_ranges(entry.choices)
        for version in entry.versions:
            if version in brought:
                continue
            for wanted, spec in _dependencies(corpus, name, version):
                if wanted in plain and wanted != name:
                    ranges[wanted].setdefault(spec, f"{name}@{version}")
    requests, why = [], {}
    for name, declared in sorted(ranges.items()):
        have = corpus.packages[name].versions if name in corpus.packages else []
        unmet = {spec: who for spec, who in declared.items() if not any(allows(spec, v) for v in have)}
        if not unmet:
            continue
        try:
            times = publish_times(name)
        except InputError as exc:
            warn(f"erratlas: {name}: the ranges declared for it are not resolved ({exc.problem})")
            continue
        for spec, who in sorted(unmet.items()):
            fitting = [v for v, t in times.items() if allows(spec, v) and (before is None or t < before)]
            if fitting:
                best = max(fitting, key=semver_key)
                if best not in have and (name, best) not in why:
                    requests.append(Request(name, best))
                    why[(name, best)] = f"{_DECLARED_BY}{who}: {spec}"
    if not requests:
        return []
    added = add_requests(corpus, requests, before, choice, jobs, warn)
    for (name, version), how in why.items():
        corpus.record(name, version, "name", "registry", how)
        warn(f"erratlas: {name}@{version} added: the highest version {how}")
    corpus.save()
    return added


#: the choice a version added for a declared range is recorded under (`_declared`)
_DECLARED_BY = "declared by "


def _by_ranges(choices: dict[str, list[str]]) -> set[str]:
    """The versions only declared ranges brought: every choice that lists them is a range's."""
    brought = {v for choice, versions in choices.items() if choice.startswith(_DECLARED_BY) for v in versions}
    return brought - {v for choice, versions in choices.items() if not choice.startswith(_DECLARED_BY)
                      for v in versions}


def _dependencies(corpus: Corpus, name: str, version: str) -> list[tuple[str, str]]:
    """(name, range) of what a registry version's package.json depends on; none without its tarball."""
    try:
        with tarfile.open(fileobj=io.BytesIO(corpus.tarball(name, version).read_bytes()), mode="r:gz") as archive:
            for member in archive:
                if member.isfile() and member.name.count("/") == 1 and member.name.endswith("/package.json"):
                    handle = archive.extractfile(member)
                    document = orjson.loads(handle.read()) if handle is not None else {}
                    break
            else:
                return []
    except (OSError, tarfile.TarError, orjson.JSONDecodeError):
        return []
    out: list[tuple[str, str]] = []
    for field in _DEPENDENCY_FIELDS:
        table = document.get(field) if isinstance(document, dict) else None
        if isinstance(table, dict):
            out.extend((str(k), v) for k, v in table.items() if isinstance(v, str))
    return out


def looks_like_name(spec: str) -> bool:
    """`name`, `@scope/name`, with an optional `@version`: never a path, even if a directory of
    that name is here (a path to one is written `./name`)."""
    if spec in _NEVER_NAMES:
        return False
    try:
        registry_spec(spec)
    except InputError:
        return False
    return not spec.endswith((".json", ".lock", ".yaml", ".js", ".mjs", ".cjs"))


#: names npm never publishes (validate-npm-package-name's blacklist): always a path
_NEVER_NAMES = ("node_modules", "favicon.ico")


def _package_files(where: Path) -> list[tuple[str, bytes]]:
    files = [p for p in sorted(where.rglob("*")) if p.is_file() and "node_modules" not in p.relative_to(where).parts]
    names = {p.relative_to(where).as_posix() for p in files}
    manifest = where / "package.json"
    return [(DESCRIPTION, describe(manifest.read_bytes() if manifest.is_file() else None, names)),
            *((p.relative_to(where).as_posix(), p.read_bytes()) for p in files
              if wanted_file(p.relative_to(where).as_posix(), p.stat().st_size, names))]


def _mapped_bundle(corpus: Corpus, bundle: Path) -> list[Added]:
    """The `node_modules` sources of a bundle's source map (with sourcesContent), by package."""
    (unit,) = load_units(bundle)[:1]
    raw = _map_bytes(bundle, unit.source)
    try:
        document = orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        raise InputError(bundle, f"its source map is not JSON ({exc})") from None
    sources, contents = document.get("sources") or [], document.get("sourcesContent") or []
    root = document.get("sourceRoot") if isinstance(document.get("sourceRoot"), str) else ""
    by_package: dict[str, list[tuple[str, bytes]]] = defaultdict(list)
    for source, content in zip(sources, contents):
        path = normalize_source(str(source or ""), root)
        package = package_of(path)
        if package is None or not isinstance(content, str) or not path.endswith((*SOURCE_SUFFIXES, ".ts", ".tsx")):
            continue
        by_package[package].append((path.rsplit(f"node_modules/{package}/", 1)[1], content.encode("utf-8", "replace")))
    if not by_package:
        raise InputError(bundle, "its source map has no node_modules source with sourcesContent")
    version = f"map-{hashlib.sha256(raw).hexdigest()[:12]}"  # the map's own: no registry version is claimed
    return [
        add_sources(corpus, name, version, "sourcemap", sorted(files)) for name, files in sorted(by_package.items())
    ]


def _map_bytes(bundle: Path, source: bytes) -> bytes:
    from analyzer.sourcemap import _data_url, _mapping_url

    url = _mapping_url(source)
    if url is not None and url.startswith("data:"):
        try:
            return _data_url(url)
        except SourceMapError as exc:
            raise InputError(bundle, str(exc)) from None
    candidates = [bundle.parent / url] if url is not None and "://" not in url else []
    for path in [*candidates, bundle.with_name(bundle.name + ".map")]:
        if path.is_file():
            return path.read_bytes()
    raise InputError(bundle, "no source map beside it or in its sourceMappingURL")
