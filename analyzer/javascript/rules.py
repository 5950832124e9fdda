"""The JavaScript frontend's compile step: validated `Rules` -> the fields it reads."""

from __future__ import annotations

from dataclasses import dataclass

from analyzer.rules import Rules


@dataclass(frozen=True, slots=True)
class JavaScriptRules:
    constructors: tuple[str, ...]
    class_roots: tuple[str, ...]
    #: a fixed logger name, else None (detect it)
    logger_name: str | None
    level_key: str
    default_level: str
    levels: tuple[str, ...]
    message_argument: int
    options_argument: int
    min_level_option_calls: int


def compile_rules(rules: Rules) -> JavaScriptRules:
    assert rules.language == "javascript", rules.language
    return JavaScriptRules(
        constructors=rules.names("errors", "constructors"),
        class_roots=rules.names("errors", "classRoots"),
        logger_name=rules.text("logger", "name") or None,
        level_key=rules.text("logger", "levelKey"),
        default_level=rules.text("logger", "defaultLevel"),
        levels=rules.names("logger", "levels"),
        message_argument=rules.number("logger", "messageArgument"),
        options_argument=rules.number("logger", "optionsArgument"),
        min_level_option_calls=rules.number("logger", "minLevelOptionCalls"),
    )
