"""npm's semver ranges, as package.json `dependencies` write them (`^1.0.0`, `~2.3`, `>=1 <3`,
`1.x || 2`, `1.2 - 1.4`), read just far enough to say which stable versions one allows
(docs/corpus.md, "Declared ranges"). A range this does not read (a URL, `npm:`, `workspace:`, a
tag) allows nothing."""

from __future__ import annotations

import re

Version = tuple[int, int, int]
#: a partial version: `1`, `1.2`, `1.2.3`, with `x`, `X` or `*` for any part
_PARTIAL = re.compile(r"^v?(\d+|[xX*])(?:\.(\d+|[xX*]))?(?:\.(\d+|[xX*]))?(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$")
_COMPARATOR = re.compile(r"^(\^|~>?|>=|<=|>|<|=)?\s*(.+)$")
_HYPHEN = re.compile(r"^(\S+)\s+-\s+(\S+)$")
_TOP = (1 << 31, 0, 0)


def allows(spec: str, version: str) -> bool:
    """Whether the range `spec` allows the stable `version` (`x.y.z`)."""
    parsed = _version(version)
    return parsed is not None and any(
        all(low <= parsed < high for low, high in conjunction) for conjunction in _read(spec))


def _version(text: str) -> Version | None:
    parts = text.split(".")
    if len(parts) != 3 or not all(p.isdigit() for p in parts):
        return None
    return int(parts[0]), int(parts[1]), int(parts[2])


def _read(spec: str) -> list[list[tuple[Version, Version]]]:
    """The range as alternatives of [low, high) bounds that must all hold; [] when unread."""
    out = []
    for alternative in spec.split("||"):
        alternative = alternative.strip()
        hyphen = _HYPHEN.match(alternative)
        if hyphen is not None:
            low, high = _partial(hyphen.group(1)), _partial(hyphen.group(2))
            if low is None or high is None:
                return []
            out.append([(_floor(low), _after(high))])
            continue
        bounds = []
        for comparator in re.sub(r"(>=|<=|>|<|=|\^|~>?)\s+", r"\1", alternative).split() or ["*"]:
            bound = _bound(comparator)
            if bound is None:
                return []
            bounds.append(bound)
        out.append(bounds)
    return out


def _partial(text: str) -> list[int | None] | None:
    found = _PARTIAL.match(text)
    if found is None:
        return None
    parts: list[int | None] = [None if p is None or not p.isdigit() else int(p) for p in found.groups()]
    for i in range(1, 3):  # after a wildcard, every part is one
        if parts[i - 1] is None:
            parts[i] = None
    return parts


def _floor(parts: list[int | None]) -> Version:
    return (parts[0] or 0, parts[1] or 0, parts[2] or 0)


def _after(parts: list[int | None]) -> Version:
    """The first version above every version the partial one names."""
    major, minor, patch = parts
    if major is None:
        return _TOP
    if minor is None:
        return (major + 1, 0, 0)
    if patch is None:
        return (major, minor + 1, 0)
    return (major, minor, patch + 1)


def _bound(comparator: str) -> tuple[Version, Version] | None:
    found = _COMPARATOR.match(comparator)
    if found is None:
        return None
    operator, parts = found.group(1) or "=", _partial(found.group(2))
    if parts is None:
        return None
    low = _floor(parts)
    if operator == "^":
        major, minor, patch = parts
        if major is None:
            return (0, 0, 0), _TOP
        if major or minor is None:
            return low, (major + 1, 0, 0)
        if minor or patch is None:
            return low, (0, minor + 1, 0)
        return low, (0, 0, patch + 1)
    if operator.startswith("~"):
        return low, _after(parts if parts[1] is None else [parts[0], parts[1], None])
    if operator == ">=":
        return low, _TOP
    if operator == ">":
        return _after(parts), _TOP
    if operator == "<":
        return (0, 0, 0), low
    if operator == "<=":
        return (0, 0, 0), _after(parts)
    return low, _after(parts)
