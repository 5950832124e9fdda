"""A Python bundle -> UnitFacts, files parsed in parallel.

load (bundle.python_inputs) -> vocabulary (every name that may denote a class of the bundle,
by a textual scan: a superset, so a file never misses a candidate) -> extract each file (a
process pool of `jobs` spawned workers, biggest files first) -> settle across modules
(hierarchy) -> one `python-package` module per unit (modules.jsonl, `suggest` evidence).
Results are put back in unit order before anything depends on them, so `--jobs N` output is
byte-identical to `--jobs 1`.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
import multiprocessing
import os
import re
import signal
from dataclasses import dataclass
from pathlib import Path

from analyzer.bundle.python_inputs import PythonBundle, load_python_bundle
from analyzer.javascript.extract import UnitFacts
from analyzer.javascript.modules import BundleModules
from analyzer.python.extract import FileFacts, FileTask, Vocabulary, extract_file
from analyzer.python.hierarchy import settle
from analyzer.python.modules import module_map, module_names, vendored
from analyzer.reports.readable import Rendering, as_written
from analyzer.rules import PythonRules

#: names that may denote a class of the bundle, found textually (anywhere, also in strings and
#: comments: a superset is harmless, a miss is not): `class Name`, `import ... as Name` and
#: `Name = dotted.name` (aliases); backslash continuations are joined first
_CLASS_NAME = re.compile(r"\bclass[ \t\f]+([^\W\d]\w*)")
_IMPORT_LINE = re.compile(r"\bimport[ \t\f]+([^\n#(]*)")
_IMPORT_PARENTHESES = re.compile(r"\bimport[ \t\f]*\(([^)]*)\)")
_AS_NAME = re.compile(r"\bas[ \t\f\n]+([^\W\d]\w*)")
_ALIAS = re.compile(r"^[ \t]*([^\W\d]\w*)[ \t]*=[ \t]*[^\W\d][\w.]*[ \t]*(?:#.*)?$", re.MULTILINE)


@dataclass(frozen=True, slots=True)
class PythonScan:
    bundle: PythonBundle
    units: list[UnitFacts]
    #: one `python-package` module per unit
    modules: BundleModules
    #: Python is its own readable rendering: the unit as shipped, for units with callsites
    renderings: dict[str, Rendering]


def scan_python(path: Path, rules: PythonRules, jobs: int) -> PythonScan:
    bundle = load_python_bundle(path)
    names = [unit.name for unit in bundle.units]
    modules = module_names(names)
    tasks = [FileTask(unit, modules[unit.name].name, modules[unit.name].package) for unit in bundle.units]
    vocabulary = Vocabulary(rules, *_names(bundle))
    files = extract_all(tasks, vocabulary, jobs)
    evidence = {name: vendored(name, bundle.manifests) for name in names}
    units = settle(files, bundle.units, rules, modules, evidence)
    module_rows = module_map(units, [f.module_digest for f in files], modules, evidence)
    renderings = {u.unit.name: as_written(u.unit.source) for u in units if u.sites}
    return PythonScan(bundle, units, module_rows, renderings)


def _names(bundle: PythonBundle) -> tuple[frozenset[str], frozenset[str]]:
    """(names that may denote a class of the bundle, names bound by `import ... as`)."""
    classes: set[str] = set()
    aliases: set[str] = set()
    for unit in bundle.units:
        text = unit.source.decode("utf-8", "replace").replace("\\\n", " ").replace("\\\r\n", " ")
        if "class" in text:
            classes.update(_CLASS_NAME.findall(text))
        if "import" in text:
            for clause in (*_IMPORT_LINE.findall(text), *_IMPORT_PARENTHESES.findall(text)):
                aliases.update(_AS_NAME.findall(clause))
        classes.update(_ALIAS.findall(text))
    return frozenset(classes | aliases), frozenset(aliases)


def extract_all(tasks: list[FileTask], vocabulary: Vocabulary, jobs: int) -> list[FileFacts]:
    if jobs <= 1 or len(tasks) < 2:
        _quiet_gc()
        return [extract_file(task, vocabulary) for task in tasks]
    results: list[FileFacts | None] = [None] * len(tasks)
    order = sorted(range(len(tasks)), key=lambda i: (-len(tasks[i].unit.source), i))
    context = multiprocessing.get_context("spawn")
    workers = min(jobs, len(tasks))
    with context.Pool(workers, initializer=_start_worker, initargs=(vocabulary, os.getpid())) as pool:
        for index, facts in pool.imap_unordered(_work, [(i, tasks[i]) for i in order], chunksize=1):
            results[index] = facts
    return results  # type: ignore[return-value]


_vocabulary: Vocabulary | None = None
_PR_SET_PDEATHSIG = 1


def _start_worker(vocabulary: Vocabulary, parent: int) -> None:
    global _vocabulary
    _vocabulary = vocabulary
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle: it ends the pool
    _die_with(parent)
    _quiet_gc()


def _die_with(parent: int) -> None:
    """A killed scan leaves no worker behind (Linux: the kernel kills us when the parent dies)."""
    name = ctypes.util.find_library("c")
    prctl = getattr(ctypes.CDLL(name), "prctl", None) if name else None
    if prctl is not None:
        prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:  # it died before we asked
        os._exit(1)


def _work(job: tuple[int, FileTask]) -> tuple[int, FileFacts]:
    index, task = job
    assert _vocabulary is not None
    return index, extract_file(task, _vocabulary)


def _quiet_gc() -> None:
    """libcst allocates millions of small acyclic nodes: collect the young generation less
    often (cycles, from scope objects, are still collected)."""
    gc.freeze()
    gc.set_threshold(50_000, 50, 100)
