"""One Python unit -> plain, picklable facts (a worker's job; no tree node leaves it).

parse (libcst) -> collect candidates (one walk) -> if any: scopes and spans -> resolve each
candidate's callee -> SiteFacts. What one file cannot decide (is this imported class an
exception? is this imported name a logger?) travels as `pending` and is settled by
`analyzer.python.hierarchy` once every module's classes and loggers are known.
"""

from __future__ import annotations

import dataclasses
import io
import re
import symtable
import tokenize
import warnings
from collections import Counter

import libcst as cst

from analyzer.facts import ErrorRegion, FlowFacts
from analyzer.python import tokens
from analyzer.python.calls import call_records, function_records, raised_in
from analyzer.python.collect import Collector
from analyzer.python.filefacts import FileFacts, FileTask, PendingSite, Vocabulary
from analyzer.python.flow import Followed, follow
from analyzer.python.handlers import HandlerReader
from analyzer.python.metadata import scopes_of
from analyzer.python.nesting import TooDeep, too_deep
from analyzer.python.reduce import Hits, Reduction, reduce
from analyzer.python.resolve import ModuleNames, Names, NeedScopes, ScopeNames
from analyzer.python.sites import SiteBuilder
from analyzer.python.spans import walk


def extract_file(task: FileTask, vocabulary: Vocabulary) -> FileFacts:
    unit = task.unit
    stream = _tokens(unit.source)  # the unit's one tokenization: nesting, module, class, function, anchor digests
    lines = tokens.logical_lines(stream) if stream is not None else []
    deep = too_deep(stream, lines) if stream is not None else None
    if stream is not None and deep is not None:
        return _too_deep(task, stream, deep)
    reduction = _reduction(stream, lines, vocabulary, unit.name) if stream is not None else None
    if reduction is not None:
        facts = _reduced(task, reduction, vocabulary)
        if facts is not None:
            return facts
    try:
        module = cst.parse_module(unit.source)
    except cst.ParserSyntaxError as exc:
        return _unparsed(task, exc.raw_line, exc.raw_column, exc.message)
    except (UnicodeDecodeError, LookupError, SyntaxError, RecursionError, ValueError) as exc:
        return _unparsed(task, 1, 0, f"{type(exc).__name__}: {exc}")
    if stream is None or stream.encoding != module.encoding:
        stream = tokens.Tokens(unit.source.decode(module.encoding), module.encoding)
    try:
        return _extract(task, module, stream, vocabulary, None)
    except RecursionError:  # libcst's visitors recurse: a pathologically deep expression
        return _unparsed(task, 1, 0, "too deeply nested for the libcst visitors")


def _reduction(stream: tokens.Tokens, lines: list[tokens.Line], vocabulary: Vocabulary, name: str) -> Reduction | None:
    """What need not be parsed (`analyzer.python.reduce`), for a unit CPython's parser accepts
    (`symtable` parses it and checks its scopes, as `compile` does before generating code; so
    the replaced code hides no syntax error); None to parse the whole unit."""
    found = reduce(stream, lines, Hits(vocabulary.hits, vocabulary.raising_functions, vocabulary.raising_methods,
                                       vocabulary.calling_functions, vocabulary.calling_methods))
    if found is None:
        return None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            symtable.symtable(stream.text, name, "exec")  # CPython's parser, without its code generation
    except Exception:  # any refusal: the parser reads the whole unit and says why
        return None
    return found


class _NotReduced(Exception):
    """The replaced code did not come out of the parse where it was: parse the whole unit."""


def _reduced(task: FileTask, reduction: Reduction, vocabulary: Vocabulary) -> FileFacts | None:
    """The facts from the unit with `reduction` applied, or None to parse it whole."""
    try:
        module = cst.parse_module(reduction.text())
        return _extract(task, module, reduction.stream, vocabulary, reduction)
    except (cst.ParserSyntaxError, RecursionError, _NotReduced, ValueError, SyntaxError):
        return None


def _tokens(source: bytes) -> tokens.Tokens | None:
    """The unit decoded as libcst decodes it (its PEP 263 encoding) and tokenized; None when
    it cannot be decoded (the parser then says why)."""
    try:
        encoding = tokenize.detect_encoding(io.BytesIO(source).readline)[0]
        return tokens.Tokens(source.decode(encoding), encoding)
    except (UnicodeDecodeError, LookupError, SyntaxError):
        return None


def _in_place(reduction: Reduction, strings: list[cst.SimpleString], spans: dict[int, tuple[int, int]]) -> bool:
    """Every replaced range came out of the parse as one string literal, exactly where it was."""
    found = {spans[id(node)] for node in strings}
    return all(region in found for region in reduction.regions)


def _too_deep(task: FileTask, stream: tokens.Tokens, deep: TooDeep) -> FileFacts:
    """Not parsed: nested deeper than a limit (`analyzer.python.nesting`), counted like a unit
    that does not parse, from where the limit is passed."""
    text = stream.text
    line_start = max(text.rfind("\n", 0, deep.offset), -1) + 1
    column = len(text[line_start:deep.offset].encode(stream.encoding, "surrogateescape"))
    line = text.count("\n", 0, deep.offset) + 1
    return _unparsed(task, line, column, f"not parsed: {deep.message} (ERRATLAS_PYTHON_MAX_NESTING)")


def _extract(task: FileTask, module: cst.Module, stream: tokens.Tokens, vocabulary: Vocabulary,
             reduction: Reduction | None) -> FileFacts:
    unit = task.unit
    text = stream.text
    module_digest = tokens.digest("Module", stream.normalized(0, len(text)))
    collector = _collector(vocabulary)
    collector.strings = [] if reduction is not None else None
    spans = walk(module, collector)
    if reduction is not None and not _in_place(reduction, collector.strings or [], spans):
        raise _NotReduced(unit.name)
    found = collector.found
    names = Names(task.module, task.package)
    aliases = {f"{task.module}.{bound}": names.absolute_import(target) for bound, target in found.imports.items()}
    stars = [names.absolute_import(source) for source in found.star_imports]
    facts = FileFacts(unit.name, task.module, [], [], aliases, stars, [], [], {}, [], None, module_digest,
                      guarded=sorted(f"{task.module}.{n}" for n in found.guarded if n in vocabulary.rules.builtins))
    if not (found.candidates or found.classes or found.loggers or found.assignments or found.handlers
            or found.calls):
        return facts  # nothing to resolve
    try:
        return _resolved(facts, SiteBuilder(task, stream, stream.encoding, vocabulary, spans,
                                            ModuleNames(found, names)), collector)
    except NeedScopes:  # a type parameter: libcst's scope analysis reads the file
        pass
    scopes = ScopeNames(scopes_of(module), names, bool(found.star_imports))
    return _resolved(facts, SiteBuilder(task, stream, stream.encoding, vocabulary, spans, scopes), collector)


def _resolved(facts: FileFacts, site: SiteBuilder, collector: Collector) -> FileFacts:
    found = collector.found
    aliases = dict(facts.aliases)
    for bound, value, where in found.assignments:
        qualified = site.qualified(value, where)
        if qualified:
            aliases[f"{facts.module}.{bound}"] = qualified[0]
    loggers, attribute_loggers, logger_targets = site.loggers(found.loggers)
    shadowed: Counter[str] = Counter()
    built = [site.build(candidate, logger_targets, shadowed) for candidate in found.candidates]
    known = {id(c.node): (s.facts.kind, s.facts.offset) for c, s in zip(found.candidates, built) if s is not None}
    built = [
        _followed(s, follow(c.node, c.path, c.frames, known), site, c.path, bool(found.handlers))
        if s is not None and s.facts.kind == "error" else s
        for c, s in zip(found.candidates, built)
    ]
    handlers = []
    if found.handlers:
        reader = HandlerReader(site, known, frozenset(found.guarded) & site.builtins)
        handlers = [reader.read(candidate) for candidate in found.handlers]
    sites = sorted((s for s in built if s is not None), key=lambda s: (s.facts.offset, s.facts.kind))
    return dataclasses.replace(
        facts,
        sites=sites,
        classes=[site.class_record(c, collector) for c in found.classes],
        aliases=aliases,
        loggers=sorted(loggers),
        attribute_loggers=sorted(attribute_loggers),
        shadowed=dict(sorted(shadowed.items())),
        handlers=handlers,
        functions=function_records(site, found) if found.calls or any(s.facts.kind == "error" for s in sites) else [],
        calls=call_records(site, found.calls),
    )


def _followed(pending: PendingSite, followed: Followed, site: SiteBuilder, path: tuple[cst.CSTNode, ...],
              handlers: bool) -> PendingSite:
    """An error callsite with its flow as far as its file tells (`analyzer.python.catching`
    settles the handler, `escapes` and `logged`) and the handlers of the `try` blocks raising it."""
    flow = FlowFacts(followed.fate, None, None, followed.fields)
    return dataclasses.replace(pending, facts=dataclasses.replace(pending.facts, flow=flow),
                               tries=raised_in(site, path, followed.raised_at) if handlers else (),
                               logged_by=followed.logged_by)


def _collector(vocabulary: Vocabulary) -> Collector:
    rules = vocabulary.rules
    called = frozenset(rules.logging_methods) | {rules.level_method}
    called |= frozenset(name.rsplit(".", 1)[-1] for name in rules.warning_functions)
    factories = frozenset(name.rsplit(".", 1)[-1] for name in rules.logger_factories) | vocabulary.alias_names
    return Collector(
        error_names=vocabulary.error_names, call_names=called, method_names=called, factory_names=factories,
        raising_names=vocabulary.raising_names,
    )


def _unparsed(task: FileTask, line: int, column: int, message: str) -> FileFacts:
    """No callsites from a unit that does not parse: one error region from the error to the end."""
    source = task.unit.source
    line = max(line, 1)
    starts = [0] + [m.end() for m in re.finditer(b"\n", source)]
    offset = min(starts[min(line, len(starts)) - 1] + max(column, 0), len(source))
    region = ErrorRegion(offset=offset, end_offset=len(source), line=max(line, 1), kind="ERROR")
    first_line = message.strip().splitlines()[0] if message.strip() else "syntax error"
    module_digest = tokens.digest("Module", tokens.normalized_code(source.decode("utf-8", "replace")))
    return FileFacts(task.unit.name, task.module, [], [], {}, [], [], [], {}, [region], first_line, module_digest)
