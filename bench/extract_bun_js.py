"""Write every embedded module of a Bun executable that carries source to a directory.

usage: python bench/extract_bun_js.py BIN OUTDIR

The same as `erratlas extract BIN --out OUTDIR` (analyzer/bundle/embedded.py), for running
without installing erratlas: files land under OUTDIR at their embedded path without the
`/$bunfs/` or `B:/~BUN/` root, and OUTDIR/manifest.json lists every module, entry point first.
"""

from __future__ import annotations

import pathlib
import sys

REPOSITORY = pathlib.Path(__file__).resolve().parent.parent


def main(argv: list[str]) -> int:
    sys.path.insert(0, str(REPOSITORY))  # run as a plain script, without installing erratlas
    from analyzer.bundle.embedded import extract
    from analyzer.errors import ExitCode, InputError

    if len(argv) != 3:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return ExitCode.BAD_INPUT
    try:
        rows = extract(pathlib.Path(argv[1]), pathlib.Path(argv[2]))
    except InputError as error:
        print(error, file=sys.stderr)
        return ExitCode.BAD_INPUT
    for row in rows:
        print(f"{row['size']:>12}  {row['loader']:<6} {row['file'] or '(bytecode only)'}")
    return ExitCode.OK


if __name__ == "__main__":
    sys.exit(main(sys.argv))
