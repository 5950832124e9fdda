"""bench/eslint_handlers.py on its fixture (fixtures/eslint/): ESLint 9 (pinned in
fixtures/package.json) on the original sources is the oracle, erratlas reads the esbuild and
terser bundles, and the two agree site by site, with every difference explained
(docs/reference.md, "Checked against ESLint")."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest
from conftest import FIXTURES, ROOT

HERE = FIXTURES / "eslint"
BUNDLES = ("app.min.js", "app.terser.min.js")


@pytest.fixture(scope="module")
def compared(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    assert (FIXTURES / "node_modules" / ".bin" / "eslint").exists(), "run `npm ci --ignore-scripts` in fixtures/"
    out = tmp_path_factory.mktemp("eslint") / "compared.json"
    bundles = [a for name in BUNDLES for a in ("--bundle", str(HERE / "built" / name))]
    result = subprocess.run([sys.executable, str(ROOT / "bench" / "eslint_handlers.py"), "--tree", str(HERE / "src"),
                             *bundles, "--json", str(out)], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    return dict(json.loads(out.read_text(encoding="utf-8")))


def _sites(found: list[list[str]], rule: str) -> set[str]:
    return {where for kind, where in found if kind == rule}


@pytest.mark.parametrize("bundle", BUNDLES)
def test_erratlas_on_the_bundle_finds_what_eslint_finds_on_the_sources(compared: dict[str, Any], bundle: str) -> None:
    result = compared[bundle]
    assert result["missed"] == [] and result["unplaced"] == []  # else `dropped` could hide a miss
    eslint = {tuple(k) for k in result["eslint"]}
    erratlas = {tuple(k) for k in result["erratlas"]} - {tuple(k) for k in result["aside"]}
    assert eslint == erratlas and result["matched"] == len(eslint) == 16
    # new Error(err) keeps only the error's text: ESLint flags it, and erratlas says `partial`
    assert "wraps.js:23:5" in _sites(result["erratlas"], "preserve-caught-error")
    # a rethrow after other work (`cleanup(); throw err`, minified `throw c(),r`) is no useless catch
    assert _sites(result["eslint"], "no-useless-catch") == {"rethrows.js:6:5", "rethrows.js:14:5"}
    assert _sites(result["erratlas"], "no-useless-catch") == {"rethrows.js:6:5", "rethrows.js:14:5"}
    # requireCatchParameter: a clause without parameter that throws a new error is ESLint's too
    assert "wraps.js:125:5" in _sites(result["eslint"], "preserve-caught-error")
    assert len(_sites(result["eslint"], "no-empty")) == 4


@pytest.mark.parametrize("bundle", BUNDLES)
def test_each_difference_is_definitional_and_says_why(compared: dict[str, Any], bundle: str) -> None:
    result = compared[bundle]
    differences = {(rule, where): (kind, reason) for rule, where, kind, reason in result["differences"]}
    assert {kind for kind, _ in differences.values()} == {"definitional"}
    assert sorted(w for _, w in differences) == ["empties.js:28:5", "wraps.js:133:5", "wraps.js:142:7",
                                                 "wraps.js:151:5", "wraps.js:160:5"]
    assert "only a comment" in differences["no-empty", "empties.js:28:5"][1]
    # dead.js is not imported; index.js's catch under `if (false)` is dropped from a bundled file
    assert sorted(a.split()[1] for a in result["absent"]) == ["dead.js:12:5", "dead.js:6:5"]
    assert result["dropped"] == ["no-empty index.js:11:7"]
