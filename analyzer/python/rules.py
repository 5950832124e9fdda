"""The Python frontend's compile step: validated `Rules` -> the fields it reads."""

from __future__ import annotations

from dataclasses import dataclass

from analyzer.rules import Rules


@dataclass(frozen=True, slots=True)
class PythonRules:
    #: builtin exception class names
    builtins: tuple[str, ...]
    #: dotted names of exception classes outside the input and builtins
    external: tuple[str, ...]
    #: the last names of `builtins` and `external`, which a call or `raise` of one ends in
    #: (computed once: every unit's filters read them)
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
