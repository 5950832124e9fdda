"""The names a scan looks for, found textually in every unit of the input before any parse: the
names that may denote a class, the `import ... as` aliases, the names that can end as an error
callsite, and the functions and methods that raise or call one that does. Each set, and why a
superset is harmless where a miss is not: docs/performance.md, "The vocabulary"."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable

from analyzer.python.filefacts import Vocabulary
from analyzer.python.rules import PythonRules
from analyzer.python.tokens import SIGNIFICANT as _TOKENS

#: `class Name` and `import ...`: a word must end before them (`\\b`), checked by hand so that
#: the literal leads the pattern and the regex engine searches for it fast
_CLASS_NAME = re.compile(r"class[ \t\f]+([^\W\d]\w*)")
_IMPORT_LINE = re.compile(r"import[ \t\f]+([^\n#(]*)")
_IMPORT_PARENTHESES = re.compile(r"import[ \t\f]*\(([^)]*)\)")
_AS_NAME = re.compile(r"\bas[ \t\f\n]+([^\W\d]\w*)")
_ALIAS = re.compile(r"^[ \t]*([^\W\d]\w*)[ \t]*=[ \t]*[^\W\d][\w.]*[ \t]*(?:#.*)?$", re.MULTILINE)
#: an `=` that assigns (not `==`, `<=`, `+=`, `:=`, ...) and, after it, a dotted name alone in
#: its statement (parentheses, comments and line breaks around it, more `name =` before it):
#: the name before the `=` may be an alias
_EQUALS = re.compile(r"(?<![=!<>+\-*/%&|^@:])=(?!=)")
_GAP = r"(?:\s|\\\r?\n|\#[^\r\n]*)*+"  # possessive: no backtracking into the gaps
_DOTTED_VALUE = re.compile(
    rf"{_GAP}(?:[^\W\d]\w*+[ \t]*=(?!=){_GAP})*+(?:\({_GAP})*+[^\W\d]\w*+(?:{_GAP}\.{_GAP}[^\W\d]\w*+)*+"
    rf"(?:{_GAP}\))*+[ \t]*(?:\#[^\r\n]*)?(?:[\r\n;]|\Z)"
)
#: the name an assignment statement binds: at the start of its line, after `;` or after a
#: one-line header's `:`, or after other targets of a chain (not a keyword argument's name)
_NAME_BEFORE = re.compile(r"(?:\A|[\r\n;:])[ \t]*(?:[^\W\d]\w*[ \t]*=[ \t]*)*([^\W\d]\w*)[ \t]*\Z")
_COMMENT = re.compile(r"\#[^\r\n]*")
_LAST_NAME = re.compile(r"([^\W\d]\w*)[^\w]*\Z")
_ANNOTATED_BEFORE = re.compile(r"(?:\A|[\r\n])[ \t]*([^\W\d]\w*)[ \t]*:[^=\r\n]*\Z")
#: a class header longer than this is taken to name an exception (never seen; a superset)
_LONGEST_HEADER = 4000
#: a line opening a `def` (with its name) or a `class`
_HEADER = re.compile(r"^([ \t]*)(?:async[ \t]+)?(?:def[ \t]+([^\W\d]\w*)|class\b)", re.MULTILINE)
_RAISE = re.compile(r"\braise[ \t]+[^\s#;]")
_CALLED = re.compile(r"\b([^\W\d]\w*)\s*\(")


def input_vocabulary(rules: PythonRules, sources: Iterable[bytes]) -> Vocabulary:
    classes: set[str] = set()
    aliases: set[str] = set()
    headers: dict[str, set[str]] = defaultdict(set)  # class or alias -> the words that make it one
    raising: dict[str, set[str]] = {"function": set(), "method": set()}
    callers: list[tuple[str, str, set[str]]] = []  # the other defs: (kind, name, the names they call)
    for source in sources:
        text = source.decode("utf-8", "replace").replace("\\\n", " ").replace("\\\r\n", " ")
        if "def" in text:
            _raising(text, raising, callers)
        if "class" in text:
            for match in _matches(_CLASS_NAME, text):
                classes.add(match.group(1))
                headers[match.group(1)].update(_header_words(text, match.end()))
        if "import" in text:
            clauses = [m.group(1) for pattern in (_IMPORT_LINE, _IMPORT_PARENTHESES) for m in _matches(pattern, text)]
            for clause in clauses:
                aliases.update(_AS_NAME.findall(clause))
        classes.update(_ALIAS.findall(text))
        for name, value in _aliased(text):
            headers[name].add(value)
    seeds = rules.last_names | aliases | (classes - set(headers))
    reached = raising["function"] | raising["method"]
    calling: dict[str, set[str]] = {"function": set(), "method": set()}
    for kind, name, called in callers:
        if not called.isdisjoint(reached):
            calling[kind].add(name)
    return Vocabulary(rules, frozenset(classes | aliases), frozenset(aliases), _closure(seeds, headers),
                      frozenset(raising["function"]), frozenset(raising["method"]),
                      frozenset(calling["function"] - raising["function"]),
                      frozenset(calling["method"] - raising["method"]))


def _raising(text: str, raising: dict[str, set[str]], callers: list[tuple[str, str, set[str]]]) -> None:
    """`raising_functions` and `raising_methods` (docs/reference.md, "Handler records", Python: a
    call of one may lead to a source through a call, one or two hops away, so code calling one is
    parsed). A `def`'s text runs to the next `def` or `class` line indented as much or less (or
    the end); it is a function when no such line encloses it, a method when a `class` line does
    (a nested function is neither). Into `raising` by kind: those whose text holds the word
    `raise` (a superset: strings and comments count); into `callers`: the others, with the names
    their text calls."""
    open_defs: list[tuple[int, str | None, int, str]] = []  # (indent, name, start, kind)

    def close(name: str | None, start: int, end: int, kind: str) -> None:
        if name is None or kind == "nested":
            return
        if _RAISE.search(text, start, end):
            raising[kind].add(name)
        else:
            callers.append((kind, name, set(_CALLED.findall(text, start, end))))

    for match in _HEADER.finditer(text):
        indent = len(match.group(1))
        while open_defs and open_defs[-1][0] >= indent:
            _, name, start, kind = open_defs.pop()
            close(name, start, match.start(), kind)
        name = match.group(2)
        enclosing = open_defs[-1][3] if open_defs else None
        kind = "class" if name is None else (
            "function" if enclosing is None else "method" if enclosing == "class" else "nested")
        open_defs.append((indent, name, match.end(), kind))
    for _, name, start, kind in open_defs:
        close(name, start, len(text), kind)


def _matches(pattern: re.Pattern[str], text: str) -> list[re.Match[str]]:
    """What `re.findall(r"\\b" + pattern)` finds: matches not preceded by a word character."""
    found, position = [], 0
    while (match := pattern.search(text, position)) is not None:
        start = match.start()
        if start == 0 or not (text[start - 1].isalnum() or text[start - 1] == "_"):
            found.append(match)
            position = match.end() if match.end() > start else start + 1
        else:
            position = start + 1
    return found


def _aliased(text: str) -> set[tuple[str, str]]:
    """(name, the dotted value's last part) of each assignment that may make an alias: `name =
    dotted.name` (any layout, see `_DOTTED_VALUE`), `name: annotation = dotted.name`, each
    name of `a = b = dotted.name`."""
    found = set()
    for match in _EQUALS.finditer(text):
        value = _DOTTED_VALUE.match(text, match.end())
        if value is None:
            continue
        last = _LAST_NAME.search(_COMMENT.sub("", value.group()))
        window = max(0, match.start() - 200)
        for pattern in (_NAME_BEFORE, _ANNOTATED_BEFORE):
            before = pattern.search(text, window, match.start())
            if before is not None and last is not None:
                found.add((before.group(1), last.group(1)))
    return found


def _closure(seeds: frozenset[str], headers: dict[str, set[str]]) -> frozenset[str]:
    """`seeds` and every class whose header words meet the set, to a fixed point."""
    readers: dict[str, list[str]] = defaultdict(list)  # word -> classes whose header holds it
    for name, words in headers.items():
        for word in words:
            readers[word].append(name)
    found = set(seeds)
    pending = list(found)
    while pending:
        for name in readers.get(pending.pop(), ()):
            if name not in found:
                found.add(name)
                pending.append(name)
    return frozenset(found)


def _header_words(text: str, at: int) -> set[str]:
    """The names in the bases and keywords after `class Name` (strings and comments are not
    read), none when there are none; a header that does not close soon reads as naming an
    exception (`BaseException`)."""
    position = at
    while position < len(text) and text[position] in " \t\f":
        position += 1
    if position >= len(text) or text[position] != "(":
        return set()
    depth, words = 0, set[str]()
    for match in _TOKENS.finditer(text, position, position + _LONGEST_HEADER):
        kind = match.lastgroup
        value = match.group(kind) if kind is not None else ""
        if kind == "op":
            depth += value in "([{"
            depth -= value in ")]}"
            if depth == 0:
                return words
        elif kind == "name":
            words.add(value)
    return {"BaseException"}
