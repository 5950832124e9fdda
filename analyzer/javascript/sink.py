"""The bundle's error sink: the binding most often called with a caught value, detected as the
logger is, from its calls (docs/reference.md, "Handler records", "The error sink": the
candidates, the counts it needs, and its calls that are `report`s)."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from tree_sitter import Node, Tree

from analyzer.facts import SinkCandidate, SinkEvidence
from analyzer.javascript.resolve import Resolution

#: calls with a caught value a binding needs to be the sink
MIN_CALLS = 3
#: names resolved (or left unresolved, past `_MAX_OCCURRENCES`), the most called first
_NAMES = 3
#: a name whose bytes occur more often than this is not resolved (each occurrence is a descent
#: from the root: 4,096 cost about 0.15 s on a 13 MB bundle)
_MAX_OCCURRENCES = 4096
_RUNNER_UPS = 3
#: the commonest bytes of minified code (each about 3% or more of the executable's 27 MB): a name
#: is searched for by a regex scanning for its first byte unless it is one of them
_COMMON = frozenset(b"etrnioasl")


@dataclass(frozen=True, slots=True)
class SinkChoice:
    #: (start, end) of the candidate callees that resolve to the sink: offsets, so that it can
    #: cross trees (docs/slices.md, "Node ids")
    calls: frozenset[tuple[int, int]]
    #: the summary's evidence: name, declaration, calls, runner-ups, reasons
    evidence: SinkEvidence


def detect_sink(unit: str, tree: Tree, source: bytes, candidates: Sequence[tuple[Node, bool]]) -> SinkChoice:
    """The sink among `candidates`: callee names called with something of a caught value, each
    with whether it is the caught value itself (only those choose the sink)."""
    callees = [node for node, itself in candidates if itself]
    by_name = Counter(node.text or b"" for node in callees)
    ranked = sorted(by_name.items(), key=lambda item: (-item[1], item[0]))
    names: list[bytes] = []
    skipped: list[bytes] = []
    found: dict[bytes, list[int]] = {}
    for name, _ in ranked[:_NAMES]:
        starts = _at_most(source, name, _MAX_OCCURRENCES)
        (names if starts is not None else skipped).append(name)
        if starts is not None:
            found[name] = starts
    wanted = set(names)
    bound = {}
    for name in names:  # one name a pass: a literal is searched fast, an alternation is not
        # the offsets counted are all the name's occurrences when no two of them can overlap
        given = found[name] if name and not _overlaps(name) else None
        resolution = Resolution(tree, source, {name.decode("utf-8", "replace")}, starts=given)
        bound.update({r.node.id: r.binding for r in resolution.references if r.binding is not None})
    calls: dict[tuple[str, int], list[tuple[int, int]]] = {}
    kinds: dict[tuple[str, int], str] = {}
    for node in callees:
        binding = bound.get(node.id)
        if binding is not None:
            calls.setdefault(binding.key, []).append((node.start_byte, node.end_byte))
            kinds[binding.key] = binding.kind
    bindings = sorted(calls.items(), key=lambda item: (-len(item[1]), item[0]))
    described = [SinkCandidate(key[0], key[1], len(ids)) for key, ids in bindings]
    runner_ups = tuple(described[1:1 + _RUNNER_UPS])
    unresolved = tuple((n.decode("utf-8", "replace"), by_name[n]) for n in skipped)
    most = len(bindings[0][1]) if bindings else 0
    if most < MIN_CALLS or (len(bindings) > 1 and len(bindings[1][1]) == most) or any(
            by_name[n] >= most for n in skipped):
        why = (f"no binding is called with a caught value at least {MIN_CALLS} times, more than any other "
               f"and than any name too common to resolve" if bindings else "no resolved binding is called with a "
               "caught value")
        return SinkChoice(frozenset(), SinkEvidence(unit, None, None, 0, (why,), tuple(described[:_RUNNER_UPS]),
                                                    unresolved))
    (chosen, offset), ids = bindings[0]
    reports = [(n.start_byte, n.end_byte) for n, itself in candidates if not itself and (n.text or b"") in wanted
               and bound.get(n.id) is not None and bound[n.id].key == (chosen, offset)]
    reasons = [f"called with a caught value in {len(ids)} handler calls"]
    if len(bindings) > 1:
        reasons.append(f"the runner-up, {bindings[1][0][0]}, in {len(bindings[1][1])}")
    declaration = (offset, source.count(b"\n", 0, offset) + 1, kinds[(chosen, offset)])
    evidence = SinkEvidence(unit, chosen, declaration, len(ids), tuple(reasons), runner_ups, unresolved)
    return SinkChoice(frozenset(ids + reports), evidence)


def _at_most(source: bytes, name: bytes, limit: int) -> list[int] | None:
    """The offsets of `name`'s bytes, each search starting past the previous occurrence, when
    they are at most `limit`; None past it (a common name occurs a hundred thousand times in a
    27 MB bundle, and counting stops there)."""
    if not name:
        return [] if source.count(name) <= limit else None
    found: list[int] = []
    first = name[0] not in _COMMON
    if len(name) > 1 and (first or (name[-1] not in _COMMON and not _overlaps(name))):
        # the regex engine scans for one byte, `bytes.find` looks at every byte: the scan for a
        # rarer byte makes the search of 27 MB two to three times cheaper (docs/performance.md).
        # Else the last byte is scanned for, the rest of the name behind it: that finds every
        # occurrence when no two can overlap
        pattern = re.escape(name) if first else re.escape(name[-1:]) + b"(?<=" + re.escape(name) + b")"
        shift = 0 if first else len(name) - 1
        for match in re.finditer(pattern, source):
            if len(found) == limit:
                return None
            found.append(match.start() - shift)
        return found
    at, step = source.find(name), len(name)
    while at >= 0:
        if len(found) == limit:
            return None
        found.append(at)
        at = source.find(name, at + step)
    return found


def _overlaps(name: bytes) -> bool:
    """Whether two occurrences of `name` can overlap: a proper prefix of it is also its suffix."""
    return any(name[:size] == name[-size:] for size in range(1, len(name)))
