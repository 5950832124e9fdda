"""erratlas's JavaScript handlers against ESLint 9 on the original sources (issue 24).

usage: python bench/eslint_handlers.py [--packages ws,undici,...] [--bundlers esbuild,terser] [--json OUT]
       python bench/eslint_handlers.py --packages "" --npm NAME@VERSION=SHA256[:ENTRY]   (any other package)
       python bench/eslint_handlers.py --tree SRC --bundle BUNDLE.min.js [--json OUT]
       any of them with --keep DIR: the bundles and their scans are kept in DIR, to read the records

For each pinned npm package (MIT, shipping its original sources; `npm pack` into
~/.cache/erratlas/eslint/, sha256 checked; the `sourceMappingURL` comments of its files blanked,
so that the bundle's map names the JavaScript ESLint reads, not the TypeScript a package's own
maps lead to) and each bundler (esbuild `--bundle --minify --sourcemap`; terser `--compress
--mangle` over esbuild's unminified bundle, its map chained, with `sourcesContent`), with the
pinned toolchain of fixtures/package-lock.json (`npm ci` in fixtures/ first):

1. ESLint (flat config, no other rule) runs `preserve-caught-error` (`requireCatchParameter:
   true`: a clause without parameter that throws a new error is reported too), `no-useless-catch`
   and `no-empty` (`allowEmptyCatch: false`; only the blocks of catch clauses count) on the package's
   original files. Each finding is put on its catch clause: the clause's `catch` keyword, as
   file:line:col of the original (tree-sitter reads the original files for that).
2. The installed `erratlas scan` reads the minified bundle; each `catch` handler of
   handlers.jsonl is put on the original catch clause its `origin` (where the bundle's source map
   places its `catch` keyword) falls on: the keyword itself or the closing `}` of its `try` block
   before it (esbuild and terser map the keyword to one or the other).
3. Site by site, with the mapping of docs/reference.md, "Checked against ESLint":
   - preserve-caught-error <-> a `wrap` whose cause is `lost` or `partial`, of a built-in error
     class (`Error`, `TypeError`, ... as ESLint's rule reads them: its callee, or the constructor
     of one of its callsites, as a branch's wraps of one cause are one whose callee is the first
     written), whose new error is thrown (its callsite's `flow.fate`; a wrap returned or rejected
     is withdrawn: the rule reads `throw`);
   - no-useless-catch <-> one branch whose only disposition is `rethrow`, in a handler whose body
     is that one `throw e` (the record's `loneRethrow`: `throw (cleanup(), e)`, how minifiers
     write `cleanup(); throw e`, is not);
   - no-empty <-> one branch whose only disposition is `swallow` (or `retry`: an empty body in a
     loop the protected block leaves on success), on a clause whose body in the bundle is `{}`,
     unless the record's `sourceBody` says the original body held comments (which no-empty
     allows) or statements the minifier removed (withdrawn).
   ESLint findings whose catch clause no erratlas handler maps to are counted apart: "dropped"
   in a file the map names (dead code the bundler removed), "other files" in a file it does
   not (the entry does not reach it). So that this hides no miss, every catch clause of the
   bundle must have a handler record ("missed") and every handler must land on a clause of the
   sources ("unplaced"; one the map does not place counts when it makes a finding).

A catch handler at a `case` keyword is a compiled catch (an ES5 state machine's: TypeScript's
`__generator`, Babel's regenerator), whose original, being the compiled code itself, holds no catch
clause for ESLint to read: they are counted apart (`compiled`), with the originals' compiled catch
cases that none of them is on (`compiled, not read`: a region erratlas leaves out; each case named
file:line, and :column where a line holds more than one, as a minified original does), and the two
bundles' readings of each are compared as the clauses' are.

Prints a table per package x bundler: ESLint's findings (in the bundle), erratlas's, those its
records withdraw, those set aside as definitional, matched, ESLint's set aside as definitional,
recall (share of ESLint's, less those set aside, that erratlas has) and precision (share of
erratlas's, less those set aside, that ESLint has; of all of them; and of all of them with the
withdrawn ones, `raw`), then every difference with its original file:line and a reason class.
`--tree SRC --bundle B` compares one prebuilt bundle (its map beside it) with the sources under
SRC (the tests' fixture).

Then the two bundles of each package (and the first `--bundle` with each other one) against each
other: each original catch clause both place, and those whose dispositions, over all branches,
differ. The same code read twice, with no oracle needed: a difference is erratlas misreading one
minifier's shape (terser reuses the catch parameter's name inside the handler; esbuild folds `if`
chains into `?:`, `||` and sequences), as ESLint's three rules might never show.
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import tree_sitter_javascript
from tree_sitter import Language, Parser, Query, QueryCursor

ROOT = Path(__file__).resolve().parent.parent
BIN = ROOT / "fixtures" / "node_modules" / ".bin"
CACHE = Path(os.environ.get("ERRATLAS_CACHE", Path.home() / ".cache" / "erratlas")) / "eslint"


@dataclass(frozen=True)
class Package:
    name: str
    version: str
    sha256: str
    entry: str
    format: str  # esm or cjs: the sources' module kind and the bundle's
    #: esbuild options the package needs (a loader for files its dynamic `require` globs reach)
    esbuild: tuple[str, ...] = ()


PACKAGES = [
    Package("ws", "8.23.1", "86236e8c3cc4fd2d136d413670efb5b105ebddfbda975f1143b8b0429d584ade", "index.js", "cjs"),
    Package("undici", "8.14.0", "e41288e92a03127b8a420325f8bed0675a83be0b5a2aef0d94d2a6b12a13470d", "index.js", "cjs"),
    Package("axios", "1.21.1", "5659acb8c9414ad88aa539db8e529947c9bac8cdf55973e314a078fc0205751c", "index.js", "esm"),
    Package("fastify", "5.12.8", "459048aabd9311309f4f95b36e8ca065e3a4613ded292bcf50442926931e4748",
            "fastify.js", "cjs"),
    Package("knex", "3.3.0", "6f017ec9d4b8d665c739fa5ed20833bc96e61bc3903ea7ab6ad8498c926f1cc5", "knex.js", "cjs"),
    Package("pg", "8.23.1", "0d7999c755c25f7c02fbd96196291148eda737bb91e78e4031b9ebe5ef7d7de7", "lib/index.js", "cjs"),
    Package("node-gyp", "12.4.0", "c5651a4fa92942a36cf30e0f043119d4889e26e25f30ae28b8cecc16e705bf29",
            "lib/node-gyp.js", "cjs", ("--loader:.cs=empty",)),
    Package("execa", "9.6.1", "6c7d2efa0b28d7e1a8e1531ea996988b30a250cf3d25dcb5a84f7701058b439d", "index.js", "esm"),
]
BUNDLERS = ("esbuild", "terser")
RULES = ("preserve-caught-error", "no-useless-catch", "no-empty")
#: the classes ESLint's preserve-caught-error checks (its BUILT_IN_ERROR_TYPES)
BUILTIN_ERRORS = frozenset({"Error", "EvalError", "RangeError", "ReferenceError", "SyntaxError", "TypeError",
                            "URIError", "AggregateError"})
_EMPTY_CATCH = re.compile(rb"catch\s*(?:\(\s*[^()]*\))?\s*\{\s*\}")
_SOURCES = (".js", ".mjs", ".cjs")
#: a file's last line naming its source map (text before the end may be code that writes one)
_MAP_COMMENT = re.compile(rb"(?<![^\r\n])//[#@] sourceMappingURL=[^\r\n]*(?=\s*\Z)")
_JS = Language(tree_sitter_javascript.language())
_CATCHES = Query(_JS, "(catch_clause) @catch")


def _die(message: str) -> None:
    print(f"eslint_handlers: {message}", file=sys.stderr)
    sys.exit(2)


# -- inputs -----------------------------------------------------------------------------------


def fetch(package: Package) -> Path:
    """The package's unpacked tree, from its tarball in the cache (packed once, sha256 checked)."""
    CACHE.mkdir(parents=True, exist_ok=True)
    tarball = CACHE / f"{package.name.lstrip('@').replace('/', '-')}-{package.version}.tgz"
    if not tarball.exists():
        _run(["npm", "pack", f"{package.name}@{package.version}", "--pack-destination", str(CACHE), "--silent"])
    digest = hashlib.sha256(tarball.read_bytes()).hexdigest()
    if digest != package.sha256:
        _die(f"{tarball}: sha256 {digest}, pinned {package.sha256}")
    tree = CACHE / f"{package.name}@{package.version}"
    if not (tree / "package").is_dir():
        with tarfile.open(tarball) as archive:
            archive.extractall(tree, filter="data")
    sources = tree / "unmapped"
    if not sources.is_dir():
        _without_input_maps(tree / "package", tree / "unmapped.tmp")
        (tree / "unmapped.tmp").rename(sources)
    return sources


def _without_input_maps(package: Path, out: Path) -> None:
    """A copy of the package whose JavaScript files name no source map: a package that ships code
    compiled from TypeScript (`lib/x.js` and `lib/x.js.map` -> `src/x.ts`) would have esbuild chain
    those maps, and the bundle's map name the TypeScript files, where ESLint reads the JavaScript.
    The comment, a line of its own at the file's end, is blanked: every line and column stays."""
    shutil.rmtree(out, ignore_errors=True)
    shutil.copytree(package, out)
    for path in out.rglob("*"):
        if path.suffix in _SOURCES and path.is_file():
            data = path.read_bytes()
            blanked = _MAP_COMMENT.sub(lambda m: b" " * len(m.group(0)), data)
            if blanked != data:
                path.write_bytes(blanked)


def _package(spec: str) -> Package:
    """A package of `--npm NAME@VERSION=SHA256[:ENTRY]`: its entry from package.json's `main`
    when not given, its format from package.json's `type`."""
    match = re.fullmatch(r"(@?[^@=]+)@([^=]+)=([0-9a-f]{64})(?::(.+))?", spec)
    if match is None:
        _die(f"--npm {spec}: expected NAME@VERSION=SHA256[:ENTRY]")
        raise AssertionError
    name, version, digest, entry = match.groups()
    tree = fetch(Package(name, version, digest, "", ""))
    manifest = json.loads((tree / "package.json").read_text(encoding="utf-8"))
    entry = entry or str(manifest.get("main") or "index.js")
    for candidate in (entry, f"{entry}.js", f"{entry}/index.js"):
        if (tree / candidate).is_file():
            entry = os.path.normpath(candidate)
            break
    if not (tree / entry).is_file():
        _die(f"--npm {spec}: no entry {entry} in the package (give it after the sha256: =SHA256:ENTRY)")
    return Package(name, version, digest, entry, "esm" if manifest.get("type") == "module" else "cjs")


def _tool(name: str) -> str:
    path = BIN / name
    if not path.exists():
        _die(f"{path}: missing; run `npm ci --ignore-scripts` in fixtures/")
    return str(path)


def bundle(source: Path, package: Package, bundler: str, out: Path) -> Path:
    """The minified bundle of `entry` (its dependencies left out: only the package's own code
    is compared), its map beside it. esbuild's and terser's outputs sit at the same depth, so
    the chained map's relative paths hold. An extensionless `require("./act")` resolves as Node
    resolves it, to `act.js`: esbuild's own order takes `act.ts` first, which a package that ships
    its TypeScript beside the compiled files (seneca) holds, and ESLint reads the JavaScript."""
    out.mkdir(parents=True, exist_ok=True)
    fmt = package.format
    common = [str(source / package.entry), "--bundle", "--platform=node", "--packages=external", f"--format={fmt}",
              "--resolve-extensions=.js,.cjs,.mjs,.json", "--log-level=error", *package.esbuild]
    target = out / bundler / "bundle.min.js"
    target.parent.mkdir(exist_ok=True)
    if bundler == "esbuild":
        _run([_tool("esbuild"), *common, "--minify", "--sourcemap", f"--outfile={target}"])
        return target
    middle = out / "plain" / "bundle.js"
    middle.parent.mkdir(exist_ok=True)
    _run([_tool("esbuild"), *common, "--sourcemap", f"--outfile={middle}"])
    _run([_tool("terser"), str(middle), *(["--module"] if fmt == "esm" else []), "--compress", "--mangle",
          "--source-map", f"content='{middle}.map',url='bundle.min.js.map',includeSources", "-o", str(target)])
    return target


def _run(command: list[str]) -> None:
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        lines = (result.stderr or result.stdout).strip().splitlines()
        _die(f"{Path(command[0]).name} {command[1]}: {lines[0] if lines else f'exit {result.returncode}'}")


# -- the original catch clauses ---------------------------------------------------------------


@dataclass(frozen=True)
class Clause:
    """A catch clause of an original file."""

    file: str  # relative to the source tree
    line: int  # of the `catch` keyword, 1-based
    column: int  # 1-based, in UTF-16 units as ESLint counts
    start: int  # byte offsets: the keyword, the end of the try block, the body
    try_end: int
    body: tuple[int, int]
    try_start: int

    @property
    def where(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


class Originals:
    """The catch clauses of the original files, by file, and the conversions ESLint's and the
    map's (line, column) need."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._parser = Parser(_JS)
        self._files: dict[str, tuple[bytes, list[int], list[Clause]]] = {}

    def of(self, relative: str) -> tuple[bytes, list[int], list[Clause]] | None:
        if relative not in self._files:
            path = self.root / relative
            if not path.is_file():
                return None
            data = path.read_bytes()
            starts = [0] + [m.end() for m in re.finditer(rb"\n", data)]
            tree = self._parser.parse(data)
            clauses = []
            for node in QueryCursor(_CATCHES).captures(tree.root_node).get("catch", []):
                statement = node.parent
                block = statement.child_by_field_name("body") if statement is not None else None
                body = node.child_by_field_name("body")
                if statement is None or block is None or body is None:
                    continue
                line = node.start_point.row
                clauses.append(Clause(relative, line + 1, self._column(data, starts[line], node.start_byte),
                                      node.start_byte, block.end_byte, (body.start_byte, body.end_byte),
                                      statement.start_byte))
            clauses.sort(key=lambda c: c.start)
            self._files[relative] = (data, starts, clauses)
        return self._files[relative]

    @staticmethod
    def _column(data: bytes, line_start: int, offset: int) -> int:
        return len(data[line_start:offset].decode("utf-8", "replace").encode("utf-16-le")) // 2 + 1

    @staticmethod
    def offset(data: bytes, starts: list[int], line: int, column: int) -> int:
        """The byte offset of a 1-based line and UTF-16 column."""
        if not 1 <= line <= len(starts):
            return -1
        begin = starts[line - 1]
        end = starts[line] if line < len(starts) else len(data)
        text = data[begin:end].decode("utf-8", "replace")
        units = 0
        for at, char in enumerate(text):
            if units >= column - 1:
                return begin + len(text[:at].encode("utf-8"))
            units += 2 if ord(char) > 0xFFFF else 1
        return end

    def clause_at(self, relative: str, line: int, column: int, how: str) -> Clause | None:
        """The clause an ESLint finding is on (`how`: its rule), or that a handler's origin names
        (`how == "origin"`)."""
        found = self.of(relative)
        if found is None:
            return None
        data, starts, clauses = found
        at = self.offset(data, starts, line, column)
        if how == "no-empty":
            return next((c for c in clauses if c.body[0] == at), None)
        if how == "no-useless-catch":
            return next((c for c in clauses if at in (c.start, c.try_start)), None)
        if how == "preserve-caught-error":  # the throw, or the clause: the innermost clause around it
            around = [c for c in clauses if c.start <= at < c.body[1]]
            return max(around, key=lambda c: c.start) if around else None
        # origin: the keyword, or between the try block's closing `}` and it
        return next((c for c in clauses if c.try_end - 1 <= at <= c.start), None)


# -- the two sides ----------------------------------------------------------------------------


def run_eslint(root: Path, fmt: str, work: Path) -> list[dict[str, Any]]:
    """ESLint's messages of the three rules on every original file under `root`, outside
    node_modules, as {file, line, column, rule, message}."""
    work.mkdir(parents=True, exist_ok=True)
    copy = work / "src"  # ESLint lints only below its config's directory
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(root, copy, ignore=shutil.ignore_patterns("node_modules"))
    config = work / "eslint.config.mjs"
    kind = "module" if fmt == "esm" else "commonjs"
    config.write_text(
        "export default [{\n"
        '  files: ["**/*.js", "**/*.mjs", "**/*.cjs"],\n'
        f'  languageOptions: {{ ecmaVersion: "latest", sourceType: "{kind}" }},\n'
        "  linterOptions: { reportUnusedDisableDirectives: \"off\", noInlineConfig: true },\n"
        "  rules: {\n"
        '    "preserve-caught-error": ["error", { requireCatchParameter: true }],\n'
        '    "no-useless-catch": "error",\n'
        '    "no-empty": ["error", { allowEmptyCatch: false }],\n'
        "  },\n"
        "}, { files: [\"**/*.mjs\"], languageOptions: { sourceType: \"module\" } },\n"
        "   { files: [\"**/*.cjs\"], languageOptions: { sourceType: \"commonjs\" } }];\n",
        encoding="utf-8")
    result = subprocess.run([_tool("eslint"), "--config", str(config), "--format", "json", "--no-warn-ignored", "src"],
                            cwd=work, capture_output=True, text=True)
    if result.returncode not in (0, 1):
        _die(f"eslint on {root}: {result.stderr.strip().splitlines()[-1:]}")
    out = []
    for report in json.loads(result.stdout):
        relative = Path(report["filePath"]).relative_to(copy.resolve()).as_posix()
        for message in report["messages"]:
            if message.get("ruleId") in RULES:
                out.append({"file": relative, "line": message["line"], "column": message["column"],
                            "rule": message["ruleId"], "message": message["message"]})
            elif message.get("fatal"):
                out.append({"file": relative, "line": message.get("line", 0), "column": message.get("column", 0),
                            "rule": "fatal", "message": message["message"]})
    return out


def run_erratlas(bundle_path: Path, out: Path) -> tuple[list[dict[str, Any]], Sites]:
    """The handler records of the bundle's scan, and each error callsite's `flow.fate` and
    `constructor` by id."""
    erratlas = shutil.which("erratlas") or str(Path(sys.executable).parent / "erratlas")
    result = subprocess.run([erratlas, "scan", str(bundle_path), "--out", str(out), "--jobs", "1"],
                            capture_output=True, text=True)
    if result.returncode != 0:
        _die(f"erratlas scan {bundle_path}: {result.stderr.strip()}")
    lines = (out / "handlers.jsonl").read_text(encoding="utf-8").splitlines()
    errors = [json.loads(line) for line in
              (out / "error-message-callsites.jsonl").read_text(encoding="utf-8").splitlines() if line]
    fates = {e["id"]: ((e["flow"] or {}).get("fate"), e.get("constructor")) for e in errors}
    return [json.loads(line) for line in lines if line], fates


#: each error callsite's `flow.fate` and `constructor`, by id
Sites = dict[str, tuple[str | None, str | None]]


def erratlas_rules(handler: dict[str, Any], data: bytes, fates: Sites) -> tuple[set[str], set[str]]:
    """The ESLint rules whose finding the handler's record stands for (the module's docstring),
    and those the records themselves withdraw: an empty body whose `sourceBody` says the original
    held comments or statements (no-empty), a new error whose callsite's `flow.fate` says it is not
    thrown, but returned or rejected (preserve-caught-error reads `throw` statements only)."""
    if handler["form"] != "catch":
        return set(), set()
    branches = handler["branches"]
    kinds = [[d["kind"] for d in b["dispositions"]] for b in branches]
    written = data[handler["offset"]:handler["endOffset"]]
    out = set()
    if kinds == [["rethrow"]] and handler["loneRethrow"]:
        out.add("no-useless-catch")
    # an empty body in a loop is a `retry` when the try leaves the loop on success: empty all the same
    if kinds in ([["swallow"]], [["retry"]]) and _EMPTY_CATCH.fullmatch(written):
        if handler.get("sourceBody") in ("comments", "code"):  # no-empty reads statements, and comments allow it
            return out, {"no-empty"}
        out.add("no-empty")
    # each wrap of a built-in class with the callsites of its new errors: all of them when its callee
    # is one, else those whose constructor is one (a branch's `throw new X(m)` then `throw new Error(m)`
    # are one wrap, callee `X`)
    wraps = [d["callsites"] if d["callee"] in BUILTIN_ERRORS else
             [c for c in d["callsites"] if fates.get(c, (None, None))[1] in BUILTIN_ERRORS] or None
             for b in branches for d in b["dispositions"] if d["kind"] == "wrap" and d["cause"] in ("lost", "partial")]
    wraps = [sites for sites in wraps if sites is not None]
    # a new error counts unless its callsite says it leaves otherwise than thrown (none linked: counted)
    thrown = [sites for sites in wraps
              if not sites or any(fates.get(c, (None, None))[0] in ("thrown", None) for c in sites)]
    if thrown:
        out.add("preserve-caught-error")
    return out, ({"preserve-caught-error"} if wraps and not thrown else set())


# -- the comparison ---------------------------------------------------------------------------


@dataclass
class Result:
    label: str
    eslint: set[tuple[str, str]] = field(default_factory=set)  # (rule, clause) in the bundle
    erratlas: set[tuple[str, str]] = field(default_factory=set)
    #: erratlas's findings that ESLint's rules leave out by definition (a new error thrown through
    #: a local or a `?:`; an original body holding only a comment where the map has no text), left
    #: out of precision and listed
    aside: set[tuple[str, str]] = field(default_factory=set)
    #: ESLint's findings that erratlas's reading leaves out by definition (a cause given through a
    #: local bound to the caught value, which the rule compares by name), left out of recall and listed
    aside_eslint: set[tuple[str, str]] = field(default_factory=set)
    absent: list[str] = field(default_factory=list)  # ESLint findings in files the bundle does not hold
    #: ESLint findings in a bundled file on a clause no handler maps to: the bundler dropped it
    #: (dead code), or a handler was not placed (listed as unplaced, then counted here)
    dropped: list[str] = field(default_factory=list)
    unplaced: list[str] = field(default_factory=list)  # erratlas catch handlers not put on a clause
    #: catch clauses of the bundle (tree-sitter, here) that handlers.jsonl does not have
    missed: list[int] = field(default_factory=list)
    #: erratlas's findings its own records withdraw (`erratlas_rules`): in neither precision, but
    #: in `precision, raw`
    withdrawn: set[tuple[str, str]] = field(default_factory=set)
    handlers: int = 0
    #: compiled catches read (a `case` of an ES5 state machine, no clause), each reading by its origin's
    #: file:line; and the catch cases of the bundled originals that no compiled handler's origin is on
    compiled: dict[str, tuple[tuple[str, str | None], ...]] = field(default_factory=dict)
    compiled_left: list[str] = field(default_factory=list)
    #: the catch handlers' `sourceBody` values (`absent`: no map placed it), counted
    source_bodies: dict[str, int] = field(default_factory=dict)
    reasons: dict[tuple[str, str], tuple[str, str]] = field(default_factory=dict)
    #: each placed clause's dispositions, over all its branches: (kind, cause) once each
    readings: dict[str, tuple[tuple[str, str | None], ...]] = field(default_factory=dict)

    @property
    def matched(self) -> int:
        return len(self.eslint & self.erratlas)


@dataclass
class Agreement:
    """Two bundles of the same sources read clause by clause: each original catch clause both
    place, and those whose dispositions (over all branches: a minifier may fold an `if` chain into
    a `?:`) differ. The same code read twice: a difference is a misreading of one shape."""

    label: str
    both: int
    differ: list[tuple[str, tuple[tuple[str, str | None], ...], tuple[tuple[str, str | None], ...]]]


def agreement(label: str, first: Result, second: Result) -> Agreement:
    common = sorted(set(first.readings) & set(second.readings))
    return Agreement(label, len(common), [(where, first.readings[where], second.readings[where])
                                          for where in common if first.readings[where] != second.readings[where]])


def compare(label: str, root: Path, bundle_path: Path, fmt: str, work: Path,
            messages: list[dict[str, Any]] | None = None) -> Result:
    originals = Originals(root)
    handlers, fates = run_erratlas(bundle_path, work / "scan")
    data = bundle_path.read_bytes()
    result = Result(label)
    placed: dict[str, dict[str, Any]] = {}
    for handler in handlers:
        if handler["form"] != "catch":
            continue
        result.handlers += 1
        body = str(handler.get("sourceBody", "absent"))
        result.source_bodies[body] = result.source_bodies.get(body, 0) + 1
        origin = handler["origin"]
        relative = _relative(bundle_path.resolve().parent / origin["source"], root) if origin is not None else None
        clause = originals.clause_at(relative, origin["line"], origin["column"], "origin") \
            if relative is not None and origin is not None else None
        reading = tuple(sorted({(d["kind"], d["cause"]) for b in handler["branches"] for d in b["dispositions"]},
                               key=str))
        if data.startswith(b"case", handler["offset"]) and relative is not None and origin is not None:
            # a compiled catch (its id is the catch case's `case`): the original is ES5 output, a state
            # machine and no clause, which ESLint's rules do not read; the two bundles' readings are compared
            where = _compiled_case(originals, relative, origin["line"], origin["column"])
            result.compiled[where] = reading
            result.readings[f"{where} (compiled)"] = reading
            continue
        if clause is None:
            if relative is not None and origin is not None:  # in the sources, on no catch clause
                result.unplaced.append(f"{handler['id']} -> {relative}:{origin['line']}:{origin['column']}")
            elif any(erratlas_rules(handler, data, fates)):  # a finding no map places would go uncounted
                where = f"{origin['source']}:{origin['line']}" if origin is not None else "no origin"
                result.unplaced.append(f"{handler['id']} -> {where}")
            continue
        placed[clause.where] = handler
        result.readings[clause.where] = reading
        found, withdrawn = erratlas_rules(handler, data, fates)
        result.erratlas.update((rule, clause.where) for rule in found)
        result.withdrawn.update((rule, clause.where) for rule in withdrawn)
    bundled = _bundled_files(bundle_path, root)
    for relative in sorted(bundled):
        found = originals.of(relative)
        cases = _compiled_catches(found[0]) if found is not None else []
        for case in cases:
            if _case_name(relative, case, cases) not in result.compiled:
                result.compiled_left.append(_case_name(relative, case, cases))
    offsets = {h["offset"] for h in handlers if h["form"] == "catch"}
    tree = Parser(_JS).parse(data)
    result.missed = sorted(n.start_byte for n in QueryCursor(_CATCHES).captures(tree.root_node).get("catch", [])
                           if n.start_byte not in offsets)
    for message in messages if messages is not None else run_eslint(root, fmt, work):
        if message["rule"] == "fatal":
            result.absent.append(f"{message['file']}:{message['line']} fatal: {message['message']}")
            continue
        clause = originals.clause_at(message["file"], message["line"], message["column"], message["rule"])
        if clause is None:  # no-empty on a block that is no catch body
            continue
        if clause.where in placed:
            result.eslint.add((message["rule"], clause.where))
        elif message["file"] in bundled:
            result.dropped.append(f"{message['rule']} {clause.where}")
        else:
            result.absent.append(f"{message['rule']} {clause.where}")
    for key in sorted(result.eslint ^ result.erratlas):
        record = placed.get(key[1])
        written = data[record["offset"]:record["endOffset"]] if record is not None else b""
        reason = _reason(key, key in result.eslint, record, originals, written)
        result.reasons[key] = reason
        if reason[0] == "definitional":
            (result.aside_eslint if key in result.eslint else result.aside).add(key)
    return result


#: TypeScript's `__generator` try entry with a catch label (`_a.trys.push([1, 3, , 4])`), and a catch case of
#: Babel's regenerator (`case 9: _context.prev = 9; _context.t0 = _context["catch"](1);`, and since 7.27
#: `case 2: _context.p = 2; _t = _context.v;`)
_TRY_ENTRY = re.compile(rb"\.trys\.push\(\[\s*\d+\s*,\s*(\d+)")
#: (`t.t0 = t.catch(1)`, or a local, `_t = _context["catch"](1)`; minified, `case 6:throw e.prev=6,f(v=e.catch(1))`,
#: `case 2:if(n.p=2,"ENOENT"!==(a=n.v).code)`)
_REGENERATOR_CATCH = re.compile(rb"case (\d+):\s*(?:(?:if\s*\(|throw\s+|return\s+)\s*)?([\w$]+)\."
                                rb"(?:prev\s*=\s*\1\s*[;,][^;{}]{0,80}?\2(?:\[\"catch\"\]|\.catch)\(\d+\)"
                                rb"|p\s*=\s*\1\s*[;,][^;{}]{0,80}?\2\.v\b)")


def _compiled_case(originals: Originals, relative: str, line: int, column: int) -> str:
    """The original compiled catch case a handler's origin falls on: the last one at or before it, within
    3 lines (the maps place the `case` keyword on it or on the statement after); its line, else where it is."""
    found = originals.of(relative)
    cases = _compiled_catches(found[0]) if found is not None else []
    before = [c for c in cases if c[0] <= line < c[0] + 3 and (c[0] < line or c[1] <= column or _alone(c, cases))]
    return _case_name(relative, before[-1], cases) if before else f"{relative}:{line}"


def _alone(case: tuple[int, int], cases: list[tuple[int, int]]) -> bool:
    return sum(1 for c in cases if c[0] == case[0]) == 1


def _case_name(relative: str, case: tuple[int, int], cases: list[tuple[int, int]]) -> str:
    """`file:line`, and `:column` on a line of more than one case (a minified original)."""
    return f"{relative}:{case[0]}" if _alone(case, cases) else f"{relative}:{case[0]}:{case[1]}"


@functools.cache
def _compiled_catches(data: bytes) -> list[tuple[int, int]]:
    """The 1-based lines and columns of an original file's compiled catch cases: TypeScript's (the first
    `case N:` after a try entry whose catch label is N) and Babel's regenerator's."""
    lines = []
    root = Parser(_JS).parse(data).root_node if _TRY_ENTRY.search(data) else None
    for entry in _TRY_ENTRY.finditer(data) if root is not None else ():
        switch = root.descendant_for_byte_range(entry.start(), entry.start() + 1)
        while switch is not None and switch.type != "switch_statement":  # the machine of the entry's own case
            switch = switch.parent
        body = switch.child_by_field_name("body") if switch is not None else None
        case = next((c for c in body.named_children if c.type == "switch_case"
                     and (c.child_by_field_name("value") or c).text == entry.group(1)), None) if body else None
        if case is not None:
            lines.append(_line_column(data, case.start_byte))
    lines += [_line_column(data, m.start()) for m in _REGENERATOR_CATCH.finditer(data)]
    return sorted(set(lines))


def _line_column(data: bytes, at: int) -> tuple[int, int]:
    """The 1-based line and column of byte `at`, the column in UTF-16 code units as the maps count them
    (a minified original's line may hold text that is not ASCII before its cases: contentful's)."""
    start = data.rfind(b"\n", 0, at) + 1
    return data.count(b"\n", 0, at) + 1, len(data[start:at].decode("utf-8", "replace").encode("utf-16-le")) // 2 + 1


def _bundled_files(bundle_path: Path, root: Path) -> set[str]:
    """The original files the bundle's map names, relative to the source tree."""
    found = json.loads(Path(f"{bundle_path}.map").read_text(encoding="utf-8"))
    base = bundle_path.resolve().parent / (found.get("sourceRoot") or "")
    return {r for r in (_relative(base / source, root) for source in found.get("sources", [])) if r is not None}


def _relative(path: Path, root: Path) -> str | None:
    try:
        return Path(os.path.normpath(path)).relative_to(os.path.normpath(root.resolve())).as_posix()
    except ValueError:
        return None


_COMMENT_ONLY = re.compile(r"\{\s*(?://[^\n]*\n\s*|/\*.*?\*/\s*)+\}", re.S)
_THROW_BUILTIN = re.compile(r"\bthrow\s+(?:new\s+)?(?:" + "|".join(sorted(BUILTIN_ERRORS)) + r")\s*\(")


def _reason(key: tuple[str, str], by_eslint: bool, handler: dict[str, Any] | None,
            originals: Originals, written: bytes = b"") -> tuple[str, str]:
    """A reason class for one difference ("definitional", or "erratlas" for a misreading left),
    with what the original clause and erratlas's record say; `written`: the handler's text in the
    bundle."""
    rule, where = key
    file, line, column = where.rsplit(":", 2)
    found = originals.of(file)
    clause = originals.clause_at(file, int(line), int(column), "origin") if found else None
    original = found[0][clause.start:clause.body[1]].decode("utf-8", "replace") if found and clause else ""
    body = original[original.find("{"):] if original else ""
    kinds = [[d["kind"] + (f"/{d['cause']}" if d["cause"] else "") + (f" {d['callee']}" if d["callee"] else "")
              for d in b["dispositions"]] for b in handler["branches"]] if handler else []
    seen = f"erratlas {kinds}; original {original[:140]!r}"
    if rule == "no-empty" and not by_eslint and _COMMENT_ONLY.fullmatch(body):
        return "definitional", "the original body holds only a comment: no-empty allows it, the bundle has none"
    if rule == "preserve-caught-error" and not by_eslint and not _THROW_BUILTIN.search(body):
        return "definitional", ("a built-in error not thrown as `throw new X(...)` (thrown through a local or a "
                                f"`?:`): ESLint reads that form only: {seen}")
    if rule == "no-useless-catch" and not by_eslint and _LONE_RETHROW.fullmatch(written) \
            and not _FIRST_RETHROW.match(body):
        return "definitional", ("the bundler made the body a lone `throw e` (a block, an alias, a constant test "
                                "or a statement without effect gone): the catch is useless as shipped, and "
                                f"no-useless-catch reads a first statement `throw e` in the source only: {seen}")
    parameter = _PARAMETER.match(original)
    aliases = {m.group(1) for m in _ALIAS.finditer(body) if parameter is not None and m.group(2) == parameter.group(1)}
    if rule == "preserve-caught-error" and by_eslint and _causes_of(handler) == {"kept"} \
            and any(re.search(rf"\bcause\s*:\s*{re.escape(a)}(?![\w$])", body) for a in aliases):
        return "definitional", ("the cause is a local bound to the caught value (`const error = err; ... {cause: "
                                f"error}}`): ESLint compares the name, erratlas follows the local: {seen}")
    # the caught value as no `cause:` field of the clause: options ESLint does not read cannot hold it as one
    if rule == "preserve-caught-error" and not by_eslint and parameter is not None \
            and not re.search(rf"\bcause\s*:\s*{re.escape(parameter.group(1))}(?![\w$])", body) \
            and _options_unread(found[0][clause.body[0]:clause.body[1]] if found and clause else b""):
        return "definitional", ("every built-in error thrown has options preserve-caught-error does not read (a "
                                f"name, a spread) and leaves unjudged, and no `cause:` field of the clause is the "
                                f"caught value: {seen}")
    return "erratlas", f"{'ESLint only' if by_eslint else 'erratlas only'}: {seen}"


#: `const error = err;`: a local bound to another name (group 1 to group 2)
_ALIAS = re.compile(r"\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*([A-Za-z_$][\w$]*)\s*[;\n]")


def _causes_of(handler: dict[str, Any] | None) -> set[str | None]:
    """The causes of a handler's wraps of a built-in error class."""
    return {d["cause"] for b in (handler or {}).get("branches", []) for d in b["dispositions"]
            if d["kind"] == "wrap" and d["callee"] in BUILTIN_ERRORS}


#: a catch clause of the bundle whose body is `throw` of its parameter, alone
_LONE_RETHROW = re.compile(rb"catch\s*\(\s*([A-Za-z_$][\w$]*)\s*\)\s*\{\s*throw\s+\(?\s*\1\s*\)?\s*;?\s*\}")
#: an original body whose first statement, comments aside, throws something named (no-useless-catch reads that)
_FIRST_RETHROW = re.compile(r"\{\s*(?:(?://[^\n]*\n|/\*.*?\*/)\s*)*throw\s*\(?\s*[A-Za-z_$][\w$]*\s*\)?\s*(?:;|\})",
                            re.S)
_PARAMETER = re.compile(r"catch\s*\(\s*([A-Za-z_$][\w$]*)\s*\)")
_NOT_ENTERED = frozenset({"function_declaration", "function_expression", "arrow_function", "generator_function",
                          "generator_function_declaration", "class_static_block", "method_definition",
                          "catch_clause"})


def _options_unread(block: bytes) -> bool:
    """Whether a catch body throws a built-in error (`throw new X(...)`, outside nested functions and
    handlers), and each one's options are what preserve-caught-error leaves unjudged: a spread
    among the arguments up to the options (`new Error(...args)`), or options that are not an object
    literal (`new Error(m, opts)`) or hold a spread (`{...extra}`)."""
    stack, throws = [Parser(_JS).parse(block).root_node], []
    while stack:
        node = stack.pop()
        if node.type == "throw_statement":
            throws.append(node)
        stack.extend(c for c in node.named_children if c.type not in _NOT_ENTERED)
    unread = []
    for throw in throws:
        value = next((c for c in throw.named_children if c.type != "comment"), None)
        callee = value.child_by_field_name("constructor" if value.type == "new_expression" else "function") \
            if value is not None and value.type in ("new_expression", "call_expression") else None
        if value is None or callee is None or callee.type != "identifier" \
                or (callee.text or b"").decode() not in BUILTIN_ERRORS:
            continue
        arguments = value.child_by_field_name("arguments")
        given = [a for a in arguments.named_children if a.type != "comment"] if arguments is not None else []
        at = 2 if callee.text == b"AggregateError" else 1
        options = given[at] if len(given) > at else None
        unread.append(any(a.type == "spread_element" for a in given[:at + 1]) or (options is not None and (
            options.type != "object" or any(m.type == "spread_element" for m in options.named_children))))
    return bool(unread) and all(unread)


# -- output -----------------------------------------------------------------------------------


def _share(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "n/a"


def _shares(row: list[int]) -> str:
    """Recall, precision, precision with the set-aside findings, and with the withdrawn ones too,
    of a table row (ESLint at 3, erratlas 6, withdrawn 7, set aside 8, matched 9, ESLint's set aside 10)."""
    eslint, erratlas, withdrawn, aside, matched, unread = row[3], row[6], row[7], row[8], row[9], row[10]
    return " | ".join([_share(matched, eslint - unread), _share(matched, erratlas - aside), _share(matched, erratlas),
                       _share(matched, erratlas + withdrawn)])


def report(results: list[Result], agreements: list[Agreement] = ()) -> str:  # type: ignore[assignment]
    lines = ["| package x bundler | catch handlers | missed | unplaced | ESLint | dropped | other files | erratlas "
             "| withdrawn | set aside | matched | ESLint set aside | compiled | compiled, not read | recall "
             "| precision | precision, all | precision, raw |",
             "|---|" + "---:|" * 17]
    totals = [0] * 13
    for r in results:
        row = [r.handlers, len(r.missed), len(r.unplaced), len(r.eslint), len(r.dropped), len(r.absent),
               len(r.erratlas), len(r.withdrawn), len(r.aside), r.matched, len(r.aside_eslint), len(r.compiled),
               len(r.compiled_left)]
        totals = [a + b for a, b in zip(totals, row, strict=True)]
        lines.append(f"| {r.label} | {' | '.join(map(str, row))} | {_shares(row)} |")
    if len(results) > 1:
        lines.append(f"| all | {' | '.join(map(str, totals))} | {_shares(totals)} |")
    for rule in RULES:
        row = [sum(1 for r in results for k in keys(r) if k[0] == rule)
               for keys in (lambda r: r.eslint, lambda r: r.erratlas, lambda r: r.withdrawn, lambda r: r.aside,
                            lambda r: r.eslint & r.erratlas, lambda r: r.aside_eslint)]
        lines.append(f"| ({rule}) | | | | {row[0]} | | | {' | '.join(map(str, row[1:]))} | | "
                     f"| {_shares([0, 0, 0, *row[:1], 0, 0, *row[1:]])} |")
    lines += ["", "missed: catch clauses of the bundle that handlers.jsonl lacks; unplaced: handlers whose origin",
              "is on no catch clause of the sources (both 0, or `dropped` could hide a miss); ESLint: its findings",
              "on catch clauses that survive into the bundle; dropped: on clauses of bundled files that no handler",
              "maps to (dead code the bundler removed); other files: in files the bundle does not hold (and files",
              "ESLint cannot parse); withdrawn: erratlas's findings its records place outside the rule (an empty",
              "`swallow` whose `sourceBody` is `comments` or `code`, a `wrap` whose new error's `flow.fate` is",
              "`returned` or `rejected`; `precision, raw` counts them); set aside:",
              "erratlas's findings that the rule leaves out by definition ([definitional] below), not counted in",
              "precision (`precision, all` counts them); ESLint set aside: ESLint's findings that erratlas's",
              "reading leaves out by definition ([definitional] below), not counted in recall; compiled: catch",
              "handlers of ES5 state machines (`__generator`, regenerator), whose originals hold no catch clause",
              "for ESLint to read (their two bundles' readings are compared below); compiled, not read: the",
              "originals' compiled catch cases that no such handler is on (a shape erratlas leaves out).",
              "Differences:", ""]
    for r in results:
        if r.reasons or r.unplaced or r.missed or r.dropped or r.compiled_left:
            lines.append(f"{r.label}:")
        for (rule, where), (kind, reason) in sorted(r.reasons.items(), key=lambda kv: kv[0][1]):
            lines.append(f"  {where} {rule} [{kind}] {reason}")
        for item in r.unplaced:
            lines.append(f"  unplaced handler {item}")
        for item in r.dropped:
            lines.append(f"  dropped by the bundler: {item}")
        for offset in r.missed:
            lines.append(f"  missed: the bundle's catch clause at offset {offset} has no handler record")
        for where in r.compiled_left:
            lines.append(f"  compiled catch not read: {where}")
    if agreements:
        lines += ["", "The bundles' readings of the same clause (dispositions over all branches):", "",
                  "| sources | clauses both place | readings differ |", "|---|---:|---:|"]
        lines += [f"| {a.label} | {a.both} | {len(a.differ)} |" for a in agreements]
        for a in agreements:
            for where, first, second in a.differ:
                lines.append(f"  {a.label} {where}: {_written(first)} / {_written(second)}")
    return "\n".join(lines)


def _written(reading: tuple[tuple[str, str | None], ...]) -> str:
    return "[" + ", ".join(kind + (f"/{cause}" if cause else "") for kind, cause in reading) + "]"


def as_json(results: list[Result], agreements: list[Agreement] = ()) -> dict[str, Any]:  # type: ignore[assignment]
    agree = {a.label: {"both": a.both, "differ": [[where, _written(x), _written(y)] for where, x, y in a.differ]}
             for a in agreements}
    return {"bundlersAgree": agree} | {r.label: {"handlers": r.handlers, "eslint": sorted(map(list, r.eslint)),
                      "erratlas": sorted(map(list, r.erratlas)), "aside": sorted(map(list, r.aside)),
                      "asideEslint": sorted(map(list, r.aside_eslint)),
                      "withdrawn": sorted(map(list, r.withdrawn)), "sourceBody": dict(sorted(r.source_bodies.items())),
                      "matched": r.matched, "absent": r.absent, "dropped": r.dropped, "unplaced": r.unplaced,
                      "missed": r.missed, "compiled": dict(sorted((k, _written(v)) for k, v in r.compiled.items())),
                      "compiledLeft": r.compiled_left,
                      "differences": [[k[0], k[1], *v] for k, v in sorted(r.reasons.items())]} for r in results}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--packages", default=",".join(p.name for p in PACKAGES))
    parser.add_argument("--bundlers", default=",".join(BUNDLERS))
    parser.add_argument("--tree", type=Path, help="compare a prebuilt bundle with the sources under TREE")
    parser.add_argument("--bundle", type=Path, action="append", default=[],
                        help="a minified bundle of TREE, its map beside it (repeatable)")
    parser.add_argument("--format", default="esm", choices=("esm", "cjs"))
    parser.add_argument("--npm", action="append", default=[], metavar="NAME@VERSION=SHA256[:ENTRY]",
                        help="also an unpinned package: its tarball's sha256 (printed when it differs), and its "
                             "entry when package.json's `main` is not it (repeatable)")
    parser.add_argument("--json", type=Path, help="also write the results as JSON")
    parser.add_argument("--keep", type=Path, metavar="DIR",
                        help="work in DIR and keep it: each package's bundles and their scans, to read the records")
    args = parser.parse_args()
    extra = [_package(spec) for spec in args.npm]
    results: list[Result] = []
    agreements: list[Agreement] = []
    if args.keep is not None and args.keep.exists() and any(args.keep.iterdir()):
        _die(f"{args.keep}: not empty (--keep)")
    with tempfile.TemporaryDirectory(prefix="eslint-handlers-") as temporary:
        work = args.keep if args.keep is not None else Path(temporary)
        if args.tree is not None:
            if not args.tree.is_dir():
                _die(f"{args.tree}: not a directory (--tree)")
            missing = [b for b in args.bundle if not b.is_file()] or ([] if args.bundle else ["(none)"])
            if missing:
                _die(f"{missing[0]}: no bundle to compare (--bundle)")
            messages = run_eslint(args.tree, args.format, work / "eslint")
            for at, built in enumerate(args.bundle):
                results.append(compare(built.name, args.tree, built, args.format, work / f"scan-{at}", messages))
            agreements += [agreement(f"{results[0].label} / {r.label}", results[0], r) for r in results[1:]]
        else:
            wanted = args.packages.split(",") if args.packages else []
            unknown = set(wanted) - {p.name for p in PACKAGES}
            if unknown:
                _die(f"--packages: not pinned here: {', '.join(sorted(unknown))} (--npm adds a package)")
            for package in [p for p in PACKAGES if p.name in wanted] + extra:
                tree = fetch(package)
                messages = run_eslint(tree, package.format, work / package.name / "eslint")
                read = []
                for bundler in args.bundlers.split(","):
                    place = work / package.name
                    built = bundle(tree, package, bundler, place)
                    read.append(compare(f"{package.name}@{package.version} {bundler}", tree, built,
                                        package.format, place / f"{bundler}-scan", messages))
                results += read
                if len(read) > 1:
                    agreements.append(agreement(f"{package.name}@{package.version}", read[0], read[1]))
    print(report(results, agreements))
    if args.json is not None:
        args.json.write_text(json.dumps(as_json(results, agreements), indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
