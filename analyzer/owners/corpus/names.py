"""`corpus names SCANDIR`: the package names a bundle shows, each with its evidence, to fill a
corpus when there is no lockfile (docs/corpus.md, "Names without a lockfile"). A name is only a
name: it widens the corpus, and a claim still needs an exact, distinctive signature match; nothing
here proposes an owner.

Read from the scan directory alone: the module rows (kept module paths, licence banners, inlined
`package.json` objects), the readable renderings (the unit's text, strings copied verbatim) and the
callsites' messages.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

import orjson

from analyzer.facts import BundledModule
from analyzer.owners.corpus.registry import valid_name
from analyzer.sourcemap import package_of

#: evidence kinds, strongest first
KINDS = ("module-path", "manifest", "license-list", "banner", "kept-path", "scoped-string", "versioned-string",
         "message", "require")
_NAME = rb"@?[a-z0-9][a-z0-9._~-]*(?:/[a-z0-9][a-z0-9._~-]*)?"
_BANNER = re.compile(
    rb"/\*[*!]\s*(" + _NAME + rb")(?:\s+v?\d+\.\d+|[\s.,:-]+(?:MIT|ISC|BSD|Apache|MPL|License|license|\(c\)))"
)
#: `@license DOMPurify 3.2.1`: a name (written in any case) followed by a version
_LICENSE_TAG = re.compile(rb"@license\s+([A-Za-z0-9][A-Za-z0-9._~-]*)\s+v?\d+\.\d+")
#: esbuild's legal-comment list at the end of a bundle: `Bundled license information:` then
#: `dompurify/dist/purify.es.mjs:` lines, each a package's file
_LICENSE_LIST = re.compile(rb"Bundled license information:(.{0,200000}?)\*/", re.DOTALL)
_LICENSE_FILE = re.compile(rb"^[ \t]*(" + _NAME + rb")/[^\s:]*:[ \t]*$", re.MULTILINE)
_MANIFEST = re.compile(
    rb"[{,]\s*\"?name\"?\s*:\s*\"(" + _NAME + rb")\"\s*,\s*\"?version\"?\s*:\s*\"(\d+\.\d+\.\d+[^\"]*)\"")
_KEPT_PATH = re.compile(rb"node_modules/(" + _NAME + rb")/")
_SCOPED = re.compile(rb"[\"'`](@[a-z0-9][a-z0-9._~-]*/[a-z0-9][a-z0-9._~-]*)(?=[\"'`/@])")
_VERSIONED = re.compile(rb"[\"'`](" + _NAME + rb")[@/]v?(\d+\.\d+\.\d+)(?=[\"'`\s;)])")
_REQUIRE = re.compile(rb"\brequire\(\s*[\"'](" + _NAME + rb")(?:/[^\"']*)?[\"']\s*\)")
_MESSAGE = (
    re.compile(r"(?:npm (?:install|i|add)|yarn add|pnpm (?:add|install)|bun add)\s+(?:-[-\w]+\s+)*['\"`]?("
               + _NAME.decode() + r")"),
    re.compile(r"[Cc]annot find (?:module|package) ['\"`](" + _NAME.decode() + r")(?:/[^'\"`]*)?['\"`]"),
    re.compile(r"^(@[a-z0-9][a-z0-9._~-]*/[a-z0-9][a-z0-9._~-]*|[a-z0-9]+(?:[-.][a-z0-9]+)+): "),
)
#: Node's own modules: a `require` of one names no package
_BUILTINS = frozenset(
    "assert async_hooks buffer child_process cluster console constants crypto dgram diagnostics_channel dns domain "
    "events fs http http2 https inspector module net os path perf_hooks process punycode querystring readline repl "
    "stream string_decoder sys timers tls trace_events tty url util v8 vm wasi worker_threads zlib".split()
)
#: an example kept per name and kind
MAX_EXAMPLES = 3


@dataclass(slots=True)
class Found:
    name: str
    #: kind -> how many times, and a few examples
    counts: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    examples: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))

    def add(self, kind: str, example: str) -> None:
        self.counts[kind] += 1
        if len(self.examples[kind]) < MAX_EXAMPLES and example not in self.examples[kind]:
            self.examples[kind].append(example)

    def to_json(self) -> dict[str, object]:
        kinds = [k for k in KINDS if k in self.counts]
        return {"name": self.name, "evidence": [
            {"kind": k, "count": self.counts[k], "examples": self.examples[k]} for k in kinds]}


def package_names(modules: Iterable[BundledModule], texts: Iterable[bytes], messages: Iterable[str]) -> list[Found]:
    found: dict[str, Found] = {}

    def note(spec: str, kind: str, example: str) -> None:
        name = _package_part(spec)
        if name is not None:
            found.setdefault(name, Found(name)).add(kind, example)

    for row in modules:
        where = f"module {row.id}"
        for path in (row.source, row.key):
            if path and (package := package_of(path)):
                note(package, "module-path", f"{where}: {path}")
        if row.package:
            note(row.package, "module-path", f"{where}: {row.key or row.source}")
        for name in row.banners:
            note(name, "banner", where)
        for name in row.manifests:
            note(name, "manifest", where)
    for text in texts:
        for block in _LICENSE_LIST.finditer(text):
            for match in _LICENSE_FILE.finditer(block.group(1)):
                note(match.group(1).decode(), "license-list", match.group(0).decode("utf-8", "replace").strip()[:120])
        for match in _LICENSE_TAG.finditer(text):
            note(match.group(1).decode().lower(), "banner", match.group(0).decode("utf-8", "replace")[:120])
        for pattern, kind in ((_BANNER, "banner"), (_KEPT_PATH, "kept-path"), (_SCOPED, "scoped-string"),
                              (_VERSIONED, "versioned-string"), (_MANIFEST, "manifest"), (_REQUIRE, "require")):
            for match in pattern.finditer(text):
                name = match.group(1).decode()
                if (kind == "require" and name in _BUILTINS) or name.startswith("node:"):
                    continue
                note(name, kind, match.group(0).decode("utf-8", "replace").strip("\"'`{, ")[:120])
    for message in messages:
        for message_pattern in _MESSAGE:
            for hit in message_pattern.finditer(message):
                note(hit.group(1), "message", message[:120])
    return [found[name] for name in sorted(found)]


def _package_part(name: str) -> str | None:
    """The package of a module specifier (`@scope/name/sub` -> `@scope/name`, `name/sub` -> `name`)."""
    parts = name.rstrip("._~-").split("/")
    name = "/".join(parts[:2]) if name.startswith("@") else parts[0]
    return name if valid_name(name) and len(name) <= 214 else None


#: a control character in an example (an inlined package.json broken over lines), written escaped
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def _one_line(text: str) -> str:
    return _CONTROL.sub(lambda m: m[0].encode("unicode_escape").decode("ascii"), text)


def render(found: list[Found], as_json: bool) -> bytes:
    """One line per name: the name, a tab, its evidence (each example's control characters escaped,
    so that a line is a name); or one JSON object per line."""
    if as_json:
        return b"".join(orjson.dumps(f.to_json()) + b"\n" for f in found)
    lines = []
    for item in found:
        kinds = [k for k in KINDS if k in item.counts]
        evidence = "; ".join(f"{k} ×{item.counts[k]} ({_one_line(item.examples[k][0])})" for k in kinds)
        lines.append(f"{item.name}\t{evidence}")
    return "".join(line + "\n" for line in lines).encode()
