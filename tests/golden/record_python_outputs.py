"""Record tests/golden/python_outputs.json: the sha256 of every output file of a scan of each
tree of `test_python_identity`, made by the erratlas command given (an earlier commit's, to
prove that a change keeps every byte).

    python tests/golden/record_python_outputs.py --erratlas "env PYTHONPATH=/path/to/old/checkout python -m analyzer" \\
        --commit 1e5ae64
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from support import python_trees  # noqa: E402

TREES = {
    "pip": lambda parent: python_trees.pip_tree(),
    "requests": python_trees.requests_tree,
    "stdlib-sample": python_trees.stdlib_sample,
}
JOBS = {"pip": None, "requests": "1", "stdlib-sample": None}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--erratlas", required=True, help="the command that runs the recording erratlas")
    parser.add_argument("--commit", required=True, help="the commit it is, named in the file")
    args = parser.parse_args()
    command = shlex.split(args.erratlas)
    golden = json.loads((HERE / "python_outputs.json").read_text())
    with tempfile.TemporaryDirectory() as work:
        for name, make in TREES.items():
            root = make(Path(work) / name / "input")
            out = Path(work) / name / "scan"
            jobs = ("--jobs", JOBS[name]) if JOBS[name] else ()
            # from an empty directory: `python -c` puts the current directory first on sys.path
            subprocess.run([*command, "scan", str(root), "--out", str(out), *jobs], check=True, cwd=work)
            summary = json.loads((out / "error-diagnostic-owner-summary.json").read_text())
            files = {p.relative_to(out).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
                     for p in sorted(out.rglob("*")) if p.is_file()}
            golden["trees"][name] = {"bundle": summary["inputs"]["bundle"], "files": files}
    golden["about"] = (
        "sha256 of every output file of `erratlas scan TREE --out DIR` for real Python trees, recorded with "
        f"erratlas at commit {args.commit} (tests/golden/record_python_outputs.py), the scan's default --jobs "
        "(requests: --jobs 1); `bundle` is the input as that summary names it (a tree whose bundle sha256 "
        "differs, another pip or Python, is not compared)")
    (HERE / "python_outputs.json").write_text(json.dumps(golden, indent=2, sort_keys=False) + "\n")


if __name__ == "__main__":
    main()
