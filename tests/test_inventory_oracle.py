"""The inventory of bundles of other bundlers against ast-grep, site by site.

tests/test_real_bundles.py checks the Claude Code releases; this runs the same comparison
(`bench/inventory_vs_astgrep.py`: erratlas's error and logger sites among ast-grep's, ast-grep's
others as many as the summary's `shadowed` names) on pinned bundles of five other bundlers,
through the installed `erratlas`. The bench reads any bundle; its run over 207 files is quoted
in docs/reference.md ("Checked against ast-grep").
"""

from __future__ import annotations

import subprocess
import sys

import pytest
from conftest import ROOT
from support import npm_cache

pytestmark = [pytest.mark.network, pytest.mark.slow]

#: (package, version): uglify-js, webpack 5 ES module, esbuild IIFE, browserify UMD (4.8 MB: read in
#: slices), Babel's ES5 regenerator output
BUNDLES = [("xlsx", "0.18.5"), ("pdfjs-dist", "5.6.205"), ("mermaid", "11.17.2"), ("plotly.js-dist-min", "4.1.2"),
           ("axios", "1.7.9")]


@pytest.mark.parametrize(("package", "version"), BUNDLES, ids=[f"{p}@{v}" for p, v in BUNDLES])
def test_error_and_logger_sites_equal_ast_grep_minus_local_bindings(package: str, version: str) -> None:
    bundle = npm_cache.main_file(package, version)
    done = subprocess.run([sys.executable, str(ROOT / "bench" / "inventory_vs_astgrep.py"), str(bundle)],
                          capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.rstrip().endswith("1 bundle: 1 agree, 0 disagree, 0 not scanned"), done.stdout
    (row,) = [line for line in done.stdout.splitlines()[2:] if line.startswith("| ")]
    sites = int(row.split("|")[3].replace(",", ""))
    assert sites > 0, row  # a bundle whose sites the comparison read
