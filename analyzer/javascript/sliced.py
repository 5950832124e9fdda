"""The sliced extraction's driver (docs/slices.md, "Steps 3 and 9: the driver as built"): a unit
parsed as N slices of its top-level list L, one slice tree alive at a time, each stage's
per-tree half run on it and the halves merged with no tree; whenever that cannot be exact, the
unit's stages run on its whole tree. The cut count is the executor's (`executor_for`)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Protocol, TypeVar

from tree_sitter import Parser, Tree

from analyzer.javascript import logger as logger_detection
from analyzer.javascript import slices
from analyzer.javascript.modules import ModuleMap, SliceModules, esbuild, slice_modules, unit_modules, webpack
from analyzer.javascript.modules.finder import Helper, Where
from analyzer.javascript.modules.patterns import Literals
from analyzer.javascript.modules.statements import StatementLists, main_container
from analyzer.javascript.rules import JavaScriptRules
from analyzer.javascript.site_rows import SliceSites, UnitSites, merge_sites, tree_sites
from analyzer.javascript.slice_supersets import supersets
from analyzer.javascript.syntax import ancestors, new_parser
from analyzer.javascript.top_bindings import TopScopes, head_bindings
from analyzer.limits import BoundExceeded
from analyzer.trace import mark

T = TypeVar("T")

#: the stages whose per-tree half and merge are not built: while any is left, they run on the
#: whole tree after the slices' halves, so a sliced unit's peak is still the whole tree's
WHOLE_TREE_STAGES = (
    "the sites' facts (step 4: speculated per slice)",
    "error classes (step 4)",
    "the reference graph's listing and digests (steps 4, 5)",
    "handlers and sources through calls (step 7)",
)

#: why units were not sliced, or why a slice's half was thrown away, in this process: each is
#: also a trace mark (`ERRATLAS_TRACE=1`); never in the outputs
FALLBACKS: Counter[str] = Counter()


class SliceMap(Protocol):
    """How a unit's slices are read: `[work(i) for i in range(count)]`, here or shared with a
    worker (the executor's `map_slices`)."""

    def __call__(self, work: Callable[[int], T], count: int) -> list[T]: ...


def _in_order(work: Callable[[int], T], count: int) -> list[T]:
    return [work(index) for index in range(count)]


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
    plan = slices.plan_of(source, cuts)
    if isinstance(plan, str):
        return f"no plan: {plan}"
    try:
        return _halves(name, source, plan, rules, forced, map_slices or _in_order)
    except (BoundExceeded, MemoryError) as bound:  # a bound's first error is the whole tree's
        return f"a bound exceeded: {bound}"
    except _Unsliceable as why:
        return str(why)


class _Unsliceable(Exception):
    """A slice, or the unit, the halves cannot read exactly."""


def _halves(
    name: str, source: bytes, plan: slices.Plan, rules: JavaScriptRules, forced: str | None,
    map_slices: SliceMap,
) -> SlicedHalves:
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
    # the helpers first (stage 3b): the statements holding a core are read before any wrapper
    helpers = esbuild.unit_helpers(_helpers_first(parser, source, literals, plan, cores))
    names = webpack.table_names(literals)

    list_type = "program" if head is None else "statement_block"
    wanted = _logger_candidates(source, plan, rules)

    def sites_of(tree: Tree, more: frozenset[str]) -> SliceSites:
        return tree_sites(tree, source, rules, forced, TopScopes(tree.root_node, chain, list_type), more).rows

    def again(more: frozenset[str], index: int, tree: Tree, lists: StatementLists) -> SliceSites:
        return sites_of(tree, more)

    def halves_of(index: int, tree: Tree, lists: StatementLists) -> tuple[SliceModules, SliceSites]:
        root = tree.root_node
        modules = slice_modules(root, source, literals, lists, helpers, span=plan.ranges[index], chain=chain,
                                table_names=names)
        return modules, sites_of(tree, wanted)

    def read(index: int) -> tuple[tuple[SliceModules, SliceSites], int]:
        made = _on_slice(parser, source, plan, index, halves_of)
        mark(f"slices: {name}: slice {index + 1} of {len(plan.ranges)} read")
        return made

    modules: list[SliceModules] = []
    sites: list[SliceSites] = []
    for (module_part, site_part), count in map_slices(read, len(plan.ranges)):
        modules.append(module_part)
        sites.append(site_part)
        nodes += count - 1  # less the slice's own `program`
    # a logger candidate a slice did not resolve (its option calls are in others): read it again
    missing = logger_detection.missing_names([part.logger for part in sites], rules, forced)
    for index, lacked in enumerate(missing):
        if lacked:
            sites[index] = _on_slice(parser, source, plan, index, partial(again, wanted | frozenset(lacked)))[0]
            mark(f"slices: {name}: slice {index + 1} read again for the logger candidates {sorted(lacked)}")
    merged = merge_sites(sites, head_bindings(chain, list_type), source, rules, forced)
    return SlicedHalves(unit_modules(modules, source, helpers), merged, nodes)


def _logger_candidates(source: bytes, plan: slices.Plan, rules: JavaScriptRules) -> frozenset[str]:
    """The names each slice resolves besides its own candidates: the unit's, from the byte
    superset of level-option calls (docs/slices.md, "The byte supersets"); none when the
    scanner is unsure (the slices lacking one are then read again)."""
    found = supersets(source, plan.braces, rules.level_key, rules.options_argument)
    if found is None:
        return frozenset()
    return frozenset(callee for callee, count in found.level_option_calls.items()
                     if count >= rules.min_level_option_calls)


def _helpers_first(
    parser: Parser, source: bytes, literals: Literals, plan: slices.Plan, cores: list[int],
) -> list[list[Helper]]:
    """The helpers of each run of statements around a core, parsed alone (a few hundred bytes);
    or, when the plan does not know L's statement ends, of each slice holding a core."""
    runs = {slices.statement_at(plan, offset) for offset in cores}
    if None in runs:
        holding = sorted({next(i for i, (a, b) in enumerate(plan.ranges) if a <= offset < b) for offset in cores})
        return [_on_slice(parser, source, plan, index, lambda i, tree, lists: esbuild.find_helpers(
            Where(tree.root_node, source, literals, lists, span=plan.ranges[i])))[0] for index in holding]
    found = []
    for run in sorted(run for run in runs if run is not None):
        bytes_range, span = run
        tree = slices.parse_range(parser, source, bytes_range)
        checked = slices.check_range(f"the statements at {span[0]}", span, tree)
        if checked is not None:
            raise _Unsliceable(f"the check failed: {checked}")
        root = tree.root_node
        found.append(esbuild.find_helpers(Where(root, source, literals, StatementLists(root, root), span=bytes_range)))
    return found


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


