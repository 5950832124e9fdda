"""The parts of a SARIF 2.1.0 log that `erratlas sarif` and `gate --format sarif` write, typed
(docs/reference.md, "SARIF"): each TypedDict holds the keys we emit, in the order we emit them.
Annotations are evaluated (no `from __future__ import annotations`), so that `NotRequired` keys
are optional at run time too (`__required_keys__`).
"""

from typing import Final, Literal, NotRequired, TypedDict

from analyzer.model import ConsumerRole, HandlerForm, OwnerClass

#: the partial fingerprints a code host tracks a callsite's and a handler's results by
FINGERPRINT_KEY: Final = "erratlasCallsite/v1"
HANDLER_FINGERPRINT_KEY: Final = "erratlasHandler/v1"

Level = Literal["error", "warning", "note"]
BaselineState = Literal["new", "unchanged"]


class Text(TypedDict):
    text: str


class ArtifactLocation(TypedDict):
    #: a path relative to `uriBaseId`, or an absolute file URI (no base)
    uri: str
    uriBaseId: NotRequired[str]


class Region(TypedDict):
    startLine: int
    #: absent at an original source's line (a map's columns count UTF-16 units)
    startColumn: NotRequired[int]


class PhysicalLocation(TypedDict):
    artifactLocation: ArtifactLocation
    region: Region


class LogicalLocation(TypedDict):
    name: str
    fullyQualifiedName: str
    kind: Literal["function", "module"]


class Location(TypedDict):
    physicalLocation: PhysicalLocation
    logicalLocations: list[LogicalLocation]


class RelatedLocation(TypedDict):
    id: int
    physicalLocation: PhysicalLocation
    message: Text


class Related(TypedDict, total=False):
    """A result's related location (the readable one), present when the primary is an original source."""

    relatedLocations: list[RelatedLocation]


CallsiteFingerprints = TypedDict("CallsiteFingerprints", {"erratlasCallsite/v1": str, "primaryLocationLineHash": str})
HandlerFingerprints = TypedDict("HandlerFingerprints", {"erratlasHandler/v1": str, "primaryLocationLineHash": str})


class _PlaceProperties(TypedDict):
    """What a callsite's and a handler's results both carry: the record's place and owner."""

    id: str
    unit: str
    offset: int
    endOffset: int
    line: int
    column: int
    owner: OwnerClass
    package: str | None


class CallsiteProperties(_PlaceProperties):
    evidence: str | None
    comparisonKey: str
    consumerRole: ConsumerRole
    copies: int
    functionFingerprint: str | None


class HandlerProperties(_PlaceProperties):
    form: HandlerForm
    copies: int


class Result(TypedDict):
    ruleId: str
    ruleIndex: int
    level: Level
    message: Text
    locations: list[Location]
    relatedLocations: NotRequired[list[RelatedLocation]]
    partialFingerprints: CallsiteFingerprints | HandlerFingerprints
    properties: CallsiteProperties | HandlerProperties
    #: against `--baseline`, an Unresolved callsite's
    baselineState: NotRequired[BaselineState]


class LevelConfiguration(TypedDict):
    level: Level


class RuleProperties(TypedDict):
    #: error, diagnostic or handler
    kind: str
    #: a callsite rule's owner state (a flow rule has none)
    owner: NotRequired[OwnerClass]


class Rule(TypedDict):
    """A reportingDescriptor."""

    id: str
    name: str
    shortDescription: Text
    fullDescription: Text
    defaultConfiguration: LevelConfiguration
    help: Text
    properties: RuleProperties


class Descriptor(TypedDict):
    id: str


class Notification(TypedDict):
    level: Level
    message: Text
    descriptor: Descriptor


class Invocation(TypedDict):
    executionSuccessful: bool
    #: the gate's failures, one each
    toolExecutionNotifications: NotRequired[list[Notification]]


class Driver(TypedDict):
    name: str
    version: str
    semanticVersion: str
    rules: list[Rule]


class Tool(TypedDict):
    driver: Driver


class AutomationDetails(TypedDict):
    id: str


class BaseDescription(TypedDict):
    description: Text


class Bases(TypedDict, total=False):
    """A run's `originalUriBaseIds`, present when a location uses a base only it describes."""

    originalUriBaseIds: dict[str, BaseDescription]


class RunProperties(TypedDict):
    bundle: str
    bundleSha256: str
    selection: str
    coverage: str
    fingerprintVersion: str


class Run(TypedDict):
    tool: Tool
    automationDetails: AutomationDetails
    originalUriBaseIds: NotRequired[dict[str, BaseDescription]]
    columnKind: Literal["unicodeCodePoints"]
    invocations: list[Invocation]
    results: list[Result]
    properties: RunProperties


Log = TypedDict("Log", {"$schema": str, "version": str, "runs": list[Run]})
