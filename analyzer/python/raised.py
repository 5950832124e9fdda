"""What each `raise` of a handler's body throws, which calls only make a message, and whether a
clause only raises again (docs/reference.md, "Handler records", Python: `wrap`, `callback`, `loneRethrow`).

The construction a `raise` throws is its `wrap`, never a `callback` too, whether or not its class
resolves: `raise X(e)`, `err = X(e); raise err` (the assignment earlier in the raise's block or
in a block around it), `raise X(e).with_traceback(tb)` (read as `raise X(e)`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import libcst as cst

from analyzer.python.syntax import HANDLER_TYPES, SCOPE_TYPES

_STRINGS = (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString)


def constructions(body: cst.BaseSuite, is_caught: Callable[[cst.BaseExpression], bool]
                  ) -> tuple[dict[int, cst.BaseExpression], set[int]]:
    """`raise` node id -> what it throws when that is not the caught value: the call a raised
    name was last bound to (`e = X(...); raise e`) or the expression raised, a
    `.with_traceback(tb)` of it taken off; and the ids of the calls that build what is thrown
    (`with_traceback` too). `is_caught(node)` tells the caught value's name."""
    out: dict[int, cst.BaseExpression] = {}
    built: set[int] = set()

    def block(statements: list[cst.CSTNode], outer: dict[str, cst.Call]) -> None:
        bound = dict(outer)
        for statement in statements:
            if isinstance(statement, cst.Assign) and len(statement.targets) == 1 and \
                    isinstance(statement.targets[0].target, cst.Name):
                name = statement.targets[0].target.value
                if isinstance(statement.value, cst.Call):
                    bound[name] = statement.value
                else:
                    bound.pop(name, None)
            elif isinstance(statement, cst.Raise) and statement.exc is not None:
                exc = statement.exc
                if isinstance(exc, cst.Name) and exc.value in bound:
                    exc = bound[exc.value]
                while isinstance(exc, cst.Call) and isinstance(exc.func, cst.Attribute) and \
                        exc.func.attr.value == "with_traceback" and not is_caught(exc.func.value):
                    built.add(id(exc))
                    exc = exc.func.value
                out[id(statement)] = exc
                built.add(id(exc))
            else:
                for suite in _suites(statement):
                    block(statements_of(suite), bound)

    block(statements_of(body), {})
    return out, built


def makes_message(func: cst.BaseExpression) -> bool:
    """A `format` method (`"{}: {}".format(p, e)`, `TEMPLATE.format(e)`) or any method of a
    string literal (`", ".join(e.args)`): it makes text from the caught value, as `str(e)` does."""
    return isinstance(func, cst.Attribute) and (func.attr.value == "format" or isinstance(func.value, _STRINGS))


def statements_of(suite: cst.BaseSuite) -> list[cst.CSTNode]:
    """A block's statements, the small statements of its simple lines one by one."""
    out: list[cst.CSTNode] = []
    for item in suite.body:
        if isinstance(item, cst.SimpleStatementLine):
            out.extend(item.body)
        else:
            out.append(item)
    return out


def _suites(node: cst.CSTNode) -> Iterator[cst.BaseSuite]:
    """The blocks of a compound statement (an `if`'s, a loop's, a `with`'s, a `try`'s but its
    handlers'), not those of nested functions and classes."""
    if isinstance(node, (*SCOPE_TYPES, cst.BaseSmallStatement)):
        return
    stack = list(node.children)
    while stack:
        child = stack.pop()
        if isinstance(child, (cst.IndentedBlock, cst.SimpleStatementSuite)):
            yield child
        elif not isinstance(child, (*SCOPE_TYPES, *HANDLER_TYPES, cst.BaseExpression)):
            stack.extend(child.children)


def raises_alone(handler: cst.ExceptHandler | cst.ExceptStarHandler, param: str | None) -> bool:
    """Whether the clause's body is one `raise` or `raise <param>` statement without `from`,
    `pass` and strings (docstrings) aside (docs/reference.md, "Handler records": `loneRethrow`)."""
    statements = [s for s in statements_of(handler.body) if not _inert(s)]
    if len(statements) != 1 or not isinstance(statements[0], cst.Raise) or statements[0].cause is not None:
        return False
    exc = statements[0].exc
    return exc is None or (param is not None and isinstance(exc, cst.Name) and exc.value == param)


def later_clauses_raise_alone(handler: cst.ExceptHandler | cst.ExceptStarHandler,
                               path: tuple[cst.CSTNode, ...]) -> bool:
    """Whether every later clause of the handler's `try` raises alone too: a lone `raise` before
    `except Exception: log(e)` keeps its errors from that clause, it is not useless."""
    clauses: list[cst.ExceptHandler | cst.ExceptStarHandler] = []
    for parent in reversed(path):
        if isinstance(parent, (cst.Try, cst.TryStar)):
            clauses.extend(parent.handlers)
            break
    at = next((i for i, clause in enumerate(clauses) if clause is handler), len(clauses))
    return all(raises_alone(clause, param_of(clause)) for clause in clauses[at + 1:])


def param_of(handler: cst.ExceptHandler | cst.ExceptStarHandler) -> str | None:
    name = handler.name
    return name.name.value if name is not None and isinstance(name.name, cst.Name) else None


def _inert(statement: cst.CSTNode) -> bool:
    return isinstance(statement, cst.Pass) or (
        isinstance(statement, cst.Expr) and isinstance(statement.value, (cst.SimpleString, cst.ConcatenatedString)))
