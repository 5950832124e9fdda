"""Bundle functions matched against the corpus: what decides each callsite (docs/corpus.md,
"Matching": versions, functions, modules by containment, copies, roll-ups); the suggestions the
decisions earn are written by suggestions.py, where the code sits beside is neighbours.py's."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import replace

from analyzer.facts import BundledModule
from analyzer.model import WEBPACK_ES_MODULE, Callsite, Suggestion
from analyzer.owners.corpus.compiler_runtime import compiler_runtime_keys, compiler_runtime_names
from analyzer.owners.corpus.decision import Decision, Hit
from analyzer.owners.corpus.layout import DirectoryNames, FunctionTree
from analyzer.owners.corpus.neighbours import Neighbours, copy_doubt
from analyzer.owners.corpus.rollups import rollups
from analyzer.owners.corpus.store import Corpus
from analyzer.owners.corpus.suggestions import Chosen, named_copies, version_key
from analyzer.owners.projection import neighbours
from analyzer.signatures import PLACED, BundleFunction
from analyzer.sourcemap import package_of

MIN_MODULE_MATCHES = 2


#: module kinds whose span is one source file's code (a wrapper the bundler wrote around it: esbuild's
#: `__commonJS`, an entry of browserify's module table; or the declarations hoisted out of one file's
#: `__esm` initializer)
CONTAINING_KINDS = ("cjs", "esm", "browserify", "webpack")


def containing(row: BundledModule) -> bool:
    """A module whose span is one source file's code: a webpack ES module is not, since webpack's
    concatenation may have joined several files (its own and other packages') into it."""
    return row.kind in CONTAINING_KINDS and not (row.kind == "webpack" and WEBPACK_ES_MODULE in "".join(row.evidence))


class CorpusIndex:
    """Every indexed version's signatures, by key (the 16 hex digits, as both sides write them).
    The index files are read as they are (no record per function); a key's hits are made once."""

    def __init__(self, corpus: Corpus, window: str | None = None) -> None:
        """`window`: an ISO time; versions published after it are late (`Hit.late`)."""
        self.corpus = corpus
        #: entries published after the window
        self.late: set[int] = set()
        self.entries: list[tuple[str, str]] = []
        #: per entry: its files as (path, package, bundle file?, packages its directories name) and
        #: its raw function rows
        self._files: list[list[tuple[str, str, bool, tuple[str, ...]]]] = []
        self._rows: list[list[list[object]]] = []
        self.by_key: dict[str, list[tuple[int, int]]] = defaultdict(list)
        self._hits: dict[str, tuple[Hit, ...]] = {}
        self._file_groups: dict[tuple[int, int], list[frozenset[str]]] = {}
        #: (entry, file) of the files that roll up other files' code -> the packages of those (`attend`)
        self.rollups: dict[tuple[int, int], frozenset[str]] = {}
        #: (entry, file) of the parts a path comment places in a monorepo sibling -> that package
        self._siblings: dict[tuple[int, int], frozenset[str]] = {}
        runtime = self.runtime = compiler_runtime_keys(corpus.index)
        directories = DirectoryNames(corpus.packages)
        for name in sorted(corpus.packages):
            for version in corpus.packages[name].versions:
                number = len(self.entries)
                document = corpus.load_index_document(name, version)
                bundles, siblings = set(document.get("bundles", ())), set(document.get("siblings", ()))
                self.entries.append((name, version))
                published = corpus.published(name, version)
                if window is not None and published and published > window:
                    self.late.add(number)
                files = []
                for i, f in enumerate(document["files"]):
                    # `<file> <- <source>`: a part of the file its own map places in another package
                    # (the placed part names both packages: the bundle may hold either's copy of it)
                    file, _, inner = f.partition(PLACED)
                    package = package_of(file) or name
                    named = directories.named(file, {package, name})
                    placed = package_of(inner) if inner else None
                    if placed is not None and placed != package:
                        named = tuple(sorted({*named, placed}))
                        if i in siblings:
                            self._siblings[(number, i)] = frozenset({placed})
                    files.append((f, package, i in bundles, named))
                self._files.append(files)
                self._rows.append(document["functions"])
        # a package's copy of a helper in another compiler version than the runtime's is helper code too
        helpers = compiler_runtime_names(corpus.index)
        runtime = self.runtime = runtime | {str(row[3]) for rows in self._rows for row in rows if row[1] in helpers}
        for number, rows in enumerate(self._rows):
            for position, row in enumerate(rows):
                if row[3] not in runtime:
                    self.by_key[str(row[3])].append((number, position))

    def attend(self, keys: set[str]) -> None:
        """The roll-ups among the files holding the bundle's functions `keys` (rollups.py): a hit in
        one that rolls up a file of a package holding the function in its own sources is `rolled`."""
        self.rollups = rollups([self.by_key[key] for key in keys if key in self.by_key],
                               lambda n, p: (self._files[n][self._rows[n][p][0]][1], int(self._rows[n][p][0])))  # type: ignore[call-overload]
        self._hits.clear()

    def hits(self, key: str) -> tuple[Hit, ...]:
        """The corpus functions with this signature (none for compiler runtime code's)."""
        found = self._hits.get(key)
        if found is None:
            out = []
            rolled: dict[str, list[frozenset[str] | None]] = defaultdict(list)  # roll-ups' packages, per hit
            for number, position in self.by_key.get(key, ()):
                file, name, line = self._rows[number][position][:3]
                path, package, weak, named = self._files[number][file]  # type: ignore[call-overload]
                late = number in self.late
                out.append(Hit(package, self.entries[number], path, str(name), int(line), weak,  # type: ignore[call-overload]
                               False, late))
                out.extend(Hit(other, self.entries[number], path, str(name), int(line), weak, True,  # type: ignore[call-overload]
                               late) for other in named)
                if not weak and not named:  # a late version too: its file is a roll-up or not, whenever published
                    rolled[package].append(self.rollups.get((number, file)))  # type: ignore[arg-type]
                elif (number, file) in self._siblings:  # a sibling's part: a roll-up of that package's code
                    rolled[package].append(self._siblings[(number, file)])  # type: ignore[index]
            own = {p for p, files in rolled.items() if None in files}  # in its own sources (no roll-up)
            copies = {p for p, files in rolled.items() if p not in own and all(f and f & own for f in files)}
            if copies:
                out = [Hit(h.package, h.entry, h.file, h.function, h.line, h.weak, h.by_directory, h.late, True)
                       if h.package in copies else h for h in out]
            found = self._hits[key] = tuple(out)
        return found

    def holders(self, key: str) -> dict[str, set[str]]:
        """Package -> the versions of its own that hold this signature, outside bundle files (a
        package another one's files carry has no version of its own there: an empty set)."""
        out: dict[str, set[str]] = defaultdict(set)
        for hit in self.hits(key):
            if not hit.weak:
                versions = out[hit.package]
                if hit.entry[0] == hit.package:
                    versions.add(hit.entry[1])
        return dict(out)

    def packages(self, key: str) -> tuple[frozenset[str], frozenset[str]]:
        """(packages of the decisive hits, with the late ones when they name another; packages of
        every hit)."""
        hits = self.hits(key)
        decisive = frozenset(h.package for h in hits if h.decides)
        late = frozenset(h.package for h in hits if h.late and not h.weak and not h.rolled)
        return (decisive | late if decisive and late - decisive else decisive), frozenset(h.package for h in hits)

    def room(self, keys: set[str], package: str, module: str, homes: dict[str, Counter[str]]
             ) -> tuple[int, int, int, str]:
        """Where the functions of `package`'s file that holds the most of `keys` (a module's functions
        naming it alone, in a version that decides; the largest of those that tie) sit in the bundle
        (`homes`: signature -> how many functions of each module have it): (how many the module
        could hold in another version's form: those it does not hold and no module holding more of
        the file does; how many it holds; the most another module holds; the file)."""
        held: Counter[tuple[int, int]] = Counter()
        for key in keys:
            for number, file in {(n, int(self._rows[n][p][0])) for n, p in self.by_key.get(key, ())}:  # type: ignore[call-overload]
                _, owner, weak, named = self._files[number][file]
                if owner == package and not weak and not named and number not in self.late:
                    held[(number, file)] += 1
        if not held:
            return 0, 0, 0, ""
        _, _, number, file = max((count, len(self._groups(n, f)), n, f) for (n, f), count in held.items())
        where = [frozenset(m for key in group for m in homes.get(key, ())) for group in self._groups(number, file)]
        within: Counter[str] = Counter(m for modules in where for m in modules)
        mine = within.pop(module, 0)
        room = sum(1 for modules in where if module not in modules and all(within[m] <= mine for m in modules))
        return room, mine, max(within.values(), default=0), f"{self.entries[number][1]} {self._files[number][file][0]}"

    def _groups(self, number: int, file: int) -> list[frozenset[str]]:
        """The signatures of each function of the entry's file (compiler runtime code's left out)."""
        found = self._file_groups.get((number, file))
        if found is None:
            keys: dict[tuple[object, object], set[str]] = defaultdict(set)
            for row in self._rows[number]:
                if row[0] == file and row[3] not in self.runtime:
                    keys[(row[1], row[2])].add(str(row[3]))
            found = self._file_groups[(number, file)] = [frozenset(k) for k in keys.values()]
        return found

    def own_files(self, key: str, package: str) -> frozenset[tuple[str, str]]:
        """(file, function name) of `package`'s own versions' hits of this signature that decide
        (not in a part another package's name or map places there). A file is its name without
        directories and suffixes: one source's builds (`lib/esm/index.mjs`, `lib/umd/index.js`)
        are one file."""
        return frozenset((h.file.rsplit("/", 1)[-1].split(".", 1)[0], h.function) for h in self.hits(key)
                         if h.package == package == h.entry[0] and h.decides and not h.by_directory
                         and PLACED not in h.file)

    def unknown(self, key: str) -> bool:
        """No corpus function has this signature and it is no compiler runtime code's: code of a
        package (or a version) the corpus lacks."""
        return key not in self.by_key and key not in self.runtime

    def elsewhere(self, key: str, package: str) -> bool:
        """Corpus functions have this signature, and no hit names `package`: another package's code."""
        return key in self.by_key and all(h.package != package for h in self.hits(key))

    def alone(self, key: str) -> str | None:
        """The one package this signature's decisive hits name, if it is one."""
        if key not in self.by_key:
            return None
        strong, _ = self.packages(key)
        return next(iter(strong)) if len(strong) == 1 else None

    def choose_versions(self, functions: list[BundleFunction]) -> dict[str, Chosen]:
        scores: dict[str, Counter[str]] = defaultdict(Counter)
        for key in {f.key for f in functions if f.key in self.by_key}:
            for name, version in {h.entry for h in self.hits(key) if h.entry[0] == h.package and h.decides}:
                scores[name][version] += 1
        out = {}
        for name, entry in self.corpus.packages.items():
            counted = {v: scores[name][v] for v in entry.versions}
            best = max(entry.versions, key=lambda v: (counted[v], version_key(v)))
            out[name] = Chosen(best, counted, entry.requested)
        return out


def corpus_suggestions(
    records: list[Callsite], modules: dict[str, BundledModule], functions: list[BundleFunction],
    index: CorpusIndex,
) -> list[Suggestion]:
    index.attend({f.key for f in functions})
    chosen = index.choose_versions(functions)
    by_unit: dict[str, list[BundleFunction]] = defaultdict(list)
    for function in functions:
        by_unit[function.unit].append(function)
    trees = {unit: FunctionTree(rows) for unit, rows in by_unit.items()}
    homes: dict[str, Counter[str]] = defaultdict(Counter)  # signature -> modules holding it
    for module_id, row in modules.items():
        if containing(row) and row.unit in trees:
            for function in _within(row, trees[row.unit]):
                homes[function.key][module_id] += 1
    doubts: dict[tuple[str, str], str | None] = {}

    def doubt(row: BundledModule, package: str) -> str | None:
        """Why the module's code naming `package` may be its copy in a package the corpus lacks."""
        if (row.id, package) not in doubts:
            doubts[(row.id, package)] = copy_doubt(_within(row, trees[row.unit]), package, index.alone, index.unknown,
                                                   lambda keys: index.room(keys, package, row.id, homes),
                                                   lambda key: index.elsewhere(key, package))
        return doubts[(row.id, package)]

    islands = Neighbours(functions, index.alone, lambda key: index.packages(key)[1], index.own_files)
    alone_in: dict[str, set[str]] = {}

    def twins(key: str, module_id: str) -> set[str]:
        """The packages that the other modules holding a function with this signature name alone."""
        out: set[str] = set()
        for other in homes.get(key, ()):
            if other != module_id:
                if other not in alone_in:
                    row = modules[other]
                    alone_in[other] = {p for f in _within(row, trees[row.unit]) if (p := index.alone(f.key))}
                out |= alone_in[other]
        return out

    # a module inside another (a package's prebuilt bundle taken whole) may be that package's copy
    nested = {module_id for module_id, row in modules.items() if row.parent is not None}

    def prebuilt_elsewhere(row: BundledModule, package: str) -> bool:
        """A nested module some of whose functions another package's bundle files hold."""
        return row.id in nested and any(h.weak and not h.late and h.package != package
                                        for f in _within(row, trees[row.unit]) for h in index.hits(f.key))

    def unnamed_outer(row: BundledModule, decision: Decision) -> str | None:
        """Why code of a nested module (a package's prebuilt bundle taken whole) decided for one package may
        be the bundle's package's: the outer module's path does not name that package (webpack's
        `./node_modules/P/dist/...`), nor does any bundle file of it hold the code."""
        package = decision.packages[0]
        outer = modules.get(row.parent) if row.parent is not None else None
        if (outer is not None and outer.package == package) or any(h.weak and h.package == package
                                                                    for h in decision.hits):
            return None
        return (f"its bundler module sits in another ({row.parent}), a package's prebuilt bundle taken whole, which "
                f"nothing names as {package}'s and no bundle file of {package} holds: the copy of {package}'s code "
                f"that another package's build carries is that package's as much as {package}'s")

    identified = {
        module_id: found
        for module_id, row in modules.items()
        if containing(row) and row.unit in trees
        and (found := _identify(row, trees[row.unit], index, doubt, islands, twins)) is not None
        and not prebuilt_elsewhere(row, found.packages[0])
    }
    decided = []
    for record in records:
        decision = _function_decision(record, trees.get(record.unit), index)
        if decision is not None:
            decision = islands.checked(decision)
            if record.module is not None and record.module.id in nested:
                decision = _prebuilt(decision)
            home = modules.get(record.module.id) if record.module is not None else None
            if len(decision.packages) == 1 and home is not None and containing(home) \
                    and home.unit in trees:
                decision = replace(decision, doubt=doubt(home, decision.packages[0]))
        contained = identified.get(record.module.id) if record.module is not None else None
        if contained is not None and not contained.contains(record.offset):
            contained = None
        if decision is None and contained is not None:
            decision = contained
        if decision is not None and record.module is not None and record.module.id in nested \
                and len(decision.packages) == 1 and decision.doubt is None:
            decision = replace(decision, doubt=unnamed_outer(modules[record.module.id], decision))
        if decision is not None:
            decided.append((record, decision, contained))
    named_in: dict[str, set[str | None]] = {}

    def module_names(record: Callsite) -> set[str | None]:
        """The packages that the functions of the record's containing module name alone (once a module)."""
        module_id = record.module.id if record.module is not None else ""
        row = modules.get(module_id)
        if row is None or not containing(row) or row.unit not in trees:
            return set()
        if module_id not in named_in:
            named_in[module_id] = {index.alone(f.key) for f in _within(row, trees[row.unit])} - {None}
        return named_in[module_id]

    def parted(one: tuple[Callsite, Decision], other: tuple[Callsite, Decision]) -> bool:
        """Whether two copies' code of their package lies apart, outside any bundler module."""
        for record, decision in (one, other):
            row = modules.get(record.module.id) if record.module is not None else None
            if (row is not None and containing(row) and row.unit in trees) or decision.function is None:
                return False
        return islands.parted(one[1].function, other[1].function, one[1].packages[0])  # type: ignore[arg-type]

    return named_copies(decided, chosen, neighbours(records), lambda r, d: islands.placed(d, module_names(r)),
                        parted)


def _prebuilt(decision: Decision) -> Decision:
    """A decision in a module nested in another: a package's prebuilt bundle taken whole (redoc
    2.0.0-rc.30's webpack module holding openapi-sampler's browserify build of json-pointer), so
    a package whose bundle files hold the function may be the one whose copy this is: a candidate."""
    builds = {h.package for h in decision.hits if h.weak and not h.late} - set(decision.packages)
    if len(decision.packages) != 1 or not builds:
        return decision
    detail = f"{decision.detail} (in a bundle nested in a module: bundle files of {', '.join(sorted(builds))} hold it)"
    return replace(decision, packages=tuple(sorted({*decision.packages, *builds})), detail=detail)


def _within(row: BundledModule, tree: FunctionTree) -> list[BundleFunction]:
    """A containing module's distinctive functions, in bundle order."""
    return [f for start, end in row.spans or [[row.offset, row.endOffset]] for f in tree.within(start, end)]


def _function_decision(record: Callsite, tree: FunctionTree | None, index: CorpusIndex) -> Decision | None:
    """The innermost enclosing distinctive function with a decisive corpus hit (outside bundle
    files); failing that, the innermost one matched only in bundle files (no package)."""
    weak: Decision | None = None
    for depth, function in enumerate(tree.enclosing(record.offset) if tree is not None else ()):
        hits = index.hits(function.key)
        if not hits:
            continue
        where = "its innermost distinctive function" if depth == 0 else f"the distinctive function {depth} levels out"
        detail = f"{where} ({function.tokens} tokens, weight {function.weight}) equals"
        strong = {h.package for h in hits if h.decides}
        late = {h.package for h in hits if h.late and not h.weak and not h.rolled}
        if strong:
            alone = len(strong) == 1 and not late - strong
            packages = tuple(sorted(strong if alone else {h.package for h in hits}))
            return Decision(packages, tuple(hits), "function", depth, detail, function=function)
        if weak is None:
            weak = Decision(tuple(sorted({h.package for h in hits})), tuple(hits), "function", depth, detail)
    return weak


def _identify(row: BundledModule, tree: FunctionTree, index: CorpusIndex,
              doubt: Callable[[BundledModule, str], str | None], islands: Neighbours,
              twins: Callable[[str, str], set[str]]) -> Decision | None:
    """A containing module's package. An `__esm` module's span is inferred from where its file's
    hoisted declarations sit, and can take in a neighbouring file's code: its containment reaches
    only from the first to the last function naming the package alone (a `__commonJS` wrapper is
    the whole file)."""
    named: Counter[str] = Counter()
    shared: Counter[str] = Counter()
    sets = []
    ties: list[tuple[frozenset[str], str]] = []  # functions of several packages the neighbours leave tied
    for function in _within(row, tree):
        strong, every = index.packages(function.key)
        packages = strong if len(strong) == 1 else every
        if strong:  # a hit only in bundle files says nothing about this module
            if len(packages) == 1 and row.kind == "webpack":
                # an island (Matching 5) names both: the module never overrules the function-level tie
                packages = frozenset(islands.checked(Decision(tuple(packages), (), "function", 0, "",
                                                              function=function)).packages)
            elif row.kind == "webpack" and len(islands.settled(Decision(
                    tuple(sorted(packages)), index.hits(function.key), "function", 0, "",
                    function=function)).packages) > 1:
                ties.append((packages, function.key))
            sets.append((packages, function))
    for packages, _ in sets:
        if len(packages) == 1:
            named.update(packages)
        else:
            shared.update(packages)
    if len(named) != 1:
        return None  # nothing, or functions naming different packages alone: no identification
    ((package, count),) = named.items()
    against = sum(1 for s, _ in sets if package not in s)
    if count < MIN_MODULE_MATCHES or against or count <= shared[package] - count:
        return None
    if doubt(row, package) is not None:
        return None
    for candidates, key in ties:
        # a tie is the module's package's only when another candidate's copy of it sits in a module of its own
        elsewhere = twins(key, row.id)
        if package in elsewhere or not elsewhere & (candidates - {package}):
            return None
    alone = [f for s, f in sets if len(s) == 1]
    reach = (min(f.start for f in alone), max(f.end for f in alone)) if row.kind == "esm" else None
    detail = (f"module {row.kind} {row.name} ({row.id}): {count} of its {len(sets)} matched distinctive "
              f"functions name {package} alone, {len(sets) - count} name it among others, none names another"
              + (f"; it reaches from the first of them to the last (offsets {reach[0]} to {reach[1]})"
                 if reach else ""))
    return Decision((package,), (), "module", 0, detail, reach)
