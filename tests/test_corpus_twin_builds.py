"""A single-file build that carries a declared dependency its twin builds import (docs/corpus.md,
"Matching", 6): the functions only that file holds are likely the dependency's copy, so with the
dependency out of the corpus they are never claimed exactly for the package that ships the build.

remarkable 2.0.1's rollup `dist/remarkable.js` carries autolinker, which its `dist/cjs/` and `dist/esm/`
builds `require` and `import`; with autolinker out of the corpus (swagger-ui's `half`), autolinker's
callsites were claimed exactly for remarkable (bench/corpus_eval.py). The fixture is that shape, written
here and served from a local registry; a package with a single build keeps its claims (its carried code
cannot be told from its own)."""

from __future__ import annotations

import json
from pathlib import Path

import orjson
from conftest import records, run, scan
from support.registry import LocalRegistry, npm_env, write_tarball

PACKAGE, DEPENDENCY = "erratlas-fixture-markdown", "erratlas-fixture-linker"


def _own(i: int) -> str:
    """One of the package's own functions, in every build."""
    return (f"function renderToken{i}(tokens, index) {{\n"
            f"  const token{i} = tokens[index + {i}] || {{ type: \"text-{i}\", content: \"\" }};\n"
            f"  if (token{i}.level > {i + 3}) token{i}.content = token{i}.content.slice({i}).trim();\n"
            f"  return \"<p data-md-{i}>\" + token{i}.content + \"</p>\" + index * {i + 7};\n}}")


def _linker(i: int) -> str:
    """One of the dependency's functions, which only the single-file build carries."""
    return (f"function matchAnchor{i}(text, offset) {{\n"
            f"  const found{i} = /(https?:\\/\\/[^\\s]+)/g.exec(text.slice(offset + {i}));\n"
            f"  if (!found{i} || found{i}[0].length < {i + 4}) return {{ href: \"#link-{i}\", at: -{i} }};\n"
            f"  return {{ href: found{i}[0].replace(/[.,]$/, \"\"), at: found{i}.index + offset * {i + 2} }};\n}}")


SPLIT = """function splitAndCapture(text, regex) {
  if (!regex.global) throw new Error("`splitRegex` must have the 'g' flag set");
  const parts = [];
  for (let last = 0, match; (match = regex.exec(text)); last = regex.lastIndex)
    parts.push(text.slice(last, match.index));
  return parts.concat(text.slice(regex.lastIndex || 0)).filter((part, at) => part !== "" || at === 0);
}"""
OWN = [_own(i) for i in range(14)]
LINKER = [_linker(0), _linker(1), SPLIT, *(_linker(i) for i in range(2, 12))]
MANIFEST = orjson.dumps({"name": PACKAGE, "version": "2.0.1", "main": "dist/cjs/index.js",
                         "dependencies": {DEPENDENCY: "^3.0.0"}})


def _suggest(tmp_path: Path, files: dict[str, str]) -> dict[str, object]:
    """The bundle (the dependency's code, then the package's, in one scope) scanned without a map, a corpus
    of the package alone (`files` its tarball's), and the suggestion for the dependency's throw."""
    tarballs = tmp_path / "tarballs"
    write_tarball(tarballs, PACKAGE, "2.0.1", {"package.json": MANIFEST, **{p: t.encode() for p, t in files.items()}})
    bundle = tmp_path / "bare" / "bundle.js"
    bundle.parent.mkdir()
    bundle.write_text("\n".join(["\"use strict\";", *LINKER, *OWN, ""]))
    scan(bundle, tmp_path / "out", "--signatures")
    with LocalRegistry({f"{PACKAGE}@2.0.1": "2024-01-01T00:00:00.000Z"}, tarballs) as served:
        added = run("corpus", "add", PACKAGE, "--corpus", tmp_path / "corpus", "-j", "1",
                    env=npm_env(tmp_path, served.url))
    assert added.returncode == 0, added.stderr
    suggested = run("suggest", tmp_path / "out", "--corpus", tmp_path / "corpus", "--out", tmp_path / "s.jsonl")
    assert suggested.returncode == 0, suggested.stderr
    throw = [str(r["id"]) for r in records(tmp_path / "out", "error")
             if "splitRegex" in str(r["message"].get("template") or r["message"].get("text"))]  # type: ignore[attr-defined]
    assert len(throw) == 1, throw
    rows = [json.loads(line) for line in (tmp_path / "s.jsonl").read_text().splitlines()]
    return next((s for s in rows if throw[0] in s.get("exampleIds", ())), {})


def _cjs() -> str:
    return "\n".join(["\"use strict\";", f"const linker = require(\"{DEPENDENCY}\");", *OWN,
                      "module.exports = { linker, renderToken0, renderToken5 };", ""])


def _esm() -> str:
    return "\n".join([f"import linker from \"{DEPENDENCY}\";", *OWN, "export { linker, renderToken0, renderToken5 };",
                      ""])


def _umd(body: list[str]) -> str:
    return "\n".join(["(function (global, factory) {",
                      "  typeof exports === \"object\" ? factory(exports) : factory((global.Markdown = {}));",
                      "})(this, function (exports) {", "\"use strict\";", *body,
                      "exports.renderToken0 = renderToken0;", "});", ""])


def test_code_that_only_a_packages_single_file_build_holds_is_never_claimed_exactly_for_it(tmp_path: Path) -> None:
    # dist/cjs and dist/esm require the dependency; the UMD build carries it; the corpus lacks it
    row = _suggest(tmp_path, {"dist/cjs/index.js": _cjs(), "dist/esm/index.js": _esm(),
                              "dist/umd.js": _umd([*LINKER, *OWN])})
    assert row.get("confidence") != "exact", row


def test_a_package_with_a_single_build_keeps_its_claim(tmp_path: Path) -> None:
    # one build only: the code it carries cannot be told from its own
    row = _suggest(tmp_path, {"dist/umd.js": _umd([*LINKER, *OWN])})
    assert row.get("confidence") == "exact" and row.get("package") == PACKAGE, row
