"""A named constant's value (docs/reference.md, "A named constant"): what `X.P` or `X.P.Q` in a
test (`e.code === yc.MethodNotFound`) holds, when the top-level name `X` is given its members once,
by an object literal of literals or tables, a namespace's getters or a TypeScript enum, and every
other occurrence of it is a read of a member; and what a name alone (`e.code === NOT_FOUND`) holds,
given a literal once and never written again. Read after the merge from the unit's items and
bytes, as what a helper tests is: a unit read whole and one read in slices read the same."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import NamedTuple

from analyzer.facts import HandlerFacts
from analyzer.handler_model import BranchTest
from analyzer.javascript.handlers.constants import NAME
from analyzer.javascript.handlers.sources import top_level_at
from analyzer.javascript.references import UnitReferences, name_text

Value = str | int | float
_Nested = dict[bytes, Value | None]


class _Getter(NamedTuple):
    """A namespace's member: what the top-level name `name` holds when it is read."""

    name: bytes


_Members = dict[bytes, Value | _Nested | _Getter | None]  # None: given twice, or a table read whole

_ID = rb"[A-Za-z_$][\w$]*"
_STRING = rb"\"[^\"\\\n]*\"|'[^'\\\n]*'"
_NUMBER = rb"-?(?:0|[1-9]\d*)(?:\.\d+)?"
_LITERAL = _STRING + rb"|" + _NUMBER
_KEY = rb"(?:" + _ID + rb"|" + _STRING + rb")"
#: an object of literals, each key a name or a plain string: `{A: "a", "B": 1}`
_TABLE = rb"\{(?:\s*" + _KEY + rb"\s*:\s*(?:" + _LITERAL + rb")\s*,)*(?:\s*" + _KEY + rb"\s*:\s*(?:" + _LITERAL \
    + rb"))?\s*,?\s*\}"
_VALUE = rb"(?:" + _LITERAL + rb"|" + _TABLE + rb")"
#: `X = {A: "a", B: {code: "b", desc: "..."}}`, or frozen: an object of literals or of such tables
_OBJECT = re.compile(rb"\s*(?:Object\s*\.\s*freeze\s*\(\s*)?\{((?:\s*" + _KEY + rb"\s*:\s*" + _VALUE
                     + rb"\s*,)*(?:\s*" + _KEY + rb"\s*:\s*" + _VALUE + rb")?\s*,?\s*)\}")
_KEY_VALUE = re.compile(rb"\s*(" + _KEY + rb")\s*:\s*(" + _VALUE + rb")\s*,?")
_KEY_LITERAL = re.compile(rb"\s*(" + _KEY + rb")\s*:\s*(" + _LITERAL + rb")\s*,?")
#: `X = function (e) { return e.A = "a", e[e.B = 1] = "B", e }({})`: an enum made by a function
_ENUM_CALL = re.compile(rb"\s*function\s*\(\s*(" + _ID + rb")\s*\)\s*\{\s*return\s+([^{}]*?)\s*,\s*\1\s*\}"
                        rb"\s*\(\s*\{\s*\}\s*\)")
#: `(function (e) { ... })(X || (X = {}))` and `((e) => { ... })(X ||= {})`: after the name
_ENUM_ARGUMENT = re.compile(rb"\s*(?:\|\|\s*\(\s*(" + _ID + rb")\s*=\s*\{\s*\}\s*\)|\|\|=\s*\{\s*\})\s*\)")
#: before the function's body: `function (e) {` or `(e) => {`, `e => {`
_ENUM_HEAD = re.compile(rb"(?:function\s*\(\s*(" + _ID + rb")\s*\)|\(\s*(" + _ID + rb")\s*\)\s*=>|(" + _ID
                        + rb")\s*=>)\s*\{\s*$")
#: after a member read: a write of it (`=`, `+=`, `++`, ...) or a call (`X.f(...)`, which may change X)
_ASSIGNMENT = rb"(?:\*\*|<<|>>>?|&&|\|\||\?\?|[-+*/%&|^])?=(?![=>])|\+\+|--"
#: after a name: a write of it (`=`, `+=`, `++`, ...)
WRITE = re.compile(rb"\s*(?:" + _ASSIGNMENT + rb")")
_WRITTEN = re.compile(rb"\s*(?:" + _ASSIGNMENT + rb"|\(|`)")
#: a read of a member, and of one of its own: `X.P`, `X?.P.Q`
_READ = re.compile(rb"\s*\??\.\s*(" + _ID + rb")(?:\s*\??\.\s*(" + _ID + rb"))?")
_ASSIGNED = re.compile(rb"\s*=(?![=>])")
#: a read of the whole: `Object.values(X)`, which lists its members and changes none
_LISTED = re.compile(rb"Object\s*\.\s*(?:values|keys|entries)\s*\(\s*$")
_CLOSED = re.compile(rb"\s*\)")
#: a namespace object declared empty, given its members by an export helper: `var X = {};`
_EMPTY = re.compile(rb"\s*=\s*\{\s*\}\s*(?:[,;]|$)")
#: what an export helper is given after the namespace: getters of top-level names, `{A: () => a}`
_GETTER = rb"\s*" + _KEY + rb"\s*:\s*\(\s*\)\s*=>\s*" + _ID + rb"\s*"
_GETTERS = re.compile(rb"\s*,\s*\{((?:" + _GETTER + rb",)*(?:" + _GETTER + rb")?,?\s*)\}\s*\)")
_KEY_GETTER = re.compile(rb"\s*(" + _KEY + rb")\s*:\s*\(\s*\)\s*=>\s*(" + _ID + rb")\s*,?")
_NAMESPACE = re.compile(rb"\s*(" + _ID + rb")")
#: how far before a namespace's getter its export call may start
_EXPORT_BYTES = 256 << 10
#: an item that declares constants: `const a = 1, b = 2`
_CONST = re.compile(rb"const(?![\w$])")
#: what may follow a name that is only read: a closing parenthesis or statement end, `?:`, a member,
#: an operator (`=` only as `==`, `===`), but not `,`, `]` or `}`, which a pattern that writes it may hold
_PLAIN_READ = re.compile(rb"\s*(?:[);?:.&|<>+\-*/%^]|[=!]==?|$)")
#: what may come right before a name that is only read, whatever follows it (`f(X, 1)`, `() => X,`
#: `a = X,`), unlike `[`, `{`, `,`, `:` or `...`, which a pattern that writes it may hold
_READ_AFTER = frozenset(bytes([b]) for b in b"(=?&|!+-*/%<>^~")
#: after a name that may be written whatever comes before it: `(X) = 1`, `for (X of a)`, `for (X in o)`
_TARGET = re.compile(rb"\s*\)\s*=(?![=>])|\s+(?:of|in)(?![\w$])")
#: after a name declared without a value: `var X,`, `let X;`
_BARE = re.compile(rb"\s*(?:[,;]|$)")
#: a literal a name is given, ending its expression
_GIVEN = re.compile(rb"\s*=\s*(" + _LITERAL + rb")\s*(?:[,;)}\n]|$)")
#: how far before its argument an enum's function may start
_ENUM_BYTES = 64 << 10


Row = tuple[int, int, object, tuple[tuple[int, bytes], ...]]


def with_constants(handlers: list[HandlerFacts], source: bytes, raw: Sequence[Row],
                   references: UnitReferences, helpers: dict[str, str]) -> list[HandlerFacts]:
    """The handlers, each test against a named constant `X.P` given the literal it holds. `helpers`:
    the unit's module helpers by name and role (`ModuleMap.helpers`), whose `export` ones give a
    namespace object its getters (esbuild's and Bun's `__export`)."""
    wanted = {t.compared.partition(".")[0].encode() for h in handlers for b in h.branches if b.test is not None
              for t in (b.test, *b.test.also) if t.compared is not None and t.compared.count(".") <= 2}
    if not wanted:
        return handlers
    exporters = tuple(name.encode() for name, role in sorted(helpers.items()) if role == "export")
    constants = _Constants(source, raw, references, wanted, exporters)
    out = []
    for handler in handlers:
        branches, changed = list(handler.branches), False
        for at, branch in enumerate(branches):
            test = branch.test
            if test is None or not any(t.compared is not None for t in (test, *test.also)):
                continue
            resolved = replace(constants.resolved(test, handler.offset),
                               also=tuple(constants.resolved(t, handler.offset) for t in test.also))
            if resolved != test:
                branches[at], changed = replace(branch, test=resolved), True
        out.append(replace(handler, branches=tuple(branches)) if changed else handler)
    return out


class _Constants:
    """The members of the unit's named constants, each name read once."""

    def __init__(self, source: bytes, raw: Sequence[Row], references: UnitReferences, wanted: set[bytes],
                 exporters: tuple[bytes, ...]) -> None:
        self.source, self.raw, self.shadowed, self.references = source, raw, references.shadowed, references
        self.exporters = exporters
        self.starts = [item[0] for item in raw]
        self.declared: dict[bytes, list[tuple[int, int]]] = {name: [] for name in wanted}
        for position, item in enumerate(raw):
            for offset, name in item[3]:
                if name in self.declared:
                    self.declared[name].append((position, offset))
        self.readers = readers_of(references, wanted)
        self.items = len(references.items)
        self._members: dict[bytes, _Members | None] = {}
        self._values: dict[bytes, Value | None] = {}
        #: by name, the members read themselves (`f(X.P)`), not one of theirs
        self._whole: dict[bytes, set[bytes]] = {}
        self._all_declared: dict[bytes, list[tuple[int, int]]] | None = None
        #: the names the namespaces read so far give by their getters, whose readers are not known yet
        self._pending: set[bytes] = set()
        #: the work left for hostile input: passes over the items for names met through getters, and
        #: bytes read after names for the brackets around them; past it, what is left is unknown
        self._passes, self._pattern_bytes = _MOST_PASSES, _MOST_PATTERN_BYTES
        #: bytes of items searched for names (a name's declaring and reading items, once a name)
        self._searched = _MOST_SEARCHED_BYTES
        self._depth = 0

    def _search(self, positions: list[int]) -> bool:
        """Whether the items at `positions` may be searched for a name within the unit's budget
        (spent by their sizes); past it every name left is unknown."""
        size = sum(self.raw[at][1] - self.raw[at][0] for at in positions)
        if size > self._searched:
            self._searched = 0
            return False
        self._searched -= size
        return True

    def _in_pattern(self, at: int, end: int) -> bool | None:
        """`_in_pattern` within the unit's budget of bytes read so (None once it is spent)."""
        if self._pattern_bytes <= 0:
            return None
        self._pattern_bytes -= min(end - at, _PATTERN_BYTES)
        return _in_pattern(self.source, at, end)

    def _known(self, name: bytes) -> None:
        """The declarations and readers of a name met only through a namespace's getter (with those
        of every getter's name met so far: one pass over the items for them all)."""
        if name in self.declared:
            return
        if self._passes <= 0:
            self.declared[name] = []  # declared nowhere as far as the budget goes: unknown
            return
        self._passes -= 1
        if self._all_declared is None:
            self._all_declared = {}
            for position, item in enumerate(self.raw):
                for offset, declared in item[3]:
                    self._all_declared.setdefault(declared, []).append((position, offset))
        batch = {name, *(pending for pending in self._pending if pending not in self.declared)}
        self._pending.clear()
        for known in batch:
            self.declared[known] = self._all_declared.get(known, [])
        self.readers.update(readers_of(self.references, batch))

    def members_of(self, name: bytes) -> _Members | None:
        if name not in self._members:
            self._members[name] = None  # while it is read: a namespace that holds itself is unknown
            if self._depth < _MOST_DEPTH:  # namespaces re-exported by namespaces, a few deep
                self._depth += 1
                self._known(name)
                self._members[name] = self._read(name)
                self._depth -= 1
        return self._members[name]

    def value_of(self, name: bytes) -> Value | None:
        if name not in self._values:
            self._known(name)
            self._values[name] = self._value(name)
        return self._values[name]

    def resolved(self, test: BranchTest, at: int) -> BranchTest:
        if test.compared is None or test.compared.count(".") > 2:
            return test
        name, *path = (part.encode() for part in test.compared.split("."))
        if not top_level_at(self.starts, self.raw, self.shadowed, name, at):
            return test  # `X` may be a local here
        value: Value | _Members | _Nested | _Getter | None = self.members_of(name) if path else self.value_of(name)
        holder = name
        for step, member in enumerate(path, 1):
            value = value.get(member) if isinstance(value, dict) else None
            if not isinstance(value, _Getter):
                continue
            if step == len(path):
                value = self.value_of(value.name)
            elif member in self._whole.get(holder, ()):
                value = None  # a namespace another's getter gives, handed on whole somewhere
            else:
                holder = value.name
                value = self.members_of(holder)
        return replace(test, value=value) if isinstance(value, (str, int, float)) else test

    def _value(self, name: bytes) -> Value | None:
        """The literal a top-level name holds: given once (`const X = "a"`, or `var X` then `X = "a"`
        once), and, unless a `const` declares it, every other occurrence of it, in the items that
        declare or reference it, a read that no pattern or operator may write through."""
        declared = self.declared.get(name, [])
        if len(declared) != 1 or len(self.raw) != self.items:
            return None
        position, offset = declared[0]
        source = self.source
        stop = offset + len(name)
        if _ASSIGNED.match(source, stop) is not None and _CONST.match(source, self.raw[position][0]) is not None:
            return _literal_at(source, stop)  # a `const` is never written again
        positions = sorted({position, *self.readers.get(name, ())})
        if any((at, name) in self.shadowed for at in positions) or not self._search(positions):
            return None
        found: Value | None = None
        for at_item in positions:
            start, end = self.raw[at_item][0], self.raw[at_item][1]
            at = source.find(name, start, end)
            while at >= 0:
                after = at + len(name)
                if not a_word(source, at, after):
                    pass
                elif at == offset and _ASSIGNED.match(source, after) is None:
                    if _BARE.match(source, after) is None:
                        return None  # `var [X] = a`, `for (var X of a)`
                elif _ASSIGNED.match(source, after) is not None:
                    value = _literal_at(source, after)
                    if value is None or found is not None:
                        return None
                    found = value
                elif self._written(at, after) or _TARGET.match(source, after) is not None or (
                        _PLAIN_READ.match(source, after) is None
                        and source[max(start, at - 8):at].rstrip()[-1:] not in _READ_AFTER
                        and self._in_pattern(after, end) is not False):
                    return None  # `X++`, `[X] = a`, `{a: X} = o`, `for (X of a)`: written, or may be
                at = source.find(name, after, end)
        return found

    def _read(self, name: bytes) -> _Members | None:
        """The members `name` is given, when one definition gives them and every other occurrence,
        in the items that declare or reference it, is its declaration or a read of a member."""
        declared = self.declared.get(name, [])
        if len(declared) != 1 or len(self.raw) != self.items:
            return None
        positions = sorted({declared[0][0], *self.readers.get(name, ())})
        if any((position, name) in self.shadowed for position in positions) or not self._search(positions):
            return None
        found: _Members | None = None
        skip, reexports = -1, 0
        whole: set[bytes] = set()  # members read themselves (`f(X.P)`), not one of theirs
        for position in positions:
            start, end = self.raw[position][0], self.raw[position][1]
            at = self.source.find(name, start, end)
            while at >= 0:
                stop = at + len(name)
                if at == skip or not a_word(self.source, at, stop):
                    pass
                elif (read := _READ.match(self.source, stop)) is not None and read.group(2) is None \
                        and not self._written(at, read.end()):
                    whole.add(read.group(1))
                elif read is not None and read.group(2) is not None \
                        and WRITE.match(self.source, read.end()) is None and not self._written(at, read.end(1)):
                    pass  # `X.P.Q`, not written (a member of a literal called or given one changes nothing)
                elif at == declared[0][1] and (_ASSIGNED.match(self.source, stop) is None
                                               or _EMPTY.match(self.source, stop) is not None):
                    pass  # `var X` / `let X,`, or a namespace's `var X = {}`
                elif _CLOSED.match(self.source, stop) is not None \
                        and _LISTED.search(self.source, max(start, at - 32), at) is not None:
                    pass
                elif reexports < _MOST_REEXPORTS and self._reexported(name, at, start):
                    reexports += 1
                else:
                    members, skip = self._definition(name, at, stop, start)
                    if members is None or found is not None:
                        return None
                    found = members
                at = self.source.find(name, stop, end)
        self._whole[name] = whole
        if found is not None:
            for member in whole & found.keys():
                if isinstance(found[member], dict):
                    found[member] = None  # a table handed on, which may change it
        return found

    def _export_call(self, at: int, floor: int) -> tuple[bytes, re.Match[bytes]] | None:
        """The namespace and getters of the export helper's call whose first argument or getters hold
        the name at `at` (`floor`: its item's start)."""
        source = self.source
        for helper in self.exporters:
            call = source.rfind(helper + b"(", max(floor, at - _EXPORT_BYTES), at)
            if call < 0 or (call and source[call - 1] in NAME) or source[call - 1:call] == b".":
                continue
            namespace = _NAMESPACE.match(source, call + len(helper) + 1)
            getters = _GETTERS.match(source, namespace.end()) if namespace is not None else None
            if namespace is not None and getters is not None and at < getters.end():
                return namespace.group(1), getters
        return None

    def _reexported(self, name: bytes, at: int, floor: int) -> bool:
        """Whether the name at `at` is what a namespace's getter gives (`_t(O, {K: () => X})`), and
        that namespace is read as a constant, its member `K` never handed on whole."""
        if not self.source[max(floor, at - 8):at].rstrip().endswith(b"=>"):
            return False
        call = self._export_call(at, floor)
        if call is None or call[0] == name:
            return False
        for made in _KEY_GETTER.finditer(call[1].group(1)):
            if call[1].start(1) + made.start(2) == at:
                key = made.group(1)
                key = key[1:-1] if key[:1] in b"\"'" else key
                members = self.members_of(call[0])
                return members is not None and members.get(key) == _Getter(name) \
                    and key not in self._whole.get(call[0], ())
        return False

    def _written(self, at: int, after: int) -> bool:
        """Whether a member read at `at` (ending at `after`) writes it, calls it, or is deleted."""
        before = self.source[max(0, at - 8):at].rstrip()
        return _WRITTEN.match(self.source, after) is not None or before.endswith((b"++", b"--", b"delete"))

    def _definition(self, name: bytes, at: int, stop: int, floor: int) -> tuple[_Members | None, int]:
        """The members a definition at `at` gives, and the offset of the name's second occurrence
        it holds (`X || (X = {})`), else -1."""
        source = self.source
        call = self._export_call(at, floor)
        if call is not None and call[0] == name and call[1].start() == stop:
            getters: _Members = {}
            for getter in _KEY_GETTER.finditer(call[1].group(1)):
                key = getter.group(1)
                key = key[1:-1] if key[:1] in b"\"'" else key
                getters[key] = None if key in getters else _Getter(getter.group(2))
                self._pending.add(getter.group(2))
            return getters or None, -1
        if (assigned := _ASSIGNED.match(source, stop)) is not None:
            value = assigned.end()
            made = _OBJECT.match(source, value, value + _ENUM_BYTES)
            if made is not None:
                return _object_members(made.group(1)), -1
            enum = _ENUM_CALL.match(source, value, value + _ENUM_BYTES)
            return (_enum_members(enum.group(2), enum.group(1)) if enum is not None else None), -1
        argument = _ENUM_ARGUMENT.match(source, stop)
        if argument is None or (argument.group(1) is not None and argument.group(1) != name) \
                or not source[max(floor, at - 16):at].rstrip().endswith(b")("):
            return None, -1
        inner = source.find(name, stop, argument.end()) if argument.group(1) is not None else -1
        close = source.rfind(b"}", floor, at)
        opening = source.rfind(b"{", max(floor, close - _ENUM_BYTES), close)
        head = _ENUM_HEAD.search(source, max(floor, opening - 64), opening + 1) if opening >= 0 else None
        if head is None or not source[max(floor, head.start() - 2):head.start()].rstrip().endswith(b"("):
            return None, inner
        parameter = head.group(1) or head.group(2) or head.group(3)
        return _enum_members(source[opening + 1:close], parameter), inner


def readers_of(references: UnitReferences, names: Iterable[bytes]) -> dict[bytes, list[int]]:
    """By name, the positions of the items that reference it, in one pass over the items."""
    texts = {name_text(name): name for name in names}
    out: dict[bytes, list[int]] = {name: [] for name in texts.values()}
    for at, item in enumerate(references.items):
        if not texts.keys().isdisjoint(item.references):
            for text in texts.keys() & set(item.references):
                out[texts[text]].append(at)
    return out


def a_word(source: bytes, at: int, stop: int) -> bool:
    """Whether the name at `at` is a word of its own: not part of another, a property (`a.X`), a
    private name (`#X`), or spread (`...X` is an occurrence)."""
    before = source[at - 1] if at else 0x20
    if before in NAME or before == 0x23 or (stop < len(source) and source[stop] in NAME):
        return False
    return not (before == 0x2E and source[at - 3:at] != b"...")


_ENUM_MEMBER = rb"(?:\.(" + _ID + rb")|\[\s*\"(" + _ID + rb")\"\s*\])"


def _enum_members(body: bytes, parameter: bytes) -> _Members | None:
    """The members an enum's function gives its parameter `p`: `p[p.A = 1] = "A"` (a number, named
    back) and `p.A = "a"`, as TypeScript and esbuild write them, separated by `,` or `;`; None
    when the body holds anything else."""
    p = re.escape(parameter)
    member = re.compile(rb"\s*(?:" + p + rb"\[\s*" + p + _ENUM_MEMBER + rb"\s*=\s*(" + _NUMBER + rb")\s*\]\s*=\s*\"("
                        + _ID + rb")\"|" + p + _ENUM_MEMBER + rb"\s*=\s*(" + _LITERAL + rb"))\s*[,;]?")
    members: _Members = {}
    at, end = 0, len(body.rstrip())
    while at < end:
        made = member.match(body, at)
        if made is None or made.end() == at:
            return None
        key, value = (made.group(1) or made.group(2), made.group(3)) if made.group(3) is not None \
            else (made.group(5) or made.group(6), made.group(7))
        if made.group(3) is not None and made.group(4) != key:
            return None  # named back as another member
        _add(members, key, value)
        at = made.end()
    return members or None


def _object_members(body: bytes) -> _Members | None:
    members: _Members = {}
    for made in _KEY_VALUE.finditer(body):
        key, written = made.group(1), made.group(2)
        key = key[1:-1] if key[:1] in b"\"'" else key
        if written[:1] != b"{":
            _add(members, key, written)
            continue
        table: _Nested = {}
        for inner in _KEY_LITERAL.finditer(written, 1, len(written) - 1):
            inner_key = inner.group(1)
            _add(table, inner_key[1:-1] if inner_key[:1] in b"\"'" else inner_key, inner.group(2))
        members[key] = None if key in members else table
    return members or None


def _add(members: _Members | _Nested, key: bytes, written: bytes) -> None:
    value: Value = written[1:-1].decode("utf-8", "replace") if written[:1] in b"\"'" \
        else float(written) if b"." in written else int(written)
    members[key] = None if key in members else value


def _literal_at(source: bytes, stop: int) -> Value | None:
    """The literal given right after a name ending at `stop` (`X = "a"`), when it is the whole value."""
    given = _GIVEN.match(source, stop)
    if given is None:
        return None
    written = given.group(1)
    return written[1:-1].decode("utf-8", "replace") if written[:1] in b"\"'" \
        else float(written) if b"." in written else int(written)


#: how far after a name `_in_pattern` looks for the brackets around it to close
_PATTERN_BYTES = 4096
#: a unit's budget of item bytes searched for the names tested (64 MiB: 0.5 MB on the 2.1.235 executable)
_MOST_SEARCHED_BYTES = 64 << 20
#: a unit's budget for `_in_pattern` (bytes) and for names met through getters (passes over the items);
#: how many namespaces may give a namespace by their getters, and how deep such namespaces are read
_MOST_PATTERN_BYTES, _MOST_PASSES, _MOST_REEXPORTS, _MOST_DEPTH = 4 << 20, 64, 16, 8
_OPENING, _CLOSING, _QUOTES = frozenset(b"([{"), frozenset(b")]}"), frozenset(b"\"'")


def _in_pattern(source: bytes, at: int, end: int) -> bool | None:
    """Whether the name ending at `at` may be written by a pattern around it (`[a, X] = b`, `{k: X} =
    o`, `for ([k, X] of m)`): False when the brackets that hold it close before the statement ends
    and none is assigned to (`f({k: X, d: t[X]})`, `{[X]: "m"}`), None when the bytes do not tell
    (a template, a `/`, or `end` or `_PATTERN_BYTES` met first)."""
    depth, stop = 0, min(end, at + _PATTERN_BYTES)
    while at < stop:
        byte = source[at]
        if byte in _QUOTES:
            close = at + 1
            while close < stop and source[close] != byte:
                close += 2 if source[close] == 0x5C else 1
            at = close
        elif byte == 0x60 or byte == 0x2F:
            return None  # a template's substitutions, or a regex or a division
        elif byte in _OPENING:
            depth += 1
        elif byte in _CLOSING and depth:
            depth -= 1
        elif byte in _CLOSING:
            following = _AFTER_CLOSING.match(source, at + 1)
            if following is None or following.group(1) is not None:
                return True  # assigned, looped over, or unknown
            if byte == 0x29 or following.group(2) is None:
                return False  # a call's or a group's `)`, or a closing bracket read on
        elif byte == 0x3B and not depth:
            return False
        at += 1
    return None


#: after a bracket that holds the name: group 1 an assignment or `of`/`in` (a pattern), group 2 `,`,
#: `]` or `}`, which an outer pattern may hold (look on), else the bracket's value is read on
_AFTER_CLOSING = re.compile(rb"\s*(?:(=(?![=>])|(?:of|in)(?![\w$]))|([,\]}])|)")
