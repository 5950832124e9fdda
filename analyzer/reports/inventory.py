"""The inventory files that need no owners (docs/reference.md, "A scan directory"): each file's
writer, under the name `analyzer.scandir.files` gives it."""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import TYPE_CHECKING

import orjson

from analyzer.model import Callsite
from analyzer.reports.handlers import handler_files
from analyzer.reports.modules import module_files
from analyzer.scandir.files import (
    CALLSITE_FILES,
    CLASSES_FILE,
    LITERAL_FILES,
    REFERENCES_FILE,
    TEMPLATE_FILES,
    TEMPLATE_SCHEMA,
)

if TYPE_CHECKING:
    from analyzer.scan import ScanResult

_EXAMPLES = 5


def jsonl(rows: list[object]) -> bytes:
    return b"".join(orjson.dumps(row) + b"\n" for row in rows)


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
    files |= handler_files(result)
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
