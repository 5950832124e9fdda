"""Reviewed allowlists (SPEC 4): load and validate with file/line/key errors; write canonically."""

from __future__ import annotations

import datetime as dt
import hashlib
import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from analyzer.errors import InputError
from analyzer.rules import read_toml

SCHEMA = "erratlas.allowlist/1"
#: match levels by precedence; the first three match a callsite's own fingerprints
LEVELS = ("callsite", "function", "module", "references")
FINGERPRINT_LEVELS = LEVELS[:3]
OWNERS = ("Product", "Dependency")
OWNER_FIELDS = ("catchOwner", "retryOwner", "toolResultOwner", "userSurfaceOwner")
_FINGERPRINT = {
    "callsite": re.compile(r"^fp1:[0-9a-f]{32}$"),
    "function": re.compile(r"^fp1f:[0-9a-f]{32}$"),
    "module": re.compile(r"^fp1m:[0-9a-f]{32}$"),
    "references": re.compile(r"^fp1b:[0-9a-f]{32}$"),
}
_PREFIX = {"callsite": "fp1:", "function": "fp1f:", "module": "fp1m:", "references": "fp1b:"}
_PACKAGE = re.compile(r"^(@[a-z0-9][a-z0-9._~-]*/)?[A-Za-z0-9][A-Za-z0-9._~-]*$")
_KEYS = ("match", "copies", "neighbours", "owner", "package", "function", "expect", *OWNER_FIELDS, "reason", "reviewedBy",
         "reviewedOn")
_REQUIRED = ("match", "owner", "reason", "reviewedBy", "reviewedOn")


@dataclass(frozen=True, slots=True)
class Entry:
    #: callsite, function, module or references
    level: str
    #: fp1:/fp1f:/fp1m:/fp1b: fingerprint the entry matches exactly
    fingerprint: str
    owner: str
    package: str | None
    function: str | None
    #: the comparisonKey the callsite must still have
    expect: str | None
    owner_fields: tuple[tuple[str, str], ...]
    reason: str
    reviewed_by: str
    reviewed_on: str
    #: `file:line` of the entry, for messages and evidence
    origin: str
    #: None: the entry names one callsite (function) that must be the only copy of its code in
    #: the scan; N: it names all N identical copies (the group's first fingerprint), reviewed
    #: together, and applies only while there are exactly N
    copies: int | None = None
    #: one of several identical copies, named by the fingerprints of the unique callsites just
    #: before and after it in its unit ("" at an end); exclusive with `copies`
    neighbours: tuple[str, str] | None = None

    def owner_field(self, name: str) -> str | None:
        return dict(self.owner_fields).get(name)

    def identity(self) -> tuple[object, ...]:
        """What the entry names: a later entry with the same identity replaces it."""
        return (self.level, self.fingerprint, self.copies, self.neighbours)

    def verdict(self) -> tuple[object, ...]:
        """What the entry says about a callsite: entries that agree have equal verdicts. The
        reviewed function name is a label, not a verdict: two entries that give the same owner,
        package and owner facts agree, and the first one's name is shown."""
        return (self.owner, self.package, self.owner_fields)


@dataclass(frozen=True, slots=True)
class Allowlist:
    path: str
    sha256: str
    entries: tuple[Entry, ...]


def load_allowlists(paths: list[Path]) -> list[Allowlist]:
    return [load_allowlist(path) for path in paths]


def load_allowlist(path: Path) -> Allowlist:
    raw, text, data = read_toml(path, "allowlist")
    lines = _EntryLines(text)
    for key in data:
        if key not in ("schema", "entry"):
            raise InputError(f"{path}:{lines.top_level(key)}", f"key '{key}': unknown key")
    if data.get("schema", SCHEMA) != SCHEMA:
        raise InputError(f"{path}:{lines.top_level('schema')}", f"key 'schema': must be \"{SCHEMA}\"")
    raw_entries = data.get("entry", [])
    if not isinstance(raw_entries, list):
        raise InputError(f"{path}:{lines.top_level('entry')}", "key 'entry': must be an array of tables ([[entry]])")
    entries = tuple(_entry(path, lines, index, body) for index, body in enumerate(raw_entries))
    return Allowlist(path=str(path), sha256=hashlib.sha256(raw).hexdigest(), entries=entries)


class _EntryLines:
    """Line numbers of `[[entry]]` headers and of the keys inside each entry."""

    def __init__(self, text: str) -> None:
        self._headers: list[int] = []
        self._keys: list[dict[str, int]] = []
        self._top: dict[str, int] = {}
        key = re.compile(r"^\s*\"?([A-Za-z0-9_-]+)\"?\s*=")
        for number, line in enumerate(text.splitlines(), start=1):
            stripped = line.strip()
            if stripped.startswith("[[entry]]"):
                self._headers.append(number)
                self._keys.append({})
                continue
            match = key.match(line)
            if match is None:
                continue
            if self._keys:
                self._keys[-1].setdefault(match.group(1), number)
            else:
                self._top.setdefault(match.group(1), number)

    def entry(self, index: int, key: str | None = None) -> int:
        if index >= len(self._headers):
            return 1
        if key is None:
            return self._headers[index]
        return self._keys[index].get(key, self._headers[index])

    def top_level(self, key: str) -> int:
        return self._top.get(key, 1)


def _entry(path: Path, lines: _EntryLines, index: int, body: Any) -> Entry:
    def fail(key: str | None, problem: str) -> InputError:
        where = f"{path}:{lines.entry(index, key)}"
        return InputError(where, f"entry {index + 1}" + (f", key '{key}'" if key else "") + f": {problem}")

    if not isinstance(body, dict):
        raise fail(None, "must be a table")
    for key in body:
        if key not in _KEYS:
            raise fail(key, "unknown key")
    for key in _REQUIRED:
        if key not in body:
            raise fail(None, f"missing required key '{key}'")
    for key, value in body.items():
        if key in ("match", "copies", "neighbours"):
            continue
        if key == "reviewedOn" and isinstance(value, dt.date):
            continue
        if not isinstance(value, str) or not value.strip():
            raise fail(key, "must be a non-empty string")
    level, fingerprint = _match(body["match"], fail)
    owner = body["owner"]
    if owner not in OWNERS:
        raise fail("owner", f"must be one of {', '.join(OWNERS)}, not '{owner}'")
    package = body.get("package")
    if owner == "Dependency" and package is None:
        raise fail("package", "a Dependency entry needs the exact package name")
    if owner == "Product" and package is not None:
        raise fail("package", "a Product entry names no package")
    if package is not None and not _PACKAGE.match(package):
        raise fail("package", f"'{package}' is not a package name")
    if "expect" in body and level != "callsite":
        raise fail("expect", "only a callsite entry can expect a message")
    if level == "references" and owner != "Product":
        raise fail("owner", "a references entry owns Product only: dependencies name each other's bindings, "
                            "so reaching through references proves nothing about a dependency")
    copies = body.get("copies")
    if copies is not None and (isinstance(copies, bool) or not isinstance(copies, int) or copies < 2):
        raise fail("copies", "must be a whole number of identical copies, 2 or more")
    if copies is not None and level not in ("callsite", "function"):
        raise fail("copies", "only callsite and function entries can name a group of copies")
    neighbours = body.get("neighbours")
    if neighbours is not None:
        if level != "callsite" or copies is not None:
            raise fail("neighbours", "only a callsite entry without `copies` names one copy by its neighbours")
        if (not isinstance(neighbours, list) or len(neighbours) != 2
                or not all(isinstance(n, str) and (n == "" or _FINGERPRINT["callsite"].match(n)) for n in neighbours)):
            raise fail("neighbours", 'must be ["fp1:... or empty", "fp1:... or empty"]: the unique callsites just '
                                     "before and after the copy")
        neighbours = (neighbours[0], neighbours[1])
    reviewed_on = body["reviewedOn"]
    if isinstance(reviewed_on, dt.date):
        reviewed_on = reviewed_on.isoformat()
    elif not re.fullmatch(r"\d{4}-\d{2}-\d{2}", reviewed_on):
        raise fail("reviewedOn", "must be a date YYYY-MM-DD")
    return Entry(
        level=level,
        fingerprint=fingerprint,
        owner=owner,
        package=package,
        function=body.get("function"),
        expect=body.get("expect"),
        owner_fields=tuple((name, body[name]) for name in OWNER_FIELDS if name in body),
        reason=body["reason"],
        reviewed_by=body["reviewedBy"],
        reviewed_on=reviewed_on,
        origin=f"{path}:{lines.entry(index)}",
        copies=copies,
        neighbours=neighbours,
    )


def _match(value: Any, fail: Any) -> tuple[str, str]:
    if not isinstance(value, dict):
        raise fail("match", 'must be a table: match = { callsite = "fp1:..." }')
    unknown = [k for k in value if k not in LEVELS]
    if unknown:
        raise fail("match", f"unknown match level '{unknown[0]}' (callsite, function, module or references)")
    if len(value) != 1:
        raise fail("match", "must hold exactly one of callsite, function, module, references")
    (level, fingerprint), = value.items()
    if not isinstance(fingerprint, str) or not _FINGERPRINT[level].match(fingerprint):
        raise fail("match", f"'{fingerprint}' is not a {level} fingerprint ({_PREFIX[level]} and 32 hex digits)")
    return level, fingerprint


# ---- canonical writing -------------------------------------------------------------------

_HEADER = (
    "# erratlas allowlist: reviewed owners of callsites, functions and modules (SPEC 4).\n"
    "# Written canonically by `erratlas allow` / `erratlas prune`: entries sorted by level and\n"
    "# fingerprint, keys in a fixed order. Edit freely; the tool keeps the order stable.\n"
)


def render(entries: list[Entry]) -> bytes:
    unique = {(e.level, e.fingerprint, e.copies, e.neighbours, e.verdict(), e.expect): e for e in entries}
    ordered = sorted(unique.values(), key=lambda e: (LEVELS.index(e.level), e.fingerprint, e.neighbours or ("", ""),
                                                     e.owner, e.package or ""))
    parts = [_HEADER, f'\nschema = "{SCHEMA}"\n']
    for entry in ordered:
        parts.append("\n[[entry]]\n")
        parts.append(f"match = {{ {entry.level} = {_string(entry.fingerprint)} }}\n")
        if entry.copies is not None:
            parts.append(f"copies = {entry.copies}\n")
        if entry.neighbours is not None:
            parts.append(f"neighbours = [{_string(entry.neighbours[0])}, {_string(entry.neighbours[1])}]\n")
        fields: list[tuple[str, str | None]] = [
            ("owner", entry.owner),
            ("package", entry.package),
            ("function", entry.function),
            ("expect", entry.expect),
            *[(name, entry.owner_field(name)) for name in OWNER_FIELDS],
            ("reason", entry.reason),
            ("reviewedBy", entry.reviewed_by),
        ]
        for key, value in fields:
            if value is not None:
                parts.append(f"{key} = {_string(value)}\n")
        parts.append(f"reviewedOn = {entry.reviewed_on}\n")
    return "".join(parts).encode("utf-8")


def _string(value: str) -> str:
    """A TOML basic string."""
    out = []
    for char in value:
        code = ord(char)
        if char == '"':
            out.append('\\"')
        elif char == "\\":
            out.append("\\\\")
        elif char == "\n":
            out.append("\\n")
        elif char == "\t":
            out.append("\\t")
        elif code < 0x20 or code == 0x7F:
            out.append(f"\\u{code:04X}")
        else:
            out.append(char)
    return '"' + "".join(out) + '"'


def write_allowlist(path: Path, entries: list[Entry]) -> None:
    """Replace the file atomically with the canonical rendering of `entries`."""
    data = render(entries)
    staging = path.with_name(f".{path.name}.tmp")
    path.parent.mkdir(parents=True, exist_ok=True)
    staging.write_bytes(data)
    staging.replace(path)


def with_origin(entry: Entry, origin: str) -> Entry:
    return replace(entry, origin=origin)
