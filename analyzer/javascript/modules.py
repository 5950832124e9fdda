"""The module map of a minified bundle: which bundled module each byte of a unit belongs to.

Bundlers keep modules apart in a few recognisable shapes, found here by what the code does,
never by a helper's name (minifiers rename every helper on every build):

- esbuild and Bun `__commonJS`: `(cb, mod) => () => (mod || cb((mod = {exports: {}}).exports,
  mod), mod.exports)`, with or without a try/catch, `(0, cb[keys(cb)[0]])` in keep-names form;
  modules are `var X = helper(function (exports, module) {...})` declarations.
- esbuild and Bun `__esm`: `(fn, res) => () => (fn && (res = fn(fn = 0)), res)` and its
  error-remembering variants; the module's `var`, function and class declarations are hoisted
  out of the closure and sit right before it, with its `__export(ns, {...})` call.
- webpack 4 and 5: the runtime's `modules[id](module, module.exports, require)` (or
  `.call(module.exports, ...)`) names the module table: an object or array of functions.
- browserify: the prelude called with `{id: [function (require, module, exports) {...},
  {"./dep": id}], ...}`.

A regex over the bytes finds the few places to look at; the tree is only read there (the
top-level statement list once, then a handful of nodes per module): no walk over the tree.
"""

from __future__ import annotations

import bisect
import dataclasses
import hashlib
import re
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path

from tree_sitter import Node, Tree

from analyzer.bundle.load import file_name
from analyzer.facts import MODULE_SCHEMA, BundledModule, BundleModules, SourceMapUse
from analyzer.identity import scan_fingerprints
from analyzer.javascript.scopes import is_bun_cjs_wrapper
from analyzer.javascript.syntax import climb, text
from analyzer.model import Module, Origin, Unit
from analyzer.sourcemap import LocatedMap, SourceMap, SourceMapError, find_source_map, package_of

_ID = rb"[\w$\x80-\xff]+"
_CJS_CORE = re.compile(
    rb"\(\s*(" + _ID + rb")\s*=\s*\{\s*exports\s*:\s*\{\s*\}\s*\}\s*\)\s*\.\s*exports\s*,\s*\1\s*\)"
    rb"\s*,\s*\1\s*\.\s*exports"
)
#: webpack 5's CommonJS wrapper in concatenated modules: `m = {exports: {}}, fn.call(m.exports, m, m.exports)`
_CJS_CALL_CORE = re.compile(
    rb"(" + _ID + rb")\s*=\s*\{\s*exports\s*:\s*\{\s*\}\s*\}\s*,\s*" + _ID + rb"\s*\.\s*call\s*\(\s*\1\s*\.\s*exports"
    rb"\s*,\s*\1\s*,\s*\1\s*\.\s*exports\s*\)"
)
_ESM_CORE = re.compile(
    rb"(?<![\w$])" + _ID + rb"\s*=\s*(?:\(\s*0\s*,\s*(" + _ID + rb")\s*\[[^\]\n]{0,80}\]\s*\)|(" + _ID + rb"))"
    rb"\s*\(\s*(?:\1|\2)\s*=\s*0\s*\)"
)
_EXPORT_CORE = re.compile(
    rb"for\s*\(\s*var\s+(" + _ID + rb")\s+in\s+(" + _ID + rb")\s*\)\s*[\w$.\x80-\xff]+\s*\(\s*" + _ID
    + rb"\s*,\s*\1\s*,\s*\{\s*get\s*:\s*\2\s*\[\s*\1\s*\]"
)
_WEBPACK_CORE = re.compile(
    rb"(?<![\w$.])(" + _ID + rb")\s*\[\s*(" + _ID + rb")\s*\]\s*(?:\.\s*call\s*\(\s*(" + _ID
    + rb")\s*\.\s*exports\s*,\s*\3|\(\s*(" + _ID + rb"))\s*,\s*(?:\3|\4)\s*\.\s*exports\s*,\s*" + _ID + rb"\s*\)"
)
_WEBPACK_CHUNK = re.compile(rb"\.\s*push\s*\(\s*\[\s*\[[^\]]{0,4000}\]\s*,\s*(?=[\{\[])")
_BROWSERIFY_TABLE = re.compile(rb"\(\s*\{\s*(?:\d+|\"[^\"\n]{1,400}\")\s*:\s*\[\s*function\s*\(")
#: (pattern, a literal near every match, bytes searched before and after the literal, and
#: a quick check that must match just before the literal, else None)
_SEARCHES: dict[str, tuple[re.Pattern[bytes], bytes, int, int, re.Pattern[bytes] | None]] = {
    "commonjs": (_CJS_CORE, b"exports", 40, 120, None),
    "commonjs-call": (_CJS_CALL_CORE, b"exports", 40, 120, None),
    "esm": (_ESM_CORE, b"0)", 160, 2, re.compile(rb"[\w$]\s*=\s*\Z")),
    "export": (_EXPORT_CORE, b"enumerable", 160, 0, None),
    "webpack": (_WEBPACK_CORE, b"exports", 120, 80, None),
    "webpack-chunk": (_WEBPACK_CHUNK, b"webpack", 0, 4200, None),
    "browserify": (_BROWSERIFY_TABLE, b"[function", 420, 20, None),
}
#: what follows `helper(` in a wrapper call: the module function, or its keep-names object
_CALL_OPEN = rb"\s*(?=function\b|async\b|\(|" + _ID + rb"\s*=>|\{)"
_IDENTIFIER_BYTES = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_$.") | frozenset(range(128, 256))
_FUNCTIONS = frozenset({"arrow_function", "function_expression", "function"})
_DECLARATIONS = frozenset({"variable_declaration", "lexical_declaration"})
#: top-level statements an `__esm` module hoists out of its closure, besides its __export call
_HOISTABLE = frozenset(
    {"function_declaration", "generator_function_declaration", "class_declaration", "variable_declaration",
     "lexical_declaration", "empty_statement", "comment"}
)  # fmt: skip
#: every byte an identifier can hold: deleted from a module's text for its fingerprint
_NAME_BYTES = bytes(range(48, 58)) + bytes(range(65, 91)) + bytes(range(97, 123)) + b"_$" + bytes(range(128, 256))


@dataclass(frozen=True, slots=True)
class ModuleSpan:
    """One bundled module found in a unit, before its portable fingerprint."""

    #: cjs, esm, webpack, browserify
    kind: str
    #: first byte, hoisted declarations included
    start: int
    end: int
    #: first byte of the module's own code (the wrapper's or table entry's function)
    body: int
    #: path key the bundle keeps (keep-names wrappers, webpack dev ids, browserify requires)
    key: str | None
    #: the variable the wrapper is assigned to, or the table id
    binding: str | None
    #: what the module was recognised by
    evidence: str
    #: renaming-invariant digest of the module's text (see `module_digest`)
    digest: bytes
    #: the byte ranges it is made of, when not one span (source-map modules of hoisted code)
    ranges: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True, slots=True)
class ModuleMap:
    """The modules of one unit, and the top-level code outside every module."""

    modules: list[ModuleSpan]
    #: top-level statements (declarators of a multi-declarator `var`) that no module holds:
    #: scope-hoisted ESM code and runtime helpers, which only a source map can split further
    loose: list[tuple[int, int]]
    #: helper name -> role (`commonjs`, `esm`, `export`), as found by shape
    helpers: dict[str, str] = field(default_factory=dict)


def find_modules(tree: Tree, source: bytes) -> ModuleMap:
    root = tree.root_node
    lists = _StatementLists(root, main_container(root))
    literals = _Literals(source)
    helpers = _helpers(root, literals)
    modules: list[ModuleSpan] = []
    for container, names in _by_container(helpers):
        modules.extend(_wrappers(lists, container, source, names))
    modules.extend(_webpack_modules(root, literals))
    modules.extend(_browserify_modules(root, literals))
    modules = _without_duplicates(modules)
    loose = _loose(lists, modules, source)
    return ModuleMap(modules=modules, loose=loose, helpers={h.name: h.role for h in helpers})


def module_digest(kind: str, source: bytes, start: int, end: int) -> bytes:
    """Digest of the module's skeleton: its text with every byte an identifier can hold
    deleted (letters, digits, `_`, `$`, non-ASCII). Invariant under any renaming, consistent
    or not; sensitive to every operator, bracket, delimiter, and to the spacing and
    punctuation inside literals. One `bytes.translate`: no tokenizing of a 27 MB unit."""
    h = hashlib.blake2b(digest_size=16, person=b"erratlas-fp1m")
    h.update(kind.encode())
    h.update(b"\x00")
    h.update(source[start:end].translate(None, _NAME_BYTES))
    return h.digest()


class _Literals:
    """Offsets of the few literals the core patterns hang on, each found once per unit (a
    `bytes.find` is far faster than a regex scan of a 27 MB unit)."""

    def __init__(self, source: bytes) -> None:
        self.source = source
        self._found: dict[bytes, list[int]] = {}

    def matches(self, search: str) -> Iterator[re.Match[bytes]]:
        """Matches of one core pattern, looked for only around its literal."""
        pattern, literal, before, after, check = _SEARCHES[search]
        source = self.source
        seen: set[tuple[int, int]] = set()
        for at in self._offsets(literal):
            if check is not None and check.search(source, max(0, at - 8), at) is None:
                continue
            window_end = at + len(literal) + after
            match = pattern.search(source, max(0, at - before), window_end)
            while match is not None:
                if match.span() not in seen:
                    seen.add(match.span())
                    yield match
                match = pattern.search(source, match.start() + 1, window_end)

    def _offsets(self, literal: bytes) -> list[int]:
        found = self._found.get(literal)
        if found is None:
            found = self._found[literal] = []
            at = self.source.find(literal)
            while at >= 0:
                found.append(at)
                at = self.source.find(literal, at + 1)
        return found


# ---- statement lists ----------------------------------------------------------------------


def main_container(root: Node) -> Node:
    """The statement list bundled code lives in: the program, or Bun's CJS wrapper body."""
    for statement in root.named_children[:4]:
        if statement.type != "expression_statement" or not statement.named_children:
            continue
        expression = statement.named_children[0]
        while expression.type == "parenthesized_expression" and expression.named_children:
            expression = expression.named_children[0]
        if is_bun_cjs_wrapper(expression):
            body = expression.child_by_field_name("body")
            if body is not None:
                return body
    return root


class _Statements:
    """The statements of one statement list, with their start offsets for bisection."""

    def __init__(self, container: Node) -> None:
        self.container = container
        self.nodes = [n for n in container.named_children]
        self.starts = [n.start_byte for n in self.nodes]
        self._declarators: dict[int, tuple[list[Node], list[int]]] = {}

    def index_at(self, offset: int) -> int | None:
        at = bisect.bisect_right(self.starts, offset) - 1
        if at < 0 or self.nodes[at].end_byte <= offset:
            return None
        return at

    def declarators(self, index: int) -> tuple[list[Node], list[int]]:
        found = self._declarators.get(index)
        if found is None:
            statement = self.nodes[index]
            nodes = [c for c in statement.named_children if c.type == "variable_declarator"]
            found = self._declarators[index] = (nodes, [n.start_byte for n in nodes])
        return found


class _StatementLists:
    def __init__(self, root: Node, main: Node) -> None:
        self.root = root
        self.main = main
        self._lists: dict[int, _Statements] = {}

    def get(self, container: Node) -> _Statements:
        found = self._lists.get(container.id)
        if found is None:
            found = self._lists[container.id] = _Statements(container)
        return found


# ---- helpers by shape ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Helper:
    name: str
    role: str  # commonjs, esm, export
    container: Node


def _helpers(root: Node, literals: _Literals) -> list[_Helper]:
    found: dict[tuple[str, int], _Helper] = {}
    for search in ("commonjs", "commonjs-call", "esm", "export"):
        role = "commonjs" if search == "commonjs-call" else search
        for match in literals.matches(search):
            helper = _helper_at(root, match, role, strict=search != "commonjs-call")
            if helper is not None:
                found.setdefault((helper.name, helper.container.id), helper)
    return list(found.values())


def _helper_at(root: Node, match: re.Match[bytes], role: str, strict: bool = True) -> _Helper | None:
    """The declaration `NAME = (a, b, ...) => ...` (or `function NAME(a, b)`, or `req.cw =
    ...`) around a core match, when (`strict`) the core's names are the helper's parameters."""
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
        if ancestor.type in _FUNCTIONS:
            outer = ancestor
        elif ancestor.type == "variable_declarator" and _same(ancestor.child_by_field_name("value"), outer):
            name_node = ancestor.child_by_field_name("name")
            break
        elif ancestor.type == "assignment_expression" and _same(ancestor.child_by_field_name("right"), outer):
            name_node = ancestor.child_by_field_name("left")
            break
    if outer is None or name_node is None or name_node.type not in ("identifier", "member_expression"):
        return None
    params = _parameters(outer)
    if not params or (strict and len(params) < 2):
        return None
    if strict and role == "commonjs" and params[1] != match.group(1).decode():
        return None
    if strict and role == "esm" and params[0] != (match.group(1) or match.group(2)).decode():
        return None
    statement = outer if outer.type == "function_declaration" else _statement_of(name_node, root)
    if statement is None or statement.parent is None:
        return None
    return _Helper(text(name_node), role, statement.parent)


def _parameters(function: Node) -> list[str]:
    single = function.child_by_field_name("parameter")
    if single is not None:
        return [text(single)]
    params = function.child_by_field_name("parameters")
    return [text(p) for p in params.named_children] if params is not None else []


def _statement_of(node: Node, root: Node) -> Node | None:
    for ancestor in climb(node, root):
        if ancestor.type in _DECLARATIONS or ancestor.type == "expression_statement":
            return ancestor
        if ancestor.type not in ("variable_declarator", "assignment_expression", "sequence_expression",
                                 "parenthesized_expression"):
            return None
    return None


def _by_container(helpers: list[_Helper]) -> Iterator[tuple[Node, dict[str, str]]]:
    containers: dict[int, tuple[Node, dict[str, str]]] = {}
    for helper in helpers:
        containers.setdefault(helper.container.id, (helper.container, {}))[1][helper.name] = helper.role
    yield from containers.values()


def _same(a: Node | None, b: Node | None) -> bool:
    return a is not None and b is not None and a.id == b.id


# ---- esbuild / Bun wrappers -----------------------------------------------------------------


@dataclass(slots=True)
class _Wrapper:
    kind: str
    statements: _Statements
    statement: int
    declarator: Node
    call: Node
    body: Node
    key: str | None
    helper: str


def _wrappers(lists: _StatementLists, container: Node, source: bytes, helpers: dict[str, str]) -> list[ModuleSpan]:
    """`var X = helper(function ...)` declarations of the helpers found in `container`, at its
    top level (found by bisection) or in a statement list nested in it (an IIFE's body)."""
    wrapping = {name: role for name, role in helpers.items() if role in ("commonjs", "esm")}
    if not wrapping:
        return []
    exporters = {name for name, role in helpers.items() if role == "export"}
    top = lists.get(container)
    found: list[_Wrapper] = []
    for name in wrapping:
        # a literal-prefixed pattern per helper: the regex engine skips ahead to `name(`
        pattern = re.compile(b"(" + re.escape(name.encode()) + b")\\(" + _CALL_OPEN)
        for match in pattern.finditer(source, container.start_byte, container.end_byte):
            if match.start() > 0 and source[match.start() - 1] in _IDENTIFIER_BYTES:
                continue
            wrapper = _wrapper_at(top, match, wrapping) or _nested_wrapper_at(lists, top, match, wrapping)
            if wrapper is not None:
                found.append(wrapper)
    found.sort(key=lambda w: w.declarator.start_byte)
    spans = []
    claimed: dict[int, int] = {}
    for wrapper in found:
        list_node = wrapper.statements.container
        floor = claimed.get(list_node.id, list_node.start_byte)
        start = wrapper.declarator.start_byte
        if wrapper.kind == "esm":
            start = _hoisted_start(wrapper.statements, wrapper, floor, source, exporters)
        end = wrapper.declarator.end_byte
        binding = wrapper.declarator.child_by_field_name("name")
        spans.append(
            ModuleSpan(
                kind=wrapper.kind,
                start=start,
                end=end,
                body=wrapper.body.start_byte,
                key=wrapper.key,
                binding=text(binding) if binding is not None else None,
                evidence=f"{'__commonJS' if wrapper.kind == 'cjs' else '__esm'}-shaped helper {wrapper.helper}",
                digest=module_digest(wrapper.kind, source, start, end),
            )
        )
        claimed[list_node.id] = end
    return spans


def _wrapper_at(statements: _Statements, match: re.Match[bytes], wrapping: dict[str, str]) -> _Wrapper | None:
    index = statements.index_at(match.start())
    if index is None or statements.nodes[index].type not in _DECLARATIONS:
        return None
    declarators, starts = statements.declarators(index)
    at = bisect.bisect_right(starts, match.start()) - 1
    if at < 0:
        return None
    return _wrapper_of(statements, index, declarators[at], match, wrapping)


def _nested_wrapper_at(
    lists: _StatementLists, top: _Statements, match: re.Match[bytes], wrapping: dict[str, str]
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
    index = statements.index_at(declaration.start_byte)
    return _wrapper_of(statements, index, declarator, match, wrapping) if index is not None else None


def _wrapper_of(
    statements: _Statements, index: int, declarator: Node, match: re.Match[bytes], wrapping: dict[str, str]
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
    kind = "cjs" if wrapping[name] == "commonjs" else "esm"
    return _Wrapper(kind, statements, index, declarator, call, body, key, name)


def _wrapped_function(argument: Node) -> tuple[Node | None, str | None]:
    """The module function passed to a wrapper helper: a function, or (keep-names form) an
    object with one method keyed by the module's path."""
    if argument.type in _FUNCTIONS:
        return argument, None
    if argument.type != "object":
        return None, None
    members = [m for m in argument.named_children if m.type != "comment"]
    if len(members) != 1:
        return None, None
    member = members[0]
    if member.type == "method_definition":
        name = member.child_by_field_name("name")
        return member, _key_text(name)
    if member.type == "pair":
        value = member.child_by_field_name("value")
        if value is not None and value.type in _FUNCTIONS:
            return value, _key_text(member.child_by_field_name("key"))
    return None, None


def _key_text(node: Node | None) -> str | None:
    if node is None:
        return None
    raw = text(node)
    if node.type == "string" and len(raw) >= 2:
        return raw[1:-1]
    return raw


def _hoisted_start(
    statements: _Statements, wrapper: _Wrapper, claimed: int, source: bytes, exporters: set[str]
) -> int:
    """Where an `__esm` module's hoisted part begins: back over the declarations and the
    `__export(...)` call right before its wrapper, never into code already claimed."""
    statement = statements.nodes[wrapper.statement]
    if statement.start_byte < claimed:  # the previous module ends inside this `var` statement
        _, starts = statements.declarators(wrapper.statement)
        at = bisect.bisect_left(starts, claimed)
        return starts[at] if at < len(starts) else wrapper.declarator.start_byte
    start = statement.start_byte
    index = wrapper.statement - 1
    while index >= 0:
        node = statements.nodes[index]
        if node.start_byte < claimed:
            break
        namespace = _exported_namespace(node, exporters)
        if namespace is not None:
            # `var ns = {}; __export(ns, {...})` opens the module: nothing before it is hoisted
            start = node.start_byte
            previous = statements.nodes[index - 1] if index > 0 else None
            if previous is not None and previous.start_byte >= claimed and _declares(previous, namespace):
                start = previous.start_byte
            break
        if node.type not in _HOISTABLE:
            break
        start = node.start_byte
        index -= 1
    return start


def _exported_namespace(statement: Node, exporters: set[str]) -> str | None:
    """`ns` of an `__export(ns, {...})` statement, else None."""
    if statement.type != "expression_statement" or not exporters or not statement.named_children:
        return None
    call = statement.named_children[0]
    if call.type != "call_expression":
        return None
    callee = call.child_by_field_name("function")
    if callee is None or callee.type != "identifier" or text(callee) not in exporters:
        return None
    arguments = call.child_by_field_name("arguments")
    first = arguments.named_children[0] if arguments is not None and arguments.named_children else None
    return text(first) if first is not None and first.type == "identifier" else None


def _declares(statement: Node, name: str) -> bool:
    if statement.type not in _DECLARATIONS:
        return False
    declarators = [d for d in statement.named_children if d.type == "variable_declarator"]
    target = declarators[-1].child_by_field_name("name") if declarators else None
    return target is not None and text(target) == name


# ---- webpack ------------------------------------------------------------------------------


def _webpack_modules(root: Node, literals: _Literals) -> list[ModuleSpan]:
    source = literals.source
    spans: list[ModuleSpan] = []
    seen: set[int] = set()
    for match in literals.matches("webpack"):
        table = _webpack_table(root, match)
        if table is not None and table.id not in seen:
            seen.add(table.id)
            spans.extend(_table_entries(table, source, "webpack", "webpack module table"))
    for match in literals.matches("webpack-chunk"):
        node = root.descendant_for_byte_range(match.end(), match.end())
        if node is not None and node.type in ("object", "array") and node.id not in seen:
            seen.add(node.id)
            spans.extend(_table_entries(node, source, "webpack", "webpack chunk table"))
    return spans


def _webpack_table(root: Node, match: re.Match[bytes]) -> Node | None:
    """The modules object/array a webpack runtime's `require` indexes: a `var` in its scope
    (webpack 5) or the runtime IIFE's parameter bound to the call's argument (webpack 4)."""
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
            params = _parameters(scope)
            if name in params:
                return _iife_argument(scope, params.index(name))
        if scope.type in ("statement_block", "program"):
            table = _declared_table(scope, name)
            if table is not None:
                return table
    return None


def _declared_table(block: Node, name: str) -> Node | None:
    for statement in block.named_children:
        if statement.type not in _DECLARATIONS:
            continue
        for declarator in statement.named_children:
            if declarator.type != "variable_declarator":
                continue
            target = declarator.child_by_field_name("name")
            value = declarator.child_by_field_name("value")
            if target is not None and text(target) == name and value is not None and value.type in ("object", "array"):
                return value
    return None


def _iife_argument(function: Node, index: int) -> Node | None:
    parent = function.parent
    while parent is not None and parent.type == "parenthesized_expression":
        function, parent = parent, parent.parent
    if parent is None or parent.type != "call_expression" or not _same(parent.child_by_field_name("function"), function):
        return None
    arguments = parent.child_by_field_name("arguments")
    values = [a for a in arguments.named_children if a.type != "comment"] if arguments is not None else []
    if index < len(values) and values[index].type in ("object", "array"):
        return values[index]
    return None


def _table_entries(table: Node, source: bytes, kind: str, evidence: str) -> list[ModuleSpan]:
    spans = []
    for key, function in _entries(table):
        spans.append(
            ModuleSpan(
                kind=kind,
                start=function.start_byte,
                end=function.end_byte,
                body=function.start_byte,
                key=key if not key.isdigit() else None,
                binding=key,
                evidence=evidence,
                digest=module_digest(kind, source, function.start_byte, function.end_byte),
            )
        )
    return spans


def _entries(table: Node) -> Iterator[tuple[str, Node]]:
    """(id, function) of a module table: object pairs, methods, or array slots (holes count)."""
    if table.type == "object":
        for member in table.named_children:
            if member.type == "pair":
                value = member.child_by_field_name("value")
                key = _key_text(member.child_by_field_name("key"))
                if value is not None and value.type in _FUNCTIONS and key is not None:
                    yield key, value
            elif member.type == "method_definition":
                key = _key_text(member.child_by_field_name("name"))
                if key is not None:
                    yield key, member
        return
    slot = 0
    for child in table.children:
        if child.type == ",":
            slot += 1
        elif child.type in _FUNCTIONS:
            yield str(slot), child


# ---- browserify ---------------------------------------------------------------------------


def _browserify_modules(root: Node, literals: _Literals) -> list[ModuleSpan]:
    source = literals.source
    spans: list[ModuleSpan] = []
    for match in literals.matches("browserify"):
        table = root.descendant_for_byte_range(match.start() + 1, match.start() + 1)
        while table is not None and table.type != "object":
            table = table.parent if table.parent is not None and table.parent.start_byte == table.start_byte else None
        if table is None or table.parent is None or table.parent.type != "arguments":
            continue
        entries = list(_browserify_entries(table))
        names = _required_names(entries)
        for key, function, _ in entries:
            spans.append(
                ModuleSpan(
                    kind="browserify",
                    start=function.start_byte,
                    end=function.end_byte,
                    body=function.start_byte,
                    key=names.get(key),
                    binding=key,
                    evidence="browserify module table",
                    digest=module_digest("browserify", source, function.start_byte, function.end_byte),
                )
            )
    return spans


def _browserify_entries(table: Node) -> Iterator[tuple[str, Node, Node | None]]:
    for member in table.named_children:
        if member.type != "pair":
            continue
        key = _key_text(member.child_by_field_name("key"))
        value = member.child_by_field_name("value")
        if key is None or value is None or value.type != "array":
            continue
        items = [c for c in value.named_children if c.type != "comment"]
        if items and items[0].type in _FUNCTIONS:
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
            name = _key_text(pair.child_by_field_name("key"))
            value = pair.child_by_field_name("value")
            if name is not None and value is not None and value.type in ("number", "string"):
                names.setdefault(_key_text(value) or "", set()).add(name)
    out = {}
    for key, required in names.items():
        bare = {n for n in required if not n.startswith((".", "/"))}
        if len(bare) == 1:
            out[key] = bare.pop()
        elif len(required) == 1:
            out[key] = next(iter(required))
    return out


# ---- coverage -----------------------------------------------------------------------------


def _without_duplicates(modules: list[ModuleSpan]) -> list[ModuleSpan]:
    unique = {(m.start, m.end): m for m in modules}
    return sorted(unique.values(), key=lambda m: (m.start, -m.end))


def _loose(lists: _StatementLists, modules: list[ModuleSpan], source: bytes) -> list[tuple[int, int]]:
    """Top-level pieces outside every module: statements, or the declarators of a `var`
    statement (one minifier may merge a whole bundle into one `var`); the body of a
    top-level IIFE (webpack's runtime, esbuild's iife format) counts as top level."""
    index = ModuleIndex([(m.start, m.end) for m in modules])
    starts = [m.start for m in modules]  # sorted: `modules` is
    pieces: list[tuple[int, int]] = []
    pending = [(lists.get(lists.main), 0)]
    while pending:
        statements, depth = pending.pop()
        for position, node in enumerate(statements.nodes):
            first, last = node.start_byte, node.end_byte
            holder = index.find(first)
            if holder is not None and last <= modules[holder].end:
                continue  # inside a module (most statements of a wrapped bundle)
            if node.type == "comment":
                continue
            parts: list[tuple[int, int]] = [(first, last)]
            if node.type == "expression_statement" and node.named_children and depth < 4:
                # `a = 1, b = 2, (() => {...})()`: the IIFE's statements are top level too
                parts = []
                for element in _sequence(node.named_children[0]):
                    bodies = _iife_bodies(element)
                    pending.extend((lists.get(body), depth + 1) for body in bodies)
                    if not bodies:
                        parts.append((element.start_byte, element.end_byte))
            elif node.type in _DECLARATIONS:
                declarators, _ = statements.declarators(position)
                if len(declarators) > 1:
                    bounds = [first] + [d.start_byte for d in declarators[1:]] + [last]
                    parts = list(pairwise(bounds))
            for start, end in parts:
                pieces.extend(_code_gaps(_gaps(start, end, modules, starts, index), source))
    return sorted(pieces)


def _gaps(
    start: int, end: int, modules: list[ModuleSpan], starts: list[int], index: ModuleIndex
) -> Iterator[tuple[int, int]]:
    """The parts of [start, end) outside every module (a UMD factory around a module table)."""
    holder = index.find(start)
    at = modules[holder].end if holder is not None else start
    following = bisect.bisect_left(starts, at)
    while following < len(starts) and starts[following] < end:
        module = modules[following]
        if module.start >= at:
            if module.start > at:
                yield (at, module.start)
            at = module.end
        following += 1
    if at < end:
        yield (at, end)


_NOT_CODE = re.compile(rb"(?:\s|[;,()]|\b(?:var|let|const)\b)*\Z")


def _code_gaps(gaps: Iterator[tuple[int, int]], source: bytes) -> Iterator[tuple[int, int]]:
    """Gaps holding code, not just the `var ` or `;` around a module."""
    for start, end in gaps:
        if _NOT_CODE.match(source, start, end) is None:
            yield start, end


def _sequence(expression: Node) -> list[Node]:
    """The elements of a comma sequence (nested to the left or right), else the expression."""
    out, pending = [], [expression]
    while pending:
        node = pending.pop()
        if node.type == "sequence_expression":
            pending.extend(reversed(node.named_children))
        else:
            out.append(node)
    return out


def _iife_bodies(expression: Node) -> list[Node]:
    """The bodies of `(() => {...})()`, `!function () {...}()`, `(function () {...}).call(this)`,
    and of the functions such a call is given (a UMD wrapper's factory)."""
    while expression.type in ("parenthesized_expression", "unary_expression") and expression.named_children:
        expression = expression.named_children[-1]
    if expression.type != "call_expression":
        return []
    function = expression.child_by_field_name("function")
    if function is not None and function.type == "member_expression":
        prop = function.child_by_field_name("property")
        function = function.child_by_field_name("object") if prop is not None and text(prop) in ("call", "apply") else None
    while function is not None and function.type == "parenthesized_expression" and function.named_children:
        function = function.named_children[0]
    if function is None or function.type not in ("arrow_function", "function_expression"):
        return []
    arguments = expression.child_by_field_name("arguments")
    functions = [function] + [a for a in (arguments.named_children if arguments is not None else ())
                              if a.type in ("arrow_function", "function_expression")]
    bodies = [f.child_by_field_name("body") for f in functions]
    return [b for b in bodies if b is not None and b.type == "statement_block"]


class ModuleIndex:
    """Innermost module containing a byte offset, by bisection over sorted spans."""

    def __init__(self, spans: Sequence[tuple[int, int]]) -> None:
        order = sorted(range(len(spans)), key=lambda i: (spans[i][0], -spans[i][1]))
        self._order = order
        self._starts = [spans[i][0] for i in order]
        self._ends = [spans[i][1] for i in order]
        parents: list[int] = []
        stack: list[int] = []
        for position in range(len(order)):
            while stack and self._ends[stack[-1]] <= self._starts[position]:
                stack.pop()
            parents.append(stack[-1] if stack else -1)
            stack.append(position)
        self._parents = parents

    def find(self, offset: int) -> int | None:
        """Index (into the spans given) of the innermost span holding `offset`, or None."""
        position = bisect.bisect_right(self._starts, offset) - 1
        while position >= 0:
            if offset < self._ends[position]:
                return self._order[position]
            position = self._parents[position]
        return None


# ---- with source-map evidence: a scan's modules, callsite places, modules.jsonl rows ----


@dataclass(frozen=True, slots=True)
class UnitModules:
    """The modules of one unit after source-map evidence, and each callsite's place."""

    #: structural modules, plus top-level runs a source map splits by original file
    spans: list[ModuleSpan]
    #: per span: the original source most of it maps to, else None
    sources: list[str | None]
    #: per span: the index of the innermost span holding it, else None
    parents: list[int | None]
    #: callsite offset -> index into `spans`
    site_modules: dict[int, int]
    #: callsite offset -> original position
    site_origins: dict[int, Origin]


def with_evidence(
    source: bytes, found: ModuleMap | None, located: LocatedMap | None, site_offsets: Sequence[int]
) -> UnitModules:
    """Structural modules hold what lies in their span. With a source map, the top-level code
    no wrapper delimits (scope-hoisted ESM) is split by original file: one module per file,
    made of the runs of top-level code that map to it, and a callsite there belongs to the
    module of the file its own code maps to (a minifier may inline one file's function into
    another's code)."""
    structural = list(found.modules) if found is not None else []
    origins: dict[int, Origin] = {}
    hoisted: list[ModuleSpan] = []
    structural.sort(key=lambda m: (m.start, -m.end))
    index = ModuleIndex([(m.start, m.end) for m in structural])
    if located is not None:
        origins = {o: origin for o, origin in zip(site_offsets, located.map.origins(source, site_offsets)) if origin}
        if found is not None:
            unwrapped = {o: origins[o].source for o in site_offsets if o in origins and index.find(o) is None}
            hoisted = _split_by_origin(source, found.loose, located.map, unwrapped)
    spans = structural + hoisted
    runs = ModuleIndex([r for m in hoisted for r in m.ranges])
    run_module = [len(structural) + i for i, m in enumerate(hoisted) for _ in m.ranges]
    by_source = {m.key: len(structural) + i for i, m in enumerate(hoisted)}
    site_modules: dict[int, int] = {}
    for offset in site_offsets:
        holder = index.find(offset)
        if holder is None:
            origin = origins.get(offset)
            holder = by_source.get(origin.source) if origin is not None else None
        if holder is None:
            run = runs.find(offset)
            holder = run_module[run] if run is not None else None
        if holder is not None:
            site_modules[offset] = holder
    sources: list[str | None] = [None] * len(spans)
    if located is not None:
        sources = _dominant_sources(source, spans, located.map, site_modules, origins)
    parents = [index.find(m.start - 1) if m.start > 0 and i < len(structural) else None for i, m in enumerate(spans)]
    parents = [p if p is not None and spans[p].end >= m.end and p != i else None
               for i, (p, m) in enumerate(zip(parents, spans))]
    return UnitModules(spans, sources, parents, site_modules, origins)


def _split_by_origin(
    source: bytes, loose: list[tuple[int, int]], source_map: SourceMap, unwrapped: dict[int, str]
) -> list[ModuleSpan]:
    """One module per original file that top-level code maps to: its runs of consecutive
    top-level pieces (the first mapped segment of each piece names the file). A file whose
    code survives only inlined into another's (`unwrapped`: callsite offset -> its file)
    is a module made of those callsites."""
    firsts = source_map.first_origins(source, loose)
    runs: list[tuple[int, int, str]] = []
    previous_end = -1
    for (start, end), origin in zip(loose, firsts):
        if origin is None:
            previous_end = -1
            continue
        if runs and runs[-1][2] == origin.source and previous_end >= 0 and _only_space(source, previous_end, start):
            runs[-1] = (runs[-1][0], end, origin.source)
        else:
            runs.append((start, end, origin.source))
        previous_end = end
    by_file: dict[str, list[tuple[int, int]]] = {}
    for start, end, file in runs:
        by_file.setdefault(file, []).append((start, end))
    inlined: dict[str, list[tuple[int, int]]] = {}
    for offset, file in sorted(unwrapped.items()):
        if file not in by_file:
            inlined.setdefault(file, []).append((offset, offset + 1))
    by_file.update(inlined)
    modules = []
    for file, ranges in sorted(by_file.items(), key=lambda item: item[1][0]):
        h = hashlib.blake2b(digest_size=16, person=b"erratlas-fp1m")
        for start, end in ranges:
            h.update(module_digest("esm", source, start, end))
        modules.append(
            ModuleSpan(
                kind="esm",
                start=ranges[0][0],
                end=ranges[-1][1],
                body=ranges[0][0],
                key=file,
                binding=None,
                evidence="source map: top-level code of one original file",
                digest=h.digest(),
                ranges=tuple(ranges),
            )
        )
    return modules


def _only_space(source: bytes, start: int, end: int) -> bool:
    return end - start < 4096 and not source[start:end].strip(b" \t\r\n;")


def _dominant_sources(
    source: bytes, spans: list[ModuleSpan], source_map: SourceMap, site_modules: dict[int, int],
    origins: dict[int, Origin],
) -> list[str | None]:
    """Per span, the original file most of its evidence points to: the first mapped position
    of its own code, and its callsites."""
    votes: list[Counter[str]] = [Counter() for _ in spans]
    for offset, index in sorted(site_modules.items()):
        origin = origins.get(offset)
        if origin is not None:
            votes[index][origin.source] += 1
    silent = [i for i, v in enumerate(votes) if not v]  # no mapped callsite: the module's own first code
    for index, origin in zip(silent, source_map.first_origins(source, [(spans[i].body, spans[i].end) for i in silent])):
        if origin is not None:
            votes[index][origin.source] += 1
    return [v.most_common(1)[0][0] if v else None for v in votes]


# ---- a scan's modules ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class UnitEvidence:
    """What one unit contributes to a scan's modules, before fingerprints (which number equal
    modules across units): computed per unit, in the helper process when there is one."""

    evidence: UnitModules
    use: SourceMapUse
    #: modules.jsonl rows, their fingerprints still empty
    rows: list[BundledModule]


def unit_evidence(unit: Unit, found: ModuleMap | None, sites: Sequence[tuple[str, int]], bundle: Path) -> UnitEvidence:
    """`sites`: the unit's callsites as (kind, offset). A unit read from a file named like the
    bundle may have a map beside it; embedded units only inline ones."""
    located, use = _source_map(unit, bundle)
    evidence = with_evidence(unit.source, found, located, [offset for _, offset in sites])
    use = SourceMapUse(use.unit, use.map, use.status, use.sha256, use.sources, len(evidence.site_origins))
    return UnitEvidence(evidence, use, _rows(unit, evidence, sites, located))


def bundle_modules(units: Sequence[tuple[Unit, UnitEvidence, Sequence[tuple[str, int]]]]) -> BundleModules:
    """`units`: (unit, its evidence, its callsites as (kind, offset))."""
    order = [(unit.name, span.start) for unit, found, _ in units for span in found.evidence.spans]
    digests = [span.digest for _, found, _ in units for span in found.evidence.spans]
    fingerprints = iter(scan_fingerprints("fp1m", digests, order))
    rows: list[BundledModule] = []
    records: dict[tuple[str, int], Module] = {}
    origins: dict[tuple[str, int], Origin] = {}
    for unit, found, sites in units:
        unit_rows = [dataclasses.replace(row, fingerprint=next(fingerprints)) for row in found.rows]
        rows.extend(unit_rows)
        for _, offset in sites:
            holder = found.evidence.site_modules.get(offset)
            if holder is not None:
                row = unit_rows[holder]
                records[(unit.name, offset)] = Module(row.id, row.kind, row.name, row.fingerprint)
        origins.update({(unit.name, offset): origin for offset, origin in found.evidence.site_origins.items()})
    rows.sort(key=lambda r: (r.unit, r.offset, -r.endOffset))
    return BundleModules(rows, records, origins, [found.use for _, found, _ in units])


def _source_map(unit: Unit, bundle: Path) -> tuple[LocatedMap | None, SourceMapUse]:
    beside = bundle if unit.name == file_name(bundle) else None
    try:
        located = find_source_map(beside, unit.source)
    except SourceMapError as exc:
        return None, SourceMapUse(unit.name, None, f"unusable: {exc}", None, 0, 0)
    if located is None:
        return None, SourceMapUse(unit.name, None, "none", None, 0, 0)
    return located, SourceMapUse(unit.name, located.where, "used", located.sha256, len(located.map.sources), 0)


def _rows(
    unit: Unit, evidence: UnitModules, sites: Sequence[tuple[str, int]], located: LocatedMap | None
) -> list[BundledModule]:
    counts: list[Counter[str]] = [Counter() for _ in evidence.spans]
    for kind, offset in sites:
        holder = evidence.site_modules.get(offset)
        if holder is not None:
            counts[holder][kind] += 1
    lines = _lines(unit.source, [span.start for span in evidence.spans])
    ids = [f"m:{unit.name}@{span.start}" for span in evidence.spans]
    banners, manifests = _package_marks(unit.source, evidence.spans)
    rows = []
    for index, span in enumerate(evidence.spans):
        source = evidence.sources[index]
        parent = evidence.parents[index]
        notes = [span.evidence]
        if source is not None and located is not None:
            notes.append(f"source map {located.where}: {source}")
        rows.append(
            BundledModule(
                schema=MODULE_SCHEMA,
                id=ids[index],
                unit=unit.name,
                kind=span.kind,
                name=span.key or source or span.binding or "<anonymous>",
                fingerprint="",  # numbered across units by `bundle_modules`
                offset=span.start,
                endOffset=span.end,
                bodyOffset=span.body,
                line=lines[span.start],
                spans=[list(r) for r in span.ranges] if span.ranges else [[span.start, span.end]],
                parent=ids[parent] if parent is not None else None,
                binding=span.binding,
                key=span.key if not span.ranges else None,
                source=source,
                package=_package(span.kind, span.key, source),
                banners=banners[index],
                manifests=manifests[index],
                evidence=tuple(notes),
                callsites={kind: counts[index].get(kind, 0) for kind in ("error", "diagnostic")},
            )
        )
    return rows


_BANNER = re.compile(
    rb"/\*!\s*(@?[a-z0-9][a-z0-9._~-]*(?:/[a-z0-9][a-z0-9._~-]*)?)"
    rb"(?:\s+v?\d+\.\d+|[\s.,:-]+(?:MIT|ISC|BSD|Apache|MPL|License|license|\(c\)))"
)
_MANIFEST_NAME = re.compile(rb"[{,]\s*\"?name\"?\s*:\s*\"(@?[a-z0-9][a-z0-9._~-]*(?:/[a-z0-9][a-z0-9._~-]*)?)\"")
_MANIFEST_VERSION = re.compile(rb"\"?version\"?\s*:\s*\"\d+\.\d+\.\d+")


def _package_marks(source: bytes, spans: Sequence[ModuleSpan]) -> tuple[list[tuple[str, ...]], list[tuple[str, ...]]]:
    """Per span, the packages license banners and inlined package.json objects name (found by
    `bytes.find` of `/*!` and `version:`; a banner up to 16 bytes before a module is its own)."""
    index = ModuleIndex([(m.start, m.end) for m in spans])
    starts = sorted((m.start, i) for i, m in enumerate(spans))
    banners: list[set[str]] = [set() for _ in spans]
    manifests: list[set[str]] = [set() for _ in spans]
    at = source.find(b"/*!")
    while at >= 0:
        found = _BANNER.match(source, at)
        end = source.find(b"*/", at)
        if found is not None and end >= 0:
            holder = index.find(at)
            following = bisect.bisect_left(starts, (end + 2, -1))
            if following < len(starts) and starts[following][0] - (end + 2) <= 16:
                holder = starts[following][1]
            if holder is not None:
                banners[holder].add(found.group(1).decode().rstrip("._~-"))
        at = source.find(b"/*!", at + 3)
    for literal in (b"version:", b'"version":'):
        at = source.find(literal)
        while at >= 0:
            holder = index.find(at)
            if holder is not None and _MANIFEST_VERSION.match(source, at):
                names = list(_MANIFEST_NAME.finditer(source, max(spans[holder].start, at - 400), at))
                if names:
                    manifests[holder].add(names[-1].group(1).decode())
            at = source.find(literal, at + 1)
    return [tuple(sorted(b)) for b in banners], [tuple(sorted(m)) for m in manifests]


def _package(kind: str, key: str | None, source: str | None) -> str | None:
    for path in (source, key):
        found = package_of(path) if path else None
        if found is not None:
            return found
    if kind == "browserify" and key and not key.startswith((".", "/")):  # required by a bare name
        parts = key.split("/")
        return "/".join(parts[:2]) if key.startswith("@") and len(parts) > 1 else parts[0]
    return None


def _lines(source: bytes, offsets: Sequence[int]) -> dict[int, int]:
    out: dict[int, int] = {}
    line, at = 1, 0
    for offset in sorted(set(offsets)):
        line += source.count(b"\n", at, offset)
        at = offset
        out[offset] = line
    return out
