"""The flow reports (docs/reference.md, "The flow pages", "SARIF", "The gate"; docs/owners.md,
"Handlers"): handlers owned like the code they sit in, the index's flow pages, `explain` of a
handler and of a callsite's flow, the opt-in SARIF flow rules, and the gate's
--max-new-swallowed / --max-new-lost-cause against a baseline. Driven through the CLI on
fixtures/flow (one exported function per handler case) and fixtures/flow-gate (a product's
baseline and head: head adds a silent `catch {}` and a wrap that loses its cause)."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from conftest import FIXTURES, ROOT, SUMMARY, run, scan
from test_index_pages import check_index
from test_sarif import validate_official, validate_with_multitool

from analyzer.reports.flow import handler_anchors

FLOW = FIXTURES / "flow" / "src" / "flow.js"
PAIR = FIXTURES / "flow-gate"
ALLOWLIST = PAIR / "product.toml"
OWNERS = "handler-owner-projection.jsonl"


def _lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _summary(out: Path) -> dict[str, Any]:
    summary: dict[str, Any] = json.loads((out / SUMMARY).read_text(encoding="utf-8"))
    return summary


@pytest.fixture(scope="module")
def flow(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("flow-reports") / "scan"
    scan(FLOW, out)
    return out


@pytest.fixture(scope="module")
def pair(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The baseline and the head scanned with the product's allowlist (recorded relative to ROOT)."""
    base = tmp_path_factory.mktemp("flow-gate")
    outs = {}
    for version in ("baseline", "head"):
        outs[version] = base / version
        result = run("scan", PAIR / version / "app.js", "--out", outs[version], "-a",
                     ALLOWLIST.relative_to(ROOT), cwd=ROOT)
        assert result.returncode == 0, result.stderr
    return outs


def _handler(out: Path, case: str) -> dict[str, Any]:
    (found,) = [h for h in _lines(out / "handlers.jsonl") if h["scope"]["function"] == case]
    return found


# ---- projection ------------------------------------------------------------------------------------


def test_a_references_root_owns_the_handlers_it_reaches_and_counts_by_owner_sum_to_the_total(
        pair: dict[str, Path]) -> None:
    head = pair["head"]
    rows = _lines(head / OWNERS)
    handlers = _lines(head / "handlers.jsonl")
    assert [r["id"] for r in rows] == [h["id"] for h in handlers]
    assert {r["owner"] for r in rows} == {"Product"}
    assert {r["evidence"]["level"] for r in rows} == {"references"}
    owners = _summary(head)["handlerOwners"]
    assert sum(owners["total"].values()) == len(handlers) == _summary(head)["handlers"]["count"]
    named = {i["name"]: i["holds"] for i in _summary(head)["invariants"]}
    assert named["owners: handlers Product + Dependency + Unresolved == handler total"] is True


def test_a_function_entry_owns_the_handlers_of_its_function_and_a_callsite_entry_none(
        flow: Path, tmp_path: Path) -> None:
    out = tmp_path / "scan"
    shutil.copytree(flow, out)
    wrapped = _handler(out, "wrapsKeepingCause")  # its function holds the wrap's callsite
    callsite = wrapped["branches"][0]["dispositions"][0]["callsites"][0]
    caught = _handler(out, "throwsALocal")
    source = caught["sources"][0]["id"]
    allowlist = tmp_path / "a.toml"
    common = ("--reason", "r", "--reviewer", "t", "--on", "2026-12-03")
    assert run("allow", out, callsite, "-a", allowlist, "--owner", "Product", "--function", *common).returncode == 0
    assert run("allow", out, source, "-a", allowlist, "--owner", "Product", *common).returncode == 0
    assert run("project", out, "-a", allowlist).returncode == 0
    owner = {r["id"]: r for r in _lines(out / OWNERS)}
    assert owner[wrapped["id"]]["owner"] == "Product"
    assert owner[wrapped["id"]]["evidence"]["level"] == "function"
    assert owner[caught["id"]]["owner"] == "Unresolved"  # its source's callsite entry owns the callsite alone
    total = _summary(out)["handlerOwners"]["total"]
    assert total == {"Product": 1, "Dependency": 0, "Unresolved": len(owner) - 1}


#: an esbuild-shaped bundle of two modules: src/quiet.js catches errors and makes none
_TWO_MODULES = """var __getOwnPropNames = Object.getOwnPropertyNames;
var __commonJS = (cb, mod) => function __require() {
  return mod || (0, cb[__getOwnPropNames(cb)[0]])((mod = { exports: {} }).exports, mod), mod.exports;
};
var require_quiet = __commonJS({
  "src/quiet.js"(exports, module) {
    module.exports = function readSettings(text) {
      try {
        return JSON.parse(text);
      } catch {
      }
      return {};
    };
  }
});
var require_loud = __commonJS({
  "src/loud.js"(exports, module) {
    module.exports = function fail(what) {
      throw new Error("cannot " + what);
    };
  }
});
require_quiet()("{}");
require_loud()("start");
"""


def test_an_entry_that_owns_only_handlers_is_not_stale(tmp_path: Path) -> None:
    bundle = tmp_path / "bundle.js"
    bundle.write_text(_TWO_MODULES, encoding="utf-8")
    out = tmp_path / "scan"
    scan(bundle, out)
    (quiet,) = [m for m in _lines(out / "modules.jsonl") if m["name"] == "src/quiet.js"]
    assert quiet["callsites"] == {"error": 0, "diagnostic": 0}
    allowlist = tmp_path / "a.toml"
    allowlist.write_text('schema = "erratlas.allowlist/1"\n' + "".join(
        f'\n[[entry]]\nmatch = {{ module = "{fingerprint}" }}\nowner = "Product"\nreason = "r"\n'
        'reviewedBy = "t"\nreviewedOn = 2026-12-03\n'
        for fingerprint in (quiet["fingerprint"], "fp1m:" + "0" * 32)), encoding="utf-8")
    assert run("project", out, "-a", allowlist).returncode == 0
    (row,) = _lines(out / OWNERS)
    assert row["owner"] == "Product" and row["evidence"]["entry"].endswith("a.toml:3")
    stale = _summary(out)["stale"]
    assert [entry["fingerprint"] for entry in stale] == ["fp1m:" + "0" * 32]  # the entry that owns nothing
    gate = run("gate", out)
    assert gate.returncode == 1
    assert [line for line in gate.stdout.splitlines() if line.startswith("FAIL")] == [
        f"FAIL stale allowlist entry {stale[0]['entry']}: module fp1m:{'0' * 32} matches nothing"]
    pruned = run("prune", out, "-a", allowlist)
    assert pruned.returncode == 0 and "removed 1 stale entries" in pruned.stderr
    assert quiet["fingerprint"] in allowlist.read_text(encoding="utf-8")
    assert "fp1m:" + "0" * 32 not in allowlist.read_text(encoding="utf-8")


# ---- the index's flow pages ----------------------------------------------------------------------------


@pytest.mark.parametrize("which", ["flow", "head"])
def test_flow_pages_render_and_every_link_resolves(flow: Path, pair: dict[str, Path], which: str) -> None:
    out = flow if which == "flow" else pair["head"]
    assert check_index(out) > 0
    index = (out / "error-diagnostic-owner-index.md").read_text(encoding="utf-8")
    assert "## Flow: where errors are caught" in index and "(index/flow.md)" in index
    overview = (out / "index" / "flow.md").read_text(encoding="utf-8")
    if which == "flow":  # head's handlers catch no inventoried error directly: no chart to draw
        assert "```mermaid\nflowchart LR\n" in overview
        assert '  s0["Unresolved - Error"]' in overview and "-->|" in overview


def test_the_field_to_decision_table_counts_the_handlers_of_each_test(flow: Path) -> None:
    table = (flow / "index" / "flow-tests-01.md").read_text(encoding="utf-8")
    row = next(line for line in table.splitlines() if line.startswith('| e.code === "ENOENT" |'))
    assert row.split(" | ")[1:4] == ["2", "0 / 0 / 2", "return-value ×2"]
    assert row.count("](flow-handlers-01.md#h-flow-js-") == 2  # each handler at its anchor


def test_the_product_page_lists_the_handlers_that_swallow_or_lose_a_cause(pair: dict[str, Path]) -> None:
    page = (pair["head"] / "index" / "flow-product-01.md").read_text(encoding="utf-8")
    flagged = [h for h in _lines(pair["head"] / "handlers.jsonl")
               if any(d["kind"] == "swallow" or d["cause"] == "lost" for b in h["branches"] for d in b["dispositions"])]
    assert len(flagged) == 4
    for handler in flagged:
        assert handler["fingerprint"] in page


# ---- explain -------------------------------------------------------------------------------------------


def test_explain_tells_a_handler(pair: dict[str, Path]) -> None:
    handler = _handler(pair["head"], "writeCache")
    result = run("explain", pair["head"], handler["id"], cwd=ROOT)
    assert result.returncode == 0, result.stderr
    assert "param     none" in result.stdout
    assert "branch 1  test none (else, or the whole body): swallow" in result.stdout
    assert "findings  swallowed-error" in result.stdout
    assert "Owner: Product" in result.stdout
    assert "references entry fixtures/flow-gate/product.toml:7 fp1b:" in result.stdout
    by_fingerprint = run("explain", pair["head"], handler["fingerprint"], cwd=ROOT)
    assert by_fingerprint.stdout == result.stdout
    missing = run("explain", pair["head"], "h:app.js@1")
    assert missing.returncode == 2 and "no handler with id" in missing.stderr


def test_explain_tells_the_handler_that_catches_a_callsite_and_the_lines_it_writes(flow: Path) -> None:
    caught = _handler(flow, "throwsALocal")
    told = run("explain", flow, caught["sources"][0]["id"]).stdout
    assert f"caught by  {caught['id']} (catch, " in told
    logs = _handler(flow, "logs")
    written = logs["branches"][0]["dispositions"][0]["callsites"][0]
    told = run("explain", flow, logs["id"]).stdout
    assert f"({written})" in told and "  writes" in told


# ---- SARIF ------------------------------------------------------------------------------------------


def _sarif(out: Path, *extra: str) -> dict[str, Any]:
    result = run("sarif", out, *extra, cwd=ROOT)
    assert result.returncode == 0, result.stderr
    log: dict[str, Any] = json.loads(result.stdout)
    return log["runs"][0]


def test_the_flow_rules_are_off_by_default_and_on_with_flow(pair: dict[str, Path], tmp_path: Path) -> None:
    off = _sarif(pair["head"])
    assert {r["id"] for r in off["tool"]["driver"]["rules"]}.isdisjoint(
        {"swallowed-error", "wrap-loses-cause", "useless-catch"})
    on = _sarif(pair["head"], "--flow")
    assert [r["id"] for r in on["tool"]["driver"]["rules"]][-3:] == [
        "swallowed-error", "wrap-loses-cause", "useless-catch"]
    flagged = sorted((r["ruleId"], r["partialFingerprints"]["erratlasHandler/v1"]) for r in on["results"]
                     if r["ruleId"] in ("swallowed-error", "wrap-loses-cause"))
    assert [rule for rule, _ in flagged] == ["swallowed-error"] * 2 + ["wrap-loses-cause"] * 2
    before = {r["partialFingerprints"]["erratlasHandler/v1"] for r in _sarif(pair["baseline"], "--flow")["results"]
              if "erratlasHandler/v1" in r["partialFingerprints"]}
    assert len(before) == 2 and before < {fingerprint for _, fingerprint in flagged}  # stable across releases
    written = tmp_path / "flow.sarif"
    written.write_text(json.dumps({"$schema": "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/"
                                   "sarif-schema-2.1.0.json", "version": "2.1.0", "runs": [on]}), encoding="utf-8")
    validate_official(json.loads(written.read_text(encoding="utf-8")))
    validate_with_multitool(written, tmp_path)


def test_useless_catch_is_a_body_of_the_rethrow_alone(tmp_path: Path) -> None:
    """ESLint's no-useless-catch: `catch (e) { throw e }`, not `catch (e) { cleanup(); throw e }`
    nor its minified `throw cleanup(), e`."""
    bundle = tmp_path / "rethrows.js"
    bundle.write_text("function cleanup() {}\n"
                      "function alone(f) { try { return f(); } catch (e) { throw e; } }\n"
                      "function afterWork(f) { try { return f(); } catch (e) { cleanup(); throw e; } }\n"
                      "function minified(f) { try { return f(); } catch (e) { throw cleanup(), e; } }\n"
                      "function arrow(p) { return p.catch((e) => { throw e; }); }\n"
                      "function named(p) { return p.catch(cleanup); }\n"
                      "module.exports = { alone, afterWork, minified, arrow, named };\n", encoding="utf-8")
    out = tmp_path / "scan"
    scan(bundle, out)
    told = {h["scope"]["function"]: h for h in _lines(out / "handlers.jsonl")}
    assert {name: h["loneRethrow"] for name, h in told.items()} == {
        "alone": True, "afterWork": False, "minified": False, "arrow": True, "named": False}
    for name in ("afterWork", "minified"):  # the dispositions alone do not say that other code runs
        assert [[d["kind"] for d in b["dispositions"]] for b in told[name]["branches"]] == [["rethrow"]]
    useless = [r["properties"]["id"] for r in _sarif(out, "--flow")["results"] if r["ruleId"] == "useless-catch"]
    assert useless == [told["alone"]["id"], told["arrow"]["id"]]
    assert _summary(out)["handlerOwners"]["findings"]["uselessCatch"]["Unresolved"] == sorted(
        [told["alone"]["fingerprint"], told["arrow"]["fingerprint"]])


# ---- the gate --------------------------------------------------------------------------------------


def _gate(pair: dict[str, Path], *thresholds: str) -> Any:
    return run("gate", pair["head"], "--baseline", pair["baseline"] / SUMMARY, *thresholds, cwd=ROOT)


def test_a_new_silent_catch_in_product_code_fails_the_gate_and_the_old_ones_do_not(pair: dict[str, Path]) -> None:
    failed = _gate(pair, "--max-new-swallowed", "0")
    assert failed.returncode == 1
    (line,) = [line for line in failed.stdout.splitlines() if line.startswith("FAIL")]
    assert "new Product handlers that swallow an error" in line and ": 1 > --max-new-swallowed 0" in line
    assert _handler(pair["head"], "writeCache")["fingerprint"] in line
    assert _gate(pair, "--max-new-swallowed", "1").returncode == 0
    itself = run("gate", pair["baseline"], "--baseline", pair["baseline"] / SUMMARY, "--max-new-swallowed", "0",
                 "--max-new-lost-cause", "0", cwd=ROOT)
    assert itself.returncode == 0, itself.stdout


def test_a_new_wrap_that_loses_its_cause_fails_the_gate(pair: dict[str, Path]) -> None:
    failed = _gate(pair, "--max-new-lost-cause", "0")
    assert failed.returncode == 1 and "whose wrap loses the cause" in failed.stdout
    assert _gate(pair, "--max-new-lost-cause", "1").returncode == 0


def test_the_gates_sarif_lists_the_new_product_handlers_of_a_failed_threshold(pair: dict[str, Path]) -> None:
    result = _gate(pair, "--max-new-swallowed", "0", "--max-new-lost-cause", "1", "--format", "sarif")
    assert result.returncode == 1, result.stderr
    log = json.loads(result.stdout)
    validate_official(log)
    (run_,) = log["runs"]
    assert [r["id"] for r in run_["tool"]["driver"]["rules"]][-3:] == [
        "swallowed-error", "wrap-loses-cause", "useless-catch"]
    new = _handler(pair["head"], "writeCache")
    # the old silent catch and the new lost cause (within its threshold) are not in the failing set
    assert [(r["ruleId"], r["level"], r["properties"]["id"], r["partialFingerprints"]["erratlasHandler/v1"])
            for r in run_["results"]] == [("swallowed-error", "error", new["id"], new["fingerprint"])]
    (notification,) = run_["invocations"][0]["toolExecutionNotifications"]
    assert "--max-new-swallowed 0" in notification["message"]["text"]
    both = json.loads(_gate(pair, "--max-new-swallowed", "0", "--max-new-lost-cause", "0", "--format",
                            "sarif").stdout)["runs"][0]["results"]
    assert [(r["ruleId"], r["properties"]["id"]) for r in both] == [
        ("swallowed-error", new["id"]), ("wrap-loses-cause", _handler(pair["head"], "parseArgs")["id"])]
    passed = _gate(pair, "--max-new-swallowed", "1", "--format", "sarif")
    assert passed.returncode == 0 and json.loads(passed.stdout)["runs"][0]["results"] == []


def test_the_handler_thresholds_need_a_baseline_with_handler_owners(pair: dict[str, Path], tmp_path: Path) -> None:
    alone = run("gate", pair["head"], "--max-new-swallowed", "0", cwd=ROOT)
    assert alone.returncode == 2 and "needs --baseline" in alone.stderr
    old = _summary(pair["baseline"])
    del old["handlerOwners"]
    (tmp_path / SUMMARY).write_text(json.dumps(old), encoding="utf-8")
    refused = run("gate", pair["head"], "--baseline", tmp_path / SUMMARY, "--max-new-swallowed", "0", cwd=ROOT)
    assert refused.returncode == 2 and "has no handlerOwners" in refused.stderr


def test_the_gate_recomputes_the_handlers_owners(pair: dict[str, Path], tmp_path: Path) -> None:
    out = tmp_path / "head"
    shutil.copytree(pair["head"], out)
    rows = out / OWNERS
    changed = rows.read_text(encoding="utf-8").replace('"owner":"Product"', '"owner":"Dependency"', 1)
    rows.write_text(changed, encoding="utf-8")
    summary = _summary(out)
    summary["outputs"][OWNERS] = hashlib.sha256(changed.encode()).hexdigest()  # listed as if the scan wrote it
    (out / SUMMARY).write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    refused = run("gate", out, cwd=ROOT)
    assert refused.returncode == 2
    assert f"{OWNERS}: disagrees with the owners recomputed from the inventory" in refused.stderr


def test_handler_anchors_slug_each_unit_once_as_each_handler_would() -> None:
    """Each unit's part of an anchor is made once a unit: the anchors are those made handler by
    handler, a repeated (unit, offset) made unique in order."""
    units = ["/$bunfs/root/cli", "A b.JS", "!!!", "/$bunfs/root/cli", "A b.JS", "x" * 100]
    handlers = [SimpleNamespace(unit=unit, offset=offset % 3, id=f"h:{unit}@{offset}")
                for offset, unit in enumerate(units * 2)]
    taken: set[str] = set()
    expected = {}
    for handler in handlers:
        wanted = "h-" + (re.sub(r"[^a-z0-9]+", "-", handler.unit.lower()).strip("-")[:80] or "x") + \
            f"-{handler.offset}"
        anchor, number = wanted, 1
        while anchor in taken:
            number += 1
            anchor = f"{wanted}-{number}"
        taken.add(anchor)
        expected[handler.id] = anchor
    assert handler_anchors(handlers) == expected  # type: ignore[arg-type]
