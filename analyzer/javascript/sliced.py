"""The sliced extraction's driver (docs/slices.md, "Steps 3 and 9: the driver as built"): a unit
parsed as N slices of its top-level list L, one slice tree alive at a time, each stage's
per-tree half run on it and the halves merged with no tree; whenever that cannot be exact, the
unit's stages run on its whole tree. The cut count is the executor's (`executor_for`)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import TypeVar

from tree_sitter import Parser, Tree

from analyzer.javascript import logger as logger_detection
from analyzer.javascript import slices
from analyzer.javascript.handlers.find import TreeHandlers
from analyzer.javascript.handlers.slices import (
    UnitHandling,
    potential_sites,
    slice_handlers,
    statement_bindings,
    unit_handling,
)
from analyzer.javascript.modules import ModuleMap, SliceModules, esbuild, slice_modules, unit_modules, webpack
from analyzer.javascript.modules.finder import Helper, Where
from analyzer.javascript.modules.patterns import Literals
from analyzer.javascript.modules.statements import StatementLists, main_container
from analyzer.javascript.rules import JavaScriptRules
from analyzer.javascript.site_rows import SliceSites, UnitSites, merge_sites, tree_sites
from analyzer.javascript.slice_supersets import supersets
from analyzer.javascript.syntax import ancestors, new_parser
from analyzer.javascript.top_bindings import TopBindings, TopScopes, head_bindings
from analyzer.javascript.unit_tree import UnitTree
from analyzer.limits import BoundExceeded
from analyzer.trace import mark

T = TypeVar("T")

#: the stages whose per-tree half and merge are not built: while any is left, they run on the
#: whole tree after the slices' halves, so a sliced unit's peak is still the whole tree's
WHOLE_TREE_STAGES = (
    "the sites' facts (step 4: speculated per slice)",
    "error classes (step 4)",
    "the reference graph's listing and digests (steps 4, 5)",
    "sources through calls (step 7)",
)

#: why units were not sliced, or why a slice's half was thrown away, in this process: each is
#: also a trace mark (`ERRATLAS_TRACE=1`); never in the outputs
FALLBACKS: Counter[str] = Counter()


@dataclass(frozen=True, slots=True)
class SlicedHalves:
    """What the slices' halves made, merged, with no node: the stages the whole tree need not
    run again."""

    #: the unit's module map (stage 3, `modules.unit_modules`)
    modules: ModuleMap
    #: the logger, the sites by offset and the shadowed calls (stages 5a-5g, `site_rows.merge_sites`)
    sites: UnitSites
    #: the trees' node count, whole-tree style (`slices.node_count`): compared with the whole
    #: tree's while stages still run on it
    nodes: int
    #: the handlers and the sink, settled (stage 12, `handlers.slices.unit_handling`)
    handlers: UnitHandling | None = None


def fallback(unit: str, reason: str) -> None:
    """Counts a unit whose stages run on the whole tree, and says why in the trace."""
    FALLBACKS[reason.split(":", 1)[0]] += 1
    mark(f"slices: {unit}: the whole tree: {reason}")


def sliced_halves(
    name: str, source: bytes, cuts: int, rules: JavaScriptRules, forced: str | None,
) -> SlicedHalves | str:
    """The halves built so far, run on `cuts` slices of the unit, one tree at a time, and
    merged; or why the unit cannot be extracted so (then nothing is kept). `forced`: the
    logger's name when it is not detected."""
    plan = slices.plan_of(source, cuts)
    if isinstance(plan, str):
        return f"no plan: {plan}"
    try:
        return _halves(name, source, plan, rules, forced)
    except (BoundExceeded, MemoryError) as bound:  # a bound's first error is the whole tree's
        return f"a bound exceeded: {bound}"
    except _Unsliceable as why:
        return str(why)


class _Unsliceable(Exception):
    """A slice, or the unit, the halves cannot read exactly."""


def _halves(name: str, source: bytes, plan: slices.Plan, rules: JavaScriptRules, forced: str | None) -> SlicedHalves:
    parser = new_parser()
    head = slices.parse_head(parser, source, plan)
    checked = slices.check_head(plan, head)
    if checked is not None:
        raise _Unsliceable(f"the check failed: {checked}")
    chain = () if head is None else tuple(ancestors(main_container(head.root_node), head.root_node))
    nodes = head.root_node.descendant_count if head is not None else 1
    literals = Literals(source)
    cores = esbuild.core_offsets(literals)
    if any(not plan.ranges[0][0] <= offset < plan.ranges[-1][1] for offset in cores):
        raise _Unsliceable("a module helper outside L: its core is in the head tree's bytes")
    # the helpers first (stage 3b): the slices holding a core are read before any wrapper
    holding = sorted({next(i for i, (a, b) in enumerate(plan.ranges) if a <= offset < b) for offset in cores})

    def helpers_of(index: int, tree: Tree, lists: StatementLists) -> list[Helper]:
        return esbuild.find_helpers(Where(tree.root_node, source, literals, lists, span=plan.ranges[index]))

    helpers = esbuild.unit_helpers([_on_slice(parser, source, plan, index, helpers_of)[0] for index in holding])
    names = webpack.table_names(literals)

    list_type = "program" if head is None else "statement_block"
    wanted = _logger_candidates(source, plan, rules)

    def sites_of(tree: Tree, more: frozenset[str]) -> SliceSites:
        return tree_sites(tree, source, rules, forced, TopScopes(tree.root_node, chain, list_type), more).rows

    def handlers_of(index: int, tree: Tree, site_part: SliceSites) -> TreeHandlers:
        found = slice_handlers(name, UnitTree(tree, source, None, chain, list_type), (), plan.ranges[index],
                               potential_sites(site_part, rules), (index > 0, index < len(plan.ranges) - 1),
                               TopScopes(tree.root_node, chain, list_type))
        if found.inexact is not None:
            raise _Unsliceable(found.inexact)
        found.blocks.clear()  # the slice's protected blocks: read while its tree is alive, or never
        return found

    def again(more: frozenset[str], index: int, tree: Tree, lists: StatementLists
              ) -> tuple[SliceSites, TreeHandlers]:
        site_part = sites_of(tree, more)
        return site_part, handlers_of(index, tree, site_part)

    def halves_of(index: int, tree: Tree, lists: StatementLists) -> tuple[SliceModules, SliceSites, TreeHandlers]:
        root = tree.root_node
        modules = slice_modules(root, source, literals, lists, helpers, span=plan.ranges[index], chain=chain,
                                table_names=names)
        site_part = sites_of(tree, wanted)
        return modules, site_part, handlers_of(index, tree, site_part)

    modules: list[SliceModules] = []
    sites: list[SliceSites] = []
    handlers: list[TreeHandlers] = []
    for index in range(len(plan.ranges)):
        (module_part, site_part, handler_part), count = _on_slice(parser, source, plan, index, halves_of)
        modules.append(module_part)
        sites.append(site_part)
        handlers.append(handler_part)
        nodes += count - 1  # less the slice's own `program`
        mark(f"slices: {name}: slice {index + 1} of {len(plan.ranges)} read")
    # a logger candidate a slice did not resolve (its option calls are in others): read it again
    missing = logger_detection.missing_names([part.logger for part in sites], rules, forced)
    for index, lacked in enumerate(missing):
        if lacked:
            sites[index], handlers[index] = _on_slice(parser, source, plan, index,
                                                      partial(again, wanted | frozenset(lacked)))[0]
            mark(f"slices: {name}: slice {index + 1} read again for the logger candidates {sorted(lacked)}")
    merged = merge_sites(sites, head_bindings(chain, list_type), source, rules, forced)

    def reread(index: int, names: frozenset[str]) -> TopBindings:
        rows = modules[index].rows
        return statement_bindings(name, parser, source, plan, index, rows.starts, rows.ends, names, chain, list_type)

    try:
        handling = unit_handling(name, source, plan.ranges, handlers, merged.sites,
                                 head_bindings(chain, list_type), reread)
    except ValueError as why:
        raise _Unsliceable(f"handlers: {why}") from None
    return SlicedHalves(unit_modules(modules, source, helpers), merged, nodes, handling)


def _logger_candidates(source: bytes, plan: slices.Plan, rules: JavaScriptRules) -> frozenset[str]:
    """The names each slice resolves besides its own candidates: the unit's, from the byte
    superset of level-option calls (docs/slices.md, "The byte supersets"); none when the
    scanner is unsure (the slices lacking one are then read again)."""
    found = supersets(source, plan.braces, rules.level_key, rules.options_argument)
    if found is None:
        return frozenset()
    return frozenset(callee for callee, count in found.level_option_calls.items()
                     if count >= rules.min_level_option_calls)


def _on_slice(
    parser: Parser, source: bytes, plan: slices.Plan, index: int, half: Callable[[int, Tree, StatementLists], T],
) -> tuple[T, int]:
    """`half` run on slice `index`, parsed and checked, and the slice root's node count. The
    tree is freed when this returns: `half`'s value holds no node."""
    tree = slices.parse_slice(parser, source, plan, index)
    checked = slices.check_slice(plan, index, tree)
    if checked is not None:
        raise _Unsliceable(f"the check failed: {checked}")
    root = tree.root_node
    return half(index, tree, StatementLists(root, root)), root.descendant_count


