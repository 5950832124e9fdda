"""One JavaScript unit -> plain facts about its callsites and error classes (no tree nodes
survive this stage, so the tree's memory is freed when it returns)."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from tree_sitter import Node, Tree

from analyzer.identity import IdentityInput, Normalizer, anchor_of, innermost_function
from analyzer.javascript import logger as logger_detection
from analyzer.javascript.classes import ClassFacts, error_classes, heritage_names
from analyzer.javascript.consumers import consumer_of
from analyzer.javascript.messages import message_of
from analyzer.javascript.modules import ModuleMap, find_modules
from analyzer.javascript.resolve import Resolution
from analyzer.javascript.scopes import context_of, scope_of
from analyzer.javascript.syntax import ancestors, parse, text, without_parentheses
from analyzer.model import Consumer, Context, Message, Scope, Unit
from analyzer.rules import JavaScriptRules


@dataclass(frozen=True, slots=True)
class SiteFacts:
    """Everything about one callsite except its fingerprints."""

    kind: str
    offset: int
    end_offset: int
    line: int
    column: int
    constructor: str | None
    form: str
    callee: str
    callee_role: str
    arg_count: int
    message: Message
    level: str | None
    level_source: str | None
    level_candidates: tuple[str, ...] | None
    scope: Scope
    consumer: Consumer
    context: Context
    identity: IdentityInput
    #: digest and offset of the innermost enclosing function, None at module level
    function_digest: bytes | None
    function_offset: int | None


@dataclass(frozen=True, slots=True)
class ErrorRegion:
    offset: int
    end_offset: int
    line: int
    kind: str  # ERROR or MISSING


@dataclass(frozen=True, slots=True)
class UnitFacts:
    unit: Unit
    sites: list[SiteFacts]
    classes: list[ClassFacts]
    logger: dict[str, object]
    #: call/new sites of a tracked name whose callee resolves to a local binding
    shadowed: dict[str, int]
    error_regions: list[ErrorRegion]
    #: bundler modules found by shape (esbuild/Bun wrappers, webpack, browserify)
    modules: ModuleMap | None = None


#: Syntax trees of a command that ends soon after its scan. Freeing a 13 MB bundle's tree node by
#: node takes a quarter of a second that process exit does not; the CLI exits with `os._exit`
#: once its outputs are on disk. Library callers may clear this list.
RETAINED_TREES: list[Tree] = []


def extract_unit(unit: Unit, rules: JavaScriptRules, forced_logger: str | None) -> UnitFacts:
    tree = parse(unit.source)
    RETAINED_TREES.append(tree)  # freed by process exit, not node by node (see the list's comment)
    source = unit.source
    options = logger_detection.level_options(tree, source, rules)
    declarations = logger_detection.default_level_declarations(tree, source, rules)
    heritages = heritage_names(tree, source)
    names = set(rules.constructors) | set(rules.class_roots)
    names |= logger_detection.candidate_names(options, declarations, rules)
    forced = forced_logger or rules.logger_name
    if forced:
        names.add(forced)
    resolution = Resolution(tree, source, names)
    choice = logger_detection.detect(resolution, options, declarations, source, rules, forced)
    normalizer = Normalizer(source)
    sites: list[tuple[Node, str]] = []
    shadowed: Counter[str] = Counter()
    logger_key = choice.binding.key if choice.binding is not None else None
    constructors = set(rules.constructors)
    for reference, call in resolution.calls():
        is_logger = (
            choice.name is not None
            and reference.name == choice.name
            and call.type == "call_expression"
            and (reference.binding.key if reference.binding else None) == logger_key
        )
        if is_logger:
            sites.append((call, "diagnostic"))
        elif reference.name == choice.name and call.type == "call_expression":
            shadowed[reference.name] += 1
        if reference.name in constructors:
            if reference.binding is None:
                sites.append((call, "error"))
            else:
                shadowed[reference.name] += 1
    for name, node in resolution.recovered:
        if name in constructors:
            sites.append((node, "error"))
        elif name == choice.name:
            sites.append((node, "diagnostic"))
    sites.sort(key=lambda pair: (pair[0].start_byte, pair[1]))
    columns = _columns(source, [node.start_byte for node, _ in sites])
    facts = [
        _site(unit, node, kind, rules, normalizer, columns[node.start_byte])
        for node, kind in sites
    ]
    classes = error_classes(unit, tree, resolution, heritages, rules, normalizer)
    logger = _logger_summary(unit, choice, source)
    return UnitFacts(
        unit=unit,
        sites=facts,
        classes=classes,
        logger=logger,
        shadowed=dict(sorted(shadowed.items())),
        error_regions=error_regions(tree),
        modules=find_modules(tree, source),
    )


def _site(
    unit: Unit, node: Node, kind: str, rules: JavaScriptRules, normalizer: Normalizer, position: tuple[int, int]
) -> SiteFacts:
    chain = list(ancestors(node))
    if node.type in ("call_expression", "new_expression"):
        is_new = node.type == "new_expression"
        callee_node = node.child_by_field_name("constructor" if is_new else "function")
        arguments = _arguments(node)
        consumer = consumer_of(node)
    else:  # a name followed by `(` in a region the parser recovered from
        is_new = _NEW_BEFORE.search(unit.source, max(0, node.start_byte - 8), node.start_byte) is not None
        callee_node, arguments = node, _recovered_arguments(node)
        consumer = Consumer(node="ERROR", relation="recovered", role="other")
    callee = text(callee_node) if callee_node is not None else ""
    if kind == "error":
        message = message_of(arguments[0] if arguments else None)
        level = level_source = None
        candidates: tuple[str, ...] | None = None
        role = "error-constructor"
    else:
        slot = rules.message_argument
        message = message_of(arguments[slot] if len(arguments) > slot else None)
        options = arguments[rules.options_argument] if len(arguments) > rules.options_argument else None
        level, level_source, candidates = level_of(options, rules)
        role = "logger"
    anchor = anchor_of(node, chain)
    function = innermost_function(chain)
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
        scope=scope_of(unit.name, chain),
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
        function_digest=normalizer.digest(function) if function is not None else None,
        function_offset=function.start_byte if function is not None else None,
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


def _logger_summary(unit: Unit, choice: logger_detection.LoggerChoice, source: bytes) -> dict[str, object]:
    declaration = choice.binding.declaration if choice.binding is not None else None
    where = None
    if declaration is not None:
        line = source.count(b"\n", 0, declaration.start_byte) + 1
        where = {"offset": declaration.start_byte, "line": line, "kind": choice.binding.kind}  # type: ignore[union-attr]
    return {
        "unit": unit.name,
        "name": choice.name,
        "source": choice.source,
        "declaration": where,
        "evidence": choice.evidence,
    }

