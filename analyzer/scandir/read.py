"""The verified read of a scan directory: its files through descriptors, within bounds, and
believed only once the summary lists each with its sha256, lists every file a scan writes, and
records this installation's fingerprint algorithm and parsers; the summary then read typed."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Collection, Iterable
from pathlib import Path

import orjson

from analyzer.bounded import MAX_DOCUMENT_BYTES, list_directory, open_directory, read_inside, read_regular
from analyzer.errors import InputError
from analyzer.scandir.files import SCAN_FILES, SUMMARY_FILE, SUMMARY_SCHEMA
from analyzer.scandir.summary import baseline_of, summary_of
from analyzer.scandir.write import safe_name
from analyzer.summary_model import Baseline, Summary
from analyzer.versions import check_same

#: what a scan directory's files may add up to when it is read whole
MAX_DIRECTORY_BYTES = 4 * 2**30
_SHOWN = 80


def read_directory(source: Path) -> dict[str, bytes]:
    """Every file of a scan directory, read through descriptors: a symlink, a FIFO, a device or
    anything nested too deep is refused, naming it; so are files past the size bounds."""
    if os.path.isfile(source) and os.path.isfile(source.parent / SUMMARY_FILE):  # a file of one, named for it
        raise InputError(source, f"a file of the scan directory {source.parent}, not the directory: give "
                                 f"{source.parent}")
    if os.path.isfile(source):
        raise InputError(source, "a file, not a scan directory (`erratlas scan BUNDLE --out DIR` writes one)")
    fd = open_directory(source, "scan directory")
    try:
        try:
            held = os.listdir(fd)
        except OSError as exc:
            raise InputError(source, f"cannot read the directory: {exc.strerror}") from None
        if SUMMARY_FILE not in held:  # no scan directory: said of it, never of a link or a FIFO inside it
            raise InputError(source, _not_a_scan(held))
        listing = list_directory(fd, source)
        total = sum(listing.files.values())
        if total > MAX_DIRECTORY_BYTES:
            raise InputError(source, f"its files total {total} bytes, more than the limit of {MAX_DIRECTORY_BYTES}")
        return {name: read_inside(fd, name, source) for name in sorted(listing.files)}
    finally:
        os.close(fd)


def parse_summary(raw: bytes, where: object) -> dict[str, object]:
    """A summary document, the raw JSON: read typed by `scandir.summary` (its scan part is open
    data, carried as it is)."""
    try:
        summary = orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        raise InputError(where, f"corrupt summary: {exc}") from None
    if not isinstance(summary, dict) or summary.get("schema") != SUMMARY_SCHEMA:
        raise InputError(where, _other_summary(summary))
    return summary


def _other_summary(document: object) -> str:
    """Why a document is not a summary this erratlas reads: another schema version of one (an
    erratlas of another release wrote it) is said as such."""
    from analyzer import __version__

    schema = document.get("schema") if isinstance(document, dict) else None
    if not isinstance(schema, str) or not schema.startswith(SUMMARY_SCHEMA.rsplit("/", 1)[0] + "/"):
        return f"not an erratlas summary (schema {SUMMARY_SCHEMA})"
    tool = document.get("tool") if isinstance(document, dict) else None
    version = tool.get("version") if isinstance(tool, dict) else None
    by = f"erratlas {show(version)}" if isinstance(version, str) else "another erratlas"
    return (f"a summary of schema {show(schema)}, written by {by}; this erratlas ({__version__}) reads "
            f"{SUMMARY_SCHEMA}: scan again with it, or read the directory with the erratlas that wrote it")


def load_baseline(path: Path, scan: Summary | None = None) -> Baseline:
    """A baseline summary, made with this installation's fingerprint algorithm and parsers, and
    with the scan's when given (a baseline of a scan in another language compares nothing)."""
    if os.path.isdir(path) and os.path.isfile(path / SUMMARY_FILE):
        raise InputError(path, f"a scan directory; a baseline is its summary: {path / SUMMARY_FILE}")
    document = parse_summary(read_regular(path, "summary", MAX_DOCUMENT_BYTES), path)
    check_same(document, path)
    if scan is not None:
        check_same(document, path, scan.document, "this scan")
    return baseline_of(document, path)


def verify(directory: Path, files: dict[str, bytes] | None = None) -> Summary:
    """The summary, typed, after checking that it was written with this installation's fingerprint
    algorithm and parsers, that every file it lists is a regular file inside the directory
    with its recorded sha256, that it lists every file a scan writes, and that nothing
    unlisted was added."""
    files = read_directory(directory) if files is None else files
    where = directory / SUMMARY_FILE
    if SUMMARY_FILE not in files:
        raise InputError(directory, _not_a_scan(files))
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
    return summary_of(summary, where)


def verified(directory: Path) -> tuple[dict[str, bytes], Summary]:
    """A scan directory's files and its summary, verified."""
    files = read_directory(directory)
    return files, verify(directory, files)


#: what erratlas writes elsewhere than a scan directory, by the file that marks it, and what to give instead
_OTHER_DIRECTORIES = {
    "diff.json": "a diff directory (diff.json: what `erratlas diff` writes), not a scan directory: give one of the "
                 "two scan directories it compared",
    "manifest.json": "an extraction directory (manifest.json: what `erratlas extract` writes), not a scan "
                     "directory: scan the executable it came from, `erratlas scan EXECUTABLE --out DIR`",
    "corpus.json": "a corpus (corpus.json: what `erratlas corpus add` writes), not a scan directory: give it to "
                   "`erratlas suggest DIR --corpus`",
}


def _not_a_scan(names: Collection[str]) -> str:
    """Why a directory without a summary (holding `names`) is no scan directory, and what to give instead."""
    for marker, what in _OTHER_DIRECTORIES.items():
        if marker in names:
            return what
    held = "an empty directory" if not names else f"no {SUMMARY_FILE}"
    return f"{held}: not a scan directory (`erratlas scan BUNDLE --out DIR` writes one)"


def check_listed(directory: Path, names: Iterable[str], outputs: Iterable[str]) -> None:
    unlisted = sorted(set(names) - set(outputs))
    if unlisted:
        raise InputError(directory / unlisted[0], "a scan writes this file, but the summary does not list it "
                                                  "(deleted together with its entry?)")


def show(value: object) -> str:
    """A value of a file we do not trust, quoted and cut short."""
    text = orjson.dumps(value).decode() if not isinstance(value, str) else repr(value)
    return text if len(text) <= _SHOWN else text[:_SHOWN] + "…"
