"""webpack 4 and 5: the runtime's `modules[id](module, module.exports, require)` (or
`.call(module.exports, ...)`) names the module table, an object or array of functions; a
chunk's `.push([[ids], {...}])` is a table too, and so is a `commonjs` chunk's (a node
target's) `exports.modules = {...}` beside its `ids` (docs/modules.md)."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import chain as chain_of

from tree_sitter import Node

from analyzer.javascript.modules.finder import Finder, Found, Merging, Where
from analyzer.javascript.modules.patterns import DECLARATIONS, FUNCTIONS, ID, Literals, Search
from analyzer.javascript.modules.spans import ModuleSpan, function_span
from analyzer.javascript.modules.statements import key_text, parameters, same
from analyzer.javascript.syntax import climb, text, without_parentheses
from analyzer.model import WEBPACK_ES_MODULE, ModuleKind

#: the runtime's `require`: `modules[id].call(module.exports, module, ...)` or `modules[id](module, ...)`
_REQUIRE = Search(re.compile(
    rb"(?<![\w$.])(" + ID + rb")\s*\[\s*(" + ID + rb")\s*\]\s*(?:\.\s*call\s*\(\s*(" + ID
    + rb")\s*\.\s*exports\s*,\s*\3|\(\s*(" + ID + rb"))\s*,\s*(?:\3|\4)\s*\.\s*exports\s*,\s*" + ID + rb"\s*\)"
), b"exports", 120, 80)
_MODULE_TABLE = "webpack module table"
#: a chunk's `(self.webpackChunk... || []).push([[ids], {...}])`
_CHUNK = Search(re.compile(rb"\.\s*push\s*\(\s*\[\s*\[[^\]]{0,4000}\]\s*,\s*(?=[\{\[])"), b"webpack", 0, 4200)
#: a `commonjs` chunk's `exports.ids = [ids], exports.modules = {...}`, or, in an entry chunk's IIFE
#: after a minifier, `var e = {ids: [ids]}; e.modules = {...}`: the same object both times
_COMMONJS_CHUNK = Search(re.compile(
    rb"(?<![\w$.\x80-\xff])(" + ID + rb")\s*"
    rb"(?:\.\s*ids\s*=\s*\[[^\]]{0,4000}\]|=\s*\{\s*ids\s*:\s*\[[^\]]{0,4000}\]\s*\})"
    rb"\s*[,;]\s*\1\s*\.\s*modules\s*=\s*(?=\{)"
), b"ids", 120, 4200, re.compile(rb"[.{]\s*\Z"))


@dataclass(frozen=True, slots=True)
class TopTable:
    """A module table declared in a statement of the main list, its modules made while its
    tree was alive (docs/slices.md, stage 3e: a slice's, or the whole list's)."""

    start: int
    modules: list[ModuleSpan]


@dataclass(frozen=True, slots=True)
class WebpackPart:
    """What one tree holds of the unit's webpack tables, with no node (docs/slices.md, 3e, 3f)."""

    #: per runtime `require` it reads: the table name when its climb met the main list (whose
    #: table is the first tree's `tops` that declares it), and the table its climb found
    #: otherwise (its start and modules, or None)
    requires: list[tuple[str | None, int | None, list[ModuleSpan]]]
    #: the main list's tables this tree's statements declare first, by name
    tops: dict[str, TopTable | None]
    #: (start, modules) of its chunk tables, then of its `commonjs` chunk tables
    chunks: list[tuple[int, list[ModuleSpan]]]
    commonjs_chunks: list[tuple[int, list[ModuleSpan]]]


def table_names(literals: Literals) -> frozenset[str]:
    """The names every runtime `require` of the unit indexes (bytes): what a slice's statements
    are asked for."""
    return frozenset(match.group(1).decode() for match in literals.matches(_REQUIRE))


def part(where: Where) -> WebpackPart:
    root, source, literals = where.root, where.source, where.literals
    statements = where.lists.get(where.lists.main).nodes
    made: dict[tuple[int, str], list[ModuleSpan]] = {}  # a table's modules, by its start and evidence

    def entries(table: Node, evidence: str) -> tuple[int, list[ModuleSpan]]:
        key = (table.start_byte, evidence)
        if key not in made:
            made[key] = _table_entries(table, source, "webpack", evidence)
        return table.start_byte, made[key]

    requires: list[tuple[str | None, int | None, list[ModuleSpan]]] = []
    reached: set[str] = set()
    for match in literals.matches(_REQUIRE):
        if not where.holds(match.start()):
            continue
        name, table = _webpack_table(root, match, where.lists.main, where.chain)
        if name is not None:
            reached.add(name)
        start, modules = entries(table, _MODULE_TABLE) if table is not None else (None, [])
        requires.append((name, start, modules))
    names = reached if where.table_names is None else where.table_names
    tops = {name: top_table(statements, name, source) for name in sorted(names)}
    chunks = []
    for match in literals.matches(_CHUNK):
        if not where.holds(match.end()):
            continue
        node = root.descendant_for_byte_range(match.end(), match.end())
        if node is not None and node.type in ("object", "array"):
            chunks.append(entries(node, "webpack chunk table"))
    commonjs_chunks = []
    for match in literals.matches(_COMMONJS_CHUNK):
        if not where.holds(match.end()):
            continue
        node = root.named_descendant_for_byte_range(match.end(), match.end())
        if node is not None and node.type == "object" and _assigned_statement(node):
            commonjs_chunks.append(entries(node, "webpack commonjs chunk table"))
    return WebpackPart(requires, tops, chunks, commonjs_chunks)


def merge(parts: Sequence[WebpackPart], merging: Merging) -> Found:
    """Every tree's tables, each once, by start: the runtimes' tables first (one met at the main
    list is the first tree's declaring its name), then the chunks'."""
    tops: dict[str, TopTable] = {}
    for one in parts:
        for wanted, table in one.tops.items():
            if table is not None:
                tops.setdefault(wanted, table)
    spans: list[ModuleSpan] = []
    seen: set[int] = set()  # the tables' starts

    def take(start: int | None, modules: list[ModuleSpan]) -> None:
        if start is not None and start not in seen:
            seen.add(start)
            spans.extend(modules)

    for one in parts:
        for name, start, modules in one.requires:
            top = tops.get(name) if name is not None else None
            if top is not None:
                take(top.start, top.modules)
            else:
                take(start, modules)
    for one in parts:
        for start, modules in one.chunks:
            take(start, modules)
    for one in parts:
        for start, modules in one.commonjs_chunks:
            take(start, modules)
    return Found(spans)


def top_table(statements: Sequence[Node], name: str, source: bytes) -> TopTable | None:
    """The module table `name` as the first of `statements` (the main list's, or a slice's)
    declares it, with its modules."""
    table = _declared_table(statements, name)
    return None if table is None else TopTable(table.start_byte, _table_entries(table, source, "webpack",
                                                                                 _MODULE_TABLE))


def _assigned_statement(table: Node) -> bool:
    """`table` is the value of an assignment that is a statement of its own, or one of a
    statement's comma-separated expressions (`exports.ids=[1],exports.modules={...}`)."""
    node = table.parent
    if node is None or node.type != "assignment_expression" or not same(node.child_by_field_name("right"), table):
        return False
    parent = node.parent
    while parent is not None and parent.type in ("sequence_expression", "parenthesized_expression"):
        parent = parent.parent
    return parent is not None and parent.type == "expression_statement"


def _webpack_table(
    root: Node, match: re.Match[bytes], main: Node, chain: Sequence[Node]
) -> tuple[str | None, Node | None]:
    """The modules object/array a webpack runtime's `require` indexes: a `var` in its scope
    (webpack 5) or the runtime IIFE's parameter bound to the call's argument (webpack 4). The
    table's name when the climb meets the main list (its table, if declared there, is read
    from its statements: `top_table`), and what the climb finds otherwise, above the main list
    too (`chain`: the head tree's nodes above a slice)."""
    name = match.group(1).decode()
    node = root.descendant_for_byte_range(match.start(), match.start())
    if node is None:
        return None, None
    require = next((a for a in climb(node, root) if a.type in ("function_declaration", "function_expression",
                                                           "arrow_function")), None)
    if require is None:
        return None, None
    reached = None
    for scope in chain_of(climb(require, root), chain):
        if scope.type in ("function_expression", "arrow_function", "function_declaration"):
            params = parameters(scope)
            if name in params:
                return reached, _iife_argument(scope, params.index(name))
        if scope.id == main.id:
            reached = name
        elif scope.type in ("statement_block", "program"):
            table = _declared_table(scope.named_children, name)
            if table is not None:
                return reached, table
    return reached, None


def _declared_table(statements: Sequence[Node], name: str) -> Node | None:
    for statement in statements:
        if statement.type not in DECLARATIONS:
            continue
        for declarator in statement.named_children:
            if declarator.type != "variable_declarator":
                continue
            target = declarator.child_by_field_name("name")
            value = declarator.child_by_field_name("value")
            value = unwrapped(value)
            if target is not None and text(target) == name and value is not None and value.type in ("object", "array"):
                return value
    return None


def unwrapped(node: Node | None) -> Node | None:
    """`node` without the parentheses around it: webpack 5's development builds write
    `var __webpack_modules__ = ({"./x.js": ((module, exports, require) => {...})})`."""
    return None if node is None else without_parentheses(node)


def _iife_argument(function: Node, index: int) -> Node | None:
    parent = function.parent
    while parent is not None and parent.type == "parenthesized_expression":
        function, parent = parent, parent.parent
    if parent is None or parent.type != "call_expression" or not same(parent.child_by_field_name("function"), function):
        return None
    arguments = parent.child_by_field_name("arguments")
    values = [unwrapped(a) for a in arguments.named_children if a.type != "comment"] if arguments is not None else []
    value = values[index] if index < len(values) else None
    return value if value is not None and value.type in ("object", "array") else None


def _table_entries(table: Node, source: bytes, kind: ModuleKind, evidence: str) -> list[ModuleSpan]:
    return [function_span(kind, function, source, key if not key.isdigit() else None, key,
                          f"{evidence}; {WEBPACK_ES_MODULE}" if _es_module(function) else evidence)
            for key, function in _entries(table)]


def _es_module(function: Node) -> bool:
    """The module function's body opens with `require.r(exports)` or `require.d(exports, ...)`
    (after `"use strict"`): webpack writes them for an ES module only (webpack 4 production often
    only the second), and only ES modules are concatenated into one."""
    names = parameters(function)
    body = function.child_by_field_name("body")
    if len(names) < 3 or body is None or body.type != "statement_block":
        return False
    for statement in body.named_children:
        if statement.type == "comment":
            continue
        if statement.type != "expression_statement" or not statement.named_children:
            return False
        expression = without_parentheses(statement.named_children[0])
        while expression is not None and expression.type == "sequence_expression":
            expression = without_parentheses(expression.child_by_field_name("left") or expression.named_children[0])
        if expression is not None and expression.type == "string":
            continue  # "use strict"
        return expression is not None and _require_r(expression, names[2], names[1])
    return False


def _require_r(call: Node, require: str, exports: str) -> bool:
    """`call` is `require.r(exports)`, or `require.d(exports, ...)`: an export's getter."""
    callee, arguments = call.child_by_field_name("function"), call.child_by_field_name("arguments")
    if call.type != "call_expression" or callee is None or arguments is None or callee.type != "member_expression":
        return False
    target, field = callee.child_by_field_name("object"), callee.child_by_field_name("property")
    values = [a for a in arguments.named_children if a.type != "comment"]
    if target is None or field is None or text(target) != require or not values or text(values[0]) != exports:
        return False
    return (text(field) == "r" and len(values) == 1) or (text(field) == "d" and len(values) >= 2)


def _entries(table: Node) -> Iterator[tuple[str, Node]]:
    """(id, function) of a module table: object pairs, methods, or array slots (holes count)."""
    if table.type == "object":
        for member in table.named_children:
            if member.type == "pair":
                value = unwrapped(member.child_by_field_name("value"))
                key = key_text(member.child_by_field_name("key"))
                if value is not None and value.type in FUNCTIONS and key is not None:
                    yield key, value
            elif member.type == "method_definition":
                key = key_text(member.child_by_field_name("name"))
                if key is not None:
                    yield key, member
        return
    slot = 0
    for child in table.children:
        if child.type == ",":
            slot += 1
        elif (function := unwrapped(child)) is not None and function.type in FUNCTIONS:
            yield str(slot), function


FINDER = Finder(__name__, part, merge)
