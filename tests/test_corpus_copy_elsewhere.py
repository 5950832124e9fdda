"""A package's copy of another package's function, claimed in that other package's module (docs/corpus.md,
"Matching", a module is one file's copy): the strangers that say so are the module's functions no file of
the claimed package holds, whether no corpus package holds them or only others do.

Claude Code 2.1.88 bundles @smithy/eventstream-codec, whose `HeaderFormatter.formatHeaderValue`
@smithy/signature-v4 3.1.2 carries verbatim; the codec versions in a corpus of the bundle's names hold
that function in another form, and their other functions are @smithy/core's too. So the one function
of the codec's module that names a package alone named signature-v4, and its `Invalid UUID received`
callsite was claimed exactly for signature-v4 (bench/corpus_eval.py, 2.1.88, `names`). The fixture is
that, written here and served from a local registry: the signer carries the codec's formatter, the
codec's newer version rewrote it, and a core package holds the rest of the codec's code."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import records, run, scan
from support.registry import LocalRegistry, commonjs_module, npm_env, write_tarball

SIGNER, CODEC, CORE = "erratlas-fixture-signer", "erratlas-fixture-codec", "erratlas-fixture-core"

#: the formatter as the signer carries it and the codec's bundled (older) version wrote it
FORMAT = """function formatHeaderValue(header) {
  switch (header.type) {
    case "boolean": return Uint8Array.from([header.value ? 0 : 1]);
    case "byte": return Uint8Array.from([2, header.value]);
    case "uuid":
      if (!UUID_PATTERN.test(header.value)) throw new Error(`Invalid UUID received: ${header.value}`);
      const uuidBytes = new Uint8Array(17);
      uuidBytes[0] = 9;
      uuidBytes.set((0, hex.fromHex)(header.value.replace(/\\-/g, "")), 1);
      return uuidBytes;
  }
}"""
#: the same as the bundler wrote it in the codec's module (a call through a namespace without `(0, ...)`):
#: another callsite's code, the same function's signature
FORMAT_BUNDLED = FORMAT.replace("(0, hex.fromHex)(", "hex.fromHex(")
#: the codec's newer version of it
FORMAT_NEW = FORMAT.replace("Uint8Array.from([header.value ? 0 : 1])", "new Uint8Array([header.value ? 0 : 1])")


def _codec_function(i: int) -> str:
    """One of the codec's functions that its newer version and the core package hold unchanged."""
    return (f"function decodeFrame{i}(view, offset) {{\n"
            f"  const length{i} = view.getUint32(offset + {4 * i}, false);\n"
            f"  if (length{i} > {1000 + i})\n"
            f"    return {{ kind: \"frame-{i}\", size: length{i}, rest: view.byteLength - offset }};\n"
            f"  return view.getUint8(offset + {i}) * {i + 3} + length{i} % {i + 7};\n}}")


CODEC_OWN = [_codec_function(i) for i in range(7)]


def _signer_function(i: int) -> str:
    """The signer's own code, which its module in the bundle holds whole."""
    return (f"function signStep{i}(request, credentials) {{\n"
            f"  const scope{i} = [credentials.region, \"service-{i}\", request.method].join(\"/\");\n"
            f"  if (!credentials.secret) throw new Error(\"Signer step {i} needs a secret for \" + scope{i});\n"
            f"  return request.headers[\"x-step-{i}\"] = scope{i}.length * {i + 11};\n}}")


SIGNER_OWN = [_signer_function(i) for i in range(8)]


def test_a_module_whose_other_code_only_other_packages_hold_is_not_claimed_for_the_copys_package(
        tmp_path: Path) -> None:
    tarballs = tmp_path / "tarballs"
    for name, version, code in ((SIGNER, "1.0.0", [FORMAT, *SIGNER_OWN]), (CODEC, "2.0.0", [FORMAT_NEW, *CODEC_OWN]),
                                (CORE, "1.0.0", CODEC_OWN)):
        write_tarball(tarballs, name, version, {"dist/index.js": "\n".join([*code, ""]).encode()})
    bundle = tmp_path / "bare" / "bundle.js"
    bundle.parent.mkdir()
    bundle.write_text("\n".join([
        "var wrap = (cb, mod) => () => (mod || cb((mod = { exports: {} }).exports, mod), mod.exports);",
        "var UUID_PATTERN = /^[a-f0-9-]{36}$/;",
        "var hex = { fromHex: (s) => Uint8Array.from(s.match(/../g), (h) => parseInt(h, 16)) };",
        commonjs_module("codec", [FORMAT_BUNDLED, *CODEC_OWN]),
        commonjs_module("signer", [FORMAT, *SIGNER_OWN]),
        "module.exports = { codec: codec(), signer: signer() };", ""]))
    scan(bundle, tmp_path / "out", "--signatures")
    with LocalRegistry({f"{SIGNER}@1.0.0": "2024-01-01T00:00:00.000Z", f"{CODEC}@2.0.0": "2024-02-01T00:00:00.000Z",
                        f"{CORE}@1.0.0": "2024-03-01T00:00:00.000Z"}, tarballs) as served:
        added = run("corpus", "add", SIGNER, CODEC, CORE, "--corpus", tmp_path / "corpus", "-j", "1",
                    env=npm_env(tmp_path, served.url))
    assert added.returncode == 0, added.stderr
    suggested = run("suggest", tmp_path / "out", "--corpus", tmp_path / "corpus", "--out", tmp_path / "s.jsonl")
    assert suggested.returncode == 0, suggested.stderr
    sites = sorted((int(str(r["offset"])), str(r["message"].get("template") or r["message"].get("text")))  # type: ignore[attr-defined]
                   for r in records(tmp_path / "out", "error"))
    ids = {f"e:bundle.js@{offset}": text for offset, text in sites}
    rows = [json.loads(line) for line in (tmp_path / "s.jsonl").read_text().splitlines()]
    exact = {s["exampleIds"][0]: s["package"] for s in rows if s["id"].startswith("c:") and s["confidence"] == "exact"}
    uuid = [i for i, text in ids.items() if text.startswith("Invalid UUID")]
    assert len(uuid) == 2, ids
    codec_copy, signer_copy = uuid  # in bundle order: the codec's module, then the signer's
    assert codec_copy not in exact, (exact, rows)
    # the signer's own module, whose other code is the signer's, is claimed for the signer
    assert exact.get(signer_copy) == SIGNER, exact
    steps = [i for i, text in ids.items() if text.startswith("Signer step")]
    assert len(steps) == 8 and all(exact.get(i) == SIGNER for i in steps), exact
