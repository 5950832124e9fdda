"""Load and validate `rules/*.toml` (SPEC 9): unknown keys and wrong types name file, line, key."""

from __future__ import annotations

import hashlib
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from analyzer.errors import InputError

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


def _line_of(text: str, section: str | None, key: str) -> int:
    """1-based line where `key` is set (inside `[section]` when given); 1 if not found."""
    current: str | None = None
    pattern = re.compile(rf"^\s*\"?{re.escape(key)}\"?\s*=")
    header = re.compile(r"^\s*\[([^\]]+)\]")
    for number, line in enumerate(text.splitlines(), start=1):
        match = header.match(line)
        if match:
            current = match.group(1).strip()
            if section is None and current == key:
                return number
            continue
        if current == section and pattern.match(line):
            return number
    return 1


def _fail(path: Path, text: str, section: str | None, key: str, problem: str) -> InputError:
    line = _line_of(text, section, key)
    where = f"{section}.{key}" if section else key
    return InputError(f"{path}:{line}", f"key '{where}': {problem}")


def default_rules_path() -> Path:
    """The repository's `rules/javascript.toml` (the project is installed editable)."""
    return Path(__file__).resolve().parent.parent / "rules" / "javascript.toml"


def load_javascript_rules(path: Path | None = None) -> JavaScriptRules:
    path = path or default_rules_path()
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise InputError(path, "rules file not found") from None
    except IsADirectoryError:
        raise InputError(path, "rules file is a directory") from None
    except OSError as exc:
        raise InputError(path, f"cannot read rules file: {exc.strerror}") from None
    try:
        text = raw.decode("utf-8")
        data = tomllib.loads(text)
    except UnicodeDecodeError:
        raise InputError(path, "rules file is not valid UTF-8") from None
    except tomllib.TOMLDecodeError as exc:
        raise InputError(path, f"invalid TOML: {exc}") from None
    values = _validated(path, text, data)
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


def _validated(path: Path, text: str, data: dict[str, Any]) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for section, body in data.items():
        if section not in _SCHEMA:
            raise _fail(path, text, None, section, "unknown section")
        if not isinstance(body, dict):
            raise _fail(path, text, None, section, "must be a table")
        for key, value in body.items():
            expected = _SCHEMA[section].get(key)
            if expected is None:
                raise _fail(path, text, section, key, "unknown key")
            if type(value) is not expected:
                raise _fail(path, text, section, key, f"must be {expected.__name__}")
            if expected is list:
                _check_names(path, text, section, key, value)
            if expected is int and value < 0:
                raise _fail(path, text, section, key, "must not be negative")
        out[section] = body
    for section in _SCHEMA:
        out.setdefault(section, {})
    logger = out["logger"]
    name = logger.get("name", "")
    if name and not _IDENTIFIER.match(name):
        raise _fail(path, text, "logger", "name", f"'{name}' is not a JavaScript identifier")
    levels = logger.get("levels", ["debug"])
    if "defaultLevel" in logger and logger["defaultLevel"] not in levels:
        raise _fail(path, text, "logger", "defaultLevel", "must be one of levels")
    if not out["errors"].get("constructors", ["Error"]):
        raise _fail(path, text, "errors", "constructors", "must not be empty")
    return out


def _check_names(path: Path, text: str, section: str, key: str, value: list[Any]) -> None:
    for item in value:
        if not isinstance(item, str):
            raise _fail(path, text, section, key, "must be a list of strings")
        if key != "levels" and not _IDENTIFIER.match(item):
            raise _fail(path, text, section, key, f"'{item}' is not a JavaScript identifier")
    if len(set(value)) != len(value):
        raise _fail(path, text, section, key, "has duplicates")
