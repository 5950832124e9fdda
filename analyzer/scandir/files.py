"""The table of a scan directory's files: name, schema, format and the stage that writes it.

Every verb names a file through this table; a new output is one `Output` here plus its writer
(docs/schemas.md, "A new output").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from analyzer.model import (
    CALLSITE_SCHEMA,
    ERROR_CLASS_SCHEMA,
    HANDLER_SCHEMA,
    MAP_SOURCE_SCHEMA,
    MODULE_SCHEMA,
    REFERENCE_ITEM_SCHEMA,
)

#: how a file is read back: one JSON document, one per line, or text
Format = Literal["json", "jsonl", "md", "txt"]
#: who writes it: `scan` (the inventory), the owner step of `scan` and `project`, or a later verb
Stage = Literal["inventory", "owners", "signatures", "suggest"]


@dataclass(frozen=True, slots=True)
class Output:
    #: the file's path in the scan directory
    name: str
    #: what one document is (a JSONL file: each line), `erratlas.<name>/<version>`; None for text
    schema: str | None
    format: Format
    stage: Stage
    #: every scan writes it: the gate refuses a summary that does not list it
    always: bool


TEMPLATE_SCHEMA = "erratlas.template/1"
PROJECTION_SCHEMA = "erratlas.projection/1"
HANDLER_PROJECTION_SCHEMA = "erratlas.handler-projection/1"
SUMMARY_SCHEMA = "erratlas.summary/1"
SUGGESTION_SCHEMA = "erratlas.suggestion/1"

CALLSITE_FILES = {"error": "error-message-callsites.jsonl", "diagnostic": "diagnostic-message-callsites.jsonl"}
TEMPLATE_FILES = {"error": "error-message-templates.jsonl", "diagnostic": "diagnostic-message-templates.jsonl"}
LITERAL_FILES = {"error": "error-message-literals.txt", "diagnostic": "diagnostic-message-literals.txt"}
CLASSES_FILE = "error-classes.jsonl"
MODULES_FILE = "modules.jsonl"
#: where each source of a used map lies (docs/modules.md, "Places"); written when a map was used
MAP_SOURCES_FILE = "map-sources.jsonl"
#: the reference graph the `references` owner entries follow (docs/references.md)
REFERENCES_FILE = "references.jsonl"
#: where errors are caught and what each handler does; written by a scan whose frontend looks
#: for handlers (JavaScript and Python), absent otherwise (docs/reference.md, "Handler records")
HANDLERS_FILE = "handlers.jsonl"
PROJECTION_FILE = "error-diagnostic-owner-projection.jsonl"
#: each handler's owner; written with handlers.jsonl (docs/owners.md, "Handlers")
HANDLER_PROJECTION_FILE = "handler-owner-projection.jsonl"
INDEX_FILE = "error-diagnostic-owner-index.md"
SUMMARY_FILE = "error-diagnostic-owner-summary.json"
SIGNATURES_FILE = "function-signatures.jsonl"
SUGGESTIONS_FILE = "suggestions.jsonl"
#: the index's pages, and the readable rendering of every unit, are files under these
INDEX_DIRECTORY = "index/"
READABLE_DIRECTORY = "readable/"

OUTPUTS: tuple[Output, ...] = (
    *(Output(CALLSITE_FILES[k], CALLSITE_SCHEMA, "jsonl", "inventory", True) for k in CALLSITE_FILES),
    *(Output(TEMPLATE_FILES[k], TEMPLATE_SCHEMA, "jsonl", "inventory", True) for k in TEMPLATE_FILES),
    *(Output(LITERAL_FILES[k], None, "txt", "inventory", True) for k in LITERAL_FILES),
    Output(CLASSES_FILE, ERROR_CLASS_SCHEMA, "jsonl", "inventory", True),
    Output(MODULES_FILE, MODULE_SCHEMA, "jsonl", "inventory", True),
    Output(MAP_SOURCES_FILE, MAP_SOURCE_SCHEMA, "jsonl", "inventory", False),
    Output(REFERENCES_FILE, REFERENCE_ITEM_SCHEMA, "jsonl", "inventory", True),
    Output(HANDLERS_FILE, HANDLER_SCHEMA, "jsonl", "inventory", False),
    Output(SIGNATURES_FILE, None, "jsonl", "signatures", False),
    Output(PROJECTION_FILE, PROJECTION_SCHEMA, "jsonl", "owners", True),
    Output(HANDLER_PROJECTION_FILE, HANDLER_PROJECTION_SCHEMA, "jsonl", "owners", False),
    Output(INDEX_FILE, None, "md", "owners", True),
    Output(SUMMARY_FILE, SUMMARY_SCHEMA, "json", "owners", True),
    Output(SUGGESTIONS_FILE, SUGGESTION_SCHEMA, "jsonl", "suggest", False),
)

#: every scan writes these (with the readable slice every callsite's record points into)
SCAN_FILES = tuple(o.name for o in OUTPUTS if o.always and o.name != SUMMARY_FILE)
#: the files `project` makes anew from the inventory and the allowlists (and the index's pages)
DERIVED_FILES = tuple(o.name for o in OUTPUTS if o.stage == "owners")
#: file name -> the schema of one document of it
OUTPUT_SCHEMAS = {o.name: o.schema for o in OUTPUTS if o.schema is not None}


def is_derived(name: str) -> bool:
    """A file `project` makes anew: the projection, the index and its pages, the summary."""
    return name in DERIVED_FILES or name.startswith(INDEX_DIRECTORY)
