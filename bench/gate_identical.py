"""`erratlas gate` of two installations, on the variants a CI runs and those it must refuse: the
exit status, stdout and stderr of each compared byte for byte.

usage: python bench/gate_identical.py BASE_ERRATLAS THIS_ERRATLAS CLI_SCAN EXE_SCAN

BASE_ERRATLAS and THIS_ERRATLAS are `erratlas` commands (a wheel's, each in its own clean
virtualenv, say); CLI_SCAN is a scan of claude-code 2.1.100's `cli.js` without an allowlist and
EXE_SCAN one of the 2.1.235 linux-x64 executable with `allowlists/claude-code.toml`, both made
from the repository root (where the recorded allowlist paths are found), where the gates run too.
Prints a markdown table (variant, exit status, identical or what differs) and exits 1 when any
variant differs. Paths in the outputs are the same on both sides: both run the same arguments.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parent.parent


def variants(cli: Path, exe: Path, nothing: Path) -> list[tuple[str, list[str]]]:
    """(name, arguments after `erratlas`) of every variant: each scan alone and with the options a
    CI gives, thresholds that pass and fail, baselines (the other scan's summary too, so that
    callsites drop, new ones appear and the handler thresholds fail), the allowlists given right
    and wrong, and the inputs and options the gate refuses."""
    cli_summary = str(cli / "error-diagnostic-owner-summary.json")
    exe_summary = str(exe / "error-diagnostic-owner-summary.json")
    out: list[tuple[str, list[str]]] = []
    for name, scan, other_summary, own_summary, extra in (
        ("2.1.100", cli, exe_summary, cli_summary, []),
        ("exe", exe, cli_summary, exe_summary, ["--allow-stale"]),
    ):
        target = str(scan)
        runs = [
            ("plain", []),
            ("--allow-stale", ["--allow-stale"]),
            ("github", ["--format", "github", *extra]),
            ("sarif", ["--format", "sarif", *extra]),
            ("--min-coverage 0.5", ["--min-coverage", "0.5", *extra]),
            ("--min-coverage 0.999 (fails)", ["--min-coverage", "0.999", *extra]),
            ("--min-coverage-kind error=0.99 diagnostic=0.1", ["--min-coverage-kind", "error=0.99",
                                                               "--min-coverage-kind", "diagnostic=0.1", *extra]),
            ("github, failing", ["--format", "github", "--min-coverage", "0.999", *extra]),
            ("sarif, failing", ["--format", "sarif", "--min-coverage=0.999", *extra]),
            ("own baseline, handler thresholds", ["--baseline", own_summary, "--max-new-swallowed", "0",
                                                  "--max-new-lost-cause", "0", *extra]),
            ("other baseline, handler thresholds (fail)", ["--baseline", other_summary, "--max-new-swallowed", "0",
                                                           "--max-new-lost-cause", "0", *extra]),
            ("other baseline, sarif", ["--format", "sarif", "--baseline", other_summary, "--max-new-swallowed", "1",
                                       *extra]),
            ("wrong allowlist", ["-a", "allowlists/demo.toml", *extra]),
            ("bad --max-drop", ["--max-drop", "1.5", *extra]),
            ("handler threshold without baseline", ["--max-new-swallowed", "0", *extra]),
        ]
        if name == "exe":
            runs.append(("right allowlist given", ["--allowlist", "allowlists/claude-code.toml", "--allow-stale"]))
        out += [(f"{name}: {label}", ["gate", target, *options]) for label, options in runs]
    out += [
        ("bad format", ["gate", str(cli), "--format", "xml"]),
        ("bad threshold", ["gate", str(cli), "--min-coverage", "2"]),
        ("not a number", ["gate", str(cli), "--min-coverage", "most"]),
        ("bad kind", ["gate", str(cli), "--min-coverage-kind", "warning=0.5"]),
        ("unknown option", ["gate", str(cli), "--bogus"]),
        ("missing directory", ["gate", "/nonexistent/scan"]),
        ("no directory", ["gate"]),
        ("a directory that is no scan", ["gate", str(nothing)]),
        ("--help", ["gate", "--help"]),
        # the spellings of a command line: options first, `=`, short, repeated, `--`, a dash value
        ("options before the directory, --format=github", ["gate", "--allow-stale", "--format=github", str(exe)]),
        ("-a given short", ["gate", str(exe), "-a", "allowlists/claude-code.toml", "--allow-stale"]),
        ("-aFILE", ["gate", str(exe), "-aallowlists/claude-code.toml", "--allow-stale"]),
        ("--format twice (the last one holds)", ["gate", str(cli), "--format", "text", "--format", "github"]),
        ("--allow-stale twice", ["gate", str(cli), "--allow-stale", "--allow-stale"]),
        ("a negative threshold", ["gate", str(cli), "--min-coverage", "-1"]),
        ("a negative count", ["gate", str(cli), "--baseline", cli_summary, "--max-new-swallowed", "-1"]),
        ("--allow-stale=1", ["gate", str(cli), "--allow-stale=1"]),
        ("-- before the directory", ["gate", "--", str(cli)]),
    ]
    return out


def run(command: str, arguments: list[str]) -> tuple[int, bytes, bytes]:
    done = subprocess.run([command, *arguments], cwd=REPOSITORY, capture_output=True, check=False)
    return done.returncode, done.stdout, done.stderr


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base", help="the base installation's `erratlas`")
    parser.add_argument("this", help="this installation's `erratlas`")
    parser.add_argument("cli", type=Path, help="a scan of 2.1.100 cli.js, no allowlist")
    parser.add_argument("exe", type=Path, help="a scan of the 2.1.235 executable, allowlists/claude-code.toml")
    args = parser.parse_args()
    print("| variant | exit | outputs |\n|---|---:|---|")
    differ = 0
    with tempfile.TemporaryDirectory() as nothing:
        for name, arguments in variants(args.cli.resolve(), args.exe.resolve(), Path(nothing)):
            base, this = run(args.base, arguments), run(args.this, arguments)
            said = "identical" if base == this else ", ".join(
                part for part, a, b in zip(("exit status", "stdout", "stderr"), base, this) if a != b) + " differ"
            differ += base != this
            print(f"| {name} | {base[0]} | {said} |")
    print(f"\n{differ} of {len(variants(args.cli, args.exe, Path('.')))} variants differ")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
