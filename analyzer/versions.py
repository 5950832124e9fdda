"""What a fingerprint's meaning depends on: the algorithm's version and the exact parsers.

Fingerprints digest syntax trees, so a different grammar release can give different
fingerprints for the same bytes (tree-sitter-javascript 0.23.1 and 0.25.0 do). The summary
records these versions; `gate` and `project` refuse to mix outputs whose versions differ.
Read from package metadata, so that verbs that never parse do not import a parser.
"""

from __future__ import annotations

from collections.abc import Mapping
from importlib.metadata import PackageNotFoundError, version

from analyzer.errors import InputError

#: the fingerprint algorithm (docs/fingerprints.md); a change of meaning gets a new prefix
FP_VERSION = "fp1"
#: language -> the distributions whose exact release decides the syntax trees
PARSERS: dict[str, tuple[str, ...]] = {
    "javascript": ("tree-sitter-javascript", "tree-sitter"),
    "python": ("libcst",),
}


def grammar(language: str) -> dict[str, str]:
    """The installed release of each parser distribution of `language`."""
    return {name: _installed(name) for name in PARSERS[language]}


def _installed(name: str) -> str:
    try:
        return version(name)
    except PackageNotFoundError:
        return "not installed"


def check_same(summary: Mapping[str, object], where: object, other: Mapping[str, object] | None = None,
               other_where: object = None) -> None:
    """Raise when `summary` was written with another fingerprint algorithm or parser release
    than this installation's (or than `other`'s, a baseline's, when given)."""
    mine = _recorded(summary, where)
    if other is None:
        language = _language(mine["grammar"], where)
        theirs: dict[str, object] = {"version": FP_VERSION, "grammar": grammar(language)}
        against = "this erratlas"
    else:
        theirs = _recorded(other, other_where)
        against = str(other_where)
    for key in ("version", "grammar"):
        if mine[key] != theirs[key]:
            raise InputError(where, f"fingerprints are not comparable: {key} {_show(mine[key])} here, "
                                    f"{_show(theirs[key])} in {against} (rescan with one erratlas)")


def _recorded(summary: Mapping[str, object], where: object) -> dict[str, object]:
    block = summary.get("fingerprint")
    if not isinstance(block, dict) or not isinstance(block.get("grammar"), dict) or "version" not in block:
        raise InputError(where, "the summary records no fingerprint and grammar versions "
                                "(written by an older erratlas: rescan)")
    return {"version": block["version"], "grammar": block["grammar"]}


def _language(recorded: object, where: object) -> str:
    names = set(recorded) if isinstance(recorded, dict) else set()
    for language, parsers in PARSERS.items():
        if names == set(parsers):
            return language
    raise InputError(where, f"unknown grammar {_show(recorded)} in the summary")


def _show(value: object) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{k} {v}" for k, v in sorted(value.items()))
    return str(value)
