"""The JavaScript side of the corpus: the distinctive signature of every function of a
package's files (`index_sources`, for `corpus add`) and of a bundle's units (`render_signatures`,
for `scan --signatures`; `signatures_of_bundle` for `suggest --corpus --bundle`)."""

from __future__ import annotations

import bisect
import posixpath
import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path

import orjson
from tree_sitter import Node, Tree

from analyzer.errors import InputError
from analyzer.javascript.constants import literal_constants
from analyzer.javascript.defines import DEFINES, MARK, Defined
from analyzer.javascript.lowered import LOWERINGS, Lowered
from analyzer.javascript.modules import ModuleSpan, find_modules
from analyzer.javascript.regenerator import Regenerator
from analyzer.javascript.signatures import FunctionSignature, UnitTokens, distinctive_signatures
from analyzer.javascript.syntax import parse
from analyzer.model import Unit
from analyzer.signatures import DESCRIPTION, PLACED, BundleFunction, IndexedFunction, PackageIndex
from analyzer.sourcemap import Origin, SourceMap, SourceMapError, package_of


def index_sources(sources: Iterable[tuple[str, bytes]], lowerings: tuple[str, ...] = LOWERINGS) -> PackageIndex:
    """`sources`: (path, bytes) of a package's files; a `<file>.map` among them is that file's own
    source map, read to place the file's functions, not indexed, and `DESCRIPTION` the package's
    description (`Described`). `lowerings`: the ES5 outputs each function is indexed as too
    (analyzer/javascript/lowered.py)."""
    given = list(sources)
    maps = {path[:-4]: data for path, data in given if path.endswith(".map")}
    described = Described.read(next((data for path, data in given if path == DESCRIPTION), None))
    files: list[str] = []
    rows: list[tuple[IndexedFunction, str | None]] = []
    sibling_places: set[str] = set()
    bundles: set[int] = set()
    cache: dict[str, int] = {}
    specifier = _specifiers(described.dependencies)
    imports: dict[int, frozenset[bytes]] = {}  # file -> the declared dependencies it names as a module
    for path, data in given:
        if path.endswith(".map") or path == DESCRIPTION or b"\x00" in data:
            continue
        try:
            data.decode("utf-8")
        except UnicodeDecodeError:
            continue
        number = len(files)
        files.append(path)
        if specifier is not None:
            imports[number] = frozenset(specifier.findall(data))
        tree = parse(data)
        modules = find_modules(tree, data).modules
        if len(modules) >= 2:
            bundles.add(number)
        found = list(_file_functions(number, tree, data, cache, lowerings))
        places, from_siblings = _inner_packages(path, data, maps.get(path),
                                                [(start, end, row.name != "<module>") for start, end, row in found],
                                                described)
        sibling_places |= from_siblings
        prelude = _prelude(modules)
        rows.extend((row, f"{path}{PLACED}{BROWSERIFY_PRELUDE}"
                     if place is None and row.name != "<module>" and prelude(start, end) else place)
                    for (start, end, row), place in zip(found, places))
    # a part placed in a declared dependency is that dependency's code copied (a roll-up of it)
    sibling_places |= {place for _, place in rows if place is not None
                       and package_of(place.split(PLACED, 1)[1]) in described.dependencies}
    # a function of nobody's code is nobody's wherever the package holds it (a minified twin of the build)
    nobody = {row.key: place.split(PLACED, 1)[1] for row, place in rows if place is not None and _nobody(place)}
    twins = _twin_parts(rows, sibling_places)
    # code a single-file build holds and its twin builds lack: a declared dependency's, copied in
    extra = _extra_parts([(row, place) for row, place in rows if place is not None or not (
        row.key in nobody or (row.file, row.key) in twins)], bundles, imports)
    placed: dict[str, int] = {}
    functions = []
    siblings: set[int] = set()
    for row, place in rows:
        if place is None and row.key in nobody:
            place = f"{files[row.file]}{PLACED}{nobody[row.key]}"
        elif place is None and (row.file, row.key) in twins:
            place = f"{files[row.file]}{PLACED}{twins[(row.file, row.key)]}"
            sibling_places.add(place)
        elif place is None and (row.file, row.key) in extra:
            place = f"{files[row.file]}{PLACED}{BEYOND_TWINS}"
        if place is not None:
            if place not in placed:
                placed[place] = len(files)
                files.append(place)
                if _nobody(place):
                    bundles.add(placed[place])  # whoever's code it is, the hit alone decides nothing
                elif place in sibling_places:
                    siblings.add(placed[place])
            row = replace(row, file=placed[place])
        functions.append(row)
    return PackageIndex(files, functions, frozenset(bundles), frozenset(siblings))


#: an esbuild bundle left unminified names each module's file in a comment line before its code
_PATH_COMMENT = re.compile(rb"^// ((?:[^\n]*/)?node_modules/[^\n]+?\.[cm]?[jt]sx?)\r?$|^// ([^\n]+?\.[cm]?[jt]sx?)\r?$",
                           re.MULTILINE)
#: a path comment that leaves the package's directory
_LEAVING = re.compile(rb"^// \.\./", re.MULTILINE)
#: the leading `../` steps of a path comment that leaves the package's directory
_UP = re.compile(r"^(?:\.\./)+")
#: the suffixes a file's compiled or source twin may have
_TWIN_SUFFIXES = (".js", ".mjs", ".cjs", ".jsx", ".ts", ".mts", ".cts", ".tsx")
#: the directories where packages keep sources and their compiled output, one for another
_TWIN_HEADS = frozenset({"src", "lib", "dist"})


@dataclass(frozen=True, slots=True)
class Described:
    """What a package says of itself (analyzer.signatures.DESCRIPTION): whose code a path comment
    that leaves its directory names (docs/corpus.md, "Matching", 11)."""

    #: the names package.json declares as dependencies (peer, optional and bundled too)
    dependencies: tuple[str, ...] = ()
    #: its own directory names: the name's last part, `repository.directory`'s
    directories: frozenset[str] = frozenset()
    #: every file of its tarball
    files: frozenset[str] = frozenset()

    @classmethod
    def read(cls, data: bytes | None) -> Described:
        document = orjson.loads(data) if data else {}
        return cls(tuple(document.get("dependencies", ())), frozenset(document.get("directories", ())),
                   frozenset(document.get("files", ())))

    def source(self, comment: str) -> str | None:
        """The place of a path comment's code outside node_modules: None for the package's own code
        (inside its directory, or one its own tarball holds, its source or compiled twin), the
        declared dependency named like the directory it leaves to (`node_modules/<dependency>/...`),
        else the comment as written, nobody's code."""
        up = _UP.match(comment)
        if up is None:
            return None
        rest = comment[up.end():]
        head, _, below = rest.partition("/")
        if head in self.directories or self._holds(rest):
            return None
        named = [d for d in self.dependencies if d == head or d.endswith("/" + head)]
        return f"node_modules/{named[0]}/{below}" if len(named) == 1 and below else comment

    def _holds(self, rest: str) -> bool:
        """Whether the tarball holds `rest`, or its twin in another suffix or under another of
        `_TWIN_HEADS` (a bundle built from `dist/` names `../src/x.ts`; the tarball ships `lib/x.js`)."""
        head, slash, below = posixpath.splitext(rest)[0].partition("/")
        heads = _TWIN_HEADS if slash and head in _TWIN_HEADS else {head}
        return any(f"{h}{slash}{below}{suffix}" in self.files for h in heads for suffix in _TWIN_SUFFIXES)


def _twin_parts(rows: list[tuple[IndexedFunction, str | None]], parts: set[str]) -> dict[tuple[int, int], str]:
    """(file, key) -> source, for a file's functions outside placed parts that a declared dependency's
    part of the package holds: a file holding at least half of a part's functions (two at least) is a
    twin build of it (`dist/x.js` minified beside the mapped `dist/x.mjs`), and those functions are
    that part's code there too (docs/corpus.md, "Matching", 12). A key that parts of two packages
    hold is left."""
    keys: dict[str, set[int]] = {}
    own: dict[int, set[int]] = {}
    for row, place in rows:
        if place is None:
            own.setdefault(row.file, set()).add(row.key)
        elif place in parts:
            keys.setdefault(place.split(PLACED, 1)[1], set()).add(row.key)
    out: dict[tuple[int, int], str] = {}
    packages: dict[tuple[int, int], set[str | None]] = {}
    for file, held in sorted(own.items()):
        for source, part in sorted(keys.items()):
            shared = held & part
            if len(shared) >= max(2, (len(part) + 1) // 2):
                for key in shared:
                    out.setdefault((file, key), source)
                    packages.setdefault((file, key), set()).add(package_of(source))
    return {at: source for at, source in out.items() if len(packages[at]) == 1}


#: the place of a file's code that its twin builds lack (`_extra_parts`): a declared dependency's, whichever
BEYOND_TWINS = "<code its twin builds lack>"


#: the packages a build imports by its compile target, not by its code (an ES5 build's `tslib` helpers)
_TARGET_RUNTIMES = frozenset({"tslib", "@babel/runtime", "@babel/runtime-corejs2", "@babel/runtime-corejs3",
                              "@swc/helpers", "regenerator-runtime", "core-js", "core-js-pure"})


def _specifiers(dependencies: tuple[str, ...]) -> re.Pattern[bytes] | None:
    """A declared dependency named as a module, quoted (`require("autolinker")`, `from 'autolinker/x'`):
    the name it finds; None without dependencies (a compiler's runtime, `_TARGET_RUNTIMES`, is none)."""
    named = sorted(set(dependencies) - _TARGET_RUNTIMES, key=len, reverse=True)
    if not named:
        return None
    names = b"|".join(re.escape(d.encode()) for d in named)
    return re.compile(rb"[\"'](" + names + rb")(?:/[^\"'\n]*)?[\"']")


def _extra_parts(rows: list[tuple[IndexedFunction, str | None]], bundles: set[int],
                 imports: dict[int, frozenset[bytes]]) -> set[tuple[int, int]]:
    """(file, key) of the functions that a file F holds, outside placed parts (`rows` has those placed
    already), and no other file of the version does, when F has twin builds. The files F holds at
    least half of the functions of (two at least) are its code built another way, twin builds when
    they hold a third of F's too (remarkable 2.0.1's `dist/cjs/index.js` beside its rollup
    `dist/remarkable.js`); F's extra functions are a declared dependency's it carries when one of
    those files names that dependency as a module and F does not (`imports`: `dist/cjs/linkify.js`
    requires autolinker), there is a twin, those files hold at least half of F's functions, and the
    extra ones are at least 10 and a fifth of F's and twice as many as any of those files holds that
    F lacks (two builds of one code differ in a few functions' forms, each way) (docs/corpus.md,
    "Matching", 6). Not a bundle file's (already weak), nor a file's top-level code (`<module>`)."""
    own: dict[int, set[int]] = {}
    holders: dict[int, set[int]] = {}
    if not any(imports.values()):
        return set()
    for row, place in rows:
        if place is None and row.name != "<module>":
            own.setdefault(row.file, set()).add(row.key)
            holders.setdefault(row.key, set()).add(row.file)
    out: set[tuple[int, int]] = set()
    for file, held in sorted(own.items()):
        if file in bundles:
            continue
        shared = Counter(other for key in held for other in holders[key] if other != file)
        parts = [other for other, count in shared.items() if count >= max(2, (len(own[other]) + 1) // 2)]
        carried = set().union(*(imports.get(other, frozenset()) for other in parts)) - imports.get(file, frozenset())
        covered = held & set().union(*(own[other] for other in parts))
        extra = {key for key in held if holders[key] == {file}}
        if (carried and any(3 * shared[other] >= len(held) for other in parts)
                and 2 * len(covered) >= len(held) and len(extra) >= max(10, len(held) / 5)
                and all(len(extra) >= 2 * len(own[other] - held) for other in parts)):
            out.update((file, key) for key in extra)
    return out


#: the place of a browserify build's prelude: browserify's code, nobody's (`_prelude`)
BROWSERIFY_PRELUDE = "<browserify prelude>"


def _prelude(modules: list[ModuleSpan]) -> Callable[[int, int], bool]:
    """Whether a function (start, end) of a file with a browserify module table lies outside every
    module: the prelude (the `require` browserify writes before the table, `Cannot find module`),
    which every browserify build carries, a single-module standalone build (`base64js.min.js`) too."""
    spans = [(m.start, m.end) for m in modules if m.kind == "browserify"]
    return lambda start, end: bool(spans) and all(end <= a or b <= start for a, b in spans)


def _nobody(place: str) -> bool:
    """A place whose source names no package: code the package's bundle took from outside it."""
    return package_of(place.split(PLACED, 1)[1]) is None


def _inner_packages(path: str, data: bytes, raw_map: bytes | None, spans: list[tuple[int, int, bool]],
                    described: Described) -> tuple[list[str | None], set[str]]:
    """For each function (start, end, a function rather than the whole file), the place another
    package's code came from when the file is itself a bundle of its dependencies (docs/corpus.md,
    "Matching"): `<file> <- <source>`, the `node_modules/<pkg>/` source its own map or its
    bundler's path comments name, or the code a path comment places outside the package
    (`Described.source`); None for the file's own code. The place's package (`package_of`) is then
    the function's package. Second, the places in a declared dependency's directory
    (`Described.source`: a monorepo sibling's code)."""
    offsets = [start for start, _, _ in spans]
    sources: list[str | None] = [None] * len(offsets)
    siblings: set[str] = set()
    if raw_map is not None:
        try:
            source_map = SourceMap.from_json(raw_map)
            origins: list[Origin | None] = source_map.origins(data, offsets)
            # a function the bundler wrote around one file's code (rollup's CommonJS `requireX`) starts
            # unmapped: its code's one source places it
            wrapped = [i for i, (origin, (_, _, function)) in enumerate(zip(origins, spans))
                       if origin is None and function] if any(map(package_of, source_map.sources)) else []
            sole = source_map.sole_sources(data, [(spans[i][0], spans[i][1]) for i in wrapped])
        except (SourceMapError, ValueError, KeyError, IndexError, TypeError):
            origins, wrapped, sole = [], [], []
        for i, origin in enumerate(origins):
            if origin is not None and package_of(origin.source):
                sources[i] = origin.source
        for i, source in zip(wrapped, sole):
            if source is not None and package_of(source):
                sources[i] = source
    elif (b"\n// " in data or data.startswith(b"// ")) and (b"node_modules/" in data or _LEAVING.search(data)):
        marks = [(m.start(), m.group(1).decode("utf-8", "replace") if m.group(1)
                  else described.source(m.group(2).decode("utf-8", "replace")), m.group(1) is None)
                 for m in _PATH_COMMENT.finditer(data)]
        starts = [start for start, _, _ in marks]
        for i, offset in enumerate(offsets):
            at = bisect.bisect_left(starts, offset) - 1  # the whole file (offset 0) is nobody's part
            if at >= 0:
                sources[i] = marks[at][1]
        siblings = {f"{path}{PLACED}{source}" for _, source, outside in marks
                    if outside and source is not None and package_of(source)}
    return [None if source is None else f"{path}{PLACED}{source}" for source in sources], siblings


def _file_functions(number: int, tree: Tree, data: bytes, cache: dict[str, int],
                    lowerings: tuple[str, ...]) -> Iterator[tuple[int, int, IndexedFunction]]:
    """(start offset, end offset, row): each distinctive function once (the module first:
    `distinctive_signatures`), and again with the file's literal constants folded where that changes
    its signature (analyzer/javascript/constants.py), under each build-time define of
    `process.env.NODE_ENV` (analyzer/javascript/defines.py), and as each ES5 output reads it."""
    tokens = UnitTokens(tree, data, cache)
    constants = literal_constants(tree, data, tokens.holes)
    folded = UnitTokens(tree, data, cache, constants) if constants else None
    lowered = [Lowered(tree, data, t, cache) for t in (tokens, folded) if t is not None] if lowerings else []
    defined = Defined(tree, data, tokens, cache) if MARK in data else None
    defines = DEFINES if defined is not None and defined.found else ()
    names = ["<module>", *(function_name(node) for node in tokens.functions)]
    spans = [tokens.whole(), *tokens.function_signatures()]
    nodes: list[Node | None] = [None, *tokens.functions]
    for name, span, node, signature in zip(names, spans, nodes, distinctive_signatures(tree, data, cache, tokens)):
        seen = {span.key}
        if signature is not None:
            seen.add(signature.key)
            yield span.start, span.end, IndexedFunction(number, name, signature.line, signature.key,
                                                        signature.tokens, signature.weight)
        variants: list[FunctionSignature | None] = []
        if folded is not None:
            variants.append(folded.signature(span.start, span.end, span.line, span.kind))
        if defined is not None:
            variants.extend(defined.signature(span.start, span.end, span.line, span.kind, d) for d in defines)
        if node is not None:
            variants.extend(lower.signature(node, kind) for lower in lowered for kind in lower.kinds(lowerings))
        else:  # the whole file: a bundler's module function holds it
            variants.extend(v for lower in lowered for v in lower.rewritten(span.start, span.end, span.line))
        for variant in variants:
            if variant is not None and variant.key not in seen and variant.distinctive:
                seen.add(variant.key)
                yield span.start, span.end, IndexedFunction(number, name, variant.line, variant.key,
                                                            variant.tokens, variant.weight)


def function_name(node: Node) -> str:
    """The name a reader would look for: declared, method, or what the function is assigned to."""
    named = node.child_by_field_name("name")
    if named is not None and node.type == "method_definition":
        body = node.parent
        owner = body.parent.child_by_field_name("name") if body is not None and body.parent is not None else None
        return _short(named) if owner is None else f"{_short(owner)}.{_short(named)}"
    if named is not None:
        return _short(named)
    parent = node.parent
    if parent is None:
        return "<anonymous>"
    if parent.type == "variable_declarator":
        target = parent.child_by_field_name("name")
    elif parent.type in ("pair", "field_definition", "public_field_definition"):
        target = parent.child_by_field_name("key") or parent.child_by_field_name("property")
    elif parent.type == "assignment_expression":
        target = parent.child_by_field_name("left")
    else:
        target = None
    return _short(target) if target is not None else "<anonymous>"


def _short(node: Node) -> str:
    text = (node.text or b"").decode("utf-8", "replace")
    return text if len(text) <= 80 else text[:77] + "..."


def unit_functions(unit: Unit, tree: Tree, cache: dict[str, int]) -> list[BundleFunction]:
    """Each distinctive function, and after it, when it holds code Babel's regenerator wrote, the
    same span keyed as the async source reads (analyzer/javascript/regenerator.py)."""
    tokens = UnitTokens(tree, unit.source, cache)
    regenerator = Regenerator(tree, unit.source, tokens, cache)
    out = []
    for node, s in zip(tokens.functions, distinctive_signatures(tree, unit.source, cache, tokens)[1:]):
        if s is not None:
            out.append(BundleFunction(unit.name, s.start, s.end, f"{s.key:016x}", s.tokens, s.weight))
        source = regenerator.signature(node) if regenerator.found else None
        if source is not None and source.distinctive and (s is None or source.key != s.key):
            out.append(BundleFunction(unit.name, source.start, source.end, f"{source.key:016x}", source.tokens,
                                      source.weight))
    return out


def render_signatures(units: list[Unit], trees: list[Tree]) -> bytes:
    cache: dict[str, int] = {}
    rows = sorted((f for unit, tree in zip(units, trees) for f in unit_functions(unit, tree, cache)),
                  key=lambda f: (f.unit, f.start, -f.end))
    return b"".join(orjson.dumps([f.unit, f.start, f.end, f.key, f.tokens, f.weight]) + b"\n" for f in rows)


def signatures_of_bundle(bundle: Path, sha256: str) -> bytes:
    """The signature rows of `bundle`, parsed again; it must be the file the scan read."""
    import hashlib

    from analyzer.bundle.load import load_units
    from analyzer.javascript.syntax import parse

    digest = hashlib.sha256()
    with open(bundle, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    if digest.hexdigest() != sha256:
        raise InputError(bundle, f"not the scanned bundle (sha256 {digest.hexdigest()}, the scan read {sha256})")
    units = load_units(bundle)
    return render_signatures(units, [parse(unit.source) for unit in units])
