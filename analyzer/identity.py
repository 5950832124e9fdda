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
    return _blake(b"".join([_framed(part) for part in parts]))


def _framed(part: bytes | str | int) -> bytes:
    """A part of `D` after its length."""
    data = part if isinstance(part, bytes) else str(part).encode("utf-8", "surrogatepass")
    size = len(data)
    return (_LENGTHS[size] if size < len(_LENGTHS) else size.to_bytes(8, "little")) + data


#: the 8-byte lengths of the short parts, made once
_LENGTHS = [size.to_bytes(8, "little") for size in range(256)]
#: BLAKE2b-128 under the fp1 personalization, copied for each digest (cheaper than a new one)
_FP1 = hashlib.blake2b(digest_size=16, person=_FP1_PERSON)


def _blake(data: bytes) -> bytes:
    h = _FP1.copy()
    h.update(data)
    return h.digest()


def _with_ordinal(hashed: bytes, ordinal: int, ordinals: list[bytes]) -> bytes:
    """`D(hashed, ordinal)`; `ordinals`: the framed ordinals made so far, by value."""
    while len(ordinals) <= ordinal:
        ordinals.append(_framed(len(ordinals)))
    h = _FP1.copy()
    h.update(_LENGTHS[len(hashed)] + hashed + ordinals[ordinal])  # `hashed`: 16 bytes, framed
    return h.digest()


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
    return _identities("fp1", pre_scan_hashes(inputs), inputs)


def handler_identities(inputs: Sequence[IdentityInput]) -> tuple[list[str], list[Copies]]:
    """fp1h of every handler and its copies: the callsite algorithm over the handlers' inputs
    (kind `handler`), with its own prefix (docs/fingerprints.md, "Handler fingerprint")."""
    return _identities("fp1h", pre_scan_hashes(inputs), inputs)


def function_identities(digests: Sequence[bytes], order: Sequence[tuple[str, int]]) -> tuple[list[str], list[Copies]]:
    """fp1f of distinct functions and their copies."""
    return _identities("fp1f", _prefixed("fp1f", digests), order)


def binding_identities(
    digests: Sequence[bytes], order: Sequence[tuple[str, int, int]]
) -> tuple[list[str], list[Copies]]:
    """fp1b of top-level bindings (docs/references.md) and their copies."""
    return _identities("fp1b", _prefixed("fp1b", digests), order)


def _identities(prefix: str, hashes: Sequence[bytes], order: Sequence[object]) -> tuple[list[str], list[Copies]]:
    """The fingerprints `_with_scan_ordinals` makes and the `copies` of each member, from one pass
    in scan order: a hash's first member there is its copy with ordinal 0, the group's name."""
    keys = [getattr(o, "order", o) for o in order]
    fingerprints = [""] * len(hashes)
    seen: dict[bytes, int] = {}
    first: dict[bytes, str] = {}
    ordinals: list[bytes] = []
    head = prefix + ":"
    blake = _FP1.copy
    for position in sorted(range(len(hashes)), key=keys.__getitem__):  # type: ignore[arg-type]
        hashed = hashes[position]
        ordinal = seen.get(hashed, 0)
        seen[hashed] = ordinal + 1
        if ordinal == len(ordinals):
            ordinals.append(_framed(ordinal))
        h = blake()  # `D(hashed, ordinal)`, as `_with_ordinal`
        h.update(_LENGTHS[len(hashed)] + hashed + ordinals[ordinal])
        fingerprint = fingerprints[position] = head + h.hexdigest()
        if not ordinal:
            first[hashed] = fingerprint
    return fingerprints, [Copies(seen[value], first[value] if seen[value] > 1 else None) for value in hashes]


def pre_scan_hashes(inputs: Sequence[IdentityInput]) -> list[bytes]:
    """Each callsite's hash before its ordinal within the scan (equal hashes get ordinals)."""
    version = _framed(FP_VERSION)
    heads: dict[tuple[str, str, str, str], bytes] = {}  # kinds, roles and keys repeat: each head framed once
    bases = []
    blake = _FP1.copy
    for i in inputs:  # a scan's 10,000 callsites and 8,460 handlers: the digests inline
        words = (i.kind, i.role, i.comparison_key, i.consumer_role)
        head = heads.get(words)
        if head is None:
            head = heads[words] = version + b"".join([_framed(word) for word in words])
        h = blake()
        h.update(head + _framed(i.anchor))
        bases.append(h.digest())
    in_anchor: dict[tuple[bytes, tuple[str, int]], list[int]] = defaultdict(list)
    order = [i.order for i in inputs]
    for position in sorted(range(len(inputs)), key=order.__getitem__):
        in_anchor[(bases[position], inputs[position].anchor_slot)].append(position)
    local = [0] * len(inputs)
    most = 0
    for positions in in_anchor.values():
        most = max(most, len(positions))
        for ordinal, position in enumerate(positions):
            local[position] = ordinal
    ordinals = [_framed(ordinal) for ordinal in range(most)]
    out = []
    for position, hashed in enumerate(bases):  # `D(hashed, ordinal)`, as `_with_ordinal`
        h = blake()
        h.update(_LENGTHS[len(hashed)] + hashed + ordinals[local[position]])
        out.append(h.digest())
    return out


def scan_fingerprints(prefix: str, digests: Sequence[bytes], order: Sequence[tuple[str, int]]) -> list[str]:
    """Fingerprints of whole nodes (functions `fp1f`, classes `fp1c`, modules `fp1m`)."""
    return _with_scan_ordinals(prefix, _prefixed(prefix, digests), order)


def _prefixed(prefix: str, digests: Sequence[bytes]) -> list[bytes]:
    """`D(FP_VERSION, prefix, d)` of each digest (the two first parts framed once)."""
    head = _framed(FP_VERSION) + _framed(prefix)
    return [_blake(head + _framed(d)) for d in digests]


def _with_scan_ordinals(prefix: str, hashes: Sequence[bytes], order: Sequence[object]) -> list[str]:
    keys = [getattr(o, "order", o) for o in order]
    seen: dict[bytes, int] = defaultdict(int)
    out = [""] * len(hashes)
    ordinals: list[bytes] = []
    head = prefix + ":"
    for position in sorted(range(len(hashes)), key=keys.__getitem__):  # type: ignore[arg-type]
        hashed = hashes[position]
        ordinal = seen[hashed]
        seen[hashed] = ordinal + 1
        out[position] = head + _with_ordinal(hashed, ordinal, ordinals).hex()
    return out
