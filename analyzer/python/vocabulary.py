"""The names a scan looks for, found textually in every unit of the bundle before any parse.

- `class_names`: names that may denote a class of the bundle: `class Name`, `import ... as
  Name` and `Name = dotted.name` anywhere (also in strings and comments: a superset is
  harmless, a miss is not; backslash continuations are joined first). A call or `raise` whose
  last name is one of these, a builtin or an external exception is a candidate.
- `alias_names`: names bound by `import ... as` (they may denote a logger factory).
- `exception_names`: the candidates' last names that can end as an error callsite: the
  builtins and externals, names that may stand for another (`import ... as`, the `Name =
  dotted.name` lines, and class names that are also assigned somewhere), and, to a fixed
  point, every class whose header (`class Name(...)`) holds one of these words. A call of a
  class outside this set (`Text(...)`, `Path(...)`) is settled as no error callsite whatever
  its module says (`analyzer.python.hierarchy` roots error classes in exactly these), so code
  that holds no such call, no logging call and nothing else that matters need not be parsed
  (`analyzer.python.reduce`).
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable

from analyzer.python.extract import Vocabulary
from analyzer.rules import PythonRules

_CLASS_NAME = re.compile(r"\bclass[ \t\f]+([^\W\d]\w*)")
_IMPORT_LINE = re.compile(r"\bimport[ \t\f]+([^\n#(]*)")
_IMPORT_PARENTHESES = re.compile(r"\bimport[ \t\f]*\(([^)]*)\)")
_AS_NAME = re.compile(r"\bas[ \t\f\n]+([^\W\d]\w*)")
_ALIAS = re.compile(r"^[ \t]*([^\W\d]\w*)[ \t]*=[ \t]*[^\W\d][\w.]*[ \t]*(?:#.*)?$", re.MULTILINE)
#: `name =` or `name: annotation =` (not `==`): every name that may be assigned (kwargs too)
_ASSIGNED = re.compile(r"([^\W\d]\w*)[ \t]*(?::[^=\n]*)?=(?!=)")
_WORD = re.compile(r"[^\W\d]\w*")
#: a class header longer than this is taken to name an exception (never seen; a superset)
_LONGEST_HEADER = 4000


def bundle_vocabulary(rules: PythonRules, sources: Iterable[bytes]) -> Vocabulary:
    classes: set[str] = set()
    aliases: set[str] = set()
    assigned: set[str] = set()
    headers: dict[str, set[str]] = defaultdict(set)  # class name -> words of its headers
    for source in sources:
        text = source.decode("utf-8", "replace").replace("\\\n", " ").replace("\\\r\n", " ")
        if "class" in text:
            for match in _CLASS_NAME.finditer(text):
                classes.add(match.group(1))
                headers[match.group(1)].update(_header_words(text, match.end()))
        if "import" in text:
            for clause in (*_IMPORT_LINE.findall(text), *_IMPORT_PARENTHESES.findall(text)):
                aliases.update(_AS_NAME.findall(clause))
        classes.update(_ALIAS.findall(text))
        assigned.update(_ASSIGNED.findall(text))
    known = frozenset(rules.builtins) | frozenset(n.rsplit(".", 1)[-1] for n in rules.external)
    seeds = known | aliases | (classes & assigned) | (classes - set(headers))
    return Vocabulary(rules, frozenset(classes | aliases), frozenset(aliases), _closure(seeds, headers))


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
    """The words of the bases and keywords after `class Name` (strings and comments skipped),
    none when there are none; a header that does not close soon reads as naming an exception
    (`BaseException`)."""
    position = at
    while position < len(text) and text[position] in " \t\f":
        position += 1
    if position >= len(text) or text[position] != "(":
        return set()
    depth, start = 0, position
    words: set[str] = set()
    while position < len(text) and position - start < _LONGEST_HEADER:
        char = text[position]
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
            if depth == 0:
                return words | set(_WORD.findall(_code_only(text[start:position])))
        elif char in "\"'":
            position = _string_end(text, position)
            continue
        elif char == "#":
            end = text.find("\n", position)
            position = len(text) if end < 0 else end
            continue
        position += 1
    return {"BaseException"}


def _code_only(header: str) -> str:
    """The header without its strings and comments (their words name no base)."""
    out, position = [], 0
    while position < len(header):
        char = header[position]
        if char in "\"'":
            position = _string_end(header, position)
            out.append(" ")
        elif char == "#":
            end = header.find("\n", position)
            position = len(header) if end < 0 else end
        else:
            out.append(char)
            position += 1
    return "".join(out)


def _string_end(text: str, at: int) -> int:
    quote = text[at] * 3 if text.startswith(text[at] * 3, at) else text[at]
    position = at + len(quote)
    while position < len(text):
        if text[position] == "\\":
            position += 2
        elif text.startswith(quote, position):
            return position + len(quote)
        elif len(quote) == 1 and text[position] == "\n":
            return position
        else:
            position += 1
    return len(text)
