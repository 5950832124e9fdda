"""The Python frontend's compile step: validated `Rules` -> the fields it reads."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass

from analyzer.rules import Rules


@dataclass(frozen=True, slots=True)
class PythonRules:
    #: builtin exception class names
    builtins: tuple[str, ...]
    #: dotted names of exception classes outside the input and builtins (`for_input`: none of a
    #: module the input defines)
    external: tuple[str, ...]
    #: the listed names `for_input` took off `external`: names of the input, settled as its
    #: classes are (across modules), never as the standard library's
    own_external: frozenset[str]
    #: the last names of `builtins` and of the list as written (`external` and `own_external`),
    #: which a call or `raise` of one ends in (computed once: every unit's filters read them)
    last_names: frozenset[str]
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


def compile_rules(rules: Rules) -> PythonRules:
    assert rules.language == "python", rules.language
    numbers = rules.number_table("logging", "levelNumbers")
    builtins, external = rules.names("errors", "builtins"), rules.names("errors", "external")
    return PythonRules(
        builtins=builtins,
        external=external,
        own_external=frozenset(),
        last_names=frozenset(builtins) | frozenset(n.rsplit(".", 1)[-1] for n in external),
        logging_methods=dict(rules.text_table("logging", "methods")),
        level_method=rules.text("logging", "levelMethod"),
        level_names=dict(rules.text_table("logging", "levelNames")),
        level_numbers=tuple(sorted((value, level) for level, value in numbers.items())),
        logger_factories=rules.names("logging", "factories"),
        levels=rules.names("logging", "levels"),
        warning_functions=rules.names("warnings", "functions"),
        warning_level=rules.text("warnings", "level"),
    )


def for_input(rules: PythonRules, modules: Iterable[str]) -> PythonRules:
    """`rules` with the external names whose module is one of the input's `modules` moved to
    `own_external`: the input's own definitions of that module win (docs/reference.md, "Rules")."""
    own = frozenset(modules)
    taken = frozenset(name for name in rules.external if name.rpartition(".")[0] in own)
    if not taken:
        return rules
    return dataclasses.replace(rules, external=tuple(n for n in rules.external if n not in taken),
                               own_external=rules.own_external | taken)
