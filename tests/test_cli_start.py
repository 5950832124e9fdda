"""The console script builds only the verb its first argument names (docs/performance.md, "The
gate"): what any command line prints and its exit status are those of the app with every verb."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from conftest import erratlas_command

#: the app with every verb registered, run as the console script would be without the pruning
WHOLE_APP = "import sys; sys.argv[0] = 'erratlas'; from analyzer.cli.app import main; import analyzer.cli.verbs; main()"


@pytest.mark.parametrize("argv", [
    ["gate", "--help"], ["gate"], ["gate", "/nonexistent/scan"], ["gate", ".", "--bogus"], ["gat"], ["--help"], [],
    ["version"], ["corpus", "--help"], ["diff", "--help"], ["scan", "--help"], ["gate", ".", "--min-coverage", "2"],
    ["gate", "--allow-stale", "--format=github", "."], ["gate", ".", "-a", "x.toml", "--allowlist", "y.toml"],
    ["gate", ".", "-ax.toml"], ["gate", ".", "--format", "text", "--format", "xml"], ["gate", ".", "--allow-stale=1"],
    ["gate", ".", "--max-new-swallowed", "-1"], ["gate", ".", "--min-coverage", "x"], ["gate", "--", "."],
    ["gate", ".", "--baseline"], ["gate", ".", "/nonexistent/scan"],
])
def test_a_command_line_says_what_the_whole_app_says(argv: list[str]) -> None:
    pruned = subprocess.run([erratlas_command(), *argv], capture_output=True, text=True, timeout=120)
    whole = subprocess.run([sys.executable, "-c", WHOLE_APP, *argv], capture_output=True, text=True, timeout=120)
    assert (pruned.returncode, pruned.stdout, pruned.stderr) == (whole.returncode, whole.stdout, whole.stderr)


def test_a_plain_gate_reads_the_options_the_gate_verb_has() -> None:
    """The table a plain gate command line is read by (analyzer.cli.gating) is the typer
    command's: every spelling, parameter, repetition and conversion."""
    import typer.main

    from analyzer.cli.gating import OPTIONS
    from analyzer.cli.verbs import app

    kinds = {"FloatParamType": "float", "StringParamType": "text", "TyperPath": "path", "IntRange": "count",
             "BoolParamType": "flag"}
    expected: dict[str, tuple[str | None, str]] = {}
    for param in typer.main.get_command(app).commands["gate"].params:  # type: ignore[attr-defined]
        if param.param_type_name != "option":
            continue
        kind = kinds[type(param.type).__name__]
        assert not param.secondary_opts and not param.envvar
        assert kind != "count" or (param.type.min, param.type.max) == (0, None)
        assert kind != "path" or (param.type.readable, param.type.exists, param.type.allow_dash) == (True, False, False)
        assert kind != "flag" or param.is_flag
        expected |= dict.fromkeys(param.opts, (param.name, ("many:" if param.multiple else "") + kind))
    assert expected == OPTIONS


def test_a_plain_gate_leaves_out_what_the_gate_verb_defaults() -> None:
    """An option a plain gate command line does not give takes `gate_status`'s default: the typer
    command's, option by option."""
    import inspect

    import typer.main

    from analyzer.cli.gating import gate_status
    from analyzer.cli.verbs import app

    defaults = {name: parameter.default for name, parameter in inspect.signature(gate_status).parameters.items()
                if parameter.default is not inspect.Parameter.empty}
    command = typer.main.get_command(app).commands["gate"]  # type: ignore[attr-defined]
    given = {param.name: param.default for param in command.params if param.param_type_name == "option"}
    assert given == defaults


def test_a_passing_gate_imports_neither_typer_nor_rich(demo_scanned_once: Path) -> None:
    shown = subprocess.run([sys.executable, "-X", "importtime", "-c",
                            "import sys; sys.argv[0] = 'erratlas'; from analyzer.cli import main; main()",
                            "gate", str(demo_scanned_once)], capture_output=True, text=True, timeout=120)
    assert shown.returncode == 0 and "gate passed" in shown.stdout
    assert not [line for line in shown.stderr.splitlines() if line.split("|")[-1].strip().startswith(("typer", "rich"))]


def test_a_gate_asked_for_shell_completion_answers_as_the_app(demo_scanned_once: Path) -> None:
    """click answers shell completion when `_ERRATLAS_COMPLETE` is set, before any verb runs."""
    import os

    environment = {**os.environ, "_ERRATLAS_COMPLETE": "bash_complete", "COMP_WORDS": "erratlas gate",
                   "COMP_CWORD": "1"}
    argv = ["gate", str(demo_scanned_once)]
    pruned = subprocess.run([erratlas_command(), *argv], capture_output=True, text=True, timeout=120, env=environment)
    whole = subprocess.run([sys.executable, "-c", WHOLE_APP, *argv], capture_output=True, text=True, timeout=120,
                           env=environment)
    assert (pruned.returncode, pruned.stdout, pruned.stderr) == (whole.returncode, whole.stdout, whole.stderr)
