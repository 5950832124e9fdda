"""libcst's scope analysis (ExpressionContextProvider -> ScopeProvider), driven directly.

`MetadataWrapper.resolve` walks the whole tree once more for every dependency level after
the providers' own walks (the batched traversal runs even when the batch has nothing left to
visit): on the pip tree that is two extra full walks, ~25% of the scan. We run the same two
providers' visitors ourselves and hand the first one's results to the second, exactly as the
resolver would; if a libcst release moves these internals we fall back to the wrapper.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import cast

import libcst as cst
from libcst.metadata import ExpressionContextProvider, MetadataWrapper, ScopeProvider
from libcst.metadata.scope_provider import Scope

try:
    from libcst.metadata.expression_context_provider import (
        ExpressionContext,
        ExpressionContextVisitor,
    )
    from libcst.metadata.scope_provider import ScopeVisitor
except ImportError:  # pragma: no cover - other libcst layouts
    ExpressionContextVisitor = ScopeVisitor = None  # type: ignore[assignment,misc]


def scopes_of(module: cst.Module) -> Mapping[cst.CSTNode, Scope | None]:
    if ExpressionContextVisitor is None or ScopeVisitor is None:  # pragma: no cover
        return MetadataWrapper(module, unsafe_skip_copy=True).resolve(ScopeProvider)
    contexts = ExpressionContextProvider()
    contexts._computed = {}
    module.visit(ExpressionContextVisitor(contexts, ExpressionContext.LOAD))
    provider = ScopeProvider()
    provider._computed = {}
    provider.metadata = {ExpressionContextProvider: contexts._computed}
    visitor = ScopeVisitor(provider)
    module.visit(visitor)
    visitor.infer_accesses()
    provider.metadata = {}
    return cast(Mapping[cst.CSTNode, Scope | None], provider._computed)
