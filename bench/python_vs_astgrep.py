"""Time a full `erratlas scan` of a Python tree (--jobs 1 and --jobs 2) beside a bare `ast-grep`
pattern search over the same tree.

usage: python bench/python_vs_astgrep.py [--runs N] [--warmup N] [--target DIR]

(a) `erratlas scan DIR --out TMP --jobs 1`, the installed command, every output written;
(b) the same with `--jobs 2`;
(c) `ast-grep run -p 'raise $E($$$)' --lang python DIR --json=stream`, matches counted.

Runs are interleaved (a, b, c, a, b, c, ...) after unmeasured warm-ups. Wall time is taken
around spawn and reap; CPU time and the largest single process's peak RSS come from the
child's rusage (`os.wait4`, which covers the pool workers it reaped); the peak of the *sum*
of RSS over the whole process tree (erratlas and its workers at once) is sampled from /proc
every 20 ms. The two erratlas variants must write byte-identical directories, checked on
every run. Prints a markdown table.

Default target: the installed `pip` package (`python -c "import pip, os;
print(os.path.dirname(pip.__file__))"`).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import pathlib
import platform
import shlex
import shutil
import subprocess
import sys
import tempfile
import threading
import time

# the same measuring kit as the JavaScript benchmark (this script's directory is on sys.path)
from scan_vs_astgrep import Tool, find_command

PATTERN = "raise $E($$$)"
SUMMARY = "error-diagnostic-owner-summary.json"


@dataclasses.dataclass
class Run:
    wall: float
    cpu: float
    maxrss: int  # bytes, largest single process
    tree_rss: int  # bytes, peak of the sum over the process tree


def _tree_rss(root: int) -> int:
    """Sum of VmRSS of `root` and its descendants, in bytes (0 where /proc says nothing)."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as handle:
                fields = handle.read().rsplit(b")", 1)[1].split()
            parents[int(entry)] = int(fields[1])
        except (OSError, IndexError, ValueError):
            continue
    members, changed = {root}, True
    while changed:
        grown = {pid for pid, parent in parents.items() if parent in members}
        changed = not grown <= members
        members |= grown
    total = 0
    for pid in members:
        try:
            with open(f"/proc/{pid}/status", "rb") as handle:
                for line in handle:
                    if line.startswith(b"VmRSS:"):
                        total += int(line.split()[1]) * 1024
                        break
        except OSError:
            continue
    return total


def run_child(command: list[str], stdout: pathlib.Path, stderr: pathlib.Path) -> tuple[Run, int]:
    with stdout.open("wb") as out, stderr.open("wb") as err:
        start = time.perf_counter()
        process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=out, stderr=err)
        peak = [0]
        done = threading.Event()

        def sample() -> None:
            while not done.is_set():
                peak[0] = max(peak[0], _tree_rss(process.pid))
                done.wait(0.02)

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - start
        done.set()
        sampler.join()
    process.returncode = os.waitstatus_to_exitcode(status)
    return Run(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss * 1024, peak[0]), process.returncode


def directory_bytes(directory: pathlib.Path) -> dict[str, bytes]:
    return {p.relative_to(directory).as_posix(): p.read_bytes() for p in sorted(directory.rglob("*")) if p.is_file()}


def default_target() -> pathlib.Path:
    import pip

    return pathlib.Path(pip.__file__).resolve().parent


def measure(args: argparse.Namespace) -> None:
    target = pathlib.Path(args.target) if args.target else default_target()
    if not target.is_dir():
        raise SystemExit(f"{target}: not a directory")
    erratlas, ast_grep = find_command("erratlas", None), find_command("ast-grep", None)
    files = [p for p in target.rglob("*.py") if "__pycache__" not in p.parts]
    size = sum(p.stat().st_size for p in files)
    lines = sum(p.read_bytes().count(b"\n") for p in files)
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="erratlas-pybench-") as temporary:
        work = pathlib.Path(temporary)
        outs = {jobs: work / f"scan-jobs{jobs}" for jobs in (1, 2)}
        tools = [
            Tool(f"erratlas scan --jobs {jobs}", [erratlas, "scan", str(target), "--out", str(out), "--jobs", str(jobs)])
            for jobs, out in outs.items()
        ]
        grep = Tool(f"ast-grep run -p '{PATTERN}'", [ast_grep, "run", "-p", PATTERN, "--lang", "python", str(target),
                                                    "--json=stream"])
        stdout, stderr = work / "stdout", work / "stderr"
        summaries: list[bytes] = []

        def once(tool: Tool, record: bool) -> None:
            out = next((o for t, o in zip(tools, outs.values()) if t is tool), None)
            if out is not None:
                shutil.rmtree(out, ignore_errors=True)
            run, code = run_child(tool.command, stdout, stderr)
            if tool is grep:
                if code not in (0, 1) or (code == 1 and stderr.stat().st_size):
                    raise SystemExit(f"{tool.label} exited {code}: {stderr.read_text()[-500:]}")
                with stdout.open("rb") as matches:
                    tool.output = f"{sum(1 for _ in matches)} matches"
            elif code != 0:
                raise SystemExit(f"{tool.label} exited {code}: {stderr.read_text()[-500:]}")
            else:
                summaries.append((out / SUMMARY).read_bytes())  # type: ignore[operator]
            if record:
                tool.runs.append(run)

        identical = True
        for round_number in range(args.warmup + args.runs):
            for tool in (*tools, grep):
                once(tool, record=round_number >= args.warmup)
            identical = identical and directory_bytes(outs[1]) == directory_bytes(outs[2])
        summary = json.loads(summaries[-1])
    load_after = os.getloadavg()
    by_kind = summary["counts"]["byKind"]
    for tool in tools:
        tool.output = f"{by_kind['error']} error + {by_kind['diagnostic']} diagnostic callsites"

    print(f"**target** `{target}` ({len(files)} .py files, {lines} lines, {size / 2**20:.1f} MiB)  ")
    print(
        f"**runs** {args.runs} interleaved after {args.warmup} warm-up; {os.cpu_count()} CPUs, load avg "
        f"{'/'.join(f'{v:.2f}' for v in load_before)} before, {'/'.join(f'{v:.2f}' for v in load_after)} after; "
        f"{platform.system()} {platform.machine()}, Python {platform.python_version()}, "
        f"{subprocess.run([ast_grep, '--version'], check=False, capture_output=True, text=True).stdout.strip()}  "
    )
    print(f"**--jobs 1 and --jobs 2 outputs byte-identical on every run:** {'yes' if identical else 'NO'}")
    print()
    print("| tool | median wall s | min wall s | median CPU s | peak RSS MiB (largest process) "
          "| peak RSS MiB (all processes) | output |")
    print("|---|---:|---:|---:|---:|---:|---|")
    for tool in (*tools, grep):
        print(
            f"| {tool.label} | {tool.median('wall'):.2f} | {tool.minimum('wall'):.2f} | {tool.median('cpu'):.2f} "
            f"| {tool.median('maxrss') / 2**20:.0f} | {tool.median('tree_rss') / 2**20:.0f} | {tool.output} |"
        )
    if not identical:
        raise SystemExit("--jobs 1 and --jobs 2 wrote different outputs")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="measured runs per tool (default 3)")
    parser.add_argument("--warmup", type=int, default=1, help="unmeasured runs per tool first (default 1)")
    parser.add_argument("--target", help="a directory of Python sources (default: the installed pip)")
    args = parser.parse_args(argv)
    if args.runs < 1 or args.warmup < 0:
        parser.error("--runs must be at least 1 and --warmup at least 0")
    print(f"<!-- {shlex.join([pathlib.Path(sys.argv[0]).name, *sys.argv[1:]])} -->", flush=True)
    measure(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
