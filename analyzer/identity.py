"""Portable fingerprints (SPEC 3). The algorithm is documented in docs/fingerprints.md;
any change of meaning gets a new prefix, never a silent change of `fp1`."""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from tree_sitter import Node, Query, QueryCursor

from analyzer.javascript.syntax import FUNCTION_TYPES, LANGUAGE

FP_VERSION = "fp1"
#: largest anchor, in bytes of source; chosen by measurement across platform builds
ANCHOR_LIMIT = 2048
_RENAMEABLE = Query(
    LANGUAGE,
    """
    [(identifier) (shorthand_property_identifier) (shorthand_property_identifier_pattern)
     (private_property_identifier) (statement_identifier)] @name
    """,
)
_ANCHOR_STOP = FUNCTION_TYPES | {"class_static_block", "program"}


def _digest(*parts: bytes | str | int) -> bytes:
    h = hashlib.blake2b(digest_size=16, person=b"erratlas-fp1")
    for part in parts:
        data = part if isinstance(part, bytes) else str(part).encode("utf-8", "surrogatepass")
        h.update(len(data).to_bytes(8, "little"))
        h.update(data)
    return h.digest()


class Normalizer:
    """Alpha-normalized digests of subtrees of one tree, cached by node."""

    def __init__(self, source: bytes) -> None:
        self.source = source
        self._cache: dict[int, bytes] = {}

    def digest(self, node: Node) -> bytes:
        cached = self._cache.get(node.id)
        if cached is None:
            cached = self._cache[node.id] = _digest(node.type, self.normalized(node))
        return cached

    def normalized(self, node: Node) -> bytes:
        """The node's source with each renameable name replaced by the index of its first
        occurrence: invariant under any consistent renaming, sensitive to everything else."""
        captures = QueryCursor(_RENAMEABLE).captures(node).get("name", [])
        spans = sorted((n.start_byte, n.end_byte) for n in captures)
        source, pieces, at = self.source, [], node.start_byte
        index: dict[bytes, int] = {}
        for start, end in spans:
            if start < at:
                continue  # nested capture inside a capture (never in practice)
            pieces.append(source[at:start])
            name = source[start:end]
            number = index.setdefault(name, len(index))
            pieces.append(b"\x00%d\x00" % number)
            at = end
        pieces.append(source[at:node.end_byte])
        return b"".join(pieces)


def anchor_of(callsite: Node, chain: Sequence[Node], limit: int | None = None) -> Node:
    """The innermost enclosing function when it is at most `limit` bytes; otherwise the largest
    enclosing statement inside it that is; otherwise the callsite itself."""
    limit = ANCHOR_LIMIT if limit is None else limit
    best = callsite
    for node in chain:
        if node.type == "program":
            break
        if node.end_byte - node.start_byte > limit:
            break
        if node.type in FUNCTION_TYPES or _is_statement(node.type):
            best = node
        if node.type in _ANCHOR_STOP:
            break
    return best


def innermost_function(chain: Sequence[Node]) -> Node | None:
    for node in chain:
        if node.type in _ANCHOR_STOP:
            return None if node.type == "program" else node
    return None


def _is_statement(kind: str) -> bool:
    return kind.endswith("_statement") or kind.endswith("_declaration")


@dataclass(frozen=True, slots=True)
class IdentityInput:
    """What a callsite's fingerprint is made of (no offsets, no minified names)."""

    kind: str
    role: str
    comparison_key: str
    consumer_role: str
    anchor: bytes
    #: identity of the anchor node within its unit, for ordinals within one anchor
    anchor_slot: tuple[str, int]
    #: (unit, offset): scan order, for ordinals among identical callsites
    order: tuple[str, int]


def callsite_fingerprints(inputs: Sequence[IdentityInput]) -> list[str]:
    """fp1 of every callsite: base hash, ordinal within its anchor, ordinal within the scan."""
    return _with_scan_ordinals("fp1", pre_scan_hashes(inputs), inputs)


def pre_scan_hashes(inputs: Sequence[IdentityInput]) -> list[bytes]:
    """Each callsite's hash before its ordinal within the scan (equal hashes get ordinals)."""
    bases = [
        _digest(FP_VERSION, i.kind, i.role, i.comparison_key, i.consumer_role, i.anchor)
        for i in inputs
    ]
    in_anchor: dict[tuple[bytes, tuple[str, int]], list[int]] = defaultdict(list)
    for position in sorted(range(len(inputs)), key=lambda p: inputs[p].order):
        in_anchor[(bases[position], inputs[position].anchor_slot)].append(position)
    local = [0] * len(inputs)
    for positions in in_anchor.values():
        for ordinal, position in enumerate(positions):
            local[position] = ordinal
    return [_digest(b, local[p]) for p, b in enumerate(bases)]


def function_fingerprints(digests: Sequence[bytes], order: Sequence[tuple[str, int]]) -> list[str]:
    """fp1f of distinct functions: the normalized function, and an ordinal among identical ones."""
    return scan_fingerprints("fp1f", digests, order)


def scan_fingerprints(prefix: str, digests: Sequence[bytes], order: Sequence[tuple[str, int]]) -> list[str]:
    """Fingerprints of whole nodes (functions `fp1f`, classes `fp1c`, modules `fp1m`)."""
    return _with_scan_ordinals(prefix, [_digest(FP_VERSION, prefix, d) for d in digests], order)


def _with_scan_ordinals(prefix: str, hashes: Sequence[bytes], order: Sequence[object]) -> list[str]:
    keys = [getattr(o, "order", o) for o in order]
    seen: dict[bytes, int] = defaultdict(int)
    out = [""] * len(hashes)
    for position in sorted(range(len(hashes)), key=lambda p: keys[p]):  # type: ignore[arg-type,return-value]
        ordinal = seen[hashes[position]]
        seen[hashes[position]] += 1
        out[position] = f"{prefix}:{_digest(hashes[position], ordinal).hex()}"
    return out
