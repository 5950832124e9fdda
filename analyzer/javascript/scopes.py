"""Where a callsite sits: its enclosing functions and classes, and try/catch context."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from tree_sitter import Node

from analyzer.javascript.syntax import CLASS_TYPES, FUNCTION_TYPES, has_token, same, symbols_of, text
from analyzer.model import Context, Scope

_SCOPE_TYPES = FUNCTION_TYPES | CLASS_TYPES | {"class_static_block", "field_definition"}
_SCOPE_SYMBOLS = symbols_of(_SCOPE_TYPES)
#: a scope node not seen yet
_UNKNOWN: Any = object()
_BUN_CJS_PARAMS = ("exports", "require", "module", "__filename", "__dirname")


def is_bun_cjs_wrapper(node: Node, parents: Iterator[Node] | None = None) -> bool:
    """The `(function(exports, require, module, __filename, __dirname) {...})` of `// @bun @bun-cjs`
    (`parents`: the node's ancestors, innermost first, when the caller has them)."""
    if node.type != "function_expression":
        return False
    above = parents if parents is not None else _parents(node)
    parent = next(above, None)
    while parent is not None and parent.type == "parenthesized_expression":
        parent = next(above, None)
    if parent is None or parent.type != "expression_statement":
        return False
    holder = next(above, None)
    if holder is None or holder.type != "program":
        return False
    params = node.child_by_field_name("parameters")
    names = tuple(text(p) for p in params.named_children) if params is not None else ()
    return names == _BUN_CJS_PARAMS


def _parents(node: Node) -> Iterator[Node]:
    """Ancestors by `Node.parent`, for the few steps a caller without the chain takes."""
    parent = node.parent
    while parent is not None:
        yield parent
        parent = parent.parent


def _above(chain: list[Node], at: int) -> Iterator[Node]:
    """The ancestors of `chain[at]`, from the chain."""
    return (chain[i] for i in range(at + 1, len(chain)))


def scope_nodes(chain: list[Node]) -> list[Node]:
    """Enclosing scope nodes of a callsite, innermost first (the chain is its ancestors)."""
    return [node for node in chain if node.type in _SCOPE_TYPES]


def scope_of(unit: str, chain: list[Node], known: dict[int, tuple[str, str] | None] | None = None) -> Scope:
    """`chain`: the ancestors of the callsite (or class), innermost first. `known`: each scope
    node's (name, kind) by node id (None: not a scope, or Bun's CommonJS wrapper), kept by a
    caller that asks about many callsites of one tree."""
    known = {} if known is None else known
    # (node, its name, its kind), innermost first, without Bun's CommonJS wrapper
    scopes = []
    for at, node in enumerate(chain):
        if node.kind_id not in _SCOPE_SYMBOLS:
            continue
        entry = known.get(node.id, _UNKNOWN)
        if entry is _UNKNOWN:
            entry = known[node.id] = (
                None if is_bun_cjs_wrapper(node, _above(chain, at))
                else (function_name(node, _above(chain, at)), function_kind(node))
            )
        if entry is not None:
            scopes.append((node, *entry))
    path = [f"module:{unit}@0"] + [f"{kind}:{name}@{node.start_byte}" for node, name, kind in reversed(scopes)]
    innermost = next(((name, kind) for node, name, kind in scopes if node.type not in CLASS_TYPES), None)
    innermost_name, innermost_kind = innermost if innermost is not None else ("<module>", "module")
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


def function_name(node: Node, parents: Iterator[Node] | None = None) -> str:
    """The name as written, or the name it is assigned to, or `<anonymous>` (`parents`: the
    node's ancestors, innermost first, when the caller has them)."""
    name = node.child_by_field_name("name")
    if node.type == "field_definition":
        name = node.child_by_field_name("property")
    if name is not None:
        return text(name)
    above = parents if parents is not None else _parents(node)
    parent = next(above, None)
    while parent is not None and parent.type == "parenthesized_expression":
        parent = next(above, None)
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
        elif node.type == "try_statement" and not in_try and same(node.child_by_field_name("body"), child):
            in_try = True
        child = node
    # an ERROR node sets `has_error` on every node above it: the chain's top says whether one is in it
    in_error = callsite.has_error or callsite.is_missing or (
        bool(chain) and chain[-1].has_error and any(n.type == "ERROR" for n in chain))
    return Context(inCatch=in_catch, catchParam=catch_param, inTry=in_try, inErrorRegion=in_error)
