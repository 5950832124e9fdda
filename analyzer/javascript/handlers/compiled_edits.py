"""The edits a catch region's reading makes (`compiled_reader`): an expression blanked where its
value is discarded (its statement, or it in its sequence, with a comma), a `return` keyword
blanked (an await's), an instruction's array unwrapped to its value, the blocks of a compiled
`if`/`else` each case label closes or opens; and the context's members the edits account for."""

from __future__ import annotations

from tree_sitter import Node

from analyzer.javascript.handlers.compiled_regions import Machine


class Unread(Exception):
    """A shape of the region that is not read exactly."""


def sequence_members(sequence: Node) -> list[Node]:
    return [c for c in sequence.named_children if c.type != "comment"]


def case_statements(case: Node) -> list[Node]:
    value = case.child_by_field_name("value")
    after = value.end_byte if value is not None else case.start_byte
    return [c for c in case.named_children if c.start_byte >= after and c != value and c.type != "comment"]


def bare(node: Node) -> Node:
    while node.type == "parenthesized_expression" and node.named_child_count == 1:
        node = node.named_children[0]
    return node


class Edits:
    """A region's edits as they are found: applied in order, the renames first."""

    def __init__(self, machine: Machine) -> None:
        self.machine = machine
        self.kind = machine.kind
        self.context = machine.context
        self.renames: list[tuple[int, int, bytes]] = []
        self.edits: list[tuple[int, int, bytes]] = []
        #: sequence members blanked, by sequence id: (sequence, members)
        self.blanked: dict[int, tuple[Node, list[Node]]] = {}
        #: return statements whose keyword is blanked
        self.unreturned: set[int] = set()
        #: the context's members the shapes read (by node id)
        self.explained: set[int] = set()
        #: the cases an await goes on at, by position: the awaited value and the return it is in
        self.awaited: dict[int, tuple[Node, Node]] = {}
        #: the awaited values named where the next case reads them (`compiled_awaits`): the span
        #: blanked before each, where `name=` is written, and the name
        self.aliases: list[tuple[int, int, bytes]] = []
        #: the blocks of compiled `if`s each case closes (by position)
        self.closings: dict[int, int] = {}
        #: an `if`/`else` (`if (!c) goto L; a; goto J; L: b; J:`): the cases that start an `else`
        #: (L), and how many `else` blocks each case closes (J)
        self.elses: set[int] = set()
        self.joins: dict[int, int] = {}
        #: each `else` block's first case and join, to keep them nested
        self.else_spans: list[tuple[int, int]] = []

    def else_join(self, at: int, target: int, end: int | None) -> bool:
        """Whether case `at` ends an `if`'s arm with a jump over the `else` to the join (`if (!c)
        { ctx.n = L; break } a; ctx.n = J; break; case L: b; case J:`, how regenerator compiles an
        `if`/`else` holding a `throw` or an await): `if (c) { a } else { b }`, the next case's
        closing written `}else{`, the join's `}`. One `if` only jumps to the next case (two would
        be `if (c && d)`, whose `else` is no block of the inner one), an `else` open around it
        joins at or after this one's (nested blocks), and the join is inside the region."""
        labels, positions = self.machine.labels, self.machine.positions
        following = at + 1
        if self.closings.get(following) != 1 or following >= len(labels) or following in self.joins:
            return False
        joined = positions.get(target)
        if joined is None or joined <= following or (end is not None and target >= end) \
                or any(start <= at < join < joined for start, join in self.else_spans):
            return False
        self.else_spans.append((following, joined))
        self.elses.add(following)
        self.joins[joined] = self.joins.get(joined, 0) + 1
        return True

    def closing(self, at: int) -> bytes:
        """What case `at`'s label is written as: the blocks it closes, or the `else` it starts."""
        own = b"}else{" if at in self.elses else b"}" * self.closings.get(at, 0)
        return b"}" * self.joins.get(at, 0) + own

    def is_member(self, node: Node | None, name: bytes) -> bool:
        if node is None or node.type != "member_expression":
            return False
        owner, prop = node.child_by_field_name("object"), node.child_by_field_name("property")
        return owner is not None and owner.text == self.context and prop is not None and prop.text == name

    def explain(self, node: Node) -> None:
        stack = [node]
        while stack:
            current = stack.pop()
            if current.type in ("member_expression", "subscript_expression"):
                self.explained.add(current.id)
            stack.extend(current.named_children)

    def _instruction(self, statement: Node) -> tuple[int, Node | None] | None:
        """TypeScript's `return [op, value]`, the array alone or a sequence's last member."""
        array = self._last_value(statement)
        if array is None or array.type != "array":
            return None
        elements = [c for c in array.named_children if c.type != "comment"]
        if not elements or elements[0].type != "number" or not (elements[0].text or b"").isdigit() \
                or len(elements) > 2:
            return None
        return int(elements[0].text or b"0"), elements[1] if len(elements) == 2 else None

    @staticmethod
    def _last_value(statement: Node) -> Node | None:
        value = statement.named_children[0] if statement.named_child_count else None
        if value is not None and value.type == "sequence_expression":
            value = sequence_members(value)[-1]
        return value

    def _unwrap_array(self, array: Node | None, value: Node) -> None:
        if array is None:
            raise Unread
        self.edits.append((array.start_byte, value.start_byte, b""))
        self.edits.append((value.end_byte, array.end_byte, b""))

    def _unreturn(self, statement: Node) -> None:
        keyword = statement.children[0]
        self.edits.append((keyword.start_byte, keyword.end_byte, b""))
        self.unreturned.add(statement.id)

    def _blank(self, node: Node) -> None:
        """Blanks an expression whose value is discarded: its statement, or it in its sequence."""
        parent = node.parent
        while parent is not None and parent.type == "parenthesized_expression":
            node, parent = parent, parent.parent
        if parent is None:
            raise Unread
        if parent.type == "expression_statement":
            self.edits.append((parent.start_byte, parent.end_byte, b""))
        elif parent.type == "sequence_expression":
            self.blanked.setdefault(parent.id, (parent, []))[1].append(node)
        else:
            raise Unread
        self.explain(node)

    def _resolve_sequences(self) -> None:
        for sequence, gone in self.blanked.values():
            members = sequence_members(sequence)
            ids = {m.id for m in gone}
            if all(m.id in ids for m in members):
                parent = sequence.parent
                if parent is not None and (parent.type == "expression_statement" or parent.id in self.unreturned):
                    self.edits.append((parent.start_byte, parent.end_byte, b""))
                    continue
                raise Unread
            last = members[-1]
            for member in gone:
                if member.id == last.id:
                    comma = member.prev_sibling
                    self.edits.append((comma.start_byte if comma is not None else member.start_byte,
                                       member.end_byte, b""))
                    above = sequence.parent
                    if above is not None and above.type in ("return_statement", "throw_statement") \
                            and above.id not in self.unreturned:
                        raise Unread  # what it returns or throws is gone
                else:
                    comma = member.next_sibling
                    self.edits.append((member.start_byte, comma.end_byte if comma is not None else member.end_byte,
                                       b""))
