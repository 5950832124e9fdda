"""The byte patterns that say where a bundler's module machinery is, and where to look for them.

A regex over the bytes finds the few places to look at; the tree is only read there. Each
pattern hangs on a literal (`exports`, `0)`, `[function` ...) found once per unit with
`bytes.find`, far faster than a regex scan of a 27 MB unit.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

ID = rb"[\w$\x80-\xff]+"
_CJS_CORE = re.compile(
    rb"\(\s*(" + ID + rb")\s*=\s*\{\s*exports\s*:\s*\{\s*\}\s*\}\s*\)\s*\.\s*exports\s*,\s*\1\s*\)"
    rb"\s*,\s*\1\s*\.\s*exports"
)
#: webpack 5's CommonJS wrapper in concatenated modules: `m = {exports: {}}, fn.call(m.exports, m, m.exports)`
_CJS_CALL_CORE = re.compile(
    rb"(" + ID + rb")\s*=\s*\{\s*exports\s*:\s*\{\s*\}\s*\}\s*,\s*" + ID + rb"\s*\.\s*call\s*\(\s*\1\s*\.\s*exports"
    rb"\s*,\s*\1\s*,\s*\1\s*\.\s*exports\s*\)"
)
_ESM_CORE = re.compile(
    rb"(?<![\w$])" + ID + rb"\s*=\s*(?:\(\s*0\s*,\s*(" + ID + rb")\s*\[[^\]\n]{0,80}\]\s*\)|(" + ID + rb"))"
    rb"\s*\(\s*(?:\1|\2)\s*=\s*0\s*\)"
)
_EXPORT_CORE = re.compile(
    rb"for\s*\(\s*var\s+(" + ID + rb")\s+in\s+(" + ID + rb")\s*\)\s*[\w$.\x80-\xff]+\s*\(\s*" + ID
    + rb"\s*,\s*\1\s*,\s*\{\s*get\s*:\s*\2\s*\[\s*\1\s*\]"
)
_WEBPACK_CORE = re.compile(
    rb"(?<![\w$.])(" + ID + rb")\s*\[\s*(" + ID + rb")\s*\]\s*(?:\.\s*call\s*\(\s*(" + ID
    + rb")\s*\.\s*exports\s*,\s*\3|\(\s*(" + ID + rb"))\s*,\s*(?:\3|\4)\s*\.\s*exports\s*,\s*" + ID + rb"\s*\)"
)
_WEBPACK_CHUNK = re.compile(rb"\.\s*push\s*\(\s*\[\s*\[[^\]]{0,4000}\]\s*,\s*(?=[\{\[])")
_BROWSERIFY_TABLE = re.compile(rb"\(\s*\{\s*(?:\d+|\"[^\"\n]{1,400}\")\s*:\s*\[\s*function\s*\(")
#: (pattern, a literal near every match, bytes searched before and after the literal, and
#: a quick check that must match just before the literal, else None)
_SEARCHES: dict[str, tuple[re.Pattern[bytes], bytes, int, int, re.Pattern[bytes] | None]] = {
    "commonjs": (_CJS_CORE, b"exports", 40, 120, None),
    "commonjs-call": (_CJS_CALL_CORE, b"exports", 40, 120, None),
    "esm": (_ESM_CORE, b"0)", 160, 2, re.compile(rb"[\w$]\s*=\s*\Z")),
    "export": (_EXPORT_CORE, b"enumerable", 160, 0, None),
    "webpack": (_WEBPACK_CORE, b"exports", 120, 80, None),
    "webpack-chunk": (_WEBPACK_CHUNK, b"webpack", 0, 4200, None),
    "browserify": (_BROWSERIFY_TABLE, b"[function", 420, 20, None),
}
FUNCTIONS = frozenset({"arrow_function", "function_expression", "function"})
DECLARATIONS = frozenset({"variable_declaration", "lexical_declaration"})


class Literals:
    """Offsets of the few literals the core patterns hang on, each found once per unit (a
    `bytes.find` is far faster than a regex scan of a 27 MB unit)."""

    def __init__(self, source: bytes) -> None:
        self.source = source
        self._found: dict[bytes, list[int]] = {}

    def matches(self, search: str) -> Iterator[re.Match[bytes]]:
        """Matches of one core pattern, looked for only around its literal."""
        pattern, literal, before, after, check = _SEARCHES[search]
        source = self.source
        seen: set[tuple[int, int]] = set()
        for at in self._offsets(literal):
            if check is not None and check.search(source, max(0, at - 8), at) is None:
                continue
            window_end = at + len(literal) + after
            match = pattern.search(source, max(0, at - before), window_end)
            while match is not None:
                if match.span() not in seen:
                    seen.add(match.span())
                    yield match
                match = pattern.search(source, match.start() + 1, window_end)

    def _offsets(self, literal: bytes) -> list[int]:
        found = self._found.get(literal)
        if found is None:
            found = self._found[literal] = []
            at = self.source.find(literal)
            while at >= 0:
                found.append(at)
                at = self.source.find(literal, at + 1)
        return found
