"""webpack 4 and 5: the runtime's `modules[id](module, module.exports, require)` (or
`.call(module.exports, ...)`) names the module table, an object or array of functions; a
chunk's `.push([[ids], {...}])` is a table too, and so is a `commonjs` chunk's (a node
target's) `exports.modules = {...}` beside its `ids` (docs/modules.md)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from tree_sitter import Node

from analyzer.javascript.modules.finder import Found, Where
from analyzer.javascript.modules.patterns import DECLARATIONS, FUNCTIONS, ID, Search
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


def find(where: Where) -> Found:
    root, source, literals = where.root, where.source, where.literals
    statements = where.lists.get(where.lists.main).nodes
    tops: dict[str, TopTable | None] = {}

    def top(name: str) -> TopTable | None:
        if name not in tops:
            tops[name] = top_table(statements, name, source)
        return tops[name]

    spans: list[ModuleSpan] = []
    seen: set[int] = set()  # the tables' starts
    for match in literals.matches(_REQUIRE):
        table = _webpack_table(root, match, where.lists.main, top)
        if isinstance(table, TopTable):
            if table.start not in seen:
                seen.add(table.start)
                spans.extend(table.modules)
        elif table is not None and table.start_byte not in seen:
            seen.add(table.start_byte)
            spans.extend(_table_entries(table, source, "webpack", _MODULE_TABLE))
    for match in literals.matches(_CHUNK):
        node = root.descendant_for_byte_range(match.end(), match.end())
        if node is not None and node.type in ("object", "array") and node.start_byte not in seen:
            seen.add(node.start_byte)
            spans.extend(_table_entries(node, source, "webpack", "webpack chunk table"))
    for match in literals.matches(_COMMONJS_CHUNK):
        node = root.named_descendant_for_byte_range(match.end(), match.end())
        if node is not None and node.type == "object" and node.start_byte not in seen and _assigned_statement(node):
            seen.add(node.start_byte)
            spans.extend(_table_entries(node, source, "webpack", "webpack commonjs chunk table"))
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
    root: Node, match: re.Match[bytes], main: Node, top: Callable[[str], TopTable | None]
) -> Node | TopTable | None:
    """The modules object/array a webpack runtime's `require` indexes: a `var` in its scope
    (webpack 5; `top` reads the main list's, from its statements, not from the tree) or the
    runtime IIFE's parameter bound to the call's argument (webpack 4)."""
    name = match.group(1).decode()
    node = root.descendant_for_byte_range(match.start(), match.start())
    if node is None:
        return None
    require = next((a for a in climb(node, root) if a.type in ("function_declaration", "function_expression",
                                                           "arrow_function")), None)
    if require is None:
        return None
    for scope in climb(require, root):
        if scope.type in ("function_expression", "arrow_function", "function_declaration"):
            params = parameters(scope)
            if name in params:
                return _iife_argument(scope, params.index(name))
        if scope.id == main.id:
            found = top(name)
            if found is not None:
                return found
        elif scope.type in ("statement_block", "program"):
            table = _declared_table(scope.named_children, name)
            if table is not None:
                return table
    return None


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
    """The module function's body opens with `require.r(exports)` (after `"use strict"`): webpack
    writes it for an ES module only, and only ES modules are concatenated into one."""
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
    """`call` is `require.r(exports)`."""
    callee, arguments = call.child_by_field_name("function"), call.child_by_field_name("arguments")
    if call.type != "call_expression" or callee is None or arguments is None or callee.type != "member_expression":
        return False
    target, field = callee.child_by_field_name("object"), callee.child_by_field_name("property")
    values = [a for a in arguments.named_children if a.type != "comment"]
    return (target is not None and field is not None and text(target) == require and text(field) == "r"
            and len(values) == 1 and text(values[0]) == exports)


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
