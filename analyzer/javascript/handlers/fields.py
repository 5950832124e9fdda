"""The locals of a handler's body that hold a field of the caught value (`const {code} = e`,
`var c = e.code`, `catch ({code})`): a test of one splits the body as a test of the field
does (docs/reference.md, "Branches")."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from tree_sitter import Node, Query, QueryCursor

from analyzer.javascript.handlers.bindings import DECLARABLE, Key, pattern_names
from analyzer.javascript.handlers.guards import Caught, field_of, literal_value
from analyzer.javascript.syntax import LANGUAGE, text, without_parentheses

_DECLARATIONS = frozenset({"lexical_declaration", "variable_declaration"})
#: what gives a name a value in the handler, nested functions included: one declaration and no
#: write keeps a local what its declaration gave it
_WRITES = QueryCursor(Query(LANGUAGE, """
    (assignment_expression left: (_) @written)
    (augmented_assignment_expression left: (_) @written)
    (update_expression argument: (_) @written)
    (for_in_statement left: (_) @written)
    (variable_declarator name: (_) @declared)
    """))

#: binding -> (the field path it holds, the end of the statement declaring it)
Fields = dict[Key, tuple[str, int]]


def held_fields(handler: Node, statements: list[Node], parameter: Node | None, caught: Caught,
                key: Callable[[Node], Key]) -> Fields:
    """The locals declared by the body's top-level `statements` (each runs before the statements
    after it), or by the destructured `parameter`, as a chain of property reads from the caught
    value: an identifier given one (`var c = e.code`) or a pattern's names, by their keys
    (`const {response: {status} = {}} = e`: `response.status`). A name with a default of its own
    (`{code = "E"}`), under an array pattern or a computed key, declared more than once or written
    anywhere in the handler is left out: it may hold something else."""
    found: list[tuple[Node, str, int]] = []  # (name, path, end of its declaration)
    if parameter is not None and parameter.type == "object_pattern":
        _pattern(parameter, [], parameter.end_byte, found)
    from_parameter = len(found)
    for statement in statements:
        if statement.type not in _DECLARATIONS:
            continue
        for declarator in statement.named_children:
            name, value = declarator.child_by_field_name("name"), declarator.child_by_field_name("value")
            read = field_of(without_parentheses(value), caught) if name is not None and value is not None else None
            if read is None or name is None:
                continue
            if name.type == "identifier" and read[1] is not None:  # (the caught value itself: an alias)
                found.append((name, read[1], statement.end_byte))
            elif name.type == "object_pattern":
                _pattern(name, read[1].split(".") if read[1] is not None else [], statement.end_byte, found)
    if not found:
        return {}
    written: set[bytes] = set()
    declared: Counter[bytes] = Counter()
    for capture, nodes in _WRITES.captures(handler).items():
        names = (n.text or b"" for node in nodes for n in ([node] if node.type in DECLARABLE else pattern_names(node)))
        if capture == "written":
            written.update(names)
        else:
            declared.update(names)
    out: Fields = {}
    for at, (name, path, end) in enumerate(found):
        written_name = name.text or b""
        # a parameter's name is declared by no declarator, a local's by its own
        if written_name not in written and declared[written_name] == (0 if at < from_parameter else 1):
            out[key(name)] = (path, end)
    return out


def _pattern(pattern: Node, prefix: list[str], end: int, found: list[tuple[Node, str, int]]) -> None:
    """The names of an object pattern read from the field path `prefix` (`[]`: the caught value)."""
    stack = [(pattern, prefix)]
    while stack:
        node, path = stack.pop()
        for member in node.named_children:
            if member.type == "shorthand_property_identifier_pattern":
                found.append((member, ".".join([*path, text(member)]), end))
            elif member.type == "pair_pattern":
                key, value = member.child_by_field_name("key"), member.child_by_field_name("value")
                field = _key(key) if key is not None else None
                if field is None or value is None:
                    continue
                if value.type == "assignment_pattern":  # a default for an object read further: `{r: {s} = {}}`
                    value = value.child_by_field_name("left")
                    if value is None or value.type != "object_pattern":
                        continue
                if value.type == "identifier":
                    found.append((value, ".".join([*path, field]), end))
                elif value.type == "object_pattern":
                    stack.append((value, [*path, field]))


def _key(key: Node) -> str | None:
    """A pattern key's property name: written plainly or as a string without escapes."""
    if key.type == "property_identifier":
        return text(key)
    ok, value = literal_value(key)
    return value if ok and isinstance(value, str) else None
