"""The identities of analyzer/identity.py as they were at 429e5c6: pre-scan hashes through
`_blake` and `_with_ordinal` a member, then the scan's ordinals and the copies each in a pass of
their own. Kept as the oracle the one-pass `_identities` is compared with
(tests/test_handler_records.py)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from analyzer.identity import IdentityInput, _blake, _framed, _prefixed
from analyzer.model import Copies
from analyzer.versions import FP_VERSION


def _with_ordinal(hashed: bytes, ordinal: int, ordinals: list[bytes]) -> bytes:
    while len(ordinals) <= ordinal:
        ordinals.append(_framed(len(ordinals)))
    return _blake(_framed(hashed) + ordinals[ordinal])


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
    hashes = _prefixed("fp1f", digests)
    fingerprints = _with_scan_ordinals("fp1f", hashes, order)
    return fingerprints, copies(hashes, fingerprints, order)


def binding_identities(
    digests: Sequence[bytes], order: Sequence[tuple[str, int, int]]
) -> tuple[list[str], list[Copies]]:
    """fp1b of top-level bindings (docs/references.md) and their copies."""
    hashes = _prefixed("fp1b", digests)
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
    version = _framed(FP_VERSION)
    words: dict[str, bytes] = {}  # kinds, roles and keys repeat: each framed once
    bases = []
    for i in inputs:
        framed = []
        for word in (i.kind, i.role, i.comparison_key, i.consumer_role):
            known = words.get(word)
            if known is None:
                known = words[word] = _framed(word)
            framed.append(known)
        bases.append(_blake(version + b"".join(framed) + _framed(i.anchor)))
    in_anchor: dict[tuple[bytes, tuple[str, int]], list[int]] = defaultdict(list)
    for position in sorted(range(len(inputs)), key=lambda p: inputs[p].order):
        in_anchor[(bases[position], inputs[position].anchor_slot)].append(position)
    local = [0] * len(inputs)
    for positions in in_anchor.values():
        for ordinal, position in enumerate(positions):
            local[position] = ordinal
    ordinals: list[bytes] = []
    return [_with_ordinal(b, local[p], ordinals) for p, b in enumerate(bases)]


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
