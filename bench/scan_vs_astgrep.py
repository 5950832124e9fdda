"""Time a full `erratlas scan` against a bare `ast-grep` pattern search on the same bundle.

usage: python bench/scan_vs_astgrep.py [--runs N] [--jobs-1] [--target PATH | --package P --version V]

(a) `erratlas scan FILE --out TMPDIR`, the installed command, all outputs written (and with
    `--jobs-1`, the same with `--jobs 1`);
(b) `ast-grep run -p 'Error($$$A)' --lang js FILE --json=stream`, matches written to a
    temporary file and counted after the run.

All run as child processes, interleaved (erratlas, [erratlas --jobs 1,] ast-grep, erratlas, ...)
after one unmeasured warm-up each; medians with the range of every run in brackets. Wall time
is taken around spawn and reap; peak RSS (of the largest single process) and CPU time come
from the child's rusage (`os.wait4`); the peak sum of PSS over the command's whole process
tree is sampled from /proc every 50 ms (erratlas forks workers). When the target is a Bun
executable, erratlas scans the executable and ast-grep scans the entry module's JavaScript,
extracted once beforehand with `analyzer.bundle.bun.read_bun_executable`. Prints a markdown
table.

Default target: package/cli.js of @anthropic-ai/claude-code@2.1.100, from the verified cache of
tests/support/npm_cache.py (fetched with `npm pack` on first use).
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import os
import pathlib
import platform
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

REPOSITORY = pathlib.Path(__file__).resolve().parent.parent
SUMMARY = "error-diagnostic-owner-summary.json"
PATTERN = "Error($$$A)"
EXECUTABLE_MAGICS = (
    b"\x7fELF",
    b"MZ",
    b"\xcf\xfa\xed\xfe",  # Mach-O 64-bit, little-endian
    b"\xce\xfa\xed\xfe",
    b"\xca\xfe\xba\xbe",  # universal
)


@dataclasses.dataclass
class Run:
    wall: float  # seconds
    cpu: float  # user + system seconds of the child (and anything it reaped)
    maxrss: int  # bytes: the largest single process (rusage)
    pss: int  # bytes: the largest sampled sum of PSS over the child and its descendants
    user: float = 0.0  # user seconds (part of `cpu`)
    system: float = 0.0  # system seconds (part of `cpu`): page faults, mostly
    faults: int = 0  # minor page faults


@dataclasses.dataclass
class Tool:
    label: str
    command: list[str]
    runs: list[Run] = dataclasses.field(default_factory=list)
    output: str = ""

    def median(self, field: str) -> float:
        return statistics.median(getattr(run, field) for run in self.runs)

    def minimum(self, field: str) -> float:
        return min(getattr(run, field) for run in self.runs)


def find_command(name: str, override: str | None) -> str:
    if override:
        return override
    sibling = pathlib.Path(sys.executable).parent / name
    found = str(sibling) if sibling.exists() else shutil.which(name)
    if found is None:
        raise SystemExit(f"`{name}` not found next to {sys.executable} or on PATH")
    return found


def run_child(command: list[str], stdout: pathlib.Path, stderr: pathlib.Path,
              stdin: pathlib.Path | None = None) -> tuple[Run, int]:
    """Spawn, reap with wait4, and measure one child (and, on Linux, its process tree's PSS);
    `stdin`: a file given on its standard input (default: none)."""
    with stdout.open("wb") as out, stderr.open("wb") as err, \
            (stdin.open("rb") if stdin is not None else open(os.devnull, "rb")) as given:
        start = time.perf_counter()
        process = subprocess.Popen(command, stdin=given, stdout=out, stderr=err)
        sampler = PssSampler(process.pid)
        sampler.start()
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - start
        sampler.done.set()
        sampler.join()
    process.returncode = os.waitstatus_to_exitcode(status)  # reaped here, not by Popen
    scale = 1 if sys.platform == "darwin" else 1024  # ru_maxrss: bytes on macOS, KiB on Linux
    maxrss = usage.ru_maxrss * scale
    return Run(wall, usage.ru_utime + usage.ru_stime, maxrss, sampler.peak or maxrss, usage.ru_utime, usage.ru_stime,
               usage.ru_minflt), process.returncode


class PssSampler(threading.Thread):
    """Every 50 ms, the sum of PSS (proportional set size: shared pages split between the
    processes sharing them) over a process and its descendants, from /proc/<pid>/smaps_rollup.
    Forked workers share their parent's pages copy-on-write; summing their RSS would count
    those pages twice, the largest RSS alone would miss the workers' own memory."""

    def __init__(self, root: int) -> None:
        super().__init__(daemon=True)
        self.root, self.peak, self.done = root, 0, threading.Event()

    def run(self) -> None:
        if not pathlib.Path("/proc/self/smaps_rollup").exists():
            return
        while not self.done.wait(0.05):
            self.peak = max(self.peak, sum(_pss(pid) for pid in _tree(self.root)))


def _tree(root: int) -> list[int]:
    found, stack = [], [root]
    while stack:
        pid = stack.pop()
        found.append(pid)
        try:
            for task in pathlib.Path(f"/proc/{pid}/task").iterdir():
                stack.extend(int(c) for c in (task / "children").read_text().split())
        except OSError:
            continue
    return found


def _pss(pid: int) -> int:
    try:
        for line in pathlib.Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1]) * 1024
    except (OSError, ValueError):
        pass
    return 0


def fail(label: str, code: int, stderr: pathlib.Path) -> None:
    tail = "\n".join(stderr.read_text(errors="replace").strip().splitlines()[-10:])
    raise SystemExit(f"{label} exited {code}:\n{tail}")


def is_executable(path: pathlib.Path) -> bool:
    with path.open("rb") as handle:
        return handle.read(4).startswith(EXECUTABLE_MAGICS)


def extract_entry_module(binary: pathlib.Path, workdir: pathlib.Path) -> tuple[pathlib.Path, str]:
    from analyzer.bundle.bun import read_bun_executable, text_bytes
    from analyzer.errors import InputError

    try:
        modules = read_bun_executable(binary)
    except InputError as error:
        raise SystemExit(f"{binary}: not a readable Bun executable: {error}") from None
    entry = modules[0]
    if not entry.has_source:
        raise SystemExit(f"{binary}: entry module {entry.path} carries no source")
    script = workdir / "entry.js"
    text = text_bytes(entry)  # what the scan reads: a module Bun stored as UTF-16 or Latin-1, in UTF-8
    script.write_bytes(text)
    return script, f"{entry.path}, {len(text) / 2**20:.1f} MiB of {len(modules)} modules"


def target_arguments(parser: argparse.ArgumentParser, package: str = "@anthropic-ai/claude-code",
                     version: str = "2.1.100") -> None:
    """`--target PATH`, or `--package P --version V` of the verified npm cache (`resolve_target`)."""
    parser.add_argument("--target", help="a bundle or Bun executable (overrides --package)")
    parser.add_argument("--package", default=package, help="pinned npm package")
    parser.add_argument("--version", default=version, help="its pinned version")


def resolve_target(args: argparse.Namespace) -> pathlib.Path:
    if args.target:
        target = pathlib.Path(args.target)
        if not target.is_file():
            raise SystemExit(f"{target}: no such file")
        return target
    sys.path.insert(0, str(REPOSITORY))
    from tests.support import npm_cache

    try:
        return npm_cache.main_file(args.package, args.version)
    except npm_cache.CacheError as error:
        raise SystemExit(str(error)) from None


def sha256(path: pathlib.Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while chunk := handle.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


def measure(args: argparse.Namespace) -> None:
    target = resolve_target(args)
    erratlas = find_command("erratlas", args.erratlas)
    ast_grep = find_command("ast-grep", args.ast_grep)
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="erratlas-bench-") as temporary:
        work = pathlib.Path(temporary)
        js_input, js_note = target, "the same file"
        if is_executable(target):
            js_input, js_note = extract_entry_module(target, work)
        out_dir = work / "scan"
        scan = Tool("erratlas scan", [erratlas, "scan", str(target), "--out", str(out_dir)])
        scans = [scan] + ([Tool("erratlas scan --jobs 1", [*scan.command, "--jobs", "1"])] if args.jobs_1 else [])
        grep = Tool(
            f"ast-grep run -p '{PATTERN}'",
            [ast_grep, "run", "-p", PATTERN, "--lang", "js", str(js_input), "--json=stream"],
        )
        stdout, stderr = work / "stdout", work / "stderr"

        summaries: list[bytes] = []

        def once(tool: Tool, record: bool) -> None:
            if tool in scans:
                shutil.rmtree(out_dir, ignore_errors=True)  # every scan writes a fresh directory
            run, code = run_child(tool.command, stdout, stderr)
            if tool is grep:
                # ast-grep exits 1 when nothing matched; anything on stderr is a real failure
                if code not in (0, 1) or (code == 1 and stderr.stat().st_size):
                    fail(tool.label, code, stderr)
                with stdout.open("rb") as matches:
                    tool.output = f"{sum(1 for _ in matches)} matches"
            elif code != 0:
                fail(tool.label, code, stderr)
            else:
                summaries.append((out_dir / SUMMARY).read_bytes())
            if record:
                tool.runs.append(run)

        for _ in range(args.warmup):
            for tool in (*scans, grep):
                once(tool, record=False)
        for _ in range(args.runs):
            for tool in (*scans, grep):
                once(tool, record=True)
        if len(set(summaries)) != 1:
            print("warning: the scan summaries differ between runs", file=sys.stderr)
        summary = json.loads(summaries[-1])
    load_after = os.getloadavg()
    by_kind = summary.get("counts", {}).get("byKind", {})
    for tool in scans:
        tool.output = " + ".join(f"{count} {kind}" for kind, count in by_kind.items()) + " callsites"

    size = target.stat().st_size / 2**20
    print(f"**target** `{target}` ({size:.1f} MiB, sha256 {sha256(target)[:12]})  ")
    print(f"**ast-grep input** {js_note}  ")
    print(
        f"**runs** {args.runs} interleaved after {args.warmup} warm-up; "
        f"{os.cpu_count()} CPUs, load avg {fmt_load(load_before)} before, "
        f"{fmt_load(load_after)} after; {platform.system()} {platform.machine()}, "
        f"Python {platform.python_version()}, {version_of(ast_grep)}"
    )
    print()
    print("| tool | wall s | CPU s (user + sys) | peak RSS MiB | peak PSS sum MiB | output |")
    print("|---|---:|---:|---:|---:|---|")
    for tool in (*scans, grep):
        print(f"| {tool.label} | {spread(tool, 'wall')} | {spread(tool, 'cpu')} | {tool.median('maxrss') / 2**20:.0f} "
              f"| {tool.median('pss') / 2**20:.0f} | {tool.output} |")
    for tool in scans:
        fastest = ratio(tool, grep, "wall", minimum=True)
        print(f"| {tool.label} / ast-grep | {ratio(tool, grep, 'wall')} (min {fastest}) "
              f"| {ratio(tool, grep, 'cpu')} | {ratio(tool, grep, 'maxrss')} | {ratio(tool, grep, 'pss')} | |")
    print()
    print("Peak RSS: the largest single process (rusage). Peak PSS sum: the largest sum, sampled every "
          "50 ms, of PSS over the command and every process it forked (shared pages counted once).")
    print()
    print(f"erratlas counts.byKind: `{json.dumps(by_kind, separators=(', ', ': '))}`")


def ratio(a: Tool, b: Tool, field: str, minimum: bool = False) -> str:
    pick = Tool.minimum if minimum else Tool.median
    denominator = pick(b, field)
    return f"{pick(a, field) / denominator:.2f}x" if denominator else "n/a"


def spread(tool: Tool, field: str) -> str:
    """The median and, in brackets, the range of every run."""
    values = [getattr(run, field) for run in tool.runs]
    return f"{statistics.median(values):.2f} ({min(values):.2f}-{max(values):.2f})"


def fmt_load(load: tuple[float, float, float]) -> str:
    return "/".join(f"{value:.2f}" for value in load)


def version_of(command: str) -> str:
    try:
        done = subprocess.run([command, "--version"], capture_output=True, text=True, timeout=30)
    except OSError:
        return pathlib.Path(command).name
    return done.stdout.strip() or pathlib.Path(command).name


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="measured runs per tool (default 5)")
    parser.add_argument("--warmup", type=int, default=1, help="unmeasured runs per tool first")
    target_arguments(parser)
    parser.add_argument("--jobs-1", action="store_true", help="also `erratlas scan --jobs 1`, interleaved")
    parser.add_argument("--erratlas", help="erratlas command (default: next to this Python)")
    parser.add_argument("--ast-grep", help="ast-grep command (default: next to this Python)")
    args = parser.parse_args(argv)
    if args.runs < 1 or args.warmup < 0:
        parser.error("--runs must be at least 1 and --warmup at least 0")
    print(f"<!-- {shlex.join([pathlib.Path(sys.argv[0]).name, *sys.argv[1:]])} -->", flush=True)
    measure(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
