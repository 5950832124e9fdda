"""The inventory files that need no owners (docs/reference.md, "A scan directory"): each file's
writer, under the name `analyzer.scandir.files` gives it."""

from __future__ import annotations

import dataclasses
import functools
import types
import typing
from collections import Counter, defaultdict
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

import orjson

from analyzer.model import Callsite
from analyzer.reports.modules import module_files
from analyzer.scandir.files import (
    CALLSITE_FILES,
    CLASSES_FILE,
    HANDLERS_FILE,
    LITERAL_FILES,
    REFERENCES_FILE,
    TEMPLATE_FILES,
    TEMPLATE_SCHEMA,
)

if TYPE_CHECKING:
    from analyzer.scan import ScanResult

_EXAMPLES = 5


def jsonl(rows: list[object]) -> bytes:
    """One JSON document per line: each record as orjson writes it, made through its `_plain`
    form (orjson reads a slotted dataclass field by field, four times slower than a dict)."""
    plain: dict[type, Callable[[Any], Any]] = {}
    out = []
    for row in rows:
        kind = type(row)
        made = plain.get(kind)
        if made is None:
            made = plain[kind] = _plain(kind)  # type: ignore[arg-type]
        out.append(orjson.dumps(made(row)) + b"\n")
    return b"".join(out)


@functools.cache
def _plain(record: type) -> Callable[[Any], Any]:
    """A function that turns a `record` into the dict orjson would write it as: its fields in order
    (but those orjson skips, named with `_`), a nested record whose type is exactly its field's
    hint (or the hint's option, or a tuple's item) in turn; anything else as it is, for orjson.
    Not a slotted dataclass, or hints that do not resolve: the record itself."""
    if not (dataclasses.is_dataclass(record) and "__slots__" in record.__dict__):
        return _itself
    try:
        hints = typing.get_type_hints(record)
    except (NameError, TypeError):
        return _itself
    scope: dict[str, Any] = {}
    lines, parts = [], []
    for number, field in enumerate(f for f in dataclasses.fields(record) if not f.name.startswith("_")):
        nested, many = _nested(hints[field.name])
        if nested is None:
            parts.append(f"{field.name!r}: r.{field.name}")
            continue
        scope[f"t{number}"] = nested
        made = "plain"  # a record holding its own kind (`BranchTest.also`) calls the function made here
        if nested is not record:
            made, scope[f"p{number}"] = f"p{number}", _plain(nested)
        lines.append(f"    v{number} = r.{field.name}")
        if many:
            lines.append(f"    if type(v{number}) is tuple: "
                         f"v{number} = [{made}(x) if type(x) is t{number} else x for x in v{number}]")
        else:
            lines.append(f"    if type(v{number}) is t{number}: v{number} = {made}(v{number})")
        parts.append(f"{field.name!r}: v{number}")
    source = "def plain(r):\n" + "".join(line + "\n" for line in lines) + "    return {" + ", ".join(parts) + "}\n"
    exec(source, scope)  # made from the field names and hints alone
    return cast(Callable[[Any], Any], scope["plain"])


def _nested(hint: Any) -> tuple[type | None, bool]:
    """(the record type a field of this hint holds, whether as a tuple of them), else (None, False)."""
    origin = typing.get_origin(hint)
    if origin in (types.UnionType, typing.Union):
        options = [a for a in typing.get_args(hint) if a is not type(None)]
        return _nested(options[0]) if len(options) == 1 else (None, False)
    if origin is tuple:
        items = typing.get_args(hint)
        if len(items) == 2 and items[1] is Ellipsis and isinstance(items[0], type) \
                and dataclasses.is_dataclass(items[0]):
            return cast(type, items[0]), True
        return None, False
    return (cast(type, hint), False) if isinstance(hint, type) and dataclasses.is_dataclass(hint) else (None, False)


def _itself(row: Any) -> Any:
    return row


def inventory_files(result: ScanResult) -> dict[str, bytes]:
    files: dict[str, bytes] = {}
    for kind in ("error", "diagnostic"):
        records = [r for r in result.callsites if r.kind == kind]
        files[CALLSITE_FILES[kind]] = jsonl(records)  # type: ignore[arg-type]
        files[TEMPLATE_FILES[kind]] = jsonl(templates(records))  # type: ignore[arg-type]
        files[LITERAL_FILES[kind]] = literals(records)
    files[CLASSES_FILE] = jsonl(result.classes)  # type: ignore[arg-type]
    files[REFERENCES_FILE] = jsonl(result.references)  # type: ignore[arg-type]
    for written in result.readable.values():
        files |= written.file_texts()
    files |= module_files(result)
    if result.handlers is not None:  # a frontend that looks for handlers
        files[HANDLERS_FILE] = jsonl(result.handlers)  # type: ignore[arg-type]
    return files


def templates(records: list[Callsite]) -> list[dict[str, object]]:
    """One row per distinct non-literal message: template, or normalized expression."""
    groups: dict[tuple[str, str], list[Callsite]] = defaultdict(list)
    for record in records:
        if record.message.shape != "string":
            groups[(record.message.shape, record.message.comparisonKey)].append(record)
    rows: list[dict[str, object]] = []
    for (shape, key), members in groups.items():
        by = Counter((r.constructor if r.kind == "error" else r.level) or "" for r in members)
        rows.append(
            {
                "schema": TEMPLATE_SCHEMA,
                "shape": shape,
                "template": members[0].message.template,
                "comparisonKey": key,
                "count": len(members),
                ("constructors" if members[0].kind == "error" else "levels"): dict(sorted(by.items())),
                "exampleIds": [r.id for r in members[:_EXAMPLES]],
            }
        )
    rows.sort(key=lambda row: (-row["count"], row["shape"], row["comparisonKey"]))  # type: ignore[operator]
    return rows


def literals(records: list[Callsite]) -> bytes:
    """Distinct static messages, sorted, one per line; `\\`, newline, CR and tab are escaped."""
    texts = {r.message.text for r in records if r.message.shape == "string" and r.message.text is not None}
    lines = sorted(_escape_line(t) for t in texts)
    return "".join(line + "\n" for line in lines).encode("utf-8", "surrogatepass")


def _escape_line(value: str) -> str:
    return value.replace("\\", "\\\\").replace("\n", "\\n").replace("\r", "\\r").replace("\t", "\\t")
