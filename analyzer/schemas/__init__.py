"""JSON Schemas of every JSON and JSONL output, shipped with the package (docs/schemas.md).

A document's `schema` field, `erratlas.<name>/<version>`, names the schema file
`<name>-<version>.json` in this package; its `$id` is `urn:erratlas:schema:<name>:<version>`.
"""

from __future__ import annotations

import functools
import json
from importlib import resources
from typing import Any

# scan-directory files, and what one document of each is: from the one table of outputs
from analyzer.scandir.files import OUTPUT_SCHEMAS

__all__ = ["OUTPUT_SCHEMAS", "known_schemas", "load_schema", "schema_file"]


def schema_file(schema: str) -> str:
    """`erratlas.callsite/1` -> `callsite-1.json`."""
    family, _, version = schema.removeprefix("erratlas.").partition("/")
    return f"{family}-{version}.json"


@functools.cache
def load_schema(schema: str) -> dict[str, Any]:
    """The JSON Schema a document whose `schema` field is `schema` follows."""
    text = resources.files(__package__).joinpath(schema_file(schema)).read_text(encoding="utf-8")
    document: dict[str, Any] = json.loads(text)
    return document


def known_schemas() -> list[str]:
    """Every schema this package ships, as `erratlas.<name>/<version>`."""
    names = [p.name for p in resources.files(__package__).iterdir() if p.name.endswith(".json")]
    return sorted(f"erratlas.{n[:-5].rsplit('-', 1)[0]}/{n[:-5].rsplit('-', 1)[1]}" for n in names)
