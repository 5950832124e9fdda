"""Whether a Python handler branch's end is certainly reached on a path that meets none of its
dispositions (docs/reference.md, "Dispositions", Python): the rule of
`analyzer.javascript.handlers.fallthrough` over libcst. Only an `if` whose arms do not both
decide, the right of `and` / `or` and the arms of `x if c else y` can fail to decide; any other
statement holding a disposition, a `raise`, `return`, `break` or `continue` (a loop, `try`,
`with`, `match`) is taken to decide."""

from __future__ import annotations

import libcst as cst

from analyzer.python.syntax import HANDLER_TYPES, SCOPE_TYPES, dotted

_LEAVING = (cst.Raise, cst.Return, cst.Break, cst.Continue)
_ENDS = (cst.Raise, cst.Return, cst.Break)
_SILENT = (cst.Pass, cst.Import, cst.ImportFrom, cst.Global, cst.Nonlocal)
#: decorators that drive a generator as a coroutine, awaiting what it yields (`@defer.inlineCallbacks`,
#: `@gen.coroutine`, `@gen.engine`, `@asyncio.coroutine`, `@types.coroutine`)
_DRIVERS = frozenset({"inlineCallbacks", "coroutine", "engine"})
#: nesting past which a construct is unclear (and so decides): the walk stays bounded
_DEPTH = 64


class Fallthrough:
    """Decides over the statements of one branch, given the ids of the nodes that are dispositions."""

    def __init__(self, deciding: set[int],
                 turn: type[cst.CSTNode] | tuple[type[cst.CSTNode], ...] = cst.Continue) -> None:
        self._ids = deciding
        #: the statement that ends a path at the loop around the `try` (`turns`)
        self._turn = turn

    def silent_path(self, statements: list[cst.CSTNode]) -> bool:
        return not any(self._statement(s, 0) for s in statements)

    def turns(self, statements: list[cst.CSTNode]) -> tuple[bool, bool]:
        """(a path meets none of the deciding nodes and reaches a `continue` (or the `turn` given)
        of the loop around the `try`, one reaches the end so); a loop of the branch decides when
        it holds one."""
        return self._turns(statements, 0)

    def _turns(self, statements: list[cst.CSTNode], depth: int) -> tuple[bool, bool]:
        """(a path reaches the `turn` meeting no deciding node, a path reaches the end so)."""
        around = False
        for node in statements:
            if isinstance(node, self._turn):
                return True, False
            if isinstance(node, cst.If) and depth <= _DEPTH and not self._expression(node.test, depth + 1):
                arms = [self._turns(_flat(node.body), depth + 1)]
                if isinstance(node.orelse, cst.If):
                    arms.append(self._turns([node.orelse], depth + 1))
                elif isinstance(node.orelse, cst.Else):
                    arms.append(self._turns(_flat(node.orelse.body), depth + 1))
                else:
                    arms.append((False, True))
                around = around or any(a for a, _ in arms)
                if not any(through for _, through in arms):
                    return around, False
            elif self._statement(node, depth):
                return around, False
        return around, True

    def _holds(self, node: cst.CSTNode) -> bool:
        """Whether a disposition node lies in `node`, outside nested scopes and handlers."""
        stack = [node]
        while stack:
            current = stack.pop()
            if id(current) in self._ids:
                return True
            if current is not node and isinstance(current, SCOPE_TYPES):
                continue
            stack.extend(c for c in current.children if not isinstance(c, HANDLER_TYPES))
        return False

    def _suite(self, suite: cst.BaseSuite | cst.Else | cst.If, depth: int) -> bool:
        if isinstance(suite, cst.If):  # an `elif`
            return self._statement(suite, depth)
        if isinstance(suite, cst.Else):
            suite = suite.body
        return any(self._statement(s, depth + 1) for s in _flat(suite))

    def _statement(self, node: cst.CSTNode, depth: int) -> bool:
        if isinstance(node, _LEAVING):
            return True
        if isinstance(node, _SILENT):
            return False
        if depth > _DEPTH:
            return self._holds(node)
        if isinstance(node, cst.Expr):
            return self._expression(node.value, depth + 1)
        if isinstance(node, cst.If):
            if self._expression(node.test, depth + 1):
                return True
            return node.orelse is not None and self._suite(node.body, depth + 1) and \
                self._suite(node.orelse, depth + 1)
        return self._holds(node)  # a loop, `try`, `with`, `match`, an assignment: unclear, decides if it holds one

    def _expression(self, node: cst.BaseExpression, depth: int) -> bool:
        if id(node) in self._ids:
            return True
        if depth > _DEPTH:
            return self._holds(node)
        if isinstance(node, cst.Await):
            return self._expression(node.expression, depth + 1)
        if isinstance(node, cst.BooleanOperation):
            return self._expression(node.left, depth + 1)
        if isinstance(node, cst.IfExp):
            return self._expression(node.test, depth + 1) or (
                self._expression(node.body, depth + 1) and self._expression(node.orelse, depth + 1))
        return self._holds(node)


def _flat(suite: cst.BaseSuite) -> list[cst.CSTNode]:
    """A suite's statements, the small statements of a line one by one."""
    out: list[cst.CSTNode] = []
    for item in suite.body:
        out.extend(item.body if isinstance(item, cst.SimpleStatementLine) else [item])
    return out


def driven(path: tuple[cst.CSTNode, ...]) -> bool:
    """Whether the function a handler is in (its ancestors `path`) is a coroutine a decorator drives
    (`_DRIVERS`): what it yields is awaited, as `await` is, and handed to no consumer."""
    function = next((n for n in reversed(path) if isinstance(n, cst.FunctionDef)), None)
    for decorator in function.decorators if function is not None else ():
        called = decorator.decorator
        callee = called.func if isinstance(called, cst.Call) else called
        written = dotted(callee) if isinstance(callee, (cst.Name, cst.Attribute)) else None
        if written is not None and written.rsplit(".", 1)[-1] in _DRIVERS:
            return True
    return False


def in_loop_body(handler: cst.CSTNode, path: tuple[cst.CSTNode, ...]) -> bool:
    """The handler's `try` is in the body of a `for` or `while` of the same function."""
    child: cst.CSTNode = handler
    for parent in reversed(path):
        if isinstance(parent, SCOPE_TYPES):
            return False
        if isinstance(parent, (cst.For, cst.While)) and parent.body is child:
            return True
        child = parent
    return False


def left_after_try(path: tuple[cst.CSTNode, ...]) -> bool:
    """A `break`, `return` or `raise` follows the handler's `try` (`path[-1]`) in the block
    holding it, or in a block around that one inside the loop, after the `if` or `with` the
    `try`'s block belongs to (an `if` then a `raise` in a `while`'s body: hypothesis'
    `datatree.py`): the end of the handler goes on there, and leaves the loop too. Any other
    statement between the `try` and the loop (a `try`, `match`, a nested loop) ends the search."""
    at = len(path) - 1
    while at >= 1:
        statement, block = path[at], path[at - 1]
        body = getattr(block, "body", None)
        if not isinstance(block, cst.IndentedBlock) or not isinstance(body, (list, tuple)):
            return False
        after = next((i for i, s in enumerate(body) if s is statement), None)
        if after is not None and any(isinstance(s, cst.SimpleStatementLine) and isinstance(s.body[0], _ENDS)
                                     for s in body[after + 1:]):
            return True
        at -= 2  # the compound statement whose block this is
        while at >= 1 and isinstance(path[at], (cst.If, cst.Else)) and _arm_of(path[at - 1], path[at]):
            at -= 1  # an `elif` or `else` arm: its `if` is the statement
        if at < 1 or not isinstance(path[at], (cst.If, cst.With)):
            return False  # the loop around the `try`, or a statement whose end goes elsewhere
    return False


def _arm_of(node: cst.CSTNode, arm: cst.CSTNode) -> bool:
    return isinstance(node, cst.If) and node.orelse is arm
