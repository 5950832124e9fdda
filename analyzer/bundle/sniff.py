"""What a file given as a JavaScript bundle is when it is not one: a source map, a JSON file,
TypeScript, a stylesheet or page, a script of another language. Each is refused with one line
that says what the file is and what to give instead (docs/reference.md, "Exit statuses")."""

from __future__ import annotations

import os
import re
from pathlib import Path

import orjson

from analyzer.errors import InputError

#: names that are never JavaScript, and what to give instead
_OTHER_TEXT = {
    (".ts", ".tsx", ".mts", ".cts"): "TypeScript source, not JavaScript: scan the JavaScript it compiles to",
    (".css", ".scss", ".sass", ".less"): "a stylesheet, not JavaScript: give the .js/.mjs/.cjs bundle",
    (".html", ".htm", ".xhtml"): "an HTML page, not JavaScript: give the .js/.mjs/.cjs bundle it loads",
    (".md", ".markdown", ".rst"): "a text document, not JavaScript: give the .js/.mjs/.cjs bundle",
    (".yaml", ".yml", ".toml", ".ini", ".xml", ".svg", ".csv"): "a data file, not JavaScript: give the "
                                                               ".js/.mjs/.cjs bundle",
}
#: hashbang interpreters that never run JavaScript
_OTHER_INTERPRETERS = frozenset({"sh", "bash", "dash", "zsh", "ksh", "fish", "csh", "tcsh", "ruby", "perl", "php",
                                 "lua", "awk", "make"})
_PYTHON = ("python", "pypy")
_BUNDLE = "a .js/.mjs/.cjs bundle or a Bun executable"
#: how far the first line of a JSON Lines file is looked for (a callsite record is about a kilobyte)
_LINE_BYTES = 1 << 20


#: archives and compressed files by their first bytes, none of which erratlas reads under its name; each
#: signature holds a byte no JavaScript source may (a NUL, a byte that is not UTF-8) or, for bzip2, ten
#: bytes no bundle begins with
_CONTAINERS = (
    (re.compile(rb"BZh[1-9](1AY&SY|\x17rE8P\x90)"), "a bzip2-compressed file"),
    (re.compile(rb"\xfd7zXZ\x00"), "an xz-compressed file"),
    (re.compile(rb"\x28\xb5\x2f\xfd"), "a zstd-compressed file"),
    (re.compile(rb"7z\xbc\xaf\x27\x1c"), "a 7-Zip archive"),
    (re.compile(rb"Rar!\x1a\x07"), "a RAR archive"),
    (re.compile(rb"\x1f\x8b"), "a gzip-compressed file"),
    (re.compile(rb"PK\x03\x04"), "a zip archive"),
    (re.compile(rb".{257}ustar(\x00|  \x00)", re.DOTALL), "a tar archive"),
)
_READ_ARCHIVES = "a .tar.gz, .tgz or .zip (JavaScript or Python), a .whl or .pyz (Python), or the unpacked directory"


def refuse_archive(path: Path | str, data: bytes) -> None:
    """Raise InputError when `data`, read from `path` as a bundle, is an archive, a compressed file or
    UTF-16 text, naming what it is rather than 'binary data', as if it were a broken bundle."""
    for signature, what in _CONTAINERS:
        if signature.match(data, 0, 512):
            raise InputError(path, f"{what} by its content, not a JavaScript bundle; erratlas reads {_READ_ARCHIVES}")
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):  # what PowerShell's `>` writes
        raise InputError(path, "UTF-16 text (its byte order mark), not UTF-8: convert it (iconv -f UTF-16 -t UTF-8)")


def refuse_not_javascript(path: Path, data: bytes) -> None:
    """Raise InputError when `data`, read from `path` as a bundle, is plainly not JavaScript."""
    name = path.name.lower()
    start = data[:4096].lstrip()[:1]  # a bounded prefix: never a copy of a 20 MB bundle
    document = _json_document(data) if start in (b"{", b"[") or name.endswith((".map", ".json")) else None
    if document is not None or name.endswith((".map", ".json")):
        if name.endswith(".map") or _is_source_map(document):
            raise InputError(path, f"a source map, not a bundle: {_mapped_bundle(path, document)}")
        raise InputError(path, f"a JSON file, not JavaScript: give {_BUNDLE}")
    record = _json_line(data) if start == b"{" else None
    if record is not None or name.endswith((".jsonl", ".ndjson")):
        schema = record.get("schema") if record is not None else None
        if isinstance(schema, str) and schema.startswith("erratlas."):  # a scan directory's file
            raise InputError(path, f"a JSON Lines file of erratlas's records ({schema}), not JavaScript: give the "
                                   "bundle they were made from")
        raise InputError(path, f"a JSON Lines file, not JavaScript: give {_BUNDLE}")
    for suffixes, problem in _OTHER_TEXT.items():
        if name.endswith(suffixes):
            raise InputError(path, problem)
    interpreter = _hashbang_interpreter(data)
    if interpreter is not None and (interpreter in _OTHER_INTERPRETERS or interpreter.startswith(_PYTHON)):
        raise InputError(path, f"a {interpreter} script (its #! line), not JavaScript: give the bundle it runs"
                               + (", or scan it as a .py file" if interpreter.startswith(_PYTHON) else ""))


def _json_document(data: bytes) -> object | None:
    """The JSON object or array `data` holds, or None (JavaScript seldom parses as JSON)."""
    try:
        document = orjson.loads(data)
    except orjson.JSONDecodeError:
        return None
    return document if isinstance(document, (dict, list)) else None


def _json_line(data: bytes) -> dict[str, object] | None:
    """The object a JSON Lines file's first line holds, or None. No JavaScript begins so: a line
    `{"key": ...}` is a block whose first statement is a string and a colon, a syntax error."""
    end = data.find(b"\n", 0, _LINE_BYTES)
    try:
        record = orjson.loads(data[:end if end >= 0 else _LINE_BYTES])
    except orjson.JSONDecodeError:
        return None
    return record if isinstance(record, dict) and record else None


def _is_source_map(document: object) -> bool:
    return isinstance(document, dict) and "mappings" in document and ("sources" in document or "sections" in document)


def _mapped_bundle(path: Path, document: object) -> str:
    """What to scan instead of the map at `path`: the bundle its `file` field names, else the
    map's own name without `.map`, when such a file is beside it."""
    named = document.get("file") if isinstance(document, dict) else None
    if isinstance(named, str) and named and "://" not in named and "\x00" not in named:
        target = path.parent / named
        there = "" if os.path.isfile(target) else " (not found beside the map)"
        return f"scan the bundle it maps, {target} (its `file` field){there}"
    stripped = path.with_name(path.name[: -len(".map")]) if path.name.lower().endswith(".map") else None
    if stripped is not None and os.path.isfile(stripped):
        return f"scan the bundle it maps, {stripped} (beside it, by name; the map has no `file` field)"
    return "scan the bundle it maps (the map has no `file` field naming it)"


def _hashbang_interpreter(data: bytes) -> str | None:
    """The program a `#!` line runs (`/usr/bin/env -S node` gives `node`), or None."""
    if not data.startswith(b"#!"):
        return None
    words = data[2:data.find(b"\n") if b"\n" in data else len(data)].decode("utf-8", "replace").split()
    if not words:
        return None
    program, rest = words[0].rsplit("/", 1)[-1], words[1:]
    if program == "env":
        rest = [word for word in rest if not word.startswith("-") and "=" not in word]
        program = rest[0].rsplit("/", 1)[-1] if rest else program
    return program
