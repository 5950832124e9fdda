"""The import graph shows the pipeline (STYLE.md): no cycles, frontends never reach reports or
owners, the Python frontend never the JavaScript one, the owners stage never a frontend, no
module over 500 lines, and the verbs that only read a scan directory never import a parser.

Read from the source with `ast`, so anyone can run it: `python -m pytest tests/test_architecture.py`.
An import anywhere in a module is an edge (a function's lazy import too); an import under
`if TYPE_CHECKING:` is not (it never runs), but for the tests of the graph of every import, which
count it: an annotation names what a module depends on as much as a call does.
"""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import orjson
import pytest
from conftest import FIXTURES, ROOT, scan

PACKAGE = ROOT / "analyzer"
FRONTENDS = ("analyzer.javascript", "analyzer.python")
PARSERS = ("tree_sitter", "tree_sitter_javascript", "libcst")
#: the line limit of a module (STYLE.md: a module holds one idea)
MAX_LINES = 500
#: modules still over the limit, split by other work of issue 12: each must fail the limit (a
#: strict xfail), so that the entry goes when its module is split


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


SOURCES = {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _import_nodes(body: list[ast.stmt], module_level: bool) -> Iterator[ast.Import | ast.ImportFrom]:
    """The imports that run: all of them, or (`module_level`) those that run when the module
    is imported (not inside a function). Never those under `if TYPE_CHECKING:`."""
    pending = list(body)
    while pending:
        node = pending.pop()
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        elif isinstance(node, ast.If) and _is_type_checking(node):
            pending.extend(node.orelse)
        elif module_level and isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            continue
        else:
            pending.extend(child for child in ast.iter_child_nodes(node) if isinstance(child, ast.stmt))


def _targets(node: ast.Import | ast.ImportFrom, importer: str) -> set[str]:
    """The modules an import names: `from a.b import c` is `a.b.c` when that is a module."""
    if isinstance(node, ast.Import):
        return {alias.name for alias in node.names}
    base = node.module or ""
    if node.level:  # relative: from the importer's package
        package = importer.split(".") if SOURCES[importer].name == "__init__.py" else importer.split(".")[:-1]
        base = ".".join(package[: len(package) - node.level + 1] + ([base] if base else []))
    found = {base}
    found.update(f"{base}.{alias.name}" for alias in node.names if f"{base}.{alias.name}" in SOURCES)
    return found


def _graph(module_level: bool) -> dict[str, set[str]]:
    graph = {}
    for name, path in SOURCES.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        graph[name] = {t for node in _import_nodes(tree.body, module_level) for t in _targets(node, name)} - {name}
    return graph


EDGES = _graph(module_level=False)
LOAD_EDGES = _graph(module_level=True)


def _edges_from(prefix: str) -> Iterator[tuple[str, str]]:
    for module, targets in sorted(EDGES.items()):
        if module == prefix or module.startswith(prefix + "."):
            yield from ((module, target) for target in sorted(targets))


def _within(name: str, *prefixes: str) -> bool:
    return any(name == p or name.startswith(p + ".") for p in prefixes)


def test_the_import_graph_has_no_cycles_at_load() -> None:
    cycle = _a_cycle({m: {t for t in targets if t in SOURCES} for m, targets in LOAD_EDGES.items()})
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


@pytest.mark.parametrize("frontend", FRONTENDS)
def test_a_frontend_never_imports_reports_or_owners(frontend: str) -> None:
    bad = [edge for edge in _edges_from(frontend) if _within(edge[1], "analyzer.reports", "analyzer.owners")]
    assert not bad, bad


def test_the_python_frontend_never_imports_the_javascript_one() -> None:
    bad = [edge for edge in _edges_from("analyzer.python")
           if _within(edge[1], "analyzer.javascript", "tree_sitter", "tree_sitter_javascript")]
    assert not bad, bad


def test_the_owners_stage_never_imports_a_frontend() -> None:
    """The corpus is handed the JavaScript frontend's indexer by the CLI, which knows both."""
    bad = [edge for edge in _edges_from("analyzer.owners") if _within(edge[1], *FRONTENDS, "analyzer.scan", *PARSERS)]
    assert not bad, bad


#: modules every frontend and every reader of a scan directory shares: the facts, the records,
#: identities and the scan directory's home (`scandir`)
NEUTRAL = ("analyzer.facts", "analyzer.model", "analyzer.handler_model", "analyzer.diff_model",
           "analyzer.summary_model", "analyzer.identity", "analyzer.scandir")


def _every_import_graph() -> dict[str, set[str]]:
    """Module -> the analyzer modules it imports anywhere, `if TYPE_CHECKING:` included."""
    graph = {}
    for name, path in SOURCES.items():
        nodes = [n for n in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
                 if isinstance(n, (ast.Import, ast.ImportFrom))]
        graph[name] = {t for node in nodes for t in _targets(node, name)} - {name}
    return graph


def _a_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of `graph` (its modules in order, the first again at the end), else None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    for start in sorted(graph):
        if state.get(start):
            continue
        state[start] = 1
        stack = [(start, iter(sorted(graph[start])))]
        while stack:
            node, children = stack[-1]
            child = next(children, None)
            if child is None:
                state[node] = 2
                stack.pop()
            elif state.get(child) == 1:
                path = [n for n, _ in stack] + [child]
                return path[path.index(child):]
            elif not state.get(child):
                state[child] = 1
                stack.append((child, iter(sorted(graph[child]))))
    return None


def test_the_graph_of_every_import_type_checking_included_has_no_cycle() -> None:
    every = _every_import_graph()
    cycle = _a_cycle({m: {t for t in targets if t in SOURCES} for m, targets in every.items()})
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_the_neutral_modules_never_import_a_frontend_or_a_parser_even_for_annotations() -> None:
    """`facts` holds what every frontend produces; what one frontend alone produces is in that
    frontend's side table, asked for by capability (`facts.Capability`), never named here."""
    bad = [(module, target) for module, targets in sorted(_every_import_graph().items()) if _within(module, *NEUTRAL)
           for target in sorted(targets) if _within(target, *FRONTENDS, *PARSERS)]
    assert not bad, bad

def test_reports_and_owners_never_import_each_other() -> None:
    """They meet in `scandir` and `model`; `projected` and the CLI compose them."""
    every = _every_import_graph()
    both = sorted((m, t) for m, ts in every.items() for t in ts
                  if (_within(m, "analyzer.reports") and _within(t, "analyzer.owners"))
                  or (_within(m, "analyzer.owners") and _within(t, "analyzer.reports")))
    assert not both, both


def test_every_verb_reads_and_writes_a_scan_directory_through_scandir() -> None:
    """The atomic write and the verified read live in analyzer.scandir alone."""
    names = ("def write_directory", "def read_directory", "def verify(", "def check_replaceable")
    found = {name: [m for m, p in SOURCES.items() if name in p.read_text(encoding="utf-8")] for name in names}
    assert all(all(m.startswith("analyzer.scandir.") for m in modules) and modules for modules in found.values()), found


def _line_count(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def test_no_module_is_over_the_line_limit() -> None:
    long = {str(p.relative_to(ROOT)): n for p in SOURCES.values()
            if (n := _line_count(p)) > MAX_LINES}
    assert not long, long


# ---- verbs that read a scan directory --------------------------------------------------------

_LOADED = f"""
import sys
import analyzer.cli as cli
try:
    code = cli.app(sys.argv[1:], standalone_mode=False)
except SystemExit as exc:
    code = exc.code
print("exit", code)
print("loaded", ",".join(sorted(m for m in sys.modules if m.split(".")[0] in {PARSERS!r}
                               or m.startswith(("analyzer.javascript", "analyzer.python")))))
"""


@pytest.fixture(scope="module")
def demo_scan(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("architecture") / "scan"
    scan(FIXTURES / "demo" / "demo.min.js", out)
    return out


def _verb_arguments(verb: str, directory: Path, work: Path) -> list[str]:
    first = orjson.loads((directory / "error-message-callsites.jsonl").read_bytes().split(b"\n", 1)[0])
    allowlist = work / "reviewed.toml"
    allow = ["allow", str(directory), first["id"], "-a", str(allowlist), "--owner", "Product",
             "--reason", "checked", "--reviewer", "architecture-test"]
    return {
        "gate": ["gate", str(directory)],
        "project": ["project", str(directory)],
        "allow": allow,
        "prune": ["prune", str(directory), "-a", str(allowlist)],
        "diff": ["diff", str(directory), str(directory), "--out", str(work / "diff")],
        "sarif": ["sarif", str(directory), "--out", str(work / "log.sarif")],
        "explain": ["explain", str(directory), first["id"]],
    }[verb]


def _run(arguments: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", _LOADED, *arguments], check=False, capture_output=True, text=True,
                          cwd=cwd, timeout=120)


@pytest.mark.parametrize("verb", ["gate", "project", "allow", "prune", "diff", "sarif", "explain"])
def test_a_verb_that_reads_a_scan_directory_imports_no_parser(verb: str, demo_scan: Path, tmp_path: Path) -> None:
    """Run the verb to its end in a fresh interpreter, then list the parser modules it loaded."""
    directory = tmp_path / "scan"
    shutil.copytree(demo_scan, directory)
    if verb == "prune":  # something to prune: an entry written by `allow`
        done = _run(_verb_arguments("allow", directory, tmp_path), tmp_path)
        assert "exit None" in done.stdout, done.stdout + done.stderr
    done = _run(_verb_arguments(verb, directory, tmp_path), tmp_path)
    lines = dict(line.split(" ", 1) for line in done.stdout.splitlines() if line.startswith(("exit ", "loaded ")))
    assert lines.get("exit") in ("0", "1", "None"), done.stdout + done.stderr
    assert lines.get("loaded") == "", f"{verb} imports {lines.get('loaded')}"


# ---- tables, and no history in the code ---------------------------------------------------------

#: the environment variables the package reads, each documented: none chooses how an analysis is
#: done (implementations an oracle needs are replaced by tests/support/, never by a variable)
ENVIRONMENT = {"ERRATLAS_CACHE", "ERRATLAS_DEBUG", "ERRATLAS_PYTHON_MAX_NESTING",
               "ERRATLAS_RENDER_WORKER", "ERRATLAS_TRACE"}
#: a module docstring says what and why in a few lines; measured reasons go to docs/
MAX_DOCSTRING = 600
#: history in code: "SPEC n" (a document outside the repository), "issue n", `# -- ... --` markers,
#: "as before" (a behaviour is said as it is, not against an older one)
_HISTORY = re.compile(r"\bSPEC \d|\(SPEC\b|\bissues? \d+|^\s*# -- |\b[Aa]s before\b", re.MULTILINE)


def test_no_module_refers_to_a_spec_an_issue_or_a_section_marker() -> None:
    found = {name: len(_HISTORY.findall(path.read_text(encoding="utf-8"))) for name, path in SOURCES.items()}
    assert {name: count for name, count in found.items() if count} == {}


def test_no_module_docstring_is_an_essay() -> None:
    long = {name: len(doc) for name, path in SOURCES.items()
            if len(doc := ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")), clean=False) or "")
            > MAX_DOCSTRING}
    assert not long, long


def test_the_environment_the_package_reads_is_a_documented_table() -> None:
    read = {word for path in SOURCES.values() for word in re.findall(r"ERRATLAS_[A-Z_]+", path.read_text())}
    assert read == ENVIRONMENT
    documented = "".join(p.read_text(encoding="utf-8") for p in [ROOT / "README.md", *(ROOT / "docs").glob("*.md")])
    assert not {name for name in ENVIRONMENT if name not in documented}


def _finders_table() -> set[str]:
    tree = ast.parse(SOURCES["analyzer.javascript.modules"].read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.target.id == "FINDERS":
            assert isinstance(node.value, ast.Tuple)
            return {f"analyzer.javascript.modules.{ast.unparse(e).rsplit('.', 1)[0]}" for e in node.value.elts}
    raise AssertionError("analyzer/javascript/modules/__init__.py has no FINDERS table")


def test_every_bundler_module_finder_is_in_the_one_table_with_the_one_signature() -> None:
    """Each format's `FINDER = Finder(__name__, part, merge)`: `part(Where)` per tree, `merge(parts,
    Merging) -> Found` per unit (docs/modules.md, "A new bundler format")."""
    finders = set()
    for name, path in SOURCES.items():
        if not name.startswith("analyzer.javascript.modules."):
            continue
        body = ast.parse(path.read_text(encoding="utf-8")).body
        declared = [node for node in body if isinstance(node, ast.Assign)
                    and any(isinstance(t, ast.Name) and t.id == "FINDER" for t in node.targets)]
        if not declared:
            continue
        assert ast.unparse(declared[0].value) == "Finder(__name__, part, merge)", name
        functions = {node.name: node for node in body if isinstance(node, ast.FunctionDef)}
        part, merge = functions["part"], functions["merge"]
        assert [ast.unparse(a.annotation) for a in part.args.args if a.annotation] == ["Where"], name
        assert [ast.unparse(a.annotation) for a in merge.args.args if a.annotation][1:] == ["Merging"], name
        assert merge.returns is not None and ast.unparse(merge.returns) == "Found", name
        finders.add(name)
    assert finders == _finders_table()


def _layout() -> dict[str, str]:
    """Folder (`analyzer/javascript/modules`) -> the README layout text about it."""
    text = (ROOT / "README.md").read_text(encoding="utf-8").split("## Layout", 1)[1]
    block = text.split("```", 2)[1].strip("\n").splitlines()
    assert len(block) <= 40, f"the layout is {len(block)} lines: it must fit one screen"
    wide = [line for line in block if len(line) > 120]
    assert not wide, f"layout lines wider than a screen of 120 columns: {wide}"
    folders: dict[str, str] = {}
    path: list[str] = []
    current = ""
    for line in block:
        head = line.split("  ", 1)[0] if not line.startswith(" ") else line.lstrip().split(" ", 1)[0]
        indent = len(line) - len(line.lstrip())
        if head.endswith("/") and indent % 2 == 0 and line.lstrip().startswith(head):
            path = [*path[: indent // 2], head.rstrip("/")]
            current = "/".join(path)
            folders[current] = ""
        folders[current] += " " + line
    return folders


def test_the_readme_layout_names_every_module_under_its_folder_in_one_screen() -> None:
    folders = _layout()
    missing = []
    for name, path in SOURCES.items():
        if path.name in ("__init__.py", "__main__.py"):
            continue
        folder = path.parent.relative_to(ROOT).as_posix()
        if not re.search(rf"(?<![\w/]){re.escape(path.stem)}(?!\w)", folders.get(folder, "")):
            missing.append(name)
    assert not missing, missing


def test_every_module_imports() -> None:
    """mypy is told to ignore missing imports (third-party stubs): an import of a module that no
    longer exists would pass it and fail only when that code path runs."""
    import importlib
    import pkgutil

    import analyzer

    for module in pkgutil.walk_packages(analyzer.__path__, "analyzer."):
        importlib.import_module(module.name)
