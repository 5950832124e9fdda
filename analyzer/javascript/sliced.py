"""The sliced extraction's driver (docs/slices.md, "Steps 3, 9 and 10: the driver as built"): a
unit parsed as N slices of its top-level list L, one slice tree alive at a time, each stage's
per-tree half run on it and the halves merged with no tree; whenever that cannot be exact, the
unit's stages run on its whole tree. The cut count is the executor's (`slices_for`)."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import NamedTuple, Protocol, TypeVar

from tree_sitter import Node, Parser, Tree

from analyzer.facts import SiteFacts
from analyzer.javascript import logger as logger_detection
from analyzer.javascript import slices
from analyzer.javascript.class_rows import (
    SliceClasses,
    UnitClasses,
    Unsettled,
    heritage_words,
    slice_classes,
    unit_classes,
)
from analyzer.javascript.classes import heritage_names
from analyzer.javascript.handlers.find import TreeHandlers, protected_blocks
from analyzer.javascript.handlers.slices import (
    UnitHandling,
    potential_sites,
    slice_handlers,
    statement_bindings,
    unit_handling,
)
from analyzer.javascript.handlers.sources import SourceRows, escaping_of, slice_sources, unit_sources
from analyzer.javascript.modules import (
    ModuleMap,
    SliceModules,
    esbuild,
    modules_within,
    slice_modules,
    unit_modules,
    webpack,
)
from analyzer.javascript.modules.finder import Helper
from analyzer.javascript.modules.patterns import Literals
from analyzer.javascript.modules.statements import StatementLists, main_container
from analyzer.javascript.normalize import Normalizer
from analyzer.javascript.reference_slices import (
    SlicePart,
    UnitListing,
    lacking,
    root_candidates,
    slice_part,
    speculated_modules,
    unit_listing,
    unsliceable,
)
from analyzer.javascript.resolve import Resolution
from analyzer.javascript.rules import JavaScriptRules
from analyzer.javascript.site_facts import SliceFacts, UnitSiteFacts, facts_tree, slice_facts, unit_site_facts
from analyzer.javascript.site_rows import SliceSites, TreeSites, UnitSites, merge_sites, tree_sites
from analyzer.javascript.slice_helpers import Unsliceable, helpers_first, on_slice
from analyzer.javascript.slice_scanner import Scanned
from analyzer.javascript.slice_supersets import Supersets, scanned_then_supersets
from analyzer.javascript.syntax import ancestors, new_parser
from analyzer.javascript.top_bindings import TopBindings, TopScopes, head_bindings
from analyzer.javascript.unit_tree import UnitTree
from analyzer.limits import BoundExceeded, WorkBudget
from analyzer.trace import mark

T = TypeVar("T")
#: what one slice's halves hand back, node-free (picklable: a worker may make them)
_SliceParts = tuple[SliceModules, SliceSites, SliceFacts, SlicePart, SliceClasses, TreeHandlers, SourceRows]

#: why units were not sliced, or why a slice's half was thrown away, in this process: each is
#: also a trace mark (`ERRATLAS_TRACE=1`); never in the outputs
FALLBACKS: Counter[str] = Counter()


S = TypeVar("S")


class SliceMap(Protocol):
    """How a unit's slices are read: `[work(i, need) for i in range(count)]`, here or shared with
    a worker (the executor's `map_slices`); `need()` gives `prepare()`'s value, made once."""

    def __call__(self, work: Callable[[int, Callable[[], S]], T], count: int, prepare: Callable[[], S],
                 fatal: type[Exception] | None = None) -> list[T]: ...


def _in_order(work: Callable[[int, Callable[[], S]], T], count: int, prepare: Callable[[], S],
              fatal: type[Exception] | None = None) -> list[T]:
    prepared = prepare()
    return [work(index, lambda: prepared) for index in range(count)]


@dataclass(frozen=True, slots=True)
class SlicedHalves:
    """What the slices' halves made, merged, with no node: every stage's value
    (`extract._from_halves` makes the unit's facts of them)."""

    #: the unit's module map (stage 3, `modules.unit_modules`)
    modules: ModuleMap
    #: the logger, the sites by offset and the shadowed calls (stages 5a-5g, `site_rows.merge_sites`)
    sites: UnitSites
    #: the sites' facts, the handlers catching them directly and their node visits (stage 10c,
    #: `site_facts.unit_site_facts`)
    facts: UnitSiteFacts
    #: the trees' node count, whole-tree style (`slices.node_count`): the work bound's
    nodes: int
    #: the reference graph with its roots' digests, and its items' rows (stages 8-10e,
    #: `references.unit_listing`)
    references: UnitListing
    #: the error classes and their digests' node visits (stage 7, `classes.unit_classes`)
    classes: UnitClasses
    #: the handlers and the sink, settled (stage 12, `handlers.slices.unit_handling`)
    handlers: UnitHandling
    #: handler offset -> (callsite offset, hops): the sources through calls (stage 13,
    #: `handlers.sources.unit_sources`)
    called: dict[int, tuple[tuple[int, int], ...]]


def fallback(unit: str, reason: str) -> None:
    """Counts a unit whose stages run on the whole tree, and says why in the trace."""
    FALLBACKS[reason.split(":", 1)[0]] += 1
    mark(f"slices: {unit}: the whole tree: {reason}")


def sliced_halves(
    name: str, source: bytes, cuts: int, rules: JavaScriptRules, forced: str | None,
    map_slices: SliceMap | None = None,
) -> SlicedHalves | str:
    """The halves built so far, run on `cuts` slices of the unit, one tree at a time, and
    merged; or why the unit cannot be extracted so (then nothing is kept). `forced`: the
    logger's name when it is not detected; `map_slices`: the executor's (`Inline.map_slices`),
    which reads the slices in order or shares them with a worker."""
    # L's statement ends from one pass over its tokens, which also reads what the byte
    # supersets need; they are made by `prepare`, while a slice worker parses its first slice
    scanned, later = scanned_then_supersets(source, rules.level_key, rules.options_argument)
    plan = slices.plan_of(source, cuts, scanned)
    if isinstance(plan, str):
        return f"no plan: {plan}"
    linked = _es5_error_class_of_program(plan, scanned, frozenset(rules.class_roots))
    masked = scanned.masked  # the supersets' pass keeps it until they are made
    del scanned
    if linked is not None:
        return f"error classes: an ES5 class extending {linked[0]} at {linked[1]} reads L's statements"
    try:
        return _halves(name, source, plan, later, masked, rules, forced, map_slices or _in_order)
    except (BoundExceeded, MemoryError) as bound:  # a bound's first error is the whole tree's
        return f"a bound exceeded: {bound}"
    except Unsliceable as why:
        return str(why)


@dataclass(frozen=True, slots=True)
class _Unitwide:
    """What every slice's halves need from the whole unit's bytes (picklable: made by the scan
    while a worker parses its first slice, and handed to it)."""

    #: the byte supersets (`slice_supersets.scanned_then_supersets`'s second value)
    found: Supersets
    #: the module helpers (stage 3b, `esbuild.unit_helpers`)
    helpers: list[Helper]
    #: webpack's module table names (`webpack.table_names`)
    names: frozenset[str]


def _halves(
    name: str, source: bytes, plan: slices.Plan, later: Callable[[], Supersets | None], masked: bytearray | None,
    rules: JavaScriptRules, forced: str | None,
    map_slices: SliceMap,
) -> SlicedHalves:
    parser = new_parser()
    head = slices.parse_head(parser, source, plan)
    checked = slices.check_head(plan, head)
    if checked is not None:
        raise Unsliceable(f"the check failed: {checked}")
    chain = () if head is None else tuple(ancestors(main_container(head.root_node), head.root_node))
    nodes = head.root_node.descendant_count if head is not None else 1
    literals = Literals(source)
    list_type = "program" if head is None else "statement_block"

    def prepare() -> _Unitwide:
        found = later()
        cores = esbuild.core_offsets(literals)
        if any(not plan.ranges[0][0] <= offset < plan.ranges[-1][1] for offset in cores):
            raise Unsliceable("a module helper outside L: its core is in the head tree's bytes")
        # the helpers first (stage 3b): the statements holding a core are read before any wrapper
        helpers = esbuild.unit_helpers(helpers_first(parser, source, literals, plan, cores, masked))
        names = webpack.table_names(literals)
        if found is None:  # the sources' rows need both byte supersets
            raise Unsliceable("no byte supersets: the scanner is unsure")
        prepared.append(_Unitwide(found, helpers, names))
        return prepared[0]

    prepared: list[_Unitwide] = []

    def sites_of(tree: Tree, more: frozenset[str]) -> tuple[SliceSites, SliceFacts, UnitTree]:
        found: TreeSites = tree_sites(tree, source, rules, forced, TopScopes(tree.root_node, chain, list_type), more)
        part = facts_tree(tree, source, chain, list_type)
        return found.rows, slice_facts(name, source, tree, found, rules, chain, list_type, part), part

    def handlers_of(index: int, part: UnitTree, site_part: SliceSites) -> TreeHandlers:
        # on the facts' UnitTree, its digests reused: the handlers note their own visits
        found = slice_handlers(name, part, (), plan.ranges[index], potential_sites(site_part, rules),
                               (index > 0, index < len(plan.ranges) - 1), TopScopes(part.root, chain, list_type))
        if found.inexact is not None:
            raise Unsliceable(found.inexact)
        return found

    def again(more: frozenset[str], index: int, tree: Tree, lists: StatementLists
              ) -> tuple[SliceSites, SliceFacts, TreeHandlers]:
        site_part, fact_part, part = sites_of(tree, more)
        handler_part = handlers_of(index, part, site_part)
        handler_part.blocks.clear()  # the sources' rows do not hang on the logger: made on the first read
        return site_part, fact_part, handler_part

    words, roots = heritage_words(source), frozenset(rules.class_roots)

    def classes_of(index: int, part: UnitTree, heritages: list[tuple[str, Node]], resolution: Resolution,
                   more: frozenset[str], declared: frozenset[bytes]) -> SliceClasses:
        # an ES5 class's constructor or inherits helper is looked for among L's statements only
        # when L may declare its name (`declared`, the byte superset): else no slice holds it
        return slice_classes(name, part, heritages, resolution, TopScopes(part.root, chain, list_type),
                             plan.ranges[index], roots, words, more, declared)

    def classes_again(more: frozenset[str], index: int, tree: Tree, lists: StatementLists) -> SliceClasses:
        within = plan.ranges[index]
        resolution = Resolution(tree, source, set(rules.class_roots), within)
        return classes_of(index, UnitTree(tree, source, head=chain, list_type=list_type),
                          heritage_names(tree, source, within), resolution, more, prepared[0].found.names)

    def halves_of(
        index: int, tree: Tree, lists: StatementLists, unit: _Unitwide,
    ) -> _SliceParts:
        found, helpers, names = unit.found, unit.helpers, unit.names
        # the names L may declare, looked for by every slice's words pass
        wanted, declared = _logger_candidates(found, rules), found.names
        root = tree.root_node
        modules = slice_modules(root, source, literals, lists, helpers, span=plan.ranges[index], chain=chain,
                                table_names=names)
        rows = tree_sites(tree, source, rules, forced, TopScopes(root, chain, list_type), wanted)
        site_part = rows.rows
        # one UnitTree for the slice's halves, the facts' first (docs/slices.md, stage 7)
        part = facts_tree(tree, source, chain, list_type)
        fact_part = slice_facts(name, source, tree, rows, rules, chain, list_type, part)
        offsets = _potential_roots(site_part)
        items, reference_part = slice_part(
            tree, source, plan.ranges[index], speculated_modules(modules, source, helpers), declared,
            lambda raw: root_candidates(raw, offsets), part.normalizer)
        class_part = classes_of(index, part, rows.heritages, rows.resolution, frozenset(), declared)
        # an ES5 class of L's level extending a builtin error: the merge would read the unit whole
        # (`class_rows.unit_classes`), so it is read whole now, not after every slice
        doomed = next((base for base in class_part.bases if base.node is None and base.bound is None
                       and base.name in roots), None)
        if doomed is not None:
            raise Unsliceable(f"error classes: an ES5 class extending {doomed.name} at {doomed.start} "
                               "reads L's statements")
        handler_part = handlers_of(index, part, site_part)
        # the calls of its protected blocks and its functions' bodies, with names from the bytes
        try:
            source_part = slice_sources(source, items.raw, reference_part.references.shadowed, {},
                                        handler_part.blocks, callees=found.hot, throwers=found.throwers,
                                        cold=found.cold, guarded=found.guarded)
        except ValueError as why:
            raise Unsliceable(f"sources through calls: {why}") from None
        handler_part.blocks.clear()  # nodes: they die with the tree
        del items
        return modules, site_part, fact_part, reference_part, class_part, handler_part, source_part

    def read(index: int, need: Callable[[], _Unitwide]) -> tuple[_SliceParts, int]:
        # parsed and checked before the unit-wide values are needed: a worker's first slice is
        # parsed while the scan makes them
        made = on_slice(parser, source, plan, index, lambda i, tree, lists: halves_of(i, tree, lists, need()))
        mark(f"slices: {name}: slice {index + 1} of {len(plan.ranges)} read")
        return made

    modules: list[SliceModules] = []
    sites: list[SliceSites] = []
    facts: list[SliceFacts] = []
    references: list[SlicePart] = []
    classes: list[SliceClasses] = []
    handlers: list[TreeHandlers] = []
    sources: list[SourceRows] = []
    for (module_part, site_part, fact_part, reference_part, class_part, handler_part, source_part), count in \
            map_slices(read, len(plan.ranges), prepare, Unsliceable):
        modules.append(module_part)
        sites.append(site_part)
        facts.append(fact_part)
        references.append(reference_part)
        classes.append(class_part)
        handlers.append(handler_part)
        sources.append(source_part)
        nodes += count - 1  # less the slice's own `program`
    found, helpers = prepared[0].found, prepared[0].helpers
    wanted, throwers, hot = _logger_candidates(found, rules), found.throwers, found.hot
    # a logger candidate a slice did not resolve (its option calls are in others): read it again
    missing = logger_detection.missing_names([part.logger for part in sites], rules, forced)
    for index, lacked in enumerate(missing):
        if lacked:
            sites[index], facts[index], handlers[index] = on_slice(
                parser, source, plan, index, partial(again, wanted | frozenset(lacked)))[0]
            mark(f"slices: {name}: slice {index + 1} read again for the logger candidates {sorted(lacked)}")
    merged = merge_sites(sites, head_bindings(chain, list_type), source, rules, forced)
    site_facts = unit_site_facts(facts, merged)
    if isinstance(site_facts, str):
        raise Unsliceable(site_facts)
    WorkBudget(name, nodes).spend(site_facts.spent())  # past the bound: the whole tree says so
    initial = frozenset(rules.constructors) | frozenset(rules.class_roots) | frozenset(
        logger_detection.unit_names([part.logger for part in sites], rules, forced))
    made = _error_classes(name, parser, source, plan, classes, head_bindings(chain, list_type), rules, initial,
                          classes_again)

    def reread(index: int, names: frozenset[str]) -> TopBindings:
        rows = modules[index].rows
        return statement_bindings(name, parser, source, plan, index, rows.starts, rows.ends, names, chain, list_type,
                                  rows.types)

    spans = frozenset((facts.offset, facts.end_offset) for facts in made.facts)
    try:
        handling = unit_handling(name, source, plan.ranges, handlers, merged.sites,
                                 head_bindings(chain, list_type), reread, site_facts.digested, spans)
    except ValueError as why:
        raise Unsliceable(f"handlers: {why}") from None
    # the classes', the sites' and the handlers' visits, as the whole tree spends them
    WorkBudget(name, nodes).spend(made.visits + site_facts.spent(spans) + handling.visits)
    module_map = unit_modules(modules, source, helpers)
    listed = _unit_listing(name, parser, source, plan, references, module_map, merged, handlers, sources, found)
    escaping = escaping_of(fact for fact in site_facts.facts if isinstance(fact, SiteFacts))
    try:
        called = unit_sources(sources, listed.rows, listed.references.shadowed, escaping, throwers, hot)
    except ValueError as why:
        raise Unsliceable(f"sources through calls: {why}") from None
    return SlicedHalves(module_map, merged, site_facts, nodes, listed, made, handling, called)


#: an ES5 class's link to its base, `X.prototype = Object.create(Base.prototype)` (`compiled`), read
#: around each `create` the bytes hold: the call from there, what must stand before it
_CREATE = re.compile(rb"create\s*\(\s*([\w$]+)\s*\.\s*prototype\b")
_ASSIGNED_PROTOTYPE = re.compile(rb"[\w$]\s*\.\s*prototype\s*=\s*Object\s*\.\s*$")


def _es5_error_class_of_program(plan: slices.Plan, scanned: Scanned, roots: frozenset[str]) -> tuple[str, int] | None:
    """(base, offset) of an ES5 class of a program L's own level (in none of its brackets) linked
    to a class root by `Object.create`, read in the blanked bytes (no string, comment, regex or
    template text): the merge would read the unit whole after every slice
    (`class_rows.unit_classes`), so it is read whole before any. None when none is seen (the
    slices still check: `_halves`), and for a Bun wrapper's L (its level is not the bytes')."""
    masked = scanned.masked
    if plan.braces is not None or masked is None:
        return None
    depth, counted = 0, 0  # the bracket depth at `counted`, counted from the start as asked
    at = masked.find(b"create")
    while at >= 0:
        link = _CREATE.match(masked, at)
        if link is not None and link.group(1).decode() in roots and \
                _ASSIGNED_PROTOTYPE.search(masked, max(0, at - 200), at):
            depth += sum(masked.count(b, counted, at) for b in b"([{")
            depth -= sum(masked.count(b, counted, at) for b in b")]}")
            counted = at
            if depth == 0:
                return link.group(1).decode(), at
        at = masked.find(b"create", at + 6)
    return None


#: how many times the slices lacking a name the error classes need are read again, at most
_CLASS_ROUNDS = 4


def _error_classes(
    name: str, parser: Parser, source: bytes, plan: slices.Plan, parts: list[SliceClasses], head: TopBindings,
    rules: JavaScriptRules, initial: frozenset[str], again: Callable[..., SliceClasses],
) -> UnitClasses:
    """The slices' error classes merged (stage 7); the slices lacking a name of L's level the
    merge needs are read again with it (docs/slices.md, stage 7)."""
    for _ in range(_CLASS_ROUNDS):
        try:
            made = unit_classes(parts, head, source, plan.ranges, rules, initial)
        except Unsettled as why:
            raise Unsliceable(f"error classes: {why}") from None
        if isinstance(made, UnitClasses):
            return made
        for index, lacked in sorted(made.items()):
            parts[index] = on_slice(parser, source, plan, index,
                                     partial(again, parts[index].resolved | frozenset(lacked)))[0]
            mark(f"slices: {name}: slice {index + 1} read again for the error classes' names {sorted(lacked)}")
    raise Unsliceable(f"error classes: names still lacking after {_CLASS_ROUNDS} reads")


def _potential_roots(part: SliceSites) -> list[int]:
    """The offsets whose items may hold a root once the merge decides the sites and the logger
    (`reference_slices.root_candidates`): every call a slice's rows may make a site, and every
    binding its rows may make the logger's (L's first declarations of the names it resolved,
    the bindings below L its candidates' calls resolve to, the default-level ones)."""
    top = part.top
    return [*(row.start for row in part.calls), *(row.offset for row in part.logger.bindings.values()),
            *(row.offset for row in top.block.values()), *(row.offset for row in top.function.values())]


def _unit_listing(
    name: str, parser: Parser, source: bytes, plan: slices.Plan, parts: list[SlicePart], modules: ModuleMap,
    sites: UnitSites, handlers: list[TreeHandlers], sources: list[SourceRows], found: Supersets,
) -> UnitListing:
    """The reference graph's merge (docs/slices.md, "Step 5 as built"): the slices' items must
    be the whole tree's (`references.unsliceable`), then the slices lacking a name the unit
    declares, or the digest of a root decided by the merged sites and logger, are read again,
    and so are their sources' rows (`sources`, replaced), which read the names it shadows."""
    reason = unsliceable(parts, modules)
    if reason is not None:
        raise Unsliceable(reason)
    offsets = [start for start, _, _ in sites.sites]
    if sites.choice.binding is not None:
        offsets.append(sites.choice.binding.offset)
    roots = root_candidates([row for part in parts for row in part.rows], offsets)
    for index, (names, mine) in lacking(parts, roots).items():
        looked = parts[index].references.searched | names
        clauses = [_Clause(*handler[:3]) for handler in handlers[index].handlers]

        def again(index: int, tree: Tree, lists: StatementLists, looked: frozenset[bytes] = looked,
                  mine: list[int] = mine, clauses: list[_Clause] = clauses) -> tuple[SlicePart, SourceRows]:
            items, part = slice_part(tree, source, plan.ranges[index], modules_within(modules, plan.ranges[index]),
                                     looked, lambda raw: mine, Normalizer(source))
            blocks = protected_blocks(tree.root_node, clauses)
            try:
                return part, slice_sources(source, items.raw, part.references.shadowed, {}, blocks,
                                           callees=found.hot, throwers=found.throwers, cold=found.cold,
                                           guarded=found.guarded)
            except ValueError as why:
                raise Unsliceable(f"sources through calls: {why}") from None

        read, sources[index] = on_slice(parser, source, plan, index, again)[0]
        if read.rows != parts[index].rows:
            raise Unsliceable(f"the check failed: slice {index}'s items differ when it is read again")
        parts[index] = read
        mark(f"slices: {name}: slice {index + 1} read again for the reference graph "
             f"({len(names)} names, {len(mine)} roots)")
    return unit_listing(parts, roots, modules.helpers)


class _Clause(NamedTuple):
    """A slice's handler row's place and form (`find.protected_blocks`)."""

    offset: int
    end_offset: int
    form: str


def _logger_candidates(found: Supersets | None, rules: JavaScriptRules) -> frozenset[str]:
    """The names each slice resolves besides its own candidates: the unit's, from the byte
    superset of level-option calls (docs/slices.md, "The byte supersets"); none when the
    scanner is unsure (the slices lacking one are then read again)."""
    if found is None:
        return frozenset()
    return frozenset(callee for callee, count in found.level_option_calls.items()
                     if count >= rules.min_level_option_calls)
