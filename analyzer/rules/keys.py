"""The table of every language's rules keys: the type of each, what its names must be, and the
checks between keys (a level must be one of the levels). The one validator reads it
(`analyzer.rules`); the values themselves are written only in the shipped files."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, cast

from analyzer.model import Language

#: a rules value once validated, as TOML gives it with lists as tuples: a name, a count, names,
#: or a table of names to names or to counts
Value = str | int | tuple[str, ...] | dict[str, str] | dict[str, int]


@dataclass(frozen=True, slots=True)
class Form:
    """What a name in the rules must look like."""

    pattern: re.Pattern[str]
    #: how the error says it: "a JavaScript identifier"
    said: str

    def refuses(self, name: str) -> str | None:
        return None if self.pattern.match(name) else f"'{name}' is not {self.said}"


JAVASCRIPT_NAME = Form(re.compile(r"^[A-Za-z_$][A-Za-z0-9_$]*\Z"), "a JavaScript identifier")
PYTHON_NAME = Form(re.compile(r"^[A-Za-z_][A-Za-z0-9_]*\Z"), "a Python identifier")
DOTTED_NAME = Form(re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*\Z"), "a dotted Python name")


@dataclass(frozen=True, slots=True)
class Key:
    """One key of a section: its TOML type and what its parts must be."""

    #: list (of strings), str, int (not negative) or dict (a table)
    kind: type
    #: what a list's items, a string or a table's keys must look like; None: any text
    form: Form | None = None
    #: a string may be empty (it then means "not set")
    empty: bool = False
    #: a list or a table must not be empty; the text says why
    filled: str | None = None
    #: the type of a table's values
    values: type = str

    def check(self, value: object) -> str | None:
        """What is wrong with `value`, else None."""
        if type(value) is not self.kind:
            return f"must be {'table' if self.kind is dict else self.kind.__name__}"
        if isinstance(value, int):
            return "must not be negative" if value < 0 else None
        if isinstance(value, str):
            return None if self.form is None or (self.empty and not value) else self.form.refuses(value)
        if self.filled is not None and not value:
            return self.filled
        if isinstance(value, list):
            return _list_problem(value, self.form)
        assert isinstance(value, dict)
        return _table_problem(value, self.form, self.values)


def _list_problem(value: list[Any], form: Form | None) -> str | None:
    for item in value:
        if not isinstance(item, str):
            return "must be a list of strings"
        refused = form.refuses(item) if form is not None else None
        if refused is not None:
            return refused
    return "has duplicates" if len(set(value)) != len(value) else None


def _table_problem(value: dict[str, Any], form: Form | None, values: type) -> str | None:
    for name, item in value.items():
        refused = form.refuses(name) if form is not None else None
        if refused is not None:
            return refused
        if type(item) is not values:
            return f"'{name}' must be {'a non-negative int' if values is int else 'a string'}"
        if isinstance(item, int) and item < 0:
            return f"'{name}' must be a non-negative int"
    return None


#: language -> section -> key -> what it must be
SCHEMA: dict[Language, dict[str, dict[str, Key]]] = {
    "javascript": {
        "errors": {
            "constructors": Key(list, JAVASCRIPT_NAME, filled="must not be empty"),
            "classRoots": Key(list, JAVASCRIPT_NAME),
        },
        "logger": {
            "name": Key(str, JAVASCRIPT_NAME, empty=True),
            "levelKey": Key(str),
            "defaultLevel": Key(str),
            "levels": Key(list),
            "messageArgument": Key(int),
            "optionsArgument": Key(int),
            "minLevelOptionCalls": Key(int),
        },
    },
    "python": {
        "errors": {"builtins": Key(list, PYTHON_NAME), "external": Key(list, DOTTED_NAME)},
        "logging": {
            "methods": Key(dict, PYTHON_NAME),
            "levelMethod": Key(str, PYTHON_NAME),
            "levelNames": Key(dict, PYTHON_NAME),
            "levelNumbers": Key(dict, filled="must not be empty: a level number needs a level", values=int),
            "factories": Key(list, DOTTED_NAME),
            "levels": Key(list),
        },
        "warnings": {"functions": Key(list, DOTTED_NAME), "level": Key(str)},
    },
}

#: section -> key -> value, validated
Sections = Mapping[str, Mapping[str, Value]]


@dataclass(frozen=True, slots=True)
class Problem:
    #: what is wrong, said of the key that names the level
    text: str
    #: the level the levels leave out
    level: str


@dataclass(frozen=True, slots=True)
class Among:
    """Every level `key` names (its value, or its table's keys or values) is one of `levels`'s."""

    key: tuple[str, str]
    levels: tuple[str, str]
    #: what of `key` names levels: its value, or its table's keys or values
    part: str
    #: the error, given the name and the level
    said: Callable[[str, str], str]

    def run(self, sections: Sections) -> Problem | None:
        """The first level `key` names that `levels` leaves out."""
        value = sections[self.key[0]][self.key[1]]
        levels = cast(tuple[str, ...], sections[self.levels[0]][self.levels[1]])
        named: list[tuple[str, object]] = (
            [(str(value), value)] if self.part == "value" else
            [(name, name) for name in value] if self.part == "keys" and isinstance(value, dict) else
            list(value.items()) if isinstance(value, dict) else [])
        for name, level in named:
            if level not in levels:
                return Problem(self.said(name, str(level)), str(level))
        return None


_CHECKS: dict[Language, tuple[Among, ...]] = {
    "javascript": (
        Among(("logger", "defaultLevel"), ("logger", "levels"), "value", lambda _, level: "must be one of levels"),
    ),
    "python": (
        Among(("logging", "methods"), ("logging", "levels"), "values",
              lambda name, level: f"'{name}' maps to '{level}', not one of levels"),
        Among(("logging", "levelNames"), ("logging", "levels"), "values",
              lambda name, level: f"'{name}' maps to '{level}', not one of levels"),
        Among(("logging", "levelNumbers"), ("logging", "levels"), "keys",
              lambda name, _: f"'{name}' is not one of levels"),
        Among(("warnings", "level"), ("logging", "levels"), "value",
              lambda _, level: "must be one of logging.levels"),
    ),
}


def cross_checks(language: Language) -> tuple[Among, ...]:
    return _CHECKS[language]
