"""Rules: what a scan counts, one type for every language (docs/reference.md, "Rules").

`Rules` is plain data: its language, where it was read from, and its sections of TOML values.
One validator reads every language's file against one table of keys (`SCHEMA`), and a bad
file is a `RulesError` naming file, line and key. The defaults live only in the shipped files
(`analyzer/rules/<language>.toml`): a key a rules file leaves out keeps the shipped value.
Each frontend compiles `Rules` into what it reads (`analyzer.javascript.rules`,
`analyzer.python.rules`).
"""

from __future__ import annotations

import functools
import hashlib
import importlib.resources
from dataclasses import dataclass
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import cast

from analyzer.errors import InputError
from analyzer.model import Language
from analyzer.rules.keys import SCHEMA, Value, cross_checks
from analyzer.tomlfile import TomlFile, read_toml

#: the shipped file of each language's rules, inside this package
SHIPPED: dict[Language, str] = {"javascript": "javascript.toml", "python": "python.toml"}
#: how a person names each language
_SHOWN: dict[Language, str] = {"javascript": "JavaScript", "python": "Python"}


class RulesError(InputError):
    """A rules file that does not validate: its path, the line and the key at fault."""

    def __init__(self, path: object, line: int, key: str, problem: str) -> None:
        super().__init__(f"{path}:{line}", f"key '{key}': {problem}")
        self.file, self.line, self.key = str(path), line, key


@dataclass(frozen=True, slots=True)
class Rules:
    """One language's rules, validated: the shipped defaults with a rules file's keys over them."""

    #: the frontend they are for
    language: Language
    #: the file they were read from (the shipped one when no file was given)
    path: str
    #: sha256 of that file's bytes
    sha256: str
    #: section -> key -> value, every key of the language's `SCHEMA` (read-only)
    sections: dict[str, dict[str, Value]]

    def text(self, section: str, key: str) -> str:
        return cast(str, self.sections[section][key])

    def number(self, section: str, key: str) -> int:
        return cast(int, self.sections[section][key])

    def names(self, section: str, key: str) -> tuple[str, ...]:
        return cast(tuple[str, ...], self.sections[section][key])

    def text_table(self, section: str, key: str) -> dict[str, str]:
        return cast(dict[str, str], self.sections[section][key])

    def number_table(self, section: str, key: str) -> dict[str, int]:
        return cast(dict[str, int], self.sections[section][key])


def shipped_rules_path(language: Language) -> Traversable:
    """A language's default rules, read through `importlib.resources` so that they are found in
    a wheel, a zipped install or a checkout alike; the repository's top-level `rules/` holds the
    same files as the documented, editable copy."""
    return importlib.resources.files(__name__).joinpath(SHIPPED[language])


def load_rules(language: Language, path: Path | None = None) -> Rules:
    """The rules of `language`: the file at `path` over the shipped ones, else the shipped ones."""
    defaults = _shipped(language)
    if path is None:
        return defaults
    document = read_toml(path, "rules file")
    sections = _validated(language, path, document, defaults.sections)
    return Rules(language, str(path), hashlib.sha256(document.raw).hexdigest(), sections)


@functools.cache
def _shipped(language: Language) -> Rules:
    path = shipped_rules_path(language)
    document = read_toml(path, "rules file")
    empty: dict[str, dict[str, Value]] = {section: {} for section in SCHEMA[language]}
    sections = _validated(language, path, document, empty)
    missing = [f"{s}.{k}" for s, keys in SCHEMA[language].items() for k in keys if k not in sections[s]]
    if missing:  # the shipped file is the only place a default is written
        raise RulesError(path, 1, missing[0], "missing from the shipped rules")
    return Rules(language, str(path), hashlib.sha256(document.raw).hexdigest(), sections)


def _validated(language: Language, path: Path | Traversable, document: TomlFile,
               base: dict[str, dict[str, Value]]) -> dict[str, dict[str, Value]]:
    """`document`'s keys checked against `SCHEMA[language]` and laid over `base`; then the
    checks between keys, on the values that result."""
    schema = SCHEMA[language]
    sections = {section: dict(keys) for section, keys in base.items()}
    for section, body in document.data.items():
        if section == "language":
            _check_language(language, path, document, body)
            continue
        if section not in schema:
            raise _unknown(language, path, document, (section,), "unknown section")
        if not isinstance(body, dict):
            raise RulesError(path, document.line(section), section, "must be a table")
        for key, value in body.items():
            spec = schema[section].get(key)
            if spec is None:
                raise _unknown(language, path, document, (section, key), "unknown key")
            refused = spec.check(value)
            if refused is not None:
                raise _at(path, document, (section, key), refused)
            sections[section][key] = tuple(value) if isinstance(value, list) else value
    for check in cross_checks(language):
        problem = check.run(sections)
        if problem is None:
            continue
        if _sets(document, check.key) or not _sets(document, check.levels):
            raise _at(path, document, check.key, problem.text)
        # the file sets the levels alone: they leave out one the shipped value names
        raise _at(path, document, check.levels,
                  f"leaves out '{problem.level}', which the shipped '{'.'.join(check.key)}' names")
    return sections


def _sets(document: TomlFile, key: tuple[str, str]) -> bool:
    section = document.data.get(key[0])
    return isinstance(section, dict) and key[1] in section


def _at(path: Path | Traversable, document: TomlFile, key: tuple[str, ...], problem: str) -> RulesError:
    return RulesError(path, document.line(*key), ".".join(key), problem)


def _check_language(language: Language, path: Path | Traversable, document: TomlFile, value: object) -> None:
    if value not in SHIPPED:
        raise RulesError(path, document.line("language"), "language", f"must be one of {', '.join(SHIPPED)}")
    if value != language:
        raise RulesError(path, document.line("language"), "language",
                         f"rules for {_SHOWN[cast(Language, value)]}, and the input is {_SHOWN[language]}")


def _unknown(language: Language, path: Path | Traversable, document: TomlFile, key: tuple[str, ...],
             problem: str) -> RulesError:
    """An unknown section or key; when it is the other language's, the error says so."""
    for other, schema in SCHEMA.items():
        if other != language and key[0] in schema and (len(key) == 1 or key[1] in schema[key[0]]):
            problem += f": a key of the {_SHOWN[other]} rules, and the input is {_SHOWN[language]}"
            break
    return RulesError(path, document.line(*key), ".".join(key), problem)

