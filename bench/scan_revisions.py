"""Time `erratlas scan` of two revisions of erratlas on the same bundle, interleaved.

usage: python bench/scan_revisions.py [--base REV] [--head REV] [--runs N] [--target PATH | --package P --version V]

Both revisions (default `main` and `HEAD`) are exported with `git archive` into a temporary
directory (the repository, its worktrees and uncommitted edits are left alone). Both run the
same way, as `python -S -P` in that directory with PYTHONPATH set to their source tree and then
this virtualenv's site-packages, so that neither uses the editable install or the current
directory. Runs alternate (base, head, base, ...) after one unmeasured warm-up of each; per side
it prints median and min wall time, median CPU time, the peak sum of PSS over the process tree, the
head/base ratios, the
number of files each scan wrote, and the load average before and after (the same measurements
as scan_vs_astgrep.py, whose helpers it uses).
"""

from __future__ import annotations

import argparse
import os
import pathlib
import subprocess
import sys
import sysconfig
import tempfile

REPOSITORY = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPOSITORY / "bench"))
sys.path.insert(0, str(REPOSITORY))

from scan_vs_astgrep import Tool, fail, run_child

BOOT = "import sys; sys.argv[0] = 'erratlas'; from analyzer.cli import main; main()"


def export(revision: str, into: pathlib.Path) -> pathlib.Path:
    archive = subprocess.run(["git", "-C", str(REPOSITORY), "archive", revision, "analyzer"], check=True,
                             capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into


def command(tree: pathlib.Path, target: pathlib.Path, out: pathlib.Path) -> list[str]:
    return ["env", f"PYTHONPATH={tree}{os.pathsep}{sysconfig.get_paths()['purelib']}", sys.executable, "-S", "-P",
            "-c", BOOT, "scan", str(target), "--out", str(out)]


def revision_arguments(doc: str | None, runs: int) -> argparse.Namespace:
    """--base, --head, --runs and the target (a path, or the main file of an npm package's version)."""
    parser = argparse.ArgumentParser(description=(doc or "").split("\n\n")[0])
    parser.add_argument("--base", default="main")
    parser.add_argument("--head", default="HEAD")
    parser.add_argument("--runs", type=int, default=runs)
    parser.add_argument("--target", type=pathlib.Path)
    parser.add_argument("--package", default="@anthropic-ai/claude-code-linux-x64")
    parser.add_argument("--version", default="2.1.235")
    args = parser.parse_args()
    if args.target is None:
        from tests.support import npm_cache

        args.target = npm_cache.main_file(args.package, args.version)
    return args


def main() -> None:
    args = revision_arguments(__doc__, runs=5)
    with tempfile.TemporaryDirectory() as work_dir:
        work = pathlib.Path(work_dir)
        trees = {side: work / side for side in ("base", "head")}
        for side, revision in (("base", args.base), ("head", args.head)):
            trees[side].mkdir()
            export(revision, trees[side])
        tools = [Tool(f"base {args.base}", command(trees["base"], args.target, work / "out-base")),
                 Tool(f"head {args.head}", command(trees["head"], args.target, work / "out-head"))]
        load_before = os.getloadavg()
        for number in range(args.runs + 1):
            for tool in tools:
                run, code = run_child(tool.command, work / "stdout", work / "stderr")
                if code != 0:
                    fail(tool.label, code, work / "stderr")
                if number > 0:  # the first round warms caches
                    tool.runs.append(run)
        load_after = os.getloadavg()
        files = {tool.label: sum(1 for p in (work / f"out-{tool.label.split()[0]}").rglob("*") if p.is_file())
                 for tool in tools}
    print(f"target {args.target} ({args.target.stat().st_size / 1e6:.1f} MB), {args.runs} interleaved runs each, "
          f"load average before {load_before[0]:.2f} after {load_after[0]:.2f}")
    print("| side | median wall s | min wall s | median CPU s | peak PSS sum MiB | files written |")
    print("|---|---:|---:|---:|---:|---:|")
    for tool in tools:
        print(f"| {tool.label} | {tool.median('wall'):.2f} | {tool.minimum('wall'):.2f} | {tool.median('cpu'):.2f} "
              f"| {tool.median('pss') / 2**20:.0f} | {files[tool.label]} |")
    base, head = tools
    print(f"head/base: median wall {head.median('wall') / base.median('wall'):.3f}, "
          f"min wall {head.minimum('wall') / base.minimum('wall'):.3f}, "
          f"median CPU {head.median('cpu') / base.median('cpu'):.3f}")


if __name__ == "__main__":
    main()
