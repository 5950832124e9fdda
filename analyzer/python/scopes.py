"""Where a Python callsite sits: qualified scope path, innermost function, try/except context."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import libcst as cst

from analyzer.model import Context, Scope
from analyzer.python.collected import Frame
from analyzer.python.syntax import (
    FUNCTION_TYPES,
    HANDLER_TYPES,
    SCOPE_TYPES,
    TRY_TYPES,
    decorator_names,
)


def scope_of(module: str, frames: Sequence[Frame], offset_of: Callable[[cst.CSTNode], int]) -> Scope:
    """scopePath `module:pkg.mod@0`, then `kind:pkg.mod.Qual.name@offset` per enclosing
    class/function/lambda; `function` is the innermost function's qualified name."""
    path = [f"module:{module}@0"]
    for frame in frames:
        path.append(f"{frame_kind(frame)}:{module}.{frame.qualname}@{offset_of(frame.node)}")
    for frame in reversed(frames):
        if frame.kind == "class":
            return Scope(scopePath=tuple(path), function=f"{module}.{frame.qualname}", functionKind="class-body")
        return Scope(scopePath=tuple(path), function=f"{module}.{frame.qualname}", functionKind=frame_kind(frame))
    return Scope(scopePath=tuple(path), function="<module>", functionKind="module")


def frame_kind(frame: Frame) -> str:
    node = frame.node
    if isinstance(node, cst.ClassDef):
        return "class"
    if isinstance(node, cst.Lambda):
        return "lambda"
    is_async = node.asynchronous is not None
    decorators = decorator_names(node)
    if any(d == "property" or d.endswith((".getter", "cached_property")) for d in decorators):
        return "getter"
    if any(d.endswith(".setter") for d in decorators):
        return "setter"
    if frame.generator:
        return "async-generator" if is_async else "generator"
    if frame.receiver is not None or "staticmethod" in decorators:
        if node.name.value == "__init__":
            return "constructor"
        return "async-method" if is_async else "method"
    return "async-function" if is_async else "function"


def context_of(node: cst.CSTNode, path: Sequence[cst.CSTNode]) -> Context:
    """try/except facts within the innermost function (a parse that failed has no callsites,
    so `inErrorRegion` is always False for Python)."""
    in_catch, catch_param, in_try = False, None, False
    child = node
    for parent in reversed(path):
        if isinstance(parent, SCOPE_TYPES):
            break
        if isinstance(parent, HANDLER_TYPES) and not in_catch and parent.body is child:
            in_catch = True
            name = parent.name
            catch_param = name.name.value if name is not None and isinstance(name.name, cst.Name) else None
        elif isinstance(parent, TRY_TYPES) and not in_try and parent.body is child:
            in_try = True
        child = parent
    return Context(inCatch=in_catch, catchParam=catch_param, inTry=in_try, inErrorRegion=False)


def innermost_function(path: Sequence[cst.CSTNode]) -> cst.CSTNode | None:
    for node in reversed(path):
        if isinstance(node, FUNCTION_TYPES):
            return node
        if isinstance(node, cst.ClassDef):
            return None
    return None
