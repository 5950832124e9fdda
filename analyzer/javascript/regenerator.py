"""A bundle function that Babel's regenerator wrote for an async function, read as its source
(docs/corpus.md, "Async functions compiled to generators"): the state machine's tokens no
source has (its context's properties, `abrupt`'s strings, `wrap` and `mark`) follow the body's
control flow, so the bundle's side drops them and keys such a function again without them."""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from itertools import accumulate

from tree_sitter import Node, Query, QueryCursor, Tree

from analyzer.javascript.chains import string_value
from analyzer.javascript.signatures import FunctionSignature, UnitTokens, mix, token_hash, weight_of
from analyzer.javascript.syntax import FUNCTION_TYPES, LANGUAGE

#: a unit without this text has no regenerator callee (the query is not run)
_HINT = re.compile(rb"switch\s*\(\s*[\w$]+\.(?:prev\s*=\s*[\w$]+\.next|p\s*=\s*[\w$]+\.n|n)\s*\)")
_QUERY = Query(
    LANGUAGE,
    """
    (switch_statement
      value: (parenthesized_expression
        (assignment_expression
          left: (member_expression object: (identifier) @context property: (property_identifier) @state)
          right: (member_expression object: (identifier) @context.next property: (property_identifier) @next)))) @switch
    (switch_statement
      value: (parenthesized_expression
        (member_expression object: (identifier) @context property: (property_identifier) @next))) @switch
    """,
)


@dataclass(frozen=True, slots=True)
class _Form:
    """The names one regenerator writes: its context's properties, the property `abrupt`
    (whose first argument, a string, is the completion type), and its `wrap` and `mark`."""

    state: tuple[str, str]
    context: frozenset[str]
    abrupt: str
    wrap: str
    mark: str


#: regenerator-runtime (`switch (_context.prev = _context.next)`, `_context.t0`, `case "end"`), and
#: Babel's own regenerator since 7.27 (`switch (_context.p = _context.n)` or `switch (_context.n)`)
_FORMS = (
    _Form(("prev", "next"), frozenset({"prev", "next", "sent", "abrupt", "stop", "finish", "catch",
                                       "delegateYield", "rval"}), "abrupt", "wrap", "mark"),
    _Form(("p", "n"), frozenset({"p", "n", "v", "a", "f", "d"}), "a", "w", "m"),
)
_TEMPORARY = re.compile(r"t\d+")
#: the completion types `abrupt` is called with
_ABRUPT = frozenset({"return", "break", "continue"})
_SCOPES = FUNCTION_TYPES | {"class_declaration", "class"}


class Regenerator:
    """The regenerator tokens of a unit (position, token), summed as prefixes: a function's
    signature without them is its own minus two subtractions."""

    def __init__(self, tree: Tree, source: bytes, tokens: UnitTokens, cache: dict[str, int]) -> None:
        self._tokens = tokens
        dropped: list[tuple[int, str]] = []
        if _HINT.search(source):
            for _, match in QueryCursor(_QUERY).matches(tree.root_node):
                switch, context, state = match["switch"][0], match["context"][0], match.get("state")
                following, again = match["next"][0].text, match.get("context.next")
                if state is None:
                    form = _FORMS[1] if following == b"n" else None
                else:
                    form = next((f for f in _FORMS if (state[0].text, following) == tuple(x.encode() for x in f.state)
                                 and again is not None and again[0].text == context.text), None)
                callee = _callee(switch, context.text or b"") if form is not None else None
                if form is not None and callee is not None:
                    dropped.extend(_dropped(callee, switch, context.text or b"", source, form))
        dropped.sort()
        self.found = bool(dropped)
        hashes = [token_hash(token, cache) for _, token in dropped]
        self._positions = [p for p, _ in dropped]
        self._hashes = list(accumulate(hashes, initial=0))
        self._weights = list(accumulate((weight_of(t) for _, t in dropped), initial=0))

    def signature(self, node: Node) -> FunctionSignature | None:
        """`node`'s signature without the regenerator tokens inside it; None when it holds none."""
        start, end = node.start_byte, node.end_byte
        low, high = bisect.bisect_left(self._positions, start), bisect.bisect_left(self._positions, end)
        if low == high:
            return None
        total, count, weight = self._tokens.raw(start, end)
        total -= self._hashes[high] - self._hashes[low]
        count -= high - low
        weight -= self._weights[high] - self._weights[low]
        return FunctionSignature(start, end, mix(total & ((1 << 64) - 1), count), count, weight,
                                 node.start_point.row + 1, node.type)


def _callee(switch: Node, context: bytes) -> Node | None:
    """The function `function (context) { for (;;) switch (...) {...} }` whose state machine this
    switch is, or None."""
    loop = switch.parent
    if loop is None or loop.type not in ("for_statement", "while_statement"):
        return None
    block = loop.parent
    function = block.parent if block is not None and block.type == "statement_block" else None
    if function is None or function.type not in ("function_expression", "function_declaration"):
        return None
    parameters = function.child_by_field_name("parameters")
    names = parameters.named_children if parameters is not None else []
    if len(names) != 1 or names[0].type != "identifier" or names[0].text != context:
        return None
    return function


def _dropped(callee: Node, switch: Node, context: bytes, source: bytes, form: _Form) -> list[tuple[int, str]]:
    out: list[tuple[int, str]] = []
    body = switch.child_by_field_name("body")
    for case in body.named_children if body is not None else ():
        value = case.child_by_field_name("value")
        if value is not None and value.type == "string" and string_value(value, source) == "end":
            out.append((value.start_byte, "end"))
    stack = [c for c in callee.named_children if c.type == "statement_block"]
    while stack:
        node = stack.pop()
        if node.type in _SCOPES and _binds(node, context):
            continue  # a nested function whose own variable has the context's name
        if node.type == "member_expression":
            target, name = node.child_by_field_name("object"), node.child_by_field_name("property")
            if target is not None and target.type == "identifier" and target.text == context and name is not None:
                text = (name.text or b"").decode()
                if text in form.context or (form.abrupt == "abrupt" and _TEMPORARY.fullmatch(text)):
                    out.append((name.start_byte, text))
                    if text == form.abrupt:
                        out.extend(_abrupt_type(node, source))
        elif node.type == "call_expression":
            saved = _saved_method_call(node)
            if saved is not None:
                out.append(saved)
        if node.type == "subscript_expression":
            target, index = node.child_by_field_name("object"), node.child_by_field_name("index")
            if target is not None and target.type == "identifier" and target.text == context and \
                    index is not None and index.type == "string":
                text = string_value(index, source)
                if text in form.context:
                    out.append((index.start_byte, text))
        stack.extend(node.named_children)
    for helper, holder in ((form.wrap, callee), (form.mark, _enclosing_function(callee))):
        call = _call_of(holder, helper) if holder is not None else None
        if call is None:
            break
        out.append(call)
    return out


def _saved_method_call(call: Node) -> tuple[int, str] | None:
    """`t.m.call(t, ...)`: a method call whose arguments await, its object saved in a temporary
    (regenerator writes `t.m(a, await b)` so); the `call` is regenerator's."""
    member = call.child_by_field_name("function")
    name = member.child_by_field_name("property") if member is not None and member.type == "member_expression" \
        else None
    method = member.child_by_field_name("object") if member is not None and name is not None else None
    saved = method.child_by_field_name("object") if method is not None and method.type == "member_expression" \
        else None
    arguments = call.child_by_field_name("arguments")
    first = arguments.named_children[0] if arguments is not None and arguments.named_children else None
    if name is None or name.text != b"call" or saved is None or first is None or first.text != saved.text or \
            saved.type not in ("identifier", "member_expression"):
        return None
    return name.start_byte, "call"


def _abrupt_type(member: Node, source: bytes) -> list[tuple[int, str]]:
    call = member.parent
    arguments = call.child_by_field_name("arguments") if call is not None and call.type == "call_expression" else None
    first = arguments.named_children[0] if arguments is not None and arguments.named_children else None
    if first is not None and first.type == "string" and string_value(first, source) in _ABRUPT:
        return [(first.start_byte, string_value(first, source))]
    return []


def _call_of(function: Node, name: str) -> tuple[int, str] | None:
    """(position, name) of the property `name` when `function` is the first argument of `x.name(...)`."""
    arguments = function.parent
    while arguments is not None and arguments.type == "parenthesized_expression":
        arguments = arguments.parent
    call = arguments.parent if arguments is not None and arguments.type == "arguments" else None
    first = arguments.named_children[0] if call is not None and arguments is not None else None
    if call is None or call.type != "call_expression" or first is None or \
            not first.start_byte <= function.start_byte < first.end_byte:
        return None
    member = call.child_by_field_name("function")
    prop = member.child_by_field_name("property") if member is not None and member.type == "member_expression" else None
    return (prop.start_byte, name) if prop is not None and prop.text == name.encode() else None


def _enclosing_function(node: Node) -> Node | None:
    parent = node.parent
    while parent is not None and parent.type not in FUNCTION_TYPES:
        parent = parent.parent
    return parent


def _binds(scope: Node, name: bytes) -> bool:
    """Whether a nested function or class declares its own `name` (a parameter, or a declaration
    in its body outside deeper functions)."""
    parameters = scope.child_by_field_name("parameters") or scope.child_by_field_name("parameter")
    if parameters is not None:
        found = [parameters]
        while found:
            node = found.pop()
            if node.type in ("identifier", "shorthand_property_identifier_pattern") and node.text == name:
                return True
            found.extend(node.named_children)
    stack = list(scope.named_children)
    while stack:
        node = stack.pop()
        if node.type in _SCOPES:
            if node.type in ("function_declaration", "class_declaration"):
                named = node.child_by_field_name("name")
                if named is not None and named.text == name:
                    return True
            continue
        if node.type == "variable_declarator":
            named = node.child_by_field_name("name")
            if named is not None and named.type == "identifier" and named.text == name:
                return True
        stack.extend(node.named_children)
    return False
