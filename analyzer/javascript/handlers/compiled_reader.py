"""One catch region of a state machine read into the edits that make it a catch clause's body
(`compiled_regions`): which cases it holds, what each idiom of the machine in it means, and
whether every one of them is a shape read exactly (else None: the region is left out)."""

from __future__ import annotations

import re

from tree_sitter import Node

from analyzer.javascript.handlers.compiled_awaits import place_aliases, read_await
from analyzer.javascript.handlers.compiled_edits import Edits, Unread, bare, case_statements, sequence_members
from analyzer.javascript.handlers.compiled_locals import region_locals
from analyzer.javascript.handlers.compiled_regions import (
    _CATCH_TEMPORARY,
    _MAX_CASES,
    _NEW,
    _NEXT,
    _OLD,
    _STATE,
    _TS,
    Machine,
    Region,
    jumps_back,
)
from analyzer.javascript.syntax import FUNCTION_TYPES

#: a condition's negation written in its place, the same length
_FLIPPED = {"!": b"", "===": b"!==", "!==": b"===", "==": b"!=", "!=": b"=="}


def read_region(machine: Machine, entry: tuple[int | None, ...]) -> Region | None:
    try:
        return _Reader(machine, entry).read()
    except Unread:
        return None


class _Reader(Edits):
    def __init__(self, machine: Machine, entry: tuple[int | None, ...]) -> None:
        super().__init__(machine)
        self.try_, self.catch, self.finally_, self.after = entry[:4]
        #: the old runtime's temporary holding the caught value
        self.temporary: bytes | None = None
        #: the abrupt calls and TypeScript arrays a return gives its value by
        self.returned_values: set[int] = set()
        #: the cases that end in a jump out of the region
        self.leaving: set[int] = set()

    def read(self) -> Region | None:
        machine, labels = self.machine, self.machine.labels
        first = machine.positions.get(self.catch) if self.catch is not None else None
        if self.catch is None or first is None:
            return None
        if self._in_loop(first):
            return None
        end = self.finally_ if self.finally_ is not None else self.after
        if end is None and self.kind != _TS:
            end = self._jumped_over(first)
        if end is None and self.kind == _TS:
            return None
        cases: list[int] = []
        at = first
        while True:
            cases.append(at)
            if len(cases) > _MAX_CASES:
                return None
            linked = self._case(at, end)
            following = at + 1
            if following >= len(labels) or labels[following] is None:
                if end is not None:
                    return None
                break
            if end is not None:
                if labels[following] == end:
                    break
                if (labels[following] or 0) > end:
                    return None
                if not linked and not self.closings.get(following) and not self.joins.get(following) \
                        and self._leaves(at):
                    return None  # a case nothing in the region reaches
            elif (not linked and not self.closings.get(following) and not self.joins.get(following)) \
                    or at in self.leaving:
                break
            at = following
        upper = end - 1 if end is not None else labels[cases[-1]] or 0  # the region's last label, at most
        for other in machine.entries:
            if other != (self.try_, self.catch, self.finally_, self.after) and any(
                    loc is not None and self.catch < loc <= upper for loc in other):
                return None  # a try inside the region: read on its own, not as this body
        if any(closing and cases[-1] < at < len(labels) for at, closing in self.closings.items()) \
                or any(at > cases[-1] or at in self.elses for at in self.joins):
            return None
        param, written = self._binding(machine.cases[first])
        self._walk(cases)
        for at in cases[1:]:
            case = machine.cases[at]
            value = case.child_by_field_name("value")
            colon = value.next_sibling if value is not None else None
            if colon is None or colon.type != ":":
                return None
            self.edits.append((case.start_byte, colon.end_byte, self.closing(at)))
        head = machine.cases[first]
        value = head.child_by_field_name("value")
        colon = value.next_sibling if value is not None else None
        if colon is None or colon.type != ":":
            return None
        self.edits.append((head.start_byte, colon.end_byte, b""))
        self._resolve_sequences()
        place_aliases(self)
        start, stop = head.start_byte, machine.cases[cases[-1]].end_byte
        if any(len(r) > e - s or s < start or e > stop for s, e, r in self.edits):
            return None
        return Region(start, stop, param, written, self.renames + self.edits,
                      region_locals(machine, start, stop, param) + [name for _, _, name in self.aliases])

    def _in_loop(self, first: int) -> bool:
        """Whether a jump from the catch case on goes back to the try's first case or before: the
        try is in a loop (its catch may `retry`, which the clause parsed alone cannot say)."""
        case = self.machine.cases[first]
        if case.parent is None or self.try_ is None:
            return True
        return jumps_back(self.machine, case, self.try_)

    def _jumped_over(self, first: int) -> int | None:
        """The location the try block's last case jumps to over the catch (`ctx.n = after; break`)."""
        if first == 0:
            return None
        statements = case_statements(self.machine.cases[first - 1])
        jump = self._goto(statements, len(statements) - (1 if self.kind == _TS else 2)) \
            if len(statements) >= 2 else None
        return jump[1] if jump is not None and jump[1] > (self.catch or 0) else None

    def _case(self, at: int, end: int | None) -> bool:
        """Reads case `at`'s jumps; whether its last statement goes on to the next case (a jump
        there, or an await continuing there)."""
        statements = case_statements(self.machine.cases[at])
        labels = self.machine.labels
        following = labels[at + 1] if at + 1 < len(labels) else None
        for k, statement in enumerate(statements):
            goto = self._goto(statements, k)
            if goto is not None:
                span, target = goto
                if k + span != len(statements):
                    raise Unread
                self._blank_goto(statements, k, span)
                if target == following and target != end:
                    return True
                if self.else_join(at, target, end):
                    return False
                # TypeScript's jump past the finally (`[3, after]`) runs the finally first: the catch ends there too
                through = self.kind == _TS and self.finally_ is not None and target == self.after
                if (end is not None and target == end) or through or (end is None and target > (labels[at] or 0)):
                    if self.closings.get(at + 1):  # `if (c) goto L; a; goto end; L: b`: an if/else
                        raise Unread
                    self.leaving.add(at)
                    return False
                raise Unread
            awaited = self._await(statements, k)
            if awaited is not None:
                span, target, value, returned = awaited
                if k + span != len(statements) or target != following or target == end:
                    raise Unread
                self.awaited[at + 1] = (value, returned)
                return True
            if statement.type == "if_statement":
                self._if_goto(statement, following, end, at)
        return False

    def _leaves(self, at: int) -> bool:
        statements = case_statements(self.machine.cases[at])
        return bool(statements) and statements[-1].type in ("throw_statement", "return_statement",
                                                            "break_statement")

    def _goto(self, statements: list[Node], k: int) -> tuple[int, int] | None:
        """(statements it spans, target) of a jump at `statements[k]`."""
        statement = statements[k]
        if self.kind == _TS:
            if statement.type == "return_statement":
                code = self._instruction(statement)
                if code is not None and code[0] == 3 and code[1] is not None:
                    number = bare(code[1])
                    if number.type == "number" and (number.text or b"").isdigit():
                        return 1, int(number.text or b"0")
            if statement.type == "expression_statement":  # `_a.label = N`: falls into case N
                target = self._assigned_next(statement)
                if target is not None:
                    return 1, target
            return None
        if statement.type == "expression_statement" and k + 1 < len(statements) \
                and statements[k + 1].type == "break_statement" and statements[k + 1].named_child_count == 0:
            target = self._assigned_next(statement)
            if target is not None:
                return 2, target
        return None

    def _assigned_next(self, statement: Node) -> int | None:
        expression = statement.named_children[0] if statement.named_child_count else None
        if expression is not None and expression.type == "sequence_expression":
            expression = sequence_members(expression)[-1]
        if expression is None or expression.type != "assignment_expression":
            return None
        left, right = expression.child_by_field_name("left"), expression.child_by_field_name("right")
        if not self.is_member(left, _NEXT[self.kind]) or right is None or right.type != "number" \
                or not (right.text or b"").isdigit():
            return None
        return int(right.text or b"0")

    def _blank_goto(self, statements: list[Node], k: int, span: int) -> None:
        statement = statements[k]
        if span == 2:
            self.edits.append((statements[k + 1].start_byte, statements[k + 1].end_byte, b""))
        if statement.type == "return_statement":  # `return a, [3, N]`: `a`
            value = statement.named_children[0]
            if value.type != "sequence_expression":
                self.edits.append((statement.start_byte, statement.end_byte, b""))
                self.unreturned.add(statement.id)
                return
            self._unreturn(statement)
            self._blank(sequence_members(value)[-1])
            return
        expression = statement.named_children[0]
        self._blank(sequence_members(expression)[-1] if expression.type == "sequence_expression" else expression)

    def _await(self, statements: list[Node], k: int) -> tuple[int, int, Node, Node] | None:
        """(statements it spans, target, the awaited value, the return holding it) of an await."""
        statement = statements[k]
        if self.kind == _TS:
            code = self._instruction(statement) if statement.type == "return_statement" else None
            if code is None or code[0] != 4 or code[1] is None:
                return None
            self._unreturn(statement)
            array = self._last_value(statement)
            self._unwrap_array(array, code[1])
            return 1, self._following_of(statement), code[1], statement
        if statement.type == "return_statement":
            value = statement.named_children[0] if statement.named_child_count else None
            if value is None or value.type != "sequence_expression":
                return None
            members = sequence_members(value)
            jump = next((m for m in members[:-1] if self._next_assignment(m) is not None), None)
            if jump is None:
                return None
            self._unreturn(statement)
            self._blank(jump)
            return 1, self._next_assignment(jump) or 0, members[-1], statement
        if statement.type == "expression_statement" and k + 1 < len(statements) \
                and statements[k + 1].type == "return_statement" and statements[k + 1].named_child_count:
            target = self._assigned_next(statement)
            if target is None or statement.named_children[0].type == "sequence_expression":
                return None
            self._blank(statement.named_children[0])
            self._unreturn(statements[k + 1])
            return 2, target, self._last_value(statements[k + 1]) or statements[k + 1], statements[k + 1]
        return None

    def _following_of(self, statement: Node) -> int:
        """The case an await continues at: TypeScript's next label."""
        case = statement.parent
        at = self.machine.starts.get(case.start_byte, -1) if case is not None else -1
        if at >= 0 and self.machine.cases[at] != case:
            at = -1
        if at < 0 or at + 1 >= len(self.machine.labels):
            raise Unread
        return self.machine.labels[at + 1] or -1

    def _next_assignment(self, node: Node) -> int | None:
        if node.type != "assignment_expression":
            return None
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        if self.is_member(left, _NEXT[self.kind]) and right is not None and right.type == "number" \
                and (right.text or b"").isdigit():
            return int(right.text or b"0")
        return None

    def _if_goto(self, statement: Node, following: int | None, end: int | None, at: int) -> bool:
        """`if (c) { ctx.n = N; break }` (TypeScript: `if (c) return [3, N]`) to the next case:
        the rest of the case is the `if`'s block (`!c`'s negation dropped) or its `else`."""
        if statement.child_by_field_name("alternative") is not None:
            return False
        consequence = statement.child_by_field_name("consequence")
        if consequence is None:
            return False
        inner = [c for c in consequence.named_children if c.type != "comment"] \
            if consequence.type == "statement_block" else [consequence]
        goto = self._goto(inner, 0) if inner else None
        if goto is None or goto[0] != len(inner):
            return False
        if goto[1] != following or following == end:
            raise Unread
        for node in inner:
            self.explain(node)
            if node.type == "return_statement":
                self.unreturned.add(node.id)
        condition = bare(statement.child_by_field_name("condition") or statement)
        if condition.type == "sequence_expression":
            condition = sequence_members(condition)[-1]
        operator = condition.children[0] if condition.type == "unary_expression" else \
            condition.child_by_field_name("operator") if condition.type == "binary_expression" else None
        flipped = _FLIPPED.get(operator.type) if operator is not None else None
        if flipped is not None and operator is not None:  # `!c` is `c`'s `else`, `a !== b` `a === b`'s
            self.edits.append((operator.start_byte, operator.end_byte, flipped))
            self.edits.append((consequence.start_byte, consequence.end_byte, b"{"))
        else:
            self.edits.append((consequence.start_byte, consequence.end_byte, b"{}else{"))
        self.closings[at + 1] = self.closings.get(at + 1, 0) + 1
        return True

    def _binding(self, case: Node) -> tuple[str | None, str | None]:
        """The catch case's own idioms (`ctx.p = N`, the caught value's binding) blanked; the
        caught value's name in the clause and as written."""
        statements = case_statements(case)
        if not statements:
            raise Unread
        stack = list(reversed(statements[:2]))
        state = binding = None
        while stack:
            node = stack.pop()
            if node.type in FUNCTION_TYPES:
                continue
            if node.type == "assignment_expression" and self.kind != _TS and state is None \
                    and self.is_member(node.child_by_field_name("left"), _STATE[self.kind]):
                right = node.child_by_field_name("right")
                if right is None or right.text != str(self.catch).encode():
                    raise Unread
                state = node
            elif binding is None and self._caught(node):
                binding = node
            stack.extend(reversed(node.named_children))
        if self.kind != _TS and state is None:
            raise Unread
        if state is not None:
            self._blank(state)
        if binding is None:
            if self.kind == _OLD:
                raise Unread
            return None, None
        parent = binding.parent
        if parent is not None and parent.type == "assignment_expression" \
                and parent.child_by_field_name("right") == binding:
            left = parent.child_by_field_name("left")
            if left is None:
                raise Unread
            if self.kind == _OLD and left.type != "identifier":  # `t.t0 = t.catch(0)`; a local (`_t =`) below
                prop = left.child_by_field_name("property") if left.type == "member_expression" else None
                if prop is None or not _CATCH_TEMPORARY.fullmatch(prop.text or b"") \
                        or not self.is_member(left, prop.text or b""):
                    raise Unread
                self._blank(parent)
                self.temporary = prop.text
                written = (left.text or b"").decode()
                return written.replace(".", "$"), written
            if left.type != "identifier":
                raise Unread
            self.explain(binding)
            name = (left.text or b"").decode()
            self._as_value(parent, left.text or b"")
            return name, name
        outer = binding
        while outer.parent is not None and outer.parent.type == "parenthesized_expression":
            outer = outer.parent
        above = outer.parent
        if above is not None and (above.type == "expression_statement" or (
                above.type == "sequence_expression" and sequence_members(above)[-1].id != outer.id)):
            self._blank(binding)  # `catch {}`: `t.prev = 3, t.catch(1)`
            return None, None
        if self.kind == _OLD:
            raise Unread
        # the caught value used where it is read, unnamed (`return [2, e.sent()]`): named in place
        self.explain(binding)
        unnamed = re.sub(rb"[^\w$]", b"$", binding.text or b"")
        self.renames.append((binding.start_byte, binding.end_byte, unnamed))
        return unnamed.decode(), None

    def _caught(self, node: Node) -> bool:
        """The read of the caught value: `ctx.catch(L)`, `ctx["catch"](L)`, `ctx.v`, `ctx.sent()`."""
        if self.kind == _NEW:
            return self.is_member(node, b"v")
        if node.type != "call_expression":
            return False
        callee = node.child_by_field_name("function")
        if self.kind == _TS:
            arguments = node.child_by_field_name("arguments")
            return self.is_member(callee, b"sent") and arguments is not None and arguments.named_child_count == 0
        if callee is None:
            return False
        if callee.type == "subscript_expression":
            index = callee.child_by_field_name("index")
            named = (callee.child_by_field_name("object") or callee).text == self.context and index is not None \
                and index.text in (b'"catch"', b"'catch'")
        else:
            named = self.is_member(callee, b"catch")
        arguments = node.child_by_field_name("arguments")
        given = arguments.named_children if arguments is not None else []
        return named and len(given) == 1 and given[0].text == str(self.try_).encode()

    def _as_value(self, assignment: Node, name: bytes) -> None:
        """`X = ctx.v` where its value is used, `(X = ctx.v).code`: `X`; else blanked."""
        parent = assignment.parent
        outer = assignment
        while parent is not None and parent.type == "parenthesized_expression":
            outer, parent = parent, parent.parent
        if parent is not None and (parent.type == "expression_statement" or (
                parent.type == "sequence_expression" and sequence_members(parent)[-1].id != outer.id)):
            self._blank(assignment)
            return
        self.edits.append((outer.start_byte, outer.end_byte, b" " * (assignment.start_byte - outer.start_byte) + name))

    def _walk(self, cases: list[int]) -> None:
        """Every use of the context in the region read as one of the idioms, else unread."""
        for at in cases:
            awaited = at in self.awaited
            if awaited:
                read_await(self, at, cases)
            stack = list(self.machine.cases[at].named_children)
            while stack:
                node = stack.pop()
                if node.type in FUNCTION_TYPES:
                    if self.temporary is not None and self.context + b"." + self.temporary in (node.text or b""):
                        raise Unread  # a closure reads the caught temporary: not renamed there (a parameter may shadow)
                    continue
                if node.type == "return_statement":
                    self._returned(node)
                if node.type in ("member_expression", "subscript_expression") and node.id not in self.explained:
                    owner = node.child_by_field_name("object")
                    if owner is not None and owner.type == "identifier" and owner.text == self.context:
                        self._use(node, awaited)
                stack.extend(node.named_children)

    def _use(self, member: Node, awaited: bool) -> None:
        name = (member.child_by_field_name("property") or member).text or b""
        if member.type == "member_expression" and self.kind == _OLD and name == self.temporary:
            self.renames.append((member.start_byte, member.end_byte, (member.text or b"").replace(b".", b"$")))
            return
        parent = member.parent
        value = parent if self.kind == _TS and parent is not None and parent.type == "call_expression" else member
        if awaited and member.type == "member_expression" and name == {_OLD: b"sent", _NEW: b"v", _TS: b"sent"}[
                self.kind] and self._whole(value):
            return  # an await's value, where no temporary of the machine is read with it
        raise Unread

    def _whole(self, value: Node) -> bool:
        """Whether an await's value is used whole: a statement, assigned to a name, returned, thrown;
        in an operand or an argument it may be read with temporaries the machine saved before it
        (`_t2(_t3, _context.v)` for `f(e, await g())`), which the clause would not read as the source."""
        parent = value.parent
        while parent is not None and parent.type == "parenthesized_expression":
            value, parent = parent, parent.parent
        if parent is None:
            return False
        if parent.type in ("expression_statement", "sequence_expression", "throw_statement", "return_statement"):
            return True
        if parent.type == "assignment_expression":
            left = parent.child_by_field_name("left")
            return parent.child_by_field_name("right") == value and left is not None and left.type == "identifier"
        if parent.type == "arguments" or parent.type == "array":  # `ctx.a(2, v)`, `[2, v]`
            above = parent.parent if parent.type == "arguments" else parent
            return above is not None and above.id in self.returned_values
        return False

    def _returned(self, statement: Node) -> None:
        """A return of the machine: `ctx.abrupt("return", v)`, `ctx.a(2, v)`, `[2, v]` is `return v`."""
        if statement.id in self.unreturned:
            return
        value = self._last_value(statement)
        if value is not None:
            self.returned_values.add(value.id)
        if self.kind == _TS:
            code = self._instruction(statement)
            if code is None or code[0] != 2:
                raise Unread
            if code[1] is not None:
                self._unwrap_array(value, code[1])
            else:
                self._undefined(statement, value)
            return
        if value is None or value.type != "call_expression":
            raise Unread
        callee = value.child_by_field_name("function")
        arguments = value.child_by_field_name("arguments")
        given = [a for a in arguments.named_children if a.type != "comment"] if arguments is not None else []
        kind = given[0].text if given else None
        wanted = b"abrupt" if self.kind == _OLD else b"a"
        if not self.is_member(callee, wanted) or kind not in (b'"return"', b"'return'", b"2") or len(given) > 2:
            raise Unread
        self.explain(callee) if callee is not None else None
        if len(given) == 2:
            self._unwrap_array(value, given[1])
        else:
            self._undefined(statement, value)

    def _undefined(self, statement: Node, value: Node | None) -> None:
        """A return of nothing: the statement's value blanked, or `0` in its sequence's place."""
        if value is None:
            raise Unread
        if statement.named_children[0].id == value.id:
            self.edits.append((value.start_byte, value.end_byte, b""))
        else:
            self.edits.append((value.start_byte, value.end_byte, b"0"))
        self.explain(value)
