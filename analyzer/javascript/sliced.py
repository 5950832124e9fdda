"""The sliced extraction's driver (docs/slices.md, "Steps 3 and 9: the driver as built"): a unit
parsed as N slices of its top-level list L, one slice tree alive at a time, each stage's
per-tree half run on it and the halves merged with no tree; whenever that cannot be exact, the
unit's stages run on its whole tree. The cut count is the executor's (`executor_for`)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from tree_sitter import Node, Parser

from analyzer.javascript import slices
from analyzer.javascript.modules import ModuleMap, SliceModules, esbuild, slice_modules, unit_modules, webpack
from analyzer.javascript.modules.finder import Helper, Where
from analyzer.javascript.modules.patterns import Literals
from analyzer.javascript.modules.statements import StatementLists, main_container
from analyzer.javascript.syntax import ancestors, new_parser
from analyzer.limits import BoundExceeded
from analyzer.trace import mark

T = TypeVar("T")

#: the stages whose per-tree half and merge are not built: while any is left, they run on the
#: whole tree after the slices' halves, so a sliced unit's peak is still the whole tree's
WHOLE_TREE_STAGES = (
    "the logger, the sites and shadowing (step 4)",
    "error classes (step 4)",
    "the reference graph's listing and digests (steps 4, 5)",
    "handlers and sources through calls (step 7)",
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
    #: the trees' node count, whole-tree style (`slices.node_count`): compared with the whole
    #: tree's while stages still run on it
    nodes: int


def fallback(unit: str, reason: str) -> None:
    """Counts a unit whose stages run on the whole tree, and says why in the trace."""
    FALLBACKS[reason.split(":", 1)[0]] += 1
    mark(f"slices: {unit}: the whole tree: {reason}")


def sliced_halves(name: str, source: bytes, cuts: int) -> SlicedHalves | str:
    """The halves built so far, run on `cuts` slices of the unit, one tree at a time, and
    merged; or why the unit cannot be extracted so (then nothing is kept)."""
    plan = slices.plan_of(source, cuts)
    if isinstance(plan, str):
        return f"no plan: {plan}"
    try:
        return _halves(name, source, plan)
    except (BoundExceeded, MemoryError) as bound:  # a bound's first error is the whole tree's
        return f"a bound exceeded: {bound}"
    except _Unsliceable as why:
        return str(why)


class _Unsliceable(Exception):
    """A slice, or the unit, the halves cannot read exactly."""


def _halves(name: str, source: bytes, plan: slices.Plan) -> SlicedHalves:
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

    def helpers_of(index: int, root: Node, lists: StatementLists) -> list[Helper]:
        return esbuild.find_helpers(Where(root, source, literals, lists, span=plan.ranges[index]))

    helpers = esbuild.unit_helpers([_on_slice(parser, source, plan, index, helpers_of)[0] for index in holding])
    names = webpack.table_names(literals)

    def modules_of(index: int, root: Node, lists: StatementLists) -> SliceModules:
        return slice_modules(root, source, literals, lists, helpers, span=plan.ranges[index], chain=chain,
                             table_names=names)

    parts = []
    for index in range(len(plan.ranges)):
        part, count = _on_slice(parser, source, plan, index, modules_of)
        parts.append(part)
        nodes += count - 1  # less the slice's own `program`
        mark(f"slices: {name}: slice {index + 1} of {len(plan.ranges)} read")
    return SlicedHalves(unit_modules(parts, source, helpers), nodes)


def _on_slice(
    parser: Parser, source: bytes, plan: slices.Plan, index: int, half: Callable[[int, Node, StatementLists], T],
) -> tuple[T, int]:
    """`half` run on slice `index`, parsed and checked, and the slice root's node count. The
    tree is freed when this returns: `half`'s value holds no node."""
    tree = slices.parse_slice(parser, source, plan, index)
    checked = slices.check_slice(plan, index, tree)
    if checked is not None:
        raise _Unsliceable(f"the check failed: {checked}")
    root = tree.root_node
    return half(index, root, StatementLists(root, root)), root.descendant_count


