"""browserify: the prelude called with `{id: [function (require, module, exports) {...},
{"./dep": id}], ...}`."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from tree_sitter import Node

from analyzer.javascript.modules.finder import Finder, Found, Merging, Where
from analyzer.javascript.modules.patterns import FUNCTIONS, Search
from analyzer.javascript.modules.spans import ModuleSpan, function_span
from analyzer.javascript.modules.statements import key_text

_TABLE = Search(re.compile(rb"\(\s*\{\s*(?:\d+|\"[^\"\n]{1,400}\")\s*:\s*\[\s*function\s*\("), b"[function", 420, 20)


def part(where: Where) -> list[ModuleSpan]:
    root, source = where.root, where.source
    spans: list[ModuleSpan] = []
    for match in where.literals.matches(_TABLE):
        if not where.holds(match.start() + 1):
            continue
        table = root.descendant_for_byte_range(match.start() + 1, match.start() + 1)
        while table is not None and table.type != "object":
            table = table.parent if table.parent is not None and table.parent.start_byte == table.start_byte else None
        if table is None or table.parent is None or table.parent.type != "arguments":
            continue
        entries = list(_browserify_entries(table))
        names = _required_names(entries)
        spans.extend(function_span("browserify", function, source, names.get(key), key, "browserify module table")
                     for key, function, _ in entries)
    return spans


def merge(parts: Sequence[list[ModuleSpan]], merging: Merging) -> Found:
    return Found([span for spans in parts for span in spans])


def _browserify_entries(table: Node) -> Iterator[tuple[str, Node, Node | None]]:
    for member in table.named_children:
        if member.type != "pair":
            continue
        key = key_text(member.child_by_field_name("key"))
        value = member.child_by_field_name("value")
        if key is None or value is None or value.type != "array":
            continue
        items = [c for c in value.named_children if c.type != "comment"]
        if items and items[0].type in FUNCTIONS:
            yield key, items[0], items[1] if len(items) > 1 and items[1].type == "object" else None


def _required_names(entries: list[tuple[str, Node, Node | None]]) -> dict[str, str]:
    """Module id -> the name other modules require it by (`ms`, `./lib/parse`), when every
    requirer agrees on a bare package name or on one relative path."""
    names: dict[str, set[str]] = {}
    for _, _, dependencies in entries:
        if dependencies is None:
            continue
        for pair in dependencies.named_children:
            if pair.type != "pair":
                continue
            name = key_text(pair.child_by_field_name("key"))
            value = pair.child_by_field_name("value")
            if name is not None and value is not None and value.type in ("number", "string"):
                names.setdefault(key_text(value) or "", set()).add(name)
    out = {}
    for key, required in names.items():
        bare = {n for n in required if not n.startswith((".", "/"))}
        if len(bare) == 1:
            out[key] = bare.pop()
        elif len(required) == 1:
            out[key] = next(iter(required))
    return out


FINDER = Finder(__name__, part, merge)
