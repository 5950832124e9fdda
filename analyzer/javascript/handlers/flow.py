"""What becomes of an error callsite's error in its function (`flow_of`): its fate past the
immediate consumer, the handler that catches it directly, whether it leaves the function and the
fields set on it (docs/reference.md, "Flow"). The flow is local and exact: anything the value is
not followed through leaves the fate `None`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from tree_sitter import Node

from analyzer.facts import FlowFacts
from analyzer.javascript.handlers.compiled import compiled_catcher
from analyzer.javascript.handlers.shapes import (
    BOUNDARIES,
    first_named,
    is_object_assign,
    is_promise_reject,
    is_promise_reject_call,
    last_named,
    named,
)
from analyzer.javascript.syntax import FUNCTION_TYPES, same, without_parentheses
from analyzer.model import Fate

#: fates that leave the function when no handler of it catches them
_LEAVING = frozenset({"thrown", "returned", "rejected"})
#: statement lists a binding's later statements are read in (the same as a direct source's)
_LISTS = frozenset({"statement_block", "program", "switch_case", "switch_default"})
_SHORT_CIRCUIT = frozenset({"&&", "||", "??"})
#: syntax nodes of the statements after a binding searched for another use of it, per callsite
_FOLLOW_NODES = 4096
#: methods that keep what they are given in the object they are called on
_STORING = frozenset({b"push", b"unshift", b"set", b"add"})
#: the argument of a builtin error constructor holding its options (`{cause}`)
_OPTIONS_AT = {"AggregateError": 2}


def flow_of(site: Node, chain: Sequence[Node], diagnostics: frozenset[int], constructor: str) -> FlowFacts:
    """The flow of the error made at `site`. `chain`: its ancestors, innermost first, to the
    whole unit's root (a slice's through its head chain, `unit_tree.UnitTree.chain`: `_catcher`
    and `_is_reject` climb past the statement list); `diagnostics`: the offsets of the unit's
    logger calls; `constructor`: the callee."""
    fields = set(_constructor_fields(site, constructor))
    at, child = _climb(site, chain, 0, fields)
    fate: Fate | None = None
    handler: int | None = None
    if at >= len(chain):
        return FlowFacts(None, None, None, tuple(sorted(fields)))
    parent = chain[at]
    kind = parent.type
    if kind == "pair" and same(parent.child_by_field_name("value"), child) and at + 1 < len(chain) \
            and chain[at + 1].type == "object":
        fate = _held_fate(chain, at + 1, diagnostics)
        return FlowFacts(fate, None, None if fate is None else fate in _LEAVING, tuple(sorted(fields)))
    if kind == "throw_statement":
        fate, handler = "thrown", _catcher(chain, at, child)
    elif kind == "return_statement" or (kind == "arrow_function" and same(parent.child_by_field_name("body"), child)):
        fate = "returned"
    elif kind == "expression_statement":
        fate = "discarded"
    elif kind == "variable_declarator" and same(parent.child_by_field_name("value"), child):
        fate, handler = _local(chain, at, fields, diagnostics)
    elif kind == "assignment_expression" and same(parent.child_by_field_name("right"), child):
        left = parent.child_by_field_name("left")
        fate = "stored" if left is not None and left.type in ("member_expression", "subscript_expression") else None
    elif kind == "arguments" and at + 1 < len(chain):
        fate = _call_fate(chain[at + 1], chain[at + 2:], diagnostics)
    escapes = None if fate is None else fate in _LEAVING and handler is None
    return FlowFacts(fate, handler, escapes, tuple(sorted(fields)))


def _held_fate(chain: Sequence[Node], at: int, diagnostics: frozenset[int]) -> Fate | None:
    """The fate of an error held by the object literal `chain[at]` (`emit({kind, error: new
    Error(m)})`): the object's, when it is given to a call, returned or stored."""
    at, child = _climb(chain[at], chain, at + 1, set())
    if at >= len(chain):
        return None
    parent = chain[at]
    kind = parent.type
    if kind == "return_statement" or (kind == "arrow_function" and same(parent.child_by_field_name("body"), child)):
        return "returned"
    if kind == "assignment_expression" and same(parent.child_by_field_name("right"), child):
        left = parent.child_by_field_name("left")
        return "stored" if left is not None and left.type in ("member_expression", "subscript_expression") else None
    if kind == "arguments" and at + 1 < len(chain) and not is_object_assign(chain[at + 1]):
        return _call_fate(chain[at + 1], chain[at + 2:], diagnostics)
    return None


def _climb(node: Node, chain: Sequence[Node], at: int, fields: set[str]) -> tuple[int, Node]:
    """(position in `chain` of the first ancestor from `at` on that does not hand the value on
    unchanged, the node below it); `Object.assign(X, {...})` adds its keys to `fields`."""
    child = node
    while at < len(chain):
        parent = chain[at]
        kind = parent.type
        if kind == "parenthesized_expression":
            pass
        elif kind == "sequence_expression" and same(last_named(parent), child):
            pass
        elif kind == "ternary_expression" and not same(parent.child_by_field_name("condition"), child):
            pass
        elif kind == "binary_expression" and same(parent.child_by_field_name("right"), child) \
                and _operator(parent) in _SHORT_CIRCUIT:
            pass
        elif kind == "arguments" and at + 1 < len(chain) and is_object_assign(chain[at + 1]) \
                and same(first_named(parent), child):
            fields.update(_assigned_keys(parent))
            at += 1  # the call itself hands on its first argument
            parent = chain[at]
        else:
            return at, child
        child = parent
        at += 1
    return at, child


def _catcher(chain: Sequence[Node], at: int, child: Node) -> int | None:
    """The offset of the catch clause of the innermost `try` whose block holds `chain[at]`, in
    the same function (a `catch` body is not its own `try`'s block), else None."""
    for position in range(at, len(chain)):
        node = chain[position]
        if node.type == "try_statement" and same(node.child_by_field_name("body"), child):
            catcher = node.child_by_field_name("handler")
            if catcher is not None:
                return catcher.start_byte
        elif node.type == "switch_case" and (compiled := compiled_catcher(
                node, chain[position + 2] if position + 2 < len(chain) else None)) is not None:  # a machine's try
            return compiled
        elif node.type in BOUNDARIES and node.type != "catch_clause":
            return None
        child = node
    return None


def _local(chain: Sequence[Node], at: int, fields: set[str],
           diagnostics: frozenset[int]) -> tuple[Fate | None, int | None]:
    """The fate of `name = <error>` (chain[at] the declarator) from the statements after its
    declaration in the same list: thrown when one throws the name (`throw e`, `throw (e.code =
    "E", e)`), else the first that returns it or hands it to a call, else discarded when none
    reads it; fields are what those statements assign to it before it is thrown."""
    name = chain[at].child_by_field_name("name")
    if name is None or name.type != "identifier" or at + 2 >= len(chain):
        return None, None
    declaration, holder = chain[at + 1], chain[at + 2]
    if declaration.type not in ("lexical_declaration", "variable_declaration") or holder.type not in _LISTS:
        return None, None
    wanted = name.text or b""
    first: Fate | None = None
    budget = [_FOLLOW_NODES]
    # `const e = X, t = {e}`: a later declarator of the same declaration reads it
    siblings = named(declaration)
    later_declarators = siblings[next(i for i, d in enumerate(siblings) if same(d, chain[at])) + 1:]
    unknown = any(_reads(d, wanted, budget) is not False for d in later_declarators)
    later = False
    for statement in named(holder):
        if not later:
            later = same(statement, declaration)
            continue
        kind = statement.type
        if kind == "throw_statement":
            members = _members(statement)
            if members and _is_name(members[-1], wanted):
                for member in members[:-1]:
                    _use(member, wanted, fields, diagnostics, budget)
                return "thrown", _catcher(chain, at + 2, declaration)
        if first is not None or unknown:
            continue  # only a later throw can still change the fate
        if kind == "expression_statement":
            expression = first_named(statement)
            if expression is None:
                continue
            expression = without_parentheses(expression)
            members = named(expression) if expression.type == "sequence_expression" else [expression]
            for member in members:
                use = _use(member, wanted, fields, diagnostics, budget)
                if use == "unknown":
                    unknown = True
                elif use is not None and first is None:
                    first = cast(Fate, use)
        elif kind == "return_statement":
            members = _members(statement)  # `return (e.code = "E", e)`, `return (log(e), null)`
            returned = bool(members) and _is_name(members[-1], wanted)
            before = first
            for member in members[:-1] if returned else members:
                use = _use(member, wanted, fields, diagnostics, budget)
                if use == "unknown":
                    unknown = True
                elif use is not None:
                    first = first or cast(Fate, use)
            if returned and before is None:
                first = "returned"
        elif _reads(statement, wanted, budget) is not False:
            unknown = True
    if first is not None:
        return first, None
    if unknown or budget[0] <= 0:
        return None, None
    if declaration.type == "variable_declaration" and holder.type != "program" and \
            (holder.parent is None or holder.parent.type not in FUNCTION_TYPES):
        return None, None  # a `var` in a nested block is read after the block too
    return "discarded", None


def _members(statement: Node) -> list[Node]:
    """What a `throw` or `return` statement evaluates, its sequences' members flattened in order
    (the last is its value), parentheses left out."""
    value = first_named(statement)
    members = [without_parentheses(value)] if value is not None else []
    while members and members[-1].type == "sequence_expression":
        members[-1:] = [without_parentheses(m) for m in named(members[-1])]
    return members


def _use(node: Node, name: bytes, fields: set[str], diagnostics: frozenset[int],
         budget: list[int]) -> Fate | str | None:
    """What one expression does with the local `name`: a fate, a field set on it (into
    `fields`, None), "unknown" for another read of it, None when it does not read it."""
    node = without_parentheses(node)
    kind = node.type
    if kind == "assignment_expression":
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        if left is not None and left.type == "member_expression" and _is_name(left.child_by_field_name("object"), name):
            prop = left.child_by_field_name("property")
            if prop is not None and prop.type == "property_identifier":
                fields.add(prop.text.decode("utf-8", "replace") if prop.text else "")
                return "unknown" if right is not None and _reads(right, name, budget) is not False else None
            return "unknown"
        if right is not None and _is_name(without_parentheses(right), name):
            return "stored" if left is not None and left.type in ("member_expression", "subscript_expression") \
                else "unknown"
    elif kind == "call_expression":
        arguments = node.child_by_field_name("arguments")
        given = [without_parentheses(a) for a in named(arguments)] if arguments is not None \
            and arguments.type == "arguments" else []
        if arguments is not None and is_object_assign(node) and given and _is_name(given[0], name):
            fields.update(_assigned_keys(arguments))
            return "unknown" if any(_reads(a, name, budget) is not False for a in given[1:]) else None
        if any(_is_name(a, name) for a in given):
            return _call_fate(node, (), diagnostics)
    return "unknown" if _reads(node, name, budget) is not False else None


def _call_fate(call: Node, above: Sequence[Node], diagnostics: frozenset[int]) -> Fate | None:
    """What a call or `new` given the error does with it; `above`: the call's ancestors
    (innermost first; empty when unknown), where a promise executor's `reject` is looked for."""
    if call.type == "new_expression":
        return "passed"
    if call.type != "call_expression":
        return None
    if call.start_byte in diagnostics:
        return "logged"
    callee = call.child_by_field_name("function")
    if callee is None:
        return None
    written = callee.text or b""
    if written.startswith(b"console."):
        return "logged"
    if is_promise_reject_call(written) or (callee.type == "identifier" and is_promise_reject(written, above)):
        return "rejected"
    if callee.type == "member_expression":
        prop = callee.child_by_field_name("property")
        if prop is not None and prop.text in _STORING:
            return "stored"
    return "passed"


def _constructor_fields(site: Node, constructor: str) -> list[str]:
    """`cause` when a builtin error constructor is given options with it (`Error(m, {cause})`)."""
    arguments = site.child_by_field_name("arguments")
    given = named(arguments) if arguments is not None and arguments.type == "arguments" else []
    at = _OPTIONS_AT.get(constructor, 1)
    if len(given) <= at or without_parentheses(given[at]).type != "object":
        return []
    return [key for key in _object_keys(without_parentheses(given[at])) if key == "cause"]


def _assigned_keys(arguments: Node) -> list[str]:
    """The keys of the object literals `Object.assign(X, ...)` copies onto X."""
    out: list[str] = []
    for given in named(arguments)[1:]:
        given = without_parentheses(given)
        if given.type == "object":
            out.extend(_object_keys(given))
    return out


def _object_keys(node: Node) -> list[str]:
    out = []
    for member in named(node):
        key = member.child_by_field_name("key") if member.type == "pair" else \
            member if member.type == "shorthand_property_identifier" else None
        if key is None:
            continue
        if key.type in ("property_identifier", "shorthand_property_identifier"):
            out.append((key.text or b"").decode("utf-8", "replace"))
        elif key.type == "string":
            fragment = first_named(key)
            if fragment is not None and fragment.type == "string_fragment" and len(named(key)) == 1:
                out.append((fragment.text or b"").decode("utf-8", "replace"))
    return out


def _is_name(node: Node | None, name: bytes) -> bool:
    return node is not None and node.type == "identifier" and node.text == name


def _reads(node: Node, name: bytes, budget: list[int]) -> bool | None:
    """Whether `name` occurs as an identifier in `node` (nested functions included: a closure
    keeps it); None when the budget of nodes ran out first."""
    stack = [node]
    while stack:
        if budget[0] <= 0:
            return None
        current = stack.pop()
        budget[0] -= 1
        if current.type in ("identifier", "shorthand_property_identifier") and current.text == name:
            return True
        stack.extend(current.named_children)
    return False


def _operator(node: Node) -> str | None:
    operator = node.child_by_field_name("operator")
    return operator.type if operator is not None else None
