"""Custom error classes (`error-classes.jsonl`): classes whose `extends` chain ends in a builtin error, in
class syntax or compiled to ES5 (`analyzer.javascript.compiled`). A unit read in slices finds
them from rows instead (`class_rows`, docs/slices.md, stage 7)."""

from __future__ import annotations

import re
from collections import deque

from tree_sitter import Node, Tree

from analyzer.facts import ClassFacts
from analyzer.javascript.compiled import CompiledClass, compiled_class, compiled_fields
from analyzer.javascript.resolve import Binding, Reference, Resolution, declaration
from analyzer.javascript.rules import JavaScriptRules
from analyzer.javascript.syntax import same, spaced, starts_word, text, without_parentheses
from analyzer.javascript.unit_tree import UnitTree
from analyzer.model import Unit

_EXTENDS = re.compile(rb"extends(?![A-Za-z0-9_$\x80-\xff\\])")
_FIELD_WALK_LIMIT = 20000


def heritage_names(tree: Tree, source: bytes, within: tuple[int, int] | None = None) -> list[tuple[str, Node]]:
    """(heritage identifier, class node) for every `class ... extends <identifier>` (`within`: in
    that byte range only)."""
    root = tree.root_node
    out = []
    source = spaced(source)  # white space past ASCII is no part of a name
    for match in _EXTENDS.finditer(source, *(within or (0, len(source)))):
        if not starts_word(source, match.start()):
            continue
        keyword = root.descendant_for_byte_range(match.start(), match.end())
        heritage = keyword.parent if keyword is not None else None
        if heritage is None or heritage.type != "class_heritage" or heritage.parent is None:
            continue
        expression = heritage.named_children[0] if heritage.named_children else None
        if expression is not None and without_parentheses(expression).type == "identifier":
            out.append((text(without_parentheses(expression)), heritage.parent))
    return out


def error_classes(
    unit: Unit,
    part: UnitTree,
    resolution: Resolution,
    heritages: list[tuple[str, Node]],
    rules: JavaScriptRules,
) -> list[ClassFacts]:
    """Classes extending a builtin error class, directly or through other classes of the unit.

    Resolved level by level: first the heritages naming a builtin root (already in
    `resolution`), then the heritages naming a class found so far, and so on. `part`: the tree,
    whose chains, scopes and digests the facts are read through.
    """
    roots = set(rules.class_roots)
    references = _heritage_references(resolution)
    tree, normalizer = part.tree, part.normalizer
    root = tree.root_node
    root_of: dict[int, str] = {}  # class node start -> builtin root
    # the class whose heritage is the identifier at each offset
    heritage_at = {
        identifier.start_byte: (name, node)
        for name, node in heritages
        for identifier in [_heritage_identifier(node)]
        if identifier is not None
    }
    found: deque[Node] = deque()  # error classes whose own name is still to be resolved
    compiled: dict[int, tuple[CompiledClass, str]] = {}  # ES5 class node start -> (class, base name)

    def settle(name: str, node: Node) -> None:
        if node.start_byte not in root_of:
            builtin = _root_through(name, node, references, roots, root_of)
            if builtin is not None:
                root_of[node.start_byte] = builtin
                found.append(node)

    def settle_compiled(reference: Reference, builtin: str) -> None:
        es5 = compiled_class(reference.node)
        if es5 is not None and es5.node.start_byte not in root_of:
            root_of[es5.node.start_byte] = builtin
            compiled[es5.node.start_byte] = (es5, reference.name)
            found.append(es5.node)

    for reference in resolution.references:  # ES5 classes whose base is a builtin error
        if reference.binding is None and reference.name in roots:
            settle_compiled(reference, reference.name)

    count = -1
    while count != len(root_of):  # chains inside the first resolution (a pass or two)
        count = len(root_of)
        for name, node in heritages:
            settle(name, node)
    # then each error class's name, resolved within its scope, settles the classes extending
    # it: a worklist, so that a chain of N classes costs N resolutions, not N passes over all
    wanted = {name for name, _ in heritages}
    searched: set[tuple[str, int]] = set()
    waiting: list[Node] = []  # classes no heritage names, searched once the unit has an ES5 class
    while found or (compiled and waiting):
        if not found:  # the first ES5 class came late: the classes set aside are searched, in order
            found.extend(waiting)
            waiting.clear()
        node = found.popleft()
        binding = _class_binding(node, root)
        if binding is None or binding.key in searched:
            continue
        # only a class heritage names a class, unless the unit has ES5 classes (which may extend it)
        if binding.name not in wanted and not compiled:
            waiting.append(node)
            continue
        searched.add(binding.key)
        scope = (binding.scope.start_byte, binding.scope.end_byte)
        resolved = Resolution(tree, normalizer.source, {binding.name}, scope)
        fresh = _heritage_references(resolved)
        references.update(fresh)
        for start in fresh:
            if start in heritage_at:
                settle(*heritage_at[start])
        for reference in resolved.references:
            if reference.binding is not None and reference.binding.key == binding.key \
                    and reference.node.start_byte not in fresh:
                settle_compiled(reference, root_of[node.start_byte])
    classes = []
    for name, node in heritages:
        if node.start_byte not in root_of:
            continue
        line, column = node.start_point[0] + 1, node.start_point[1] + 1
        classes.append(
            ClassFacts(
                offset=node.start_byte,
                end_offset=node.end_byte,
                line=line,
                column=column,
                name=_class_name(node),
                parent=name,
                root_constructor=root_of[node.start_byte],
                fields=_fields(node),
                scope=part.scope_of(unit.name, part.chain(node)),
                digest=normalizer.digest(node),
            )
        )
    for es5, name in compiled.values():
        node = es5.node
        classes.append(
            ClassFacts(
                offset=node.start_byte,
                end_offset=node.end_byte,
                line=node.start_point[0] + 1,
                column=node.start_point[1] + 1,
                name=_class_name(node),
                parent=name,
                root_constructor=root_of[node.start_byte],
                fields=compiled_fields(es5.constructor),
                scope=part.scope_of(unit.name, part.chain(node)),
                digest=normalizer.digest(node),
            )
        )
    return sorted(classes, key=lambda c: c.offset)


def _heritage_references(resolution: Resolution) -> dict[int, Reference]:
    return {
        reference.node.start_byte: reference
        for reference in resolution.references
        if reference.node.parent is not None and reference.node.parent.type == "class_heritage"
    }


def _class_binding(node: Node, root: Node) -> Binding | None:
    """The binding that names a class: its own declaration, or `var X = class ...`."""
    name = node.child_by_field_name("name")
    if node.type in ("class_declaration", "function_declaration") and name is not None:
        return declaration(text(name), name, root)
    parent = node.parent
    while parent is not None and parent.type == "parenthesized_expression":
        parent = parent.parent
    if parent is not None and parent.type == "variable_declarator":
        target = parent.child_by_field_name("name")
        if target is not None and target.type == "identifier":
            return declaration(text(target), target, root)
    return None


def _heritage_identifier(node: Node) -> Node | None:
    for child in node.named_children:
        if child.type == "class_heritage" and child.named_children:
            return without_parentheses(child.named_children[0])
    return None


def _root_through(name, node, heritage_reference, roots, root_of) -> str | None:
    identifier = _heritage_identifier(node)
    reference = heritage_reference.get(identifier.start_byte) if identifier is not None else None
    if reference is None:
        return None
    if reference.binding is None:
        return name if name in roots else None
    declared = reference.binding.declaration.parent
    if declared is None:
        return None
    if declared.type == "variable_declarator":
        declared = declared.child_by_field_name("value")
        declared = without_parentheses(declared) if declared is not None else None
    # a class, or an ES5 class (its IIFE or constructor function) found before
    return root_of.get(declared.start_byte) if declared is not None else None


def _class_name(node: Node) -> str:
    name = node.child_by_field_name("name")
    if name is not None:
        return text(name)
    parent = node.parent
    while parent is not None and parent.type == "parenthesized_expression":
        parent = parent.parent
    if parent is not None and parent.type == "variable_declarator":
        target = parent.child_by_field_name("name")
        if target is not None:
            return text(target)
    if parent is not None and parent.type == "assignment_expression":
        target = parent.child_by_field_name("left")
        if target is not None and target.end_byte - target.start_byte <= 200:
            return text(target)
    return "<anonymous>"


def _fields(node: Node) -> tuple[str, ...]:
    """`this.X = ...` in the constructor, and declared class fields."""
    body = node.child_by_field_name("body")
    if body is None:
        return ()
    fields: set[str] = set()
    for member in body.named_children:
        if member.type == "field_definition":
            prop = member.child_by_field_name("property")
            if prop is not None:
                fields.add(text(prop))
        elif member.type == "method_definition":
            name = member.child_by_field_name("name")
            if name is not None and text(name) == "constructor":
                fields |= _this_assignments(member)
    return tuple(sorted(fields))


def _this_assignments(method: Node) -> set[str]:
    out: set[str] = set()
    stack = [method]
    visited = 0
    while stack and visited < _FIELD_WALK_LIMIT:
        node = stack.pop()
        visited += 1
        if node.type == "assignment_expression":
            left = node.child_by_field_name("left")
            if left is not None and left.type == "member_expression":
                obj = left.child_by_field_name("object")
                prop = left.child_by_field_name("property")
                if obj is not None and obj.type == "this" and prop is not None:
                    out.add(text(prop))
        if node.type in ("function_expression", "function_declaration") and not same(node, method):
            continue  # `this` means something else there
        stack.extend(node.named_children)
    return out
