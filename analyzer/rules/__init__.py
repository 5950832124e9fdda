"""Load and validate `rules/*.toml` (SPEC 9): unknown keys and wrong types name file, line, key."""

from __future__ import annotations

import hashlib
import importlib.resources
import re
from collections.abc import Callable
from dataclasses import dataclass
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

from analyzer.errors import InputError
from analyzer.tomlfile import TomlFile, read_toml

_IDENTIFIER = re.compile(r"^[A-Za-z_$][A-Za-z0-9_$]*$")


@dataclass(frozen=True, slots=True)
class JavaScriptRules:
    path: str
    sha256: str
    constructors: tuple[str, ...]
    class_roots: tuple[str, ...]
    logger_name: str | None
    level_key: str
    default_level: str
    levels: tuple[str, ...]
    message_argument: int
    options_argument: int
    min_level_option_calls: int


# section -> key -> (type, validator description)
_SCHEMA: dict[str, dict[str, type]] = {
    "errors": {"constructors": list, "classRoots": list},
    "logger": {
        "name": str,
        "levelKey": str,
        "defaultLevel": str,
        "levels": list,
        "messageArgument": int,
        "optionsArgument": int,
        "minLevelOptionCalls": int,
    },
}


def _fail(path: Path | Traversable, document: TomlFile, section: str | None, key: str, problem: str) -> InputError:
    line = document.line(section, key) if section else document.line(key)
    where = f"{section}.{key}" if section else key
    return InputError(f"{path}:{line}", f"key '{where}': {problem}")


def _sections(
    path: Path | Traversable, document: TomlFile, data: dict[str, Any], schema: dict[str, dict[str, type]],
    check_names: Callable[[Path | Traversable, TomlFile, str, str, list[Any]], None],
) -> dict[str, dict[str, Any]]:
    """Every section of `schema` (empty when absent), each key of the type the schema says;
    lists are checked by `check_names`, numbers must not be negative."""
    out: dict[str, dict[str, Any]] = {section: {} for section in schema}
    for section, body in data.items():
        if section not in schema:
            raise _fail(path, document, None, section, "unknown section")
        if not isinstance(body, dict):
            raise _fail(path, document, None, section, "must be a table")
        for key, value in body.items():
            expected = schema[section].get(key)
            if expected is None:
                raise _fail(path, document, section, key, "unknown key")
            if type(value) is not expected:
                raise _fail(
                    path, document, section, key, f"must be {'table' if expected is dict else expected.__name__}"
                )
            if isinstance(value, list):
                check_names(path, document, section, key, value)
            if isinstance(value, int) and value < 0:
                raise _fail(path, document, section, key, "must not be negative")
        out[section] = body
    return out


def _read_rules(path: Path | Traversable) -> tuple[bytes, TomlFile, dict[str, Any]]:
    """The raw bytes, the located document and the parsed table of a rules file."""
    document = read_toml(path, "rules file")
    return document.raw, document, document.data


def default_rules_path() -> Traversable:
    """The default JavaScript rules, shipped inside the package (`analyzer/rules/`); the
    repository's top-level `rules/` holds the same files as the documented, editable copy."""
    return _packaged("javascript.toml")


def _packaged(name: str) -> Traversable:
    """A rules file shipped as package data, read through `importlib.resources` so that it is
    found in a wheel, a zipped install or a checkout alike."""
    return importlib.resources.files(__name__).joinpath(name)


def load_javascript_rules(path: Path | Traversable | None = None) -> JavaScriptRules:
    path = path or default_rules_path()
    raw, document, data = _read_rules(path)
    values = _validated(path, document, data)
    errors, logger = values["errors"], values["logger"]
    return JavaScriptRules(
        path=str(path),
        sha256=hashlib.sha256(raw).hexdigest(),
        constructors=tuple(errors.get("constructors", ("Error", "TypeError", "RangeError"))),
        class_roots=tuple(errors.get("classRoots", ("Error",))),
        logger_name=logger.get("name") or None,
        level_key=logger.get("levelKey", "level"),
        default_level=logger.get("defaultLevel", "debug"),
        levels=tuple(logger.get("levels", ("verbose", "debug", "info", "warn", "error"))),
        message_argument=logger.get("messageArgument", 0),
        options_argument=logger.get("optionsArgument", 1),
        min_level_option_calls=logger.get("minLevelOptionCalls", 2),
    )


def _validated(path: Path | Traversable, document: TomlFile, data: dict[str, Any]) -> dict[str, dict[str, Any]]:
    out = _sections(path, document, data, _SCHEMA, _check_names)
    logger = out["logger"]
    name = logger.get("name", "")
    if name and not _IDENTIFIER.match(name):
        raise _fail(path, document, "logger", "name", f"'{name}' is not a JavaScript identifier")
    levels = logger.get("levels", ["debug"])
    if "defaultLevel" in logger and logger["defaultLevel"] not in levels:
        raise _fail(path, document, "logger", "defaultLevel", "must be one of levels")
    if not out["errors"].get("constructors", ["Error"]):
        raise _fail(path, document, "errors", "constructors", "must not be empty")
    return out


def _check_names(path: Path | Traversable, document: TomlFile, section: str, key: str, value: list[Any]) -> None:
    for item in value:
        if not isinstance(item, str):
            raise _fail(path, document, section, key, "must be a list of strings")
        if key != "levels" and not _IDENTIFIER.match(item):
            raise _fail(path, document, section, key, f"'{item}' is not a JavaScript identifier")
    if len(set(value)) != len(value):
        raise _fail(path, document, section, key, "has duplicates")


# --- Python rules (rules/python.toml) ------------------------------------------------------

_DOTTED = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$")


@dataclass(frozen=True, slots=True)
class PythonRules:
    path: str
    sha256: str
    #: builtin exception class names
    builtins: tuple[str, ...]
    #: dotted names of exception classes outside the bundle and builtins
    external: tuple[str, ...]
    #: logging function / logger method name -> level
    logging_methods: dict[str, str]
    level_method: str
    #: `logging.<NAME>` -> level
    level_names: dict[str, str]
    #: (threshold, level), ascending
    level_numbers: tuple[tuple[int, str], ...]
    logger_factories: tuple[str, ...]
    levels: tuple[str, ...]
    warning_functions: tuple[str, ...]
    warning_level: str


_PYTHON_SCHEMA: dict[str, dict[str, type]] = {
    "errors": {"builtins": list, "external": list},
    "logging": {
        "methods": dict,
        "levelMethod": str,
        "levelNames": dict,
        "levelNumbers": dict,
        "factories": list,
        "levels": list,
    },
    "warnings": {"functions": list, "level": str},
}
#: keys whose list items are dotted names rather than identifiers
_DOTTED_LISTS = frozenset({"external", "factories", "functions"})


def default_python_rules_path() -> Traversable:
    """The default Python rules, shipped inside the package beside the JavaScript ones."""
    return _packaged("python.toml")


def load_python_rules(path: Path | Traversable | None = None) -> PythonRules:
    path = path or default_python_rules_path()
    raw, document, data = _read_rules(path)
    values = _python_validated(path, document, data)
    errors, logging, warnings = values["errors"], values["logging"], values["warnings"]
    numbers = logging.get("levelNumbers", {"verbose": 0, "debug": 10, "info": 20, "warn": 30, "error": 40})
    return PythonRules(
        path=str(path),
        sha256=hashlib.sha256(raw).hexdigest(),
        builtins=tuple(errors.get("builtins", ("BaseException", "Exception"))),
        external=tuple(errors.get("external", ())),
        logging_methods=dict(logging.get("methods", {})),
        level_method=logging.get("levelMethod", "log"),
        level_names=dict(logging.get("levelNames", {})),
        level_numbers=tuple(sorted((value, level) for level, value in numbers.items())),
        logger_factories=tuple(logging.get("factories", ("logging.getLogger",))),
        levels=tuple(logging.get("levels", ("verbose", "debug", "info", "warn", "error"))),
        warning_functions=tuple(warnings.get("functions", ("warnings.warn",))),
        warning_level=warnings.get("level", "warn"),
    )


def _python_validated(path: Path | Traversable, document: TomlFile, data: dict[str, Any]) -> dict[str, dict[str, Any]]:
    out = _sections(path, document, data, _PYTHON_SCHEMA, _check_python_names)
    _check_python_levels(path, document, out)
    return out


def _check_python_names(path: Path | Traversable, document: TomlFile, section: str, key: str, value: list[Any]) -> None:
    pattern = _DOTTED if key in _DOTTED_LISTS else _IDENTIFIER
    for item in value:
        if not isinstance(item, str):
            raise _fail(path, document, section, key, "must be a list of strings")
        if key != "levels" and not pattern.match(item):
            kind = "a dotted Python name" if key in _DOTTED_LISTS else "a Python identifier"
            raise _fail(path, document, section, key, f"'{item}' is not {kind}")
    if len(set(value)) != len(value):
        raise _fail(path, document, section, key, "has duplicates")


def _check_python_levels(path: Path | Traversable, document: TomlFile, out: dict[str, dict[str, Any]]) -> None:
    logging, warnings = out["logging"], out["warnings"]
    levels = logging.get("levels", ["verbose", "debug", "info", "warn", "error"])
    for key in ("methods", "levelNames"):
        for name, level in logging.get(key, {}).items():
            if not _IDENTIFIER.match(name):
                raise _fail(path, document, "logging", key, f"'{name}' is not a Python identifier")
            if level not in levels:
                raise _fail(path, document, "logging", key, f"'{name}' maps to '{level}', not one of levels")
    if "levelNumbers" in logging and not logging["levelNumbers"]:
        raise _fail(path, document, "logging", "levelNumbers", "must not be empty: a level number needs a level")
    for level, number in logging.get("levelNumbers", {}).items():
        if level not in levels:
            raise _fail(path, document, "logging", "levelNumbers", f"'{level}' is not one of levels")
        if type(number) is not int or number < 0:
            raise _fail(path, document, "logging", "levelNumbers", f"'{level}' must be a non-negative int")
    method = logging.get("levelMethod", "log")
    if not _IDENTIFIER.match(method):
        raise _fail(path, document, "logging", "levelMethod", f"'{method}' is not a Python identifier")
    if warnings.get("level", "warn") not in levels:
        raise _fail(path, document, "warnings", "level", "must be one of logging.levels")
