"""One JavaScript unit -> plain facts about its callsites and error classes (no tree nodes
survive this stage, so the tree's memory is freed when it returns)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, cast

from tree_sitter import Node, Tree

from analyzer.bundle.load import file_name
from analyzer.facts import ErrorRegion, LeftOut, LoggerDeclaration, LoggerFacts, SiteFacts, UnitFacts, UnitHandlers
from analyzer.isolated import report
from analyzer.javascript import logger as logger_detection
from analyzer.javascript.classes import error_classes
from analyzer.javascript.handlers import called_sources, find_handlers
from analyzer.javascript.handlers.find import protected_blocks
from analyzer.javascript.modules import find_modules, unit_evidence
from analyzer.javascript.reference_slices import UnitListing, root_candidates
from analyzer.javascript.references import (
    Chunk,
    Listing,
    UnitReferences,
    binding_digests,
    chunk_references,
    listing,
    slice_references,
    unit_references,
)
from analyzer.javascript.resolve import Resolution
from analyzer.javascript.rules import JavaScriptRules
from analyzer.javascript.site_facts import RecoveredShape, _columns, _site
from analyzer.javascript.site_rows import UnitSites, merge_sites, tree_sites
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

    With `executor.slices` above 1 the unit is read as that many slices first, one tree at a
    time, for the stages whose per-tree halves are built (`sliced.sliced_halves`); the others,
    and every stage when slicing cannot be exact, run on the whole tree (docs/slices.md)."""
    own_file = unit.name == file_name(bundle)
    label = str(bundle) if own_file else f"{bundle}!{unit.name}"
    if place is None:
        place = file_place(bundle) if own_file else EMBEDDED
    report("unit", label)  # an isolated scan's parent names this unit if the parser crashes
    halves = None
    if executor.slices > 1:
        from analyzer.javascript.sliced import WHOLE_TREE_STAGES, fallback, sliced_halves

        made = "--signatures reads the whole tree" if keep is not None else sliced_halves(
            unit.name, unit.source, executor.slices, rules, forced_logger or rules.logger_name, executor.map_slices)
        if isinstance(made, str):
            fallback(unit.name, made)
        else:
            halves = made  # the stages with no halves yet still need the whole tree
            fallback(unit.name, f"stages without halves: {'; '.join(WHOLE_TREE_STAGES)}")
    mark(f"extract: parsing {unit.name}")
    tree = parse(unit.source)
    mark("extract: parsed")
    if keep is not None:
        keep.append(tree)
    if halves is not None and halves.nodes != tree.root_node.descendant_count:
        fallback(unit.name, f"the check failed: the slices hold {halves.nodes} nodes, the whole tree "
                            f"{tree.root_node.descendant_count}")
        halves = None
    return _whole_tree(unit, rules, forced_logger, executor, place, label, tree, halves)


def _whole_tree(
    unit: Unit, rules: JavaScriptRules, forced_logger: str | None, executor: Inline, place: UnitPlace, label: str,
    tree: Tree, halves: SlicedHalves | None,
) -> UnitFacts:
    """The stages on the unit's whole tree, but those whose merged `halves` are given."""
    source = unit.source
    budget = WorkBudget(label, tree.root_node.descendant_count)
    part = UnitTree(tree, source, budget)  # the whole tree: no head chain
    normalizer = part.normalizer
    modules = find_modules(tree, source, part.statement_lists()) if halves is None else halves.modules
    regions = error_regions(tree)
    resolution, heritages, choice, sites, shadowed = _find_sites(
        tree, source, rules, forced_logger, halves.sites if halves is not None else None, unit.name)
    mark(f"extract: {len(sites)} callsites found")
    check_callsites(label, len(sites))
    if halves is None:
        class_facts = error_classes(unit, part, resolution, heritages, rules)
    else:  # the slices' digests, spent as the whole tree's would be
        class_facts = halves.classes.facts
        normalizer.spend(halves.classes.visits)
    items = listing(tree, source, modules)  # `called_sources` reads the whole tree's items' nodes
    listed = _sliced_listing(unit.name, items, halves)
    roots = _root_candidates(items.raw, [node.start_byte for node, kind in sites], choice) if listed is None else []
    mark("extract: module map and items made")
    work = _Tasks(unit, part, rules, items if listed is None else listed.references, sites if halves is None else [],
                  roots)
    spent_before = budget.left
    if halves is not None:  # the slices' facts, spent where `_Tasks` spends them: before the digests
        made = halves.facts
        made_spent = made.spent(frozenset((c.offset, c.end_offset) for c in class_facts))
        normalizer.spend(made_spent)
        normalizer.paid = frozenset(made.digested)  # cached here at N = 1: the digests and handlers pay none
    done = executor.map(work.run, work.count)
    references, site_facts, caught, spent = work.gather(done)
    if halves is not None:
        site_facts, caught, spent = made.facts, made.caught, made_spent
    del work, done  # freed before the handlers: the tree is still whole (docs/performance.md, "Memory")
    part.scopes.clear()  # so are the scope entries: the handlers' descent names its own
    budget.left = spent_before
    normalizer.spend(spent)  # the node visits of every callsite's facts, wherever they were made
    mark("extract: callsite facts made")
    facts = [fact for fact in site_facts if isinstance(fact, SiteFacts)]
    left_out = tuple(fact for fact in site_facts if isinstance(fact, LeftOut))
    if halves is None or halves.handlers is None:
        handlers, sink, too_deep, blocks = find_handlers(unit.name, part, sites,
                                                         lambda offsets: _columns(source, offsets))
    else:  # the slices' handlers; the protected blocks are the whole tree's, for the sources below
        handlers = halves.handlers.records(unit.name, lambda offsets: _columns(source, offsets))
        sink, too_deep = halves.handlers.sink.evidence, halves.handlers.left_out
        blocks = protected_blocks(tree.root_node, handlers)
    mark(f"extract: {len(handlers)} handlers found")
    called = called_sources(source, items.raw, references.shadowed, facts, blocks)
    mark("extract: sources through calls found")
    clauses = [(h.offset, h.end_offset) for h in handlers if h.form == "catch"]
    evidence = unit_evidence(unit, modules, [(kind, node.start_byte) for node, kind in sites], place,
                             [h.offset for h in handlers], clauses)
    extras = JavaScriptUnit(modules, evidence, references, dict(Counter(kind for _, kind in sites)),
                            UnitHandlers(handlers, caught, sink, too_deep, called), choice.evidence)
    return UnitFacts(
        unit=unit,
        sites=facts,
        classes=class_facts,
        logger=_logger(unit, choice, source),
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
        self, unit: Unit, part: UnitTree, rules: JavaScriptRules, items: Listing | UnitReferences,
        sites: list[tuple[Node, str]], roots: list[int],
    ) -> None:
        """`items`: the tree's, or the reference graph the slices made (no chunk, no digest)."""
        self.unit, self.part, self.rules, self.normalizer = unit, part, rules, part.normalizer
        self.items = items if isinstance(items, Listing) else None
        self.made = items if isinstance(items, UnitReferences) else None
        self.sites, self.roots = sites, roots
        self.columns = _columns(unit.source, [node.start_byte for node, _ in sites])
        self.diagnostics = frozenset(node.start_byte for node, kind in sites if kind == "diagnostic")
        self.site_groups = range(0, len(sites), _SITES_PER_TASK)
        self.root_groups = range(0, len(roots), _BINDINGS_PER_TASK)
        self.chunks = len(self.items.chunks) if self.items is not None else 0
        self.count = self.chunks + len(self.site_groups) + len(self.root_groups)

    def run(self, task: int) -> object:
        chunks, groups = self.chunks, len(self.site_groups)
        if task < chunks:
            return chunk_references(cast(Listing, self.items), task, self.unit.source, self.part.root)
        if task < chunks + groups:
            first = self.site_groups[task - chunks]
            return self._site_facts(self.sites[first:first + _SITES_PER_TASK])
        first = self.root_groups[task - chunks - groups]
        wanted = self.roots[first:first + _BINDINGS_PER_TASK]
        return binding_digests(self.part.tree, self.normalizer, cast(Listing, self.items).raw, wanted)

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
        if self.made is not None:
            return self.made, facts, caught, spent
        # the tree's summary, then the merge of the unit's (one here) trees' (docs/slices.md, step 5)
        tree_references = slice_references(cast(Listing, self.items), cast(list[Chunk], done[:chunks]), digests)
        return unit_references([tree_references]), facts, caught, spent


def _sliced_listing(name: str, items: Listing, halves: SlicedHalves | None) -> UnitListing | None:
    """The slices' reference graph, when their items are the whole tree's `items` (whose nodes
    the stages still run on the whole tree read); else None, the unit's graph made here."""
    if halves is None:
        return None
    listed = halves.references
    if len(listed.rows) != len(items.raw) or any(
            row[0] != item[0] or row[1] != item[1] or row[3] != item[3]
            for row, item in zip(listed.rows, items.raw, strict=True)):
        from analyzer.javascript.sliced import fallback

        fallback(name, "the check failed: the slices' items are not the whole tree's")
        return None
    return listed


def _root_candidates(
    items: Sequence[tuple[int, int, object, tuple[object, ...]]], offsets: list[int],
    choice: logger_detection.LoggerChoice,
) -> list[int]:
    """The positions of the items whose bindings may root a `references` entry: those holding
    a callsite, and the logger's declaration (docs/references.md). `items`: (start, end, any,
    declared names) rows, a tree's raw items or, for slices, the merged `Item`s' fields."""
    return root_candidates(items, offsets + ([choice.binding.offset] if choice.binding is not None else []))


def _find_sites(
    tree: Tree, source: bytes, rules: JavaScriptRules, forced_logger: str | None, merged: UnitSites | None = None,
    name: str = "",
) -> tuple[Resolution, list[tuple[str, Node]], logger_detection.LoggerChoice, list[tuple[Node, str]], Counter[str]]:
    """(resolution, class heritage names, the logger, callsites as (node, kind) in source order,
    shadowed call counts by name): the whole tree's rows, merged as a sliced unit's are, or the
    slices' `merged` sites (the whole tree's nodes are still read for their facts)."""
    forced = forced_logger or rules.logger_name
    found = tree_sites(tree, source, rules, forced, TopScopes(tree.root_node))
    if merged is not None and any((start, end) not in found.nodes for start, end, _ in merged.sites):
        from analyzer.javascript.sliced import fallback

        fallback(name, "the check failed: a site of the slices is no call the whole tree resolved")
        merged = None
    unit = merged if merged is not None else merge_sites([found.rows], TopBindings(), source, rules, forced)
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

