"""Small facts about libcst nodes, shared by the frontend's stages."""

from __future__ import annotations

import libcst as cst

FUNCTION_TYPES = (cst.FunctionDef, cst.Lambda)
SCOPE_TYPES = (cst.FunctionDef, cst.Lambda, cst.ClassDef)
COMPREHENSION_TYPES = (cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp)
#: compound and simple statements: what an anchor may be when a function is too large
STATEMENT_TYPES = (
    cst.SimpleStatementLine, cst.If, cst.For, cst.While, cst.Try, cst.TryStar, cst.With,
    cst.FunctionDef, cst.ClassDef, cst.Match,
)
HANDLER_TYPES = (cst.ExceptHandler, cst.ExceptStarHandler)
TRY_TYPES = (cst.Try, cst.TryStar)


def dotted(node: cst.BaseExpression) -> str | None:
    """`a.b.c` for a Name/Attribute chain, else None."""
    parts: list[str] = []
    while isinstance(node, cst.Attribute):
        parts.append(node.attr.value)
        node = node.value
    if not isinstance(node, cst.Name):
        return None
    parts.append(node.value)
    return ".".join(reversed(parts))


def last_name(node: cst.BaseExpression) -> str | None:
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        return node.attr.value
    return None


def positional(call: cst.Call) -> list[cst.Arg]:
    """Positional arguments up to the first `*args` or keyword (what slot N can be known for)."""
    out = []
    for arg in call.args:
        if arg.keyword is not None or arg.star:
            break
        out.append(arg)
    return out


def keyword(call: cst.Call, name: str) -> cst.Arg | None:
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value == name:
            return arg
    return None


def first_parameter(function: cst.FunctionDef) -> str | None:
    params = function.params
    first = params.posonly_params[0] if params.posonly_params else (params.params[0] if params.params else None)
    return first.name.value if first is not None else None


def decorator_names(function: cst.FunctionDef | cst.ClassDef) -> list[str]:
    names = []
    for decorator in function.decorators:
        target = decorator.decorator
        if isinstance(target, cst.Call):
            target = target.func
        name = dotted(target)
        if name is not None:
            names.append(name)
    return names
