"""Reviewed allowlists (docs/owners.md): load and validate with file/line/key errors; write canonically."""

from __future__ import annotations

import datetime as dt
import difflib
import hashlib
import os
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from analyzer.bounded import MAX_TOML_BYTES, MAX_TOML_TOKENS, read_regular
from analyzer.errors import InputError, InvariantError
from analyzer.scandir.write import write_file

# the TOML reader reads an allowlist not in the canonical form: the gate of a canonical one never loads it
if TYPE_CHECKING:
    from analyzer.tomlfile import TomlFile

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
_KEYS = ("match", "copies", "neighbours", "owner", "package", "function", "expect", *OWNER_FIELDS, "reason",
         "reviewedBy", "reviewedOn")
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
    refuse_repeated(paths)
    return [load_allowlist(path) for path in paths]


def refuse_repeated(paths: list[Path]) -> None:
    """The same allowlist given twice, by any path, is refused: read twice, its entries would
    count twice (docs/reference.md, "Allowlists")."""
    seen: dict[str, Path] = {}
    for path in paths:
        real = os.path.realpath(path)
        if real in seen:
            raise InputError(path, f"allowlist given twice (also as {seen[real]})")
        seen[real] = path


def load_allowlist(path: Path, display: str | None = None) -> Allowlist:
    """Read, locate and validate the allowlist at `path`; `display` is the name its entries'
    origins carry (the path as the scan was given it, when the gate reads it again)."""
    raw = read_regular(path, "allowlist", MAX_TOML_BYTES)
    return read_allowlist(raw, path, display if display is not None else str(path))


def parse_allowlist(document: TomlFile, name: str) -> Allowlist:
    data = document.data
    for key in data:
        if key not in ("schema", "entry"):
            alien = "" if "entry" in data else "; not an allowlist (one holds only `schema` and [[entry]] tables)"
            raise InputError(f"{name}:{document.line(key)}", f"key '{key}': unknown key{alien}")
    if data.get("schema", SCHEMA) != SCHEMA:
        raise InputError(f"{name}:{document.line('schema')}", f"key 'schema': must be \"{SCHEMA}\"")
    raw_entries = data.get("entry", [])
    if not isinstance(raw_entries, list):
        raise InputError(f"{name}:{document.line('entry')}", "key 'entry': must be an array of tables ([[entry]])")
    origins = _origins(document, name, raw_entries)
    entries = []
    for index, body in enumerate(raw_entries):
        def fail(key: str | None, problem: str, index: int = index) -> InputError:
            line = document.line("entry", index, key) if key else document.line("entry", index)
            return InputError(
                f"{name}:{line}", f"entry {index + 1}" + (f", key '{key}'" if key else "") + f": {problem}"
            )

        entries.append(validated_entry(body, fail, origins[index]))
    return Allowlist(path=name, sha256=hashlib.sha256(document.raw).hexdigest(), entries=tuple(entries))


def _origins(document: TomlFile, name: str, bodies: list[Any]) -> list[str]:
    """`file:line` of each entry (`file:line:column` when entries share a line), after checking
    that the entry and each of its keys were located: a form we cannot locate is refused."""
    starts = []
    for index, body in enumerate(bodies):
        start = document.positions.get(("entry", index))
        keys = body if isinstance(body, dict) else {}
        if start is None or any(("entry", index, key) not in document.positions for key in keys):
            raise InputError(f"{name}:{document.line('entry')}",
                             f"entry {index + 1}: cannot locate it in this TOML form; write it as an [[entry]] table")
        starts.append(start)
    shared = Counter(line for line, _ in starts)
    return [f"{name}:{line}" + (f":{column}" if shared[line] > 1 else "") for line, column in starts]


def validated_entry(body: Any, fail: Callable[[str | None, str], InputError], origin: str) -> Entry:
    """An Entry from a table of allowlist keys, or the first problem as `fail(key, problem)`."""
    if not isinstance(body, dict):
        raise fail(None, "must be a table")
    for key in body:
        if key not in _KEYS:
            near = difflib.get_close_matches(key, _KEYS, n=1)  # `ownr`, `reviewed_by`: a typo, said with its key
            raise fail(key, "unknown key" + (f" (did you mean '{near[0]}'?)" if near else "")
                       + f"; an entry's keys: {', '.join(_KEYS)}")
    for key in _REQUIRED:
        if key not in body:
            raise fail(None, f"missing required key '{key}'")
    for key, value in body.items():
        if key in ("match", "reviewedOn", "copies", "neighbours"):
            continue
        if key == "expect" and not isinstance(value, str):  # a message may be empty: `new Error("")`
            raise fail(key, "must be a string")
        if key != "expect" and (not isinstance(value, str) or not value.strip()):
            raise fail(key, "must be a non-empty string")
        if not _is_text(value):
            raise fail(key, "must be text (it holds a lone surrogate: bytes that are not UTF-8?)")
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
    copies, neighbours = _copies(body, level, fail)
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
        reviewed_on=_review_date(body["reviewedOn"], fail),
        origin=origin,
        copies=copies,
        neighbours=neighbours,
    )


#: more copies than any scan can hold (250,000 callsites a unit), and a number the summary's JSON
#: writes: 10**23 was an internal error when the summary was written
_MAX_COPIES = 2**31 - 1


def _copies(body: dict[str, Any], level: str, fail: Callable[[str | None, str], InputError]) \
        -> tuple[int | None, tuple[str, str] | None]:
    """The entry's `copies` and `neighbours` (docs/owners.md, Copies), validated."""
    copies = body.get("copies")
    if copies is not None and (isinstance(copies, bool) or not isinstance(copies, int)
                               or not 2 <= copies <= _MAX_COPIES):
        raise fail("copies", f"must be a whole number of identical copies, 2 or more (at most {_MAX_COPIES})")
    if copies is not None and level not in ("callsite", "function"):
        raise fail("copies", "only callsite and function entries can name a group of copies")
    neighbours = body.get("neighbours")
    if neighbours is None:
        return copies, None
    if level != "callsite" or copies is not None:
        raise fail("neighbours", "only a callsite entry without `copies` names one copy by its neighbours")
    if (not isinstance(neighbours, list) or len(neighbours) != 2
            or not all(isinstance(n, str) and (n == "" or _FINGERPRINT["callsite"].match(n)) for n in neighbours)):
        raise fail("neighbours", 'must be ["fp1:... or empty", "fp1:... or empty"]: the unique callsites just '
                                 "before and after the copy")
    return copies, (neighbours[0], neighbours[1])


def _is_text(value: str) -> bool:
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _review_date(value: object, fail: Callable[[str | None, str], InputError]) -> str:
    if isinstance(value, dt.date) and not isinstance(value, dt.datetime):
        return value.isoformat()
    try:
        if isinstance(value, str) and re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
            return dt.date.fromisoformat(value).isoformat()
    except ValueError:
        pass
    raise fail("reviewedOn", f"must be a date YYYY-MM-DD, not '{value}'")


def _match(value: object, fail: Callable[[str | None, str], InputError]) -> tuple[str, str]:
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
    "# erratlas allowlist: reviewed owners of callsites, functions and modules (docs/owners.md).\n"
    "# Written canonically by `erratlas allow` / `erratlas prune`: entries sorted by level and\n"
    "# fingerprint, keys in a fixed order. Edit freely; the tool keeps the order stable.\n"
)


def _unique(entries: list[Entry]) -> list[Entry]:
    """One entry per match and verdict: the last one given wins."""
    return list({(*e.identity(), e.verdict(), e.expect): e for e in entries}.values())


def overridden(entries: list[Entry]) -> list[Entry]:
    """The entries the canonical form leaves out: each has the match and verdict of a later one."""
    kept = {id(e) for e in _unique(entries)}
    return [e for e in entries if id(e) not in kept]


def render(entries: list[Entry]) -> bytes:
    ordered = sorted(_unique(entries), key=lambda e: (LEVELS.index(e.level), e.fingerprint, e.copies or 0,
                                                      e.neighbours or ("", ""), e.owner, e.package or ""))
    parts = [_HEADER, f'\nschema = "{SCHEMA}"\n']
    for entry in ordered:
        parts.append("\n[[entry]]\n")
        parts.append(f"match = {{ {entry.level} = {_string(entry.fingerprint)} }}\n")
        if entry.copies is not None:
            parts.append(f"copies = {entry.copies}\n")
        if entry.neighbours is not None:
            parts.append(f"neighbours = [{_string(entry.neighbours[0])}, {_string(entry.neighbours[1])}]\n")
        given = dict(entry.owner_fields)
        fields: list[tuple[str, str | None]] = [
            ("owner", entry.owner),
            ("package", entry.package),
            ("function", entry.function),
            ("expect", entry.expect),
            *[(name, given.get(name)) for name in OWNER_FIELDS],
            ("reason", entry.reason),
            ("reviewedBy", entry.reviewed_by),
        ]
        for key, value in fields:
            if value is not None:
                parts.append(f"{key} = {_string(value)}\n")
        parts.append(f"reviewedOn = {entry.reviewed_on}\n")
    return "".join(parts).encode("utf-8")


#: each character a TOML basic string escapes, and how
_ESCAPES = {**{code: f"\\u{code:04X}" for code in (*range(0x20), 0x7F)},
            ord('"'): '\\"', ord("\\"): "\\\\", ord("\n"): "\\n", ord("\t"): "\\t"}


def _string(value: str) -> str:
    """A TOML basic string."""
    if value.isprintable() and '"' not in value and "\\" not in value:  # nothing to escape: most values
        return '"' + value + '"'
    return '"' + value.translate(_ESCAPES) + '"'


# ---- the canonical form read back ---------------------------------------------------------

_UNESCAPE = re.compile(r"\\([\"\\nt]|u00[01][0-9A-F]|u007F)")
_UNESCAPED = {'"': '"', "\\": "\\", "n": "\n", "t": "\t"}
#: the most tokens a canonical line is to the TOML reader (`neighbours = ["", ""]`); a file
#: under MAX_TOML_TOKENS by this count is under it by the reader's
_LINE_TOKENS = 8


def read_allowlist(raw: bytes, path: object, name: str) -> Allowlist:
    """The allowlist in `raw` (read from `path`; its entries' origins say `name`): a file in the
    canonical form `render` writes is read line by line, proved canonical by rendering its entries
    back to the same bytes; any other form goes through the TOML reader (docs/performance.md)."""
    canonical = _canonical(raw, name)
    if canonical is not None:
        return canonical
    from analyzer.tomlfile import parse_toml

    return parse_allowlist(parse_toml(raw, path, "allowlist"), name)


def _canonical(raw: bytes, name: str) -> Allowlist | None:
    """The allowlist when `raw` is exactly `render`'s output for its entries, else None. What
    `render` writes reads back through tomllib as those entries (`checked_rendering` checks it
    before every write), so this is the TOML reader's result at the cost of one rendering."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return None
    head = f'{_HEADER}\nschema = "{SCHEMA}"\n'
    if not text.startswith(head) or text.count("\n") * _LINE_TOKENS > MAX_TOML_TOKENS:
        return None
    bodies: list[tuple[int, dict[str, Any]]] = []
    lines = text[len(head):].split("\n")
    for number, line in enumerate(lines, start=head.count("\n") + 1):
        if line == "[[entry]]":
            bodies.append((number, {}))
        elif line:
            key, _, written = line.partition(" = ")
            value = _value(written)
            if value is None or not bodies or key in bodies[-1][1]:
                return None
            bodies[-1][1][key] = value
    entries = []
    for number, body in bodies:
        try:
            entries.append(validated_entry(body, _refused, f"{name}:{number}"))
        except InputError:
            return None
    if render(entries) != raw:
        return None
    return Allowlist(path=name, sha256=hashlib.sha256(raw).hexdigest(), entries=tuple(entries))


def _refused(key: str | None, problem: str) -> InputError:
    return InputError("allowlist", problem)  # not shown: the TOML reader says where, in its own words


def _value(written: str) -> object:
    """A canonical line's value as tomllib reads it, told apart by its first character (any
    other text is caught when the entries are rendered back); None for no value `render` writes."""
    start = written[:1]
    if start == '"':
        return _unescaped(written[1:-1])
    if start == "{":  # { level = "fingerprint" }
        level, _, fingerprint = written[2:-2].partition(" = ")
        return {level: _unescaped(fingerprint[1:-1])}
    if start == "[":  # ["before", "after"]
        before, _, after = written[1:-1].partition(", ")
        return [_unescaped(before[1:-1]), _unescaped(after[1:-1])]
    try:
        if written.isdigit():
            return int(written)
        return dt.date.fromisoformat(written) if len(written) == 10 else None
    except ValueError:
        return None


def _unescaped(body: str) -> str:
    if "\\" not in body:
        return body
    # only the escapes `render` writes: any other is left as it is and renders back otherwise
    return _UNESCAPE.sub(lambda m: _UNESCAPED.get(m[1]) or chr(int(m[1][1:], 16)), body)


def write_allowlist(path: Path, entries: list[Entry]) -> None:
    """Replace the file with the canonical rendering of `entries`, once it has been read back."""
    refuse_keyless(path)
    write_file(path, checked_rendering(path, entries))


def refuse_keyless(path: Path) -> None:
    """Refuse to replace a file that holds comments and no key: notes given by mistake (`fmt
    allowlists/*`), which a canonical rewrite would lose; an empty file loses nothing."""
    from analyzer.tomlfile import parse_toml

    if not os.path.lexists(path):
        return
    raw = read_regular(path, "allowlist", MAX_TOML_BYTES)
    if raw.strip() and not parse_toml(raw, path, "allowlist").data:
        raise InputError(path, f"holds comments and no key: not an allowlist, and nothing is written (one holds "
                               f"`schema = \"{SCHEMA}\"` and [[entry]] tables; add that line to have it rewritten)")


def checked_rendering(path: Path, entries: list[Entry]) -> bytes:
    """The canonical rendering of `entries`, read back: it parses, validates and holds exactly
    these entries, or nothing is written."""
    from analyzer.tomlfile import parse_toml

    data = render(entries)
    written = parse_allowlist(parse_toml(data, path, "allowlist"), str(path))
    if Counter(map(_content, written.entries)) != Counter(map(_content, _unique(entries))):  # None never sorts
        raise InvariantError(f"{path}: the canonical rendering does not read back as the entries written")
    return data


def _content(entry: Entry) -> tuple[object, ...]:
    return (entry.level, entry.fingerprint, entry.copies, entry.neighbours, entry.owner, entry.package,
            entry.function, entry.expect, tuple(sorted(entry.owner_fields)), entry.reason, entry.reviewed_by,
            entry.reviewed_on)


def with_origin(entry: Entry, origin: str) -> Entry:
    return replace(entry, origin=origin)
