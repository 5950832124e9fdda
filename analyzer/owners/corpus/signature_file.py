"""`function-signatures.jsonl` read back: the bundle's side of matching, the distinctive
signature of every function of every unit.

Written by `scan --signatures` into the scan directory (`function-signatures.jsonl`, one
`[unit, start, end, key, tokens, weight]` row per distinctive function, sorted by unit and
start), from the trees the scan has already parsed (`analyzer.javascript.corpus`): a scan
without `--signatures` does none of this work. `suggest --corpus --bundle PATH` computes the
same rows by parsing the bundle again (checked against the scan's sha256) for a scan made
without the flag.
"""

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
