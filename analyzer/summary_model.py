"""The parts of a summary (`error-diagnostic-owner-summary.json`, docs/reference.md) that the
verbs read back, typed: the inputs, the coverage, the allowlist entries that did not apply, the
Unresolved fingerprints, the loggers and the handler findings. The rest of the document (counts
by constructor and level, evidence, invariants) stays open data the summary carries."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


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
class Summary:
    """A summary as the verbs read it: the typed parts, and the whole `document`."""

    document: dict[str, Any]
    bundle: InputFile
    units: tuple[InputFile, ...]
    allowlists: tuple[RecordedAllowlist, ...]
    loggers: tuple[LoggerSeen, ...]
    #: callsites in all
    total: int
    coverage: SummaryCoverage
    stale: tuple[StaleEntry, ...]
    drifted: tuple[DriftedEntry, ...]
    ambiguous: tuple[AmbiguousEntry, ...]
    unresolvedFingerprints: tuple[str, ...]
    #: finding (swallowed, lostCause, uselessCatch) -> the fp1h fingerprints of the Product handlers
    #: it flags; None for a scan without handlers
    productFindings: dict[str, tuple[str, ...]] | None
