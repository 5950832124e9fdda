"""Release to release: which callsites stayed, moved or changed, came or went, and the reviewed
owners that can be carried forward. The pairing rules (`unchanged`, then `same-function`,
`same-neighbours`, `same-message`, `same-place`, then the same run of code between the same
neighbours, one to one; ambiguity never pairs) are docs/owners.md, "Across releases"."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from analyzer.diff_model import (
    DIFF_SCHEMA,
    BriefCallsite,
    CarriedOwner,
    DiffCounts,
    DiffDocument,
    DiffPair,
    DiffSide,
)
from analyzer.model import Callsite, ProjectionRow, Suggestion
from analyzer.owners.references import ReferenceGraph
from analyzer.summary_model import Summary

_DISTINCTIVE_SHAPES = ("string", "template")


@dataclass(frozen=True, slots=True)
class Pair:
    old: Callsite
    new: Callsite
    #: unchanged, moved or changed
    status: str
    #: same-fingerprint, same-function, same-neighbours or same-message
    evidence: str


@dataclass(frozen=True, slots=True)
class Diff:
    pairs: list[Pair]
    added: list[Callsite]
    removed: list[Callsite]
    #: new callsites that evidence pointed at more than one old callsite (or the reverse)
    ambiguous: list[Callsite]


def diff(old: list[Callsite], new: list[Callsite]) -> Diff:
    pairs: list[Pair] = []
    taken_old: set[str] = set()
    taken_new: set[str] = set()
    contested: set[str] = set()

    def take(candidates: Iterable[tuple[Callsite, Callsite]], evidence: str) -> None:
        found = list(candidates)
        claims_old = Counter(o.id for o, _ in found)
        claims_new = Counter(n.id for _, n in found)
        for o, n in found:
            if claims_old[o.id] > 1 or claims_new[n.id] > 1:
                contested.add(n.id)
                continue
            if o.id in taken_old or n.id in taken_new:
                continue
            taken_old.add(o.id)
            taken_new.add(n.id)
            status = "unchanged" if o.fingerprint == n.fingerprint else (
                "moved" if o.message.comparisonKey == n.message.comparisonKey else "changed")
            pairs.append(Pair(o, n, status, evidence))

    take(_same_fingerprint(old, new), "same-fingerprint")
    left = lambda rows, taken: [r for r in rows if r.id not in taken]  # noqa: E731
    take(_by_key(left(old, taken_old), left(new, taken_new), _function_key), "same-function")
    unchanged = {p.new.fingerprint for p in pairs if p.status == "unchanged"}
    take(_by_key(left(old, taken_old), left(new, taken_new), _gap_key(old, unchanged), _gap_key(new, unchanged)),
         "same-neighbours")
    take(_same_message(left(old, taken_old), left(new, taken_new), old, new, unchanged), "same-message")
    # a reworded message in the same place: the only callsite of its kind between the same
    # unchanged neighbours, on both sides
    take(_by_key(left(old, taken_old), left(new, taken_new), _gap_key(old, unchanged, _kind),
                 _gap_key(new, unchanged, _kind)), "same-place")
    # copies the steps above cannot tell apart: the same code in the same order between the same
    # unchanged neighbours pairs position by position
    take(_same_run(old, new, unchanged), "same-neighbours")
    pairs.sort(key=lambda p: (p.new.unit, p.new.offset, p.new.kind))
    added = [r for r in new if r.id not in taken_new and r.id not in contested]
    ambiguous = [r for r in new if r.id not in taken_new and r.id in contested]
    removed = [r for r in old if r.id not in taken_old]
    return Diff(pairs, added, removed, ambiguous)


def _unique(record: Callsite, field: str = "copies") -> bool:
    copies = record.copies if field == "copies" else record.functionCopies
    return copies is None or copies.count == 1


def _same_fingerprint(old: list[Callsite], new: list[Callsite]) -> Iterable[tuple[Callsite, Callsite]]:
    by_fp = {r.fingerprint: r for r in old if _unique(r)}
    for record in new:
        found = by_fp.get(record.fingerprint) if _unique(record) else None
        if found is not None:
            yield found, record


def _shape(record: Callsite) -> tuple[object, ...]:
    return (record.kind, record.constructor or record.calleeRole, record.consumer.role,
            record.message.comparisonKey)


def _kind(record: Callsite) -> tuple[object, ...]:
    return (record.kind, record.constructor or record.calleeRole)


def _function_key(record: Callsite) -> tuple[object, ...] | None:
    function = record.functionFingerprint
    if not function or not _unique(record, "functionCopies"):
        return None
    return (function, *_shape(record))


def _gap_key(records: list[Callsite], unchanged: set[str],
             shape: Callable[[Callsite], tuple[object, ...]] = _shape) \
        -> Callable[[Callsite], tuple[object, ...] | None]:
    """The unchanged callsites just before and after each callsite in its unit, and its shape."""
    around = {member.id: gap[:2] for gap, members in _runs(records, unchanged).items() for member in members}

    def key(record: Callsite) -> tuple[object, ...] | None:
        gap = around.get(record.id)
        if gap is None or gap == ("", ""):
            return None
        return (*gap, *shape(record))

    return key


def _by_key(
    old: list[Callsite],
    new: list[Callsite],
    old_key: Callable[[Callsite], tuple[object, ...] | None],
    new_key: Callable[[Callsite], tuple[object, ...] | None] | None = None,
) -> Iterable[tuple[Callsite, Callsite]]:
    """Pairs whose keys are equal and occur once on each side; a key that occurs more than
    once on a side yields every combination, which `take` refuses as contested."""
    new_key = new_key or old_key
    olds: dict[tuple[object, ...], list[Callsite]] = defaultdict(list)
    for record in old:
        k = old_key(record)
        if k is not None:
            olds[k].append(record)
    news: dict[tuple[object, ...], list[Callsite]] = defaultdict(list)
    for record in new:
        k = new_key(record)
        if k is not None:
            news[k].append(record)
    for k, members in news.items():
        for o in olds.get(k, []):
            for n in members:
                yield o, n


def _runs(records: list[Callsite], unchanged: set[str]) -> dict[tuple[str, ...], list[Callsite]]:
    """The callsites between each two consecutive unchanged callsites of a unit, in order, keyed by
    those two (by the unit when it has none)."""
    runs: dict[tuple[str, ...], list[Callsite]] = {}
    by_unit: dict[str, list[Callsite]] = defaultdict(list)
    for record in records:
        by_unit[record.unit].append(record)
    for unit, members in by_unit.items():
        members.sort(key=lambda r: (r.offset, r.kind))
        before, pending = "", []
        for member in [*members, None]:
            if member is not None and member.fingerprint not in unchanged:
                pending.append(member)
                continue
            after = member.fingerprint if member is not None else ""
            if pending:
                runs[(before, after) if before or after else ("", "", unit)] = pending
            pending = []
            before = after
    return runs


def _code(record: Callsite) -> tuple[object, ...]:
    """A callsite's code whatever its ordinal among copies: the fingerprint of its copies' first
    member, or its own when it has none (docs/fingerprints.md, "Copies"), and its shape."""
    return (record.copies.group or record.fingerprint, *_shape(record))


def _same_run(old: list[Callsite], new: list[Callsite], unchanged: set[str]) -> Iterable[tuple[Callsite, Callsite]]:
    """Position by position, the callsites of each run whose code, member by member, is the same
    on both sides."""
    olds = _runs(old, unchanged)
    for gap, members in _runs(new, unchanged).items():
        found = olds.get(gap)
        if found is not None and [_code(r) for r in found] == [_code(r) for r in members]:
            yield from zip(found, members, strict=True)


def _same_message(old: list[Callsite], new: list[Callsite], all_old: list[Callsite],
                  all_new: list[Callsite], unchanged: set[str]) -> Iterable[tuple[Callsite, Callsite]]:
    """A distinctive message that no other callsite of either release has, with the same
    unchanged neighbour on at least one side."""
    counts = Counter(r.message.comparisonKey for r in all_old) + Counter(
        r.message.comparisonKey for r in all_new)
    old_gap, new_gap = _gap_key(all_old, unchanged), _gap_key(all_new, unchanged)
    olds = {r.message.comparisonKey: r for r in old
            if r.message.shape in _DISTINCTIVE_SHAPES and counts[r.message.comparisonKey] == 2}
    for record in new:
        found = olds.get(record.message.comparisonKey)
        if found is None or (found.kind, found.constructor) != (record.kind, record.constructor):
            continue
        a, b = old_gap(found), new_gap(record)
        if a is not None and b is not None and (a[0] == b[0] != "" or a[1] == b[1] != ""):
            yield found, record


# ---- what the diff says ----------------------------------------------------------------------


def counts(result: Diff) -> DiffCounts:
    by = Counter(p.status for p in result.pairs)
    return DiffCounts(by.get("unchanged", 0), by.get("moved", 0), by.get("changed", 0), len(result.added),
                      len(result.removed), len(result.ambiguous))


def carried(result: Diff, old_rows: dict[str, ProjectionRow], label: str, emit: Callable[..., Suggestion],
            around: dict[str, tuple[str, str]]) -> list[Suggestion]:
    """Suggestions carrying the old release's reviewed owner to each moved or changed callsite:
    by its fingerprint when its code is the only copy in the new release, else by its
    neighbours (`around`, see `projection.neighbours`) when they single it out."""
    out = []
    for pair in result.pairs:
        place = None if _unique(pair.new) else around.get(pair.new.id)
        if pair.status == "unchanged" and _unique(pair.old) and _unique(pair.new):
            continue  # the entries that own it already match it
        if not _unique(pair.new) and place is None:
            continue
        row = old_rows.get(pair.old.id)
        if row is None or row.owner == "Unresolved" or row.evidence is None:
            continue
        evidence = [("carried-from", f"{label} {pair.old.fingerprint} ({pair.evidence}, {pair.status})"),
                    ("owned-by", f"{row.evidence['level']} entry {row.evidence['entry']}")]
        fingerprint = pair.new.fingerprint if place is None else pair.new.copies.group
        out.append(emit(f"s:carried:{pair.new.id}", "callsite", fingerprint, None, row.owner,
                        row.package, "likely", evidence, [pair.new], row.function,
                        pair.new.message.comparisonKey, neighbours=place))
    return out


def document(result: Diff, old: DiffSide, new: DiffSide, carried_rows: list[Suggestion]) -> DiffDocument:
    """The document of a diff (`diff.json`): both sides, counts, and every callsite."""
    carried_to = {row.exampleIds[0]: CarriedOwner(row.owner, row.package)
                  for row in carried_rows if row.exampleIds and row.owner is not None}
    return DiffDocument(
        schema=DIFF_SCHEMA,
        old=old,
        new=new,
        counts=counts(result),
        carried=len(carried_rows),
        pairs=tuple(DiffPair(p.status, p.evidence, _brief(p.old), _brief(p.new), carried_to.get(p.new.id))
                    for p in result.pairs),
        added=tuple(_brief(r) for r in result.added),
        removed=tuple(_brief(r) for r in result.removed),
        ambiguous=tuple(_brief(r) for r in result.ambiguous),
    )


def _brief(record: Callsite) -> BriefCallsite:
    return BriefCallsite(record.id, record.fingerprint, record.kind, record.message.comparisonKey,
                         record.module.name if record.module is not None else None)


def carried_logger_roots(old_summary: Summary, old_rows: dict[str, ProjectionRow], new_summary: Summary,
                         graph: ReferenceGraph, label: str, emit: Callable[..., Suggestion]
                         ) -> list[Suggestion]:
    """When the old release's detected diagnostic logger was a reviewed product root, suggest
    the new release's detected logger as one: the logger is a role each release's scan finds
    again (`loggers[].evidence`), while its code, and so its `fp1b`, changes between releases."""
    roots = {(step["binding"], step["fingerprint"]) for row in old_rows.values()
             if row.owner == "Product" and row.evidence and row.evidence["level"] == "references"
             for step in row.evidence["chain"][-1:]}
    old_loggers = {(lg.unit, lg.name) for lg in old_summary.loggers if lg.name}
    rooted = {name for name, _ in roots} & {name for _, name in old_loggers}
    if not rooted:
        return []
    out = []
    for logger in new_summary.loggers:
        name = logger.name
        found = graph.bindings.get((logger.unit, name)) if name else None
        if found is None or found[0] is None or found[1] > 1 or found[2]:
            continue
        fingerprint = found[0]
        evidence = [("carried-from", f"{label}: the detected diagnostic logger {sorted(rooted)[0]} was a reviewed "
                                     "product root"),
                    ("logger", f"{name} in {logger.unit}: {logger.source}")]
        out.append(emit(f"s:carried-root:{logger.unit}", "references", fingerprint, None, "Product", None,
                        "likely", evidence, [], f"{name} (the diagnostic logger)", None))
    return out


def diff_outputs(raw: bytes) -> dict[str, str] | None:
    """The files a diff directory's `diff.json` lists with their sha256 (it is their manifest:
    `write_directory` replaces a directory only when it holds exactly these)."""
    import orjson

    try:
        document = orjson.loads(raw)
    except orjson.JSONDecodeError:
        return None
    outputs = document.get("outputs") if isinstance(document, dict) and document.get("schema") == DIFF_SCHEMA \
        else None
    if not isinstance(outputs, dict) or not all(isinstance(v, str) for v in outputs.values()):
        return None
    return outputs
