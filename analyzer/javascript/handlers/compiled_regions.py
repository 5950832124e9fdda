"""The state machines of a tree and the catch regions of their try entries, each as the edits
that make its cases the body of a catch clause (`compiled`): the catch case's own idioms blanked,
a return (`ctx.abrupt("return", v)`, `ctx.a(2, v)`, `[2, v]`) written as `return v`, an await
(`return ctx.n = N, p`, `[4, p]`) as `p`, a jump to the next case or out of the region blanked,
and a jump over the rest of a case (`if (!c) { ctx.n = N; break }`, how an `if` is compiled) as
the block it stands for. Anything else the machine does in the region leaves it out."""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from tree_sitter import Node

from analyzer.javascript.syntax import FUNCTION_TYPES

_HEAD = re.compile(rb"switch\s*\(\s*([\w$]+)\.(?:(prev)\s*=\s*([\w$]+)\.next|(p)\s*=\s*([\w$]+)\.n|(label))\s*\)"
                   rb"\s*\{\s*case\s+0\s*:")
_TRYS = re.compile(rb"\.trys\.push\(")
#: a machine's `switch` value, without its keyword
_VALUE = re.compile(rb"\(\s*[\w$]+\.(?:prev\s*=\s*[\w$]+\.next|p\s*=\s*[\w$]+\.n|label)\s*\)")
#: the properties of each runtime's context a catch region may use
_OLD, _NEW, _TS = "old", "new", "ts"
_STATE = {_OLD: b"prev", _NEW: b"p"}
_NEXT = {_OLD: b"next", _NEW: b"n", _TS: b"label"}
_CATCH_TEMPORARY = re.compile(rb"t\d+")
#: a region of more cases than this is not read
_MAX_CASES = 64
#: a machine of more try statements than this is not read (each region is checked against the others)
_MAX_ENTRIES = 256


@dataclass(slots=True)
class Machine:
    kind: str
    context: bytes
    labels: list[int | None]
    cases: list[Node]
    #: its try entries: (try, catch, finally, after) labels, None where absent
    entries: list[tuple[int | None, ...]]
    #: the function whose body is the `switch`
    function: Node
    #: each label's case position, and each case's position by its start
    positions: dict[int, int] = field(default_factory=dict)
    starts: dict[int, int] = field(default_factory=dict)
    #: the jumps written in the cases (`jumps_back`): their offsets, and from each on the lowest target
    jumps: tuple[list[int], list[int]] | None = None
    #: how many of those jumps go to each label
    targeted: dict[int, int] = field(default_factory=dict)


@dataclass(slots=True)
class Region:
    start: int
    end: int
    #: the caught value's name in the parsed clause, and as written
    param: str | None
    written: str | None
    edits: list[tuple[int, int, bytes]] = field(default_factory=list)
    #: the names the region's clause declares (`compiled_locals`)
    locals: list[bytes] = field(default_factory=list)


def machines(root: Node, source: bytes) -> Iterator[Machine]:
    """The state machines of the tree whose try entries name a catch case or more."""
    for match in _HEAD.finditer(source, root.start_byte, root.end_byte):
        node = root.descendant_for_byte_range(match.start(), match.start() + 1)
        switch = node.parent if node is not None else None
        if switch is None or switch.type != "switch_statement" or switch.start_byte != match.start():
            continue
        machine = _machine(switch, match, source, 0)
        if machine is not None:
            yield machine


def is_machine_value(value: Node) -> bool:
    """Whether a `switch`'s value is a state machine's (`(t.prev = t.next)`, `(_a.label)`)."""
    return _VALUE.fullmatch(value.text or b"") is not None


def machine_at(switch: Node) -> Machine | None:
    """The state machine whose `switch` this is, read from its own bytes, else None."""
    value = switch.child_by_field_name("value")
    if value is None or not _VALUE.fullmatch(value.text or b""):
        return None
    text = switch.text or b""
    match = _HEAD.match(text)
    return _machine(switch, match, text, switch.start_byte) if match is not None else None


def _machine(switch: Node, match: re.Match[bytes], text: bytes, base: int) -> Machine | None:
    context = match.group(1)
    kind = _OLD if match.group(2) else _NEW if match.group(4) else _TS
    if kind != _TS and (match.group(3) or match.group(5)) != context:
        return None
    function = _function_of(switch, kind)
    if function is None or _parameter(function) != context:
        return None
    entries = _babel_entries(function) if kind != _TS else _ts_entries(switch, context, text, base)
    if not entries or len(entries) > _MAX_ENTRIES:
        return None
    body = switch.child_by_field_name("body")
    cases = [c for c in body.named_children if c.type in ("switch_case", "switch_default")] if body else []
    labels = [_label(c) for c in cases]
    if len({label for label in labels if label is not None}) != sum(1 for label in labels if label is not None):
        return None
    return Machine(kind, context, labels, cases, entries, function,
                   {label: at for at, label in enumerate(labels) if label is not None},
                   {case.start_byte: at for at, case in enumerate(cases)})


def jumps_back(machine: Machine, case: Node, target: int) -> bool:
    """Whether a jump written from `case` on (`ctx.next = N`, TypeScript's `[3, N]`) goes to
    `target` or before. The cases' jumps are found once a machine: no jump straddles a case's
    start, so those from a case on are the whole body's from its offset on."""
    offsets, lowest = _jumps(machine, case)
    at = bisect.bisect_left(offsets, case.start_byte)
    return at < len(lowest) and lowest[at] <= target


def jumps_to(machine: Machine, case: Node, target: int) -> int:
    """How many jumps written in the machine's cases go to `target` (`jumps_back`'s index)."""
    _jumps(machine, case)
    return machine.targeted.get(target, 0)


def _jumps(machine: Machine, case: Node) -> tuple[list[int], list[int]]:
    if machine.jumps is None:
        body = case.parent
        text, base = (body.text or b"", body.start_byte) if body is not None else (b"", 0)
        jumps = re.compile(re.escape(machine.context) + rb"\s*\.\s*(?:next|n|label)\s*=\s*(\d+)"
                           + (rb"|\[\s*3\s*(?:/\*[^*]*\*/)?\s*,\s*(\d+)\s*\]" if machine.kind == _TS else b""))
        offsets, lowest = [], []
        for found in jumps.finditer(text):
            if body is not None and _in_function(body, base + found.start()):
                continue  # a nested function's own machine (TypeScript's `[3, N]` names no context)
            offsets.append(base + found.start())
            lowest.append(int(found.group(1) or found.group(2)))
            machine.targeted[lowest[-1]] = machine.targeted.get(lowest[-1], 0) + 1
        for at in range(len(lowest) - 2, -1, -1):
            lowest[at] = min(lowest[at], lowest[at + 1])
        machine.jumps = (offsets, lowest)
    return machine.jumps


def _in_function(body: Node, offset: int) -> bool:
    """Whether the byte at `offset` is inside a function nested in `body`."""
    node = body.descendant_for_byte_range(offset, offset + 1)
    while node is not None and node != body:
        if node.type in FUNCTION_TYPES:
            return True
        node = node.parent
    return False


def _function_of(switch: Node, kind: str) -> Node | None:
    above = switch.parent
    if kind != _TS:  # `for (;;) switch`, `while (1) switch`
        if above is None or above.type not in ("for_statement", "while_statement"):
            return None
        above = above.parent
    if above is None or above.type != "statement_block" \
            or any(s != switch and s != switch.parent and not _bare_var(s) for s in above.named_children):
        return None
    function = above.parent
    return function if function is not None and function.type == "function_expression" else None


def _bare_var(statement: Node) -> bool:
    """A `var` without values, which runs nothing: terser's temporaries of a function it inlines
    into a case, declared after the machine's `switch` (`switch (t.label) {...} var v`)."""
    return statement.type == "variable_declaration" and all(
        d.type == "variable_declarator" and d.child_by_field_name("value") is None for d in statement.named_children)


def _parameter(function: Node) -> bytes | None:
    parameters = function.child_by_field_name("parameters")
    named = parameters.named_children if parameters is not None else []
    return named[0].text if len(named) == 1 and named[0].type == "identifier" else None


def _babel_entries(function: Node) -> list[tuple[int | None, ...]]:
    """The try locations of the `wrap(fn, outer, self, [[try, catch, finally, after], ...])` call."""
    node = function
    while node.parent is not None and node.parent.type == "parenthesized_expression":
        node = node.parent
    arguments = node.parent
    call = arguments.parent if arguments is not None and arguments.type == "arguments" else None
    if call is None or call.type != "call_expression":
        return []
    given = [a for a in arguments.named_children if a.type != "comment"] if arguments is not None else []
    if len(given) != 4 or given[0] != node or given[3].type != "array":
        return []
    entries = []
    for entry in given[3].named_children:
        locations = _numbers(entry)
        if locations is None or len(locations) < 2:
            return []
        entries.append(tuple(locations) + (None,) * (4 - len(locations)))
    return entries


def _ts_entries(switch: Node, context: bytes, text: bytes, base: int) -> list[tuple[int | None, ...]]:
    entries = []
    for match in _TRYS.finditer(text, switch.start_byte - base, switch.end_byte - base):
        node = switch.descendant_for_byte_range(match.start() + base + 1, match.start() + base + 2)
        member = node.parent if node is not None else None  # `.trys`'s member, then `.push`'s
        push = member.parent if member is not None else None
        call = push.parent if push is not None else None
        if member is None or push is None or call is None or call.type != "call_expression" \
                or (member.child_by_field_name("object") or member).text != context:
            continue
        if _innermost_switch(call) != switch:
            continue
        arguments = call.child_by_field_name("arguments")
        given = arguments.named_children if arguments is not None else []
        locations = _numbers(given[0]) if len(given) == 1 and given[0].type == "array" else None
        if locations is None or len(locations) != 4:
            return []
        entries.append(tuple(locations))
    return entries


def _innermost_switch(node: Node) -> Node | None:
    above = node.parent
    while above is not None and above.type != "switch_statement":
        if above.type in FUNCTION_TYPES:
            return None
        above = above.parent
    return above


def _numbers(array: Node) -> list[int | None] | None:
    """An array literal of integers and holes (`[0, 2, , 3]`)."""
    if array.type != "array":
        return None
    out: list[int | None] = []
    current: int | None = None
    for child in array.children[1:-1]:
        if child.type == ",":
            out.append(current)
            current = None
        elif child.type == "number" and (child.text or b"").isdigit():
            current = int(child.text or b"0")
        elif child.type != "comment":
            return None
    out.append(current)
    return out


def _label(case: Node) -> int | None:
    value = case.child_by_field_name("value")
    return int(value.text or b"") if value is not None and value.type == "number" \
        and (value.text or b"").isdigit() else None
