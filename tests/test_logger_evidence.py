"""The summary's `loggers[].evidence`: what each frontend chose its logger on (README.md,
"Scanning"), its keys in a fixed order."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from conftest import scan

LOGGED = """function log(message, options = {level: "debug"}) { console.log(message, options); }
function other(message, options) { console.log(message); }
log("started", {level: "info"});
log("failed", {level: "error"});
log("again", {level: "info"});
other("x", {level: "warn"});
other("y", {level: "warn"});
log("plain");
"""
CANDIDATE_KEYS = ["name", "declarationOffset", "calls", "levelOptionCalls", "defaultLevelDeclaration"]


def _logger(bundle: Path, out: Path, *extra: str) -> dict[str, Any]:
    """The scan's one `loggers` entry."""
    loggers: list[dict[str, Any]] = scan(bundle, out, *extra)["loggers"]  # type: ignore[assignment]
    (logger,) = loggers
    return logger


def _evidence(tmp_path: Path, name: str, source: str, *extra: str) -> dict[str, Any]:
    bundle = tmp_path / name
    bundle.write_text(source, encoding="utf-8")
    return _logger(bundle, tmp_path / "out", *extra)


def test_a_detected_logger_lists_its_counts_levels_reasons_and_runner_ups(tmp_path: Path) -> None:
    logger = _evidence(tmp_path, "logged.js", LOGGED)
    assert (logger["name"], logger["source"]) == ("log", "detected")
    evidence = logger["evidence"]
    assert isinstance(evidence, dict)
    assert list(evidence) == [*CANDIDATE_KEYS, "levels", "reasons", "runnerUps"]
    assert [evidence[k] for k in CANDIDATE_KEYS] == ["log", 9, 4, 3, True]
    assert evidence["levels"] == {"error": 1, "info": 2}
    assert evidence["reasons"][-1] == "3 of its 4 calls pass a literal {level: ...} option"
    (runner_up,) = evidence["runnerUps"]
    assert runner_up == {"name": "other", "declarationOffset": LOGGED.index("other"), "calls": 2,
                         "levelOptionCalls": 2, "defaultLevelDeclaration": False, "levels": {"warn": 2}}


def test_a_logger_named_by_the_option_lists_no_levels_and_no_runner_ups(tmp_path: Path) -> None:
    logger = _evidence(tmp_path, "logged.js", LOGGED, "--logger", "other")
    evidence = logger["evidence"]
    assert isinstance(evidence, dict)
    assert list(evidence) == [*CANDIDATE_KEYS, "reasons", "runnerUps"]
    assert (evidence["name"], evidence["levelOptionCalls"], evidence["runnerUps"]) == ("other", 2, [])
    assert evidence["reasons"] == ["--logger other: the outermost binding of 'other'"]


def test_no_logger_found_says_why_and_names_no_binding(tmp_path: Path) -> None:
    logger = _evidence(tmp_path, "quiet.js", 'function f(x) { return x; }\nf("one", {level: "info"});\n')
    assert (logger["name"], logger["source"], logger["declaration"]) == (None, "none", None)
    assert logger["evidence"] == {
        "reasons": ["no binding is called with a literal {level: ...} option at least 2 times"], "runnerUps": []}


def test_a_python_module_lists_its_logging_bindings_sorted(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text(
        'import logging\nlogger = logging.getLogger(__name__)\nclass C:\n    log = logging.getLogger("c")\n'
        'def f():\n    logger.warning("w")\n', encoding="utf-8")
    logger = _logger(package, tmp_path / "out")
    assert (logger["name"], logger["source"]) == ("logging", "python")
    assert logger["evidence"] == ["pkg.C.log (attribute)", "pkg.logger"]


def test_a_logger_named_by_the_option_counts_its_calls_though_no_detection_would_consider_it(
    tmp_path: Path,
) -> None:
    logger = _evidence(tmp_path, "quiet.js", 'function f(x) { return x; }\nf("one", {level: "info"});\nf("two");\n',
                       "--logger", "f")
    evidence = logger["evidence"]
    assert (logger["name"], logger["source"]) == ("f", "option")
    assert (evidence["calls"], evidence["levelOptionCalls"], evidence["defaultLevelDeclaration"]) == (2, 1, False)
