"""A Python input -> UnitFacts, files parsed in parallel.

load (bundle.python_inputs) -> vocabulary (every name that may denote a class of the input,
by a textual scan: a superset, so a file never misses a candidate) -> extract each file (in
`jobs` worker processes, biggest files first: `analyzer.python.workers`) -> settle across
modules (hierarchy) -> one `python-package` module per unit (modules.jsonl, `suggest`
evidence). Results are put back in unit order before anything depends on them, so `--jobs N`
output is byte-identical to `--jobs 1`.
"""

from __future__ import annotations

import functools
from pathlib import Path

from analyzer.bundle.python_inputs import load_python_input
from analyzer.errors import InputError
from analyzer.facts import HANDLERS, FrontendScan, UnitFacts
from analyzer.parallel.executor import Inline
from analyzer.python.extract import extract_file
from analyzer.python.filefacts import PYTHON_ANCHOR_LIMIT, FileFacts, FileTask, Vocabulary
from analyzer.python.hierarchy import settle
from analyzer.python.modules import module_map, module_names, vendored
from analyzer.python.rules import compile_rules, for_input
from analyzer.python.vocabulary import input_vocabulary
from analyzer.python.workers import (
    WORKER_MEMORY,
    Pool,
    WorkerFailed,
    WorkerLost,
    limit_memory,
    quiet_gc,
)
from analyzer.readable import as_written
from analyzer.rules import Rules


def scan_python(path: Path, rules: Rules, executor: Inline) -> FrontendScan:
    bundle = load_python_input(path)
    names = [unit.name for unit in bundle.units]
    modules = module_names(names)
    compiled = for_input(compile_rules(rules), (module.name for module in modules.values()))
    tasks = [FileTask(unit, modules[unit.name].name, modules[unit.name].package) for unit in bundle.units]
    vocabulary = input_vocabulary(compiled, (unit.source for unit in bundle.units))
    files = extract_all(path, tasks, vocabulary, executor)
    evidence = {name: vendored(name, bundle.manifests) for name in names}
    units = settle(files, bundle.units, compiled, modules, evidence)
    module_rows = module_map(units, [f.module_digest for f in files], modules, evidence)
    renderings = {u.unit.name: as_written(u.unit.source) for u in units if u.sites or _has_handlers(u)}
    return FrontendScan(bundle.name, bundle.sha256, bundle.size, units, renderings, module_rows, PYTHON_ANCHOR_LIMIT)


def extract_all(path: Path, tasks: list[FileTask], vocabulary: Vocabulary, executor: Inline) -> list[FileFacts]:
    """Every file's facts, made in the executor's `jobs` worker processes (one for `--jobs 1`: a
    parser crash never takes the scan down); biggest files first, results in file order."""
    order = sorted(range(len(tasks)), key=lambda i: (-len(tasks[i].unit.source), i))
    pool = Pool(tasks, functools.partial(_extract, vocabulary=vocabulary), executor.jobs, prepare=_prepare_worker,
                fork=executor.forks)
    try:
        return pool.run(order)
    except WorkerLost as lost:
        where = _named(path, tasks[lost.index].unit.name)
        raise InputError(path, f"{where}the Python parser died on this file ({lost.how})") from None
    except WorkerFailed as failed:
        where = _named(path, tasks[failed.index].unit.name)
        if failed.kind == "memory":
            raise InputError(
                path, f"{where}parsing it needs more than {WORKER_MEMORY // 2**30} GiB of memory"
            ) from None
        raise RuntimeError(f"{where}{failed.message}") from None


def _has_handlers(unit: UnitFacts) -> bool:
    handlers = unit.extra(HANDLERS)
    return handlers is not None and bool(handlers.handlers)


def _named(path: Path, unit: str) -> str:
    """`unit: ` for a unit of a tree or an archive; nothing for a lone `.py` (the path names it)."""
    return "" if unit == path.name and not path.is_dir() else f"{unit}: "


def _extract(task: FileTask, vocabulary: Vocabulary) -> FileFacts:
    return extract_file(task, vocabulary)


def _prepare_worker() -> None:
    limit_memory()
    quiet_gc()
