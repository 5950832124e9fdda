"""The Python inventory on a real tree: the installed `pip` package.

The oracle is independent of erratlas: the standard library's `ast` finds the calls and
`symtable` (CPython's own scope analysis) says what each name resolves to. It decides four
kinds of callsite exactly, site by site: builtin exceptions (calls and bare `raise`),
`logging` module functions, `warnings.warn`/`warn_explicit`, and calls on a logger bound to
`logging.getLogger(...)` by a plain name at module level or in the same function.
"""

from __future__ import annotations

import ast
import builtins
import json
import shutil
import subprocess
import symtable
from collections import Counter
from pathlib import Path
from typing import ClassVar

import pip
from conftest import FIXTURES, SUMMARY, erratlas_command, records, run, scan, tree_bytes
from support import python_oracles

PIP = Path(pip.__file__).resolve().parent
BUILTIN_EXCEPTIONS = frozenset(
    n
    for n in dir(builtins)
    if isinstance(getattr(builtins, n), type) and issubclass(getattr(builtins, n), BaseException)
)
LOGGING_METHODS = frozenset({"debug", "info", "warning", "warn", "error", "exception", "critical", "fatal", "log"})
WARNING_FUNCTIONS = frozenset({"warn", "warn_explicit"})
Site = tuple[str, str, int, str]  # (category, unit, line, callee as written)


# --- the oracle -------------------------------------------------------------------------------


class _Tables:
    """symtable's scopes, found by (name, first line) of the ast node that opens them."""

    _NAMES: ClassVar[dict[type, str]] = {ast.Lambda: "lambda", ast.ListComp: "listcomp", ast.SetComp: "setcomp",
              ast.DictComp: "dictcomp", ast.GeneratorExp: "genexpr"}

    def __init__(self, top: symtable.SymbolTable) -> None:
        self.by_key: dict[tuple[str, int], symtable.SymbolTable] = {}
        stack = [top]
        while stack:
            for child in stack.pop().get_children():
                self.by_key.setdefault((child.get_name(), child.get_lineno()), child)
                stack.append(child)

    def of(self, node: ast.AST) -> symtable.SymbolTable | None:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            return self.by_key.get((node.name, node.lineno))
        name = self._NAMES.get(type(node))
        return self.by_key.get((name, node.lineno)) if name else None  # type: ignore[attr-defined]


class Oracle(ast.NodeVisitor):
    def __init__(self, unit: str, tree: ast.Module, top: symtable.SymbolTable) -> None:
        self.unit, self.top, self.tables = unit, top, _Tables(top)
        self.stack = [top]
        self.found: Counter[Site] = Counter()
        self.imports: dict[int, dict[str, str]] = {id(top): {}}  # per scope: bound name -> module.name
        self.loggers: dict[int, set[str]] = {}  # per scope: names bound to logging.getLogger(...)
        for statement in _module_level(tree.body):
            self._module_statement(statement)

    def _module_statement(self, statement: ast.stmt) -> None:
        if isinstance(statement, (ast.Import, ast.ImportFrom)):
            self._bind_imports(statement, id(self.top))
        elif isinstance(statement, ast.Assign):
            self._bind_loggers(statement, id(self.top))

    def _bind_imports(self, node: ast.Import | ast.ImportFrom, scope: int) -> None:
        bound = self.imports.setdefault(scope, {})
        for alias in node.names:
            if isinstance(node, ast.Import):
                head = alias.name.split(".")[0]
                bound[alias.asname or head] = alias.name if alias.asname else head
            elif node.level == 0 and node.module:
                bound[alias.asname or alias.name] = f"{node.module}.{alias.name}"

    def _bind_loggers(self, node: ast.Assign, scope: int) -> None:
        if isinstance(node.value, ast.Call) and self._dotted(node.value.func) == "logging.getLogger":
            self.loggers.setdefault(scope, set()).update(t.id for t in node.targets if isinstance(t, ast.Name))

    # scopes: header parts are evaluated outside the new scope, the body inside
    def generic_visit(self, node: ast.AST) -> None:
        table = self.tables.of(node)
        if table is None:
            super().generic_visit(node)
            return
        outside, inside = _split(node)
        for part in outside:
            self.visit(part)
        self.stack.append(table)
        for part in inside:
            self.visit(part)
        self.stack.pop()

    def _binding_scope(self, name: str) -> symtable.SymbolTable | None:
        """The scope whose binding `name` refers to here; None for a builtin (or nothing)."""
        table = self.stack[-1]
        try:
            symbol = table.lookup(name)
        except KeyError:
            symbol = None
        if symbol is not None and table.get_type() != "module" and (symbol.is_local() or symbol.is_free()):
            if symbol.is_local():
                return table
            return None if symbol.is_free() else table  # free: an enclosing function's (never ours to track)
        try:
            module_symbol = self.top.lookup(name)
        except KeyError:
            return None
        bound = module_symbol.is_assigned() or module_symbol.is_imported() or module_symbol.is_namespace()
        return self.top if bound else None

    def _is_free(self, name: str) -> bool:
        try:
            return self.stack[-1].lookup(name).is_free()
        except KeyError:
            return False

    def _dotted(self, node: ast.expr) -> str | None:
        """What an imported name or attribute of one refers to: `logging.getLogger`, ..."""
        if isinstance(node, ast.Attribute):
            base = self._dotted(node.value)
            return f"{base}.{node.attr}" if base else None
        if isinstance(node, ast.Name) and not self._is_free(node.id):
            scope = self._binding_scope(node.id)
            return self.imports.get(id(scope), {}).get(node.id) if scope is not None else None
        return None

    def _builtin(self, name: str) -> bool:
        return name in BUILTIN_EXCEPTIONS and not self._is_free(name) and self._binding_scope(name) is None

    def _logger(self, name: str) -> bool:
        if self._is_free(name):
            return False
        scope = self._binding_scope(name)
        return scope is not None and name in self.loggers.get(id(scope), set())

    def visit_Import(self, node: ast.Import) -> None:
        self._bind_imports(node, id(self.stack[-1]))

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        self._bind_imports(node, id(self.stack[-1]))

    def visit_Assign(self, node: ast.Assign) -> None:
        if len(self.stack) > 1:
            self._bind_loggers(node, id(self.stack[-1]))
        self.generic_visit(node)

    def visit_Raise(self, node: ast.Raise) -> None:
        if isinstance(node.exc, ast.Name) and self._builtin(node.exc.id):
            self.found[("error", self.unit, node.exc.lineno, node.exc.id)] += 1
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        written = ast.unparse(func)
        target = self._dotted(func)
        if isinstance(func, ast.Name) and self._builtin(func.id):
            self.found[("error", self.unit, node.lineno, written)] += 1
        elif target is not None and target.rpartition(".")[::2] in {("logging", m) for m in LOGGING_METHODS}:
            self.found[("logging", self.unit, node.lineno, written)] += 1
        elif target is not None and target.rpartition(".")[::2] in {("warnings", f) for f in WARNING_FUNCTIONS}:
            self.found[("warnings", self.unit, node.lineno, written)] += 1
        elif (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)
              and func.attr in LOGGING_METHODS and self._logger(func.value.id)):
            self.found[("logger", self.unit, node.lineno, written)] += 1
        self.generic_visit(node)


def _module_level(body: list[ast.stmt]) -> list[ast.stmt]:
    """Module-level statements, also inside module-level if/try blocks."""
    out: list[ast.stmt] = []
    for statement in body:
        out.append(statement)
        if isinstance(statement, (ast.If, ast.Try)):
            nested = [*statement.body, *statement.orelse, *getattr(statement, "finalbody", [])]
            nested += [s for handler in getattr(statement, "handlers", []) for s in handler.body]
            out.extend(_module_level(nested))
    return out


def _split(node: ast.AST) -> tuple[list[ast.AST], list[ast.AST]]:
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        defaults = [*node.args.defaults, *[d for d in node.args.kw_defaults if d]]
        return [*node.decorator_list, *defaults, *([node.returns] if node.returns else [])], list(node.body)
    if isinstance(node, ast.ClassDef):
        return [*node.decorator_list, *node.bases, *[k.value for k in node.keywords]], list(node.body)
    if isinstance(node, ast.Lambda):
        return [*node.args.defaults, *[d for d in node.args.kw_defaults if d]], [node.body]
    generators = node.generators  # type: ignore[attr-defined]
    inside: list[ast.AST] = [g.target for g in generators] + [g.iter for g in generators[1:]]
    inside += [c for g in generators for c in g.ifs]
    inside += [node.key, node.value] if isinstance(node, ast.DictComp) else [node.elt]  # type: ignore[attr-defined]
    return [generators[0].iter], inside


def oracle(root: Path, prefix: str) -> Counter[Site]:
    found: Counter[Site] = Counter()
    for path in sorted(root.rglob("*.py")):
        if "__pycache__" in path.parts:
            continue
        unit = prefix + path.relative_to(root).as_posix()
        source = path.read_bytes()
        visitor = Oracle(unit, ast.parse(source), symtable.symtable(source.decode("utf-8"), unit, "exec"))
        visitor.visit(ast.parse(source))
        found += visitor.found
    return found


def erratlas_sites(out: Path) -> Counter[Site]:
    """The records of the four kinds the oracle decides, keyed like the oracle's."""
    found: Counter[Site] = Counter()
    for record in records(out, "error"):
        if record["constructor"] in BUILTIN_EXCEPTIONS:
            found[("error", record["unit"], record["line"], record["callee"])] += 1  # type: ignore[index]
    for record in records(out, "diagnostic"):
        role, callee = record["calleeRole"], str(record["callee"])
        if role == "logger" and (callee.count(".") != 1 or not callee.split(".")[0].isidentifier()
                                 or callee.startswith("self.")):
            continue  # attributes, calls: beyond the oracle
        found[(str(role), record["unit"], record["line"], callee)] += 1  # type: ignore[index]
    return found


# --- tests ------------------------------------------------------------------------------------


def test_pip_counts_agree_with_the_ast_oracle_site_by_site(pip_scan: Path) -> None:
    expected = oracle(PIP, "pip/")
    got = erratlas_sites(pip_scan)
    for category in ("error", "logging", "warnings", "logger"):
        want = Counter({k: v for k, v in expected.items() if k[0] == category})
        have = Counter({k: v for k, v in got.items() if k[0] == category})
        assert have == want, (category, sorted((want - have).items())[:10], sorted((have - want).items())[:10])
    summary = json.loads((pip_scan / SUMMARY).read_text())
    assert sum(v for k, v in expected.items() if k[0] == "error") > 400
    assert summary["counts"]["byKind"]["diagnostic"] >= sum(expected.values()) - sum(
        v for k, v in expected.items() if k[0] == "error"
    )


def test_pip_bundle_exceptions_resolve_across_modules(pip_scan: Path) -> None:
    errors = records(pip_scan, "error")
    constructors = Counter(str(r["constructor"]) for r in errors)
    # raised everywhere in pip, defined once in pip/_internal/exceptions.py, imported by name
    assert constructors["pip._internal.exceptions.InstallationError"] >= 20
    classes = {json.loads(line)["name"]: json.loads(line) for line in (pip_scan / "error-classes.jsonl").open()}
    assert classes["pip._internal.exceptions.InstallationError"]["rootConstructor"] == "Exception"
    assert classes["pip._internal.exceptions.PipError"]["parent"] == "Exception"
    assert all(r["module"]["kind"] == "python-package" for r in errors)  # type: ignore[index]
    scope = next(r["scope"] for r in errors if str(r["unit"]).startswith("pip/_internal/req/"))
    assert scope["scopePath"][0].startswith("module:pip._internal.req.")  # type: ignore[index]


def test_pip_flow_handlers_are_exactly_the_direct_sources(pip_scan: Path) -> None:
    """docs/reference.md, "Flow": one decision gives a handler its direct sources and an error
    its flow's handler; every error is followed, most of them thrown."""
    errors = records(pip_scan, "error")
    handlers = [json.loads(line) for line in (pip_scan / "handlers.jsonl").open()]
    direct = {(s["id"], h["id"]) for h in handlers for s in h["sources"] if s["via"] == "direct"}
    flows = {(r["id"], r["flow"]["handler"]) for r in errors if r["flow"]["handler"] is not None}  # type: ignore[index]
    assert direct == flows and len(direct) >= 20
    fates = Counter(r["flow"]["fate"] for r in errors)  # type: ignore[index]
    assert fates["thrown"] > len(errors) / 2 and set(fates) <= {
        "thrown", "returned", "rejected", "passed", "stored", "logged", "discarded", None}


def test_pip_vendored_code_is_suggested_as_its_dependency(pip_scan: Path, tmp_path: Path) -> None:
    copy = tmp_path / "scan"
    shutil.copytree(pip_scan, copy)
    result = run("suggest", copy)
    assert result.returncode == 0, result.stderr
    rows = [json.loads(line) for line in (copy / "suggestions.jsonl").open()]
    summary = json.loads((pip_scan / SUMMARY).read_text())
    vendored = {u["unit"]: u["vendored"] for u in summary["loggers"] if u["vendored"]}
    assert rows and all(r["owner"] == "Dependency" for r in rows)
    for row in rows:
        for example in row["exampleIds"]:
            unit = example.split(":", 1)[1].rsplit("@", 1)[0]
            assert unit.startswith("pip/_vendor/"), row
            expected = vendored[unit]["distribution"] or vendored[unit]["dependency"]
            assert row["package"] == expected
    suggested = {r["package"] for r in rows}
    assert {"rich", "urllib3", "requests", "CacheControl", "pygments"} <= suggested
    if any(unit.startswith("pip/_vendor/pkg_resources/") for unit in vendored):
        # vendor.txt lists setuptools, the distribution that ships pkg_resources
        assert "setuptools" in suggested and "pkg_resources" not in suggested
    internal = [r for r in records(pip_scan, "error") if str(r["unit"]).startswith("pip/_internal/")]
    assert internal and not any("_internal" in str(e) for r in rows for e in r["exampleIds"])


def test_jobs_1_and_jobs_2_write_identical_bytes(tmp_path: Path) -> None:
    # pip's own code (pip/_internal, 40% of the tree) keeps the test short; the benchmark
    # (bench/python_vs_astgrep.py) compares the whole tree's outputs across --jobs
    tree = tmp_path / "pip"
    shutil.copytree(PIP / "_internal", tree / "_internal", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(PIP / "__init__.py", tree / "__init__.py")
    outputs = []
    for jobs in ("1", "2"):
        out = tmp_path / f"jobs{jobs}"
        scan(tree, out, "--jobs", jobs)
        outputs.append({p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()})
    assert outputs[0].keys() == outputs[1].keys()
    assert outputs[0] == outputs[1]
    assert len(records(tmp_path / "jobs1", "error")) > 200



def test_module_level_resolution_matches_libcst_scope_analysis(tmp_path: Path) -> None:
    """Files are resolved from the bindings the walk recorded, which emulate libcst's scope
    analysis; libcst's ScopeProvider on every file (the `libcst` oracle) must give the same
    bytes (pip's rich, and the fixture)."""
    for name, tree in (("rich", PIP / "_vendor" / "rich"), ("fixture", FIXTURES / "python" / "shadowing")):
        walked, oracle = tmp_path / f"{name}-bindings", tmp_path / f"{name}-libcst"
        done = subprocess.run([erratlas_command(), "scan", str(tree), "--out", str(walked), "--jobs", "2"],
                              check=False, capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, done.stderr
        done = python_oracles.run("libcst", "scan", tree, "--out", oracle, "--jobs", "2", timeout=600)
        assert done.returncode == 0, done.stderr
        assert tree_bytes(walked) == tree_bytes(oracle), name


def test_a_vendored_import_name_maps_to_the_distribution_its_manifest_lists() -> None:
    from analyzer.python.modules import vendored

    manifests = {"pkg/_vendor/vendor.txt": b"setuptools==68.0.0\nPyYAML==6.0  # comment\nsix==1.16.0\n"}
    assert vendored("pkg/_vendor/pkg_resources/__init__.py", manifests).distribution == "setuptools"  # type: ignore[union-attr]
    assert vendored("pkg/_vendor/yaml/loader.py", manifests).distribution == "PyYAML"  # type: ignore[union-attr]
    assert vendored("pkg/_vendor/six.py", manifests).distribution == "six"  # type: ignore[union-attr]
    assert vendored("pkg/_vendor/attr/x.py", manifests).distribution is None  # type: ignore[union-attr]  # attrs not listed
    assert vendored("pkg/_vendor/pkg_resources/__init__.py", {}).distribution is None  # type: ignore[union-attr]
