"""One JavaScript unit -> plain facts about its callsites and error classes (no tree nodes
survive this stage, so the tree's memory is freed when it returns)."""

from __future__ import annotations

import bisect
import re
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, cast

from tree_sitter import Node, Tree

from analyzer.bundle.load import file_name
from analyzer.facts import ErrorRegion, LeftOut, LoggerDeclaration, LoggerFacts, SiteFacts, UnitFacts, UnitHandlers
from analyzer.identity import IdentityInput
from analyzer.isolated import report
from analyzer.javascript import logger as logger_detection
from analyzer.javascript.classes import error_classes
from analyzer.javascript.consumers import consumer_of
from analyzer.javascript.handlers import called_sources, find_handlers, flow_of
from analyzer.javascript.messages import message_of
from analyzer.javascript.modules import find_modules, unit_evidence
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
from analyzer.javascript.scopes import context_of
from analyzer.javascript.site_rows import UnitSites, merge_sites, tree_sites
from analyzer.javascript.syntax import parse, text, without_parentheses
from analyzer.javascript.top_bindings import TopBindings, TopScopes
from analyzer.javascript.unit_extras import JavaScriptUnit
from analyzer.javascript.unit_tree import UnitTree
from analyzer.limits import WorkBudget, check_callsites
from analyzer.model import CalleeRole, Consumer, Unit
from analyzer.parallel.executor import Inline
from analyzer.places import EMBEDDED, UnitPlace, file_place
from analyzer.trace import mark

if TYPE_CHECKING:  # the driver is imported only when a unit is cut (its import: 15 ms, mostly patterns)
    from analyzer.javascript.sliced import SlicedHalves


class RecoveredShape(Exception):
    """A callsite whose syntax the parser recovered into a shape the facts cannot be read from
    (e.g. a call without its callee): the callsite is left out and counted (`LeftOut`)."""


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
        self, unit: Unit, part: UnitTree, rules: JavaScriptRules, items: Listing, sites: list[tuple[Node, str]],
        roots: list[int],
    ) -> None:
        self.unit, self.part, self.rules, self.normalizer, self.items = unit, part, rules, part.normalizer, items
        self.sites, self.roots = sites, roots
        self.columns = _columns(unit.source, [node.start_byte for node, _ in sites])
        self.diagnostics = frozenset(node.start_byte for node, kind in sites if kind == "diagnostic")
        self.site_groups = range(0, len(sites), _SITES_PER_TASK)
        self.root_groups = range(0, len(roots), _BINDINGS_PER_TASK)
        self.count = len(items.chunks) + len(self.site_groups) + len(self.root_groups)

    def run(self, task: int) -> object:
        chunks, groups = len(self.items.chunks), len(self.site_groups)
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
        chunks, groups = len(self.items.chunks), len(self.site_groups)
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
    starts = [item[0] for item in items]
    wanted = set()
    for offset in offsets + ([choice.binding.offset] if choice.binding is not None else []):
        position = bisect.bisect_right(starts, offset) - 1
        if position >= 0 and offset < items[position][1] and items[position][3]:
            wanted.add(position)
    return sorted(wanted)


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


def _site(
    unit: Unit, part: UnitTree, node: Node, kind: str, rules: JavaScriptRules, position: tuple[int, int],
    diagnostics: frozenset[int],
) -> SiteFacts:
    """The callsite's facts; an error's with its flow (`handlers.flow`). `diagnostics`: the
    offsets of the unit's logger calls."""
    normalizer = part.normalizer
    chain = part.chain(node)  # through the head chain: the whole tree's ancestors, and their count
    normalizer.spend(len(chain))
    if node.type in ("call_expression", "new_expression"):
        is_new = node.type == "new_expression"
        callee_node = node.child_by_field_name("constructor" if is_new else "function")
        arguments = _arguments(node)
        consumer = consumer_of(node, chain, normalizer.siblings.named_index)
    else:  # a name followed by `(` in a region the parser recovered from
        is_new = _NEW_BEFORE.search(unit.source, max(0, node.start_byte - 8), node.start_byte) is not None
        callee_node, arguments = node, _recovered_arguments(node)
        consumer = Consumer(node="ERROR", relation="recovered", role="other")
    if callee_node is None:
        raise RecoveredShape(f"a {node.type} without its callee")
    callee = text(callee_node)
    if kind == "error":
        message = message_of(arguments[0] if arguments else None)
        level = level_source = None
        candidates: tuple[str, ...] | None = None
        role: CalleeRole = "error-constructor"
    else:
        slot = rules.message_argument
        message = message_of(arguments[slot] if len(arguments) > slot else None)
        options = arguments[rules.options_argument] if len(arguments) > rules.options_argument else None
        level, level_source, candidates = level_of(options, rules)
        role = "logger"
    anchor = part.anchor_of(node, chain)
    function = part.innermost_function(chain)
    # the function first: a window anchor inside it is then read from the names it captured
    function_digest = normalizer.digest(function) if function is not None else None
    return SiteFacts(
        kind=kind,
        offset=node.start_byte,
        end_offset=node.end_byte,
        line=position[0],
        column=position[1],
        constructor=callee if kind == "error" else None,
        form="new" if is_new else "call",
        callee=callee,
        callee_role=role,
        arg_count=len(arguments),
        message=message,
        level=level,
        level_source=level_source,
        level_candidates=candidates,
        scope=part.scope_of(unit.name, chain),
        consumer=consumer,
        context=context_of(node, chain),
        identity=IdentityInput(
            kind=kind,
            role=callee if kind == "error" else role,
            comparison_key=message.comparisonKey,
            consumer_role=consumer.role,
            anchor=normalizer.digest(anchor),
            anchor_slot=(unit.name, anchor.start_byte),
            order=(unit.name, node.start_byte),
        ),
        function_digest=function_digest,
        function_offset=function.start_byte if function is not None else None,
        flow=flow_of(node, chain, diagnostics, callee) if kind == "error" and node.type != "identifier" else None,
    )


_NEW_BEFORE = re.compile(rb"(?<![A-Za-z0-9_$])new\s+$")


def _recovered_arguments(name: Node) -> list[Node]:
    """The string right after `name(` when the parser kept one; nothing else is certain there."""
    following = name.next_named_sibling
    if following is not None and following.type in ("string", "template_string"):
        return [following]
    return []


def _arguments(call: Node) -> list[Node]:
    arguments = call.child_by_field_name("arguments")
    if arguments is None:
        return []
    if arguments.type == "template_string":  # tagged template: one argument, the strings
        return [arguments]
    return [child for child in arguments.named_children if child.type != "comment"]


def level_of(options: Node | None, rules: JavaScriptRules) -> tuple[str, str, tuple[str, ...]]:
    """(level, levelSource, levelCandidates) of a logger call's options argument."""
    default = rules.default_level
    if options is None:
        return default, "default", (default,)
    options = without_parentheses(options)
    if options.type != "object":
        return "dynamic", "dynamic", ()
    value: Node | None = None
    spread = False
    for member in options.named_children:
        if member.type == "spread_element":
            spread, value = True, None  # a later spread may override an earlier level
        elif member.type == "pair":
            key = member.child_by_field_name("key")
            if key is not None and _key_text(key) == rules.level_key:
                value, spread = member.child_by_field_name("value"), False
    if value is None:
        return ("dynamic", "dynamic", ()) if spread else (default, "default", (default,))
    value = without_parentheses(value)
    literals = logger_detection.level_literals(value)
    if value.type in ("string", "template_string") and len(literals) == 1:
        return literals[0], "explicit", (literals[0],)
    return "dynamic", "dynamic", tuple(literals)


def _key_text(key: Node) -> str:
    raw = text(key)
    return raw[1:-1] if key.type == "string" else raw


def _columns(source: bytes, offsets: list[int]) -> dict[int, tuple[int, int]]:
    """1-based (line, column in code points) of sorted offsets, in one pass over the source."""
    out: dict[int, tuple[int, int]] = {}
    line, line_start, at, column = 1, 0, 0, 1
    for offset in offsets:
        newlines = source.count(b"\n", at, offset)
        if newlines:
            line += newlines
            line_start = source.rfind(b"\n", at, offset) + 1
            at, column = line_start, 1
        column += len(source[at:offset].decode("utf-8", "replace"))
        at = offset
        out[offset] = (line, column)
    return out


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

