"""Rules: one type for every language, validated by one table of keys, the defaults only in the
shipped files, and a file laid over them key by key (docs/reference.md, "Rules")."""

from __future__ import annotations

import hashlib
import json
import tomllib
from pathlib import Path

import pytest
from conftest import FIXTURES, ROOT, records, run, scan

from analyzer.javascript.rules import compile_rules as compile_javascript
from analyzer.python.rules import compile_rules as compile_python
from analyzer.python.rules import for_input
from analyzer.rules import SCHEMA, SHIPPED, RulesError, load_rules, shipped_rules_path
from analyzer.rules.keys import cross_checks

PYTHON_FIXTURE = FIXTURES / "python" / "shadowing"


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "rules.toml"
    path.write_text(text)
    return path


def one_line_error(result, path: Path, line: int, key: str) -> str:  # type: ignore[no-untyped-def]
    assert result.returncode == 2, (result.returncode, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
    assert f"{path}:{line}: key '{key}'" in lines[0], lines[0]
    return lines[0]


@pytest.mark.parametrize("language", sorted(SHIPPED))
def test_the_shipped_file_sets_every_key_of_the_table_and_no_other(language: str) -> None:
    shipped = tomllib.loads(shipped_rules_path(language).read_text())  # type: ignore[arg-type]
    assert {s: set(keys) for s, keys in shipped.items()} == {s: set(keys) for s, keys in SCHEMA[language].items()}
    rules = load_rules(language)  # type: ignore[arg-type]
    assert rules.language == language and rules.path.endswith(SHIPPED[language])  # type: ignore[index]
    assert rules.sha256 == hashlib.sha256((ROOT / "rules" / SHIPPED[language]).read_bytes()).hexdigest()  # type: ignore[index]


def test_every_check_between_keys_names_keys_of_the_table() -> None:
    for language, schema in SCHEMA.items():
        for check in cross_checks(language):
            for section, key in (check.key, check.levels):
                assert key in schema[section], (language, section, key)


def test_the_compile_steps_read_the_shipped_values() -> None:
    javascript = compile_javascript(load_rules("javascript"))
    assert javascript.constructors == ("Error", "TypeError", "RangeError") and javascript.logger_name is None
    assert len(javascript.class_roots) == 8 and javascript.default_level == "debug"
    python = compile_python(load_rules("python"))
    assert python.level_numbers == ((0, "verbose"), (10, "debug"), (20, "info"), (30, "warn"), (40, "error"))
    assert python.warning_functions == ("warnings.warn", "warnings.warn_explicit")


def test_the_inputs_own_modules_take_their_names_off_the_external_list() -> None:
    """A listed name is dropped only when its module itself is one of the input's; a package of
    the input does not take its submodules' names (docs/reference.md, "Rules")."""
    python = compile_python(load_rules("python"))
    assert for_input(python, ["app.main", "email.utils"]) is python
    own = for_input(python, ["xml.etree.ElementTree", "tarfile", "xml"])
    dropped = set(python.external) - set(own.external)
    assert dropped == {n for n in python.external if n.startswith("tarfile.")} | {"xml.etree.ElementTree.ParseError"}
    assert len(dropped) == 18 and "xml.etree.cElementTree.ParseError" in own.external
    # the input's names now: settled with its classes, still names a callee may end in
    assert own.own_external == dropped and own.last_names == python.last_names


def test_a_file_of_one_key_keeps_every_other_shipped_value(tmp_path: Path) -> None:
    path = write(tmp_path, '[errors]\nconstructors = ["Error"]\n')
    rules = load_rules("javascript", path)
    shipped = load_rules("javascript")
    assert rules.names("errors", "constructors") == ("Error",)
    assert rules.names("errors", "classRoots") == shipped.names("errors", "classRoots")
    assert rules.sections["logger"] == shipped.sections["logger"]
    assert rules.path == str(path) and rules.sha256 == hashlib.sha256(path.read_bytes()).hexdigest()


def test_a_scan_with_one_key_counts_by_it_and_keeps_the_shipped_rest(tmp_path: Path) -> None:
    path = write(tmp_path, '[errors]\nconstructors = ["Error"]\n')
    default, narrowed = tmp_path / "default", tmp_path / "narrowed"
    scan(FIXTURES / "demo" / "demo.min.js", default)
    summary = scan(FIXTURES / "demo" / "demo.min.js", narrowed, "--rules", path)
    assert {r["constructor"] for r in records(narrowed, "error")} == {"Error"}
    assert len(records(narrowed, "error")) < len(records(default, "error"))
    # classRoots and the logger keys come from the shipped file
    assert (narrowed / "error-classes.jsonl").read_bytes() == (default / "error-classes.jsonl").read_bytes()
    assert records(narrowed, "diagnostic") == records(default, "diagnostic")
    assert summary["inputs"]["rules"] == {"name": "rules.toml", "sha256": hashlib.sha256(path.read_bytes()).hexdigest()}  # type: ignore[index]


def test_a_python_file_of_one_key_keeps_every_other_shipped_value(tmp_path: Path) -> None:
    path = write(tmp_path, '[warnings]\nlevel = "error"\n')
    out = tmp_path / "out"
    scan(PYTHON_FIXTURE, out, "--rules", path)
    diagnostics = records(out, "diagnostic")
    assert {r["level"] for r in diagnostics if r["calleeRole"] == "warnings"} == {"error"}
    assert {r["level"] for r in diagnostics if r["calleeRole"] != "warnings"} - {"error"}


def test_an_error_is_typed_and_names_file_line_and_key(tmp_path: Path) -> None:
    path = write(tmp_path, '[errors]\nconstructors = ["Error"]\n\n[logger]\nmessageArgument = -1\n')
    with pytest.raises(RulesError) as raised:
        load_rules("javascript", path)
    assert (raised.value.file, raised.value.line, raised.value.key) == (str(path), 5, "logger.messageArgument")
    assert raised.value.problem == "key 'logger.messageArgument': must not be negative"


@pytest.mark.parametrize(("text", "line", "key", "said"), [
    ('[errors]\nconstructors = []\n', 2, "errors.constructors", "must not be empty"),
    ('[errors]\nclassRoots = ["Error", "Error"]\n', 2, "errors.classRoots", "has duplicates"),
    ('[logger]\nname = "a-b"\n', 2, "logger.name", "'a-b' is not a JavaScript identifier"),
    ('[logger]\ndefaultLevel = "loud"\n', 2, "logger.defaultLevel", "must be one of levels"),
    ('[logger]\nlevels = ["info"]\n', 2, "logger.levels",
     "leaves out 'debug', which the shipped 'logger.defaultLevel'"),
    ('[logger]\nlevels = ["info"]\ndefaultLevel = "warn"\n', 3, "logger.defaultLevel", "must be one of levels"),
    ('[colours]\nred = 1\n', 1, "colours", "unknown section"),
    ('[logger]\nlevelKey = 3\n', 2, "logger.levelKey", "must be str"),
    ('[errors]\nbuiltins = ["ValueError"]\n', 2, "errors.builtins",
     "unknown key: a key of the Python rules, and the input is JavaScript"),
    ('language = "python"\n', 1, "language", "rules for Python, and the input is JavaScript"),
    ('language = "cobol"\n', 1, "language", "must be one of javascript, python"),
])
def test_a_bad_javascript_rules_file_is_one_line_at_its_key(
        tmp_path: Path, text: str, line: int, key: str, said: str) -> None:
    path = write(tmp_path, text)
    result = run("scan", FIXTURES / "demo" / "demo.min.js", "--out", tmp_path / "out", "--rules", path)
    assert said in one_line_error(result, path, line, key)
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize(("text", "line", "key", "said"), [
    ('[logging]\nmethods = { info = "loud" }\n', 2, "logging.methods", "'info' maps to 'loud', not one of levels"),
    ('[logging]\nlevelNumbers = { debug = -1 }\n', 2, "logging.levelNumbers", "'debug' must be a non-negative int"),
    ('[logging]\nlevelNumbers = { loud = 1 }\n', 2, "logging.levelNumbers", "'loud' is not one of levels"),
    ('[errors]\nexternal = ["a..b"]\n', 2, "errors.external", "'a..b' is not a dotted Python name"),
    ('[warnings]\nlevel = "loud"\n', 2, "warnings.level", "must be one of logging.levels"),
    ('[logging]\nlevels = ["debug", "info", "warn", "error"]\n', 2, "logging.levels", "leaves out 'verbose'"),
    ('[errors]\nconstructors = ["Error"]\n', 2, "errors.constructors", "a key of the JavaScript rules"),
    ('language = "python"\n[warnings]\nlevel = "warn"\n', 0, "", ""),
])
def test_a_bad_python_rules_file_is_one_line_at_its_key(
        tmp_path: Path, text: str, line: int, key: str, said: str) -> None:
    path = write(tmp_path, text)
    result = run("scan", PYTHON_FIXTURE, "--out", tmp_path / "out", "--rules", path)
    if not said:  # `language` that names the input's language is accepted
        assert result.returncode == 0, result.stderr
        return
    assert said in one_line_error(result, path, line, key)


def test_the_rules_the_summary_records_are_the_shipped_file_by_default(demo_scanned_once: Path) -> None:
    summary = json.loads((demo_scanned_once / "error-diagnostic-owner-summary.json").read_text())
    shipped = hashlib.sha256((ROOT / "rules" / "javascript.toml").read_bytes()).hexdigest()
    assert summary["inputs"]["rules"] == {"name": "javascript.toml", "sha256": shipped}
