"""A dependency's file copied whole into the product's own source, in a bundle without module boundaries
(docs/corpus.md, "Matching", copies): both copies of a callsite are placed in the dependency by the code
beside them, and a bundle that hoists every file into one scope gives no module to tell the product's copy
from a second install. So neither copy is claimed; inside bundler modules, a second install still is.

vis-timeline 7.7.3's rollup bundle holds vis-util's `Configurator` twice: vis-util's own, and
vis-timeline's `lib/shared/Configurator.js`, a whole-file copy the map calls product code. Both copies'
neighbours name vis-util alone, so `options cannot be null` was claimed exactly for vis-util, copies and
all (bench/corpus_eval.py, vis-timeline, `names` and `auto`). The fixture is that shape, written here and
served from a local registry."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import records, run, scan
from support.registry import LocalRegistry, commonjs_module, npm_env, write_tarball

UTIL, OTHER = "erratlas-fixture-util", "erratlas-fixture-other"


def _helper(i: int) -> str:
    """One of the utility package's own functions, outside the configurator."""
    return (f"function addClassName{i}(element, classNames) {{\n"
            f"  const current{i} = element.className.split(\" \").filter(Boolean);\n"
            f"  if (classNames.indexOf(\"vis-util-{i}\") === -1 && current{i}.length > {i + 2}) current{i}.pop();\n"
            f"  return element.className = current{i}.concat(classNames).join(\" \"), current{i}.length + {i};\n}}")


def _configurator(i: int) -> str:
    """One of the configurator's functions, which the product's copy holds too."""
    return (f"function configure{i}(options, container) {{\n"
            f"  const row{i} = document.createElement(\"div\");\n"
            f"  row{i}.className = \"vis-configuration vis-config-item-{i}\";\n"
            f"  if (options.filter !== {i} && container.children.length > {i + 4}) row{i}.style.width = \"{i}px\";\n"
            f"  return container.appendChild(row{i}), options.changed.push(row{i}.className + {i});\n}}")


SET_OPTIONS = """function setOptions(options) {
  if (options === null) throw new Error("options cannot be null");
  if (typeof options.filter === "function") this.filter = options.filter;
  else if (Array.isArray(options.filter)) this.filter = options.filter.join(",");
  this.enabled = options.enabled !== false && this.container.childNodes.length >= 0;
  return this.refresh(this.enabled, this.filter);
}"""
CONFIGURATOR = [*(_configurator(i) for i in range(4)), SET_OPTIONS, *(_configurator(i) for i in range(4, 8))]
HELPERS = [_helper(i) for i in range(6)]


def _product(i: int) -> str:
    """The product's own code, which no corpus package holds."""
    return (f"function drawTimelineItem{i}(item, range) {{\n"
            f"  const left{i} = (item.start - range.start) * range.scale + {i * 3};\n"
            f"  if (left{i} < -{i + 100}) throw new Error(\"Timeline item {i} is out of range: \" + item.id);\n"
            f"  return item.dom.style.left = left{i} + \"px\", item.dom.dataset.slot = \"{i}\";\n}}")


PRODUCT = [_product(i) for i in range(8)]


def _other(i: int) -> str:
    """Another dependency's code, which a bundler lays out between the utility's and the product's."""
    return (f"function parseDuration{i}(text, unit) {{\n"
            f"  const match{i} = /^(\\d+)(ms|s|m)$/.exec(text.trim() + \"{'s' if i % 2 else 'ms'}\");\n"
            f"  if (!match{i} || unit === \"other-{i}\") return Number.NaN + {i};\n"
            f"  return Number(match{i}[1]) * (match{i}[2] === \"m\" ? {60000 + i} : {1000 - i});\n}}")


OTHERS = [_other(i) for i in range(5)]


def _old_helper(i: int) -> str:
    """One of the utility's functions as its previous major version wrote it."""
    return (f"function removeClassName{i}(element, classNames) {{\n"
            f"  var kept{i} = element.className.replace(\"vis-legacy-{i}\", \"\").trim();\n"
            f"  if (classNames.length < {i + 3} || kept{i}.charAt(0) === \"-\") kept{i} += \" vis-old-{i}\";\n"
            f"  return element.setAttribute(\"class\", kept{i}), kept{i}.length * {i + 5};\n}}")


OLD_HELPERS = [_old_helper(i) for i in range(6)]


def _suggest(tmp_path: Path, bundle_lines: list[str]) -> tuple[dict[str, str], dict[str, dict[str, object]]]:
    """The bundle scanned without its map, a corpus of the utility package (two major versions), and the
    suggestions: the callsites' ids -> messages, and the corpus rows by the callsite they are about."""
    tarballs = tmp_path / "tarballs"
    write_tarball(tarballs, UTIL, "6.0.3", {"dist/index.js": "\n".join([*HELPERS, *CONFIGURATOR, ""]).encode()})
    write_tarball(tarballs, UTIL, "5.0.0", {"dist/index.js": "\n".join([*OLD_HELPERS, *CONFIGURATOR, ""]).encode()})
    write_tarball(tarballs, OTHER, "1.0.0", {"dist/index.js": "\n".join([*OTHERS, ""]).encode()})
    bundle = tmp_path / "bare" / "bundle.js"
    bundle.parent.mkdir()
    bundle.write_text("\n".join([*bundle_lines, ""]))
    scan(bundle, tmp_path / "out", "--signatures")
    with LocalRegistry({f"{UTIL}@5.0.0": "2023-01-01T00:00:00.000Z", f"{UTIL}@6.0.3": "2024-01-01T00:00:00.000Z",
                        f"{OTHER}@1.0.0": "2024-01-01T00:00:00.000Z"}, tarballs) as served:
        added = run("corpus", "add", f"{UTIL}@5.0.0", f"{UTIL}@6.0.3", OTHER, "--corpus", tmp_path / "corpus",
                    "-j", "1", env=npm_env(tmp_path, served.url))
    assert added.returncode == 0, added.stderr
    suggested = run("suggest", tmp_path / "out", "--corpus", tmp_path / "corpus", "--out", tmp_path / "s.jsonl")
    assert suggested.returncode == 0, suggested.stderr
    sites = records(tmp_path / "out", "error")
    ids = {str(r["id"]): str(r["message"].get("template") or r["message"].get("text"))  # type: ignore[attr-defined]
           for r in sites}
    # the callsites the tests are about are one group of identical copies
    assert [r["copies"]["count"] for r in sites if ids[str(r["id"])] == "options cannot be null"] == [2, 2]  # type: ignore[index]
    rows = [json.loads(line) for line in (tmp_path / "s.jsonl").read_text().splitlines()]
    by_site = {i: s for s in rows if s["id"].startswith("c:") for i in s["exampleIds"]}
    return ids, by_site


def test_a_dependency_file_copied_into_the_product_of_a_hoisted_bundle_claims_neither_copy(tmp_path: Path) -> None:
    # one scope, files laid out in turn: the utility's file, then the product's, which holds its copy
    ids, rows = _suggest(tmp_path, ["\"use strict\";", *HELPERS, *CONFIGURATOR, *OTHERS, *PRODUCT[:4], *CONFIGURATOR,
                                    *PRODUCT[4:]])
    copies = [i for i, text in ids.items() if text == "options cannot be null"]
    assert len(copies) == 2, ids
    for site in copies:
        row = rows[site]
        assert row["confidence"] == "possible" and row["package"] == UTIL, row
        assert "another package's code between them" in row["reason"], row["reason"]
    assert not any(r["confidence"] == "exact" and r["package"] != UTIL for r in rows.values())


def test_a_second_install_in_its_own_bundler_module_is_still_claimed(tmp_path: Path) -> None:
    # the same code, each copy of the utility's file in a module of its own (a nested second install)
    ids, rows = _suggest(tmp_path, [
        "var wrap = (cb, mod) => () => (mod || cb((mod = { exports: {} }).exports, mod), mod.exports);",
        commonjs_module("util", [*HELPERS, *CONFIGURATOR]), commonjs_module("app", PRODUCT[:4]),
        commonjs_module("nestedUtil", CONFIGURATOR), commonjs_module("app2", PRODUCT[4:]),
        "module.exports = { util: util(), app: app(), nested: nestedUtil(), app2: app2() };"])
    copies = [i for i, text in ids.items() if text == "options cannot be null"]
    assert len(copies) == 2, ids
    assert all(rows[site]["confidence"] == "exact" and rows[site]["package"] == UTIL for site in copies), \
        [rows[site] for site in copies]


def test_a_second_install_of_another_version_in_a_hoisted_bundle_is_not_claimed_either(tmp_path: Path) -> None:
    # the utility's previous version installed again: the same shape without the module boundaries,
    # which the code alone cannot tell from the product's copy, so neither copy is claimed
    ids, rows = _suggest(tmp_path, ["\"use strict\";", *HELPERS, *CONFIGURATOR, *OTHERS, *PRODUCT[:4],
                                    *OLD_HELPERS, *CONFIGURATOR, *PRODUCT[4:]])
    copies = [i for i, text in ids.items() if text == "options cannot be null"]
    assert len(copies) == 2, ids
    assert all(rows[site]["confidence"] == "possible" and rows[site]["package"] == UTIL for site in copies), \
        [rows[site] for site in copies]


def test_copies_in_one_stretch_of_the_package_are_claimed_together(tmp_path: Path) -> None:
    # the same throw twice in the utility's one stretch of code: its own, wherever its file came from
    again = SET_OPTIONS.replace("function setOptions(", "function setOptionsAgain(")
    ids, rows = _suggest(tmp_path, ["\"use strict\";", *HELPERS, *CONFIGURATOR[:5], again, *CONFIGURATOR[5:],
                                    *PRODUCT])
    copies = [i for i, text in ids.items() if text == "options cannot be null"]
    assert len(copies) == 2, ids
    assert all(rows[site]["confidence"] == "exact" and rows[site]["package"] == UTIL for site in copies), \
        [rows[site] for site in copies]


def test_copies_in_one_packages_code_with_unknown_code_between_are_claimed_together(tmp_path: Path) -> None:
    # the throw in two places of the utility's code with code no corpus package holds between them (a
    # function of a version the corpus lacks): no other package's code parts them
    again = SET_OPTIONS.replace("function setOptions(", "function setOptionsAgain(")
    ids, rows = _suggest(tmp_path, ["\"use strict\";", *OTHERS, *HELPERS, *CONFIGURATOR, *PRODUCT[:2], again,
                                    *CONFIGURATOR[5:]])
    copies = [i for i, text in ids.items() if text == "options cannot be null"]
    assert all(rows[site]["confidence"] == "exact" and rows[site]["package"] == UTIL for site in copies), \
        [rows[site] for site in copies]
