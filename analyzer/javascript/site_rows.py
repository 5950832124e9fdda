"""The callsites of a unit from its trees' node-free rows (docs/slices.md, stages 5a-5g): each tree
resolves the constructors and its logger candidates and hands back its top-level bindings, its
logger evidence and a row per call of those names; the merge re-binds the rows of L's level,
chooses the logger and keeps the real sites. A whole tree is the one slice."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import NamedTuple

from tree_sitter import Node, Tree

from analyzer.javascript import logger as logger_detection
from analyzer.javascript.classes import heritage_names
from analyzer.javascript.resolve import Resolution
from analyzer.javascript.rules import JavaScriptRules
from analyzer.javascript.top_bindings import Bound, TopBindings, TopScopes, merged, top_bindings


class CallRow(NamedTuple):
    """A call or `new` of a constructor or of a logger candidate's name (a tuple: a tree makes
    one per call of those names, thousands, and a frozen record costs three times as much)."""

    name: str
    start: int
    end: int
    #: a call, not a `new` (a loose name before `(` counts as a call)
    call: bool
    #: a name the parser left loose before `(` in an ERROR region
    recovered: bool
    bound: Bound


@dataclass(slots=True)
class SliceSites:
    """What one tree hands back for the callsites."""

    top: TopBindings
    logger: logger_detection.LoggerSlice
    calls: list[CallRow]


@dataclass(slots=True)
class TreeSites:
    """One tree's rows, and what stays with its tree: the resolution (the error classes read
    it), the heritages and the nodes of its calls by (start, end)."""

    rows: SliceSites
    resolution: Resolution
    heritages: list[tuple[str, Node]]
    nodes: dict[tuple[int, int], Node]


def tree_sites(
    tree: Tree, source: bytes, rules: JavaScriptRules, forced: str | None, scopes: TopScopes,
    more: frozenset[str] = frozenset(),
) -> TreeSites:
    """The rows of one tree, its logger candidates its own (`more`: names to resolve besides,
    the unit's candidates it lacked)."""
    within = tree_range(tree, source)
    options = logger_detection.level_options(tree, source, rules, within)
    declarations = logger_detection.default_level_declarations(tree, source, rules, within)
    heritages = heritage_names(tree, source, within)
    logger_names = logger_detection.candidate_names(options, declarations, rules) | more
    if forced:
        logger_names.add(forced)
    constructors = set(rules.constructors)
    resolution = Resolution(tree, source, constructors | set(rules.class_roots) | logger_names, within)
    wanted = constructors | logger_names
    rows: list[CallRow] = []
    nodes: dict[tuple[int, int], Node] = {}
    bound = scopes.bound
    called = resolution.calls()
    for reference, call in called:
        if reference.name in wanted:
            span = (call.start_byte, call.end_byte)
            nodes[span] = call
            rows.append(CallRow(reference.name, *span, call.type == "call_expression", False, bound(reference)))
    for reference in resolution.recovered:
        if reference.name in wanted:
            node = reference.node
            span = (node.start_byte, node.end_byte)
            nodes[span] = node
            rows.append(CallRow(reference.name, *span, True, True, bound(reference)))
    found = SliceSites(top_bindings(resolution, scopes),
                       logger_detection.logger_slice(resolution, called, scopes, options, declarations,
                                                     logger_names, forced), rows)
    return TreeSites(found, resolution, heritages, nodes)


def tree_range(tree: Tree, source: bytes) -> tuple[int, int]:
    """The bytes a tree was parsed from: the unit's, or a slice's range (its regex passes read
    only those: N slices cost one pass over the unit, not N)."""
    ranges = tree.included_ranges
    return max(0, ranges[0].start_byte), min(len(source), ranges[-1].end_byte)


@dataclass(frozen=True, slots=True)
class UnitSites:
    """The unit's logger and callsites, from every tree's rows."""

    choice: logger_detection.LoggerChoice
    #: (start, end, kind) in source order
    sites: list[tuple[int, int, str]]
    shadowed: Counter[str]


def merge_sites(
    parts: list[SliceSites], head: TopBindings, source: bytes, rules: JavaScriptRules, forced: str | None,
) -> UnitSites:
    """The logger and the sites of the unit whose head tree gave `head` (`logger.missing_names`
    must find none: every tree resolved the unit's candidate names)."""
    top = merged([head, *(part.top for part in parts)])
    choice = logger_detection.choose([part.logger for part in parts], top, source, rules, forced)
    logger_key = choice.binding.key if choice.binding is not None else None
    constructors = set(rules.constructors)
    sites: list[tuple[int, int, str]] = []
    shadowed: Counter[str] = Counter()
    for part in parts:
        for row in part.calls:
            name = row.name
            key = top.rebound(name, row.bound)
            logged = name == choice.name and row.call
            if row.recovered:  # a loose name is the constructor's or else the logger's
                logged = logged and name not in constructors
            if logged:
                if key == logger_key:
                    sites.append((row.start, row.end, "diagnostic"))
                else:
                    shadowed[name] += 1
            if name in constructors:
                if key is None:
                    sites.append((row.start, row.end, "error"))
                else:
                    shadowed[name] += 1
    sites.sort(key=lambda site: (site[0], site[2]))
    return UnitSites(choice, sites, shadowed)
