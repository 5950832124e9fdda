"""The records of a release-to-release diff, `diff.json` (docs/reference.md, "A diff directory"):
made by `analyzer.owners.diff`, read by `analyzer.reports.diff` for `diff.md`."""

from __future__ import annotations

from dataclasses import dataclass, field

DIFF_SCHEMA = "erratlas.diff/1"


@dataclass(frozen=True, slots=True)
class DiffSide:
    """One release of the two."""

    #: `--old-label`/`--new-label`, else the bundle's name and the start of its sha256
    label: str
    bundle: str
    sha256: str
    callsites: int


@dataclass(frozen=True, slots=True)
class DiffCounts:
    unchanged: int
    moved: int
    changed: int
    added: int
    removed: int
    ambiguous: int


@dataclass(frozen=True, slots=True)
class BriefCallsite:
    """What the diff says of a callsite: its id, fingerprint, kind, message key and module."""

    id: str
    fingerprint: str
    kind: str
    message: str
    #: its innermost module's name, else None
    module: str | None


@dataclass(frozen=True, slots=True)
class CarriedOwner:
    """The reviewed owner a pair's old callsite had, proposed for the new one (`carried.jsonl`)."""

    #: Product or Dependency
    owner: str
    package: str | None


@dataclass(frozen=True, slots=True)
class DiffPair:
    #: unchanged, moved or changed
    status: str
    #: same-fingerprint, same-function, same-neighbours, same-message or same-place
    evidence: str
    old: BriefCallsite
    new: BriefCallsite
    carried: CarriedOwner | None


@dataclass(frozen=True, slots=True)
class DiffDocument:
    """`diff.json`: both sides, the counts, and every callsite paired, added, removed or left
    ambiguous."""

    schema: str
    old: DiffSide
    new: DiffSide
    counts: DiffCounts
    #: how many owners `carried.jsonl` proposes
    carried: int
    pairs: tuple[DiffPair, ...]
    added: tuple[BriefCallsite, ...]
    removed: tuple[BriefCallsite, ...]
    ambiguous: tuple[BriefCallsite, ...]
    #: file name -> sha256 of the directory's other files (it is their manifest); empty until written
    outputs: dict[str, str] = field(default_factory=dict)
