"""`erratlas extract`: write the embedded modules of a Bun executable to a directory.

Files land under the output directory at their embedded path without the `/$bunfs/` or
`B:/~BUN/` root (`/$bunfs/root/cli` becomes `OUT/root/cli`), with `..`, drive letters and
absolute parts neutralised so nothing is written outside. `manifest.json` lists every
module, the entry point first: path, file written (None for bytecode-only modules), size,
loader, whether it carries source, bytecode and a source map, sha256 of the contents.
The directory is replaced atomically, and only if it is empty or holds exactly a previous
extraction: the files its manifest lists, with their sha256 (`analyzer.reports.output`).
"""

from __future__ import annotations

import hashlib
import os
import pathlib
import shutil

import orjson

from analyzer.bundle.bun import EmbeddedModule, read_bun_executable
from analyzer.errors import InputError
from analyzer.reports.output import check_replaceable, safe_name, staging_beside, swap_in

MANIFEST = "manifest.json"
MANIFEST_SCHEMA = "erratlas.extract/1"
EMBEDDED_ROOTS = ("/$bunfs/", "B:/~BUN/", "B:\\~BUN\\")


def relative_path(embedded: str, index: int) -> pathlib.PurePosixPath:
    """A path that stays inside the output directory whatever the embedded path says."""
    for root in EMBEDDED_ROOTS:
        if embedded.startswith(root):
            embedded = embedded[len(root):]
            break
    parts = [
        "__" if part == ".." else part.replace(":", "_")
        for part in embedded.replace("\\", "/").split("/")
        if part not in ("", ".")
    ]
    return pathlib.PurePosixPath(*parts) if parts else pathlib.PurePosixPath(f"module-{index}")


def extract(binary: pathlib.Path, out: pathlib.Path) -> list[dict[str, object]]:
    """Write every module of `binary` that carries source under `out`; return the manifest rows."""
    modules = read_bun_executable(binary)
    out = pathlib.Path(os.path.abspath(out))
    check_replaceable(out, MANIFEST, extraction_files)
    staging = staging_beside(out)
    try:
        taken: set[str] = set()
        rows = []
        for index, module in enumerate(modules):
            file = _write(staging, module, index, taken) if module.has_source else None
            rows.append(_row(module, file))
        manifest = {"schema": MANIFEST_SCHEMA, "binary": binary.name, "entryPoint": modules[0].path, "modules": rows}
        (staging / MANIFEST).write_bytes(orjson.dumps(manifest, option=orjson.OPT_INDENT_2) + b"\n")
        os.chmod(staging, 0o755)
        check_replaceable(out, MANIFEST, extraction_files)
        swap_in(staging, out)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return rows


def _write(outdir: pathlib.Path, module: EmbeddedModule, index: int, taken: set[str]) -> str:
    relative = relative_path(module.path, index)
    if str(relative) in taken:
        relative = relative.with_name(f"{relative.name}~{index}")
    taken.add(str(relative))
    target = outdir.joinpath(relative)
    if not target.resolve().is_relative_to(outdir.resolve()):  # pragma: no cover - parts are sanitised
        raise InputError(module.path, f"refusing to write outside {outdir}")
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(module.contents)
    return str(relative)


def _row(module: EmbeddedModule, file: str | None) -> dict[str, object]:
    return {
        "path": module.path,
        "file": file,
        "size": module.size,
        "loader": module.loader,
        "hasSource": module.has_source,
        "hasBytecode": module.has_bytecode,
        "hasSourcemap": module.sourcemap is not None,
        "sha256": hashlib.sha256(module.contents).hexdigest(),
    }


def extraction_files(raw: bytes) -> dict[str, str] | None:
    """The files an extraction's manifest.json lists, with their sha256; None when the
    manifest is not one `erratlas extract` wrote."""
    try:
        manifest = orjson.loads(raw)
    except orjson.JSONDecodeError:
        return None
    rows = manifest.get("modules") if isinstance(manifest, dict) else None
    if manifest.get("schema") != MANIFEST_SCHEMA or not isinstance(rows, list):  # type: ignore[union-attr]
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
