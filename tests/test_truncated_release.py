"""Mutants of a real release: claude-code 2.1.100's cli.js cut short, as a failed download
leaves it (issue 13). Every cut scans or is refused with one line; a cut that scans flags the
region the parser recovered at the cut, and its callsites before the cut are the full scan's
callsites at the same offsets, with the same facts (only what depends on code past the cut,
fingerprints and module membership, may differ).

The bounded run cuts at 50%, at 90% and at 5 random offsets (seed 13); CI runs the cut at 50%
and the first random one, the other 5 are marked `long` (`pytest -m long` runs them);
`ERRATLAS_FUZZ_LONG=1` cuts at 50 random offsets (seed 13) instead. The uncut scan is the
session's (`release_scan`).
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any

import pytest
from conftest import SUMMARY, records, run
from support import npm_cache

from analyzer.javascript.syntax import parse

pytestmark = [pytest.mark.network, pytest.mark.slow]

PACKAGE, VERSION = "@anthropic-ai/claude-code", "2.1.100"
SEED = 13
LONG = bool(os.environ.get("ERRATLAS_FUZZ_LONG"))
#: the facts of a callsite that code past the cut cannot change
FACTS = ("id", "kind", "offset", "endOffset", "line", "column", "constructor", "form", "callee", "calleeRole",
         "argCount", "message", "level", "levelSource", "levelCandidates")
#: and those of a callsite outside the recovered region (inside it, an enclosing function the
#: cut leaves open is no function to the parser: its scope and consumer are what it recovered)
STRUCTURE = ("scope", "consumer")


def _cuts(size: int) -> list[Any]:
    """Where to cut, as shares of the file. Every cut checks the same property at another place,
    and a scan costs in proportion to what is left: CI cuts at 50% (thousands of callsites on
    each side) and at one seeded random offset (a place no one chose); the others are `long`."""
    rng = random.Random(SEED)
    randoms = [rng.randrange(1, size) / size for _ in range(50 if LONG else 5)]
    if LONG:
        return randoms
    return [0.5, randoms[0], *(pytest.param(share, marks=pytest.mark.long) for share in (0.9, *randoms[1:]))]


@pytest.fixture(scope="module")
def release() -> Path:
    return npm_cache.main_file(PACKAGE, VERSION)


@pytest.fixture(scope="module")
def full(release_scan) -> tuple[dict[str, Any], dict[tuple[str, int], Any]]:  # type: ignore[no-untyped-def]
    """The uncut release: the session's scan (shared with the other tests of 2.1.100)."""
    out = release_scan(PACKAGE, VERSION)
    summary = json.loads((out / SUMMARY).read_text())
    sites: dict[tuple[str, int], Any] = {
        (r["kind"], r["offset"]): r for kind in ("error", "diagnostic") for r in records(out, kind)}  # type: ignore[misc]
    return summary, sites


@pytest.mark.parametrize("share", _cuts(13_000_000), ids=lambda share: f"{share:.4f}")
def test_a_cut_release_scans_with_the_callsites_before_the_cut(
    release: Path, full: tuple[dict[str, Any], dict[tuple[str, int], Any]], tmp_path: Path, share: float
) -> None:
    """One cut (`_cuts`: CI runs 2 of the 7 bounded places; each cut is checked in full, and what
    a cut can break does not depend on how many other places are cut)."""
    source = release.read_bytes()
    cut = int(len(source) * share)
    while cut > 0 and (source[cut] & 0xC0) == 0x80:
        cut -= 1  # a failed download ends anywhere; keep the bytes valid UTF-8 (else: refused, exit 2)
    truncated = tmp_path / "cli.js"
    truncated.write_bytes(source[:cut])
    result = run("scan", truncated, "--out", tmp_path / "out")
    if result.returncode == 2:  # refused cleanly: one line naming the file
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith(f"erratlas: error: {truncated}: "), result.stderr
        return
    assert result.returncode == 0, result.stderr
    summary = json.loads((tmp_path / "out" / SUMMARY).read_text())
    assert all(row["holds"] for row in summary["invariants"])
    regions = summary["errorRegions"]
    # a cut can leave valid code (`...}v` ends with the statement `v`): then nothing was recovered
    assert regions["count"] >= 1 or not parse(source[:cut]).root_node.has_error
    full_summary, full_sites = full
    ours: dict[tuple[str, int], Any] = {
        (r["kind"], r["offset"]): r for kind in ("error", "diagnostic") for r in records(tmp_path / "out", kind)}  # type: ignore[misc]
    same_logger = summary["loggers"][0]["declaration"] == full_summary["loggers"][0]["declaration"]
    if not same_logger:  # the logger's evidence lies past the cut: no logger, no diagnostics, never another one
        assert summary["loggers"][0]["name"] is None, summary["loggers"][0]
        assert not any(kind == "diagnostic" for kind, _ in ours)
    wanted = {key: site for key, site in full_sites.items()
              if site["endOffset"] <= cut and (same_logger or site["kind"] == "error")}
    missing = sorted(set(wanted) - set(ours))
    assert not missing, f"{len(missing)} callsites before the cut at {cut} lost, first {missing[:5]}"
    invented = sorted(key for key in ours if key not in full_sites)
    assert not invented, f"callsites the full scan does not have: {invented[:5]}"
    differing = [
        (key, {f: (ours[key][f], wanted[key][f]) for f in fields if ours[key][f] != wanted[key][f]})
        for key in wanted
        for fields in [FACTS if ours[key]["context"]["inErrorRegion"] else FACTS + STRUCTURE]
        if any(ours[key][f] != wanted[key][f] for f in fields)
    ]
    assert not differing, differing[:3]
    straddling = [key for key in ours if key not in wanted]  # begun before the cut, ended past it
    assert all(ours[key]["context"]["inErrorRegion"] for key in straddling)
