"""What a sliced extraction reads before and around its slices (docs/slices.md, "Wrappers one
after another"): a slice parsed and checked (`on_slice`), and the module helpers, found before any
slice is read in the runs of statements around their cores (`helpers_first`), with the runs of
nested lists for a wrapper's and the budget that keeps those runs a small part of L."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from tree_sitter import Parser, Tree

from analyzer.javascript import slices
from analyzer.javascript.modules import esbuild
from analyzer.javascript.modules.finder import Helper, Where
from analyzer.javascript.modules.patterns import Literals
from analyzer.javascript.modules.statements import StatementLists
from analyzer.javascript.slice_scanner import NestedList, nested_lists

T = TypeVar("T")


class Unsliceable(Exception):
    """A slice, or the unit, the halves cannot read exactly."""


def on_slice(
    parser: Parser, source: bytes, plan: slices.Plan, index: int, half: Callable[[int, Tree, StatementLists], T],
) -> tuple[T, int]:
    """`half` run on slice `index`, parsed and checked, and the slice root's node count. The
    tree is freed when this returns: `half`'s value holds no node."""
    tree = slices.parse_slice(parser, source, plan, index)
    checked = slices.check_slice(plan, index, tree)
    if checked is not None:
        raise Unsliceable(f"the check failed: {checked}")
    root = tree.root_node
    return half(index, tree, StatementLists(root, root)), root.descendant_count


def helpers_first(
    parser: Parser, source: bytes, literals: Literals, plan: slices.Plan, cores: list[int], masked: bytearray | None,
) -> list[list[Helper]]:
    """The helpers of each run of statements around a core, parsed alone (a few hundred bytes):
    of L, or of the wrapper's body holding it when L's run is one large statement; or, when the
    plan does not know L's statement ends, of each slice holding a core. Raises `Unsliceable`
    when those runs are more than `_HELPER_SHARE` of L and `_HELPER_BYTES`: the slices would
    parse them again."""
    runs = {slices.statement_at(plan, offset) for offset in cores}
    if None in runs:
        holding = sorted({next(i for i, (a, b) in enumerate(plan.ranges) if a <= offset < b) for offset in cores})
        return [on_slice(parser, source, plan, index, lambda i, tree, lists: esbuild.find_helpers(
            Where(tree.root_node, source, literals, lists, span=plan.ranges[i])))[0] for index in holding]
    budget = _Budget(max((plan.ranges[-1][1] - plan.ranges[0][0]) * _HELPER_SHARE, _HELPER_BYTES))
    # the runs to parse, known before any is parsed: of L, or of a nested list (`_nested_runs`)
    planned: list[tuple[tuple[int, int], tuple[int, int], _NestedRuns | None]] = []
    for bytes_range, span in sorted(run for run in runs if run is not None):
        nested = None
        if masked is not None and bytes_range[1] - bytes_range[0] > _NESTED_HELPERS_MIN_BYTES:
            nested = _nested_runs(parser, source, masked, bytes_range, cores)
        budget.spend(sum(inside[1] - inside[0] for _, inside in nested) if nested is not None else
                     bytes_range[1] - bytes_range[0])
        planned.append((bytes_range, span, nested))
    found = []
    for bytes_range, span, nested in planned:
        if nested is not None:
            helpers = _nested_helpers(parser, source, literals, nested)
            if helpers is not None:
                found.extend(helpers)
                continue
            budget.spend(bytes_range[1] - bytes_range[0])  # a climb went above a nested list
        tree = slices.parse_range(parser, source, bytes_range)
        checked = slices.check_range(f"the statements at {span[0]}", span, tree)
        if checked is not None:
            raise Unsliceable(f"the check failed: {checked}")
        root = tree.root_node
        found.append(esbuild.find_helpers(Where(root, source, literals, StatementLists(root, root), span=bytes_range)))
    return found


#: nested lists' braces and the runs of their statements to parse (`_nested_runs`)
_NestedRuns = dict[tuple[tuple[int, int], tuple[int, int]], None]


class _Budget:
    """The bytes of L the helpers' runs may parse (`helpers_first`)."""

    def __init__(self, limit: float) -> None:
        self.limit, self.spent = limit, 0

    def spend(self, size: int) -> None:
        self.spent += size
        if self.spent > self.limit:
            raise Unsliceable(f"the module helpers' statements are {self.spent} bytes, over "
                               f"{self.limit:.0f}: the slices would read them again")


#: the share of L the statements holding the module helpers' cores may be (a wrapper holding
#: a bundle whose helpers lie in no smaller run: browserify's prelude, an `__esm` module's body)
_HELPER_SHARE = 0.2
#: and the bytes they may be in any unit (a parse of a tenth of a second)
_HELPER_BYTES = 1 << 20
#: a run of L's statements larger than this, holding a helper's core, has the run of its
#: nested list around the core read instead (a bundle wrapped whole in a function)
_NESTED_HELPERS_MIN_BYTES = 256 << 10
#: a nested list is read so only when the rest of its run, parsed to check it is a block, is
#: at most this: else parsing the run itself costs no more
_NESTED_HEAD_MAX_BYTES = 256 << 10


def _nested_runs(
    parser: Parser, source: bytes, masked: bytearray, bytes_range: tuple[int, int], cores: list[int],
) -> _NestedRuns | None:
    """For the cores in a large run of L, the nested lists holding them (their braces) and the
    runs of their statements around them (`_nested_run`); None when a core is in no such list,
    or in one that is no block (its head, the run around it with the list emptied, says which)."""
    runs: _NestedRuns = {}
    heads: dict[tuple[tuple[int, int], tuple[int, int]], bool] = {}
    lists: dict[tuple[int, int], list[NestedList]] = {}
    for offset in (offset for offset in cores if bytes_range[0] <= offset < bytes_range[1]):
        nested = _nested_run(parser, source, masked, bytes_range, offset, heads, lists)
        if nested is None:
            return None
        runs[nested] = None
    return runs


def _nested_helpers(
    parser: Parser, source: bytes, literals: Literals, runs: _NestedRuns,
) -> list[list[Helper]] | None:
    """The helpers of a large run of L, from the runs of its nested lists around its cores
    (`_nested_runs`), each parsed alone; None when that cannot be exact: a run that does not
    parse clean, or a core's climb that would go on above its list."""
    found = []
    for braces, inside in sorted(runs):
        tree = slices.parse_range(parser, source, inside)
        if slices.check_range(f"the statements at {inside[0]}", inside, tree) is not None:
            return None
        root = tree.root_node
        helpers = esbuild.nested_helpers(Where(root, source, literals, StatementLists(root, root), span=inside), braces)
        if helpers is None:
            return None
        found.append(helpers)
    return found


def _nested_run(
    parser: Parser, source: bytes, masked: bytearray, run: tuple[int, int], offset: int,
    heads: dict[tuple[tuple[int, int], tuple[int, int]], bool], lists: dict[tuple[int, int], list[NestedList]],
) -> tuple[tuple[int, int], tuple[int, int]] | None:
    """The braces of the innermost block holding `offset` that the byte scanner reaches from
    `run` down (a list at most two deep in each run, then again in its run while that is larger
    than `_NESTED_HELPERS_MIN_BYTES`; a list whose head, the run less the list, is at most
    `_NESTED_HEAD_MAX_BYTES`), and the run of its statements around `offset`; each list's head
    checked. `heads` and `lists` keep what is found by run for the other cores. None when no
    list of `run` holds it."""
    found = None
    while run[1] - run[0] > _NESTED_HELPERS_MIN_BYTES:
        if run not in lists:
            lists[run] = nested_lists(source, masked, *run)
        nested = slices.nested_statement_at(source, lists[run], offset)
        if nested is None:
            break
        braces, inside = nested
        if (run[1] - run[0]) - (braces[1] - braces[0]) > _NESTED_HEAD_MAX_BYTES:
            break  # its head would be most of the run: the run is read
        key = (run, braces)
        if key not in heads:
            heads[key] = _a_block(parser, source, run, braces)
        if not heads[key]:
            break
        found, run = nested, inside
    return found


def _a_block(parser: Parser, source: bytes, run: tuple[int, int], braces: tuple[int, int]) -> bool:
    """Whether the list at `braces` in `run` (a run of whole statements) is a block: the run
    parsed with the list emptied has no error and a `statement_block` there (not a class body,
    a `switch`, or a template's `${`, which the byte scanner takes for one)."""
    opener, end = braces
    parser.included_ranges = [slices.parse_range_of(source, run[0], opener + 1),
                              slices.parse_range_of(source, end - 1, run[1])]
    head = parser.parse(source).root_node
    brace = head.descendant_for_byte_range(opener, opener + 1)
    block = brace.parent if brace is not None else None
    return not head.has_error and block is not None and block.type == "statement_block" and \
        (block.start_byte, block.end_byte) == braces
