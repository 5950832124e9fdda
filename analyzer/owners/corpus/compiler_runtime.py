"""The compiler runtime code shipped as data (`data/compiler-runtime/`: tslib, Babel's and SWC's
helpers, regenerator-runtime), which compilers copy into many packages: its signatures name no
package (docs/corpus.md, "Compiler runtime code")."""

from __future__ import annotations

import functools
import importlib.resources
from importlib.resources.abc import Traversable

from analyzer.signatures import Indexer


def compiler_runtime() -> list[Traversable]:
    """The compiler runtime code shipped as data: every `.js` file of `data/compiler-runtime/`
    (its README.md says what each is and where it comes from)."""
    folder = importlib.resources.files("analyzer.owners.corpus").joinpath("data", "compiler-runtime")
    return sorted((f for f in folder.iterdir() if f.name.endswith(".js")), key=lambda f: f.name)


@functools.cache
def compiler_runtime_keys(index_sources: Indexer) -> frozenset[str]:
    """Signatures of the compiler runtime code that compilers copy into many packages
    (docs/corpus.md, "Compiler runtime code"): they name no package."""
    index = index_sources((f.name, f.read_bytes()) for f in compiler_runtime())
    return frozenset(f"{f.key:016x}" for f in index.functions if f.name != "<module>")
