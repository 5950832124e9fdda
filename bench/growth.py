"""How the cost of a scan grows with the input's size: CPU seconds and peak memory per MB of
JavaScript, from about 5 MB to about 60 MB, erratlas against ast-grep (issue 22, "Growth").

usage: python bench/growth.py [--runs N] [--sizes 5,10,20,40,60] [--plot docs/growth.svg]

The inputs are built from real bundles, cli.js of claude-code releases from the verified npm
cache (tests/support/npm_cache.py): releases taken whole in a fixed order, the last one cut at
a top-level statement boundary so the input comes to about the size asked, each wrapped in
`(function(){ ... })();` one after another. Different releases, so that fingerprints and copies
behave as in real code (identical copies would be folded by the copies logic). Every input has
the same shape, the 5 MB one included: the releases' `import` declarations first (they are
legal only at the top level), then the wrapped bodies; a `#!` line is dropped. Each input is
built once and cached under ~/.cache/erratlas/growth/ (`$ERRATLAS_CACHE`), named by the sha256
of its recipe and checked against the sha256 of its bytes on reuse.

Per input, interleaved and in rounds (every size once per round, smallest first): `erratlas scan
INPUT --out DIR`, the same with `--jobs 1`, and `ast-grep run -p 'Error($$$A)' -l js
--json=stream INPUT`, and tree-sitter's parse of the input alone, in a fresh process of the
measured erratlas's Python (the floor). Wall time is the command's; CPU time is user + system of
the command and every process it waited for (`os.wait4`: erratlas's isolated child and workers
included); peak RSS is the largest single process's (`ru_maxrss`); the peak PSS sum over the
whole process tree is sampled every 50 ms. Prints a markdown table: medians with the range of
every run in brackets, the per-MB figures and each one's ratio to the smallest input's; CPU also
split into user time per MB and system time, with the minor page faults and the system time a
fault (median system time over median faults): on a VM a fault's cost can grow with the heap
(docs/performance.md, "Growth with the input's size"), the work the tool does cannot. A scan
refused by a bound (exit 2, one line) is reported with that line. `--plot PATH` writes an SVG of
CPU s/MB and MiB/MB against the size.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import os
import pathlib
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

# the measuring kit of the JavaScript benchmark (this script's directory is on sys.path)
from scan_vs_astgrep import PATTERN, SUMMARY, Run, find_command, fmt_load, run_child, sha256, version_of

REPOSITORY = pathlib.Path(__file__).resolve().parent.parent
PACKAGE = "@anthropic-ai/claude-code"
#: releases in the order they fill an input (each about 13 MB of cli.js)
RELEASES = ("2.1.100", "2.1.88", "2.1.90", "2.1.98", "2.1.105")
MB = 1_000_000
RECIPE_VERSION = 2  # bump when the way inputs are built changes
WRAP_OPEN, WRAP_CLOSE = b"(function(){\n", b"\n})();\n"


# --- inputs ------------------------------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class Release:
    version: str
    path: pathlib.Path
    digest: str  #: sha256 of the file
    imports: tuple[bytes, ...]  #: the top-level import declarations
    body: bytes  #: everything else, the `#!` line dropped
    cuts: tuple[int, ...]  #: offsets in `body` where a top-level statement ends


def _parser():  # type: ignore[no-untyped-def]
    import tree_sitter
    import tree_sitter_javascript

    return tree_sitter.Parser(tree_sitter.Language(tree_sitter_javascript.language()))


def load_release(version: str) -> Release:
    sys.path.insert(0, str(REPOSITORY / "tests"))
    from support import npm_cache

    path = npm_cache.main_file(PACKAGE, version)
    source = path.read_bytes()
    imports, body, cuts = split_release(source, str(path))
    return Release(version, path, hashlib.sha256(source).hexdigest(), imports, body, cuts)


def split_release(source: bytes, name: str) -> tuple[tuple[bytes, ...], bytes, tuple[int, ...]]:
    """A release's top-level `import` declarations, the rest (its body, the `#!` line dropped)
    and the offsets in the body where a top-level statement ends."""
    root = _parser().parse(source).root_node
    if root.has_error:
        raise SystemExit(f"{name}: tree-sitter finds a syntax error; not a usable release")
    imports: list[bytes] = []
    body, cuts, end = bytearray(), [], 0
    for child in root.children:
        text = source[child.start_byte:child.end_byte]
        if child.type == "hash_bang_line":
            end = child.end_byte
            continue
        # the bytes before a child are kept even when the child is an import taken out: a `//`
        # comment's line ends there, and dropping its newline would comment out the next line
        body += source[end:child.start_byte] if body else b""
        if child.type == "import_statement":
            imports.append(text)
        else:
            body += text
            cuts.append(len(body))
        end = child.end_byte
    return tuple(imports), bytes(body), tuple(cuts)


def plan(size: int, sizes_of: dict[str, int]) -> list[tuple[str, int | None]]:
    """(release, None for whole or the byte budget of its cut) that fill `size` bytes."""
    pieces: list[tuple[str, int | None]] = []
    left = size
    for version in RELEASES:
        if left <= 0:
            break
        whole = sizes_of[version]
        pieces.append((version, None if whole <= left else left))
        left -= whole
    if left > 0:
        raise SystemExit(f"{size / MB:.0f} MB is more than the {len(RELEASES)} releases hold")
    return pieces


def build(size: int, releases: dict[str, Release]) -> bytes:
    imports, bodies = [], []
    for version, budget in plan(size, {v: len(r.body) + len(b"\n".join(r.imports)) for v, r in releases.items()}):
        release = releases[version]
        body = release.body
        if budget is not None:
            budget -= sum(len(line) + 1 for line in release.imports) + len(WRAP_OPEN) + len(WRAP_CLOSE)
            cut = max((c for c in release.cuts if c <= budget), default=0)
            if cut == 0:
                continue
            body = body[:cut]
        imports.extend(release.imports)
        bodies.append(WRAP_OPEN + body + WRAP_CLOSE)
    return b"\n".join(imports) + b"\n" + b"".join(bodies)


def cache_dir() -> pathlib.Path:
    root = os.environ.get("ERRATLAS_CACHE")
    return (pathlib.Path(root) if root else pathlib.Path.home() / ".cache" / "erratlas") / "growth"


def cached_input(size_mb: int, digests: dict[str, str]) -> tuple[pathlib.Path, bool]:
    """Where the input of about `size_mb` MB is cached, and whether it is there, undamaged."""
    recipe = json.dumps([RECIPE_VERSION, size_mb, [(v, digests[v]) for v in RELEASES]]).encode()
    key = hashlib.sha256(recipe).hexdigest()
    path = cache_dir() / f"growth-{size_mb}mb-{key[:16]}.js"
    stamp = path.with_suffix(".sha256")
    return path, path.exists() and stamp.exists() and sha256(path) == stamp.read_text().strip()


def input_of(size_mb: int, digests: dict[str, str], load: dict[str, Release]) -> pathlib.Path:
    """The cached input of about `size_mb` MB, built when missing or damaged."""
    path, present = cached_input(size_mb, digests)
    stamp = path.with_suffix(".sha256")
    if present:
        return path
    if not load:
        load.update((v, load_release(v)) for v in RELEASES)
    data = build(size_mb * MB, load)
    if _parser().parse(data).root_node.has_error:  # a broken input would time error recovery
        raise SystemExit(f"growth input of {size_mb} MB: tree-sitter finds a syntax error; not built")
    path.parent.mkdir(parents=True, exist_ok=True)
    staging = path.with_suffix(".tmp")
    staging.write_bytes(data)
    staging.replace(path)
    stamp.write_text(hashlib.sha256(data).hexdigest() + "\n")
    return path


def release_digests() -> dict[str, str]:
    sys.path.insert(0, str(REPOSITORY / "tests"))
    from support import npm_cache

    return {v: sha256(npm_cache.main_file(PACKAGE, v)) for v in RELEASES}


# --- measuring ---------------------------------------------------------------------------

@dataclasses.dataclass
class Series:
    label: str
    runs: dict[int, list[Run]] = dataclasses.field(default_factory=dict)  #: size MB -> runs
    found: dict[int, int] = dataclasses.field(default_factory=dict)  #: callsites or matches
    refused: dict[int, str] = dataclasses.field(default_factory=dict)  #: the refusal line

    def median(self, size: int, field: str) -> float:
        return statistics.median(getattr(run, field) for run in self.runs[size])

    def spread(self, size: int, field: str, scale: float = 1.0, digits: int = 2) -> str:
        values = [getattr(run, field) / scale for run in self.runs[size]]
        middle = f"{statistics.median(values):.{digits}f}"
        return middle if len(values) == 1 else f"{middle} ({min(values):.{digits}f}-{max(values):.{digits}f})"


def scan_once(series: Series, command: list[str], size: int, out_dir: pathlib.Path, work: pathlib.Path) -> None:
    shutil.rmtree(out_dir, ignore_errors=True)
    stdout, stderr = work / "stdout", work / "stderr"
    run, code = run_child(command, stdout, stderr)
    if code != 0:
        lines = stderr.read_text(errors="replace").strip().splitlines()
        series.refused[size] = f"exit {code}: {lines[-1] if lines else ''}"
        return
    counts = json.loads((out_dir / SUMMARY).read_bytes()).get("counts", {})
    series.found[size] = sum(counts.get("byKind", {}).values())
    series.runs.setdefault(size, []).append(run)


def grep_once(series: Series, command: list[str], size: int, work: pathlib.Path) -> None:
    stdout, stderr = work / "stdout", work / "stderr"
    run, code = run_child(command, stdout, stderr)
    # ast-grep exits 1 when nothing matched; anything on stderr is a real failure
    if code not in (0, 1) or (code == 1 and stderr.stat().st_size):
        lines = stderr.read_text(errors="replace").strip().splitlines()
        series.refused[size] = f"exit {code}: {lines[-1] if lines else ''}"
        return
    with stdout.open("rb") as matches:
        series.found[size] = sum(1 for _ in matches)
    series.runs.setdefault(size, []).append(run)


#: the parse alone, as the scan parses a unit (`syntax.new_parser`), in the Python of the erratlas measured
PARSE_ONLY = ("import sys; from analyzer.javascript.syntax import new_parser; "
              "new_parser().parse(open(sys.argv[1], 'rb').read())")


def python_of(erratlas: str) -> str:
    """The Python an installed `erratlas` command runs on (its venv's), else this one."""
    beside = pathlib.Path(erratlas).parent / "python"
    return str(beside) if beside.exists() else sys.executable


def parse_once(series: Series, command: list[str], size: int, work: pathlib.Path) -> None:
    run, code = run_child(command, work / "stdout", work / "stderr")
    if code != 0:
        lines = (work / "stderr").read_text(errors="replace").strip().splitlines()
        series.refused[size] = f"exit {code}: {lines[-1] if lines else ''}"
        return
    series.runs.setdefault(size, []).append(run)


def measure(inputs: dict[int, pathlib.Path], runs: int, erratlas: str, ast_grep: str) -> list[Series]:
    default, jobs_1, grep = Series("erratlas scan"), Series("erratlas scan --jobs 1"), Series("ast-grep")
    parse = Series("tree-sitter parse alone")
    python = python_of(erratlas)
    with tempfile.TemporaryDirectory(prefix="erratlas-growth-") as temporary:
        work = pathlib.Path(temporary)
        out_dir = work / "scan"
        for round_ in range(runs):
            for size, path in inputs.items():
                start = time.monotonic()
                scan = [erratlas, "scan", str(path), "--out", str(out_dir)]
                if size not in default.refused:
                    scan_once(default, scan, size, out_dir, work)
                if size not in jobs_1.refused:
                    scan_once(jobs_1, [*scan, "--jobs", "1"], size, out_dir, work)
                grep_once(grep, [ast_grep, "run", "-p", PATTERN, "-l", "js", "--json=stream", str(path)], size, work)
                if size not in parse.refused:
                    parse_once(parse, [python, "-c", PARSE_ONLY, str(path)], size, work)
                print(f"round {round_ + 1}/{runs}, {size} MB: {time.monotonic() - start:.0f} s wall, "
                      f"load {fmt_load(os.getloadavg())}", file=sys.stderr, flush=True)
    return [default, jobs_1, grep, parse]


# --- reporting ---------------------------------------------------------------------------

def per_mb(series: Series, size: int, mb: dict[int, float], field: str, scale: float = 1.0) -> float:
    return series.median(size, field) / scale / mb[size]


def table(all_series: list[Series], mb: dict[int, float]) -> list[str]:
    lines = [
        "| MB | tool | callsites / matches | wall s | wall s/MB | x smallest | CPU s | CPU s/MB | x smallest "
        "| user s/MB | x smallest | sys s | minor faults | µs a fault | peak RSS MiB | MiB/MB | x smallest "
        "| peak PSS sum MiB |",
        "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for size in mb:
        for series in all_series:
            if size in series.refused and size not in series.runs:
                lines.append(f"| {mb[size]:.1f} | {series.label} | refused: {series.refused[size]} "
                             f"| | | | | | | | | | | | | | |")
                continue
            base = min(series.runs)
            wall, base_wall = per_mb(series, size, mb, "wall"), per_mb(series, base, mb, "wall")
            cpu, base_cpu = per_mb(series, size, mb, "cpu"), per_mb(series, base, mb, "cpu")
            rss, base_rss = per_mb(series, size, mb, "maxrss", 2**20), per_mb(series, base, mb, "maxrss", 2**20)
            user, base_user = per_mb(series, size, mb, "user"), per_mb(series, base, mb, "user")
            faults = series.median(size, "faults")
            found = f"{series.found[size]:,}" if size in series.found else "-"
            per_fault = series.median(size, "system") / faults * 1e6 if faults else 0.0
            lines.append(
                f"| {mb[size]:.1f} | {series.label} | {found} | {series.spread(size, 'wall')} "
                f"| {wall:.3f} | {wall / base_wall:.2f}x | {series.spread(size, 'cpu')} "
                f"| {cpu:.3f} | {cpu / base_cpu:.2f}x | {user:.3f} | {user / base_user:.2f}x "
                f"| {series.spread(size, 'system')} | {faults:,.0f} | {per_fault:.1f} "
                f"| {series.spread(size, 'maxrss', 2**20, 0)} | {rss:.1f} "
                f"| {rss / base_rss:.2f}x | {series.spread(size, 'pss', 2**20, 0)} |")
    return lines


COLOURS = {"erratlas scan": "#1f77b4", "erratlas scan --jobs 1": "#2ca02c", "ast-grep": "#d62728",
           "tree-sitter parse alone": "#7f7f7f"}


def svg_plot(all_series: list[Series], mb: dict[int, float], title: str) -> str:
    """Three panels side by side, CPU s/MB, user CPU s/MB and peak RSS MiB/MB against MB, one line per tool."""
    width, height, panel_w, panel_h, left, top = 1350, 420, 340, 280, 70, 60
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'font-family="sans-serif" font-size="12">',
             f'<rect width="{width}" height="{height}" fill="white"/>',
             f'<text x="{width / 2}" y="24" text-anchor="middle" font-size="15">{_escape(title)}</text>']
    x_max = max(mb.values()) * 1.05
    panels = (("cpu", 1.0, "CPU s per MB (user + sys, all processes)"),
              ("user", 1.0, "user CPU s per MB (all processes)"),
              ("maxrss", 2**20, "peak RSS MiB per MB (largest process)"))
    for index, (field, scale, label) in enumerate(panels):
        x0 = left + index * (panel_w + 110)
        points = {s.label: [(mb[n], per_mb(s, n, mb, field, scale)) for n in mb if n in s.runs] for s in all_series}
        y_max = _nice(max(y for series in points.values() for _, y in series) * 1.35)
        parts += _axes(x0, top, panel_w, panel_h, x_max, y_max, label)
        bound = 1.25 * points["erratlas scan"][0][1]  # issue 22: at most 1.25x the smallest input's
        y = top + panel_h - bound / y_max * panel_h
        parts.append(f'<line x1="{x0}" y1="{y:.1f}" x2="{x0 + panel_w}" y2="{y:.1f}" stroke="#1f77b4" '
                     f'stroke-dasharray="6,4"/>')
        parts.append(f'<text x="{x0 + panel_w}" y="{y - 5:.1f}" text-anchor="end" fill="#1f77b4">'
                     f'1.25x erratlas at the smallest</text>')
        for name, series in points.items():
            xy = [(x0 + x / x_max * panel_w, top + panel_h - y / y_max * panel_h) for x, y in series]
            path = " ".join(f"{x:.1f},{y:.1f}" for x, y in xy)
            parts.append(f'<polyline points="{path}" fill="none" stroke="{COLOURS[name]}" stroke-width="2"/>')
            parts += [f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3.5" fill="{COLOURS[name]}"/>' for x, y in xy]
    for index, name in enumerate(COLOURS):
        x = left + index * 260
        parts.append(f'<line x1="{x}" y1="{height - 22}" x2="{x + 24}" y2="{height - 22}" '
                     f'stroke="{COLOURS[name]}" stroke-width="3"/>')
        parts.append(f'<text x="{x + 30}" y="{height - 18}">{_escape(name)}</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def _axes(x0: float, y0: float, w: float, h: float, x_max: float, y_max: float, label: str) -> list[str]:
    parts = [f'<text x="{x0 + w / 2}" y="{y0 - 10}" text-anchor="middle">{_escape(label)}</text>',
             f'<line x1="{x0}" y1="{y0 + h}" x2="{x0 + w}" y2="{y0 + h}" stroke="black"/>',
             f'<line x1="{x0}" y1="{y0}" x2="{x0}" y2="{y0 + h}" stroke="black"/>',
             f'<text x="{x0 + w / 2}" y="{y0 + h + 34}" text-anchor="middle">input MB</text>']
    for tick in range(0, int(x_max) + 1, 10):
        x = x0 + tick / x_max * w
        parts.append(f'<line x1="{x:.1f}" y1="{y0 + h}" x2="{x:.1f}" y2="{y0 + h + 5}" stroke="black"/>')
        parts.append(f'<text x="{x:.1f}" y="{y0 + h + 18}" text-anchor="middle">{tick}</text>')
    for step in range(6):
        value = y_max * step / 5
        y = y0 + h - step / 5 * h
        parts.append(f'<line x1="{x0}" y1="{y:.1f}" x2="{x0 + w}" y2="{y:.1f}" stroke="#ddd"/>')
        parts.append(f'<text x="{x0 - 6}" y="{y + 4:.1f}" text-anchor="end">{value:.3g}</text>')
    return parts


def _nice(value: float) -> float:
    """The smallest of 1, 2, 2.5, 5 times a power of ten at or above `value`."""
    power = 10 ** int(f"{value:e}".split("e")[1])
    return next(m * power for m in (1, 2, 2.5, 5, 10) if m * power >= value)


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


# --- main --------------------------------------------------------------------------------

def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="rounds, every size once per round (default 3)")
    parser.add_argument("--sizes", default="5,10,20,40,60", help="input sizes in MB (default 5,10,20,40,60)")
    parser.add_argument("--plot", type=pathlib.Path, help="write an SVG plot here")
    parser.add_argument("--build-only", action="store_true", help="build (or find) the inputs, print their paths")
    parser.add_argument("--erratlas", help="command to use instead of the erratlas next to this Python")
    parser.add_argument("--ast-grep", help="command to use instead of the ast-grep next to this Python")
    args = parser.parse_args(argv)

    digests, loaded = release_digests(), {}
    sizes = [int(s) for s in args.sizes.split(",")]
    if not args.build_only and not all(cached_input(size, digests)[1] for size in sizes):
        # built in a child: a process's peak RSS counts its parent's at the fork, so the process
        # that starts the measured commands never holds the releases
        subprocess.run([sys.executable, __file__, "--build-only", "--sizes", args.sizes], check=True)
        if not all(cached_input(size, digests)[1] for size in sizes):
            raise SystemExit("the inputs were not built")
    inputs = {size: input_of(size, digests, loaded) for size in sizes}
    mb = {size: path.stat().st_size / MB for size, path in inputs.items()}
    for size, path in inputs.items():
        print(f"{size} MB: {path} ({mb[size]:.2f} MB, sha256 {sha256(path)[:12]})", file=sys.stderr)
    if args.build_only:
        return 0
    erratlas, ast_grep = find_command("erratlas", args.erratlas), find_command("ast-grep", args.ast_grep)
    load_before = os.getloadavg()
    all_series = measure(inputs, args.runs, erratlas, ast_grep)
    load_after = os.getloadavg()

    print(f"**inputs** cli.js of claude-code {', '.join(RELEASES)}, each wrapped in a function, the last "
          f"cut at a top-level statement; MB = 10^6 bytes  ")
    print(f"**runs** {args.runs} interleaved rounds, no warm-up; {os.cpu_count()} CPUs, load avg "
          f"{fmt_load(load_before)} before, {fmt_load(load_after)} after; {time.strftime('%Y-%m-%d', time.gmtime())}; "
          f"{platform.system()} {platform.machine()}, Python {platform.python_version()}, {version_of(ast_grep)}")
    print()
    print("\n".join(table(all_series, mb)))
    print()
    print("CPU: user + system of the command and every process it waited for. Peak RSS: the largest "
          "single process (rusage). Peak PSS sum: the largest sum, sampled every 50 ms, of PSS over "
          "the command and every process it forked. Medians, range in brackets. x smallest: the "
          "per-MB median over the smallest input's.")
    if args.plot:
        args.plot.write_text(svg_plot(all_series, mb, "Cost per MB of JavaScript against the input's size"))
        print(f"\nplot: {args.plot}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
