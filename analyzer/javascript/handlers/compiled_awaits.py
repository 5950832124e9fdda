"""An awaited value where the case after its await reads it (`compiled_reader`): `return [4,
f(e)]` then `x = ctx.sent()` (or `throw ctx.sent()`) is `x = await f(e)`, and then `return [2,
ctx.sent()]` is `return await f(e)`. Read so only where that case is reached from the await
alone: no jump of the machine goes to it, no try entry names it. The value is given a name of the
clause where the await's own syntax stood (`$ = f(e)`, the read renamed `$`); a return is the
await's own, the next case's dropped. Any other shape keeps the context's read as written."""

from __future__ import annotations

import re

from tree_sitter import Node

from analyzer.javascript.handlers.compiled_edits import Edits, Unread, bare, case_statements, sequence_members
from analyzer.javascript.handlers.compiled_regions import _NEW, _OLD, _TS, jumps_to

#: the names an awaited value may be given, the shortest first (one absent from the region's text)
_NAMES = (b"$", b"_", b"$$", b"_$", b"$_", b"__")


def read_await(edits: Edits, at: int, cases: list[int]) -> None:
    """Reads case `at`'s first statement where it takes the value its await gave back."""
    value, returned = edits.awaited[at]
    machine = edits.machine
    label, case = machine.labels[at], machine.cases[at]
    if label is None or any(label in entry for entry in machine.entries) \
            or jumps_to(machine, case, label) != (0 if edits.kind == _TS else 1):
        return  # the await's own jump is the regenerator's `ctx.n = N`
    statements = case_statements(case)
    first = statements[0] if statements else None
    if first is None:
        return
    if _returns_sent(edits, first):  # `return await f(e)`: the await's return kept, this one dropped
        keyword = returned.children[0]
        edits.edits.remove((keyword.start_byte, keyword.end_byte, b""))
        edits.edits.append((first.start_byte, first.end_byte, b""))
        edits.unreturned.add(first.id)
        edits.explain(first)
        return
    sent = _assigned_or_thrown(edits, first)
    slot = _slot(edits, value, returned)
    if sent is None or slot is None:
        return
    text = b"".join(machine.cases[c].text or b"" for c in cases)
    taken = {name for _, _, name in edits.aliases}
    name = next((n for n in _NAMES if len(n) < slot[1] - slot[0] and len(n) <= sent.end_byte - sent.start_byte
                 and n not in taken and not re.search(rb"(?<![\w$])" + re.escape(n) + rb"(?![\w$])", text)), None)
    if name is None:
        return
    edits.renames.append((sent.start_byte, sent.end_byte, name))
    edits.explain(sent)
    edits.aliases.append((*slot, name))


def place_aliases(edits: Edits) -> None:
    """Writes `name=` where each named await's syntax was blanked (its edit found again)."""
    for start, end, name in edits.aliases:
        at = next((k for k, edit in enumerate(edits.edits) if edit == (start, end, b"")), None)
        if at is None:
            raise Unread
        edits.edits[at] = (start, end, name + b"=")


def _is_sent(edits: Edits, node: Node) -> bool:
    """The context's read of an await's value: `ctx.sent()`, `ctx.v`, `ctx.sent`."""
    if edits.kind == _TS:
        arguments = node.child_by_field_name("arguments")
        return node.type == "call_expression" and edits.is_member(node.child_by_field_name("function"), b"sent") \
            and arguments is not None and arguments.named_child_count == 0
    return edits.is_member(node, b"v" if edits.kind == _NEW else b"sent")


def _returns_sent(edits: Edits, statement: Node) -> bool:
    """`return [2, ctx.sent()]`, `return ctx.a(2, ctx.v)`, `return ctx.abrupt("return", ctx.sent)`."""
    value = _only(statement) if statement.type == "return_statement" else None
    if value is None:
        return False
    if edits.kind == _TS:
        given = _only_named(value) if value.type == "array" else []
        return len(given) == 2 and given[0].text == b"2" and _is_sent(edits, bare(given[1]))
    if value.type != "call_expression":
        return False
    arguments = value.child_by_field_name("arguments")
    given = _only_named(arguments) if arguments is not None else []
    kind = (b"2",) if edits.kind == _NEW else (b'"return"', b"'return'")
    return edits.is_member(value.child_by_field_name("function"), b"a" if edits.kind == _NEW else b"abrupt") \
        and len(given) == 2 and given[0].text in kind and _is_sent(edits, bare(given[1]))


def _assigned_or_thrown(edits: Edits, statement: Node) -> Node | None:
    """The await's value where the statement takes it first: assigned to a name (`x = ctx.sent()`,
    a sequence's first member) or thrown (`throw ctx.sent()`)."""
    if statement.type not in ("expression_statement", "throw_statement", "return_statement"):
        return None
    node = _only(statement)
    if node is not None and statement.type == "throw_statement" and _is_sent(edits, bare(node)):
        return bare(node)
    assigned = False
    while node is not None and not (assigned and _is_sent(edits, node)):
        if node.type == "parenthesized_expression" or node.type == "sequence_expression":
            node = (_only_named(node) if node.type == "parenthesized_expression" else sequence_members(node))[0]
        elif node.type == "assignment_expression" and (node.child_by_field_name("left") or node).type == "identifier":
            node, assigned = node.child_by_field_name("right"), True
        else:
            return None
    return node


def _slot(edits: Edits, value: Node, returned: Node) -> tuple[int, int] | None:
    """The span blanked just before the awaited value, where its name is written: TypeScript's
    `[4, `, the regenerator's jump before it (`ctx.n = 3, f(e)`), or the `return` keyword of
    `ctx.n = 3; return f(e)`."""
    if edits.kind == _TS:
        array = value.parent
        return (array.start_byte, value.start_byte) if array is not None and array.type == "array" else None
    above = value.parent
    if above is not None and above.type == "sequence_expression":
        members = sequence_members(above)
        jump = members[-2] if len(members) > 1 and members[-1].id == value.id else None
        comma = jump.next_sibling if jump is not None else None
        if jump is None or comma is None or comma.type != "," or not _is_jump(edits, jump):
            return None
        return jump.start_byte, comma.end_byte
    keyword = returned.children[0]
    return (keyword.start_byte, keyword.end_byte) if above is not None and above.id == returned.id else None


def _is_jump(edits: Edits, node: Node) -> bool:
    right = node.child_by_field_name("right") if node.type == "assignment_expression" else None
    return right is not None and right.type == "number" \
        and edits.is_member(node.child_by_field_name("left"), b"next" if edits.kind == _OLD else b"n")


def _only(statement: Node) -> Node | None:
    named = _only_named(statement)
    return named[0] if len(named) == 1 else None


def _only_named(node: Node) -> list[Node]:
    return [c for c in node.named_children if c.type != "comment"]
