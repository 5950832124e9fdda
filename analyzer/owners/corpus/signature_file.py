"""`function-signatures.jsonl` read back: the bundle's side of matching, the distinctive signature
of every function of every unit (docs/corpus.md, "Where the bundle's functions come from").
Written by `scan --signatures`; `suggest --corpus --bundle PATH` computes the same rows by
parsing the bundle again, checked against the scan's sha256."""

from __future__ import annotations

import orjson

from analyzer.errors import InputError
from analyzer.scandir.files import SIGNATURES_FILE
from analyzer.signatures import BundleFunction

__all__ = ["SIGNATURES_FILE", "read_signatures"]


def read_signatures(data: bytes, where: str) -> list[BundleFunction]:
    out = []
    for number, line in enumerate(data.splitlines(), start=1):
        try:
            unit, start, end, key, tokens, weight = orjson.loads(line)
            if not isinstance(key, str) or len(key) != 16:
                raise ValueError(key)
            out.append(BundleFunction(unit, start, end, key, tokens, weight))
        except (orjson.JSONDecodeError, ValueError, TypeError):
            raise InputError(f"{where}:{number}", "not a function signature row") from None
    return out
