"""Every public exception class of the running CPython's standard library, by every dotted name a user
can import it as: the `[errors] external` list of the Python rules (docs/reference.md, "Rules").

usage: python bench/stdlib_exceptions.py            # the names, sorted, one a line
       python bench/stdlib_exceptions.py --write    # rewrite rules/python.toml and its shipped copy

Modules: every name of `sys.stdlib_module_names` and, under each package, every submodule
(`pkgutil.iter_modules`, recursively), imported one by one in sorted order, less

- private ones: a dotted part that starts with `_` (`_lzma`, `concurrent.futures._base`,
  `asyncio.__main__`), and `builtins` (the rules' `builtins` list names those classes);
- test suites and tools that are not libraries (`SKIPPED`): `test`, `tests`, `idlelib`,
  `tkinter`, `turtle`, `turtledemo`, `lib2to3`, `ensurepip`, `pydoc_data`, and modules whose
  import does something (`antigravity` opens a browser, `this` prints, `readline` and
  `rlcompleter` set up the terminal);
- `distutils`: once setuptools is installed its `distutils-precedence.pth` makes `import
  distutils` load setuptools' copy, so the classes a scan would read are not the standard
  library's;
- modules that do not import on this Python (platform-only ones: `winreg`, `msvcrt`,
  `asyncio.windows_events`; extensions left out of this build: `dbm.gnu` without gdbm). Their
  names go to stderr.

Names (the alias rule): `module.NAME` for every public name (not starting with `_`) that a module
binds to a subclass of `BaseException`, whoever defines the class. So a class is listed under
the module that defines it (`tarfile.CompressionError`), under each public module that re-exports
it (`json.JSONDecodeError`, `asyncio.CancelledError`, `lzma.LZMAError` from `_lzma`,
`urllib.request.HTTPError`, `sre_constants.error`), and under each alias a module gives it
(`zipfile.BadZipfile`, `ssl.CertificateError`), a builtin class too (`os.error`,
`select.error`, `socket.error` are `OSError`; `socket.timeout`, `asyncio.TimeoutError` are
`TimeoutError`). Any such spelling runs and names exactly that class, so listing it is exact;
which spellings people write is not decidable, and an unused name costs one string.

The list depends on the Python version (and on which optional extensions its build has):
rules/python.toml says which CPython wrote it.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import io
import pkgutil
import platform
import re
import sys
import warnings
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent
RULES = (ROOT / "rules" / "python.toml", ROOT / "analyzer" / "rules" / "python.toml")
SKIPPED = frozenset({
    "antigravity", "builtins", "distutils", "ensurepip", "idlelib", "lib2to3", "pydoc_data", "readline",
    "rlcompleter", "test", "tests", "this", "tkinter", "turtle", "turtledemo",
})
#: the widest line of the wrapped lists of rules/python.toml
WIDTH = 95
#: the comment line above `external` that names the Python the list was written with
GENERATED = re.compile(r"^# Written by bench/stdlib_exceptions\.py on CPython (\d+\.\d+\.\d+) \(([^)]*)\)\.$",
                       re.MULTILINE)
_EXTERNAL = re.compile(r"^external = \[\n(?:  .*\n)*\]\n", re.MULTILINE)


def _skipped(name: str) -> bool:
    return any(part.startswith("_") or part in SKIPPED for part in name.split("."))


def _imported(name: str) -> ModuleType | None:
    """The module, or None when it does not import here (its output and warnings silenced)."""
    try:
        with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
            warnings.simplefilter("ignore")
            return importlib.import_module(name)
    except Exception as error:  # a platform-only module, or an extension this build lacks
        print(f"not importable here: {name} ({type(error).__name__}: {error})", file=sys.stderr)
        return None


def public_modules() -> list[ModuleType]:
    """The public modules of the standard library, imported, sorted by name."""
    found: dict[str, ModuleType] = {}
    pending = sorted((n for n in sys.stdlib_module_names if not _skipped(n)), reverse=True)
    while pending:
        name = pending.pop()
        module = _imported(name)
        if module is None:
            continue
        found[name] = module
        path = getattr(module, "__path__", None)
        if path is not None:
            children = (f"{name}.{m.name}" for m in pkgutil.iter_modules(path))
            pending.extend(sorted((n for n in children if not _skipped(n)), reverse=True))
    return [found[n] for n in sorted(found)]


def exception_names(modules: list[ModuleType]) -> list[str]:
    """`module.NAME` for each public name a module binds to an exception class (the alias rule)."""
    names = set()
    for module in modules:
        for attribute, value in vars(module).items():
            if not attribute.startswith("_") and isinstance(value, type) and issubclass(value, BaseException):
                names.add(f"{module.__name__}.{attribute}")
    return sorted(names)


def wrapped(names: list[str]) -> str:
    """The TOML array, wrapped as the file's other lists are."""
    lines, line = [], ""
    for item in (f'"{n}",' for n in names):
        if line and len(line) + 1 + len(item) > WIDTH:
            lines.append(line)
            line = ""
        line = f"{line} {item}" if line else f"  {item}"
    lines.append(line)
    return "external = [\n" + "\n".join(lines) + "\n]\n"


def rewritten(text: str, names: list[str]) -> str:
    """The rules file with its `external` array and the Python its comment names replaced."""
    if len(_EXTERNAL.findall(text)) != 1 or len(GENERATED.findall(text)) != 1:
        raise SystemExit("rules/python.toml: expected one `external = [` array and one 'Written by' line")
    version = f"# Written by bench/stdlib_exceptions.py on CPython {platform.python_version()} ({sys.platform})."
    text = GENERATED.sub(version, text)
    return _EXTERNAL.sub(lambda _: wrapped(names), text)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="rewrite rules/python.toml and its shipped copy")
    args = parser.parse_args()
    names = exception_names(public_modules())
    if not args.write:
        sys.stdout.write("".join(f"{n}\n" for n in names))
        return
    for path in RULES:
        path.write_text(rewritten(path.read_text(), names))
    print(f"{len(names)} names -> {', '.join(str(p.relative_to(ROOT)) for p in RULES)}", file=sys.stderr)


if __name__ == "__main__":
    main()
