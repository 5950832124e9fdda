"""Oracle scans of the Python frontend: `erratlas` with one of its choices replaced, for tests
that compare the outputs byte for byte with an ordinary scan's.

- `libcst`: every file resolved by libcst's own scope analysis (`ScopeNames`), never by the
  bindings the one pass recorded (`ModuleNames`), and parsed whole;
- `whole`: every unit parsed whole, none reduced (`analyzer.python.reduce`).

usage: python tests/support/python_oracles.py libcst|whole ERRATLAS-ARGUMENTS...
The replacement is made in this process before the scan starts; the workers are forked from
it (Linux), so they inherit it.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

MODES = ("libcst", "whole")


def command(mode: str, *arguments: object) -> list[str]:
    """The command line of an oracle scan, run with this interpreter."""
    assert mode in MODES, mode
    return [sys.executable, str(Path(__file__).resolve()), mode, *map(str, arguments)]


def run(mode: str, *arguments: object, timeout: float = 1800) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "ERRATLAS_DEBUG"}
    return subprocess.run(command(mode, *arguments), capture_output=True, text=True, timeout=timeout, env=env,
                          check=False)


def _replace(mode: str) -> None:
    from analyzer.python import extract
    from analyzer.python.resolve import NeedScopes

    # what is replaced must exist: an oracle that replaces nothing would equal the scan it checks
    assert callable(extract._reduction) and callable(extract.ModuleNames)
    def whole(*_: object) -> None:
        return None

    extract._reduction = whole  # type: ignore[assignment]
    if mode == "libcst":
        class ScopesEverywhere:
            def __init__(self, *_: object) -> None:
                raise NeedScopes("the oracle resolves every file with libcst's scope analysis")

        extract.ModuleNames = ScopesEverywhere  # type: ignore[assignment,misc]


def main() -> None:
    if not hasattr(os, "fork"):
        raise SystemExit("the oracles need forked workers, which inherit the replacement")
    mode, arguments = sys.argv[1], sys.argv[2:]
    if mode not in MODES:
        raise SystemExit(f"mode must be one of {', '.join(MODES)}")
    _replace(mode)
    from analyzer.cli import main as erratlas

    sys.argv = ["erratlas", *arguments]
    erratlas()


if __name__ == "__main__":
    main()
