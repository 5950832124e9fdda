"""A package file's literal constants, as a minifier inlines them (docs/corpus.md, "Constants"):
the index holds a function a second time with such names read as their values (a second key,
only where it differs). A name is folded only where it is certainly the constant: declared once
in the file with a literal value and never assigned, no other declaration of the name."""

from __future__ import annotations

import re
from collections.abc import Iterable

from tree_sitter import Node, Query, QueryCursor, Tree

from analyzer.javascript.chains import decode_string, string_value
from analyzer.javascript.syntax import LANGUAGE

_DECLARATIONS = Query(
    LANGUAGE,
    """
    (variable_declarator
      name: (identifier) @name
      value: [(number) (string) (template_string) (unary_expression)] @value)
    """,
)
#: node types whose identifier children bind a name (with the field, when only one does)
_BINDING_FIELDS = {
    "variable_declarator": "name", "function_declaration": "name", "function_expression": "name",
    "generator_function_declaration": "name", "generator_function": "name", "class_declaration": "name",
    "class": "name", "catch_clause": "parameter", "arrow_function": "parameter", "assignment_pattern": "left",
    "object_assignment_pattern": "left", "pair_pattern": "value",
}
_BINDING_PARENTS = frozenset({"formal_parameters", "array_pattern", "rest_pattern", "import_specifier",
                              "namespace_import", "import_clause"})
_ASSIGNING = {"assignment_expression": "left", "augmented_assignment_expression": "left",
              "update_expression": "argument", "for_in_statement": "left"}
_DECIMAL = re.compile(r"(?:0|[1-9][0-9]*)(?:\.[0-9]*)?(?:[eE][+-]?[0-9]+)?|\.[0-9]+(?:[eE][+-]?[0-9]+)?")


def literal_constants(tree: Tree, source: bytes, wanted: set[str]) -> dict[str, tuple[str, bool]]:
    """name -> (the text a minifier folds in for it, whether its value is a string), for the
    names of `wanted` (those read in the holes of the file's built strings) that are literal
    constants."""
    if not wanted:
        return {}
    found: dict[str, tuple[Node, tuple[str, bool]] | None] = {}
    for _, match in QueryCursor(_DECLARATIONS).matches(tree.root_node):
        (name_node,), (value_node,) = match["name"], match["value"]
        name = (name_node.text or b"").decode("utf-8", "replace")
        if name in wanted:
            value = _literal_text(value_node, source)
            # not a literal whose text is certain, or declared twice: never folded
            textual = value_node.type in ("string", "template_string")
            found[name] = None if value is None or name in found else (name_node, (value, textual))
    candidates = {name: pair for name, pair in found.items() if pair is not None}
    uses = _uses(tree, candidates)
    return {name: value for name, (declared, value) in candidates.items() if _only_binding(declared, uses[name])}


def _uses(tree: Tree, names: Iterable[str]) -> dict[str, list[Node]]:
    """Every identifier (and shorthand pattern) of the file named one of `names`: one query
    for them all."""
    out: dict[str, list[Node]] = {name: [] for name in names}
    if not out:
        return out
    query = Query(LANGUAGE, "([(identifier) (shorthand_property_identifier_pattern)] @id (#any-of? @id "
                            + " ".join(_quoted(name) for name in sorted(out)) + "))")
    for node in QueryCursor(query).captures(tree.root_node).get("id", []):
        found = out.get((node.text or b"").decode("utf-8", "replace"))
        if found is not None:
            found.append(node)
    return out


def _literal_text(node: Node, source: bytes) -> str | None:
    """What `${node}` gives, for a literal whose text is certain; else None."""
    if node.type == "string":
        return string_value(node, source)
    if node.type == "template_string":
        if node.named_child_count and any(c.type == "template_substitution" for c in node.named_children):
            return None
        return decode_string(source[node.start_byte + 1:node.end_byte - 1].decode("utf-8", "replace"))
    if node.type == "number":
        return number_text((node.text or b"").decode("ascii", "replace"))
    if node.type == "unary_expression":
        operator, argument = node.child_by_field_name("operator"), node.child_by_field_name("argument")
        if operator is not None and operator.type == "-" and argument is not None and argument.type == "number":
            value = number_text((argument.text or b"").decode("ascii", "replace"))
            return None if value is None else value if value == "0" else "-" + value
    return None


def number_text(raw: str) -> str | None:
    """JavaScript's `String(n)` of a number literal, when it is certain (integers, and decimals
    whose shortest form has no exponent); None otherwise (a bigint, a legacy octal)."""
    raw = raw.replace("_", "")
    lowered = raw.lower()
    try:
        if lowered.startswith(("0x", "0o", "0b")):
            return str(int(lowered, 0))
    except ValueError:
        return None
    if not _DECIMAL.fullmatch(raw):
        return None
    value = float(raw)
    if value.is_integer() and value < 1e21:
        return str(int(value))
    text = repr(value)
    return None if "e" in text or "inf" in text else text


def _only_binding(declared: Node, uses: list[Node]) -> bool:
    """Whether `declared` is the file's one binding of its name (`uses`: every identifier of
    that name), and (unless by `const`) the name is never assigned."""
    kind = _declaration_kind(declared)
    for node in uses:
        if node.id == declared.id:
            continue
        parent = node.parent
        if parent is None:
            continue
        if node.type == "shorthand_property_identifier_pattern" or parent.type in _BINDING_PARENTS:
            return False
        field = _BINDING_FIELDS.get(parent.type)
        if field is not None and _is_field(parent, field, node):
            return False
        field = _ASSIGNING.get(parent.type)
        if kind != "const" and field is not None and _is_field(parent, field, node):
            return False
    return True


def _declaration_kind(name_node: Node) -> str:
    declarator = name_node.parent
    declaration = declarator.parent if declarator is not None else None
    if declaration is None or declaration.child_count == 0:
        return "var"
    first = declaration.child(0)
    return first.type if first is not None else "var"


def _is_field(parent: Node, field: str, node: Node) -> bool:
    child = parent.child_by_field_name(field)
    return child is not None and child.id == node.id


def _quoted(name: str) -> str:
    return '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'
