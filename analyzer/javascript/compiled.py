"""Error classes compiled to ES5 (Babel, TypeScript) or written in ES5 by hand.

Found from the references of a base class (a builtin error's, or an error class's already
found), never by walking the tree: a reference stands in one of the few places a compiler puts
a class's base (a class IIFE's argument, an inherits call, a prototype made from the base's),
and a handful of nodes around it decide. Which places, and what the class's position, name and
fields are: docs/reference.md, `error-classes.jsonl`."""

from __future__ import annotations

import re
from dataclasses import dataclass

from tree_sitter import Node, Query, QueryCursor

from analyzer.javascript.syntax import LANGUAGE, same, text, without_parentheses

#: parent hops from a base reference up to its statement list (call, sequence, statement, block)
_MAX_HOPS = 8
#: statement lists climbed, and statements read in each, when looking for an inherits helper
_MAX_LISTS = 12
_MAX_STATEMENTS = 20_000
_LISTS = ("statement_block", "program")
_FUNCTIONS = ("function_expression", "function_declaration")
_THIS = re.compile(rb"(?<![A-Za-z0-9_$])this(?![A-Za-z0-9_$])")
#: what a constructor function assigns, and where nested functions (another `this`) are
_ASSIGNMENTS = Query(LANGUAGE, """
(assignment_expression
  left: (member_expression object: (_) @object property: (property_identifier) @field))
(variable_declarator name: (identifier) @self value: (_) @value)
(assignment_expression left: (identifier) @self right: (_) @value)
[(function_expression) (function_declaration) (generator_function) (generator_function_declaration)
 (method_definition) (class_body)] @nested
""")


class ReadsTheList(Exception):
    """Raised when `compiled_class`, given a slice's root as `top`, would read the statements of
    the sliced list L: the declarations it looks for may lie in another slice (docs/slices.md,
    stage 7)."""


@dataclass(frozen=True, slots=True)
class CompiledClass:
    #: the node the class's name is bound to: the class IIFE, else the constructor function
    node: Node
    #: the constructor function
    constructor: Node


def compiled_class(base: Node, top: Node | None = None, list_names: frozenset[bytes] | None = None
                   ) -> CompiledClass | None:
    """The ES5 class whose base is the reference `base` (an identifier), else None. `top`: a
    slice tree's root, standing for L: reading its statements raises `ReadsTheList`, unless
    `list_names` (the names L may declare, by its bytes) lacks the name looked for there."""
    at = _unwrapped_base(base)
    holder = at.parent
    if holder is None or holder.type != "arguments":
        return _prototype_class(base, top, list_names)
    call = holder.parent
    if call is None or call.type != "call_expression":
        return None
    arguments = _named(holder)
    if len(arguments) == 1 and same(arguments[0], at):
        found = _iife_class(call)
        if found is not None:
            return found
    if len(arguments) == 2 and same(arguments[1], at):
        return _inherits_class(call, arguments[0], top, list_names)
    return None


def _unwrapped_base(base: Node) -> Node:
    """`Error`, or Babel's `_wrapNativeSuper(Error)` around it (a one-argument call of a name)."""
    holder = base.parent
    if holder is not None and holder.type == "arguments" and len(_named(holder)) == 1:
        call = holder.parent
        callee = call.child_by_field_name("function") if call is not None else None
        if call is not None and callee is not None and callee.type == "identifier":
            return call
    return base


def _iife_class(call: Node) -> CompiledClass | None:
    """`function (P) { h(C, P); function C() {...}; return C }(base)`."""
    function = _callee_function(call)
    if function is None:
        return None
    parameters = function.child_by_field_name("parameters")
    names = _named(parameters) if parameters is not None else []
    if len(names) != 1 or names[0].type != "identifier":
        return None
    body = function.child_by_field_name("body")
    if body is None:
        return None
    parameter = text(names[0])
    for statement in body.named_children:
        for expression in _expressions(statement):
            if expression.type != "call_expression":
                continue
            arguments = expression.child_by_field_name("arguments")
            pair = _named(arguments) if arguments is not None else []
            if len(pair) == 2 and pair[1].type == "identifier" and text(pair[1]) == parameter:
                found = _class_in_iife(body, pair[0], call)
                if found is not None:
                    return found
    return None


def _inherits_class(call: Node, subclass: Node, top: Node | None, list_names: frozenset[bytes] | None
                    ) -> CompiledClass | None:
    """`h(C, base)`: in a class IIFE, or with `h` an inherits helper."""
    block = _statement_list(call)
    if block is None or subclass.type != "identifier":
        return None
    iife = _iife_of(block)
    if iife is not None:
        found = _class_in_iife(block, subclass, iife)
        if found is not None:
            return found
    constructor = _declared_function(text(subclass), _read(block, top, text(subclass), list_names))
    if constructor is None or not _is_inherits_helper(call.child_by_field_name("function"), block, top, list_names):
        return None
    return CompiledClass(constructor, constructor)


def _prototype_class(base: Node, top: Node | None, list_names: frozenset[bytes] | None) -> CompiledClass | None:
    """`C.prototype = Object.create(base.prototype)`, `Object.setPrototypeOf(C.prototype, base.prototype)`."""
    member = base.parent
    if member is None or member.type != "member_expression" or not _is_prototype(member, base):
        return None
    holder = member.parent
    call = holder.parent if holder is not None and holder.type == "arguments" else None
    if call is None or call.type != "call_expression":
        return None
    callee = text(call.child_by_field_name("function") or call)
    arguments = _named(holder) if holder is not None else []
    target: Node | None = None
    if callee == "Object.create" and arguments and same(arguments[0], member):
        assignment = call.parent
        if assignment is not None and assignment.type == "assignment_expression" and same(
                assignment.child_by_field_name("right"), call):
            target = assignment.child_by_field_name("left")
    elif callee == "Object.setPrototypeOf" and len(arguments) == 2 and same(arguments[1], member):
        target = arguments[0]
    subclass = target.child_by_field_name("object") if target is not None and _is_prototype(target) else None
    block = _statement_list(call)
    if subclass is None or subclass.type != "identifier" or block is None:
        return None
    iife = _iife_of(block)
    found = _class_in_iife(block, subclass, iife) if iife is not None else None
    if found is not None:
        return found
    constructor = _declared_function(text(subclass), _read(block, top, text(subclass), list_names))
    return CompiledClass(constructor, constructor) if constructor is not None else None


def _is_prototype(member: Node, object_node: Node | None = None) -> bool:
    prop = member.child_by_field_name("property")
    value = member.child_by_field_name("object")
    return (member.type == "member_expression" and prop is not None and text(prop) == "prototype"
            and value is not None and (object_node is None or same(value, object_node)))


def _class_in_iife(body: Node, subclass: Node, iife: Node) -> CompiledClass | None:
    """The class of an IIFE whose body declares `subclass`'s function and returns it."""
    if subclass.type != "identifier":
        return None
    name = text(subclass)
    constructor = _declared_function(name, body)
    if constructor is None or not _returns(body, name):
        return None
    return CompiledClass(iife, constructor)


def _returns(body: Node, name: str) -> bool:
    """The block's last statement returns `name`, or a helper's call on it (`_createClass(C)`)."""
    statements = _named(body)
    if not statements or statements[-1].type != "return_statement":
        return False
    expressions = _expressions(statements[-1])
    value = without_parentheses(expressions[-1]) if expressions else None
    if value is not None and value.type == "call_expression":
        arguments = value.child_by_field_name("arguments")
        first = _named(arguments) if arguments is not None else []
        value = first[0] if first else None
    return value is not None and value.type == "identifier" and text(value) == name


def _expressions(statement: Node) -> list[Node]:
    """The expressions of an expression or return statement, a comma sequence spread out."""
    inner = _named(statement)
    if statement.type not in ("expression_statement", "return_statement") or not inner:
        return []
    pending = [without_parentheses(inner[0])]
    out = []
    while pending:
        node = pending.pop()
        if node.type == "sequence_expression":
            pending.extend(reversed(_named(node)))
        else:
            out.append(without_parentheses(node))
    return out


def _named(node: Node) -> list[Node]:
    """Named children but comments (`/*#__PURE__*/`, `/** @class */`)."""
    return [child for child in node.named_children if child.type != "comment"]


def _callee_function(call: Node) -> Node | None:
    callee = call.child_by_field_name("function")
    callee = without_parentheses(callee) if callee is not None else None
    return callee if callee is not None and callee.type == "function_expression" else None


def _iife_of(block: Node) -> Node | None:
    """The call that runs the function whose body `block` is, immediately, else None."""
    function = block.parent
    if function is None or function.type != "function_expression":
        return None
    holder = function.parent
    while holder is not None and holder.type == "parenthesized_expression":
        holder = holder.parent
    if holder is None or holder.type != "call_expression":
        return None
    return holder if same(_callee_function(holder), function) else None


def _statement_list(node: Node) -> Node | None:
    """The statement list holding the statement `node` is in, a few hops up."""
    current: Node | None = node
    for _ in range(_MAX_HOPS):
        current = current.parent if current is not None else None
        if current is None or current.type in _FUNCTIONS:
            return None
        if current.type in _LISTS:
            return current
    return None


def _read(block: Node, top: Node | None, name: str, list_names: frozenset[bytes] | None) -> Node | None:
    """`block`, whose statements are about to be read for `name`'s declaration, unless it is the
    slice root `top`: then None when L declares no such name (`list_names`, a superset: none of
    L's statements would hold one), else `ReadsTheList`."""
    if top is not None and same(block, top):
        if list_names is not None and name.encode() not in list_names:
            return None
        raise ReadsTheList
    return block


def _declared_function(name: str, block: Node | None) -> Node | None:
    """The function `name` is declared as in `block`: `function C() {}` or `var C = function () {}`."""
    if block is None:
        return None
    for statement in block.named_children[:_MAX_STATEMENTS]:
        value = _declared(name, statement)
        if value is not None and value.type in _FUNCTIONS:
            return value
    return None


def _declared(name: str, statement: Node) -> Node | None:
    """What `statement` declares `name` as: a function declaration, or a declarator's value."""
    if statement.type == "export_statement":
        inner = statement.child_by_field_name("declaration")
        statement = inner if inner is not None else statement
    if statement.type == "function_declaration":
        declared = statement.child_by_field_name("name")
        return statement if declared is not None and text(declared) == name else None
    if statement.type in ("variable_declaration", "lexical_declaration"):
        for declarator in statement.named_children:
            declared = declarator.child_by_field_name("name")
            if declared is not None and declared.type == "identifier" and text(declared) == name:
                value = declarator.child_by_field_name("value")
                return without_parentheses(value) if value is not None else None
    return None


def _is_inherits_helper(callee: Node | None, block: Node, top: Node | None, list_names: frozenset[bytes] | None
                        ) -> bool:
    """`util.inherits`, `x.__extends`, or a name whose declaration in an enclosing statement list
    writes a prototype (Babel's `_inherits`, TypeScript's `__extends`) or requires `inherits`."""
    if callee is None:
        return False
    callee = without_parentheses(callee)
    if callee.type == "member_expression":
        prop = callee.child_by_field_name("property")
        return prop is not None and text(prop) in ("inherits", "__extends")
    if callee.type != "identifier":
        return False
    name = text(callee)
    current: Node | None = block
    for _ in range(_MAX_LISTS):
        if current is None:
            return False
        read = _read(current, top, name, list_names) if current.type in _LISTS else None
        if read is not None:
            for statement in read.named_children[:_MAX_STATEMENTS]:
                declared = _declared(name, statement)
                if declared is not None:
                    body = declared.text or b""
                    return b"prototype" in body or body.replace(b"'", b'"') in (
                        b'require("inherits")', b'require("util").inherits')
        current = current.parent
    return False


def compiled_fields(constructor: Node) -> tuple[str, ...]:
    """The properties the constructor assigns to `this`, or to a local holding `this`
    (`_this = _super.call(this, m) || this`), outside nested functions."""
    nested: list[tuple[int, int]] = []
    holders: list[tuple[Node, Node]] = []
    assigned: list[tuple[Node, str]] = []
    for pattern, captures in QueryCursor(_ASSIGNMENTS).matches(constructor):
        if pattern == 0:
            assigned.append((captures["object"][0], text(captures["field"][0])))
        elif pattern in (1, 2):
            holders.append((captures["self"][0], captures["value"][0]))
        elif not same(captures["nested"][0], constructor):
            nested.append((captures["nested"][0].start_byte, captures["nested"][0].end_byte))

    def own(node: Node) -> bool:  # not inside a nested function, where `this` is another
        return not any(start <= node.start_byte < end for start, end in nested)

    selves = {"this"} | {text(name) for name, value in holders if own(name) and _THIS.search(value.text or b"")}
    fields = set()
    for node, field in assigned:
        target = without_parentheses(node)
        if target.type == "assignment_expression":  # `(_this = _super.call(this) || this).x = ...`
            target = target.child_by_field_name("left") or target
        if own(node) and (target.type == "this" or (target.type == "identifier" and text(target) in selves)):
            fields.add(field)
    return tuple(sorted(fields))
