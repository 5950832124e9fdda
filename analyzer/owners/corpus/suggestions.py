"""The suggestion a decided callsite earns: its confidence, evidence and version, identical copies
named together, and the corpus's rows merged with the other evidence (docs/corpus.md, "Matching").
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, replace

from analyzer.model import Callsite, Suggestion, SuggestionEvidence
from analyzer.owners.corpus.decision import Decision, Hit
from analyzer.scandir.files import SUGGESTION_SCHEMA


@dataclass(frozen=True, slots=True)
class Chosen:
    """The version of a package that matches the bundle best, and how the others did."""

    version: str
    #: version -> bundle functions it matches
    scores: dict[str, int]
    requested: str


def version_key(version: str) -> tuple[int, ...]:
    parts = []
    for part in version.split("-")[0].split("."):
        parts.append(int(part) if part.isdigit() else -1)
    return tuple(parts)


def _apart(members: list[tuple[Callsite, Decision, Decision | None]], besides: list[Decision | None],
           parted: Callable[[tuple[Callsite, Decision], tuple[Callsite, Decision]], bool]) -> dict[int, str]:
    """The copies placed in a package only by the code beside them, outside any bundler module, whose
    package code lies apart from another's, another package's code between them (`Neighbours.parted`):
    a second install, or the package's file copied into another package's or the product's own
    source, which the code cannot tell apart without the module boundaries. By index, why."""
    loose = [(i, record, beside) for i, ((record, _, _), beside) in enumerate(zip(members, besides))
             if beside is not None]
    out = {}
    for i, record, beside in loose:
        package = beside.packages[0]
        if any(j != i and other.packages[0] == package and parted((record, beside), (mate, other))
               for j, mate, other in loose):
            out[i] = (f"another of its identical copies sits in {package}'s code apart from it, another package's "
                      f"code between them, outside any bundler module: a second install of {package}, or its file "
                      f"copied into another package's or the product's own code")
    return out


def named_copies(decided: list[tuple[Callsite, Decision, Decision | None]], chosen: dict[str, Chosen],
                  around: dict[str, tuple[str, str]], placed: Callable[[Callsite, Decision], Decision | None],
                  parted: Callable[[tuple[Callsite, Decision], tuple[Callsite, Decision]], bool] = lambda a, b: False
                  ) -> list[Suggestion]:
    """One suggestion per unique callsite; identical copies are named without an ordinal: all of
    them together (`copies`) when each is decided for the same package, else each by its
    neighbours when they single it out; a copy that neither names is `possible`. `parted(a, b)`:
    whether two copies' code of their package lies apart outside any bundler module, another package's
    code between them (`Neighbours.parted`) (docs/corpus.md, "Matching", copies)."""
    out = []
    groups: dict[tuple[str, int], list[tuple[Callsite, Decision, Decision | None]]] = defaultdict(list)
    for record, decision, contained in decided:
        if record.copies.count == 1:
            out.append(_suggestion(record, decision, contained, chosen))
        else:  # identical copies are a group, named by its first fingerprint
            groups[(record.copies.group or "", record.copies.count)].append((record, decision, contained))
    for (group, count), members in sorted(groups.items()):
        # identical code in several places is shared code: a copy is decided only where its
        # module was identified as the package its function names, or the code beside it names
        # that package too (not by the function alone, which every copy's true package may not
        # be in the corpus to contest)
        besides = [placed(r, d) if c is None else None for r, d, c in members]
        doubted = _apart(members, besides, parted)
        # a copy apart from another is decided alone, with why as its doubt (unless it has one)
        members = [(r, replace(d, doubt=doubted[i]) if i in doubted and d.doubt is None else d, c)
                   for i, (r, d, c) in enumerate(members)]
        rows = []
        for i, ((r, d, c), beside) in enumerate(zip(members, besides)):
            rows.append(_suggestion(r, d, c, chosen) if i in doubted
                        else _suggestion(r, d, c, chosen, as_copy=True) if c is not None and d.packages == c.packages
                        else _suggestion(r, beside, c, chosen, as_copy=True) if beside is not None
                        else _suggestion(r, d, c, chosen))
        if len(members) == count and all(r.confidence == "exact" for r in rows) \
                and len({r.package for r in rows}) == 1:
            records = [r for r, _, _ in members]
            out.append(replace(rows[0], match={"callsite": group}, copies=count, callsites=count,
                               exampleIds=tuple(r.id for r in records[:5]),
                               expect=rows[0].expect if len({r.message.comparisonKey for r in records}) == 1
                               else None,
                               reason=rows[0].reason + f"; all {count} identical copies decided alike"))
            continue
        for (record, decision, contained), row in zip(members, rows):
            place = around.get(record.id)
            if row.confidence == "exact" and place is not None:
                out.append(replace(row, match={"callsite": group}, neighbours=place,
                                   reason=row.reason + "; one of identical copies, named by its neighbours"))
            else:
                out.append(_suggestion(record, decision, contained, chosen))
    return out


def _suggestion(record: Callsite, decision: Decision, contained: Decision | None,
                chosen: dict[str, Chosen], as_copy: bool = False) -> Suggestion:
    """`as_copy`: decide as if the callsite were the only copy (the caller names the copies)."""
    packages = decision.packages
    evidence: list[SuggestionEvidence] = []
    reasons = []
    if decision.how == "function":
        for hit in _best_hits(decision.hits, chosen)[:3]:
            evidence.append(SuggestionEvidence("corpus-function", f"{decision.detail} {hit.describe()}"))
        if all(h.weak for h in decision.hits):
            reasons.append("matched only in bundle files, which may hold any package's code")
        elif not any(h.decides for h in decision.hits):
            reasons.append("matched only in versions published after the bundle's window")
    if contained is not None:
        evidence.append(SuggestionEvidence("corpus-module", contained.detail))
        if decision.how == "function" and contained.packages[0] in packages:
            packages = contained.packages  # a helper vendored by several packages, in the module of one of them
        elif decision.how == "function":
            packages = tuple(sorted(set(packages) | set(contained.packages)))
            reasons.append("its function matches another package than its module")
    for name in packages:
        if name in chosen:
            evidence.append(SuggestionEvidence("corpus-version", _version_detail(name, chosen[name])))
    copies = record.copies.count
    if len(packages) > 1:
        reasons.append(f"{len(packages)} candidate packages")
    if copies > 1 and not as_copy:
        reasons.append(f"{copies} identical copies of this callsite in the scan")
    if decision.doubt is not None:
        reasons.append(decision.doubt)
    confidence = "possible" if reasons else "exact"
    weak_only = decision.how == "function" and not any(h.decides for h in decision.hits) and contained is None
    package = packages[0] if len(packages) == 1 and not weak_only else None
    what = f"callsite {record.id}"
    owner = package or " or ".join(packages)
    function = next((h.function for h in _best_hits(decision.hits, chosen) if h.package == package), None)
    return Suggestion(
        schema=SUGGESTION_SCHEMA,
        id=f"s:{record.id}",
        level="callsite",
        match={"callsite": record.fingerprint},
        copies=None, neighbours=None,
        owner="Dependency",
        package=package,
        function=function,
        expect=record.message.comparisonKey,
        confidence=confidence,
        evidence=tuple(evidence),
        candidates=tuple(packages),
        callsites=1, exampleIds=(record.id,), reachedBy=None,
        reason=f"{what}: corpus evidence points to {owner} ({confidence}"
               + (f": {'; '.join(reasons)}" if reasons else "") + ")",
    )


def _best_hits(hits: tuple[Hit, ...], chosen: dict[str, Chosen]) -> list[Hit]:
    """Hits in the chosen version first, then by package, version, file and line."""
    def rank(hit: Hit) -> tuple[bool, bool, str, str, str, int]:
        best = chosen.get(hit.package)
        return (not hit.decides, best is None or best.version != hit.version, hit.package, hit.version, hit.file,
                hit.line)

    return sorted(hits, key=rank)


def _version_detail(package: str, chosen: Chosen) -> str:
    if len(chosen.scores) == 1:
        how = "the version asked for" if chosen.requested == "version" else "the only version in the corpus"
        return f"{package}@{chosen.version} ({how}; {chosen.scores[chosen.version]} bundle functions match)"
    scores = ", ".join(f"{v}: {n}" for v, n in sorted(chosen.scores.items(), key=lambda vn: (-vn[1], vn[0])))
    best = chosen.scores[chosen.version]
    tied = sorted((v for v, n in chosen.scores.items() if n == best), key=version_key)
    if len(tied) > 1:
        listed = ", ".join(tied[:-1]) + " and " + tied[-1]
        return (f"{package}@{listed} match equally ({best} bundle functions each): the bundle's copy is any of "
                f"them, not only {chosen.version} (bundle functions matched: {scores})")
    return (
        f"{package}@{chosen.version} matches best of {len(chosen.scores)} versions (bundle functions matched: {scores})"
    )


def merged(existing: list[Suggestion], corpus_rows: list[Suggestion], records: list[Callsite]
           ) -> list[Suggestion]:
    """The evidence of today (source maps, module keys, banners, signatures) with the corpus's:
    a callsite a source map already places gets no corpus row; a corpus row that another kind of
    evidence contradicts becomes `possible`, naming both."""
    covering: dict[str, Suggestion] = {}
    by_module: dict[str, Suggestion] = {}
    by_callsite: dict[str, Suggestion] = {}
    for row in existing:
        (level, fingerprint), = row.match.items()
        (by_module if level == "module" else by_callsite)[fingerprint] = row
    for record in records:
        module = record.module
        found = by_callsite.get(record.fingerprint) or (by_module.get(module.fingerprint) if module else None)
        if found is not None:
            covering[record.id] = found
    out = list(existing)
    for row in corpus_rows:
        other = covering.get(row.exampleIds[0])
        if other is not None and other.confidence == "exact":
            continue
        if other is not None and other.package != row.package:
            names = sorted({*(c for c in row.candidates or () if isinstance(c, str)), other.package or "the product"})
            row = replace(row, package=None, confidence="possible", candidates=tuple(names),
                          evidence=row.evidence + other.evidence,
                          reason=row.reason.rsplit(" (", 1)[0]
                          + f" (possible: {other.id} ({other.confidence}) names {other.package or 'the product'})")
        out.append(replace(row, id="c" + row.id[1:]))
    return out
