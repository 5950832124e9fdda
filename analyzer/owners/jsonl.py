"""The JSON-lines files the owners stage reads back (a scan's references, a suggestions file):
every line one row of a known schema, a bad line an InputError naming the file and the line."""

from __future__ import annotations

from typing import Any

import orjson

from analyzer.errors import InputError


def schema_row(line: bytes, where: str, schema: str, what: str) -> dict[str, Any]:
    """The row on one line (`where`: `file:line`): a JSON object of `schema`, or an InputError."""
    try:
        row = orjson.loads(line)
    except orjson.JSONDecodeError as exc:
        raise InputError(where, f"not JSON: {exc}") from None
    if not isinstance(row, dict) or row.get("schema") != schema:
        raise InputError(where, f"not {what} (schema {schema})")
    return row
