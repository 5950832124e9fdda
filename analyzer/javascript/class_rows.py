"""Error classes of a unit read in slices (docs/slices.md, stage 7): each slice tree hands back
its heritage classes and the references an ES5 class may extend, as node-free rows with their
facts made in advance (`slice_classes`); `unit_classes` runs `classes.error_classes`' worklist
on them, in the same order, with no tree, and gives the whole tree's `ClassFacts`."""

from __future__ import annotations

import dataclasses
import re
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from tree_sitter import Node, Tree

from analyzer.facts import ClassFacts
from analyzer.javascript.classes import (
    _EXTENDS,
    _class_binding,
    _class_name,
    _fields,
    _heritage_identifier,
    _heritage_references,
)
from analyzer.javascript.compiled import ReadsTheList, compiled_class, compiled_fields
from analyzer.javascript.resolve import Reference, Resolution
from analyzer.javascript.rules import JavaScriptRules
from analyzer.javascript.sink_levels import LARGE_STATEMENT, LevelBindings, Undecided
from analyzer.javascript.syntax import VAR_SCOPE_TYPES, spaced, starts_word
from analyzer.javascript.top_bindings import Bound, TopBindings, TopScopes, merged, top_bindings
from analyzer.javascript.top_declared import declared_start, top_declared
from analyzer.javascript.unit_tree import UnitTree

_WORD = rb"(?<![A-Za-z0-9_$\x80-\xff\\])%s(?![A-Za-z0-9_$\x80-\xff\\])"
#: the name after `extends` and white space
_HERITAGE_NAME = re.compile(rb"\s+([A-Za-z_$][A-Za-z0-9_$]*)(?![A-Za-z0-9_$\x80-\xff\\])")


class HeritageRow(NamedTuple):
    """A class whose heritage is a bare identifier (`class C extends X`)."""

    #: the class node's start
    offset: int
    name: str
    #: the heritage identifier's start
    start: int
    #: its binding as the slice knows it (None: L's level or the global, re-bound at the merge)
    bound: Bound
    #: a binding below L: the start of what it declares (`declared_start`)
    target: int | None


class BaseRow(NamedTuple):
    """A reference an ES5 class may be compiled from (`compiled.compiled_class` found one)."""

    name: str
    start: int
    bound: Bound
    #: the ES5 class node's start; None when the slice cannot tell (it would read L's statements)
    node: int | None
    #: the fields its constructor assigns
    fields: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ClassRow:
    """A class node of a slice (a heritage's class or an ES5 class), its facts made in advance."""

    #: parent and root constructor empty (the merge's); an ES5 class's fields too
    facts: ClassFacts
    #: the binding naming the class (`_class_binding`), None when none does
    binding: tuple[str, int] | None
    #: that binding's scope: None for L's (its references are in every slice)
    scope: tuple[int, int] | None
    #: the node visits its digest costs the whole tree's work bound
    visits: int


@dataclass(slots=True)
class SliceClasses:
    """What one slice hands back for the error classes."""

    #: the names whose declarations of L's level it reports (`top`, `targets`)
    declared: frozenset[str]
    #: the names whose every reference it rowed (`bases`)
    resolved: frozenset[str]
    top: TopBindings
    #: for each L-level binding of those names, the start of what it declares
    targets: dict[tuple[str, int], int | None]
    #: every heritage name, parenthesized or not (`error_classes`' `wanted`)
    wanted: set[str]
    heritages: list[HeritageRow]
    bases: list[BaseRow]
    classes: dict[int, ClassRow]


@dataclass(frozen=True, slots=True)
class UnitClasses:
    """The unit's error classes, and the node visits their digests took."""

    facts: list[ClassFacts]
    visits: int


def heritage_words(source: bytes) -> frozenset[str]:
    """The names after `extends` in the unit's bytes: every slice reports its declarations of
    L's level of them, so that a heritage is re-bound with no slice read again (a name missed
    here reads again the slices holding it)."""
    out = set()
    source = spaced(source)  # white space past ASCII is no part of a name
    for keyword in _EXTENDS.finditer(source):
        name = _HERITAGE_NAME.match(source, keyword.end())
        if name is not None and starts_word(source, keyword.start()):
            out.add(name.group(1).decode())
    return frozenset(out)


def slice_classes(
    unit: str, part: UnitTree, heritages: list[tuple[str, Node]], resolution: Resolution, scopes: TopScopes,
    within: tuple[int, int], roots: frozenset[str], words: frozenset[str] = frozenset(),
    more: frozenset[str] = frozenset(), list_names: frozenset[bytes] | None = None,
) -> SliceClasses:
    """The rows of one slice tree: `heritages` and `resolution` its own (`site_rows.tree_sites`,
    the resolution holding the class `roots`), `within` its range, `words` the names whose
    declarations of L's level it reports (`heritage_words`), `more` names whose every reference
    it rows besides (a slice read again for them). Only a class that can still become an error
    class gets its row and its own name searched (`_Made`)."""
    tree, root, source = part.tree, part.root, part.normalizer.source
    # names whose every reference in a scope is rowed, by the scope's range (`within`: L's)
    asked: dict[tuple[int, int], set[str]] = {within: set(more)}
    made = _Made(unit, part, scopes, within, asked)
    wanted = {name for name, _ in heritages}
    named: list[tuple[str, Node, Node]] = []
    ladders: list[list[tuple[int, int]]] = []
    chains: list[list[Node]] = []
    root_id = scopes.root_id
    for name, node in heritages:
        identifier = _heritage_identifier(node)
        if identifier is not None and identifier.parent is not None and identifier.parent.type == "class_heritage":
            chain = part.chain(node)
            named.append((name, node, identifier))
            ladders.append(_ladder(node, chain, root_id))
            chains.append(chain)
    references = _heritage_references(resolution)
    _bind_heritages(tree, source, named, ladders, references, resolution.names)
    rows = []
    for (name, node, identifier), chain in zip(named, chains, strict=True):
        heritage = references.get(identifier.start_byte)
        if heritage is None:
            continue
        bound = scopes.bound(heritage)
        target = declared_start(heritage.binding) if bound is not None and heritage.binding is not None else None
        rows.append(HeritageRow(node.start_byte, name, identifier.start_byte, bound, target))
        made.heritage(rows[-1], node, chain)
    bases: dict[int, BaseRow] = {}
    wide: list[Resolution] = [resolution]
    done: dict[tuple[int, int], set[str]] = {within: set(roots)}
    searching = [reference for reference in resolution.references if reference.name in roots]
    while True:
        for reference in searching:
            bound = scopes.bound(reference)
            start = reference.node.start_byte
            try:
                es5 = compiled_class(reference.node, root, list_names)
            except ReadsTheList:
                bases[start] = BaseRow(reference.name, start, bound, None, ())
                continue
            if es5 is not None:
                bases[start] = BaseRow(reference.name, start, bound, es5.node.start_byte,
                                       compiled_fields(es5.constructor))
                made.compiled(es5.node, bound)
        searching = []
        for span, names in list(asked.items()):
            fresh = names - done.setdefault(span, set())
            if not fresh:
                continue
            done[span] |= fresh
            found = Resolution(tree, source, fresh, span)
            searching.extend(found.references)
            if span == within:
                wide.append(found)
        if not searching:
            break
    declared = frozenset(words | more | done[within] | resolution.names)
    top, targets = top_declared(root, scopes, declared)
    for found in wide:
        top = merged([top, top_bindings(found, scopes)])
    return SliceClasses(declared, frozenset(done[within]), top, targets, wanted, rows,
                        sorted(bases.values(), key=lambda row: row.start), made.classes)


class _Made:
    """The class rows of a slice, made only for a class that can still become an error class
    (docs/slices.md, stage 7): a heritage bound at L's level or not at all (the merge re-binds
    it), or bound below L to a class made; an ES5 class compiled from a reference bound so, or
    to the binding of a class made. The merge settles no other. Each class made has its own
    name searched in its binding's scope (`asked`)."""

    def __init__(self, unit: str, part: UnitTree, scopes: TopScopes, within: tuple[int, int],
                 asked: dict[tuple[int, int], set[str]]) -> None:
        self.unit, self.part, self.scopes, self.within, self.asked = unit, part, scopes, within, asked
        self.classes: dict[int, ClassRow] = {}
        #: the bindings naming the classes made
        self.keys: set[tuple[str, int]] = set()
        #: the classes waiting for the class a binding below L declares (by its start), or for
        #: the class a binding below L names (by its key), to be made
        self.on_start: dict[int, list[tuple[Node, tuple[str, ...] | None, list[Node] | None]]] = {}
        self.on_key: dict[tuple[str, int], list[Node]] = {}

    def heritage(self, row: HeritageRow, node: Node, chain: list[Node]) -> None:
        if row.bound is None or row.target in self.classes:
            self._make(node, None, chain)
        elif row.target is not None:
            self.on_start.setdefault(row.target, []).append((node, None, chain))

    def compiled(self, node: Node, bound: Bound) -> None:
        if bound is None or bound in self.keys:
            self._make(node, (), None)
        else:
            self.on_key.setdefault(bound, []).append(node)

    def _make(self, node: Node, fields: tuple[str, ...] | None, chain: list[Node] | None) -> None:
        """The class's row (`fields` None: a heritage's, read from its body), then the rows of
        the classes waiting for it."""
        part, root = self.part, self.part.root
        pending = [(node, fields, chain)]
        while pending:
            node, fields, chain = pending.pop()
            start = node.start_byte
            if start in self.classes:
                continue
            binding = _class_binding(node, root)
            scope = None
            if binding is not None and self.scopes.scope_of(binding) is None:
                scope = (binding.scope.start_byte, binding.scope.end_byte)
            facts = ClassFacts(
                offset=start, end_offset=node.end_byte, line=node.start_point[0] + 1,
                column=node.start_point[1] + 1, name=_class_name(node), parent="", root_constructor="",
                fields=_fields(node) if fields is None else fields,
                scope=part.scope_of(self.unit, chain if chain is not None else part.chain(node)),
                digest=part.normalizer.digest(node))
            self.classes[start] = ClassRow(facts, binding.key if binding is not None else None, scope,
                                           node.descendant_count)
            pending.extend(self.on_start.pop(start, ()))
            if binding is not None:
                self.asked.setdefault(scope if scope is not None else self.within, set()).add(binding.name)
                self.keys.add(binding.key)
                pending.extend((waiting, (), None) for waiting in self.on_key.pop(binding.key, ()))


def _ladder(node: Node, chain: list[Node], root_id: int) -> list[tuple[int, int]]:
    """The ranges a heritage's name is resolved in, one after another until it is bound: each
    function (or static block) around the class `node` below L, then its statement of L."""
    out = []
    below = node
    for node in chain:
        if node.id == root_id:
            break
        below = node
        if node.type in VAR_SCOPE_TYPES:
            out.append((node.start_byte, node.end_byte))
    out.append((below.start_byte, below.end_byte))
    return out


def _bind_heritages(
    tree: Tree, source: bytes, named: list[tuple[str, Node, Node]], ladders: list[list[tuple[int, int]]],
    references: dict[int, Reference], resolved: frozenset[str],
) -> None:
    """Adds to `references` each heritage identifier's reference, resolved in the innermost range
    of its ladder that binds it (exact there: a binding inside a range is found with the range's
    occurrences only), the last range's answer else; the names of `resolved` are there already."""
    pending = [(index, 0) for index, (name, _, _) in enumerate(named) if name not in resolved and ladders[index]]
    pending = _by_levels(tree, source, named, ladders, references, pending)
    while pending:
        groups: dict[tuple[int, int], set[str]] = {}
        for index, level in pending:
            groups.setdefault(ladders[index][level], set()).add(named[index][0])
        found = {span: _heritage_references(Resolution(tree, source, names, span)) for span, names in groups.items()}
        later = []
        for index, level in pending:
            reference = found[ladders[index][level]].get(named[index][2].start_byte)
            if reference is None:
                continue
            name = named[index][0]
            further = None if reference.binding is not None else _further(source, name, ladders[index], level)
            if further is not None:
                later.append((index, further))
            else:
                references[reference.node.start_byte] = reference
        pending = later


def _by_levels(
    tree: Tree, source: bytes, named: list[tuple[str, Node, Node]], ladders: list[list[tuple[int, int]]],
    references: dict[int, Reference], pending: list[tuple[int, int]],
) -> list[tuple[int, int]]:
    """Binds in `references` the heritages whose statement of L is large (a release wrapped in a
    function) whose binding lies at or below their outermost function's level, or is the global
    (`sink_levels.LevelBindings`: no search of the statement's bytes, the binding the statement's
    resolution gives); the others are left pending for their ladder."""
    large = [(index, level) for index, level in pending
             if ladders[index][-1][1] - ladders[index][-1][0] >= LARGE_STATEMENT]
    if not large or tree.root_node.has_error:
        return pending
    levels = LevelBindings(tree, frozenset(named[index][0].encode() for index, _ in large),
                           lambda name, within: Resolution(tree, source, {name.decode("utf-8", "replace")}, within))
    decided = set()
    for index, _ in large:
        name, _, identifier = named[index]
        try:
            binding = levels.with_global(source, name.encode(), identifier)
        except Undecided:
            continue
        references[identifier.start_byte] = Reference(name, identifier, binding)
        decided.add(index)
    return [(index, level) for index, level in pending if index not in decided]


def _further(source: bytes, name: str, ladder: list[tuple[int, int]], level: int) -> int | None:
    """The next level of `ladder` whose range holds `name`'s bytes outside the range of `level`:
    only a declaration there could bind it, so a level with none answers as `level` did (a
    wrapped bundle's function and its statement differ by a few brackets); None past the last."""
    start, end = ladder[level]
    needle = name.encode()
    for further in range(level + 1, len(ladder)):
        low, high = ladder[further]
        if source.find(needle, low, start) >= 0 or source.find(needle, end, high) >= 0:
            return further
    return None


class Unsettled(Exception):
    """The slices' rows cannot give the whole tree's classes: why."""


def unit_classes(
    parts: Sequence[SliceClasses], head: TopBindings, source: bytes, ranges: Sequence[tuple[int, int]],
    rules: JavaScriptRules, initial: frozenset[str],
) -> UnitClasses | dict[int, set[str]]:
    """`error_classes`' answer from every slice's rows (`ranges`: the slices'), or the names each
    slice must resolve first (read it again with them: a name of L's level it lacked, whose bytes
    it holds). `head`: the head tree's bindings; `initial`: the names the unit's sites resolve
    (constructors, class roots, logger candidates): their heritages are known from the start.
    Raises `Unsettled` for an ES5 class the slices cannot decide."""
    roots = set(rules.class_roots)
    top = merged([head, *(part.top for part in parts)])
    targets: dict[tuple[str, int], int | None] = {}
    classes: dict[int, ClassRow] = {}
    heritages: list[HeritageRow] = []
    wanted: set[str] = set()
    for part in parts:
        targets.update(part.targets)
        classes.update(part.classes)
        heritages.extend(part.heritages)
        wanted |= part.wanted
    by_name: dict[str, list[HeritageRow]] = {}
    for row in heritages:
        by_name.setdefault(row.name, []).append(row)
    bases_of: dict[str, list[BaseRow]] = {}
    every_base = [row for part in parts for row in part.bases]
    for base in every_base:
        bases_of.setdefault(base.name, []).append(base)
    missing: dict[int, set[str]] = {}
    checked: set[tuple[str, bool]] = set()

    def complete(name: str, every: bool) -> None:
        """Asks for the slices holding `name` that did not report its declarations of L's level
        (`every`: that did not row its every reference)."""
        if (name, every) in checked:
            return
        checked.add((name, every))
        word = re.compile(_WORD % re.escape(name.encode()))
        for index, part in enumerate(parts):
            if name not in (part.resolved if every else part.declared) and word.search(spaced(source), *ranges[index]):
                missing.setdefault(index, set()).add(name)

    def key_of(name: str, bound: Bound) -> tuple[str, int] | None:
        if bound is None:
            complete(name, False)
        return top.rebound(name, bound)

    root_of: dict[int, str] = {}
    found: deque[int] = deque()
    compiled: dict[int, tuple[BaseRow, str]] = {}

    def settle(row: HeritageRow) -> None:
        if row.offset in root_of:
            return
        if row.bound is not None:
            builtin = root_of.get(row.target) if row.target is not None else None
        else:
            key = key_of(row.name, None)
            if key is None:
                builtin = row.name if row.name in roots else None
            else:
                target = targets.get(key)
                builtin = root_of.get(target) if target is not None else None
        if builtin is not None:
            root_of[row.offset] = builtin
            found.append(row.offset)

    def settle_compiled(base: BaseRow, builtin: str) -> None:
        if base.node is None:
            raise Unsettled(f"an ES5 class extending {base.name} at {base.start} reads L's statements")
        if base.node not in root_of:
            root_of[base.node] = builtin
            compiled[base.node] = (base, base.name)
            found.append(base.node)

    for base in every_base:
        if base.name in roots and key_of(base.name, base.bound) is None:
            settle_compiled(base, base.name)
    count = -1
    while count != len(root_of):
        count = len(root_of)
        for row in heritages:
            if row.name in initial:
                settle(row)
    searched: set[tuple[str, int]] = set()
    waiting: list[int] = []
    while found or (compiled and waiting):
        if not found:
            found.extend(waiting)
            waiting.clear()
        offset = found.popleft()
        made = classes[offset]
        binding = made.binding
        if binding is None or binding in searched:
            continue
        name = binding[0]
        if name not in wanted and not compiled:
            waiting.append(offset)
            continue
        searched.add(binding)
        scope = made.scope
        if scope is None:
            complete(name, True)

        def inside(start: int, scope: tuple[int, int] | None = scope) -> bool:
            return scope is None or scope[0] <= start < scope[1]

        for row in by_name.get(name, ()):
            if inside(row.start):
                settle(row)
        for base in bases_of.get(name, ()):
            if inside(base.start) and key_of(name, base.bound) == binding:
                settle_compiled(base, root_of[offset])
    if missing:
        return missing
    out = [dataclasses.replace(classes[row.offset].facts, parent=row.name, root_constructor=root_of[row.offset])
           for row in heritages if row.offset in root_of]
    out.extend(dataclasses.replace(classes[node].facts, parent=name, root_constructor=root_of[node],
                                   fields=base.fields)
               for node, (base, name) in compiled.items())
    visits = sum(classes[offset].visits for offset in root_of)
    return UnitClasses(sorted(out, key=lambda facts: facts.offset), visits)
