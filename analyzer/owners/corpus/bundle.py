"""The bundle's side of matching: the distinctive signature of every function of every unit.

Written by `scan --signatures` into the scan directory (`function-signatures.jsonl`, one
`[unit, start, end, key, tokens, weight]` row per distinctive function, sorted by unit and
start), from the trees the scan has already parsed: a scan without `--signatures` does none of
this work. `suggest --corpus --bundle PATH` computes the same rows by parsing the bundle again
(checked against the scan's sha256) for a scan made without the flag.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import orjson
from tree_sitter import Tree

from analyzer.errors import InputError
from analyzer.model import Unit
from analyzer.owners.corpus.signature import UnitTokens

SIGNATURES_FILE = "function-signatures.jsonl"


@dataclass(frozen=True, slots=True)
class BundleFunction:
    unit: str
    start: int
    end: int
    #: the signature key, 16 hex digits
    key: str
    tokens: int
    weight: int


def unit_functions(unit: Unit, tree: Tree, cache: dict[str, int]) -> list[BundleFunction]:
    tokens = UnitTokens(tree, unit.source, cache)
    return [
        BundleFunction(unit.name, s.start, s.end, f"{s.key:016x}", s.tokens, s.weight)
        for s in tokens.function_signatures()
        if s.distinctive
    ]


def render_signatures(units: list[Unit], trees: list[Tree]) -> bytes:
    cache: dict[str, int] = {}
    rows = sorted((f for unit, tree in zip(units, trees) for f in unit_functions(unit, tree, cache)),
                  key=lambda f: (f.unit, f.start, -f.end))
    return b"".join(orjson.dumps([f.unit, f.start, f.end, f.key, f.tokens, f.weight]) + b"\n" for f in rows)


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


def signatures_of_bundle(bundle: Path, sha256: str) -> bytes:
    """The signature rows of `bundle`, parsed again; it must be the file the scan read."""
    import hashlib

    from analyzer.bundle.load import load_units
    from analyzer.javascript.syntax import parse

    digest = hashlib.sha256()
    with open(bundle, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    if digest.hexdigest() != sha256:
        raise InputError(bundle, f"not the scanned bundle (sha256 {digest.hexdigest()}, the scan read {sha256})")
    units = load_units(bundle)
    return render_signatures(units, [parse(unit.source) for unit in units])
