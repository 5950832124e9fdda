"""What a new error thrown, returned or rejected in a handler keeps of the caught value: its
`wrap`'s cause, `kept`, `partial` or `lost` (docs/reference.md, "Dispositions", `wrap`)."""

from __future__ import annotations

from typing import get_args

from tree_sitter import Node

from analyzer.facts import DispositionFacts
from analyzer.javascript.handlers.body import Body, Key
from analyzer.javascript.handlers.shapes import field_owner, is_object_assign, keeps_as_field, named, short
from analyzer.javascript.syntax import without_parentheses
from analyzer.model import CauseKept, made

#: built-in error classes whose first argument is the message (AggregateError's is its errors)
_MESSAGE_FIRST = frozenset({b"Error", b"TypeError", b"RangeError", b"SyntaxError", b"ReferenceError", b"EvalError",
                            b"URIError"})
#: those the default rules' constructors make callsites of (the inventory resolves them)
_INVENTORIED = frozenset({b"Error", b"TypeError", b"RangeError"})
#: the causes in the vocabulary's order, best kept first (`None`: no cause, last)
CAUSES: dict[str | None, int] = {kind: at for at, kind in enumerate(get_args(CauseKept))} | {None: 3}
_disposition = made(DispositionFacts)


class NewErrors(Body):
    """A handler's body as its new errors read it: what each keeps of the caught value."""

    def _wrap(self, value: Node) -> DispositionFacts:
        """A new error thrown, returned or rejected; its cause from what it is given."""
        local = self.key(value) if value.type == "identifier" else None
        made = self.walked.made.get(local) or self.call_held(value) if local is not None else None
        construction = made if made is not None else value
        assigned: list[Node] = []  # `Object.assign(new X(m), {cause: e})`: the fields given to it
        if is_object_assign(construction):
            given = [without_parentheses(a) for a in named(construction.child_by_field_name("arguments"))]
            construction, assigned = (given[0], given[1:]) if given else (construction, [])
        cause = self._cause(construction)
        for fields in assigned:
            cause = _best(cause, self._cause_given(fields))
        if local is not None:  # its fields assigned in the body: `n.cause = e`, `outer.message = e.message`
            cause = _best(cause, self._cause_assigned(local))
        entry = self.known.get((construction.start_byte, construction.end_byte))
        sites = (entry[1],) if entry is not None and entry[0] == "error" else ()
        slot = "constructor" if construction.type == "new_expression" else "function"
        callee = construction.child_by_field_name(slot)
        return _disposition("wrap", cause, sites, short(callee) if callee is not None else None)

    def _cause(self, construction: Node) -> CauseKept:
        """`kept` when the caught value is an argument or a field of an object argument
        (`{cause: e}`), `partial` when it occurs otherwise (`e.message`, `${e}`, a method of it
        called: `e.unwrap()`), else `lost`."""
        if construction.type in ("new_expression", "call_expression"):
            arguments = named(construction.child_by_field_name("arguments"))
        else:
            arguments = [construction]
        if self._builtin_error(construction):  # it reads a message and its options' `cause`, nothing else
            options = without_parentheses(arguments[1]) if len(arguments) > 1 else None
            if options is not None and self._object_keeps(options, b"cause"):
                return "kept"
        elif any(self._is_caught(a) or self._object_keeps(a) for a in map(without_parentheses, arguments)) \
                or self._array_keeps(construction):
            return "kept"
        callee = construction.child_by_field_name("function") if construction.type == "call_expression" else None
        read = [*arguments, callee] if callee is not None else arguments  # `e.getActualError()` is read from it
        return "partial" if any(self._mentions(a) for a in read) else "lost"

    def _cause_given(self, fields: Node) -> CauseKept:
        """What an object of fields given to the new error carries of the caught value."""
        return "kept" if self._object_keeps(fields) else "partial" if self._mentions(fields) else "lost"

    def _object_keeps(self, argument: Node, key: bytes | None = None) -> bool:
        """An object literal with the caught value as a field's value (`{cause: e}`, `{e}`; the
        field `key` when given), or a local bound to one (`const o = {cause: e}; new Error(m, o)`)."""
        aliases = self.walked.aliases
        names, refers = {alias[0] for alias in aliases}, self.refers(aliases)
        if argument.type == "identifier":
            literal = self.walked.keeping.get(self.key(argument))
            return literal is not None and keeps_as_field(literal, names, key, refers)
        return keeps_as_field(argument, names, key, refers)

    def _array_keeps(self, argument: Node) -> bool:
        """An array literal with the caught value as an element, itself rejected or thrown
        (`reject([e])`); given to a call or a constructor, it is read as any argument is."""
        return argument.type == "array" and any(self._is_caught(without_parentheses(element))
                                                 for element in named(argument))

    def _builtin_error(self, construction: Node) -> bool:
        """A built-in error class whose first argument is the message (`Error`, `TypeError`, ...):
        the global one, as the inventory resolves it, for the constructors of its rules."""
        if construction.type not in ("new_expression", "call_expression"):
            return False
        callee = construction.child_by_field_name("constructor" if construction.type == "new_expression"
                                                  else "function")
        name = callee.text if callee is not None and callee.type == "identifier" else None
        if name not in _MESSAGE_FIRST:
            return False
        entry = self.known.get((construction.start_byte, construction.end_byte))
        return (entry is not None and entry[0] == "error") or name not in _INVENTORIED

    def _cause_assigned(self, name: Key) -> CauseKept:
        """What `n.field = ...` assignments in the body carry of the caught value into the error n
        thrown or rejected (a local new error, or one from outside the handler)."""
        out: CauseKept = "lost"
        for node in self.walked.nodes:
            if node.type != "assignment_expression":
                continue
            left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
            target = field_owner(left) if left is not None else None
            if target is None or right is None or target.type != "identifier" or self.key(target) != name:
                continue
            right = without_parentheses(right)
            out = _best(out, "kept" if self._is_caught(right) else "partial" if self._mentions(right) else "lost")
        return out


def _best(a: CauseKept, b: CauseKept) -> CauseKept:
    return a if CAUSES[a] <= CAUSES[b] else b
