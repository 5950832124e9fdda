"""Portable fingerprints (docs/fingerprints.md): digests, ordinals and the `fp1*` forms, for every frontend.
The algorithm is documented in docs/fingerprints.md; any change of meaning gets a new prefix,
never a silent change of `fp1`. What a frontend digests (JavaScript: `javascript/normalize.py`,
Python: `python/tokens.py`) is its own."""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from analyzer.model import Copies
from analyzer.versions import FP_VERSION

#: the personalization of the fp1 forms (docs/fingerprints.md)
_FP1_PERSON = b"erratlas-fp1"


def digest(person: bytes, *chunks: bytes) -> bytes:
    """16-byte BLAKE2b of the chunks, in order, under `person`: each fingerprint family (fp1,
    Python pieces, module skeletons) has its own, so equal bytes in two families never collide."""
    h = hashlib.blake2b(digest_size=16, person=person)
    for chunk in chunks:
        h.update(chunk)
    return h.digest()


def _digest(*parts: bytes | str | int) -> bytes:
    """`D(p1, p2, ...)` of docs/fingerprints.md: each part after its length (8 bytes, little-endian);
    hashed in one call (a scan makes about 100,000 of these)."""
    chunks: list[bytes] = []
    for part in parts:
        data = part if isinstance(part, bytes) else str(part).encode("utf-8", "surrogatepass")
        size = len(data)
        chunks += (_LENGTHS[size] if size < len(_LENGTHS) else size.to_bytes(8, "little"), data)
    return hashlib.blake2b(b"".join(chunks), digest_size=16, person=_FP1_PERSON).digest()


#: the 8-byte lengths of the short parts, made once
_LENGTHS = [size.to_bytes(8, "little") for size in range(256)]


def digest_of(node_type: str, normalized: bytes) -> bytes:
    """The digest of a piece of normalized text (an anchor, a function, a top-level item)."""
    return _digest(node_type, normalized)


@dataclass(frozen=True, slots=True)
class IdentityInput:
    """What a callsite's fingerprint is made of (no offsets, no minified names)."""

    kind: str
    role: str
    comparison_key: str
    consumer_role: str
    anchor: bytes
    #: (unit, anchor start): groups the callsites of one anchor, for ordinals within it
    anchor_slot: tuple[str, int]
    #: (unit, offset): scan order, for ordinals among identical callsites
    order: tuple[str, int]


def callsite_fingerprints(inputs: Sequence[IdentityInput]) -> list[str]:
    """fp1 of every callsite: base hash, ordinal within its anchor, ordinal within the scan."""
    return _with_scan_ordinals("fp1", pre_scan_hashes(inputs), inputs)


def callsite_identities(inputs: Sequence[IdentityInput]) -> tuple[list[str], list[Copies]]:
    """fp1 of every callsite and its copies."""
    hashes = pre_scan_hashes(inputs)
    fingerprints = _with_scan_ordinals("fp1", hashes, inputs)
    return fingerprints, copies(hashes, fingerprints, inputs)


def handler_identities(inputs: Sequence[IdentityInput]) -> tuple[list[str], list[Copies]]:
    """fp1h of every handler and its copies: the callsite algorithm over the handlers' inputs
    (kind `handler`), with its own prefix (docs/fingerprints.md, "Handler fingerprint")."""
    hashes = pre_scan_hashes(inputs)
    fingerprints = _with_scan_ordinals("fp1h", hashes, inputs)
    return fingerprints, copies(hashes, fingerprints, inputs)


def function_identities(digests: Sequence[bytes], order: Sequence[tuple[str, int]]) -> tuple[list[str], list[Copies]]:
    """fp1f of distinct functions and their copies."""
    hashes = [_digest(FP_VERSION, "fp1f", d) for d in digests]
    fingerprints = _with_scan_ordinals("fp1f", hashes, order)
    return fingerprints, copies(hashes, fingerprints, order)


def binding_identities(
    digests: Sequence[bytes], order: Sequence[tuple[str, int, int]]
) -> tuple[list[str], list[Copies]]:
    """fp1b of top-level bindings (docs/references.md) and their copies."""
    hashes = [_digest(FP_VERSION, "fp1b", d) for d in digests]
    fingerprints = _with_scan_ordinals("fp1b", hashes, order)
    return fingerprints, copies(hashes, fingerprints, order)


def copies(hashes: Sequence[bytes], fingerprints: Sequence[str], order: Sequence[object]) -> list[Copies]:
    """The copies of each member: the members with the same pre-ordinal hash."""
    keys = [getattr(o, "order", o) for o in order]
    first: dict[bytes, int] = {}
    count: dict[bytes, int] = defaultdict(int)
    for position, value in enumerate(hashes):
        count[value] += 1
        known = first.get(value)
        if known is None or keys[position] < keys[known]:  # type: ignore[operator]
            first[value] = position
    return [
        Copies(count[value], fingerprints[first[value]] if count[value] > 1 else None) for value in hashes
    ]


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
