"""What a real bundle's source map says about its dependencies, as the evaluations of the corpus
read it (bench/corpus_eval.py, tests/test_corpus_unseen.py)."""

from __future__ import annotations

import json
from pathlib import Path

from analyzer.sourcemap import normalize_source, package_of


def map_package_names(map_path: Path) -> list[str]:
    """The package names of the map's `node_modules/` sources: what a lockfile would give."""
    document = json.loads(map_path.read_bytes())
    root = document.get("sourceRoot") if isinstance(document.get("sourceRoot"), str) else ""
    return sorted({p for s in document["sources"] if (p := package_of(normalize_source(str(s or ""), root)))})
