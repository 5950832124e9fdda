"""What the benches of the sliced extraction share (docs/slices.md): their arguments (an npm
package's main file, cached and checked, or `--target`; the cut count; the rounds) and the unit
they read, the bundle's largest, as the scan loads it."""

from __future__ import annotations

import argparse
import pathlib
import sys

REPOSITORY = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPOSITORY / "tests"))
sys.path.insert(0, str(REPOSITORY))

from support import npm_cache

from analyzer.bundle.load import load_bundle
from analyzer.model import Unit


def arguments(rounds: int = 5) -> argparse.ArgumentParser:
    """A parser with the arguments every such bench takes; a bench adds its own."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--package", default="@anthropic-ai/claude-code")
    parser.add_argument("--version", default="2.1.100")
    parser.add_argument("--target", type=pathlib.Path)
    parser.add_argument("--slices", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=rounds)
    return parser


def largest_unit(args: argparse.Namespace) -> Unit:
    """The largest unit of the bundle the arguments name."""
    units, _ = load_bundle(args.target or npm_cache.main_file(args.package, args.version))
    return max(units, key=lambda u: len(u.source))
