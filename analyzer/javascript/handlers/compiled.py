"""Catch clauses compiled to ES5 state machines (docs/reference.md, "Compiled catch clauses"):
Babel's regenerator, old and new, and TypeScript's `__generator`. A catch region's cases, their
idioms rewritten in place at the same length (`compiled_reader`), are parsed alone as `try {}
catch (x) {...}` at their own offsets, and that clause is read as any other. A region the
reader does not read exactly is left out."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from tree_sitter import Node, Parser, Point, Range

from analyzer.javascript.handlers.body import Found
from analyzer.javascript.handlers.compiled_reader import read_region
from analyzer.javascript.handlers.compiled_regions import Region, is_machine_value, machine_at, machines
from analyzer.javascript.normalize import Normalizer, Siblings, anchor_of
from analyzer.javascript.syntax import LANGUAGE
from analyzer.model import Scope

if TYPE_CHECKING:
    from analyzer.javascript.unit_tree import UnitTree

#: a unit without this text has no state machine (nothing else is done): every runtime starts at
#: case 0 (protobuf's `switch (t.label) { case 1:` is no machine)
HINT = re.compile(rb"switch\s*\(\s*[\w$]+\.(?:prev\s*=\s*[\w$]+\.next|p\s*=\s*[\w$]+\.n|label)\s*\)"
                  rb"\s*\{\s*case\s+0\s*:")
_PARSER = Parser(LANGUAGE)


class Descending(Protocol):
    """`find.Descent`, as the catch regions' scopes and anchors ask it."""

    def to(self, offset: int) -> list[Node]: ...
    def chain(self, depth: int) -> list[Node]: ...
    def error_above(self, depth: int) -> bool: ...
    def scope(self, unit: str, depth: int) -> Scope: ...


@dataclass(frozen=True, slots=True)
class CompiledCatch(Found):
    """A catch region found in a state machine: `node` is the clause parsed from its rewritten
    bytes; `span` the region's (the catch case's `case` keyword to the region's end)."""

    span: tuple[int, int] = (0, 0)
    #: the caught value as written (`t.t0`, `_t`, `e_1`), or None when the region does not read it
    written: str | None = None


def span_of(handler: Found) -> tuple[int, int]:
    if isinstance(handler, CompiledCatch):
        return handler.span
    return handler.node.start_byte, handler.node.end_byte


def sink_calls_on(handler: Found, calls: list[tuple[Node, bool]], root: Node) -> list[tuple[Node, bool]]:
    """A handler's sink candidates (`HandlerBody.sink_candidates`), a compiled catch's as the same
    names of `root`'s tree: its clause is parsed alone at the region's offsets, and a name is
    resolved where its scopes are, by search (node ids) as by climb. A name the region's edits
    rewrote stays the clause's (left unresolved)."""
    if not isinstance(handler, CompiledCatch):
        return calls
    out = []
    for node, itself in calls:
        own = root.descendant_for_byte_range(node.start_byte, node.end_byte)
        out.append((own if own is not None and own.type == node.type and own.text == node.text else node, itself))
    return out


def written_param(handler: Found, param: str | None) -> str | None:
    """The record's `param`: a compiled catch's caught value as written (`t.t0`)."""
    return handler.written if isinstance(handler, CompiledCatch) else param


def compiled_catches(unit: str, part: UnitTree, normalizer: Normalizer, descent: Descending) -> list[CompiledCatch]:
    """The tree's catch regions read as clauses, in source order (none without `HINT`'s text);
    `descent`: a fresh descent of the tree, for their scopes."""
    root, source = part.root, normalizer.source
    if HINT.search(source, root.start_byte, root.end_byte) is None:
        return []
    regions: list[Region] = []
    for machine in machines(root, source):
        for entry in machine.entries:
            region = read_region(machine, entry)
            if region is not None:
                regions.append(region)
    regions.sort(key=lambda r: r.start)
    siblings = Siblings()
    out = []
    for region in regions:
        clause = _clause(source, region)
        if clause is None:
            continue
        path = descent.to(region.start)
        depth = next((at for at in range(len(path) - 1, -1, -1)
                      if path[at].start_byte == region.start and path[at].type == "switch_case"), None)
        if depth is None:
            continue
        case = path[depth]
        chain = descent.chain(depth)
        anchor = anchor_of(case, chain, siblings=siblings, root=root, list_type=part.list_type)
        in_error = case.has_error or descent.error_above(depth)
        out.append(CompiledCatch("catch", clause, [], descent.scope(unit, depth), in_error, normalizer.digest(anchor),
                                 anchor.start_byte, (), (region.start, region.end), region.written))
    return out


def compiled_catcher(case: Node, switch: Node | None = None) -> int | None:
    """The offset of the compiled catch that catches what is thrown directly in `case` (a
    `switch_case`): the innermost try entry of its machine whose protected cases, from the try
    case to the catch case, hold it and whose catch region is read, else None."""
    if switch is None:  # `Node.parent` walks down from the root: the caller's ancestors first
        switch = case.parent.parent if case.parent is not None else None
    value = switch.child_by_field_name("value") if switch is not None and switch.type == "switch_statement" else None
    if switch is None or value is None or not is_machine_value(value):
        return None
    key = (switch.start_byte, switch.end_byte, hash(switch.text))
    catchers = _CATCHERS.get(key)
    if catchers is None:
        if len(_CATCHERS) > 256:
            _CATCHERS.clear()
        catchers = _CATCHERS[key] = _catchers(switch)
    label = case.child_by_field_name("value")
    at = int(label.text or b"") if label is not None and label.type == "number" and (label.text or b"").isdigit() \
        else None
    inner = [c for c in catchers if at is not None and c[0] <= at < c[1]]
    offset = max(inner)[2] if inner else -1
    return offset if offset >= 0 else None  # None too when the innermost one's region is not read


#: per machine's `switch` (start, end, digest): its catches as (try label, catch label, catch case
#: offset, or -1 for one whose region is not read)
_CATCHERS: dict[tuple[int, int, int], list[tuple[int, int, int]]] = {}


def _catchers(switch: Node) -> list[tuple[int, int, int]]:
    machine = machine_at(switch)
    if machine is None:
        return []
    text, base = switch.text or b"", switch.start_byte
    out = []
    for entry in machine.entries:
        if entry[0] is None or entry[1] is None:
            continue
        region = read_region(machine, entry)
        read = region is not None and _clause(text, region, base) is not None
        out.append((entry[0], entry[1], region.start if region is not None and read else -1))
    return out


def _clause(source: bytes, region: Region, base: int = 0) -> Node | None:
    """The catch clause the region's rewritten bytes parse to, at the region's offsets
    (`source`: the bytes from `base` on)."""
    prefix = b"try{}catch" + (b"(" + region.param.encode() + b")" if region.param is not None else b"") + b"{" \
        + (b"var " + b",".join(region.locals) + b";" if region.locals else b"")
    start = region.start - len(prefix)
    if start < 0:
        return None
    body = bytearray(source[region.start - base:region.end - base])
    for at, end, replacement in region.edits:
        body[at - region.start:end - region.start] = replacement.ljust(end - at)
    document = prefix + bytes(body) + b"}"
    end = start + len(document)

    def read(byte: int, _point: Point) -> bytes:
        if byte < start:
            return b" " * (start - byte)
        return document[byte - start:]

    _PARSER.included_ranges = [Range(Point(0, start), Point(0, end), start, end)]
    tree = _PARSER.parse(read)
    statement = tree.root_node.named_children[0] if tree.root_node.named_child_count == 1 else None
    if tree.root_node.has_error or statement is None or statement.type != "try_statement":
        return None
    clause = statement.child_by_field_name("handler")
    return clause if clause is not None and clause.end_byte == end else None
