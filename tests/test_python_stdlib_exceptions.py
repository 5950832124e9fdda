"""The standard library's exception classes in a Python scan (docs/reference.md, "Rules"): the
rules' `external` list names every public one, by every public name a module binds it to, so a
call or `raise` of one is an error callsite, a class of the input deriving from one is an error
class, and a clause naming one resolves and catches through the class's bases, read from the
running Python. The list is what `bench/stdlib_exceptions.py` writes."""

from __future__ import annotations

import json
import platform
import re
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest
from conftest import ROOT, records, scan, write_tree

HANDLERS = "handlers.jsonl"
RULES = ROOT / "rules" / "python.toml"
#: the line of rules/python.toml that names the Python the list was written with
WRITTEN_WITH = re.compile(r"^# Written by bench/stdlib_exceptions\.py on CPython (\S+) \((\w+)\)", re.MULTILINE)

_TREE = {
    "archives/__init__.py": "",
    "archives/errors.py": "import lzma\n\n\nclass CorruptArchive(lzma.LZMAError):\n    pass\n",
    "archives/reading.py": '''import decimal
import io
import lzma
import os
import socket
from io import UnsupportedOperation

from .errors import CorruptArchive


def write_only(stream):
    try:
        raise UnsupportedOperation("read")
    except ValueError:
        return None


def seek(stream):
    try:
        raise io.UnsupportedOperation("seek")
    except os.error as failure:
        raise RuntimeError("cannot seek") from failure


def parse_price(text):
    try:
        raise decimal.InvalidOperation(text)
    except decimal.DecimalException:
        return decimal.Decimal(0)


def unpack(blob):
    try:
        raise CorruptArchive("bad header")
    except lzma.LZMAError:
        return b""


def wait(sock):
    try:
        raise TimeoutError("slow")
    except socket.timeout:
        return None


def unknown(blob):
    try:
        raise CorruptArchive("bad")
    except lzma.NoSuchError:
        return None
''',
}


@pytest.fixture(scope="module")
def scanned(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tree = tmp_path_factory.mktemp("stdlib-exceptions") / "input"
    write_tree(tree, _TREE)
    out = tree.parent / "scan"
    scan(tree / "archives", out)
    return out


@pytest.fixture(scope="module")
def errors(scanned: Path) -> dict[str, dict[str, Any]]:
    return {str(r["id"]): r for r in records(scanned, "error")}


@pytest.fixture(scope="module")
def handlers(scanned: Path) -> dict[str, dict[str, Any]]:
    """The handlers by the function holding them (one each)."""
    found = [json.loads(line) for line in (scanned / HANDLERS).read_text(encoding="utf-8").splitlines()]
    return {h["scope"]["function"].rsplit(".", 1)[-1]: h for h in found}


def test_a_raise_of_a_standard_library_class_is_an_error_callsite(errors: dict[str, dict[str, Any]]) -> None:
    told = sorted((e["line"], e["constructor"], e["callee"]) for e in errors.values())
    assert told == [
        (13, "io.UnsupportedOperation", "UnsupportedOperation"),
        (20, "io.UnsupportedOperation", "io.UnsupportedOperation"),
        (22, "RuntimeError", "RuntimeError"),
        (27, "decimal.InvalidOperation", "decimal.InvalidOperation"),
        (34, "archives.errors.CorruptArchive", "CorruptArchive"),
        (41, "TimeoutError", "TimeoutError"),
        (48, "archives.errors.CorruptArchive", "CorruptArchive"),
    ]


def test_a_class_deriving_from_one_is_an_error_class(scanned: Path) -> None:
    [record] = [json.loads(line) for line in (scanned / "error-classes.jsonl").read_text().splitlines()]
    assert (record["name"], record["parent"], record["rootConstructor"]) == (
        "archives.errors.CorruptArchive", "lzma.LZMAError", "lzma.LZMAError")


@pytest.mark.parametrize(("case", "written", "resolved", "caught"), [
    # io.UnsupportedOperation derives from OSError and ValueError
    ("write_only", "ValueError", "ValueError", "io.UnsupportedOperation"),
    # os.error is OSError: an alias of a builtin
    ("seek", "os.error", "os.error", "io.UnsupportedOperation"),
    ("parse_price", "decimal.DecimalException", "decimal.DecimalException", "decimal.InvalidOperation"),
    # the input's subclass of a class of the standard library
    ("unpack", "lzma.LZMAError", "lzma.LZMAError", "archives.errors.CorruptArchive"),
    # socket.timeout is TimeoutError
    ("wait", "socket.timeout", "socket.timeout", "TimeoutError"),
])
def test_a_clause_naming_one_resolves_and_catches_through_its_bases(
        handlers: dict[str, dict[str, Any]], errors: dict[str, dict[str, Any]],
        case: str, written: str, resolved: str, caught: str) -> None:
    handler = handlers[case]
    assert handler["catches"] == [{"written": written, "resolved": resolved}]
    assert [(s["via"], errors[s["id"]]["constructor"]) for s in handler["sources"]] == [("direct", caught)]
    [source] = handler["sources"]
    assert errors[source["id"]]["flow"] == {"fate": "thrown", "handler": handler["id"], "escapes": False, "fields": []}


def test_a_name_the_list_lacks_stays_unresolved_and_decides_nothing(handlers: dict[str, dict[str, Any]],
                                                                    errors: dict[str, dict[str, Any]]) -> None:
    handler = handlers["unknown"]
    assert handler["catches"] == [{"written": "lzma.NoSuchError", "resolved": None}]
    assert handler["sources"] == []
    [raised] = [e for e in errors.values() if e["line"] == 48]
    assert raised["flow"]["handler"] is None and raised["flow"]["escapes"] is None


def test_the_list_keeps_the_spellings_users_write() -> None:
    """The alias rule: re-exports and aliases beside the defining module's name, builtins under a
    module's alias; no private module, no `builtins.` name."""
    external = set(tomllib.loads(RULES.read_text())["errors"]["external"])
    assert {"json.JSONDecodeError", "json.decoder.JSONDecodeError", "asyncio.CancelledError",
            "asyncio.exceptions.CancelledError", "lzma.LZMAError", "zipfile.BadZipFile", "zipfile.BadZipfile",
            "os.error", "select.error", "socket.error", "socket.timeout", "asyncio.TimeoutError",
            "urllib.error.HTTPError", "urllib.request.HTTPError"} <= external
    assert not [n for n in external if n.startswith(("builtins.", "distutils.", "tkinter.")) or "._" in n
                or n.startswith("_")]


def test_the_list_is_what_the_script_writes_on_this_python() -> None:
    written = WRITTEN_WITH.search(RULES.read_text())
    assert written is not None, "rules/python.toml names no Python its list was written with"
    # a patch release adds classes too (tarfile's filter errors came in 3.11.4), and so does a build's
    # optional modules (dbm.gnu): only the Python the list was written on can check it
    version, system = written.group(1), written.group(2)
    if (platform.python_version(), sys.platform) != (version, system) or platform.python_implementation() != "CPython":
        pytest.skip(f"the list was written on CPython {version} ({system}), this is "
                    f"{platform.python_implementation()} {platform.python_version()} ({sys.platform})")
    done = subprocess.run([sys.executable, str(ROOT / "bench" / "stdlib_exceptions.py")], capture_output=True,
                          text=True, check=True, timeout=300, cwd=ROOT)
    generated = done.stdout.splitlines()
    external = tomllib.loads(RULES.read_text())["errors"]["external"]
    assert external == generated, (
        f"only in the rules: {sorted(set(external) - set(generated))}; only generated here: "
        f"{sorted(set(generated) - set(external))} (python bench/stdlib_exceptions.py --write)")
