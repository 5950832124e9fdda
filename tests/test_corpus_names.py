"""`corpus names SCANDIR` through the CLI: the package names a bundle shows, each with its
evidence, never an owner (docs/corpus.md, "Names without a lockfile")."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import FIXTURES, run, scan

BUNDLE = b'''/*! tiny-banner v1.2.3 | MIT */
var cfg = {name: "inlined-manifest", version: "4.5.6", description: "x"};
var fs = require("fs"), pad = require("left-pad/lib/index.js");
function need(id) {
  if (id === "@scope/thing") throw new Error("Cannot find module '@scope/thing': run npm install @scope/thing");
  if (!pad) throw new Error("some-tool: left-pad is missing");
  return cfg;
}
module.exports = need;
/*! Bundled license information:

dompurify/dist/purify.es.mjs:
  (*! @license DOMPurify 3.2.1 | (c) Cure53 and other contributors *)
*/
'''


def test_names_with_their_evidence(tmp_path: Path) -> None:
    bundle = tmp_path / "bundle.js"
    bundle.write_bytes(BUNDLE)
    scan(bundle, tmp_path / "out")
    result = run("corpus", "names", tmp_path / "out", "--json")
    assert result.returncode == 0, result.stderr
    found = {row["name"]: {e["kind"] for e in row["evidence"]} for row in map(json.loads, result.stdout.splitlines())}
    assert found["tiny-banner"] == {"banner"}
    assert "manifest" in found["inlined-manifest"]
    assert "require" in found["left-pad"] and "fs" not in found
    assert {"scoped-string", "message"} <= found["@scope/thing"]
    assert "some-tool" in found and found["some-tool"] == {"message"}
    assert {"license-list", "banner"} <= found["dompurify"]
    assert "package names the bundle shows" in result.stderr
    names = run("corpus", "names", tmp_path / "out", "--names-only")
    assert names.stdout.split() == sorted(found)


def test_what_is_not_a_javascript_scan_is_refused(tmp_path: Path) -> None:
    bad = run("corpus", "names", tmp_path / "nothing")
    assert bad.returncode == 2 and "Traceback" not in bad.stderr and len(bad.stderr.strip().splitlines()) == 1
    scan(FIXTURES / "python" / "shadowing", tmp_path / "py")
    python = run("corpus", "names", tmp_path / "py")
    assert python.returncode == 2 and "a scan of Python sources" in python.stderr


def test_each_line_of_the_text_form_is_one_name(tmp_path: Path) -> None:
    """An inlined package.json broken over lines (opencode 1.19.5's `{\\nname:"tuf-js",version:...`)
    wrote its example's newline as is: `cut -f1` of the list read a line of JavaScript as a name."""
    bundle = tmp_path / "bundle.js"
    bundle.write_bytes(b'var cfg = {\nname: "split-manifest",\tversion: "4.5.6", description: "x"};\n'
                       b'function f() { throw new Error("no " + cfg.name) }\nmodule.exports = f;\n')
    scan(bundle, tmp_path / "out")
    listed = run("corpus", "names", tmp_path / "out")
    assert listed.returncode == 0, listed.stderr
    names = run("corpus", "names", tmp_path / "out", "--names-only").stdout.split()
    assert "split-manifest" in names
    lines = listed.stdout.splitlines()
    assert [line.split("\t", 1)[0] for line in lines] == names
    assert any(line.startswith("split-manifest\tmanifest") and '\\nname: "split-manifest",\\tversion' in line
               for line in lines), listed.stdout
