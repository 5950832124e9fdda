"""The callsites' facts (docs/slices.md, "One callsite's facts"): one callsite's (`_site`), and over
slices (stage 10c): each slice tree makes, while it is alive, the facts of its potential sites
(`slice_facts`), with the node visits each needs and, where the flow's fate hangs on whether a
call is the unit's logger's, every fate; the merge (`unit_site_facts`) keeps the merged sites'
facts, picks their fates and counts their visits as the whole tree's `extract._Tasks` does. No
node survives a slice."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import NamedTuple, cast

from tree_sitter import Node, Tree

from analyzer.facts import FlowFacts, LeftOut, SiteFacts
from analyzer.identity import IdentityInput
from analyzer.javascript import logger as logger_detection
from analyzer.javascript.consumers import consumer_of
from analyzer.javascript.handlers.flow import flow_of
from analyzer.javascript.messages import message_of
from analyzer.javascript.normalize import Anchor, Normalizer
from analyzer.javascript.rules import JavaScriptRules
from analyzer.javascript.scopes import context_of
from analyzer.javascript.site_rows import TreeSites, UnitSites, tree_range
from analyzer.javascript.syntax import FUNCTION_TYPES, text, without_parentheses
from analyzer.javascript.unit_tree import UnitTree
from analyzer.model import CalleeRole, Consumer, Unit, made


class RecoveredShape(Exception):
    """A callsite whose syntax the parser recovered into a shape the facts cannot be read from
    (e.g. a call without its callee): the callsite is left out and counted (`LeftOut`)."""




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
    return _SITE_FACTS(
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
        identity=_IDENTITY(
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


#: the records `_site` makes, a few thousand a unit (`model.made`: a third of the frozen `__init__`)
_SITE_FACTS, _IDENTITY = made(SiteFacts), made(IdentityInput)
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
        segment = source[at:offset]
        column += len(segment) if segment.isascii() else len(segment.decode("utf-8", "replace"))
        at = offset
        out[offset] = (line, column)
    return out


#: a flow whose fate hangs on more potential logger calls than make this many fates is not
#: followed in a slice (the unit is read whole)
MAX_FATES = 16
#: the nodes the error classes digest before the callsites (`classes.error_classes`): a site's
#: function or anchor among them costs the whole tree nothing
_CLASS_NODES = FUNCTION_TYPES | {"class", "class_declaration"}

#: (start, end, type, node count) of a node digested whole
Digested = tuple[int, int, str, int]
#: the answers a fate holds under: (offset of a potential logger call, it is a diagnostic site)
Decisions = tuple[tuple[int, bool], ...]


class FactRow(NamedTuple):
    """The facts of one potential site, node-free (a tuple: a slice makes thousands)."""

    start: int
    end: int
    kind: str
    fact: SiteFacts | LeftOut
    #: node visits of its chain (`normalizer.spend(len(chain))` in `_site`)
    chain: int
    #: the nodes its facts digest whole, cached or not: the whole tree pays each once
    digested: tuple[Digested, ...]
    #: its flow under each answer its fate hangs on; empty: `fact.flow` holds whatever the logger
    fates: tuple[tuple[Decisions, FlowFacts], ...]
    #: no function or static block between it and L: its anchor, `_local` and function digest
    #: may read across the cuts (docs/slices.md, step 8)
    module_level: bool


@dataclass(slots=True)
class SliceFacts:
    """What one slice tree hands back for the callsites' facts."""

    rows: list[FactRow]
    #: a potential site whose fate hangs on too many calls (`MAX_FATES`), by offset
    unfollowed: list[int]


class _Visits(Normalizer):
    """A slice tree's normalizer that notes what each callsite's facts spend (its chain's
    length, the nodes digested whole, cached or not) instead of spending it: the merge counts
    the visits of the sites it keeps, each node once, as the whole tree's one normalizer does."""

    def __init__(self, source: bytes, own: tuple[int, int] | None = None) -> None:
        super().__init__(source, own=own)
        self.chain = 0
        self.digested: list[Digested] = []
        #: False once the facts are made: the slice's other halves digest on it, unnoted
        self.noting = True

    def spend(self, nodes: int) -> None:
        if self.noting:
            self.chain += nodes

    def digest(self, node: Anchor) -> bytes:
        if self.noting and isinstance(node, Node):
            self.digested.append((node.start_byte, node.end_byte, node.type, node.descendant_count))
        return self.unspent(node)  # a digest's visits are noted above, never spent


class _Answers:
    """`diagnostics` for `flow_of` in a slice, before the logger is chosen: a call of a potential
    logger call's offset is answered as `decided` says, else taken for a diagnostic and noted in
    `asked`; any other offset is none (the unit's diagnostic sites are among the potential ones)."""

    __slots__ = ("asked", "decided", "potential")

    def __init__(self, potential: frozenset[int], decided: dict[int, bool]) -> None:
        self.potential, self.decided = potential, decided
        self.asked: list[int] = []

    def __contains__(self, offset: object) -> bool:
        known = self.decided.get(cast(int, offset))
        if known is not None:
            return known
        if offset not in self.potential:
            return False
        self.decided[cast(int, offset)] = True
        self.asked.append(cast(int, offset))
        return True


def facts_tree(tree: Tree, source: bytes, head: tuple[Node, ...], list_type: str) -> UnitTree:
    """The slice tree's `UnitTree` for `slice_facts`, whose normalizer notes the facts' visits;
    the slice's other halves read the tree through it after the facts (its digests, names,
    sibling runs and scope entries made once: docs/slices.md, stage 7)."""
    part = UnitTree(tree, source, None, head, list_type)
    part.normalizer = _Visits(source, part.normalizer.own)
    return part


def slice_facts(
    name: str, source: bytes, tree: Tree, found: TreeSites, rules: JavaScriptRules, head: tuple[Node, ...],
    list_type: str, part: UnitTree | None = None,
) -> SliceFacts:
    """The facts of a slice tree's potential sites (`found`: its `site_rows.tree_sites`): each
    constructor call its tree leaves to L's level or the global as an error, each call of a
    logger name it resolved as a diagnostic, whatever the binding (the merge keeps the real
    ones). `head`: the head chain; `list_type`: L's type; `part`: the tree's `facts_tree`, read
    by nothing before (made here when None)."""
    part = facts_tree(tree, source, head, list_type) if part is None else part
    visits = part.normalizer
    assert isinstance(visits, _Visits) and visits.noting
    unit = Unit(name, source, "")  # `_site` reads its name and bytes only
    constructors = set(rules.constructors)
    loggers = found.rows.logger.names
    wanted: list[tuple[int, int, str]] = []
    potential: set[int] = set()
    for row in found.rows.calls:
        if row.name in constructors and row.bound is None:
            wanted.append((row.start, row.end, "error"))
        if row.name in loggers and row.call and not (row.recovered and row.name in constructors):
            wanted.append((row.start, row.end, "diagnostic"))
            potential.add(row.start)
    wanted.sort(key=lambda site: (site[0], site[2]))
    calls = frozenset(potential)
    columns = _columns(source, sorted({start for start, _, _ in wanted}))
    rows: list[FactRow] = []
    unfollowed: list[int] = []
    first = tree_range(tree, source)[0]  # a function before it is the head's
    for start, end, kind in wanted:
        node = found.nodes[(start, end)]
        position = columns[start]
        answers = _Answers(calls, {})
        visits.chain, visits.digested = 0, []
        fact: SiteFacts | LeftOut
        try:
            fact = _site(unit, part, node, kind, rules, position, cast(frozenset[int], answers))
        except RecoveredShape as shape:
            fact = LeftOut(kind, start, end, position[0], str(shape))
        fates: tuple[tuple[Decisions, FlowFacts], ...] = ()
        if answers.asked and isinstance(fact, SiteFacts) and fact.flow is not None:
            fates = _fates(node, part, fact, calls, answers)
            if not fates:
                unfollowed.append(start)
        if isinstance(fact, SiteFacts):
            function = fact.function_offset
        else:
            inner = part.innermost_function(part.chain(node))
            function = inner.start_byte if inner is not None else None
        module_level = function is None or function < first  # none, or the head's (Bun's wrapper)
        rows.append(FactRow(start, end, kind, fact, visits.chain, tuple(visits.digested), fates, module_level))
    visits.noting, visits.digested = False, []
    return SliceFacts(rows, unfollowed)


def _fates(
    node: Node, part: UnitTree, fact: SiteFacts, calls: frozenset[int], first: _Answers,
) -> tuple[tuple[Decisions, FlowFacts], ...]:
    """The flow of an error site under every answer to the potential logger calls it asks about
    (the first, `fact.flow`, took them all for diagnostics); empty past `MAX_FATES`."""
    assert fact.flow is not None
    fates = [(tuple(sorted(first.decided.items())), fact.flow)]
    pending = _branches({}, first.asked)
    chain = part.chain(node)
    while pending:
        if len(fates) == MAX_FATES:
            return ()
        answers = _Answers(calls, pending.pop())
        given = dict(answers.decided)
        flow = flow_of(node, chain, cast(frozenset[int], answers), fact.callee)
        fates.append((tuple(sorted(answers.decided.items())), flow))
        pending.extend(_branches(given, answers.asked))
    return tuple(fates)


def _branches(given: dict[int, bool], asked: list[int]) -> list[dict[int, bool]]:
    """The answers not yet followed below a run that took each of `asked` (after `given`) for a
    diagnostic: each of them is none, those before it diagnostics."""
    out = []
    prefix = dict(given)
    for offset in asked:
        out.append({**prefix, offset: False})
        prefix[offset] = True
    return out


@dataclass(frozen=True, slots=True)
class UnitSiteFacts:
    """The unit's callsites' facts, merged from its slices' (node-free)."""

    #: every merged site's facts, in the sites' order (`LeftOut` for the shapes left out)
    facts: list[SiteFacts | LeftOut]
    #: site offset -> the handler that catches its error directly
    caught: dict[int, int]
    #: the visits of the sites' chains, and the nodes their facts digest whole -> node count
    chain: int
    digested: dict[tuple[int, int, str], int]

    def spent(self, before: frozenset[tuple[int, int]] = frozenset()) -> int:
        """The node visits the whole tree's facts of these sites take (`_Tasks`), `before` the
        (start, end) of the classes digested first (`ClassFacts`; default none: an upper bound)."""
        return self.chain + sum(count for (start, end, kind), count in self.digested.items()
                                if kind not in _CLASS_NODES or (start, end) not in before)


def unit_site_facts(parts: list[SliceFacts], sites: UnitSites) -> UnitSiteFacts | str:
    """The facts of the unit's `sites` (`site_rows.merge_sites` of the same slices), or why they
    cannot be had from the slices'."""
    made = {(row.start, row.end, row.kind): row for part in parts for row in part.rows}
    unfollowed = {offset for part in parts for offset in part.unfollowed}
    diagnostics = frozenset(start for start, _, kind in sites.sites if kind == "diagnostic")
    facts: list[SiteFacts | LeftOut] = []
    caught: dict[int, int] = {}
    chain = 0
    digested: dict[tuple[int, int, str], int] = {}
    for site in sites.sites:
        row = made.get(site)
        if row is None:
            return f"the check failed: no facts made for the site at {site[0]}"
        if row.module_level:
            return f"a callsite at module level: its facts read L across the cuts (at {site[0]})"
        if site[0] in unfollowed:
            return f"a flow that hangs on more than {MAX_FATES} fates of logger calls (at {site[0]})"
        fact = row.fact
        if row.fates:
            fact = replace(cast(SiteFacts, fact), flow=_picked(row.fates, diagnostics))
        facts.append(fact)
        if isinstance(fact, SiteFacts) and fact.flow is not None and fact.flow.handler is not None:
            caught[site[0]] = fact.flow.handler
        chain += row.chain
        for start, end, kind, count in row.digested:
            digested[(start, end, kind)] = count
    return UnitSiteFacts(facts, caught, chain, digested)


def _picked(fates: tuple[tuple[Decisions, FlowFacts], ...], diagnostics: frozenset[int]) -> FlowFacts:
    """The fate whose answers are the unit's: one holds, the answers of each being exclusive."""
    for decisions, flow in fates:
        if all((offset in diagnostics) == logged for offset, logged in decisions):
            return flow
    raise AssertionError("the fates of a flow cover every answer")
