"""Whether an `except` clause's `try` is retried by the loop around it (docs/reference.md, the
`retry` disposition, Python): JavaScript's rule (`analyzer.javascript.handlers.retry`) over
libcst. The loop runs again only after a failure, and does not step through items: a `for`
over anything but `range(...)` or `itertools.count(...)` walks items."""

from __future__ import annotations

import libcst as cst

from analyzer.python.syntax import SCOPE_TYPES

_LOOPS = (cst.For, cst.While)
#: what a `for` may count attempts with
_COUNTERS = frozenset({"range", "count", "itertools.count"})
#: calls that take the next item from something (`stack.pop()`, `next(it)`)
_STEPPING = frozenset({"pop", "popleft", "next", "__next__"})
#: methods that read the next chunk of a stream (`f.read(n)`, `sock.recv(n)`): called on something the
#: turn did not make, each turn reads on; `get` is none (`session.get(url)` asks again for the same)
_READS = frozenset({"read", "read1", "readline", "readinto", "readinto1", "readexactly", "readuntil", "recv",
                    "recv_into", "recvfrom", "recvfrom_into", "recvmsg", "receive_some"})


def in_retry_loop(path: tuple[cst.CSTNode, ...]) -> bool:
    """The `try` (`path[-1]`, its ancestors before it) is in the body of the innermost loop of its
    function, a `while`, or a `for` over `range(...)` / `itertools.count(...)` that is left once
    the protected block succeeds (a `return` or `break` in it or in the `try`'s `else`, or one at
    the top level of the loop's body after the statement holding the `try`); and the loop does
    not step through items (`_walks_items`; for a `while`, `_takes_an_item`). A `while` runs the
    same attempt again whatever ends it (`while True`, `while should_loop`)."""
    attempt = path[-1] if path else None
    if not isinstance(attempt, (cst.Try, cst.TryStar)):
        return False
    at = len(path) - 1  # the innermost loop of the same function whose body holds the `try`
    while at >= 2 and not _is_body_of(path[at - 1], path[at - 2]):
        if isinstance(path[at - 1], SCOPE_TYPES):
            return False
        at -= 1
    if at < 2:
        return False
    loop, block, statement = path[at - 2], path[at - 1], path[at]
    if not isinstance(loop, _LOOPS) or not isinstance(block, cst.IndentedBlock):
        return False
    if isinstance(loop, cst.For) and not (_counts(loop) and (
            _leaves_loop(attempt.body) or (attempt.orelse is not None and _leaves_loop(attempt.orelse.body))
            or _left_after(statement, block))):
        return False  # a `for` that counts runs its turns whether or not they fail, unless success leaves
    # a counted `for` that success leaves makes attempts, whatever each turn takes first (tempfile's
    # `for seq in range(TMP_MAX): name = next(names); try: ...`); a `while` that takes one walks items
    return not _walks_items(loop, attempt) and (isinstance(loop, cst.For) or not _takes_an_item(statement, block))


def _is_body_of(block: cst.CSTNode, node: cst.CSTNode) -> bool:
    return isinstance(node, _LOOPS) and node.body is block


def _counts(loop: cst.For) -> bool:
    """A `for` over `range(...)` or `itertools.count(...)`."""
    return isinstance(loop.iter, cst.Call) and _dotted(loop.iter.func) in _COUNTERS


def _leaves_loop(suite: cst.BaseSuite) -> bool:
    """A `return`, or a `break` outside a nested loop, in the suite (nested functions left out)."""
    stack: list[tuple[cst.CSTNode, bool]] = [(suite, False)]
    while stack:
        node, nested = stack.pop()
        if isinstance(node, cst.Return) or (isinstance(node, cst.Break) and not nested):
            return True
        if isinstance(node, SCOPE_TYPES):
            continue
        inner = nested or isinstance(node, _LOOPS)
        stack.extend((child, inner) for child in node.children)
    return False


def _statements(block: cst.BaseSuite) -> list[cst.CSTNode]:
    """A block's statements, the small statements of a line one by one."""
    out: list[cst.CSTNode] = []
    for item in getattr(block, "body", ()):
        out.extend(item.body if isinstance(item, cst.SimpleStatementLine) else [item])
    return out


def _left_after(attempt: cst.CSTNode, block: cst.IndentedBlock) -> bool:
    """A `return` or `break` at the top level of the loop's body after the `try`: once the
    protected block succeeds the loop is left (one in an `if` is not)."""
    after = False
    for statement in block.body:
        if after and isinstance(statement, cst.SimpleStatementLine) and \
                any(isinstance(s, (cst.Return, cst.Break)) for s in statement.body):
            return True
        after = after or statement is attempt
    return False


def _walks_items(loop: cst.For | cst.While, attempt: cst.Try | cst.TryStar) -> bool:
    """A `while` whose condition assigns (`:=`), measures (`len(...)`) or takes an item
    (`.pop()`, `next(...)`); a `for` whose variable indexes something (`items[i]`) in the loop's
    body but in the `try`'s handlers: what a handler does on a failure does not change what is tried."""
    if isinstance(loop, cst.While):
        stack: list[cst.CSTNode] = [loop.test]
        while stack:
            node = stack.pop()
            if isinstance(node, cst.NamedExpr) or (isinstance(node, cst.Call) and (
                    _dotted(node.func) == "len" or _steps(node.func))):
                return True
            stack.extend(node.children)
        return _consumes(loop, attempt)
    names = {n.value for n in _names(loop.target)}
    handlers = {id(h) for h in attempt.handlers}
    stack = [loop.body]
    while stack:
        node = stack.pop()
        if id(node) in handlers or isinstance(node, SCOPE_TYPES):
            continue
        if isinstance(node, cst.Subscript) and any(
                n.value in names for element in node.slice for n in _names(element)):
            return True
        stack.extend(node.children)
    return False


def _consumes(loop: cst.While, attempt: cst.Try | cst.TryStar) -> bool:
    """A name the `while`'s condition reads is assigned in the loop's body (but in the `try`'s
    handlers) from itself, or has an item taken from it: `while value: ... token, value =
    get_token(value)`, `while tb is not None: ... tb = tb.tb_next`, `while parts: parts.pop()`."""
    tested = {n.value for n in _names(loop.test)} - {"None", "True", "False"}
    if not tested:
        return False
    handlers = {id(h) for h in attempt.handlers}
    stack: list[cst.CSTNode] = [loop.body]
    while stack:
        node = stack.pop()
        if id(node) in handlers or isinstance(node, SCOPE_TYPES):
            continue
        if isinstance(node, cst.Assign) and any(n.value in tested for t in node.targets for n in _names(t.target)) \
                and _read(node.value) & tested:
            return True
        if isinstance(node, cst.Call) and _last(node.func) in _STEPPING and isinstance(node.func, cst.Attribute) \
                and isinstance(node.func.value, cst.Name) and node.func.value.value in tested:
            return True
        stack.extend(node.children)
    return False


def _steps(callee: cst.BaseExpression) -> bool:
    """A call that takes the next item (`stack.pop()`, `next(it)`) or reads the next chunk of a
    stream (`f.read(n)`, `sock.recv(n)`: a method, `_READS`)."""
    return _last(callee) in _STEPPING or (isinstance(callee, cst.Attribute) and callee.attr.value in _READS)


def _takes_an_item(attempt: cst.CSTNode, block: cst.IndentedBlock) -> bool:
    """A statement of the loop's body before the `try` (not in a loop of its own) takes the next
    item of something the turn did not make (`job = queue.pop()`, `line = next(lines)`), or reads
    its next chunk (`data = stream.read(n)`, scrapy's `_inflate`): each turn moves on, so a failure
    does too. An iterator or stream made in the turn is new each time."""
    made: set[str] = set()
    for statement in _statements(block):
        if statement is attempt:
            return False
        stack: list[cst.CSTNode] = [statement]
        while stack:
            node = stack.pop()
            if isinstance(node, (*SCOPE_TYPES, *_LOOPS)):
                continue
            if isinstance(node, cst.Call) and _steps(node.func):
                owner = node.args[0].value if isinstance(node.func, cst.Name) and node.args else \
                    node.func.value if isinstance(node.func, cst.Attribute) else None
                while isinstance(owner, (cst.Attribute, cst.Subscript)):
                    owner = owner.value
                if not isinstance(owner, cst.Name) or owner.value not in made:
                    return True
            stack.extend(node.children)
        if isinstance(statement, cst.Assign):
            made.update(n.value for t in statement.targets for n in _names(t.target))
    return False


def _names(node: cst.CSTNode) -> list[cst.Name]:
    """The names in an assignment target or an index (`i`, `a, b`, `x[i]`'s `i`)."""
    found: list[cst.Name] = []
    stack = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, cst.Name):
            found.append(current)
        elif not isinstance(current, (cst.Attribute, *SCOPE_TYPES)):
            stack.extend(current.children)
    return found


def _read(node: cst.CSTNode) -> set[str]:
    """The names a value reads, the bases of its attributes included (`tb` of `tb.tb_next`)."""
    found: set[str] = set()
    stack = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, cst.Name):
            found.add(current.value)
        elif isinstance(current, cst.Attribute):
            stack.append(current.value)
        elif not isinstance(current, SCOPE_TYPES):
            stack.extend(current.children)
    return found


def _dotted(node: cst.BaseExpression) -> str | None:
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        base = _dotted(node.value)
        return None if base is None else f"{base}.{node.attr.value}"
    return None


def _last(node: cst.BaseExpression) -> str | None:
    """The called name's last part: `pop` of `stack.pop`, `next` of `next`."""
    return node.value if isinstance(node, cst.Name) else node.attr.value if isinstance(node, cst.Attribute) else None
