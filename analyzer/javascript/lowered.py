"""A package function's signature as an ES5 compiler writes it (docs/corpus.md, "ES5 output"):
Babel and TypeScript rewrite classes, fields, rest and spread, `super` and `for...of` into code
no source has. The bundle cannot say which code was compiled; the package can say what its code
becomes, so the index holds a function again as each output reads (`LOWERINGS`)."""

from __future__ import annotations

import bisect
from itertools import accumulate

from tree_sitter import Node, Query, QueryCursor, Tree

from analyzer.javascript.chains import source_is_relative, string_value
from analyzer.javascript.signatures import FunctionSignature, UnitTokens, mix, token_hash, weight_of
from analyzer.javascript.syntax import LANGUAGE

#: the ES5 forms indexed: TypeScript's and Babel's loose mode, Babel preset-env's, and its form before 7.23
LOWERINGS = ("classes", "babel", "babel-older")
#: a bundler's rewrite of imported bindings, alone or after each ES5 form (`hoisted`)
IMPORTS = "imports"
#: a minifier's `drop_console` (terser, esbuild `--drop:console`): every `console.x(...)` call is gone
CONSOLE = "console"
#: a bundler's module reference for `require("pkg")` (webpack's `n(783)`, esbuild's `require_pkg()`):
#: the package's name is gone (browserify keeps it, under a renamed `require`)
REQUIRES = "requires"
#: the variants a bundler and a minifier make of a whole file or function, alone and together
REWRITES = (CONSOLE, REQUIRES, f"{CONSOLE}+{REQUIRES}")

_QUERY = Query(
    LANGUAGE,
    """
    (member_expression object: (super)) @super.member
    (call_expression function: (super)) @super.call
    (call_expression arguments: (arguments (spread_element))) @spread.call
    (array (spread_element)) @spread.array
    (binary_expression (unary_expression operator: "typeof") (string) @typeof.string)
    (binary_expression (string) @typeof.string (unary_expression operator: "typeof"))
    (formal_parameters (rest_pattern) @rest)
    (formal_parameters) @parameters
    (for_in_statement operator: "of") @for.of
    [(class_declaration) (class)] @class
    (field_definition) @field
    (import_clause (namespace_import (identifier) @import))
    (import_specifier name: (identifier) @import !alias)
    (import_specifier alias: (identifier) @import)
    (call_expression function: (member_expression object: (identifier) @console.object
                                                   (#eq? @console.object "console"))) @console.call
    (call_expression function: [(identifier) (import)] @require.callee
                     arguments: (arguments . (string) @require.source .))
    """,
)
_MEMBERS = Query(LANGUAGE, "(member_expression object: (identifier) @object property: (property_identifier) @property)")
_BABEL_TYPEOF = frozenset({"object", "symbol"})
_FOR_OF = ("s", "n", "done", "value", "e", "f")


class Lowered:
    """Per lowering, the signed token changes of a unit in source order, summed as prefixes, so that
    a function's lowered signature is its own plus two subtractions."""

    def __init__(self, tree: Tree, source: bytes, tokens: UnitTokens, cache: dict[str, int]) -> None:
        self._tokens = tokens
        self._cache = cache
        captures = QueryCursor(_QUERY).captures(tree.root_node)
        self._classes = sorted(n.start_byte for n in captures.get("class", []))
        changes: dict[str, list[tuple[int, str, int]]] = {kind: [] for kind in LOWERINGS}
        self._console = _outermost(captures.get("console.call", []))
        every = tuple(changes.values())
        babel = (changes["babel"], changes["babel-older"])
        supers = (changes["classes"], changes["babel-older"])
        for node in captures.get("super.member", []):
            parent = node.parent
            extra = ["prototype"]
            if parent is not None and parent.type == "call_expression" and \
                    parent.child_by_field_name("function") == node:
                extra.append("apply" if _spreads(parent) else "call")
            for kind in supers:
                kind.extend((node.start_byte, token, 1) for token in extra)
        for node in captures.get("super.call", []):
            for kind in supers:
                kind.append((node.start_byte, "apply" if _spreads(node) else "call", 1))
        for node in captures.get("spread.call", []):
            callee = node.child_by_field_name("function")
            if callee is not None and callee.type != "super" and not (
                    callee.type == "member_expression" and (o := callee.child_by_field_name("object")) is not None
                    and o.type == "super"):
                for kind in every:
                    kind.append((node.start_byte, "apply", 1))
        for node in captures.get("rest", []):
            for kind in every:
                kind.append((node.start_byte, "length", 1))
        for node in captures.get("typeof.string", []):
            value = (node.text or b"")[1:-1].decode("utf-8", "replace")
            if value in _BABEL_TYPEOF:
                for kind in babel:
                    kind.append((node.start_byte, value, 1))
        for node in captures.get("parameters", []):
            defaulted = False
            for parameter in node.named_children:
                defaulted = defaulted or parameter.type == "assignment_pattern"
                if defaulted and parameter.type != "rest_pattern":
                    for kind in babel:
                        kind.append((parameter.start_byte, "length", 1))
        for node in captures.get("for.of", []):
            for kind in babel:
                kind.extend((node.start_byte, token, 1) for token in _FOR_OF)
        for node in captures.get("spread.array", []):
            if node.named_child_count >= 2:
                for kind in babel:
                    kind.append((node.start_byte, "concat", 1))
        #: a constructor's class's instance fields: their tokens move into it
        self._fields: dict[int, list[tuple[int, int]]] = {}
        for node in captures.get("field", []):
            if any(c.type == "static" for c in node.children):
                continue
            body = node.parent
            constructor = next((m for m in (body.named_children if body is not None else ())
                                if m.type == "method_definition" and _name(m) == b"constructor"), None)
            if constructor is not None:
                self._fields.setdefault(constructor.start_byte, []).append((node.start_byte, node.end_byte))
        #: an imported binding's members: ESM bundlers (rollup, esbuild, webpack's module
        #: concatenation) write `ns.f(x)` as `f(x)` for `import * as ns` or a namespace re-exported by name
        imported = {n.text for n in captures.get("import", [])}
        hoisted: list[tuple[int, str, int]] = []
        if imported:
            for _, match in QueryCursor(_MEMBERS).matches(tree.root_node):
                (target,), (name,) = match["object"], match["property"]
                if target.text in imported:
                    hoisted.append((name.start_byte, (name.text or b"").decode("utf-8", "replace"), -1))
        self._hoisted = sorted(p for p, _, _ in hoisted)
        if hoisted:
            changes[IMPORTS] = list(hoisted)
            for lowering in LOWERINGS:
                changes[f"{lowering}+{IMPORTS}"] = changes[lowering] + hoisted
        self._prefix: dict[str, tuple[list[int], list[int], list[int], list[int]]] = {}
        for lowering, found in changes.items():
            found.sort()
            self._summed(lowering, [(p, sign * token_hash(token, cache), sign, sign * weight_of(token))
                                    for p, token, sign in found])
        dropped = [(call.start_byte, tokens.raw(call.start_byte, call.end_byte)) for call in self._console]
        consoles = [(at, -h, -c, -w) for at, (h, c, w) in dropped]  # each call's tokens, taken away where it starts
        requires = []
        for node in captures.get("require.source", []):
            call = node.parent.parent if node.parent is not None else None
            callee = call.child_by_field_name("function") if call is not None else None
            if callee is not None and callee.text in (b"require", b"import") and not source_is_relative(node):
                value = string_value(node, source)
                requires.append((node.start_byte, -token_hash(value, cache), -1, -weight_of(value)))
        # a `require` inside a dropped `console` call is gone with it: taken away once
        starts, ends = [call.start_byte for call in self._console], [call.end_byte for call in self._console]
        outside = [r for r in requires if not _within(starts, ends, r[0])]
        for rewrite, drops, made in ((CONSOLE, consoles, bool(consoles)), (REQUIRES, requires, bool(requires)),
                                     (REWRITES[2], consoles + outside, bool(consoles and outside))):
            if made:  # a variant only where it changes something of its own
                self._summed(rewrite, sorted(drops))
        self._rewrites = tuple(k for k in REWRITES if k in self._prefix)

    def _summed(self, kind: str, found: list[tuple[int, int, int, int]]) -> None:
        """Prefix sums of the (position, hash, count, weight) changes of `kind`, in source order."""
        self._prefix[kind] = ([p for p, _, _, _ in found], list(accumulate((h for _, h, _, _ in found), initial=0)),
                              list(accumulate((c for _, _, c, _ in found), initial=0)),
                              list(accumulate((w for _, _, _, w in found), initial=0)))

    def kinds(self, lowerings: tuple[str, ...]) -> tuple[str, ...]:
        """`lowerings`, and each again with the imported bindings' members hoisted, when the
        unit has such members; and without its `console` calls, when it makes some."""
        hoisted = (IMPORTS, *(f"{k}+{IMPORTS}" for k in lowerings)) if self._hoisted and lowerings else ()
        return (*lowerings, *hoisted, *(self._rewrites if lowerings else ()))

    def rewritten(self, start: int, end: int, line: int) -> list[FunctionSignature | None]:
        """The span's signatures once a minifier dropped its `console` calls and a bundler its
        packages' names in `require`, each and both (none where it has neither)."""
        return [self._span(start, end, line, "program", kind, [(start, end)]) for kind in self._rewrites]

    def signature(self, node: Node, kind: str) -> FunctionSignature | None:
        """`node`'s signature as the lowering `kind` writes it; None when that is its own, or
        when it holds a class."""
        start, end = node.start_byte, node.end_byte
        if kind in REWRITES:
            return self._changed(node, kind, [(start, end)])
        if kind.endswith(IMPORTS):
            if bisect.bisect_left(self._hoisted, start) == bisect.bisect_left(self._hoisted, end):
                return None  # nothing imported is hoisted in it: its key is that of the form without
            if kind == IMPORTS:
                return self._changed(node, kind, [(start, end)])
        at = bisect.bisect_left(self._classes, start)
        if at < len(self._classes) and self._classes[at] < end:
            return None
        spans = [(start, end)]
        if node.type == "method_definition":
            parameters = node.child_by_field_name("parameters")
            if parameters is None:
                return None
            spans = [(parameters.start_byte, end), *self._fields.get(start, [])]
        return self._changed(node, kind, spans)

    def _changed(self, node: Node, kind: str, spans: list[tuple[int, int]]) -> FunctionSignature | None:
        return self._span(node.start_byte, node.end_byte, node.start_point.row + 1, node.type, kind, spans)

    def _span(self, start: int, end: int, line: int, type_: str, kind: str,
              spans: list[tuple[int, int]]) -> FunctionSignature | None:
        total, count, weight, changes = 0, 0, 0, 0
        positions, hashes, counts, weights = self._prefix[kind]
        for low, high in spans:  # each span with the changes inside it (a method's computed key lies outside)
            t, c, w = self._tokens.raw(low, high)
            first, last = bisect.bisect_left(positions, low), bisect.bisect_left(positions, high)
            total += t + hashes[last] - hashes[first]
            count += c + counts[last] - counts[first]
            weight += w + weights[last] - weights[first]
            changes += last - first
        if spans == [(start, end)] and not changes:
            return None
        return FunctionSignature(start, end, mix(total & ((1 << 64) - 1), count), count, weight, line, type_)


def _within(starts: list[int], ends: list[int], at: int) -> bool:
    """Whether `at` lies in one of the spans [starts[i], ends[i]) (sorted, apart)."""
    index = bisect.bisect_right(starts, at) - 1
    return index >= 0 and at < ends[index]


def _outermost(calls: list[Node]) -> list[Node]:
    """The calls not inside another of them, in source order."""
    out: list[Node] = []
    for call in sorted(calls, key=lambda n: (n.start_byte, -n.end_byte)):
        if not out or call.start_byte >= out[-1].end_byte:
            out.append(call)
    return out


def _spreads(call: Node) -> bool:
    arguments = call.child_by_field_name("arguments")
    return arguments is not None and any(c.type == "spread_element" for c in arguments.named_children)


def _name(method: Node) -> bytes:
    name = method.child_by_field_name("name")
    return (name.text or b"") if name is not None else b""
