"""Product by reference (`references` entries, docs/references.md), through the CLI: what
propagates, what never does, the evidence chain, and the refusals."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import FIXTURES, SUMMARY, records, run, scan

REFERENCES = FIXTURES / "references"


def owners(out: Path) -> dict[str, dict[str, object]]:
    """Message comparisonKey -> projection row (the fixtures' messages are distinct)."""
    rows = {json.loads(line)["id"]: json.loads(line)
            for line in (out / "error-diagnostic-owner-projection.jsonl").read_text().splitlines()}
    return {
        r["message"]["comparisonKey"]: rows[r["id"]] for kind in ("error", "diagnostic") for r in records(out, kind)
    }


def binding(out: Path, name: str) -> dict[str, object]:
    for line in (out / "references.jsonl").read_text().splitlines():
        for declared in json.loads(line)["declares"]:
            if declared["name"] == name:
                return declared
    raise AssertionError(f"no top-level binding {name}")


def allowlist(path: Path, fingerprint: str, owner: str = "Product", extra: str = "") -> Path:
    package = '\npackage = "dep"' if owner == "Dependency" else ""
    path.write_text(f'''schema = "erratlas.allowlist/1"

[[entry]]
match = {{ references = "{fingerprint}" }}
owner = "{owner}"{package}
function = "L"
reason = "the product's logger"
reviewedBy = "test"
reviewedOn = 2026-12-01
{extra}''')
    return path


@pytest.fixture
def product(tmp_path: Path) -> Path:
    out = tmp_path / "product"
    scan(REFERENCES / "product.js", out)
    return out


def test_the_scan_writes_the_reference_graph(product: Path) -> None:
    summary = json.loads((product / SUMMARY).read_text())
    assert summary["references"]["items"] == 13 and summary["references"]["helpers"] == 1
    assert binding(product, "L")["fingerprint"].startswith("fp1b:")  # the logger may root an entry
    assert binding(product, "__commonJS")["helper"] is True
    lines = [json.loads(line) for line in (product / "references.jsonl").read_text().splitlines()]
    by_declared = {d["name"]: row for row in lines for d in row["declares"]}
    assert by_declared["readConfig"]["references"] == ["L"]
    # the dependency's own `L` and `readConfig` are locals of its wrapper, not references
    assert by_declared["require_dep"]["references"] == ["__commonJS"]


def test_a_root_owns_what_names_it_transitively_and_nothing_below(product: Path, tmp_path: Path) -> None:
    entries = allowlist(tmp_path / "a.toml", binding(product, "L")["fingerprint"])
    result = run("project", product, "-a", entries)
    assert result.returncode == 0, result.stderr
    found = owners(product)
    product_messages = ["reading ${}", "config: no path", "boot failed", "booted", "ensure failed"]
    assert all(found[m]["owner"] == "Product" for m in product_messages), found
    # dependency code, even with a local `L`, and product code that names nothing owned
    assert found["dep: no input"]["owner"] == "Unresolved"
    assert found["leaf: names nothing owned"]["owner"] == "Unresolved"


def test_every_owned_row_carries_its_chain_of_references(product: Path, tmp_path: Path) -> None:
    root = binding(product, "L")["fingerprint"]
    run("project", product, "-a", allowlist(tmp_path / "a.toml", root))
    evidence = owners(product)["ensure failed"]["evidence"]
    assert evidence["level"] == "references" and evidence["fingerprint"] == root
    assert [step["binding"] for step in evidence["chain"]] == ["readConfig", "L"]
    assert evidence["chain"][0]["item"].startswith("i:product.js@")
    assert evidence["chain"][-1]["fingerprint"] == root


def test_a_dependency_references_entry_is_refused(product: Path, tmp_path: Path) -> None:
    entries = allowlist(tmp_path / "a.toml", binding(product, "L")["fingerprint"], owner="Dependency")
    result = run("project", product, "-a", entries)
    assert result.returncode == 2
    assert "references entry owns Product only" in result.stderr and result.stderr.count("\n") == 1


def test_helpers_are_never_reached_through(tmp_path: Path) -> None:
    out = tmp_path / "helper"
    scan(REFERENCES / "helper.js", out)
    run("project", out, "-a", allowlist(tmp_path / "a.toml", binding(out, "L")["fingerprint"]))
    found = owners(out)
    assert found["loading a module"]["owner"] == "Product"  # the helper's own code names L
    assert found["main failed"]["owner"] == "Product"
    # the wrapper calls the helper, but the helper binding is not owned: the dependency is not
    assert found["dep: no input"]["owner"] == "Unresolved"


def test_an_entry_naming_a_helper_is_an_error(tmp_path: Path) -> None:
    out = tmp_path / "helper"
    scan(REFERENCES / "helper.js", out)
    helper = binding(out, "__commonJS")
    assert helper["helper"] is True and helper["fingerprint"]  # it holds a callsite: it has an identity
    result = run("project", out, "-a", allowlist(tmp_path / "a.toml", helper["fingerprint"]))
    assert result.returncode == 2 and "runtime helper" in result.stderr and result.stderr.count("\n") == 1
    unknown = run("allow", out, "fp1b:" + "0" * 32, "-a", tmp_path / "b.toml", "--owner", "Product",
                  "--reason", "x", "--reviewer", "t", "--on", "2026-12-01")
    assert unknown.returncode == 2 and unknown.stderr.count("\n") == 1
    assert "no binding with fingerprint" in unknown.stderr


def test_allow_roots_the_binding_declared_where_a_callsite_is(product: Path, tmp_path: Path) -> None:
    target = next(r["id"] for r in records(product, "error") if r["message"]["comparisonKey"] == "config: no path")
    entries = tmp_path / "a.toml"
    result = run("allow", product, target, "--references", "-a", entries, "--owner", "Product", "--name",
                 "readConfig", "--reason", "product config reader", "--reviewer", "t", "--on", "2026-12-01")
    assert result.returncode == 0, result.stderr
    assert f'references = "{binding(product, "readConfig")["fingerprint"]}"' in entries.read_text()
    run("project", product, "-a", entries)
    found = owners(product)
    assert found["boot failed"]["owner"] == "Product" and found["reading ${}"]["owner"] == "Product"
    refused = run("allow", product, target, "--references", "-a", entries, "--owner", "Dependency", "--package",
                  "x", "--reason", "r", "--reviewer", "t", "--on", "2026-12-01")
    assert refused.returncode == 2


def test_suggest_proposes_roots_the_map_never_contradicts(tmp_path: Path, demo_scan_copy: Path) -> None:
    out = demo_scan_copy  # the session's scan of the demo, copied: suggest writes into it
    result = run("suggest", out)
    assert result.returncode == 0, result.stderr
    rows = [json.loads(line) for line in (out / "suggestions.jsonl").read_text().splitlines()]
    roots = [r for r in rows if r["level"] == "references"]
    assert roots and all(r["owner"] == "Product" and "none under node_modules" in r["evidence"][0]["detail"]
                         for r in roots)
    accepted = run("accept", out, "-a", tmp_path / "a.toml", "--reviewer", "t", "--confidence", "likely",
                   "--level", "references", "--on", "2026-12-01")
    assert accepted.returncode == 0, accepted.stderr
    run("project", out, "-a", tmp_path / "a.toml")
    truth = {r["id"]: r["origin"]["source"] for kind in ("error", "diagnostic") for r in records(out, kind)
             if r["origin"]}
    rows = [json.loads(line) for line in (out / "error-diagnostic-owner-projection.jsonl").read_text().splitlines()]
    owned = [r for r in rows if r["owner"] == "Product"]
    assert owned and not [r["id"] for r in owned if "node_modules/" in truth.get(r["id"], "")]
