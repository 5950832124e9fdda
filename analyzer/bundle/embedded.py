"""`erratlas extract`: write the embedded modules of a Bun executable to a directory, each at its
embedded path with nothing written outside, and `manifest.json` listing them all
(docs/reference.md, "Other verbs"). The directory is replaced atomically through
`analyzer.scandir.write`."""

from __future__ import annotations

import hashlib
import os
import pathlib
import re
import shutil

import orjson

from analyzer.bundle.bun import EmbeddedModule, read_bun_executable, text_bytes
from analyzer.errors import InputError
from analyzer.scandir.write import check_replaceable, safe_name, staging_beside, swap_in

MANIFEST = "manifest.json"
MANIFEST_SCHEMA = "erratlas.extract/1"
EMBEDDED_ROOTS = ("/$bunfs/", "B:/~BUN/", "B:\\~BUN\\")


#: longest file or directory name written, in bytes (file systems allow 255)
_PART_LIMIT = 200
#: longest relative path written, in bytes (PATH_MAX is 4096 with the output directory's path)
_PATH_LIMIT = 1024
#: characters no file name may hold here: NUL, the other controls, and `:` (drive letters, NTFS streams)
_UNSAFE_PART = re.compile(r"[\x00-\x1f\x7f:]")


def relative_path(embedded: str, index: int) -> pathlib.PurePosixPath:
    """A path that stays inside the output directory whatever the embedded path says: the
    embedded root dropped, `..` made `__`, control characters and `:` made `_`, each part at
    most 200 bytes (a longer one keeps its start, then `~` and a digest)."""
    for root in EMBEDDED_ROOTS:
        if embedded.startswith(root):
            embedded = embedded[len(root):]
            break
    parts = [
        _bounded("__" if part == ".." else _UNSAFE_PART.sub("_", part))
        for part in embedded.replace("\\", "/").split("/")
        if part not in ("", ".")
    ]
    return pathlib.PurePosixPath(*parts) if parts else pathlib.PurePosixPath(f"module-{index}")


def _bounded(part: str) -> str:
    raw = part.encode("utf-8", "surrogatepass")
    if len(raw) <= _PART_LIMIT:
        return part
    digest = hashlib.sha256(raw).hexdigest()[:12]
    return raw[:_PART_LIMIT - 13].decode("utf-8", "ignore") + "~" + digest


def extract(binary: pathlib.Path, out: pathlib.Path) -> list[dict[str, object]]:
    """Write every module of `binary` that carries source under `out`; return the manifest rows."""
    modules = read_bun_executable(binary)
    files = planned_files(modules)
    out = pathlib.Path(os.path.abspath(out))
    check_replaceable(out, MANIFEST, extraction_files)
    staging = staging_beside(out)
    try:
        rows = []
        for module, file in zip(modules, files):
            text = text_bytes(module)
            if file is not None:
                _write(staging, module, text, file)
            rows.append(_row(module, text, file))
        manifest = {"schema": MANIFEST_SCHEMA, "binary": binary.name, "entryPoint": modules[0].path, "modules": rows}
        (staging / MANIFEST).write_bytes(orjson.dumps(manifest, option=orjson.OPT_INDENT_2) + b"\n")
        os.chmod(staging, 0o755)
        check_replaceable(out, MANIFEST, extraction_files)
        swap_in(staging, out)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return rows


def planned_files(modules: list[EmbeddedModule]) -> list[str | None]:
    """Where each module with source is written (None: no source), in graph order: its
    `relative_path` when that is free; else with `~N` (N its index in the graph) after its
    name; else `module-N~NAME` at the top. A path is free when no other file has it, no
    directory of another file is it, and none of its directories is another's file;
    `manifest.json` at the top is the manifest's. So `a` and `a/b.js` are both written."""
    files: set[str] = {MANIFEST}
    directories: set[str] = set()
    planned: list[str | None] = []
    for index, module in enumerate(modules):
        if not module.has_source:
            planned.append(None)
            continue
        wanted = relative_path(module.path, index)
        choices = [
            wanted,
            wanted.with_name(f"{wanted.name}~{index}"),
            pathlib.PurePosixPath(f"module-{index}~{wanted.name}"),
        ]
        chosen = next(c for c in choices if _free(c, files, directories))
        files.add(str(chosen))
        directories.update(str(parent) for parent in chosen.parents if str(parent) != ".")
        planned.append(str(chosen))
    return planned


def _free(path: pathlib.PurePosixPath, files: set[str], directories: set[str]) -> bool:
    text = str(path)
    if len(text.encode("utf-8", "surrogatepass")) > _PATH_LIMIT:
        return False
    if text in files or text in directories:
        return False
    return not any(str(parent) in files for parent in path.parents)


def _write(outdir: pathlib.Path, module: EmbeddedModule, text: bytes, file: str) -> None:
    target = outdir.joinpath(file)
    if not target.resolve().is_relative_to(outdir.resolve()):  # pragma: no cover - parts are sanitised
        raise InputError(module.path, f"refusing to write outside {outdir}")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        with open(target, "xb") as handle:
            handle.write(text)
    except OSError as exc:
        raise InputError(target, f"cannot write the module {module.path!r}: {exc.strerror}") from None


def _row(module: EmbeddedModule, written: bytes, file: str | None) -> dict[str, object]:
    """A module's manifest row: `size` and `sha256` are the written file's (a module stored as
    UTF-16 or Latin-1 text is written in UTF-8), `storedSize` and `encoding` what Bun stored."""
    return {
        "path": module.path,
        "file": file,
        "size": len(written),
        "storedSize": module.size,
        "encoding": module.encoding,
        "loader": module.loader,
        "hasSource": module.has_source,
        "hasBytecode": module.has_bytecode,
        "hasSourcemap": module.sourcemap is not None,
        "sha256": hashlib.sha256(written).hexdigest(),
    }


def extraction_files(raw: bytes) -> dict[str, str] | None:
    """The files an extraction's manifest.json lists, with their sha256; None when the
    manifest is not one `erratlas extract` wrote."""
    try:
        manifest = orjson.loads(raw)
    except orjson.JSONDecodeError:
        return None
    rows = manifest.get("modules") if isinstance(manifest, dict) else None
    if manifest.get("schema") != MANIFEST_SCHEMA or not isinstance(rows, list):
        return None
    files = {}
    for row in rows:
        if not isinstance(row, dict):
            return None
        name, digest = row.get("file"), row.get("sha256")
        if name is None:
            continue
        if not safe_name(name) or not isinstance(digest, str):
            return None
        files[name] = digest
    return files
