"""Whether a catch clause's `try` is retried by the loop around it (docs/reference.md, the
`retry` disposition): the loop runs again only after a failure, and does not step through items."""

from __future__ import annotations

import bisect
from collections.abc import Sequence

from tree_sitter import Node

from analyzer.javascript.handlers.shapes import BOUNDARIES, first_named, mentions, named, operator_of
from analyzer.javascript.syntax import same, without_parentheses

#: loops a `retry` may be made of: a `for...of`/`for...in` walks items, it does not retry
_RETRY_LOOPS = frozenset({"while_statement", "do_statement", "for_statement"})
#: statements an unlabelled `break` inside them leaves instead of the enclosing loop
_BREAK_TARGETS = frozenset({"for_statement", "for_in_statement", "while_statement", "do_statement",
                            "switch_statement"})
_LOOPS = _BREAK_TARGETS - {"switch_statement"}
#: the properties of a loop condition that steps through items
_STEPPING = frozenset({b"length", b"pop", b"shift", b"next"})
#: methods that read the next chunk of a stream (`stream.read()`, a web stream reader's `reader.read()`,
#: `fs.readSync(fd, buf)`): each turn reads on, as one that takes an item moves on
_READS = frozenset({b"read", b"readSync"})


def in_retry_loop(chain: list[Node]) -> bool:
    """A catch clause (ancestors `chain`, innermost first) whose try statement is the body of a
    `while`, `do` or `for(;;)` loop, or a statement of it, and whose protected block leaves the
    loop when it succeeds (`_leaves_loop`, or a statement after the try: `_left_after`), in a loop
    that does not walk items (`_walks_items`, `_takes_an_item`)."""
    if len(chain) < 2:
        return False
    statement, holder = chain[0], chain[1]
    if holder.type == "statement_block" and len(chain) > 2:
        statement, holder = holder, chain[2]
    if holder.type not in _RETRY_LOOPS or not same(holder.child_by_field_name("body"), statement):
        return False
    protected = chain[0].child_by_field_name("body")
    return protected is not None and (_leaves_loop(protected) or _left_after(chain[0], statement)
                                      or _sets_the_condition(holder, protected)) \
        and not _walks_items(holder, chain[0].child_by_field_name("handler")) \
        and (same(statement, chain[0]) or not _takes_an_item(chain[0], statement))


def _sets_the_condition(loop: Node, block: Node) -> bool:
    """Whether the loop runs while a name is unset (`while (!r)`, `do ... while (!r)`, and `for (; !r; )`,
    how esbuild and terser write that `while`; a `for` with an increment steps instead) and a top-level
    statement of the protected block assigns it (`r = await connect()`), or while a field of a name is
    unset (`while (!r.ok)`) and one assigns the name an object whose field is true (`r = {ok: true, value}`,
    `{ok: !0, ...}`): success ends the loop."""
    stepping = loop.type == "for_statement" and loop.child_by_field_name("increment") is not None
    condition = None if stepping else loop.child_by_field_name("condition")
    condition = without_parentheses(condition) if condition is not None else None
    if condition is None or condition.type != "unary_expression" or operator_of(condition) != "!":
        return False
    operand = condition.child_by_field_name("argument")
    name = without_parentheses(operand) if operand is not None else None
    if name is not None and name.type == "member_expression":
        owner, field = name.child_by_field_name("object"), name.child_by_field_name("property")
        return owner is not None and field is not None and owner.type == "identifier" \
            and field.type == "property_identifier" \
            and any(_sets_true(statement, owner.text, field.text) for statement in named(block))
    return name is not None and name.type == "identifier" and any(
        _assigned_names(statement) & {name.text} for statement in named(block))


def _sets_true(statement: Node, name: bytes | None, key: bytes | None) -> bool:
    """Whether an expression statement assigns `name` an object literal whose `key` is `true` or `!0`."""
    expression = first_named(statement) if statement.type == "expression_statement" else None
    expression = without_parentheses(expression) if expression is not None else None
    parts = named(expression) if expression is not None and expression.type == "sequence_expression" \
        else [expression] if expression is not None else []
    for part in parts:
        left, right = part.child_by_field_name("left"), part.child_by_field_name("right")
        if part.type != "assignment_expression" or left is None or right is None or left.text != name:
            continue
        value = without_parentheses(right)
        for pair in named(value) if value.type == "object" else []:
            given = pair.child_by_field_name("value") if pair.type == "pair" else None
            if (pair.child_by_field_name("key") or pair).text == key and given is not None \
                    and given.text in (b"true", b"!0"):
                return True
    return False


def _assigned_names(statement: Node) -> set[bytes | None]:
    """The names an expression statement assigns at its top level (`r = f()`, `n++, r = f()`)."""
    expression = first_named(statement) if statement.type == "expression_statement" else None
    expression = without_parentheses(expression) if expression is not None else None
    if expression is None:
        return set()
    parts = named(expression) if expression.type == "sequence_expression" else [expression]
    lefts = [part.child_by_field_name("left") for part in parts if part.type == "assignment_expression"]
    return {left.text for left in lefts if left is not None and left.type == "identifier"}


def loop_exits(parts: Sequence[Node]) -> tuple[list[Node], list[Node]]:
    """The unlabelled `break` and `continue` statements among a catch clause's branch statements
    `parts` that leave the loop around its try, or go on to its next attempt: not those of a loop
    (or, for a `break`, a `switch`) nested in them, nor of a nested function or class (a labelled
    one may name a statement of the body: left out)."""
    breaks: list[Node] = []
    continues: list[Node] = []
    words = _words_in(parts, (b"break", b"continue"))
    stack = [(part, False) for part in parts if _holds(words, part)]
    while stack:
        node, in_switch = stack.pop()
        kind = node.type
        if kind in ("break_statement", "continue_statement"):
            if not node.named_children and not (in_switch and kind == "break_statement"):
                (breaks if kind == "break_statement" else continues).append(node)
        elif kind not in BOUNDARIES and kind not in _LOOPS:
            inner = in_switch or kind == "switch_statement"
            stack.extend((child, inner) for child in node.named_children if _holds(words, child))
    return breaks, continues


def _words_in(nodes: Sequence[Node], words: tuple[bytes, ...]) -> list[int] | None:
    """The offsets where one of `words` occurs in the bytes of `nodes`, sorted: a statement
    (`return`, `break`, `continue`) holds its keyword, so a node that holds none of them holds no
    such statement and its walk is left out. None (every node walked) where a parse error may
    have made a keyword MISSING."""
    if any(node.has_error for node in nodes):
        return None
    out: list[int] = []
    for node in nodes:
        raw, base = node.text or b"", node.start_byte
        for word in words:
            at = raw.find(word)
            while at >= 0:
                out.append(base + at)
                at = raw.find(word, at + 1)
    out.sort()
    return out


def _holds(offsets: list[int] | None, node: Node) -> bool:
    """Whether one of the sorted `offsets` lies in the node's bytes (None: any node may)."""
    if offsets is None:
        return True
    at = bisect.bisect_left(offsets, node.start_byte)
    return at < len(offsets) and offsets[at] < node.end_byte


def _left_after(attempt: Node, body: Node) -> bool:
    """Whether a statement of the loop's body after the try statement `attempt`, at its top
    level, is a `return` or a `break`: once the protected block succeeds the loop is left
    (tedious's parsers: `while (true) { try { r = read() } catch (e) { ...; continue } use(r);
    return done(r) }`). One in an `if` is not: the loop may go on to another item."""
    after = False
    for child in body.named_children:
        if after and child.type in ("return_statement", "break_statement"):
            return True
        after = after or same(child, attempt)
    return False


def _leaves_loop(block: Node) -> bool:
    """Whether a `return`, or a `break` not inside a nested loop or switch, is in the block
    (nested functions left out)."""
    words = _words_in([block], (b"return", b"break"))
    stack = [(block, False)] if words is None or words else []
    while stack:
        node, nested = stack.pop()
        kind = node.type
        if kind == "return_statement" or (kind == "break_statement" and not nested):
            return True
        if kind in BOUNDARIES and kind != "catch_clause":
            continue
        inner = nested or kind in _BREAK_TARGETS
        stack.extend((child, inner) for child in node.named_children if _holds(words, child))
    return False


def _reads(callee: Node | None) -> bool:
    """A method that reads the next chunk of a stream (`_READS`): `stream.read(n)`, `reader.read()`."""
    name = callee.child_by_field_name("property") if callee is not None and callee.type == "member_expression" \
        else None
    return name is not None and name.text in _READS


def _takes_an_item(attempt: Node, body: Node) -> bool:
    """Whether a statement of the loop's body before the try statement `attempt` (not inside a loop of
    its own) calls `.next()`, `.pop()` or `.shift()` of something the turn did not make (`const {value,
    done} = await it.next()`, mercurius's filtered subscription), or reads its next chunk (`.read()`,
    `const {value, done} = await reader.read()`): each turn of the loop takes another item, so a failure
    moves on. An iterator or stream made in the turn (`let r = attempts(); r.next()`) is new each time:
    the loop may retry."""
    made: set[bytes] = set()  # the names the turn declares before the try
    for child in body.named_children:
        if same(child, attempt):
            return False
        if child.type in ("lexical_declaration", "variable_declaration"):
            made.update(n.text for d in named(child) if (n := d.child_by_field_name("name")) is not None and n.text)
        stack = [child]
        while stack:
            node = stack.pop()
            if node.type in BOUNDARIES or node.type in _LOOPS:
                continue
            callee = node.child_by_field_name("function") if node.type == "call_expression" else None
            name = callee.child_by_field_name("property") if callee is not None and \
                callee.type == "member_expression" else None
            if name is not None and (name.text in _STEPPING - {b"length"} or name.text in _READS):
                owner = callee.child_by_field_name("object") if callee is not None else None
                while owner is not None and owner.type == "member_expression":
                    owner = owner.child_by_field_name("object")
                if owner is None or owner.type != "identifier" or owner.text not in made:
                    return True
            stack.extend(node.named_children)
    return False


def _walks_items(loop: Node, handler: Node | None) -> bool:
    """Whether a loop steps through items rather than attempts: its condition assigns or reads a
    `.length` or calls `.pop()`/`.shift()`/`.next()` (`while (x = stack.pop())`), or a `for`
    loop's variable indexes something in its body (`a[i]`) but in the `handler` of the try: what
    the handler does on a failure does not change what is tried (@azure/msal-browser's `for (let
    i = 0; i <= maxRetries; i++) { try { storage.setItem(k, v); break } catch (e) { ...;
    this.removeAccessToken(keys[i]) } }` tries the same write each turn)."""
    condition = loop.child_by_field_name("condition")
    stack = [condition] if condition is not None else []
    while stack:
        node = stack.pop()
        if node.type in ("assignment_expression", "augmented_assignment_expression"):
            return True
        if node.type == "member_expression" and (node.child_by_field_name("property") or node).text in _STEPPING:
            return True
        if node.type == "call_expression" and _reads(node.child_by_field_name("function")):
            return True  # `while (stream.read(n))`
        stack.extend(node.named_children)
    if loop.type != "for_statement":
        return False
    names: set[bytes] = set()
    for part in named(loop.child_by_field_name("initializer")):  # `let i = 0, n = 3` or `i = 0`
        for member in [part, *named(part)]:
            name = member.child_by_field_name("name" if member.type == "variable_declarator" else "left")
            if member.type in ("variable_declarator", "assignment_expression") and name is not None:
                names.add(name.text or b"")
    body = loop.child_by_field_name("body")
    stack = [body] if body is not None else []
    while stack:
        node = stack.pop()
        if handler is not None and same(node, handler):
            continue
        if node.type == "subscript_expression":
            index = node.child_by_field_name("index")
            if index is not None and mentions(index, names):
                return True
        stack.extend(node.named_children)
    return False
