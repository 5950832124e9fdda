"""The declarations of L's level a slice tree holds of some names, found by a walk of L's
statements (docs/slices.md, stage 7): the error classes' rows re-bind a heritage with them."""

from __future__ import annotations

from collections.abc import Sequence

from tree_sitter import Node

from analyzer.javascript.resolve import Binding, declaration
from analyzer.javascript.syntax import IDENTIFIER_TYPES, text, without_parentheses
from analyzer.javascript.top_bindings import TopBindings, TopScopes

#: statements whose statements may declare a `var` of L's level
_HOLDING = frozenset({
    "if_statement", "else_clause", "for_statement", "for_in_statement", "while_statement", "do_statement",
    "try_statement", "catch_clause", "finally_clause", "labeled_statement", "switch_statement", "switch_body",
    "switch_case", "switch_default", "statement_block", "with_statement", "export_statement",
})
_DECLARING = frozenset({"function_declaration", "generator_function_declaration", "class_declaration"})


def top_declared(
    root: Node, scopes: TopScopes, names: frozenset[str], statements: Sequence[Node] | None = None,
) -> tuple[TopBindings, dict[tuple[str, int], int | None]]:
    """The first declarations of L's level in the slice of `names` (as `top_bindings` would give
    them had the slice resolved the names), and what each declares (`declared_start`): found
    among L's statements (or those of them given, which must hold every declaration of the
    names) and the statements they hold, never inside a function or a class. A declared name
    is met with the names' bytes where the walk finds it: only the few it holds are decoded,
    sorted and resolved."""
    found = level_declared(root, names) if statements is None else [
        pair for statement in statements for pair in level_declared(statement, names)]
    top = TopBindings()
    targets: dict[tuple[str, int], int | None] = {}
    for node, name in sorted(found, key=lambda pair: pair[0].start_byte):
        binding = declaration(name, node, root)
        scope = scopes.scope_of(binding) if binding is not None else None
        if binding is None or scope is None:
            continue
        (top.function if scope == "function" else top.block).setdefault(name, scopes.row(binding))
        targets[binding.key] = declared_start(binding)
    return top, targets


def level_declared(root: Node, names: frozenset[str]) -> list[tuple[Node, str]]:
    """The identifiers of `names` in a declaring place of `root`'s own level: its statements and
    the statements they hold (a `var` there is the level's), never inside a function or a class;
    unordered. `root`: L, or a function's body. What each declares, and where, is `declaration`'s
    answer (a `let` in a block the walk enters is that block's)."""
    wanted = {name.encode(): name for name in names}
    found: list[tuple[Node, str]] = []

    def meet(identifier: Node, data: bytes | None) -> None:
        name = wanted.get(data or b"")
        if name is None and data is not None and not data.isascii():  # `text` decodes with replacements
            name = text(identifier)
            if name not in names:
                return
        if name is not None:
            found.append((identifier, name))

    root_id = root.id
    stack = [root]
    while stack:
        node = stack.pop()
        kind = node.type
        if kind in _DECLARING:
            declared = node.child_by_field_name("name")
            if declared is not None and ((data := declared.text) in wanted or not data or not data.isascii()):
                meet(declared, data)
            continue
        if kind in ("variable_declaration", "lexical_declaration"):
            for declarator in node.named_children:
                target = declarator.child_by_field_name("name") if declarator.type == "variable_declarator" else None
                if target is None:
                    continue
                if target.type != "identifier":
                    for identifier in identifiers_in(target):
                        meet(identifier, identifier.text)
                elif (data := target.text) in wanted or not data or not data.isascii():
                    meet(target, data)
            continue
        if kind == "for_in_statement":
            left = node.child_by_field_name("left")
            if left is not None:
                for identifier in identifiers_in(left):
                    meet(identifier, identifier.text)
        elif kind == "import_statement":
            for identifier in identifiers_in(node):
                meet(identifier, identifier.text)
            continue
        if kind in _HOLDING or node.id == root_id:
            stack.extend(reversed(node.named_children))
    return found


def identifiers_in(node: Node) -> list[Node]:
    """The identifiers in a pattern (or an import clause), in source order."""
    out = []
    stack = [node]
    while stack:
        current = stack.pop()
        if current.type in IDENTIFIER_TYPES:
            out.append(current)
        elif current.type not in _FUNCTION_LIKE:
            stack.extend(reversed(current.named_children))
    return out


_FUNCTION_LIKE = frozenset({"function_expression", "arrow_function", "class", "generator_function"})


def declared_start(binding: Binding) -> int | None:
    """The start of what a binding declares, as `_root_through` reads it: a declarator's value,
    else the declaration's parent (a class, a function)."""
    declared = binding.declaration.parent
    if declared is not None and declared.type == "variable_declarator":
        declared = declared.child_by_field_name("value")
        declared = without_parentheses(declared) if declared is not None else None
    return declared.start_byte if declared is not None else None
