"""bench/eslint_handlers.py on its fixture (fixtures/eslint/): ESLint 9 (pinned in
fixtures/package.json) on the original sources is the oracle, erratlas reads the esbuild and
terser bundles, and the two agree site by site, with every difference explained
(docs/reference.md, "Checked against ESLint")."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import FIXTURES, ROOT, run, scan

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
    eslint = {tuple(k) for k in result["eslint"]} - {tuple(k) for k in result["asideEslint"]}
    erratlas = {tuple(k) for k in result["erratlas"]} - {tuple(k) for k in result["aside"]}
    assert eslint == erratlas and result["matched"] == len(eslint) == 19
    # a built-in error reads its options' `cause` only: `{error: err}` loses it, both say
    assert "wraps.js:197:5" in _sites(result["erratlas"], "preserve-caught-error")
    # new Error(err) keeps only the error's text: ESLint flags it, and erratlas says `partial`
    assert "wraps.js:23:5" in _sites(result["erratlas"], "preserve-caught-error")
    # options in a local that holds the caught value (`const options = {cause: err}`) keep it: neither flags
    assert "wraps.js:169:5" not in _sites(result["erratlas"], "preserve-caught-error") | _sites(
        result["eslint"], "preserve-caught-error")
    # a rethrow after other work (`cleanup(); throw err`, minified `throw c(),r`) is no useless catch
    assert _sites(result["eslint"], "no-useless-catch") == {"rethrows.js:6:5", "rethrows.js:14:5"}
    # and a body the minifiers make `throw e` alone (`{ throw err }`, `const again = err; throw again`)
    # is useless as shipped: erratlas's, set aside (below)
    assert _sites(result["erratlas"], "no-useless-catch") == {"rethrows.js:6:5", "rethrows.js:14:5",
                                                              "rethrows.js:58:5", "rethrows.js:68:5"}
    # a built-in error thrown after a class of the package's own: one `wrap`, its callee the class, the
    # `Error` among its callsites
    lines = (HERE / "src" / "wraps.js").read_text().splitlines()
    at = next(i for i, t in enumerate(lines) if "wrapsABuiltinAfterAClassOfItsOwn" in t)
    line = 1 + lines.index("  } catch (err) {", at)
    assert f"wraps.js:{line}:5" in _sites(result["eslint"], "preserve-caught-error") & _sites(
        result["erratlas"], "preserve-caught-error")
    # requireCatchParameter: a clause without parameter that throws a new error is ESLint's too
    assert "wraps.js:125:5" in _sites(result["eslint"], "preserve-caught-error")
    # an empty body in a loop that the protected block leaves on success is a `retry`: empty all the same
    assert len(_sites(result["eslint"], "no-empty")) == 5
    assert "empties.js:71:7" in _sites(result["erratlas"], "no-empty")


@pytest.mark.parametrize("bundle", BUNDLES)
def test_each_difference_is_definitional_and_says_why(compared: dict[str, Any], bundle: str) -> None:
    result = compared[bundle]
    differences = {(rule, where): (kind, reason) for rule, where, kind, reason in result["differences"]}
    assert {kind for kind, _ in differences.values()} == {"definitional"}
    # a new error thrown through a local or from an arm of `?:`: ESLint reads `throw new X()` only
    # and options the rule does not read (`new Error(m, options)`, `{...extra}`), the caught value in none
    # (`new Error(m, err)` too: its cause is err's `cause`, not err)
    assert sorted(w for _, w in differences) == ["rethrows.js:58:5", "rethrows.js:68:5", "wraps.js:151:5",
                                                 "wraps.js:160:5", "wraps.js:180:5", "wraps.js:188:5",
                                                 "wraps.js:207:5", "wraps.js:217:5"]
    # and on ESLint's side, left out of recall: the cause through `const error = err`, which the
    # rule compares by name and erratlas follows (`kept`)
    assert result["asideEslint"] == [["preserve-caught-error", "wraps.js:217:5"]]
    assert "compares the name" in differences["preserve-caught-error", "wraps.js:217:5"][1]
    assert "lone `throw e`" in differences["no-useless-catch", "rethrows.js:68:5"][1]
    assert "through a local" in differences["preserve-caught-error", "wraps.js:151:5"][1]
    assert "does not read (a name, a spread)" in differences["preserve-caught-error", "wraps.js:180:5"][1]
    # dead.js is not imported; index.js's catch under `if (false)` is dropped from a bundled file
    assert sorted(a.split()[1] for a in result["absent"]) == ["dead.js:12:5", "dead.js:6:5"]
    assert result["dropped"] == ["no-empty index.js:11:7"]


@pytest.mark.parametrize("bundle", BUNDLES)
def test_the_records_withdraw_what_the_rules_do_not_read(compared: dict[str, Any], bundle: str) -> None:
    """Empty in the bundle, an original body of comments (`// a missing file is fine`, `/* best
    effort */`) or of a statement the minifier removed (`err;`) is no no-empty finding, by the
    handler's `sourceBody`; a new error returned or rejected is no preserve-caught-error one, by
    its callsite's `flow.fate`."""
    withdrawn = {tuple(k) for k in compared[bundle]["withdrawn"]}
    assert withdrawn == {("no-empty", "empties.js:28:5"), ("no-empty", "empties.js:56:5"),
                         ("no-empty", "empties.js:64:5"), ("preserve-caught-error", "wraps.js:133:5"),
                         ("preserve-caught-error", "wraps.js:142:7")}
    assert not withdrawn & {tuple(k) for k in compared[bundle]["eslint"]}


def test_a_finding_on_a_handler_no_map_places_is_unplaced_not_lost(tmp_path: Path) -> None:
    """A catch clause the map says nothing of (code a bundler adds, as esbuild's `__commonJS`
    helper) is on no original clause: when erratlas makes a finding of it, it is listed as
    unplaced, so that precision cannot leave it out unseen; one without a finding is not."""
    shutil.copytree(HERE / "src", tmp_path / "src")
    (tmp_path / "built").mkdir()
    bundle = tmp_path / "built" / "app.min.js"
    written = (HERE / "built" / "app.min.js").read_bytes()
    comment = written.rindex(b"//# sourceMappingURL=")
    helpers = b"function lone(f){try{return f()}catch(q){throw q}}function reset(f){try{f()}catch(q){throw q=0,q}}\n"
    bundle.write_bytes(written[:comment] + helpers + written[comment:])  # a line the map has no mapping on
    (tmp_path / "built" / "app.min.js.map").write_bytes((HERE / "built" / "app.min.js.map").read_bytes())
    out = tmp_path / "compared.json"
    result = subprocess.run([sys.executable, str(ROOT / "bench" / "eslint_handlers.py"), "--tree",
                             str(tmp_path / "src"), "--bundle", str(bundle), "--json", str(out)],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    (unplaced,) = json.loads(out.read_text(encoding="utf-8"))["app.min.js"]["unplaced"]
    assert unplaced == f"h:app.min.js@{comment + helpers.index(b'catch')} -> no origin"  # `lone`, not `reset`


def _source_bodies(out: Path) -> dict[int, str | None]:
    """`sourceBody` of the scan's catch handlers of empties.js, by original line (absent: "-")."""
    handlers = [json.loads(line) for line in (out / "handlers.jsonl").read_text(encoding="utf-8").splitlines()]
    return {h["line"] if h["origin"] is None else h["origin"]["line"]: h.get("sourceBody", "-")
            for h in handlers if h["form"] == "catch" and (h["origin"] is None or "empties" in h["origin"]["source"])}


@pytest.mark.parametrize("bundle", BUNDLES)
def test_a_mapped_bundle_says_what_each_empty_catch_body_held_in_the_original(tmp_path: Path, bundle: str) -> None:
    scan(HERE / "built" / bundle, tmp_path / "out")
    bodies = _source_bodies(tmp_path / "out")
    # empty (with and without parameter, before `finally`, in a loop), commented, code removed,
    # and null for a body that is not empty in the bundle (`state.failed = true`)
    assert bodies == {7: "empty", 13: "empty", 19: "empty", 28: "comments", 36: None, 49: "empty", 56: "code",
                      64: "comments", 71: "empty"}
    handlers = [json.loads(line) for line in (tmp_path / "out" / "handlers.jsonl").read_text().splitlines()]
    commented = next(h["id"] for h in handlers if h.get("sourceBody") == "comments")
    told = run("explain", tmp_path / "out", commented)
    assert told.returncode == 0 and "commented in the source" in told.stdout  # where a reviewer reads it


def test_without_a_map_or_its_text_the_record_has_no_source_body(tmp_path: Path) -> None:
    alone = tmp_path / "alone"
    alone.mkdir()
    (alone / "app.min.js").write_bytes((HERE / "built" / "app.min.js").read_bytes())
    scan(alone / "app.min.js", tmp_path / "bare")
    handlers = (tmp_path / "bare" / "handlers.jsonl").read_text(encoding="utf-8")
    assert '"origin":null' in handlers and "sourceBody" not in handlers  # no map: no origin, no field
    textless = tmp_path / "textless"
    textless.mkdir()
    (textless / "app.min.js").write_bytes((HERE / "built" / "app.min.js").read_bytes())
    document = json.loads((HERE / "built" / "app.min.js.map").read_text(encoding="utf-8"))
    (textless / "app.min.js.map").write_text(json.dumps({**document, "sourcesContent": None}), encoding="utf-8")
    scan(textless / "app.min.js", tmp_path / "out")
    assert set(_source_bodies(tmp_path / "out").values()) == {None}  # placed, and nothing to read


def test_the_two_bundles_read_each_clause_alike(compared: dict[str, Any]) -> None:
    """The same sources minified by esbuild and by terser: every clause both place gets the same
    dispositions (a difference is a misreading of one minifier's shape)."""
    agree = compared["bundlersAgree"][" / ".join(BUNDLES)]
    assert agree["both"] >= 10
    assert agree["differ"] == []


def test_compiled_catches_are_counted_apart_and_those_left_out_listed(tmp_path: Path) -> None:
    """Original files that are themselves ES5 output (TypeScript's `__generator`) hold no catch
    clause where an async function's `try` was: erratlas's compiled catches there are counted apart,
    none unplaced, and the compiled catch cases no handler is on are listed (the fixture's four that
    read the machine's temporaries or retry, and `elseChain`, whose jumps esbuild folds into `return c
    ? [3, 3] : (a, [3, 5])`: docs/reference.md, "Compiled catch clauses")."""
    (tmp_path / "src").mkdir()
    shutil.copy(FIXTURES / "es5-async" / "typescript.js", tmp_path / "src" / "handlers.js")
    bundle = tmp_path / "built" / "app.min.js"
    subprocess.run([str(FIXTURES / "node_modules" / ".bin" / "esbuild"), str(tmp_path / "src" / "handlers.js"),
                    "--bundle", "--minify", "--sourcemap", "--format=esm", "--log-level=error", f"--outfile={bundle}"],
                   check=True, timeout=60)
    out = tmp_path / "compared.json"
    result = subprocess.run([sys.executable, str(ROOT / "bench" / "eslint_handlers.py"), "--tree",
                             str(tmp_path / "src"), "--bundle", str(bundle), "--json", str(out)],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    compared = json.loads(out.read_text(encoding="utf-8"))["app.min.js"]
    assert len(compared["compiled"]) == 21 and compared["unplaced"] == []
    text = (tmp_path / "src" / "handlers.js").read_text(encoding="utf-8").splitlines()
    functions = [next(line for line in reversed(text[:int(where.rsplit(":", 1)[1])]) if line.startswith("export "))
                 for where in compared["compiledLeft"]]
    assert [f.split("(")[0].split()[-1] for f in functions] == ["elseChain", "awaitedPassedOn", "temporaries",
                                                                         "retries", "innerLeftOut"]


@pytest.mark.parametrize("before", ["", 'var greeting = "Grüße, ¡hola! \U0001F600";'], ids=["ascii", "non-ascii"])
def test_compiled_catches_of_a_minified_original_are_told_apart_by_column(tmp_path: Path, before: str) -> None:
    """An original that ships minified (Babel's runtime, one line: `case 2:throw n.p=2,t=n.v,...`, as
    @okta/okta-auth-js's `umd/default.js`) holds its compiled catch cases on one line: each is named by
    its line and column, counted once, and those no handler is on are listed. The columns count code
    points, as the map's do, with text that is not ASCII before them on the line (contentful's
    `dist/contentful.node.min.js`)."""
    (tmp_path / "src").mkdir()
    written = (FIXTURES / "es5-async" / "babel.terser.min.js").read_text(encoding="utf-8")
    (tmp_path / "src" / "handlers.js").write_text(before + written, encoding="utf-8")
    bundle = tmp_path / "built" / "app.min.js"
    subprocess.run([str(FIXTURES / "node_modules" / ".bin" / "esbuild"), str(tmp_path / "src" / "handlers.js"),
                    "--bundle", "--minify", "--sourcemap", "--format=esm", "--log-level=error", f"--outfile={bundle}"],
                   check=True, timeout=60)
    out = tmp_path / "compared.json"
    result = subprocess.run([sys.executable, str(ROOT / "bench" / "eslint_handlers.py"), "--tree",
                             str(tmp_path / "src"), "--bundle", str(bundle), "--json", str(out)],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    compared = json.loads(out.read_text(encoding="utf-8"))["app.min.js"]
    assert len(compared["compiled"]) == 21 and compared["unplaced"] == []
    assert len(compared["compiledLeft"]) == 5
    assert all(re.fullmatch(r"handlers\.js:1:\d+", w) for w in [*compared["compiled"], *compared["compiledLeft"]])
