"""The fuzzing harness: make a case (`cases.py`), run the erratlas command on it
(`runner.py`), and check the invariants of issue 13 on every case:

- the exit status is 0 or 2 (gate: 0, 1 or 2), never 3 and never a signal; no traceback;
- on 2, stderr is one line, and the previous output directory is untouched;
- on 0, the summary's invariants hold, and a second run gives byte-identical files;
- no temporary directory is left beside the output, no worker process is left alive;
- no process of the command goes past the stated memory bound
  (`analyzer.limits.memory_bound` of the case's input bytes, plus MEMORY_PER_MAP_BYTE per
  byte of a source map, plus 64 MiB of resident program text the data bound does not count).
"""

from __future__ import annotations

import hashlib
import os
import random
import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import orjson

from analyzer.limits import MEMORY_PER_MAP_BYTE, memory_bound
from fuzz import cases
from fuzz.cases import FIFO, FIXTURES, SYMLINK, Case
from fuzz.runner import Run, run

SUMMARY = "error-diagnostic-owner-summary.json"
#: resident program text and shared libraries: the data bound does not count them
PROGRAM_TEXT = 64 << 20
#: every kind, in the order a run goes through them
KINDS = ("js-mutant", "js-shapes", "bun", "sourcemap", "rules", "python", "allowlist", "archive")
#: which part of issue 13 fixes what the harness finds in each kind
OWNERS = {"js-mutant": "A", "js-shapes": "A", "bun": "A", "sourcemap": "A", "rules": "A",
          "python": "Python engineer", "allowlist": "B", "archive": "B / Python engineer"}


@dataclass(slots=True)
class Outcome:
    case: Case
    code: int
    problems: list[str]
    seconds: float
    peak_rss: int
    stderr: str
    runs: int = 1


@dataclass(slots=True)
class Templates:
    """Outputs made once per session: what an output directory holds before a case's run."""

    root: Path
    scan: Path = field(init=False)
    extract: Path = field(init=False)
    callsite: str = field(init=False)

    def __post_init__(self) -> None:
        bundle = self.root / "previous.js"
        bundle.write_bytes((FIXTURES / "shadowing" / "bun-wrapper.js").read_bytes())
        self.scan = self.root / "previous-scan"
        made = run(["scan", str(bundle), "--out", str(self.scan)], self.root)
        if made.code != 0:
            raise RuntimeError(f"the template scan failed: {made.stderr}")
        first = (self.scan / "error-message-callsites.jsonl").read_bytes().split(b"\n", 1)[0]
        self.callsite = orjson.loads(first)["fingerprint"]
        from support.bunexe import Module, elf, graph

        executable = self.root / "previous-app"
        executable.write_bytes(elf(graph([Module("/$bunfs/root/previous.js", b"new Error('x');\n")])))
        self.extract = self.root / "previous-extract"
        made = run(["extract", str(executable), "--out", str(self.extract)], self.root)
        if made.code != 0:
            raise RuntimeError(f"the template extraction failed: {made.stderr}")


def make_case(kind: str, seed: int, number: int, templates: Templates) -> Case:
    rng = random.Random(f"{kind}:{seed}:{number}")
    scan = ("scan",)
    if kind == "js-mutant":
        files, note = cases.js_mutant(rng)
        bundle = next(iter(files))
        return Case(kind, seed, number, files, (*scan, bundle, "--out", "out"), "out", note=note, inputs=(bundle,))
    if kind == "js-shapes":
        files, note = cases.js_shapes(rng)
        return Case(kind, seed, number, files, (*scan, "bundle.js", "--out", "out"), "out", note=note,
                    inputs=("bundle.js",))
    if kind == "bun":
        files, note, extract = cases.bun(rng)
        if extract:
            return Case(kind, seed, number, files, ("extract", "app", "--out", "out"), "out", "extract",
                        note=note + ", extract", inputs=("app",))
        return Case(kind, seed, number, files, (*scan, "app", "--out", "out"), "out", note=note, inputs=("app",))
    if kind == "sourcemap":
        files, note = cases.sourcemap(rng)
        return Case(kind, seed, number, files, (*scan, "bundle.js", "--out", "out"), "out", note=note,
                    inputs=("bundle.js", "bundle.js.map"))
    if kind == "rules":
        files, note = cases.rules(rng)
        return Case(kind, seed, number, files, (*scan, "bundle.js", "--rules", "rules.toml", "--out", "out"), "out",
                    note=note, inputs=("bundle.js", "rules.toml"))
    # two Python scans in three parse in one process (the worker pool starts interpreters:
    # seconds per case); the third keeps the pool under the fuzzer
    jobs = ("--jobs", "1") if kind in ("python", "archive") and rng.random() < 0.67 else ()
    if kind == "python":
        files, note = cases.python(rng)
        return Case(kind, seed, number, files, (*scan, "app", "--out", "out", *jobs), "out", note=note,
                    inputs=tuple(files))
    if kind == "allowlist":
        files, note, verb = cases.allowlist(rng, templates.callsite)
        files["bundle.js"] = (FIXTURES / "shadowing" / "bun-wrapper.js").read_bytes()
        if verb == "scan":
            argv: tuple[str, ...] = (*scan, "bundle.js", "-a", "allow.toml", "--out", "out")
        elif verb == "project":
            argv = ("project", "out", "-a", "allow.toml")
        else:
            argv = ("gate", "out", "--min-coverage", rng.choice(("0.5", "1", "nan", "-1", "2", "x")))
        return Case(kind, seed, number, files, argv, "out", note=f"{verb}: {note}",
                    codes=(0, 1, 2) if verb == "gate" else (0, 2), inputs=("allow.toml", "bundle.js"))
    if kind == "archive":
        files, note = cases.archive(rng)
        name = next(iter(files))
        return Case(kind, seed, number, files, (*scan, name, "--out", "out", *jobs), "out", note=note, inputs=(name,))
    raise ValueError(f"unknown kind {kind}")


def write_case(case: Case, directory: Path, templates: Templates) -> None:
    for name, data in case.files.items():
        path = directory / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if data == FIFO:
            os.mkfifo(path)
        elif data.startswith(SYMLINK):
            path.symlink_to(data[len(SYMLINK):].decode())
        else:
            path.write_bytes(data)
    if case.out is not None:
        source = templates.extract if case.previous == "extract" else templates.scan
        shutil.copytree(source, directory / case.out)


def check(case: Case, templates: Templates, work: Path, mode: str = "fork", timeout: float = 180.0) -> Outcome:
    """Run `case` in a fresh directory under `work` and check every invariant (a run that
    takes longer than `timeout` seconds is killed and counts as a hang)."""
    directory = Path(tempfile.mkdtemp(prefix=f"{case.kind}-{case.number}-", dir=work))
    try:
        write_case(case, directory, templates)
        before = tree_bytes(directory / case.out) if case.out else {}
        expected = set(os.listdir(directory))
        first = run(list(case.argv), directory, timeout, mode)
        outcome = Outcome(case, first.code, _run_problems(case, first, directory), first.seconds, first.peak_rss,
                          first.stderr)
        leftover = sorted(set(os.listdir(directory)) - expected)
        if leftover:
            outcome.problems.append(f"left behind: {', '.join(leftover)}")
        if first.code == 2 and case.out and tree_bytes(directory / case.out) != before:
            outcome.problems.append("exit 2 changed the previous output directory")
        if first.code in (0, 1) and not first.hung:
            outcome.problems += _second_run(case, first, directory, templates, mode, timeout)
            outcome.runs = 2
        if first.code == 0 and case.out and case.argv[0] in ("scan", "project"):
            outcome.problems += _summary_problems(directory / case.out)
        return outcome
    finally:
        shutil.rmtree(directory, ignore_errors=True)


def _run_problems(case: Case, result: Run, directory: Path) -> list[str]:
    problems = []
    last = result.stderr.strip().splitlines()[-1:] if result.stderr.strip() else [""]
    if result.hung:
        problems.append("hung (killed after the timeout)")
    elif result.code not in case.codes:
        problems.append(f"exit {result.code}: {last[0][:300]}")
    if "Traceback" in result.stderr:
        problems.append("a traceback on stderr")
    if result.code == 2 and len(result.stderr.strip().splitlines()) != 1:
        problems.append(f"exit 2 with {len(result.stderr.strip().splitlines())} lines on stderr")
    if result.leftovers:
        problems.append(f"{result.leftovers} worker processes alive after the command ended")
    bound = case_memory_bound(case, directory)
    if result.peak_rss > bound:
        problems.append(f"peak resident set {result.peak_rss >> 20} MiB, over the bound of {bound >> 20} MiB")
    return problems


def case_memory_bound(case: Case, directory: Path) -> int:
    total = maps = 0
    for name in case.inputs:
        path = directory / name
        files = [path] if path.is_file() else [p for p in path.rglob("*") if p.is_file()] if path.is_dir() else []
        for file in files:
            size = file.stat().st_size
            total += size
            maps += size if file.name.endswith(".map") else 0
    return memory_bound(total) + MEMORY_PER_MAP_BYTE * maps + PROGRAM_TEXT


def _second_run(case: Case, first: Run, directory: Path, templates: Templates, mode: str, timeout: float) -> list[str]:
    """The same command again, into a second output directory prepared the same way: the
    same status, the same output, byte for byte."""
    argv = list(case.argv)
    if case.out is not None:
        again = f"{case.out}-again"
        source = templates.extract if case.previous == "extract" else templates.scan
        shutil.copytree(source, directory / again)
        argv = [again if a == case.out else a for a in argv]
    second = run(argv, directory, timeout, mode)
    if second.code != first.code:
        return [f"nondeterministic: exit {first.code}, then {second.code}"]
    if case.out is None:
        return [] if second.stdout == first.stdout else ["nondeterministic: stdout differs"]
    ours = tree_bytes(directory / case.out)
    theirs = tree_bytes(directory / f"{case.out}-again")
    if ours != theirs:
        differing = sorted(n for n in set(ours) | set(theirs) if ours.get(n) != theirs.get(n))
        return [f"nondeterministic output: {', '.join(differing[:5])}"]
    return []


def _summary_problems(out: Path) -> list[str]:
    try:
        summary = orjson.loads((out / SUMMARY).read_bytes())
    except (OSError, orjson.JSONDecodeError) as exc:
        return [f"no readable summary after exit 0 ({exc})"]
    broken = [row["name"] for row in summary.get("invariants", []) if not row.get("holds")]
    return [f"summary invariant broken: {name}" for name in broken]


def tree_bytes(directory: Path) -> dict[str, bytes]:
    if not directory.is_dir():
        return {}
    return {p.relative_to(directory).as_posix(): p.read_bytes() for p in sorted(directory.rglob("*")) if p.is_file()}


def cases_of(kinds: tuple[str, ...], per_kind: int, seed: int, templates: Templates) -> Iterator[Case]:
    """`per_kind` cases of each kind, kinds interleaved (a bounded run covers them all)."""
    for number in range(per_kind):
        for kind in kinds:
            yield make_case(kind, seed, number, templates)


def fingerprint(case: Case) -> str:
    """A short digest of what a case runs, to tell cases apart in a report."""
    digest = hashlib.sha256(repr((case.argv, sorted((k, hashlib.sha256(v).hexdigest()) for k, v in case.files.items())))
                            .encode())
    return digest.hexdigest()[:12]
