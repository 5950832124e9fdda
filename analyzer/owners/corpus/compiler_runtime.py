"""The compiler runtime code shipped as data (`data/compiler-runtime/`: tslib, Babel's and SWC's
helpers, regenerator-runtime), which compilers copy into many packages: its signatures name no
package (docs/corpus.md, "Compiler runtime code")."""

from __future__ import annotations

import functools
import importlib.resources
import re
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


#: a helper's name as compilers write it when they copy it into a file (`_toPrimitive`, `__awaiter`)
_HELPER_NAME = re.compile(r"^_[A-Za-z0-9_$]+$")


@functools.cache
def compiler_runtime_names(index_sources: Indexer) -> frozenset[str]:
    """The names compilers give the helpers they copy into a package's files (`_toPrimitive`,
    `_defineProperty`, `__awaiter`): the runtime's distinctive functions' names that start with `_`.
    A package's function of such a name is a copy of a helper, in whichever compiler version wrote
    it (docs/corpus.md, "Compiler runtime code")."""
    index = index_sources((f.name, f.read_bytes()) for f in compiler_runtime())
    return frozenset(f.name for f in index.functions if _HELPER_NAME.match(f.name))
