"""Options of one value are given once: click keeps the last of two, so `--out a --out b` wrote
`b` alone and `--min-coverage 0.9 --min-coverage 0` passed a gate the first would fail. Every
verb's command is an `OnceCommand`; the same value given twice is one value and is taken."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from typer.core import TyperCommand

from analyzer.errors import InputError


class OnceCommand(TyperCommand):
    """A typer command that refuses an option of one value given twice with different values
    (exit 2, one line naming the option and both values), before click keeps the last."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        if not ctx.resilient_parsing:  # shell completion reads a command line being typed
            refuse_repeated(self.params, args)
        return super().parse_args(ctx, args)


def refuse_repeated(params: list[Any], args: list[str]) -> None:
    """Refuse the second value of an option of one value that differs from the first, as the
    option's type reads them (`0` and `0.0` are one number, `out` and `./out` one path)."""
    seen: dict[str, tuple[str, object]] = {}
    for spelling, value, param in given_values(params, args):
        converted = _converted(value, param)
        first = seen.setdefault(param.name, (value, converted))
        if first[1] != converted:
            raise InputError(spelling, f"given twice, {first[0]!r} and {value!r}: which one held would be the "
                                       "order's accident")


def given_values(params: list[Any], args: list[str]) -> Iterator[tuple[str, str, Any]]:
    """Each (spelling, value, parameter) of an option of one value in `args`, read as click reads
    a command line: `--name value`, `--name=value`, `-n value`, `-nvalue`, flags clustered before
    a short option (`-xn value`), nothing past `--`. Ends at help (the help is shown, whatever
    else is given) and at anything click would refuse (click says what)."""
    valued: dict[str, Any] = {}
    flags: set[str] = set()
    for param in params:
        if getattr(param, "param_type_name", None) != "option" or param.multiple:
            continue
        for spelling in (*param.opts, *param.secondary_opts):
            if param.is_flag or param.count:
                flags.add(spelling)
            else:
                valued[spelling] = param
    options = args[:args.index("--")] if "--" in args else args
    if "-h" in options or "--help" in options:
        return
    rest = iter(options)
    for token in rest:
        if token.startswith("--"):
            spelling, equals, written = token.partition("=")
            if spelling in valued:
                value = written if equals else next(rest, None)
                if value is None:
                    return
                yield spelling, value, valued[spelling]
            continue
        if not token.startswith("-") or token == "-":
            continue  # an argument
        for at in range(1, len(token)):
            spelling = "-" + token[at]
            if spelling in valued:
                value = token[at + 1:] or next(rest, None)
                if value is None:
                    return
                yield spelling, value, valued[spelling]
                break
            if spelling not in flags:
                break


def _converted(value: str, param: Any) -> object:
    """`value` as the option's type compares it: a number as a number, a path as a path; any
    other, or one the type refuses, as written."""
    kind = type(param.type).__name__
    try:
        if kind == "FloatParamType" or kind == "FloatRange":
            return float(value)
        if kind == "IntParamType" or kind == "IntRange":
            return int(value)
    except ValueError:
        return value
    if "Path" in kind:
        return Path(value)
    return value
