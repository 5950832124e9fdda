"""The console script builds only the verb its first argument names (docs/performance.md, "The
gate"): what any command line prints and its exit status are those of the app with every verb."""

from __future__ import annotations

import subprocess
import sys

import pytest
from conftest import erratlas_command

#: the app with every verb registered, run as the console script would be without the pruning
WHOLE_APP = "import sys; sys.argv[0] = 'erratlas'; from analyzer.cli.app import main; import analyzer.cli; main()"


@pytest.mark.parametrize("argv", [
    ["gate", "--help"], ["gate"], ["gate", "/nonexistent/scan"], ["gate", ".", "--bogus"], ["gat"], ["--help"], [],
    ["version"], ["corpus", "--help"], ["diff", "--help"], ["scan", "--help"], ["gate", ".", "--min-coverage", "2"],
])
def test_a_command_line_says_what_the_whole_app_says(argv: list[str]) -> None:
    pruned = subprocess.run([erratlas_command(), *argv], capture_output=True, text=True, timeout=120)
    whole = subprocess.run([sys.executable, "-c", WHOLE_APP, *argv], capture_output=True, text=True, timeout=120)
    assert (pruned.returncode, pruned.stdout, pruned.stderr) == (whole.returncode, whole.stdout, whole.stderr)
