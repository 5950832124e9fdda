"""One JavaScript unit -> plain facts about its callsites and error classes (no tree nodes
survive this stage, so the tree's memory is freed when it returns)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, cast

from tree_sitter import Node, Tree

from analyzer.bundle.load import file_name
from analyzer.facts import (
    ClassFacts,
    ErrorRegion,
    LeftOut,
    LoggerDeclaration,
    LoggerFacts,
    SiteFacts,
    UnitFacts,
    UnitHandlers,
)
from analyzer.isolated import report
from analyzer.javascript import logger as logger_detection
from analyzer.javascript.classes import error_classes
from analyzer.javascript.handlers import called_sources, find_handlers
from analyzer.javascript.handlers.empty_callees import with_empty_callees
from analyzer.javascript.handlers.helpers import with_reads
from analyzer.javascript.handlers.named_constants import with_constants
from analyzer.javascript.modules import ModuleMap, find_modules, unit_evidence
from analyzer.javascript.reference_merge import slice_references, unit_references
from analyzer.javascript.reference_slices import root_candidates
from analyzer.javascript.references import Chunk, Listing, UnitReferences, binding_digests, chunk_references, listing
from analyzer.javascript.resolve import Resolution
from analyzer.javascript.rules import JavaScriptRules
from analyzer.javascript.site_facts import RecoveredShape, _columns, _site
from analyzer.javascript.site_rows import merge_sites, tree_sites
from analyzer.javascript.syntax import parse
from analyzer.javascript.top_bindings import TopBindings, TopScopes
from analyzer.javascript.unit_extras import JavaScriptUnit
from analyzer.javascript.unit_tree import UnitTree
from analyzer.limits import WorkBudget, check_callsites
from analyzer.model import Unit
from analyzer.parallel.executor import Inline
from analyzer.places import EMBEDDED, UnitPlace, file_place
from analyzer.trace import mark

if TYPE_CHECKING:  # the driver is imported only when a unit is cut (its import: 15 ms, mostly patterns)
    from analyzer.javascript.sliced import SlicedHalves


_INLINE = Inline()


def extract_unit(
    unit: Unit, rules: JavaScriptRules, forced_logger: str | None, bundle: Path, executor: Inline = _INLINE,
    place: UnitPlace | None = None, keep: list[Tree] | None = None,
) -> UnitFacts:
    """The facts of one unit of `bundle`. The work after the parse that is a list of independent
    tasks (the reference graph by chunks of items, the callsites' facts, the digests of the
    bindings that may root a `references` entry) is handed to `executor.map`: the facts are the
    same on any executor. `place`: where the unit lies (default: `bundle`'s file when the unit
    is it, else embedded). The unit's tree is freed when this returns (it is the scan's largest
    object, docs/performance.md), unless `keep` is given: then it is appended to it.

    When the executor cuts it (`slices_for`: a large unit, with a worker) the unit is read as
    slices, one tree at a time, and their halves merged (`sliced.sliced_halves`); when that
    cannot be exact, its stages run on the whole tree (docs/slices.md)."""
    own_file = unit.name == file_name(bundle)
    label = str(bundle) if own_file else f"{bundle}!{unit.name}"
    if place is None:
        place = file_place(bundle) if own_file else EMBEDDED
    report("unit", label)  # an isolated scan's parent names this unit if the parser crashes
    cuts = executor.slices_for(len(unit.source))
    if cuts > 1:
        from analyzer.javascript.sliced import fallback, sliced_halves

        made = "--signatures reads the whole tree" if keep is not None else sliced_halves(
            unit.name, unit.source, cuts, rules, forced_logger or rules.logger_name, executor.map_slices)
        if not isinstance(made, str):
            return _from_halves(unit, place, label, made)
        fallback(unit.name, made)
    mark(f"extract: parsing {unit.name}")
    tree = parse(unit.source)
    mark("extract: parsed")
    if keep is not None:
        keep.append(tree)
    return _whole_tree(unit, rules, forced_logger, executor, place, label, tree)


def _whole_tree(
    unit: Unit, rules: JavaScriptRules, forced_logger: str | None, executor: Inline, place: UnitPlace, label: str,
    tree: Tree,
) -> UnitFacts:
    """The stages on the unit's whole tree."""
    source = unit.source
    budget = WorkBudget(label, tree.root_node.descendant_count)
    part = UnitTree(tree, source, budget)  # the whole tree: no head chain
    normalizer = part.normalizer
    modules = find_modules(tree, source, part.statement_lists())
    regions = error_regions(tree)
    resolution, heritages, choice, sites, shadowed = _find_sites(tree, source, rules, forced_logger)
    mark(f"extract: {len(sites)} callsites found")
    check_callsites(label, len(sites))
    class_facts = error_classes(unit, part, resolution, heritages, rules)
    items = listing(tree, source, modules)
    roots = _root_candidates(items.raw, [node.start_byte for node, kind in sites], choice)
    mark("extract: module map and items made")
    work = _Tasks(unit, part, rules, items, sites, roots)
    spent_before = budget.left
    done = executor.map(work.run, work.count)
    references, site_facts, caught, spent = work.gather(done)
    del work, done  # freed before the handlers: the tree is still whole (docs/performance.md, "Memory")
    part.scopes.clear()  # so are the scope entries: the handlers' descent names its own
    budget.left = spent_before
    normalizer.spend(spent)  # the node visits of every callsite's facts, wherever they were made
    mark("extract: callsite facts made")
    facts = [fact for fact in site_facts if isinstance(fact, SiteFacts)]
    left_out = tuple(fact for fact in site_facts if isinstance(fact, LeftOut))
    handlers, sink, too_deep, blocks = find_handlers(unit.name, part, sites, lambda offsets: _columns(source, offsets))
    mark(f"extract: {len(handlers)} handlers found")
    called = called_sources(source, items.raw, references.shadowed, facts, blocks)
    mark("extract: sources through calls found")
    handlers = with_constants(with_reads(handlers, source, items.raw, references.shadowed), source, items.raw,
                              references, modules.helpers)
    handlers = with_empty_callees(handlers, source, items.raw, references)
    mark("extract: what helpers test read")
    return _unit_facts(unit, place, modules, [(kind, node.start_byte) for node, kind in sites], choice, shadowed,
                       class_facts, regions, facts, left_out, references, UnitHandlers(handlers, caught, sink,
                                                                                        too_deep, called))


def _from_halves(unit: Unit, place: UnitPlace, label: str, halves: SlicedHalves) -> UnitFacts:
    """The facts of a unit read in slices, from what their halves merged: no tree is parsed
    whole (docs/slices.md). Its bounds are checked as the whole tree's would be, in its order."""
    source = unit.source
    sites = [(kind, start) for start, _, kind in halves.sites.sites]
    check_callsites(label, len(sites))
    budget = WorkBudget(label, halves.nodes)
    budget.spend(halves.classes.visits)
    budget.spend(halves.facts.spent(frozenset((c.offset, c.end_offset) for c in halves.classes.facts)))
    facts = [fact for fact in halves.facts.facts if isinstance(fact, SiteFacts)]
    left_out = tuple(fact for fact in halves.facts.facts if isinstance(fact, LeftOut))
    made = halves.handlers
    budget.spend(made.visits)  # the handlers', after the sites' as on the whole tree
    handlers = with_reads(made.records(unit.name, lambda offsets: _columns(source, offsets)), source,
                          halves.references.rows, halves.references.references.shadowed)
    handlers = with_constants(handlers, source, halves.references.rows, halves.references.references,
                              halves.modules.helpers)
    handlers = with_empty_callees(handlers, source, halves.references.rows, halves.references.references)
    mark(f"extract: {len(sites)} callsites, {len(handlers)} handlers merged from slices")
    return _unit_facts(unit, place, halves.modules, sites, halves.sites.choice, halves.sites.shadowed,
                       halves.classes.facts, [], facts, left_out, halves.references.references,
                       UnitHandlers(handlers, halves.facts.caught, made.sink.evidence, made.left_out, halves.called))


def _unit_facts(
    unit: Unit, place: UnitPlace, modules: ModuleMap, sites: list[tuple[str, int]],
    choice: logger_detection.LoggerChoice, shadowed: Counter[str], classes: list[ClassFacts],
    regions: list[ErrorRegion], facts: list[SiteFacts], left_out: tuple[LeftOut, ...], references: UnitReferences,
    handling: UnitHandlers,
) -> UnitFacts:
    """The unit's facts from its stages' values, however they were made (no tree)."""
    clauses = [(h.offset, h.end_offset) for h in handling.handlers if h.form == "catch"]
    evidence = unit_evidence(unit, modules, sites, place, [h.offset for h in handling.handlers], clauses)
    extras = JavaScriptUnit(modules, evidence, references, dict(Counter(kind for kind, _ in sites)), handling,
                            choice.evidence)
    return UnitFacts(
        unit=unit,
        sites=facts,
        classes=classes,
        logger=_logger(unit, choice, unit.source),
        shadowed=dict(sorted(shadowed.items())),
        error_regions=regions,
        left_out=left_out,
        extras=extras.side_table(),
    )


#: callsites whose facts one task makes, and bindings one task digests
_SITES_PER_TASK = 8
_BINDINGS_PER_TASK = 32


class _Tasks:
    """A unit's independent tasks after the parse, numbered for `Inline.map`: the reference
    graph's chunks, then groups of callsites, then groups of the bindings to digest."""

    def __init__(
        self, unit: Unit, part: UnitTree, rules: JavaScriptRules, items: Listing, sites: list[tuple[Node, str]],
        roots: list[int],
    ) -> None:
        self.unit, self.part, self.rules, self.normalizer, self.items = unit, part, rules, part.normalizer, items
        self.sites, self.roots = sites, roots
        self.columns = _columns(unit.source, [node.start_byte for node, _ in sites])
        self.diagnostics = frozenset(node.start_byte for node, kind in sites if kind == "diagnostic")
        self.site_groups = range(0, len(sites), _SITES_PER_TASK)
        self.root_groups = range(0, len(roots), _BINDINGS_PER_TASK)
        self.chunks = len(items.chunks)
        self.count = self.chunks + len(self.site_groups) + len(self.root_groups)

    def run(self, task: int) -> object:
        chunks, groups = self.chunks, len(self.site_groups)
        if task < chunks:
            return chunk_references(self.items, task, self.unit.source, self.part.root)
        if task < chunks + groups:
            first = self.site_groups[task - chunks]
            return self._site_facts(self.sites[first:first + _SITES_PER_TASK])
        first = self.root_groups[task - chunks - groups]
        wanted = self.roots[first:first + _BINDINGS_PER_TASK]
        return binding_digests(self.part.tree, self.normalizer, self.items.raw, wanted)

    def _site_facts(self, sites: list[tuple[Node, str]]) -> tuple[list[SiteFacts | LeftOut], dict[int, int], int]:
        """The facts of some callsites, the handlers that catch their errors directly (callsite
        offset -> handler offset), and the node visits they took (the work bound)."""
        budget = self.normalizer.budget
        before = budget.left if budget is not None else 0
        out: list[SiteFacts | LeftOut] = []
        caught: dict[int, int] = {}
        for node, kind in sites:
            position = self.columns[node.start_byte]
            try:
                fact = _site(self.unit, self.part, node, kind, self.rules, position, self.diagnostics)
            except RecoveredShape as shape:
                out.append(LeftOut(kind, node.start_byte, node.end_byte, position[0], str(shape)))
                continue
            out.append(fact)
            if fact.flow is not None and fact.flow.handler is not None:
                caught[node.start_byte] = fact.flow.handler
        return out, caught, before - (budget.left if budget is not None else 0)

    def gather(self, done: list[object]) -> tuple[UnitReferences, list[SiteFacts | LeftOut], dict[int, int], int]:
        """(the references with the digests of their roots, every callsite's facts in order, the
        handlers that catch them directly, their node visits)."""
        chunks, groups = self.chunks, len(self.site_groups)
        facts: list[SiteFacts | LeftOut] = []
        caught: dict[int, int] = {}
        spent = 0
        for group, handlers, visits in cast(list[tuple[list[SiteFacts | LeftOut], dict[int, int], int]],
                                            done[chunks:chunks + groups]):
            facts.extend(group)
            caught.update(handlers)
            spent += visits
        digests: dict[tuple[int, str], bytes] = {}
        for found in cast(list[dict[tuple[int, str], bytes]], done[chunks + groups:]):
            digests.update(found)
        # the tree's summary, then the merge of the unit's (one here) trees' (docs/slices.md, step 5)
        tree_references = slice_references(self.items, cast(list[Chunk], done[:chunks]), digests)
        return unit_references([tree_references]), facts, caught, spent


def _root_candidates(
    items: Sequence[tuple[int, int, object, tuple[object, ...]]], offsets: list[int],
    choice: logger_detection.LoggerChoice,
) -> list[int]:
    """The positions of the items whose bindings may root a `references` entry: those holding
    a callsite, and the logger's declaration (docs/references.md). `items`: (start, end, any,
    declared names) rows, a tree's raw items or, for slices, the merged `Item`s' fields."""
    return root_candidates(items, offsets + ([choice.binding.offset] if choice.binding is not None else []))


def _find_sites(
    tree: Tree, source: bytes, rules: JavaScriptRules, forced_logger: str | None,
) -> tuple[Resolution, list[tuple[str, Node]], logger_detection.LoggerChoice, list[tuple[Node, str]], Counter[str]]:
    """(resolution, class heritage names, the logger, callsites as (node, kind) in source order,
    shadowed call counts by name): the whole tree's rows, merged as a sliced unit's are."""
    forced = forced_logger or rules.logger_name
    found = tree_sites(tree, source, rules, forced, TopScopes(tree.root_node))
    unit = merge_sites([found.rows], TopBindings(), source, rules, forced)
    sites = [(found.nodes[(start, end)], kind) for start, end, kind in unit.sites]
    return found.resolution, found.heritages, unit.choice, sites, unit.shadowed


def error_regions(tree: Tree) -> list[ErrorRegion]:
    """ERROR and MISSING nodes: where the parser recovered (only has_error subtrees are walked)."""
    root = tree.root_node
    if not root.has_error:
        return []
    found: list[ErrorRegion] = []
    stack = [root]
    while stack:
        node = stack.pop()
        if node.is_error or node.is_missing:
            kind = "MISSING" if node.is_missing else "ERROR"
            found.append(ErrorRegion(node.start_byte, node.end_byte, node.start_point[0] + 1, kind))
            continue
        if node.has_error:
            stack.extend(node.children)
    return sorted(found, key=lambda r: (r.offset, r.end_offset, r.kind))


def _logger(unit: Unit, choice: logger_detection.LoggerChoice, source: bytes) -> LoggerFacts:
    binding = choice.binding
    where = None
    if binding is not None:
        offset = binding.offset
        where = LoggerDeclaration(offset, source.count(b"\n", 0, offset) + 1, binding.kind)
    return LoggerFacts(unit.name, choice.name, choice.source, where)

