"""What a fingerprint's meaning depends on: the algorithm's version and the exact parsers.

Fingerprints digest syntax trees, so a different grammar release can give different
fingerprints for the same bytes (tree-sitter-javascript 0.23.1 and 0.25.0 do). The summary
records these versions; `gate` and `project` refuse to mix outputs whose versions differ.
Read from package metadata, so that verbs that never parse do not import a parser; in the plain
case read directly, as importlib.metadata reads it, without importing it (a fifth of the gate's
start-up, docs/performance.md, "The gate").
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Mapping
from importlib.machinery import PathFinder

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
    found = _dist_info_version(name)
    if found is not None:
        return found
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(name)
    except PackageNotFoundError:
        return "not installed"


_HEADER = re.compile(r"([\x21-\x39\x3b-\x7e]+):")


def _dist_info_version(name: str) -> str | None:
    """What `importlib.metadata.version(name)` gives, found as it finds it, in the plain case
    only: the path finder alone finds distributions, every `sys.path` entry is a directory or
    nothing, the first `.dist-info` or `.egg-info` of the name (in path order, then listing
    order) is a `.dist-info` whose METADATA has a one-line Version header. None otherwise."""
    if any(finder is not PathFinder and hasattr(finder, "find_distributions") for finder in sys.meta_path):
        return None
    wanted = _normalized(name)
    for entry in sys.path:
        if not isinstance(entry, str):
            return None
        try:
            children = os.listdir(entry or ".")
        except OSError:
            if os.path.exists(entry or "."):  # a zip archive or a file: importlib.metadata reads it
                return None
            continue
        for child in children:
            low = child.lower()
            if low.endswith((".dist-info", ".egg-info")) and _normalized(low.rpartition(".")[0].partition("-")[0]) \
                    == wanted:
                return _version_header(os.path.join(entry, child)) if low.endswith(".dist-info") else None
        if os.path.basename(entry).lower().endswith(".egg"):  # its `egg-info` counts after the infos
            return None
    return None


def _normalized(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower().replace("-", "_")


def _version_header(info: str) -> str | None:
    """The first Version header of `info`'s METADATA as the email parser reads it, when every line
    up to it is a header and it has no continuation; None otherwise."""
    try:
        with open(os.path.join(info, "METADATA"), encoding="utf-8") as stream:
            text = stream.read()
    except (OSError, UnicodeError):
        return None
    if "\r" in text:
        return None
    lines = text.split("\n")
    for number, line in enumerate(lines):
        if line[:1] in (" ", "\t") and number > 0:  # a continuation of the header before
            continue
        header = _HEADER.match(line)
        if header is None:  # the end of the headers (or a line the email parser reads otherwise)
            return None
        if header.group(1).lower() == "version":
            follows = lines[number + 1] if number + 1 < len(lines) else ""
            return None if follows[:1] in (" ", "\t") else line[header.end():].lstrip(" \t")
    return None

_SHOWN = {"javascript": "JavaScript", "python": "Python"}


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
    ours, others = _language(mine["grammar"], where), _language(theirs["grammar"], other_where)
    if ours != others:  # no rescan makes a Python scan's fingerprints compare with a JavaScript one's
        raise InputError(where, f"a scan of {_SHOWN[ours]}, and {against} one of {_SHOWN[others]}: their "
                                "fingerprints never compare; give scans of one language")
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
