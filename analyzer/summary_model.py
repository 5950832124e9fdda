"""The parts of a summary (`error-diagnostic-owner-summary.json`, docs/reference.md) that the
verbs read back, typed: the inputs, the coverage, the allowlist entries that did not apply, the
Unresolved fingerprints, the loggers and the handler findings; the owner part as the owner verbs
write it; a baseline as the gate reads it. The scan's own part (counts, modules, evidence) stays
open data the summary carries as it is, but for what the verbs read of it (the fingerprint block,
the source maps)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from analyzer.errors import InvariantError


@dataclass(frozen=True, slots=True)
class InputFile:
    """The input, or one of its units: name, sha256 and size."""

    name: str
    sha256: str
    bytes: int


@dataclass(frozen=True, slots=True)
class RecordedAllowlist:
    """An allowlist the scan applied: its path as given, its sha256 and its entry count."""

    path: str
    sha256: str
    entries: int


@dataclass(frozen=True, slots=True)
class Coverage:
    owned: int
    total: int
    #: owned / total (1.0 for no callsite)
    value: float
    display: str


@dataclass(frozen=True, slots=True)
class SummaryCoverage:
    overall: Coverage
    error: Coverage
    diagnostic: Coverage


@dataclass(frozen=True, slots=True)
class StaleEntry:
    """An allowlist entry that matches nothing."""

    entry: str
    level: str
    fingerprint: str
    owner: str
    package: str | None
    function: str | None
    expect: str | None
    copies: int | None


@dataclass(frozen=True, slots=True)
class DriftedEntry(StaleEntry):
    """An entry whose callsite's message is no longer the one it expects."""

    #: the callsite it matches, and the message found there
    callsite: str
    found: str


@dataclass(frozen=True, slots=True)
class AmbiguousEntry:
    """An entry naming one of several identical copies without saying which: never applied."""

    entry: str
    level: str
    fingerprint: str
    owner: str
    package: str | None
    function: str | None
    expect: str | None
    #: how many copies there are, and which of them it matched
    copies: int
    matched: str


@dataclass(frozen=True, slots=True)
class LoggerSeen:
    """A diagnostic logger of a unit: its name (None when none was found) and how it was known."""

    unit: str
    name: str | None
    #: detected, or named by the rules
    source: str


@dataclass(frozen=True, slots=True)
class FingerprintBlock:
    """The fingerprint algorithm and the parsers a scan was made with (`fingerprint`)."""

    version: str
    anchorLimit: int
    #: parser package -> its version
    grammar: dict[str, str]


@dataclass(frozen=True, slots=True)
class PackageRoot:
    """A used map's package root: its path from the unit's directory, its name and the sha256 of
    its package.json (None for an archive's root without one)."""

    path: str
    name: str | None
    sha256: str | None


@dataclass(frozen=True, slots=True)
class SourceMapRow:
    """A source map a unit names (`modules.sourceMaps`), and for a used one where its sources lie."""

    unit: str
    map: str | None
    #: used, or why not
    status: str
    sha256: str | None
    sources: int
    mappedCallsites: int
    #: a used map only (None there: no package root)
    packageRoot: PackageRoot | None = None
    #: a used map only: its distinct sources by place
    places: dict[str, int] | None = None


@dataclass(frozen=True, slots=True)
class Summary:
    """A verified summary as the verbs read it: the typed parts, and the whole `document` (the
    raw JSON, for the gate's comparison with the summary it makes again)."""

    document: Mapping[str, object]
    fingerprint: FingerprintBlock
    bundle: InputFile
    units: tuple[InputFile, ...]
    allowlists: tuple[RecordedAllowlist, ...]
    loggers: tuple[LoggerSeen, ...]
    #: callsites in all
    total: int
    sourceMaps: tuple[SourceMapRow, ...]
    owners: OwnerCounts
    coverage: SummaryCoverage
    stale: tuple[StaleEntry, ...]
    drifted: tuple[DriftedEntry, ...]
    ambiguous: tuple[AmbiguousEntry, ...]
    unresolvedFingerprints: tuple[str, ...]
    #: finding (swallowed, lostCause, uselessCatch) -> the fp1h fingerprints of the Product handlers
    #: it flags; None for a scan without handlers
    productFindings: dict[str, tuple[str, ...]] | None
    #: every file of the directory but the summary -> its sha256, each checked
    outputs: dict[str, str]


# ---- the owner part, as the owner verbs write it ---------------------------------------------------


@dataclass(frozen=True, slots=True)
class Invariant:
    """One equality a summary checked (`invariants`): its two sides, and whether they are equal."""

    name: str
    holds: bool
    left: int
    right: int


@dataclass(frozen=True, slots=True)
class OwnerCounts:
    """The summary's `owners`: callsites by owner class, overall and by kind, constructor, level;
    the owned ones by package."""

    total: dict[str, int]
    byKind: dict[str, dict[str, int]]
    byConstructor: dict[str, dict[str, int]]
    byLevel: dict[str, dict[str, int]]
    byPackage: dict[str, int]


@dataclass(frozen=True, slots=True)
class HandlerOwners:
    """The summary's `handlerOwners`: handlers and their branches' dispositions by owner class,
    and each finding's fp1h fingerprints by owner class."""

    total: dict[str, int]
    byDisposition: dict[str, dict[str, int]]
    findings: dict[str, dict[str, list[str]]]


@dataclass(frozen=True, slots=True)
class OwnerPart:
    """What the owners add to a summary, in the order it is written (docs/reference.md)."""

    owners: OwnerCounts
    coverage: SummaryCoverage
    stale: list[StaleEntry]
    drifted: list[DriftedEntry]
    ambiguous: list[AmbiguousEntry]
    unresolvedFingerprints: list[str]
    #: the owners' invariants (the scan's own stay in its part)
    invariants: list[Invariant]
    #: None for a scan without handlers
    handlerOwners: HandlerOwners | None


@dataclass(frozen=True, slots=True)
class ScanHead:
    """What the index's first lines say of the scan: the input, its units, the versions."""

    bundle: InputFile
    units: int
    tool: str
    fingerprint: str


@dataclass(frozen=True, slots=True)
class HandlerTally:
    """The scan's `handlers` block as the owners read it: the handlers and their branches by
    disposition, which the owners' counts must sum to."""

    count: int
    byDisposition: dict[str, int]


@dataclass(frozen=True, slots=True)
class ScanPart:
    """The scan's part of a summary as the owner verbs carry it: the document itself (open data,
    written back as it is; `reports.summary.finish` makes the owners' keys again) and what the
    owners read of it, typed."""

    #: the summary document the scan wrote, in its key order
    document: Mapping[str, object]
    #: its `inputs`, whose `allowlists` the owners replace
    inputs: Mapping[str, object]
    #: its `invariants`: the scan's own, and the owners' that are made again
    invariants: tuple[Invariant | Mapping[str, object], ...]
    #: what the index's first lines say of the scan
    head: ScanHead
    #: its `handlers` block; None for a scan without handlers
    handlers: HandlerTally | None


@dataclass(frozen=True, slots=True)
class Baseline:
    """A baseline summary as the gate compares with it."""

    #: callsites in all
    total: int
    unresolvedFingerprints: tuple[str, ...]
    #: finding key -> the fp1h fingerprints of the handlers it flags, every owner's; None when
    #: the summary has no handlerOwners
    flagged: dict[str, tuple[str, ...]] | None
    #: the name of the bundle it is a scan of (None when the summary does not say)
    bundle: str | None = None


def invariants_of(checks: list[tuple[str, int, int]]) -> list[Invariant]:
    """Each (name, left, right) check as an invariant; raises naming every one that fails."""
    rows = [Invariant(name, left == right, left, right) for name, left, right in checks]
    broken = [row for row in rows if not row.holds]
    if broken:
        raise InvariantError("; ".join(f"{row.name}: {row.left} != {row.right}" for row in broken))
    return rows
