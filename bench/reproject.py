"""Time `erratlas project` (re-projection of an existing scan with a changed allowlist).

usage: python bench/reproject.py [--runs N] [--allowlist FILE]

Scans cli.js of @anthropic-ai/claude-code@2.1.100 once (from the verified npm cache), then
alternates two allowlists on that scan directory: the given one (default
allowlists/claude-code.toml, if present) and a changed copy with its last entry
removed, so every run re-projects against an allowlist that differs from the last. Prints the
median, min and max wall time and peak memory of `erratlas project` as a markdown table.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time

REPOSITORY = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPOSITORY / "tests"))

from support import npm_cache


def erratlas() -> str:
    beside = pathlib.Path(sys.executable).parent / "erratlas"
    return str(beside) if beside.exists() else "erratlas"


def timed(command: list[str]) -> tuple[float, int]:
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"failed: {' '.join(command)}: {process.stderr.read().decode() if process.stderr else ''}")
    return wall, usage.ru_maxrss * 1024


def changed_copy(allowlist: pathlib.Path, target: pathlib.Path) -> None:
    text = allowlist.read_text()
    cut = text.rfind("\n[[entry]]")
    target.write_text(text[:cut] + "\n" if cut > 0 else text)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--allowlist", type=pathlib.Path, default=REPOSITORY / "allowlists" / "claude-code.toml")
    args = parser.parse_args()
    bundle = npm_cache.main_file("@anthropic-ai/claude-code", "2.1.100")
    with tempfile.TemporaryDirectory() as work_name:
        work = pathlib.Path(work_name)
        scan_dir = work / "scan"
        subprocess.run([erratlas(), "scan", str(bundle), "--out", str(scan_dir)], check=True, capture_output=True)
        allowlists = [args.allowlist, work / "changed.toml"]
        if args.allowlist.exists():
            changed_copy(args.allowlist, allowlists[1])
        else:
            allowlists = [work / "empty.toml", work / "changed.toml"]
            for path in allowlists:
                path.write_text('schema = "erratlas.allowlist/1"\n')
        runs = [timed([erratlas(), "project", str(scan_dir), "-a", str(allowlists[i % 2])]) for i in range(args.runs)]
    walls = [w for w, _ in runs]
    print(f"`erratlas project` on a scan of cli.js 2.1.100 ({bundle.stat().st_size / 2**20:.1f} MiB), "
          f"allowlist {args.allowlist.name} alternating with a changed copy, {args.runs} runs, "
          f"load {os.getloadavg()[0]:.2f}\n")
    print("| median wall s | min wall s | max wall s | median peak RSS MiB |")
    print("|---:|---:|---:|---:|")
    print(f"| {statistics.median(walls):.2f} | {min(walls):.2f} | {max(walls):.2f} | "
          f"{statistics.median(r for _, r in runs) / 2**20:.0f} |")


if __name__ == "__main__":
    main()
