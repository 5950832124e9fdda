"""The verified read of a scan directory: its files through descriptors, within bounds, and
believed only once the summary lists each with its sha256, lists every file a scan writes, and
records this installation's fingerprint algorithm and parsers."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import orjson

from analyzer.bounded import MAX_DOCUMENT_BYTES, list_directory, open_directory, read_inside, read_regular
from analyzer.errors import InputError
from analyzer.scandir.files import SCAN_FILES, SUMMARY_FILE, SUMMARY_SCHEMA
from analyzer.scandir.write import safe_name
from analyzer.versions import check_same

#: what a scan directory's files may add up to when it is read whole
MAX_DIRECTORY_BYTES = 4 * 2**30
_SHOWN = 80


def read_directory(source: Path) -> dict[str, bytes]:
    """Every file of a scan directory, read through descriptors: a symlink, a FIFO, a device or
    anything nested too deep is refused, naming it; so are files past the size bounds."""
    fd = open_directory(source, "scan directory")
    try:
        listing = list_directory(fd, source)
        total = sum(listing.files.values())
        if total > MAX_DIRECTORY_BYTES:
            raise InputError(source, f"its files total {total} bytes, more than the limit of {MAX_DIRECTORY_BYTES}")
        return {name: read_inside(fd, name, source) for name in sorted(listing.files)}
    finally:
        os.close(fd)


def parse_summary(raw: bytes, where: object) -> dict[str, Any]:
    """A summary document (open data: its owner part is checked where it is recomputed)."""
    try:
        summary = orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        raise InputError(where, f"corrupt summary: {exc}") from None
    if not isinstance(summary, dict) or summary.get("schema") != SUMMARY_SCHEMA:
        raise InputError(where, f"not an erratlas summary (schema {SUMMARY_SCHEMA})")
    return summary


def load_summary(path: Path) -> dict[str, Any]:
    return parse_summary(read_regular(path, "summary", MAX_DOCUMENT_BYTES), path)


def verify(directory: Path, files: dict[str, bytes] | None = None) -> dict[str, Any]:
    """The summary, after checking that it was written with this installation's fingerprint
    algorithm and parsers, that every file it lists is a regular file inside the directory
    with its recorded sha256, that it lists every file a scan writes, and that nothing
    unlisted was added."""
    files = read_directory(directory) if files is None else files
    where = directory / SUMMARY_FILE
    if SUMMARY_FILE not in files:
        raise InputError(where, "no summary (is this a scan directory?)")
    summary = parse_summary(files[SUMMARY_FILE], where)
    check_same(summary, where)
    outputs = summary.get("outputs")
    if not isinstance(outputs, dict):
        raise InputError(where, "corrupt summary: no output hashes")
    for name, digest in sorted(outputs.items()):
        if not safe_name(name) or name == SUMMARY_FILE:
            raise InputError(where, f"outputs lists {show(name)}, which is not a file inside the scan directory")
        if name not in files:
            raise InputError(directory / name, "missing: listed in the summary")
        actual = hashlib.sha256(files[name]).hexdigest()
        if actual != digest:
            raise InputError(
                directory / name, f"hash mismatch: summary says {str(digest)[:16]}…, file is {actual[:16]}…"
            )
    extra = sorted(set(files) - set(outputs) - {SUMMARY_FILE})
    if extra:
        raise InputError(directory / extra[0], "not listed in the summary (added after the scan?)")
    check_listed(directory, SCAN_FILES, outputs)
    return summary


def verified(directory: Path) -> tuple[dict[str, bytes], dict[str, Any]]:
    """A scan directory's files and its summary, verified."""
    files = read_directory(directory)
    return files, verify(directory, files)


def check_listed(directory: Path, names: Iterable[str], outputs: dict[str, Any]) -> None:
    unlisted = sorted(set(names) - set(outputs))
    if unlisted:
        raise InputError(directory / unlisted[0], "a scan writes this file, but the summary does not list it "
                                                  "(deleted together with its entry?)")


def show(value: Any) -> str:
    """A value of a file we do not trust, quoted and cut short."""
    text = orjson.dumps(value).decode() if not isinstance(value, str) else repr(value)
    return text if len(text) <= _SHOWN else text[:_SHOWN] + "…"


# ---- JSON lines --------------------------------------------------------------------------------


def rows(data: bytes, name: str) -> list[Any]:
    """The values of a JSON-lines file, in one parse (a line-by-line parse costs a third more);
    a file that does not parse whole is read line by line, naming the first bad line."""
    data = data.strip()
    if not data:
        return []
    lines = data.count(b"\n") + 1
    try:
        found = orjson.loads(b"[" + data.replace(b"\n", b",") + b"]")
    except orjson.JSONDecodeError:
        found = None
    if isinstance(found, list) and len(found) == lines:
        return found
    # line by line: also where the one parse could not have its buffer (orjson says so with the
    # same exception, under a memory bound)
    out = []
    for number, line in enumerate(data.split(b"\n"), start=1):
        try:
            out.append(orjson.loads(line))
        except orjson.JSONDecodeError as exc:
            raise InputError(f"{name}:{number}", f"not JSON: {exc}") from None
    return out


def schema_row(line: bytes, where: str, schema: str, what: str) -> dict[str, Any]:
    """The row on one line (`where`: `file:line`): a JSON object of `schema`, or an InputError."""
    try:
        row = orjson.loads(line)
    except orjson.JSONDecodeError as exc:
        raise InputError(where, f"not JSON: {exc}") from None
    if not isinstance(row, dict) or row.get("schema") != schema:
        raise InputError(where, f"not {what} (schema {schema})")
    return row
