"""Check that this checkout writes byte-identical scan directories to another revision's.

usage: python bench/outputs_identical.py [--base REV] [--only NAME ...] [--jobs-1-only] [--refresh]

The base revision (default `main`) is exported with `git archive` into the cache
(`$ERRATLAS_CACHE/outputs/<commit>/src`) and run with this virtualenv's Python and that tree
first on `PYTHONPATH`; its scan directories are kept beside it (one per target), so a
snapshot is made once per base commit and reused (`--refresh` makes it again). Then this
checkout scans every target, with `--jobs 1` and with the default job count, and every file
of every directory is compared byte for byte with the snapshot's. Prints a markdown table
(target, jobs, files, identical or the first file that differs and where) and exits 1 when
anything differs.

Targets: the demo bundle (and its `--signatures` scan), cli.js of claude-code 2.1.100, the
2.1.235 linux-x64 Bun executable (bare, and with `allowlists/claude-code.toml`), and the tree of
the `pip` package installed in this virtualenv.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import time

REPOSITORY = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPOSITORY / "tests"))

from support import npm_cache


@dataclasses.dataclass(frozen=True)
class Target:
    name: str
    #: `erratlas scan` arguments after the input (the input is resolved when the target runs)
    extra: tuple[str, ...] = ()


TARGETS = (
    Target("demo"),
    Target("demo-signatures", ("--signatures",)),
    Target("cli-2.1.100"),
    Target("exe-2.1.235"),
    Target("exe-2.1.235-allowlist", ("--allowlist", "allowlists/claude-code.toml")),
    Target("pip"),
)


def target_input(target: Target) -> pathlib.Path:
    if target.name.startswith("demo"):
        return REPOSITORY / "fixtures" / "demo" / "demo.min.js"
    if target.name == "cli-2.1.100":
        return npm_cache.main_file("@anthropic-ai/claude-code", "2.1.100")
    if target.name.startswith("exe-2.1.235"):
        return npm_cache.main_file("@anthropic-ai/claude-code-linux-x64", "2.1.235")
    import pip

    return pathlib.Path(pip.__file__).parent


def cache_root() -> pathlib.Path:
    return pathlib.Path(os.environ.get("ERRATLAS_CACHE", pathlib.Path.home() / ".cache" / "erratlas")) / "outputs"


def commit_of(revision: str) -> str:
    return subprocess.run(["git", "rev-parse", revision], cwd=REPOSITORY, check=True, capture_output=True,
                          text=True).stdout.strip()


def exported(commit: str) -> pathlib.Path:
    """The base revision's tree, exported once."""
    source = cache_root() / commit / "src"
    if not (source / "analyzer").is_dir():
        staging = pathlib.Path(tempfile.mkdtemp(prefix="src-", dir=source.parent if source.parent.exists() else None))
        source.parent.mkdir(parents=True, exist_ok=True)
        archive = subprocess.run(["git", "archive", commit], cwd=REPOSITORY, check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(staging)], input=archive, check=True)
        staging.rename(source)
    return source


def scan(tree: pathlib.Path, target: Target, out: pathlib.Path, jobs: int | None) -> float:
    """`erratlas scan` of `tree`'s analyzer package (this virtualenv's Python); wall seconds."""
    # -P: the working directory (this checkout) is not put before `tree` on the path; the
    # assertion catches any other way this checkout's package could be the one imported
    package = str(tree.resolve()) + os.sep
    run = (f"import analyzer; assert analyzer.__file__.startswith({package!r}), analyzer.__file__; "
           "from analyzer.cli import main; main()")
    command = [sys.executable, "-P", "-c", run, "scan", str(target_input(target)),
               "--out", str(out), *target.extra, *(["--jobs", str(jobs)] if jobs else [])]
    environment = {**os.environ, "PYTHONPATH": str(tree)}
    environment.pop("ERRATLAS_TRACE", None)
    start = time.perf_counter()
    done = subprocess.run(command, cwd=REPOSITORY, env=environment, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"{target.name}: scan by {tree} exited {done.returncode}: {done.stderr.strip()[-400:]}")
    return time.perf_counter() - start


def files_of(directory: pathlib.Path) -> dict[str, pathlib.Path]:
    return {str(p.relative_to(directory)): p for p in sorted(directory.rglob("*")) if p.is_file()}


def first_difference(a: bytes, b: bytes) -> str:
    at = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    line = a.count(b"\n", 0, at) + 1
    return f"byte {at} (line {line}): {a[max(0, at - 40):at + 40]!r} vs {b[max(0, at - 40):at + 40]!r}"


def compare(expected: pathlib.Path, actual: pathlib.Path) -> tuple[int, str | None]:
    """(files compared, None or where the first difference is)."""
    want, got = files_of(expected), files_of(actual)
    if set(want) != set(got):
        missing, extra = sorted(set(want) - set(got))[:5], sorted(set(got) - set(want))[:5]
        return len(want), f"files differ: missing {missing}, extra {extra}"
    for name in want:
        a, b = want[name].read_bytes(), got[name].read_bytes()
        if a != b:
            return len(want), f"{name}: {first_difference(a, b)}"
    return len(want), None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", default="main", help="the revision whose outputs are the reference (default main)")
    parser.add_argument("--only", action="append", choices=[t.name for t in TARGETS], help="only these targets")
    parser.add_argument("--jobs-1-only", action="store_true", help="scan this checkout with --jobs 1 only")
    parser.add_argument("--refresh", action="store_true", help="make the base snapshot again")
    args = parser.parse_args()
    commit = commit_of(args.base)
    base = exported(commit)
    targets = [t for t in TARGETS if not args.only or t.name in args.only]
    rows, failed = [], False
    with tempfile.TemporaryDirectory(prefix="erratlas-identical-") as scratch:
        for target in targets:
            snapshot = cache_root() / commit / target.name
            if args.refresh or not (snapshot / "error-diagnostic-owner-summary.json").exists():
                shutil.rmtree(snapshot, ignore_errors=True)
                seconds = scan(base, target, snapshot, None)
                rows.append(f"| {target.name} | base {commit[:10]}, default | {len(files_of(snapshot))} | snapshot "
                            f"| {seconds:.1f} |")
            for jobs in (1,) if args.jobs_1_only else (1, None):
                out = pathlib.Path(scratch) / f"{target.name}-{jobs or 'default'}"
                seconds = scan(REPOSITORY, target, out, jobs)
                count, difference = compare(snapshot, out)
                failed |= difference is not None
                verdict = "identical" if difference is None else f"**differs**: {difference}"
                rows.append(f"| {target.name} | this, {'--jobs 1' if jobs else 'default'} | {count} | {verdict} "
                            f"| {seconds:.1f} |")
                print(rows[-1], flush=True)
                shutil.rmtree(out)
    print(f"\nbase {args.base} = {commit}; this checkout {REPOSITORY} ({commit_of('HEAD')[:10]} + work tree)\n")
    print("| target | erratlas | files | outputs | wall s |\n|---|---|---:|---|---:|")
    print("\n".join(rows))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
