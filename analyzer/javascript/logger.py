"""Detect the bundle's diagnostic logger and say on what evidence (README.md, "Scanning")."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from tree_sitter import Node, Tree

from analyzer.javascript.resolve import Binding, Reference, Resolution
from analyzer.javascript.rules import JavaScriptRules
from analyzer.javascript.syntax import (
    FUNCTION_TYPES,
    named_index,
    same,
    spaced,
    starts_word,
    text,
    without_parentheses,
)
from analyzer.javascript.top_bindings import BindingRow, Bound, TopBindings, TopScopes

_RUNNER_UPS = 5
_DECL_PREVIEW = 120


@dataclass(frozen=True, slots=True)
class LevelOption:
    """A `{level: ...}` options object passed to a plain-identifier callee."""

    callee: str
    call: Node
    value: Node | None


@dataclass(slots=True)
class Candidate:
    name: str
    #: None: the global name
    binding: BindingRow | None
    level_option_calls: int = 0
    calls: int = 0
    #: the default-level function declared: (its start, where its preview stops)
    default_declaration: tuple[int, int] | None = None
    levels: Counter[str] = field(default_factory=Counter)

    def sort_key(self, minimum: int) -> tuple[int, int, int, str, int]:
        qualified = self.default_declaration is not None and self.level_option_calls >= minimum
        return (
            -int(qualified),
            -self.level_option_calls,
            -int(self.default_declaration is not None),
            self.name,
            self.binding.offset if self.binding else -1,
        )


@dataclass(frozen=True, slots=True)
class CandidateEvidence:
    """A candidate binding as the summary lists it (`analyzer.facts.LoggerCandidate`)."""

    name: str
    declaration_offset: int | None
    calls: int
    level_option_calls: int
    default_level_declaration: bool
    #: None for a logger named by `--logger`: its levels are not listed
    levels: dict[str, int] | None


@dataclass(frozen=True, slots=True)
class Detection:
    """The evidence of a unit's logger (`analyzer.facts.LoggerDetection`)."""

    chosen: CandidateEvidence | None
    reasons: tuple[str, ...]
    runner_ups: tuple[CandidateEvidence, ...]


@dataclass(frozen=True, slots=True)
class LoggerChoice:
    """The chosen logger binding of one unit (None: no logger) and the evidence."""

    name: str | None
    #: None with a name: the name resolves to the global binding
    binding: BindingRow | None
    source: str
    evidence: Detection


def level_options(
    tree: Tree, source: bytes, rules: JavaScriptRules, within: tuple[int, int] | None = None,
) -> list[LevelOption]:
    """The level-option calls (`within`: in that byte range only, a slice tree's)."""
    key = re.escape(rules.level_key.encode())
    pattern = re.compile(key + rb"[\"']?\s*:")
    root = tree.root_node
    found: dict[int, LevelOption] = {}
    source = spaced(source)  # white space past ASCII is no part of a name
    for match in pattern.finditer(source, *(within or (0, len(source)))):
        start = match.start()
        if not (starts_word(source, start) or source[start - 1] in b"\"'"):
            continue
        node = root.descendant_for_byte_range(start, start + len(rules.level_key))
        pair = _pair_of(node)
        if pair is None:
            continue
        option = _as_call_option(pair, rules)
        if option is not None:
            found[option.call.start_byte] = option
    return [found[offset] for offset in sorted(found)]


def _pair_of(node: Node | None) -> Node | None:
    while node is not None and node.type in ("string_fragment", "string", "property_identifier"):
        parent = node.parent
        if parent is not None and parent.type in ("pair", "pair_pattern"):
            return parent if same(parent.child_by_field_name("key"), node) else None
        node = parent
    return None


def _as_call_option(pair: Node, rules: JavaScriptRules) -> LevelOption | None:
    obj = pair.parent
    if pair.type != "pair" or obj is None or obj.type != "object":
        return None
    arguments = obj.parent
    if arguments is None or arguments.type != "arguments":
        return None
    if named_index(arguments, obj) != rules.options_argument:
        return None
    call = arguments.parent
    if call is None or call.type != "call_expression":
        return None
    callee = call.child_by_field_name("function")
    if callee is None or callee.type != "identifier":
        return None
    return LevelOption(callee=text(callee), call=call, value=pair.child_by_field_name("value"))


def default_level_declarations(
    tree: Tree, source: bytes, rules: JavaScriptRules, within: tuple[int, int] | None = None,
) -> dict[str, list[Node]]:
    """Functions with an options parameter defaulting to `{level: "<defaultLevel>"}`, by name
    (`within`: in that byte range only)."""
    literal = re.escape(rules.default_level.encode())
    key = re.escape(rules.level_key.encode())
    pattern = re.compile(key + rb"[\"']?\s*:\s*[\"'`]" + literal + rb"[\"'`]")
    root = tree.root_node
    out: dict[str, list[Node]] = {}
    source = spaced(source)  # white space past ASCII is no part of a name
    for match in pattern.finditer(source, *(within or (0, len(source)))):
        start = match.start()
        pair = _pair_of(root.descendant_for_byte_range(start, start + len(rules.level_key)))
        if pair is None or pair.type != "pair":
            continue
        function, name = _declared_function(pair, rules)
        if function is not None and name is not None:
            out.setdefault(name, []).append(function)
    return out


def _declared_function(pair: Node, rules: JavaScriptRules) -> tuple[Node | None, str | None]:
    obj = pair.parent
    default = obj.parent if obj is not None else None
    if default is None or default.type != "assignment_pattern" or not same(default.child_by_field_name("right"), obj):
        return None, None
    params = default.parent
    if params is None or params.type != "formal_parameters":
        return None, None
    if named_index(params, default) != rules.options_argument:
        return None, None
    function = params.parent
    if function is None or function.type not in FUNCTION_TYPES:
        return None, None
    name = function.child_by_field_name("name")
    if name is None and function.parent is not None and function.parent.type == "variable_declarator":
        name = function.parent.child_by_field_name("name")
    if name is None or name.type != "identifier":
        return None, None
    return function, text(name)


def candidate_names(
    options: list[LevelOption], declarations: dict[str, list[Node]], rules: JavaScriptRules
) -> set[str]:
    """Names worth resolving: a default-level declaration, or enough level-option calls."""
    return _candidate_names(Counter(option.callee for option in options), set(declarations), rules)


def _candidate_names(calls: Counter[str], declared: set[str], rules: JavaScriptRules) -> set[str]:
    return {name for name, count in calls.items() if count >= rules.min_level_option_calls} | declared


@dataclass(slots=True)
class CandidateCalls:
    """One tree's calls of one candidate binding."""

    calls: int = 0
    level_option_calls: int = 0
    levels: Counter[str] = field(default_factory=Counter)


@dataclass(slots=True)
class LoggerSlice:
    """What one tree hands back for the logger (docs/slices.md, stages 5d and 5f), node-free."""

    #: the names the tree resolved: its own candidate names and the forced one
    names: frozenset[str]
    #: level-option calls by callee, and the names of default-level declarations (the unit's
    #: candidate names are made from every tree's)
    option_calls: Counter[str]
    declared: set[str]
    #: calls of the resolved names by their binding as the tree knows it (`top_bindings.Bound`:
    #: None for L's level or the global, re-bound at the merge)
    calls: dict[tuple[str, Bound], CandidateCalls]
    #: the bindings declaring a default-level function: (function start, where its preview stops)
    defaults: dict[tuple[str, int], tuple[int, int]]
    #: the rows of the bindings below L its calls resolve to, of those declaring a default-level
    #: function, and of every binding of the forced name, by key
    bindings: dict[tuple[str, int], BindingRow]


def logger_slice(
    resolution: Resolution, called: list[tuple[Reference, Node]], scopes: TopScopes, options: list[LevelOption],
    declarations: dict[str, list[Node]], names: set[str], forced: str | None,
) -> LoggerSlice:
    """The logger's evidence in one tree, whose `resolution` resolved `names` (`called`: its
    `calls()`); the bindings of `forced` with their depth."""
    option_by_call = {option.call.start_byte: option for option in options}
    calls: dict[tuple[str, Bound], CandidateCalls] = {}
    for reference, call in called:
        if call.type != "call_expression" or reference.name not in names:
            continue
        bound = (reference.name, scopes.bound(reference))
        found = calls.get(bound)
        if found is None:
            found = calls[bound] = CandidateCalls()
        found.calls += 1
        option = option_by_call.get(call.start_byte)
        if option is not None and option.callee == reference.name:
            found.level_option_calls += 1
            for level in level_literals(option.value):
                found.levels[level] += 1
    defaults: dict[tuple[str, int], tuple[int, int]] = {}
    for name, functions in declarations.items():
        for function in functions:
            for key, binding in resolution.bindings.items():
                if key[0] == name and _declares(binding, function):
                    body = function.child_by_field_name("body")
                    defaults[key] = (function.start_byte, body.start_byte if body is not None else function.end_byte)
    # the rows `choose` reads: the bindings below L that calls resolve to, those declaring a
    # default-level function, and every binding of `forced` (L's first ones are TopBindings')
    bindings = {key: scopes.row(resolution.bindings[key])
                for key in {bound for _, bound in calls if bound is not None} | defaults.keys()}
    if forced:
        bindings.update((key, scopes.row(binding, True)) for key, binding in resolution.bindings.items()
                        if key[0] == forced)
    return LoggerSlice(frozenset(names), Counter(option.callee for option in options), set(declarations), calls,
                       defaults, bindings)


def missing_names(parts: list[LoggerSlice], rules: JavaScriptRules, forced: str | None) -> list[set[str]]:
    """Per tree, the unit's candidate names it did not resolve: each such tree must be read
    again with them (all empty: the merge is exact)."""
    exact = _unit_names(parts, rules, forced)
    return [exact - part.names for part in parts]


def unit_names(parts: list[LoggerSlice], rules: JavaScriptRules, forced: str | None) -> set[str]:
    """The unit's candidate names (and the forced one): what a whole tree's sites resolve."""
    return _unit_names(parts, rules, forced)


def _unit_names(parts: list[LoggerSlice], rules: JavaScriptRules, forced: str | None) -> set[str]:
    calls: Counter[str] = Counter()
    declared: set[str] = set()
    for part in parts:
        calls.update(part.option_calls)
        declared |= part.declared
    return _candidate_names(calls, declared, rules) | ({forced} if forced else set())


def choose(
    parts: list[LoggerSlice], top: TopBindings, source: bytes, rules: JavaScriptRules, forced: str | None,
) -> LoggerChoice:
    """Choose the logger among the unit's candidate bindings from every tree's evidence, the
    references of L's level re-bound by `top` (`missing_names` must find none)."""
    names = _unit_names(parts, rules, forced)
    bindings: dict[tuple[str, int], BindingRow] = {}
    for part in parts:
        bindings.update(part.bindings)
    for row in top.function.values():  # the wrapper's parameters are in no slice
        bindings.setdefault(row.key, row)
    candidates: dict[tuple[str, int], Candidate] = {}
    for part in parts:
        for (name, bound), found in part.calls.items():
            if name not in names:
                continue
            candidate = _candidate_for(candidates, name, top.binding(name) if bound is None else bindings[bound])
            candidate.calls += found.calls
            candidate.level_option_calls += found.level_option_calls
            candidate.levels.update(found.levels)
        for key, declaration in part.defaults.items():
            candidates.setdefault(key, Candidate(key[0], bindings[key])).default_declaration = declaration
    if forced:
        return _forced_choice(forced, bindings, candidates)
    ranked = sorted(candidates.values(), key=lambda c: c.sort_key(rules.min_level_option_calls))
    viable = [c for c in ranked if c.level_option_calls >= rules.min_level_option_calls]
    described = [_describe(c) for c in ranked[: _RUNNER_UPS + 1]]
    if not viable:
        reason = (f"no binding is called with a literal {{{rules.level_key}: ...}} option "
                  f"at least {rules.min_level_option_calls} times")
        return LoggerChoice(None, None, "none", Detection(None, (reason,), tuple(described[:_RUNNER_UPS])))
    chosen = viable[0]
    summary = _describe(chosen)
    return LoggerChoice(chosen.name, chosen.binding, "detected", Detection(
        summary, tuple(_reasons(chosen, rules, source)), tuple([d for d in described if d != summary][:_RUNNER_UPS])))


def _candidate_for(candidates: dict[tuple[str, int], Candidate], name: str, binding: BindingRow | None) -> Candidate:
    key = binding.key if binding is not None else (name, -1)
    candidate = candidates.get(key)
    if candidate is None:
        candidate = candidates[key] = Candidate(name, binding)
    return candidate


def _declares(binding: Binding, function: Node) -> bool:
    declared = binding.declaration.parent
    if declared is not None and same(declared, function):
        return True
    return declared is not None and declared.type == "variable_declarator" and same(
        declared.child_by_field_name("value"), function
    )


def _forced_choice(
    name: str, bindings: dict[tuple[str, int], BindingRow], candidates: dict[tuple[str, int], Candidate],
) -> LoggerChoice:
    binding = min((row for key, row in bindings.items() if key[0] == name), key=_outermost, default=None)
    key = binding.key if binding is not None else (name, -1)
    candidate = candidates.get(key) or Candidate(name, binding)
    evidence = CandidateEvidence(name, binding.offset if binding else None, candidate.calls,
                                 candidate.level_option_calls, candidate.default_declaration is not None, None)
    reason = (f"--logger {name}: the outermost binding of {name!r}"
              + ("" if binding else " (no declaration: the global name)"))
    return LoggerChoice(name, binding, "option", Detection(evidence, (reason,), ()))


def _outermost(row: BindingRow) -> tuple[int, int]:
    assert row.depth is not None, "the depths of the forced name's bindings are read"
    return row.depth, row.offset


def _describe(candidate: Candidate) -> CandidateEvidence:
    return CandidateEvidence(candidate.name, candidate.binding.offset if candidate.binding else None,
                             candidate.calls, candidate.level_option_calls, candidate.default_declaration is not None,
                             dict(sorted(candidate.levels.items())))


def _reasons(candidate: Candidate, rules: JavaScriptRules, source: bytes) -> list[str]:
    reasons = []
    if candidate.default_declaration is not None:
        start, end = candidate.default_declaration
        head = source[start:min(end, start + _DECL_PREVIEW)]
        reasons.append(
            f"its declaration `{head.decode('utf-8', 'replace')}` has a default "
            f"{{{rules.level_key}: \"{rules.default_level}\"}} options parameter"
        )
    reasons.append(
        f"{candidate.level_option_calls} of its {candidate.calls} calls pass a literal "
        f"{{{rules.level_key}: ...}} option"
    )
    return reasons


def level_literals(value: Node | None) -> list[str]:
    """The string literals an expression can yield through ?:, ||, && and ??."""
    if value is None:
        return []
    out: list[str] = []
    stack = [value]
    while stack:
        node = without_parentheses(stack.pop())
        if node.type == "string" or (node.type == "template_string" and not any(
            c.type == "template_substitution" for c in node.named_children
        )):
            out.append(text(node)[1:-1])
        elif node.type == "ternary_expression":
            stack.extend(
                c for c in (node.child_by_field_name("alternative"), node.child_by_field_name("consequence")) if c
            )
        elif node.type == "binary_expression":
            operator = node.child_by_field_name("operator")
            if operator is not None and operator.type in ("||", "&&", "??"):
                stack.extend(c for c in (node.child_by_field_name("right"), node.child_by_field_name("left")) if c)
    return sorted(set(out), key=out.index)
