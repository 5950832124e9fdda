"""What a command line gives, checked before click reads it. An option of one value is given once:
click keeps the last of two, so `--out a --out b` wrote `b` alone and `--min-coverage 0.9
--min-coverage 0` passed a gate the first would fail (the same value twice is one value, and is
taken). A path is never empty: `Path("")` is the current directory, so `erratlas scan "$BUNDLE"`
with the variable unset scanned the directory the shell was in."""

from __future__ import annotations

import inspect
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from typer.core import TyperCommand

from analyzer.errors import ExitCode, InputError


class CheckedCommand(TyperCommand):
    """A typer command that refuses, before click reads its command line, an option of one value
    given twice with different values and an empty path (exit 2, one line naming the option); and
    says Ctrl-C in one line (exit 130). Its line in a list of commands is its help's first
    paragraph as one line (typer's rich help keeps a docstring's line breaks there)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.short_help is None and self.help:
            self.short_help = " ".join(inspect.cleandoc(self.help).split("\n\n")[0].split())

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        if not ctx.resilient_parsing:  # shell completion reads a command line being typed
            refuse_repeated(self.params, args)
            refuse_empty_paths(self, ctx, args)
        return super().parse_args(ctx, args)

    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:  # typer ends it in a silent exit 130: the one line is said here
            import typer

            from analyzer.cli.outcome import err

            err.print("erratlas: interrupted", markup=False)
            raise typer.Exit(int(ExitCode.INTERRUPTED)) from None


def refuse_empty_paths(command: Any, ctx: Any, args: list[str]) -> None:
    """Refuse a path argument or option given as the empty string, as click's own parser places it."""
    if "" not in args:
        return
    try:
        given, _, _ = command.make_parser(ctx).parse_args(args=list(args))
    except Exception:  # a command line click refuses: click says what, next
        return
    for param in command.params:
        values = given.get(param.name)
        values = values if isinstance(values, (list, tuple)) else [values]
        if "Path" in type(param.type).__name__ and "" in values:
            name = max(param.opts, key=len) if param.param_type_name == "option" else str(param.name).upper()
            raise InputError(name, "an empty path (an unset variable?); `.` is the current directory")


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
    valued: dict[str, Any] = {}  # a repeatable option's value is read past, not yielded
    flags: set[str] = set()
    for param in params:
        if getattr(param, "param_type_name", None) != "option":
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
                if not valued[spelling].multiple:
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
                if not valued[spelling].multiple:
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
