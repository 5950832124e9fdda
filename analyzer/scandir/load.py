"""Typed loaders: the records of a verified scan directory as `model` records, not dicts.

A line becomes its record field by field, by the record's type hints: a nested record from an
object, a tuple from an array, None where the hint allows it. A line that lacks a field, has
one the record does not, or holds a value of another kind is an InputError naming the file and
the line: a record that loads has the shape erratlas writes.
"""

from __future__ import annotations

import dataclasses
import functools
import re
import types
import typing
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import orjson

from analyzer.errors import InputError
from analyzer.handler_model import Handler, HandlerOwnerRow, JavaScriptHandler, MappedJavaScriptHandler, PythonHandler
from analyzer.model import (
    CALLSITE_SCHEMA,
    HANDLER_SCHEMA,
    MAP_SOURCE_SCHEMA,
    REFERENCE_ITEM_SCHEMA,
    Callsite,
    MapSource,
    ProjectionRow,
    ReferenceItem,
    slots_twin,
)
from analyzer.scandir.files import (
    CALLSITE_FILES,
    HANDLER_PROJECTION_FILE,
    HANDLER_PROJECTION_SCHEMA,
    HANDLERS_FILE,
    MAP_SOURCES_FILE,
    MODULE_SCHEMA,
    MODULES_FILE,
    PROJECTION_FILE,
    PROJECTION_SCHEMA,
    REFERENCES_FILE,
)

if TYPE_CHECKING:
    from analyzer.diff_model import DiffDocument
    from analyzer.facts import BundledModule

_CALLSITE_FINGERPRINT, _HANDLER_FINGERPRINT = re.compile(r"fp1:[0-9a-f]{32}"), re.compile(r"fp1h:[0-9a-f]{32}")
_PLAIN: dict[Any, type | tuple[type, ...]] = {str: str, int: int, bool: bool, float: (int, float)}


class _Shape(Exception):
    """A value that is not what its record's field holds: the path to it, and what it is."""


def _json_types(hint: Any) -> frozenset[type] | None:
    """The Python types of the JSON values a field of type `hint` holds; None: any."""
    origin = typing.get_origin(hint)
    if hint is Any or origin in (types.UnionType, typing.Union):
        return None
    if origin in (tuple, list):
        return frozenset({list})
    if origin is dict or dataclasses.is_dataclass(hint) or typing.is_typeddict(hint):
        return frozenset({dict})
    if origin is typing.Literal:
        return frozenset(type(a) for a in typing.get_args(hint))
    return frozenset({int, float}) if hint is float else frozenset({hint})


def _options(hint: Any) -> list[tuple[frozenset[type], Any]] | None:
    """A union's options other than None, each with the JSON types that choose it, when the
    types tell them apart (a record or a string, say); None when they do not."""
    options, seen = [], frozenset[type]()
    for option in typing.get_args(hint):
        kinds = _json_types(option) if option is not type(None) else frozenset[type]()
        if kinds is None or kinds & seen:
            return None
        if kinds:
            options.append((kinds, option))
            seen |= kinds
    return options


def _convert(hint: Any) -> Callable[[Any], Any]:
    """How a JSON value becomes a value of type `hint`, checked."""
    origin = typing.get_origin(hint)
    if origin in (types.UnionType, typing.Union):
        options = [a for a in typing.get_args(hint) if a is not type(None)]
        chosen = _options(hint) if len(options) > 1 else None
        if chosen is not None:
            by_type: dict[type, Callable[[Any], Any]] = {k: _convert(option) for kinds, option in chosen for k in kinds}
            if type(None) in typing.get_args(hint):
                by_type[type(None)] = lambda value: None
            return lambda value: by_type.get(type(value), _wrong_of(by_type))(value)
        inner = _convert(options[0]) if len(options) == 1 else _convert(Any)
        return lambda value: None if value is None else inner(value)
    if origin is tuple:
        item = _convert(typing.get_args(hint)[0])
        return lambda value: tuple(item(v) for v in _kind(value, list))
    if origin is list:
        item = _convert(typing.get_args(hint)[0])
        return lambda value: [item(v) for v in _kind(value, list)]
    if origin is typing.Literal:
        allowed = frozenset(typing.get_args(hint))
        return lambda value: (value if not isinstance(value, (dict, list)) and value in allowed
                              else _wrong(value, f"one of {sorted(allowed)}"))
    if origin is dict:  # each value too (a suggestion's `match` holding a list was an internal error)
        item = _convert(typing.get_args(hint)[1] if typing.get_args(hint) else Any)
        return lambda value: {key: item(v) for key, v in _kind(value, dict).items()}
    if hint is Any:
        return lambda value: value
    if dataclasses.is_dataclass(hint):  # looked up when used: a record may hold its own kind (`BranchTest.also`)
        return lambda value: _builder(hint)(value)  # type: ignore[arg-type]
    if typing.is_typeddict(hint):
        return _typed_dict(hint)
    wanted, name = _PLAIN[hint], hint.__name__
    # a bool is an int to isinstance, never to a record
    return lambda value: _wrong(value, name) if type(value) is bool and hint is not bool else _kind(value, wanted)


def _kind(value: Any, wanted: type | tuple[type, ...]) -> Any:
    return value if isinstance(value, wanted) else _wrong(value, getattr(wanted, "__name__", "a number"))


def _wrong(value: Any, wanted: str) -> Any:
    raise _Shape(f"{type(value).__name__} where {wanted} belongs")


def _wrong_of(by_type: dict[type, Any]) -> Callable[[Any], Any]:
    return lambda value: _wrong(value, " or ".join(sorted(t.__name__ for t in by_type if t is not type(None))))


@functools.cache
def _builder(record: type) -> Callable[[Any], Any]:
    """The function that makes a `record` from a JSON object with exactly its fields."""
    hints = typing.get_type_hints(record)
    names = tuple(f.name for f in dataclasses.fields(record))
    fields = tuple((name, _convert(hints[name])) for name in names)
    expected = frozenset(names)
    # a field added to a record later has a default: a scan directory written before it is read
    required = frozenset(f.name for f in dataclasses.fields(record) if f.default is dataclasses.MISSING)

    def build(value: Any) -> Any:
        if not isinstance(value, dict):
            _wrong(value, f"an object ({record.__name__})")
        keys = value.keys()
        if not required <= keys or not keys <= expected:
            missing, extra = sorted(required - keys), sorted(keys - expected)
            raise _Shape(f"{record.__name__} " + (f"without {missing[0]}" if missing else f"with {extra[0]}"))
        made = {}
        for name, convert in fields:
            if name not in value:
                continue
            try:
                made[name] = convert(value[name])
            except _Shape as exc:
                raise _Shape(f"{name}: {exc}") from None
        return record(**made)

    return build


@functools.cache
def _typed_dict(hint: type) -> Callable[[Any], Any]:
    """The function that checks a JSON object as the TypedDict `hint`: its required keys, no key
    it does not have, each value by its hint. The object is kept as a dict, in its key order."""
    fields = {name: _convert(field) for name, field in typing.get_type_hints(hint).items()}
    required, allowed = frozenset(hint.__required_keys__), frozenset(fields)  # type: ignore[attr-defined]

    def check(value: Any) -> Any:
        keys = _kind(value, dict).keys()
        if not required <= keys or not keys <= allowed:
            missing, extra = sorted(required - keys), sorted(keys - allowed)
            raise _Shape(f"{hint.__name__} " + (f"without {missing[0]}" if missing else f"with {extra[0]}"))
        made = {}
        for name, item in value.items():
            try:
                made[name] = fields[name](item)
            except _Shape as exc:
                raise _Shape(f"{name}: {exc}") from None
        return made

    return check


def _or_miss(check: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """`check` for the compiled builders: `_MISS` where it raises."""

    def checked(value: Any) -> Any:
        try:
            return check(value)
        except _Shape:
            return _MISS

    return checked


class _Compiled:
    """Source of one function per record type that checks and builds it in straight-line code:
    the fast path of `record_of`. On anything unexpected it returns `_MISS`, and the checked
    builder above runs to say exactly what is wrong."""

    def __init__(self, tuples: bool = False) -> None:
        #: build each record as the tuple of its fields, in their order (nested records too)
        self.tuples = tuples
        self.lines: list[str] = []
        self.names: dict[str, object] = {"_MISS": _MISS}
        self.done: dict[type, str] = {}

    def record(self, record: type) -> str:
        if record in self.done:
            return self.done[record]
        name = self.done[record] = f"_build_{record.__name__}_{len(self.done)}"
        hints = typing.get_type_hints(record)
        names = tuple(f.name for f in dataclasses.fields(record))
        self.names[f"{name}_type"] = record
        # every field present and no more keys than fields: exactly the record's keys (a key
        # missing raises KeyError: no check inside can raise it)
        body = [f"def {name}(v):", f"    if type(v) is not dict or len(v) != {len(names)}: return _MISS", "    try:"]
        for index, field in enumerate(names):
            body += [f"        f{index} = v[{field!r}]", *self.check(f"f{index}", hints[field], "        ")]
        body += ["    except KeyError:", "        return _MISS", *self.make(name, record, names)]
        self.lines += body
        return name

    def make(self, name: str, record: type, names: tuple[str, ...]) -> list[str]:
        """Lines that return the record: a frozen, slotted dataclass without `__post_init__` is
        made as its slots' twin, filled by plain assignments, then given the record's class (what
        its `__init__` does, at a third of the cost of setting each slot through its descriptor)."""
        fields = [f"f{i}" for i in range(len(names))]
        if self.tuples:
            return ["    return (" + ", ".join(fields) + ",)"]
        slotted = all(isinstance(getattr(record, field, None), types.MemberDescriptorType) for field in names)
        twin = slots_twin(record) if slotted and not hasattr(record, "__post_init__") else None
        if twin is None:
            return [f"    return {name}_type(" + ", ".join(fields) + ")"]
        self.names["_new"], self.names[f"{name}_twin"] = object.__new__, twin
        assigned = [f"    o.{field} = {value}" for field, value in zip(names, fields, strict=True)]
        return [f"    o = _new({name}_twin)", *assigned, f"    o.__class__ = {name}_type", "    return o"]

    def check(self, var: str, hint: Any, pad: str) -> list[str]:
        """Lines that leave `var` converted to `hint`, or return `_MISS`."""
        origin = typing.get_origin(hint)
        if origin in (types.UnionType, typing.Union):
            options = [a for a in typing.get_args(hint) if a is not type(None)]
            chosen = _options(hint) if len(options) > 1 else None
            if chosen is not None:
                lines = [f"{pad}if {var} is None: {'pass' if type(None) in typing.get_args(hint) else 'return _MISS'}"]
                for kinds, option in chosen:
                    test = " or ".join(f"type({var}) is {k.__name__}" for k in sorted(kinds, key=lambda k: k.__name__))
                    lines += [f"{pad}elif {test}:", *(self.check(var, option, pad + "    ") or [f"{pad}    pass"])]
                return [*lines, f"{pad}else: return _MISS"]
            inner = self.check(var, options[0] if len(options) == 1 else Any, pad + "    ")
            return [f"{pad}if {var} is not None:", *inner] if inner else []
        if origin is list or origin is tuple:
            made = "" if origin is list else "tuple"
            item = typing.get_args(hint)[0]
            if item in (str, int, bool):
                return [f"{pad}if type({var}) is not list: return _MISS", f"{pad}for x in {var}:",
                        f"{pad}    if type(x) is not {item.__name__}: return _MISS", f"{pad}{var} = {made}({var})"]
            # a nested loop has its own names: `x` of depth 1, `x1` of depth 2, ...
            depth = len(pad) // 4
            item_var, built = f"x{depth}", f"t{depth}"
            inner = self.check(item_var, item, pad + "    ")
            return [f"{pad}if type({var}) is not list: return _MISS", f"{pad}{built} = []",
                    f"{pad}for {item_var} in {var}:", *inner, f"{pad}    {built}.append({item_var})",
                    f"{pad}{var} = {made}({built})"]
        if origin is typing.Literal:
            allowed = f"_allowed_{len(self.names)}"
            self.names[allowed] = frozenset(typing.get_args(hint))
            return [f"{pad}if type({var}) is dict or type({var}) is list or {var} not in {allowed}: return _MISS"]
        if hint is Any:
            return []
        if origin is dict:
            checker = f"_dict_{len(self.names)}"
            self.names[checker] = _or_miss(_convert(hint))
            return [f"{pad}{var} = {checker}({var})", f"{pad}if {var} is _MISS: return _MISS"]
        if typing.is_typeddict(hint):
            checker = f"_typed_{len(self.names)}"
            self.names[checker] = _or_miss(_typed_dict(hint))
            return [f"{pad}{var} = {checker}({var})", f"{pad}if {var} is _MISS: return _MISS"]
        if dataclasses.is_dataclass(hint):
            inner_name = self.record(hint)  # type: ignore[arg-type]
            return [f"{pad}{var} = {inner_name}({var})", f"{pad}if {var} is _MISS: return _MISS"]
        if hint is float:
            return [f"{pad}if type({var}) is not int and type({var}) is not float: return _MISS"]
        return [f"{pad}if type({var}) is not {_PLAIN[hint].__name__}: return _MISS"]  # type: ignore[union-attr]


_MISS = object()


@functools.cache
def _fast(record: type, tuples: bool = False) -> Callable[[Any], Any]:
    compiled = _Compiled(tuples)
    name = compiled.record(record)
    exec("\n".join(compiled.lines), compiled.names)  # source made above from type hints alone
    return typing.cast(Callable[[Any], Any], compiled.names[name])


def record_of(record: type[Any], document: Any, where: str) -> Any:
    """`document` (a JSON value read from `where`, `file:line`) as a `record`."""
    made = _fast(record)(document)  # type: ignore[arg-type]
    if made is not _MISS:
        return made
    try:
        return _builder(record)(document)  # type: ignore[arg-type]
    except _Shape as exc:
        raise InputError(where, f"not the shape erratlas writes: {exc}") from None


# ---- JSON lines: the parse boundary ------------------------------------------------------------


def rows(data: bytes, name: str) -> list[object]:
    """The values of a JSON-lines file, in one parse (a line-by-line parse costs a third more);
    a file that does not parse whole is read line by line, naming the first bad line."""
    if data[:1] == b"{" and data[-2:] == b"}\n":  # as erratlas writes it: stripped, it ends before its last byte
        lines = data.count(b"\n")
        joined = data.replace(b"\n", b",")
        text = b"".join((b"[", memoryview(joined)[:-1], b"]"))  # two copies of the file, not three
    else:
        data = data.strip()
        if not data:
            return []
        lines = data.count(b"\n") + 1
        text = b"".join((b"[", data.replace(b"\n", b","), b"]"))
    try:
        found = orjson.loads(text)
    except orjson.JSONDecodeError:
        found = None
    if isinstance(found, list) and len(found) == lines:
        return found
    # line by line: also where the one parse could not have its buffer (orjson says so with the
    # same exception, under a memory bound)
    out = []
    for number, line in enumerate(data.strip().split(b"\n"), start=1):
        try:
            out.append(orjson.loads(line))
        except orjson.JSONDecodeError as exc:
            raise InputError(f"{name}:{number}", f"not JSON: {exc}") from None
    return out


def schema_row(line: bytes, where: str, schema: str, what: str) -> dict[str, object]:
    """The row on one line (`where`: `file:line`): a JSON object of `schema`, or an InputError."""
    try:
        row = orjson.loads(line)
    except orjson.JSONDecodeError as exc:
        raise InputError(where, f"not JSON: {exc}") from None
    if not isinstance(row, dict) or row.get("schema") != schema:
        raise InputError(where, f"not {what} (schema {schema})")
    return row


def records_of(data: bytes, name: str, record: type[Any], schema: str, what: str) -> list[Any]:
    """Every line of the JSON-lines file `name` as a `record` of `schema`."""
    out = []
    build = _fast(record)  # type: ignore[arg-type]
    for number, row in enumerate(rows(data, name), start=1):
        if type(row) is not dict or row.get("schema") != schema:
            raise InputError(f"{name}:{number}", f"not {what} (schema {schema})")
        made = build(row)
        # the line's `file:line` is made only for a record the fast path refuses
        out.append(made if made is not _MISS else record_of(record, row, f"{name}:{number}"))
    return out


def load_callsites(files: dict[str, bytes]) -> list[Callsite]:
    """The callsites of both inventory files, as the files hold them: errors, then diagnostics."""
    found: list[Callsite] = []
    for kind, name in CALLSITE_FILES.items():
        data = files[name]
        end = data.find(b"\n")  # the first line, not a copy of the rest (nor of the stripped file)
        if data and not data.isspace() and b'"readable":' not in (data if end < 0 else data[:end]):
            raise InputError(name, "written by an earlier erratlas (records without `readable`, "
                                   "its readable slice): scan the bundle again")
        records = records_of(data, name, Callsite, CALLSITE_SCHEMA, "a callsite record")
        other = next((r for r in records if r.kind != kind), None)
        if other is not None:
            raise InputError(name, f"holds {other.id}, a callsite of kind {other.kind!r}")
        for number, r in enumerate(records, start=1):  # what the verbs take apart and sort by
            named = r.constructor if kind == "error" else r.level
            if not _CALLSITE_FINGERPRINT.fullmatch(r.fingerprint) or not isinstance(named, str):
                field = "constructor" if kind == "error" else "level"
                raise InputError(f"{name}:{number}", "not the shape erratlas writes: " + (
                    f"fingerprint {r.fingerprint!r}" if isinstance(named, str) else f"{field} null"))
        found += records
    return found


def in_bundle_order(records: list[Callsite]) -> list[Callsite]:
    """Callsites by unit, offset and kind: the order of the projection and the index."""
    return sorted(records, key=lambda r: (r.unit, r.offset, r.kind))


def load_projection(files: dict[str, bytes]) -> list[ProjectionRow]:
    """The projection's rows, in record order."""
    return records_of(files[PROJECTION_FILE], PROJECTION_FILE, ProjectionRow, PROJECTION_SCHEMA, "a projection row")


def load_handlers(files: dict[str, bytes]) -> list[Handler] | None:
    """The handlers, by unit and offset as the file holds them; None when the scan wrote no
    handlers.jsonl (its frontend does not look for handlers)."""
    data = files.get(HANDLERS_FILE)
    if data is None:
        return None
    out: list[Handler] = []
    for number, row in enumerate(rows(data, HANDLERS_FILE), start=1):
        if type(row) is not dict or row.get("schema") != HANDLER_SCHEMA:
            raise InputError(f"{HANDLERS_FILE}:{number}", f"not a handler record (schema {HANDLER_SCHEMA})")
        # a Python clause names the classes it catches (docs/reference.md, "Handler records")
        # and a JavaScript handler whether its body is a lone rethrow, and where a map places it,
        # what its original body held
        record = PythonHandler if "catches" in row else MappedJavaScriptHandler if "sourceBody" in row \
            else JavaScriptHandler if "loneRethrow" in row else Handler
        made = _fast(record)(row)
        out.append(made if made is not _MISS else record_of(record, row, f"{HANDLERS_FILE}:{number}"))
        if not _HANDLER_FINGERPRINT.fullmatch(out[-1].fingerprint):  # sarif takes its hex digits
            raise InputError(f"{HANDLERS_FILE}:{number}", f"not the shape erratlas writes: fingerprint "
                                                          f"{out[-1].fingerprint!r}")
    return out


def load_handler_projection(files: dict[str, bytes]) -> list[HandlerOwnerRow] | None:
    """Each handler's owner, in handler order; None when the scan has no handlers."""
    data = files.get(HANDLER_PROJECTION_FILE)
    if data is None:
        return None
    return records_of(data, HANDLER_PROJECTION_FILE, HandlerOwnerRow, HANDLER_PROJECTION_SCHEMA,
                      "a handler projection row")


def load_owned_handlers(files: dict[str, bytes]) -> tuple[list[Handler], list[HandlerOwnerRow]] | None:
    """The handlers and their projection rows, one row per handler in its order (a row missing,
    added or moved is refused, naming the line); None when the scan has either file not."""
    found, owners = load_handlers(files), load_handler_projection(files)
    if found is None or owners is None:
        return None
    for number in range(1, max(len(found), len(owners)) + 1):
        handler = found[number - 1].id if number <= len(found) else None
        row = owners[number - 1].id if number <= len(owners) else None
        if handler != row:
            said = f"the row of {row}" if row is not None else "no row"
            raise InputError(f"{HANDLER_PROJECTION_FILE}:{number}",
                             f"{said} where {HANDLERS_FILE} has {handler or 'no more handlers'}")
    return found, owners


def load_references(files: dict[str, bytes]) -> list[ReferenceItem]:
    """The reference graph's items (none when the scan wrote no graph)."""
    return records_of(files.get(REFERENCES_FILE, b""), REFERENCES_FILE, ReferenceItem, REFERENCE_ITEM_SCHEMA,
                      "a reference item")


def reference_fields(files: dict[str, bytes]) -> list[tuple[Any, ...]]:
    """The reference graph's items, each checked as `load_references` checks it and given as the
    tuple of its fields in their order, a nested record as a tuple too: the graph keeps 60k items
    of a big executable as tuples, and making records first costs a third of reading them."""
    data, out = files.get(REFERENCES_FILE, b""), []
    build = _fast(ReferenceItem, True)
    for number, row in enumerate(rows(data, REFERENCES_FILE), start=1):
        if type(row) is not dict or row.get("schema") != REFERENCE_ITEM_SCHEMA:
            raise InputError(f"{REFERENCES_FILE}:{number}", f"not a reference item (schema {REFERENCE_ITEM_SCHEMA})")
        made = build(row)
        # what the fast path refuses, the checked builder refuses naming the line, or makes (a
        # field with a default left out): the same fields, as tuples
        out.append(made if made is not _MISS else
                   dataclasses.astuple(record_of(ReferenceItem, row, f"{REFERENCES_FILE}:{number}")))
    return out


def load_modules(files: dict[str, bytes]) -> list[BundledModule]:
    """The bundler modules of every unit, as modules.jsonl holds them."""
    from analyzer.facts import BundledModule  # the frontends' facts: the gate, which reads no module, never loads them

    rows = records_of(files.get(MODULES_FILE, b""), MODULES_FILE, BundledModule, MODULE_SCHEMA, "a module row")
    bad = next((n for n, row in enumerate(rows, start=1) if any(len(span) != 2 for span in row.spans)), None)
    if bad is not None:  # `suggest` takes each apart (an internal error)
        raise InputError(f"{MODULES_FILE}:{bad}", "not the shape erratlas writes: spans: a span not [start, end]")
    return rows


def load_diff(raw: bytes, where: str) -> DiffDocument:
    """A diff directory's `diff.json` (`where`: its path) as the record `erratlas diff` wrote."""
    from analyzer.diff_model import DIFF_SCHEMA, DiffDocument  # only `diff` reads one

    built: DiffDocument = record_of(DiffDocument, schema_row(raw, where, DIFF_SCHEMA, "an erratlas diff"), where)
    return built


def load_map_sources(data: bytes) -> list[MapSource]:
    """Where each source of the scan's used maps lies (none when no map was used)."""
    return records_of(data, MAP_SOURCES_FILE, MapSource, MAP_SOURCE_SCHEMA, "a map source")
