"""A bounded run of bench/slices_fuzz.py through the installed `erratlas`: random programs of the
shapes bundles hold, read whole and in 2, 3 and 4 + seed % 9 slices, write the same files and exit
the same. Seed 232 is the Bun-wrapped program that found a head node's names standing for the
nodes inside it (`normalize.Normalizer.own`); the others are early seeds read in slices (2 and 8
in Bun's wrapper). CI reads 232, 0, 2 and 8 (both layouts); seeds 1, 4 and 5 are `long`."""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

import pytest
from conftest import ROOT, run, tree_bytes

_SPEC = importlib.util.spec_from_file_location("slices_fuzz", ROOT / "bench" / "slices_fuzz.py")
assert _SPEC is not None and _SPEC.loader is not None
FUZZ = importlib.util.module_from_spec(_SPEC)
sys.modules[_SPEC.name] = FUZZ
_SPEC.loader.exec_module(FUZZ)

TRACE = {**os.environ, "ERRATLAS_TRACE": "1"}


def _read(source: Path, out: Path, count: int) -> tuple[int, dict[str, bytes], str]:
    done = run("scan", source, "--out", out, "--jobs", 1, "--slices", count, env=TRACE)
    return done.returncode, tree_bytes(out) if out.exists() else {}, done.stderr


@pytest.mark.parametrize("seed", [232, 0, 2, 8, *(pytest.param(seed, marks=pytest.mark.long) for seed in (1, 4, 5))])
def test_a_random_program_read_in_slices_is_read_as_whole(tmp_path: Path, seed: int) -> None:
    source = tmp_path / "case.js"
    source.write_text(FUZZ.program(seed), encoding="utf-8")
    whole = _read(source, tmp_path / "whole", 1)
    sliced = 0
    for count in FUZZ.cuts(seed):
        status, files, trace = _read(source, tmp_path / f"sliced-{count}", count)
        assert (status, files) == whole[:2], f"seed {seed}, {count} slices"
        sliced += "merged from slices" in trace
    assert sliced  # read in slices at least once, not only whole


def test_the_bench_is_the_generator_that_found_it() -> None:
    """Seed 232 is in Bun's wrapper and declares a logger candidate with a default level."""
    made = FUZZ.program(232)
    assert made.startswith(FUZZ.BUN_HEAD) and "function N(m, o = {level: 'debug'})" in made
