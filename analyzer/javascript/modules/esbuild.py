"""esbuild and Bun wrappers: the `__commonJS` and `__esm` helpers found by shape, and the
`var X = helper(function ...)` declarations that are the modules (docs/modules.md, "Modules
found by shape": the shapes, and the declarations an `__esm` module hoists out of its
closure)."""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from tree_sitter import Node

from analyzer.javascript.modules.finder import Finder, Found, Helper, Merging, Where
from analyzer.javascript.modules.patterns import DECLARATIONS, FUNCTIONS, ID, Literals, Search
from analyzer.javascript.modules.spans import ModuleSpan, module_digest
from analyzer.javascript.modules.statement_rows import StatementRows, statement_rows
from analyzer.javascript.modules.statements import (
    StatementLists,
    Statements,
    key_text,
    parameters,
    same,
    statement_of,
)
from analyzer.javascript.syntax import climb, text
from analyzer.model import ModuleKind

#: `(mod = {exports: {}}).exports, mod), mod.exports`; rolldown drops the module function once run:
#: `(mod = {exports: {}}).exports, mod), cb = null), mod.exports` (docs/modules.md, "Modules found by shape")
_CJS_CORE = re.compile(
    rb"\(\s*(" + ID + rb")\s*=\s*\{\s*exports\s*:\s*\{\s*\}\s*\}\s*\)\s*\.\s*exports\s*,\s*\1\s*\)"
    rb"(?:\s*,\s*" + ID + rb"\s*=\s*null\s*\))?\s*,\s*\1\s*\.\s*exports"
)
#: webpack 5's CommonJS wrapper in concatenated modules: `m = {exports: {}}, fn.call(m.exports, m, m.exports)`
_CJS_CALL_CORE = re.compile(
    rb"(" + ID + rb")\s*=\s*\{\s*exports\s*:\s*\{\s*\}\s*\}\s*,\s*" + ID + rb"\s*\.\s*call\s*\(\s*\1\s*\.\s*exports"
    rb"\s*,\s*\1\s*,\s*\1\s*\.\s*exports\s*\)"
)
#: `res = fn(fn = 0)`, or unminified esbuild's `res = (0, fn[__getOwnPropNames(fn)[0]])(fn = 0)` (one bracket
#: level inside the key; docs/modules.md, "Modules found by shape")
_ESM_CORE = re.compile(
    rb"(?<![\w$])" + ID + rb"\s*=\s*(?:\(\s*0\s*,\s*(" + ID + rb")\s*\[(?:[^\[\]\n]|\[[^\[\]\n]{0,20}\]){0,80}\]\s*\)|("
    + ID + rb"))"
    rb"\s*\(\s*(?:\1|\2)\s*=\s*0\s*\)"
)
_EXPORT_CORE = re.compile(
    rb"for\s*\(\s*var\s+(" + ID + rb")\s+in\s+(" + ID + rb")\s*\)\s*[\w$.\x80-\xff]+\s*\(\s*" + ID
    + rb"\s*,\s*\1\s*,\s*\{\s*get\s*:\s*\2\s*\[\s*\1\s*\]"
)
#: the helpers' cores: (pattern, the helper's role, whether the core's names are its parameters)
_HELPER_CORES = (
    (Search(_CJS_CORE, b"exports", 40, 120), "commonjs", True),
    (Search(_CJS_CALL_CORE, b"exports", 40, 120), "commonjs", False),
    (Search(_ESM_CORE, b"0)", 160, 2, re.compile(rb"[\w$]\s*=\s*\Z")), "esm", True),
    (Search(_EXPORT_CORE, b"enumerable", 160, 0), "export", True),
)
#: what follows `helper(` in a wrapper call: the module function, or its keep-names object
_CALL_OPEN = rb"\s*(?=function\b|async\b|\(|" + ID + rb"\s*=>|\{)"
_IDENTIFIER_BYTES = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_$.") | frozenset(
    range(128, 256)
)
#: top-level statements an `__esm` module hoists out of its closure, besides its __export call
_HOISTABLE = frozenset(
    {"function_declaration", "generator_function_declaration", "class_declaration", "variable_declaration",
     "lexical_declaration", "empty_statement", "comment"}
)  # fmt: skip


def core_offsets(literals: Literals) -> list[int]:
    """Where the unit's helper cores start (bytes): a sliced extraction parses the slices holding
    one first, to find the helpers before any wrapper (docs/slices.md, stage 3b)."""
    return sorted(match.start() for search, _, _ in _HELPER_CORES for match in literals.matches(search))


def find_helpers(where: Where) -> list[Helper]:
    """The helpers whose core match `where`'s tree reads, in the unit's order; the unit's are
    every tree's, merged by `unit_helpers` (docs/slices.md, stage 3b: found before any wrapper)."""
    return _helpers(where, where.lists.main.id, None, nested=False) or []


def unit_helpers(parts: Sequence[Sequence[Helper]]) -> list[Helper]:
    """The unit's helpers from every tree's, in the order the whole tree finds them, each
    (name, list) once."""
    found: dict[tuple[str, tuple[int, int] | None], Helper] = {}
    for helper in sorted((h for part in parts for h in part), key=lambda h: h.order):
        found.setdefault((helper.name, helper.container), helper)
    return list(found.values())


def part(where: Where) -> list[list[_Wrapper]]:
    """The wrappers `where`'s tree holds, one list per helper group (`_by_container`)."""
    out: list[list[_Wrapper]] = []
    for container, names in _by_container(where.helpers):
        wrapping = {name: role for name, role in names.items() if role in ("commonjs", "esm")}
        node = _container_in(where, container) if wrapping else None
        if node is None:
            out.append([])
            continue
        start, end = (node.start_byte, node.end_byte) if where.span is None or container is not None else where.span
        out.append(_wrappers(where.lists, node, where.source, wrapping, start, end))
    return out


def merge(parts: Sequence[list[list[_Wrapper]]], merging: Merging) -> Found:
    """The wrappers' modules, each group's on every tree's wrappers and the main list's rows."""
    modules: list[ModuleSpan] = []
    for index, (_, names) in enumerate(_by_container(merging.helpers)):
        if not any(role in ("commonjs", "esm") for role in names.values()):
            continue
        exporters = {name for name, role in names.items() if role == "export"}
        found = [wrapper for wrappers in parts for wrapper in wrappers[index]]
        modules.extend(_spans(found, merging.rows, merging.source, exporters))
    return Found(modules, {h.name: h.role for h in merging.helpers})


def _container_in(where: Where, container: tuple[int, int] | None) -> Node | None:
    """The helpers' statement list in `where`'s tree: the main list, or the list with those
    bounds when the tree holds its start (a list below the main one lies in one slice)."""
    if container is None:
        return where.lists.main
    start, end = container
    if not where.holds(start):
        return None
    node = where.root.descendant_for_byte_range(start, end)
    return node if node is not None and node.start_byte == start and node.end_byte == end else None


def nested_helpers(where: Where, bounds: tuple[int, int]) -> list[Helper] | None:
    """`find_helpers` on a run of statements of a nested list (a wrapper function's body) parsed
    alone: its root stands for that list, whose bounds are `bounds`. None when a core's climb
    meets the root undecided: the whole tree's would go on above the list."""
    return _helpers(where, where.root.id, bounds, nested=True)


def _helpers(where: Where, main: int, bounds: tuple[int, int] | None, nested: bool) -> list[Helper] | None:
    """The helpers of `where`'s cores; those declared in the list whose node id is `main` get
    `bounds` as their container. `nested`: None when a climb meets the root undecided."""
    found: list[Helper] = []
    for core, (search, role, strict) in enumerate(_HELPER_CORES):
        for rank, match in enumerate(where.literals.matches(search)):
            if not where.holds(match.start()):
                continue
            helper = _helper_at(where.root, match, role, strict)
            if helper is False and nested:
                return None
            if helper:
                name, container = helper
                inside = bounds if container.id == main else (container.start_byte, container.end_byte)
                found.append(Helper(name, role, inside, (core, rank)))
    return found


def _helper_at(
    root: Node, match: re.Match[bytes], role: str, strict: bool = True,
) -> tuple[str, Node] | Literal[False] | None:
    """The declaration `NAME = (a, b, ...) => ...` (or `function NAME(a, b)`, or `req.cw =
    ...`) around a core match, when (`strict`) the core's names are the helper's parameters:
    (name, the list its statement is in); else None, or False when the climb met the root
    before a declaration or its bound (a whole tree's root: nothing above it either)."""
    node = root.descendant_for_byte_range(match.start(), match.start())
    if node is None:
        return None
    outer: Node | None = None
    name_node: Node | None = None
    for depth, ancestor in enumerate(climb(node, root)):
        if depth > 24:
            return None
        if ancestor.type == "function_declaration":
            outer, name_node = ancestor, ancestor.child_by_field_name("name")
            break
        if ancestor.type in FUNCTIONS:
            outer = ancestor
        elif ancestor.type == "variable_declarator" and same(ancestor.child_by_field_name("value"), outer):
            name_node = ancestor.child_by_field_name("name")
            break
        elif ancestor.type == "assignment_expression" and same(ancestor.child_by_field_name("right"), outer):
            name_node = ancestor.child_by_field_name("left")
            break
    else:
        return False
    if outer is None or name_node is None or name_node.type not in ("identifier", "member_expression"):
        return None
    params = parameters(outer)
    if not params or (strict and len(params) < 2):
        return None
    if strict and role == "commonjs" and params[1] != match.group(1).decode():
        return None
    if strict and role == "esm" and params[0] != (match.group(1) or match.group(2)).decode():
        return None
    statement = outer if outer.type == "function_declaration" else statement_of(name_node, root)
    if statement is None or statement.parent is None:
        return None
    return text(name_node), statement.parent


def _by_container(helpers: Sequence[Helper]) -> list[tuple[tuple[int, int] | None, dict[str, str]]]:
    """The helpers by the list they are declared in, in the order the lists are first met."""
    containers: dict[tuple[int, int] | None, dict[str, str]] = {}
    for helper in helpers:
        containers.setdefault(helper.container, {})[helper.name] = helper.role
    return list(containers.items())


@dataclass(slots=True)
class _Wrapper:
    """A `var X = helper(function ...)` declarator, as the tree gave it (no node kept)."""

    kind: ModuleKind
    helper: str
    #: the rows of the statement list it is declared in; None for the main list, whose rows are
    #: the unit's (`Where.rows`)
    rows: StatementRows | None
    #: the declarator's bounds
    declarator: tuple[int, int]
    body: int
    key: str | None
    binding: str | None


def _wrappers(
    lists: StatementLists, container: Node, source: bytes, wrapping: dict[str, str], start: int, end: int
) -> list[_Wrapper]:
    """The wrappers of the helpers `wrapping` in `container` whose call starts in [start, end)
    (a slice's range of the main list), each read in its own statement."""
    top = lists.get(container)
    rows: dict[int, StatementRows | None] = {}  # a list's rows, by its node id
    found: list[_Wrapper] = []
    for name in wrapping:
        # a literal-prefixed pattern per helper: the regex engine skips ahead to `name(`
        pattern = re.compile(b"(" + re.escape(name.encode()) + b")\\(" + _CALL_OPEN)
        for match in pattern.finditer(source, start, end):
            if match.start() > 0 and source[match.start() - 1] in _IDENTIFIER_BYTES:
                continue
            wrapper = (_wrapper_at(lists, rows, top, match, wrapping, source)
                       or _nested_wrapper_at(lists, rows, top, match, wrapping, source))
            if wrapper is not None:
                found.append(wrapper)
    return found


def _spans(found: list[_Wrapper], main: StatementRows, source: bytes, exporters: set[str]) -> list[ModuleSpan]:
    """The wrappers' modules, in declaration order, each `__esm` module with the declarations it
    hoists: read from the rows of its list (for the main list, the unit's, made slice by slice),
    never across a module already claimed."""
    spans = []
    claimed: dict[int, int] = {}  # the end of a list's last module, by the rows' identity (none: 0)
    for wrapper in sorted(found, key=lambda w: w.declarator[0]):
        rows = main if wrapper.rows is None else wrapper.rows
        start, end = wrapper.declarator
        if wrapper.kind == "esm":
            start = _hoisted_start(rows, start, claimed.get(id(rows), 0), exporters)
        spans.append(
            ModuleSpan(
                kind=wrapper.kind,
                start=start,
                end=end,
                body=wrapper.body,
                key=wrapper.key,
                binding=wrapper.binding,
                evidence=f"{'__commonJS' if wrapper.kind == 'cjs' else '__esm'}-shaped helper {wrapper.helper}",
                digest=module_digest(wrapper.kind, source, start, end),
            )
        )
        claimed[id(rows)] = end
    return spans


def _rows_of(
    lists: StatementLists, rows: dict[int, StatementRows | None], statements: Statements, source: bytes
) -> StatementRows | None:
    """The rows of a list below the main one, made once; None for the main list."""
    container = statements.container
    if container.id not in rows:
        rows[container.id] = None if container.id == lists.main.id else statement_rows(statements.nodes, source)
    return rows[container.id]


def _wrapper_at(
    lists: StatementLists, rows: dict[int, StatementRows | None], statements: Statements, match: re.Match[bytes],
    wrapping: dict[str, str], source: bytes,
) -> _Wrapper | None:
    index = statements.index_at(match.start())
    if index is None:
        return None
    statement = statements.nodes[index]
    if statement.type not in DECLARATIONS:
        return None
    if statement.named_child_count == 1:  # its one declarator (a comment would be a second named child)
        declarator = statement.named_child(0)
        if declarator.start_byte > match.start() or declarator.type != "variable_declarator":
            return None
    else:
        declarators, starts = statements.declarators(index)
        at = bisect.bisect_right(starts, match.start()) - 1
        if at < 0:
            return None
        declarator = declarators[at]
    return _wrapper_of(_rows_of(lists, rows, statements, source), declarator, match, wrapping)


def _nested_wrapper_at(
    lists: StatementLists, rows: dict[int, StatementRows | None], top: Statements, match: re.Match[bytes],
    wrapping: dict[str, str], source: bytes,
) -> _Wrapper | None:
    """A wrapper declared in a statement list below the helper's (webpack's entry IIFE)."""
    node = top.container.descendant_for_byte_range(match.start(), match.start())
    declarator = None
    for depth, ancestor in enumerate(climb(node, lists.root) if node is not None else ()):
        if ancestor.type == "variable_declarator" or depth > 6:
            declarator = ancestor if ancestor.type == "variable_declarator" else None
            break
    if declarator is None or declarator.parent is None or declarator.parent.parent is None:
        return None
    declaration = declarator.parent
    holder = declaration.parent
    if holder is None or holder.type not in ("statement_block", "program") or holder.id == top.container.id:
        return None
    statements = lists.get(holder)
    if statements.index_at(declaration.start_byte) is None:
        return None
    return _wrapper_of(_rows_of(lists, rows, statements, source), declarator, match, wrapping)


def _wrapper_of(
    rows: StatementRows | None, declarator: Node, match: re.Match[bytes], wrapping: dict[str, str]
) -> _Wrapper | None:
    call = declarator.child_by_field_name("value")
    if call is None or call.type != "call_expression" or call.start_byte != match.start():
        return None
    arguments = call.child_by_field_name("arguments")
    values = [a for a in arguments.named_children if a.type != "comment"] if arguments is not None else []
    if len(values) != 1:
        return None
    body, key = _wrapped_function(values[0])
    if body is None:
        return None
    name = match.group(1).decode()
    kind: ModuleKind = "cjs" if wrapping[name] == "commonjs" else "esm"
    binding = declarator.child_by_field_name("name")
    return _Wrapper(kind, name, rows, (declarator.start_byte, declarator.end_byte), body.start_byte, key,
                    text(binding) if binding is not None else None)


def _wrapped_function(argument: Node) -> tuple[Node | None, str | None]:
    """The module function passed to a wrapper helper: a function, or (keep-names form) an
    object with one method keyed by the module's path; in parentheses as rolldown writes it,
    `__commonJS(((exports, module) => {...}))`."""
    while argument.type == "parenthesized_expression" and argument.named_child_count == 1:
        argument = argument.named_child(0)
    if argument.type in FUNCTIONS:
        return argument, None
    if argument.type != "object":
        return None, None
    members = [m for m in argument.named_children if m.type != "comment"]
    if len(members) != 1:
        return None, None
    member = members[0]
    if member.type == "method_definition":
        name = member.child_by_field_name("name")
        return member, key_text(name)
    if member.type == "pair":
        value = member.child_by_field_name("value")
        if value is not None and value.type in FUNCTIONS:
            return value, key_text(member.child_by_field_name("key"))
    return None, None


def _hoisted_start(rows: StatementRows, declarator: int, claimed: int, exporters: set[str]) -> int:
    """Where an `__esm` module's hoisted part begins: back over the declarations and the
    `__export(...)` call right before its wrapper's statement (`declarator`: the wrapper's
    start), never into code already claimed."""
    index = rows.index_at(declarator)
    start = rows.starts[index]
    if start < claimed:  # the previous module ends inside this `var` statement
        starts = rows.declarators.get(start, ())  # one declarator: the wrapper's own
        at = bisect.bisect_left(starts, claimed)
        return starts[at] if at < len(starts) else declarator
    index -= 1
    while index >= 0:
        first = rows.starts[index]
        if first < claimed:
            break
        call = rows.calls.get(first)
        if call is not None and call[0] in exporters:
            # `var ns = {}; __export(ns, {...})` opens the module: nothing before it is hoisted
            start = first
            previous = rows.starts[index - 1] if index > 0 else -1
            if previous >= claimed and rows.types[index - 1] in DECLARATIONS and rows.names.get(previous) == call[1]:
                start = previous
            break
        if rows.types[index] not in _HOISTABLE:
            break
        start = first
        index -= 1
    return start


FINDER = Finder(__name__, part, merge)
