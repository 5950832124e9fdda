#!/usr/bin/env python3
"""Rebuild the canonical allowlist for @anthropic-ai/claude-code@2.1.100 from the reviewed decisions.

Source of truth: allowlists/claude-code-2.1.100.review.toml (human-authored decisions).
Outputs (regenerated from scratch on every run, so re-running is deterministic):

  allowlists/claude-code-2.1.100.toml                           written by `erratlas allow`
  reports/claude-code-2.1.100/error-diagnostic-owner-index.md    from `erratlas project`
  reports/claude-code-2.1.100/error-diagnostic-owner-summary.json

Usage:
  python allowlists/build_claude_code_2_1_100.py [SCAN_DIR] [--bundle CLI_JS] [--erratlas EXE]

SCAN_DIR is an existing `erratlas scan` output of 2.1.100; without it the cached cli.js
(~/.cache/erratlas/npm/@anthropic-ai__claude-code-2.1.100/package/cli.js, or --bundle) is
scanned into a temporary directory. Every `select` must resolve to exactly one callsite
(its message comparisonKey or static text); otherwise the script stops and names the
offending decisions, without touching the allowlist.

Standard library only; the tool itself is driven through its CLI.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
REVIEW = Path("allowlists/claude-code-2.1.100.review.toml")
ALLOWLIST = Path("allowlists/claude-code-2.1.100.toml")
REPORTS = Path("reports/claude-code-2.1.100")
REPORT_FILES = ("error-diagnostic-owner-index.md", "error-diagnostic-owner-summary.json")
RECORD_FILES = ("error-message-callsites.jsonl", "diagnostic-message-callsites.jsonl")
PACKAGE, VERSION = "@anthropic-ai/claude-code", "2.1.100"
REVIEWER, REVIEWED_ON = "erratlas-team", "2026-11-29"

DECISION_KEYS = {"select", "scope", "owner", "package", "name", "reason"}
SCOPES = ("function", "callsite")
OWNERS = ("Product", "Dependency")


class BuildError(Exception):
    pass


def find_erratlas(explicit: str | None) -> str:
    candidates = [
        explicit,
        os.environ.get("ERRATLAS"),
        str(Path(sys.executable).parent / "erratlas"),
        shutil.which("erratlas"),
    ]
    for candidate in candidates:
        if candidate and Path(candidate).is_file() and os.access(candidate, os.X_OK):
            return candidate
    raise BuildError("cannot find the `erratlas` executable (use --erratlas or $ERRATLAS)")


def default_bundle() -> Path:
    cached = (
        Path.home()
        / ".cache/erratlas/npm"
        / f"{PACKAGE.replace('/', '__')}-{VERSION}"
        / "package/cli.js"
    )
    if cached.is_file():
        return cached
    # Fall back to the test helper that fetches the package into the same cache.
    python = Path(sys.executable)
    code = (
        "import sys; sys.path.insert(0, 'tests'); from support import npm_cache; "
        f"print(npm_cache.main_file({PACKAGE!r}, {VERSION!r}))"
    )
    done = subprocess.run(
        [str(python), "-c", code], cwd=REPO, capture_output=True, text=True, check=False
    )
    path = (
        Path(done.stdout.strip().splitlines()[-1])
        if done.returncode == 0 and done.stdout.strip()
        else None
    )
    if path is None or not path.is_file():
        raise BuildError(
            f"{cached}: not found and could not be fetched ({done.stderr.strip()[-300:]})"
        )
    return path


def run(args: list[str], *, quiet: bool = True) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(args, cwd=REPO, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise BuildError(
            f"command failed ({done.returncode}): {' '.join(args[:3])} ...\n{done.stderr.strip()}{done.stdout.strip()}"
        )
    if not quiet and done.stdout.strip():
        print(done.stdout.strip())
    return done


def load_decisions(path: Path) -> list[dict[str, str]]:
    try:
        document = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise BuildError(f"{path}: {exc}") from exc
    decisions = document.get("decision")
    if not isinstance(decisions, list) or not decisions:
        raise BuildError(f"{path}: no [[decision]] tables")
    problems = []
    for number, decision in enumerate(decisions, 1):
        where = f"{path}: decision #{number}"
        unknown = set(decision) - DECISION_KEYS
        if unknown:
            problems.append(f"{where}: unknown key(s) {sorted(unknown)}")
        for key in ("select", "scope", "owner", "name", "reason"):
            if not isinstance(decision.get(key), str) or not decision[key]:
                problems.append(f"{where}: '{key}' must be a non-empty string")
        if decision.get("scope") not in SCOPES:
            problems.append(f"{where}: scope must be one of {SCOPES}")
        if decision.get("owner") not in OWNERS:
            problems.append(f"{where}: owner must be one of {OWNERS}")
        if decision.get("owner") == "Dependency" and not decision.get("package"):
            problems.append(f"{where}: a Dependency decision needs 'package'")
        if decision.get("owner") == "Product" and "package" in decision:
            problems.append(f"{where}: a Product decision takes no 'package'")
    if problems:
        raise BuildError("\n".join(problems))
    return decisions


def load_records(scan: Path) -> list[dict]:  # type: ignore[type-arg]
    records = []
    for name in RECORD_FILES:
        path = scan / name
        if not path.is_file():
            raise BuildError(f"{path}: missing (is {scan} an erratlas scan directory?)")
        with path.open(encoding="utf-8") as handle:
            records.extend(json.loads(line) for line in handle if line.strip())
    return records


def resolve(
    decisions: list[dict[str, str]], records: list[dict]
) -> list[tuple[dict[str, str], dict]]:  # type: ignore[type-arg]
    by_key: dict[str, list[dict]] = {}  # type: ignore[type-arg]
    for record in records:
        message = record["message"]
        for value in {message.get("comparisonKey"), message.get("text")} - {None}:
            by_key.setdefault(value, []).append(record)
    resolved, problems, claimed = [], [], {}
    for number, decision in enumerate(decisions, 1):
        matches = {r["id"]: r for r in by_key.get(decision["select"], [])}
        label = f"decision #{number} ({decision['name']}) select {decision['select']!r}"
        if len(matches) != 1:
            ids = ", ".join(sorted(matches)[:5])
            problems.append(
                f"{label}: matches {len(matches)} callsites{': ' + ids if ids else ''} (need exactly one)"
            )
            continue
        record = next(iter(matches.values()))
        match = (
            record["functionFingerprint"]
            if decision["scope"] == "function"
            else record["fingerprint"]
        )
        if not match:
            problems.append(
                f"{label}: callsite {record['id']} has no {decision['scope']} fingerprint"
            )
            continue
        if match in claimed:
            problems.append(
                f"{label}: same {decision['scope']} ({match}) as decision #{claimed[match]}"
            )
            continue
        claimed[match] = number
        resolved.append((decision, record))
    if problems:
        raise BuildError("unresolvable decisions:\n  " + "\n  ".join(problems))
    return resolved


def build(scan: Path, erratlas: str) -> None:
    decisions = load_decisions(REPO / REVIEW)
    resolved = resolve(decisions, load_records(scan))
    allowlist = REPO / ALLOWLIST
    allowlist.unlink(missing_ok=True)
    for decision, record in resolved:
        args = [
            erratlas,
            "allow",
            str(scan),
            record["id"],
            "--allowlist",
            str(ALLOWLIST),
            "--owner",
            decision["owner"],
            "--name",
            decision["name"],
            "--reason",
            decision["reason"],
            "--reviewer",
            REVIEWER,
            "--on",
            REVIEWED_ON,
        ]
        if decision.get("package"):
            args += ["--package", decision["package"]]
        if decision["scope"] == "function":
            args.append("--function")
        run(args)
    print(f"wrote {ALLOWLIST} from {len(resolved)} decisions")
    run([erratlas, "project", str(scan), "--allowlist", str(ALLOWLIST)], quiet=False)
    reports = REPO / REPORTS
    reports.mkdir(parents=True, exist_ok=True)
    for name in REPORT_FILES:
        shutil.copyfile(scan / name, reports / name)
    print(f"copied {', '.join(REPORT_FILES)} to {REPORTS}/")
    gate = subprocess.run(
        [erratlas, "gate", str(scan)], cwd=REPO, capture_output=True, text=True, check=False
    )
    print(
        f"gate: exit {gate.returncode}{(': ' + gate.stdout.strip()) if gate.stdout.strip() else ''}{gate.stderr.strip()}"
    )
    if gate.returncode != 0:
        raise BuildError("the gate fails on the rebuilt allowlist (stale or drifted entries?)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "scan", nargs="?", type=Path, help="existing erratlas scan directory of 2.1.100"
    )
    parser.add_argument(
        "--bundle", type=Path, help="cli.js to scan when no scan directory is given"
    )
    parser.add_argument("--erratlas", help="path of the erratlas executable")
    options = parser.parse_args(argv)
    try:
        erratlas = find_erratlas(options.erratlas)
        if options.scan is not None:
            build(options.scan.resolve(), erratlas)
            return 0
        bundle = (options.bundle or default_bundle()).resolve()
        with tempfile.TemporaryDirectory(prefix="erratlas-cc-2.1.100-") as temporary:
            scan = Path(temporary) / "scan"
            print(f"scanning {bundle} ...")
            run([erratlas, "scan", str(bundle), "--out", str(scan)])
            build(scan, erratlas)
        return 0
    except BuildError as exc:
        print(f"build_claude_code_2_1_100: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
