"""Write every embedded module of a Bun executable that carries source to a directory.

usage: python bench/extract_bun_js.py BIN OUTDIR

Files land under OUTDIR at their embedded path without the `/$bunfs/` or `B:/~BUN/`
root (so `/$bunfs/root/cli` becomes `OUTDIR/root/cli`), with `..`, drive letters and
absolute parts removed. OUTDIR/manifest.json lists every module, the entry point first.
"""

from __future__ import annotations

import hashlib
import pathlib
import sys
from typing import TYPE_CHECKING

import orjson

if TYPE_CHECKING:
    from analyzer.bundle.bun import EmbeddedModule

REPOSITORY = pathlib.Path(__file__).resolve().parent.parent

EMBEDDED_ROOTS = ("/$bunfs/", "B:/~BUN/", "B:\\~BUN\\")


def relative_path(embedded: str, index: int) -> pathlib.PurePosixPath:
    """A path that stays inside the output directory whatever the embedded path says."""
    for root in EMBEDDED_ROOTS:
        if embedded.startswith(root):
            embedded = embedded[len(root) :]
            break
    parts = [
        "__" if part == ".." else part.replace(":", "_")
        for part in embedded.replace("\\", "/").split("/")
        if part not in ("", ".")
    ]
    return pathlib.PurePosixPath(*parts) if parts else pathlib.PurePosixPath(f"module-{index}")


def write_module(outdir: pathlib.Path, module: EmbeddedModule, index: int, taken: set[str]) -> str:
    relative = relative_path(module.path, index)
    if str(relative) in taken:
        relative = relative.with_name(f"{relative.name}~{index}")
    taken.add(str(relative))
    target = outdir.joinpath(relative)
    if not target.resolve().is_relative_to(outdir.resolve()):
        raise SystemExit(f"{module.path}: refusing to write outside {outdir}")
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(module.contents)
    return str(relative)


def manifest_entry(module: EmbeddedModule, file: str | None) -> dict[str, object]:
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


def main(argv: list[str]) -> int:
    sys.path.insert(0, str(REPOSITORY))  # run as a plain script, without installing erratlas
    from analyzer.bundle.bun import read_bun_executable
    from analyzer.errors import ExitCode, InputError

    if len(argv) != 3:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return ExitCode.BAD_INPUT
    binary, outdir = pathlib.Path(argv[1]), pathlib.Path(argv[2])
    try:
        modules = read_bun_executable(binary)
    except InputError as error:
        print(error, file=sys.stderr)
        return ExitCode.BAD_INPUT
    outdir.mkdir(parents=True, exist_ok=True)
    taken: set[str] = set()
    entries = []
    for index, module in enumerate(modules):
        file = write_module(outdir, module, index, taken) if module.has_source else None
        entries.append(manifest_entry(module, file))
        print(f"{module.size:>12}  {module.loader:<6} {file or '(bytecode only)'}")
    manifest = {"binary": str(binary.resolve()), "entryPoint": modules[0].path, "modules": entries}
    (outdir / "manifest.json").write_bytes(orjson.dumps(manifest, option=orjson.OPT_INDENT_2))
    return ExitCode.OK


if __name__ == "__main__":
    sys.exit(main(sys.argv))
