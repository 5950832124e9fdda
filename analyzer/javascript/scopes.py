"""Where a callsite sits: its enclosing functions and classes, and try/catch context."""

from __future__ import annotations

from tree_sitter import Node

from analyzer.javascript.syntax import CLASS_TYPES, FUNCTION_TYPES, has_token, same, text
from analyzer.model import Context, Scope

_SCOPE_TYPES = FUNCTION_TYPES | CLASS_TYPES | {"class_static_block", "field_definition"}
_BUN_CJS_PARAMS = ("exports", "require", "module", "__filename", "__dirname")


def is_bun_cjs_wrapper(node: Node) -> bool:
    """The `(function(exports, require, module, __filename, __dirname) {...})` of `// @bun @bun-cjs`."""
    if node.type != "function_expression":
        return False
    parent = node.parent
    while parent is not None and parent.type == "parenthesized_expression":
        parent = parent.parent
    if parent is None or parent.type != "expression_statement":
        return False
    holder = parent.parent
    if holder is None or holder.type != "program":
        return False
    params = node.child_by_field_name("parameters")
    names = tuple(text(p) for p in params.named_children) if params is not None else ()
    return names == _BUN_CJS_PARAMS


def scope_nodes(chain: list[Node]) -> list[Node]:
    """Enclosing scope nodes of a callsite, innermost first (the chain is its ancestors)."""
    return [node for node in chain if node.type in _SCOPE_TYPES]


def scope_of(unit: str, chain: list[Node]) -> Scope:
    nodes = scope_nodes(chain)
    path = [f"module:{unit}@0"]
    innermost_name, innermost_kind = "<anonymous>", "module"
    found_function = False
    for node in reversed(nodes):
        if is_bun_cjs_wrapper(node):
            continue
        kind = function_kind(node)
        name = function_name(node)
        path.append(f"{kind}:{name}@{node.start_byte}")
    for node in nodes:
        if is_bun_cjs_wrapper(node) or node.type in CLASS_TYPES:
            continue
        innermost_name, innermost_kind = function_name(node), function_kind(node)
        found_function = True
        break
    if not found_function:
        innermost_name = "<module>"
    return Scope(scopePath=tuple(path), function=innermost_name, functionKind=innermost_kind)


def function_kind(node: Node) -> str:
    kind = node.type
    if kind in CLASS_TYPES:
        return "class"
    if kind == "class_static_block":
        return "static-block"
    if kind == "field_definition":
        return "class-field"
    is_async = has_token(node, "async")
    if kind == "arrow_function":
        return "async-arrow" if is_async else "arrow"
    if kind in ("generator_function_declaration", "generator_function"):
        return "async-generator" if is_async else "generator"
    if kind == "method_definition":
        name = node.child_by_field_name("name")
        if has_token(node, "get"):
            return "getter"
        if has_token(node, "set"):
            return "setter"
        if has_token(node, "*"):
            return "async-generator" if is_async else "generator"
        if name is not None and text(name) == "constructor":
            return "constructor"
        return "async-method" if is_async else "method"
    return "async-function" if is_async else "function"


def function_name(node: Node) -> str:
    """The name as written, or the name it is assigned to, or `<anonymous>`."""
    name = node.child_by_field_name("name")
    if node.type == "field_definition":
        name = node.child_by_field_name("property")
    if name is not None:
        return text(name)
    parent = node.parent
    while parent is not None and parent.type == "parenthesized_expression":
        parent = parent.parent
    if parent is None:
        return "<anonymous>"
    if parent.type == "variable_declarator":
        target = parent.child_by_field_name("name")
    elif parent.type == "assignment_expression":
        target = parent.child_by_field_name("left")
    elif parent.type == "pair":
        target = parent.child_by_field_name("key")
    else:
        target = None
    if target is None or target.end_byte - target.start_byte > 200:
        return "<anonymous>"
    return text(target)


def context_of(callsite: Node, chain: list[Node]) -> Context:
    """try/catch facts within the innermost function, and the parser-recovery flag."""
    in_catch, catch_param, in_try = False, None, False
    child = callsite
    for node in chain:
        if node.type in FUNCTION_TYPES or node.type in CLASS_TYPES:
            break
        if node.type == "catch_clause" and not in_catch:
            if same(node.child_by_field_name("body"), child):
                in_catch = True
                parameter = node.child_by_field_name("parameter")
                catch_param = text(parameter) if parameter is not None else None
        elif node.type == "try_statement" and not in_try:
            if same(node.child_by_field_name("body"), child):
                in_try = True
        child = node
    in_error = callsite.has_error or callsite.is_missing or any(n.type == "ERROR" for n in chain)
    return Context(inCatch=in_catch, catchParam=catch_param, inTry=in_try, inErrorRegion=in_error)
