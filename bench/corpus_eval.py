"""Dependency identification by the package corpus, judged against real source maps, under every
way a user fills the corpus (docs/corpus.md, "Figures").

For each real bundle that ships its source map:

1. truth: `erratlas scan` with the map beside the bundle; a callsite's package is the last
   `node_modules/<pkg>/` of its origin's source, or the monorepo sibling its source resolves into
   (tests/support/maps.py, `Truth`); None is the bundle's own code;
2. the map withheld: a copy of the bundle alone in an empty directory, `scan --signatures`
   (the summary must say that no map was used);
3. the corpus, once per setting (`--settings`), each in its own directory:
   - `lockfile`: the lockfile the bundle's package ships, when it ships one (else n/a);
   - `auto`: the map's package names, `corpus add NAMES --for BUNDLE` (the bundle where its npm
     package put it): the window found from the bundle (docs/corpus.md, "The bundle's time window");
   - `before`: the names with `--before` the bundle's publish time from the registry;
   - `names`: the names alone (each name's newest versions);
   - `half`: a random half of the names (`random.Random(1)`, sorted names, `len // 2` of them),
     the window found as in `auto`: a corpus that lacks some bundled packages, whose copies in
     other packages' files must not be claimed for those (docs/corpus.md, "Matching");
   NAMES are the map's packages (what a lockfile would name; nothing else from the map);
4. `erratlas suggest --corpus` on the map-less scan, timed;
5. precision and recall per package and overall, for `exact` suggestions and for every
   suggestion that names one package (`possible` ones included: copies, conflicts).

Tarballs and indexes are shared between the settings' corpora through a pool (`WORK/pool`,
hard links): a version is fetched and indexed once per index format, whichever corpus asked.

Then the 2.1.235 linux-x64 executable (no map): `scan --signatures`, a corpus of 2.1.88's names
before its release and before 2.1.88's, `suggest --corpus` timed (under 10 s is the target), how
many callsites the suggestions claim, and, of those whose fingerprint equals a 2.1.88 callsite's,
how many agree with the 2.1.88 truth.

    python bench/corpus_eval.py [--work DIR] [--runs 1] [--only 2.1.88,mermaid] [--settings names,auto,before]
    python bench/corpus_eval.py --only pdfmake,maplibre,tfjs,socket.io,exceljs,pyright --settings names
    python bench/corpus_eval.py --only mathjs,peerjs,jspdf,pdf-lib,grapesjs,solana --settings names,auto
    python bench/corpus_eval.py --only redoc,uppy,element-plus,quill,hls.js,ethers,pdfjs,ckeditor,plyr,web3,redoc-rc30 \
        --settings names,auto,half
    python bench/corpus_eval.py --only ol,pixi,auth0,algosdk,tronweb,xrpl,tsls,miniflare,markdown-it,sockjs \
        --settings names,auto,half
    python bench/corpus_eval.py --only html-manager,vega-embed --settings names,auto,half
    python bench/corpus_eval.py --only ethers5,livekit,docsearch,pusher,tone,vis-network,onnxruntime,model-viewer,\
        rrweb,echarts,ably,jsoneditor --settings names,auto,half
    python bench/corpus_eval.py --only antd4,antdv,aframe,iview,web3modal,rdflib,vis-timeline,bootstrap-vue,pixi6,\
        xlsx-populate,swiper6,ably1 --settings names,auto,half
    python bench/corpus_eval.py --only ncu,transformers,okta,jimp,babel,segment,tesseract,less \
        --settings names,auto,half
    python bench/corpus_eval.py --only parcel-utils,parcel-dev-server,shaka,swagger-ui,amplify,v-calendar,msw,posthog \
        --settings names,auto,half
"""

from __future__ import annotations

import argparse
import json
import os
import posixpath
import random
import resource
import shutil
import statistics
import subprocess
import sys
import time
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from support import npm_cache
from support.maps import Truth

from analyzer.sourcemap import find_source_map, normalize_source, package_of

ERRATLAS = str(Path(sys.executable).parent / "erratlas")
TARGETS = {
    "2.1.88": ("@anthropic-ai/claude-code", "2.1.88"),  # esbuild
    "mermaid": ("mermaid", "11.4.1"),  # esbuild, ESM
    "pdfmake": ("pdfmake", "0.3.11"),  # build/pdfmake.min.js, webpack 5
    "maplibre": ("maplibre-gl", "6.20.0"),  # dist/maplibre-gl.mjs, rolldown
    "tfjs": ("@tensorflow/tfjs", "4.22.0"),  # dist/tf.min.js, rollup + terser
    "socket.io": ("socket.io-client", "4.8.4"),  # dist/socket.io.min.js, rollup + Babel ES5, sibling sources
    "exceljs": ("exceljs", "4.4.0"),  # dist/exceljs.min.js, browserify + Babel ES5
    "pyright": ("pyright", "1.1.414"),  # dist/vendor.js, a webpack 5 chunk of a node CLI
    "mathjs": ("mathjs", "15.2.0"),  # lib/browser/math.js, webpack 5 production over Babel ES5
    "peerjs": ("peerjs", "1.5.5"),  # dist/peerjs.min.js, parcel 2 (a map without names)
    "jspdf": ("jspdf", "4.2.1"),  # dist/jspdf.umd.min.js, rollup + Babel ES5 + terser
    "pdf-lib": ("pdf-lib", "1.17.1"),  # dist/pdf-lib.min.js, rollup + terser over tsc's ES5
    "grapesjs": ("grapesjs", "0.23.6"),  # dist/grapes.min.js, webpack 5 production over TypeScript
    "solana": ("@solana/web3.js", "1.98.4"),  # lib/index.iife.min.js, rollup + terser keeping names
    "redoc": ("redoc", "2.5.4"),  # bundles/redoc.standalone.js, webpack 5 production
    "uppy": ("uppy", "6.0.1"),  # dist/uppy.min.js, esbuild (its @uppy/* siblings are its own code here)
    "element-plus": ("element-plus", "2.14.9"),  # dist/index.full.min.js, rolldown
    "quill": ("quill", "1.3.7"),  # dist/quill.min.js, webpack 2/3 over Babel ES5
    "hls.js": ("hls.js", "1.7.4"),  # dist/hls.min.js, rollup + Babel ES5 + terser
    "ethers": ("ethers", "6.17.0"),  # dist/ethers.umd.js, rollup, not minified
    "pdfjs": ("pdfjs-dist", "2.16.105"),  # build/pdf.js, webpack 5 over Babel, not minified
    "ckeditor": ("@ckeditor/ckeditor5-build-classic", "44.3.0"),  # build/ckeditor.js, webpack 5, sibling sources
    "plyr": ("plyr", "3.8.4"),  # dist/plyr.polyfilled.min.js, rollup + Babel ES5 + terser
    "web3": ("web3", "4.16.0"),  # dist/web3.min.js, webpack 5, sibling sources
    "redoc-rc30": ("redoc", "2.0.0-rc.30"),  # bundles/redoc.standalone.js, webpack 4 with Node polyfills
    "ol": ("ol", "10.11.0"),  # dist/ol.js, rollup + terser
    "pixi": ("pixi.js", "8.22.0"),  # dist/pixi.min.js, esbuild, minified
    "auth0": ("@auth0/auth0-spa-js", "2.28.3"),  # dist/auth0-spa-js.production.js, rollup + terser
    "algosdk": ("algosdk", "3.8.0"),  # dist/browser/algosdk.min.js, webpack 5 production
    "tronweb": ("tronweb", "6.5.1"),  # dist/TronWeb.js, webpack 5 production over Babel
    "xrpl": ("xrpl", "5.3.0"),  # build/xrpl-latest-min.js, webpack 5 production
    "tsls": ("typescript-language-server", "5.3.0"),  # lib/cli.mjs, rollup, a node CLI, not minified
    "miniflare": ("miniflare", "4.20260426.0"),  # dist/src/index.js, esbuild, a node library, not minified
    "markdown-it": ("markdown-it", "15.0.3"),  # dist/browser/markdown-it.umd.min.js, vite 8 (rolldown, oxc's minifier)
    "sockjs": ("sockjs-client", "1.6.1"),  # dist/sockjs.min.js, browserify + uglify, ES5
    "html-manager": ("@jupyter-widgets/html-manager", "1.0.15"),  # dist/embed.js, webpack 5, siblings by namespace
    "vega-embed": ("vega-embed", "7.3.0"),  # build/vega-embed.min.js, rollup + terser
    "ethers5": ("ethers", "5.7.2"),  # dist/ethers.umd.min.js, rollup, UMD, minified
    "livekit": ("livekit-client", "2.23.0"),  # dist/livekit-client.umd.js, rollup + terser, pnpm paths
    "docsearch": ("@docsearch/js", "5.2.0"),  # dist/umd/index.js, UMD, minified, bun paths
    "pusher": ("pusher-js", "8.6.0"),  # dist/node/pusher.js, webpack 5, a node library, not minified
    "tone": ("tone", "15.5.44"),  # build/Tone.js, webpack 5 production
    "vis-network": ("vis-network", "10.1.5"),  # standalone/umd/vis-network.min.js, rollup + Babel + core-js-pure
    "onnxruntime": ("onnxruntime-web", "1.31.1"),  # dist/ort.all.min.js, esbuild, minified
    "model-viewer": ("@google/model-viewer", "4.4.0"),  # dist/model-viewer-umd.min.js, rollup + terser
    "rrweb": ("rrweb", "2.2.2"),  # dist/rrweb.umd.min.cjs, vite library build
    "echarts": ("echarts", "6.1.0"),  # dist/echarts.js, rollup, not minified
    "ably": ("ably", "2.28.0"),  # build/ably-node.js, webpack 5, a node library, not minified
    "jsoneditor": ("vanilla-jsoneditor", "3.13.0"),  # standalone.js, rollup + terser, ESM
    "antd4": ("antd", "4.24.16"),  # dist/antd.min.js, webpack 4 over Babel ES5, regenerator
    "antdv": ("ant-design-vue", "1.7.8"),  # dist/antd.min.js, webpack 4 over Babel ES5
    "aframe": ("aframe", "1.5.0"),  # dist/aframe-master.min.js, webpack 4 production
    "iview": ("view-design", "4.7.0"),  # dist/iview.min.js, webpack 3 over Babel ES5
    "web3modal": ("web3modal", "1.9.12"),  # dist/index.js, webpack 4 production
    "rdflib": ("rdflib", "2.2.35"),  # dist/rdflib.min.js, webpack 5 over Babel, Node polyfills
    "vis-timeline": ("vis-timeline", "7.7.3"),  # standalone/umd/vis-timeline-graph2d.min.js, rollup + Babel + terser
    "bootstrap-vue": ("bootstrap-vue", "2.23.1"),  # dist/bootstrap-vue.min.js, rollup + Babel ES5 + terser, UMD
    "pixi6": ("pixi.js", "6.5.10"),  # dist/browser/pixi.min.js, rollup + terser, IIFE
    "xlsx-populate": ("xlsx-populate", "1.21.0"),  # browser/xlsx-populate.min.js, browserify + Babel ES5
    "swiper6": ("swiper", "6.8.4"),  # swiper-bundle.min.js, rollup + Babel ES5 + terser, UMD
    "ably1": ("ably", "1.2.50"),  # build/ably.min.js, webpack 4 production, the browser build
    "ncu": ("npm-check-updates", "22.2.9"),  # build/index.js, vite library build of a node CLI, minified ESM
    "transformers": ("@xenova/transformers", "2.17.2"),  # dist/transformers.min.js, webpack 5, path comments kept
    "okta": ("@okta/okta-auth-js", "8.0.1"),  # dist/okta-auth-js.min.js, webpack 5 production over Babel
    "jimp": ("jimp", "0.22.12"),  # browser/lib/jimp.js, webpack 5 production, a monorepo's browser build
    "babel": ("@babel/standalone", "7.29.13"),  # babel.min.js, rollup + terser, monorepo siblings by relative paths
    "segment": ("@segment/analytics-next", "1.84.3"),  # dist/umd/standalone.js, webpack 5 production, UMD
    "tesseract": ("tesseract.js", "7.0.0"),  # dist/worker.min.js, webpack 5 production over Babel
    "less": ("less", "4.9.1"),  # dist/less.min.js, rollup + Babel + terser, UMD, pnpm paths
    "parcel-utils": ("@parcel/utils", "2.12.0"),  # lib/index.js, parcel 2 library build, a sourceRoot
    "parcel-dev-server": ("@parcel/reporter-dev-server", "2.12.0"),  # lib/ServerReporter.js, parcel 2, nested installs
    "shaka": ("shaka-player", "4.3.16"),  # dist/shaka-player.compiled.js, Closure Compiler, a map without sources
    "swagger-ui": ("swagger-ui-dist", "3.52.5"),  # swagger-ui-bundle.js, webpack 4 production, core-js-pure
    "amplify": ("aws-amplify", "4.3.46"),  # dist/aws-amplify.min.js, webpack 4 production, nested installs
    "v-calendar": ("v-calendar", "2.4.2"),  # lib/v-calendar.umd.min.js, vue-cli (webpack 4), loaders' sources
    "msw": ("msw", "2.7.0"),  # lib/iife/index.js, esbuild IIFE, not minified, pnpm paths
    "posthog": ("posthog-js", "1.200.0"),  # dist/array.full.js, rollup + terser, pnpm paths with patch hashes
}
#: bundles whose map names monorepo siblings' sources by relative paths: those are packages too
SIBLINGS = ("socket.io", "ckeditor", "web3", "miniflare", "html-manager")
#: bundles whose map writes its sources relative to webpack's context, the package's root (not the map's folder)
CONTEXT_ROOT = ("ckeditor", "web3", "html-manager")
#: the npm scope of a bundle's monorepo siblings that its package.json does not declare (`../ckeditor5-core/`)
SIBLING_SCOPE = {"ckeditor": "@ckeditor", "miniflare": "@cloudflare"}
class BundleTruth(Truth):
    """`Truth`, and a package installed under an npm alias (`"@jupyter-widgets/base7":
    "npm:@jupyter-widgets/base@4.1.7"` in the bundle's package.json) is the package it names."""

    def __init__(self, bundle: Path, map_path: Path, siblings: bool) -> None:
        super().__init__(bundle, map_path, siblings=siblings)
        package_root = next((p for p in bundle.parents if (p / "package.json").is_file()), bundle.parent)
        manifest = json.loads((package_root / "package.json").read_bytes())
        declared = {**manifest.get("devDependencies", {}), **manifest.get("dependencies", {})}
        self.aliases = {alias: spec[4:].rsplit("@", 1)[0] for alias, spec in declared.items()
                        if isinstance(spec, str) and spec.startswith("npm:") and "@" in spec[5:]}

    def package(self, source: str) -> str | None:
        found = super().package(source)
        return self.aliases.get(found, found) if found else None

SETTINGS = ("lockfile", "auto", "before", "names", "half")
#: the seed of the `half` setting's choice of names
HALF_SEED = 1
EXECUTABLE = ("@anthropic-ai/claude-code-linux-x64", "2.1.235")
LOCKFILES = ("npm-shrinkwrap.json", "package-lock.json", "bun.lock", "pnpm-lock.yaml", "yarn.lock")


CPU: list[float] = []  # CPU seconds (user + system) of each erratlas call, in order


def erratlas(*args: object, quiet: bool = False) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run([ERRATLAS, *map(str, args)], capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    CPU.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    if done.returncode != 0:
        sys.exit(f"erratlas {' '.join(map(str, args))[:200]} failed:\n{done.stderr}")
    if not quiet:
        for line in [x for x in done.stderr.strip().splitlines() if "window" in x or "warning" in x.lower()][:5]:
            print("   ", line, flush=True)
        print("   ", done.stderr.strip().splitlines()[-1] if done.stderr.strip() else "", flush=True)
    return elapsed


def release_time(package: str, version: str) -> str:
    raw = subprocess.run(["npm", "view", package, "time", "--json"], capture_output=True, text=True, check=True).stdout
    return json.loads(raw)[version]


def records(directory: Path) -> list[dict[str, object]]:
    return [json.loads(line) for kind in ("error", "diagnostic")
            for line in (directory / f"{kind}-message-callsites.jsonl").read_text().splitlines()]


def claims(suggestions: Path, scan: Path) -> tuple[dict[str, str], dict[str, str]]:
    """(callsite id -> package of an exact corpus suggestion, ... of any one-package corpus suggestion).
    A suggestion for a group of identical copies (`copies`) claims every copy of the group; one
    naming a copy by its `neighbours`, that copy."""
    groups: dict[str, list[str]] = defaultdict(list)
    for record in records(scan):
        if record.get("copies"):
            groups[record["copies"]["group"]].append(record["id"])  # type: ignore[index]
    exact, named = {}, {}
    for line in suggestions.read_text().splitlines():
        row = json.loads(line)
        if not row["id"].startswith("c:") or row["package"] is None:
            continue
        ids = groups[row["match"]["callsite"]] if row.get("copies") else row["exampleIds"][:1]
        for callsite in ids:
            named[callsite] = row["package"]
            if row["confidence"] == "exact":
                exact[callsite] = row["package"]
    return exact, named


def timed_suggest(scan_dir: Path, corpus: Path, out: Path, runs: int) -> list[float]:
    """Wall seconds of each run; their CPU seconds are printed (a loaded machine stretches wall time)."""
    walls = [erratlas("suggest", scan_dir, "--corpus", corpus, "--out", out, quiet=i > 0) for i in range(runs)]
    print(f"   suggest --corpus CPU (user+system): {', '.join(f'{c:.2f}' for c in CPU[-runs:])} s")
    return walls


def load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def pooled(pool: Path, corpus: Path, back: bool = False) -> None:
    """Hard-link the pool's tarballs and indexes into the corpus (or the corpus's new ones back)."""
    source, target = (corpus, pool) if back else (pool, corpus)
    for folder in ("tarballs", "index"):
        for path in (source / folder).rglob("*") if (source / folder).is_dir() else ():
            if not path.is_file() or path.name.startswith("."):
                continue
            destination = target / path.relative_to(source)
            if destination.exists():
                continue
            destination.parent.mkdir(parents=True, exist_ok=True)
            try:
                os.link(path, destination)
            except OSError:
                shutil.copy2(path, destination)


@dataclass
class Row:
    label: str
    setting: str
    dependency: int
    exact: int
    exact_right: int
    exact_recalled: int
    named: int
    named_right: int
    named_recalled: int
    add_seconds: float = 0.0
    suggest_seconds: float = 0.0
    window: str = ""

    def cells(self) -> str:
        def share(a: int, b: int) -> str:
            return f"{100 * a / b:.2f}%" if b else "n/a"

        return (f"| {self.label} | {self.setting} | {self.dependency} | {self.exact} | "
                f"{self.exact - self.exact_right} | "
                f"{share(self.exact_right, self.exact)} | {share(self.exact_recalled, self.dependency)} | "
                f"{self.named} | {self.named - self.named_right} | {share(self.named_right, self.named)} | "
                f"{share(self.named_recalled, self.dependency)} | {self.window} |")


def map_of(main: Path) -> Path:
    """The map the scan reads beside `main`: its sourceMappingURL's file, else `main`.map."""
    found = find_source_map(main, main.read_bytes())
    assert found is not None and found.where != "inline", f"{main}: no map file beside it"
    return main.parent / found.where


def prepare(label: str, package: str, version: str, work: Path) -> tuple[Path, Path, Truth, Path]:
    main = npm_cache.main_file(package, version)
    map_path = map_of(main)
    print(f"== {label}: {package}@{version} ({main.name}, map {map_path.stat().st_size >> 20} MB); load {load()}",
          flush=True)
    truth_dir, bare_dir, scan_dir = work / label / "truth", work / label / "bare", work / label / "scan"
    if not (truth_dir / "error-message-callsites.jsonl").exists():
        erratlas("scan", main, "--out", truth_dir)
    bare_dir.mkdir(parents=True, exist_ok=True)
    shutil.copy(main, bare_dir / main.name)
    if not (scan_dir / "function-signatures.jsonl").exists():
        erratlas("scan", bare_dir / main.name, "--out", scan_dir, "--signatures")
    summary = json.loads((scan_dir / "error-diagnostic-owner-summary.json").read_text())
    assert all(m["status"] == "none" for m in summary["modules"]["sourceMaps"]), "the map was not withheld"
    truth = BundleTruth(main, map_path, label in SIBLINGS)
    if label in CONTEXT_ROOT:
        truth.map_dir = PurePosixPath(".")
    if label in SIBLING_SCOPE:
        sources = [normalize_source(str(s or "")) for s in json.loads(map_path.read_bytes())["sources"]]
        resolved = [posixpath.normpath(posixpath.join(str(truth.map_dir), s)) for s in sources if not package_of(s)]
        folders = {r.lstrip("./").split("/")[0] for r in resolved if r.startswith("../") and r.count("/") > 1}
        truth.by_dir |= {f: f"{SIBLING_SCOPE[label]}/{f}" for f in folders if f not in truth.by_dir}
    return truth_dir, scan_dir, truth, main


def evaluate(label: str, package: str, version: str, work: Path, settings: list[str], runs: int) -> list[Row]:
    truth_dir, scan_dir, truth_reader, main = prepare(label, package, version, work)
    sources = json.loads(map_of(main).read_bytes())["sources"]
    names = truth_reader.names([normalize_source(str(s or "")) for s in sources])
    truth = {str(r["id"]): (truth_reader.package(str(r["origin"]["source"])) if r["origin"] else None)  # type: ignore[index]
             for r in records(truth_dir)}
    package_root = next(p for p in main.parents if (p / "package.json").is_file())
    out = []
    for setting in settings:
        corpus = work / "corpora" / setting / label
        if setting == "lockfile":
            lockfile = next((package_root / n for n in LOCKFILES if (package_root / n).is_file()), None)
            if lockfile is None:
                print(f"   {setting}: the package ships no lockfile: n/a")
                continue
            specs: list[object] = [lockfile]
        elif setting == "half":
            specs = sorted(random.Random(HALF_SEED).sample(sorted(names), len(names) // 2))
            if not specs:
                print(f"   {setting}: half of {len(names)} package names is none: n/a")
                continue
        else:
            specs = list(names)
        extra: list[object] = {"auto": ["--for", main], "half": ["--for", main],
                               "before": ["--before", release_time(package, version)],
                               "names": [], "lockfile": []}[setting]
        given = f"{len(specs)} of " if setting == "half" else ""
        print(f"   {setting}: {given}{len(names)} package names from the map, corpus {corpus}; load {load()}",
              flush=True)
        pooled(work / "pool", corpus)
        add_seconds = erratlas("corpus", "add", *specs, "--corpus", corpus, *extra)
        pooled(work / "pool", corpus, back=True)
        suggestions = work / label / f"suggestions-{setting}.jsonl"
        seconds = timed_suggest(scan_dir, corpus, suggestions, runs)
        exact, named = claims(suggestions, scan_dir)
        row = report(label, setting, truth, exact, named)
        row.add_seconds, row.suggest_seconds = add_seconds, statistics.median(seconds)
        manifest = json.loads((corpus / "corpus.json").read_text())
        row.window = str(manifest.get("window", {}).get("before", "")) if setting in ("auto", "half") else ""
        print(f"   corpus add: {add_seconds:.1f} s; suggest --corpus: {', '.join(f'{s:.2f}' for s in seconds)} s; "
              f"load {load()}", flush=True)
        out.append(row)
    return out


def report(label: str, setting: str, truth: dict[str, str | None], exact: dict[str, str],
           named: dict[str, str]) -> Row:
    dependency = {i: p for i, p in truth.items() if p}
    per: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0, 0])  # callsites, exact claimed, exact right, named ..
    for p in dependency.values():
        per[p][0] += 1
    for i, p in exact.items():
        per[p][1] += 1
        per[p][2] += truth.get(i) == p
    for i, p in named.items():
        per[p][3] += 1
        per[p][4] += truth.get(i) == p
    print(f"   {'package':44} {'callsites':>9} {'exact':>6} {'right':>6} {'named':>6} {'right':>6}")
    for package, (n, e, er, c, cr) in sorted(per.items(), key=lambda kv: (-kv[1][0], kv[0])):
        print(f"   {package:44} {n:9} {e:6} {er:6} {c:6} {cr:6}")
    counts = []
    for what, claimed in (("exact", exact), ("one package named", named)):
        right = sum(1 for i, p in claimed.items() if truth.get(i) == p)
        recalled = sum(1 for i, p in dependency.items() if claimed.get(i) == p)
        counts.append((len(claimed), right, recalled))
        wrong = Counter((p, truth.get(i)) for i, p in claimed.items() if truth.get(i) != p)
        print(
            f"   {label} [{setting}] {what}: {len(claimed)} claimed, {right} right: precision "
            f"{right / max(1, len(claimed)):.4f}; {recalled} of {len(dependency)} dependency callsites: recall "
            f"{recalled / max(1, len(dependency)):.4f}"
        )
        for (claimed_package, true_package), count in wrong.most_common():
            print(f"      wrong: {count} claimed {claimed_package}, the map says {true_package or 'product'}")
    (e, er, erc), (n, nr, nrc) = counts
    return Row(label, setting, len(dependency), e, er, erc, n, nr, nrc)


def executable(work: Path, names: list[str], runs: int, truth_dir: Path | None) -> None:
    package, version = EXECUTABLE
    binary = npm_cache.main_file(package, version)
    print(f"== 2.1.235: {package}@{version}; load {load()}", flush=True)
    scan_dir = work / "2.1.235" / "scan"
    if not (scan_dir / "function-signatures.jsonl").exists():
        erratlas("scan", binary, "--out", scan_dir, "--signatures")
    corpus = work / "corpora" / "before" / "2.1.235"
    before = release_time("@anthropic-ai/claude-code", version)
    earlier = release_time("@anthropic-ai/claude-code", "2.1.88")
    print(f"   corpus: {len(names)} package names (2.1.88's map), the candidates published before {before} "
          f"and those published before {earlier} (code moves between packages across versions)")
    pooled(work / "pool", corpus)
    index_seconds = erratlas("corpus", "add", *names, "--corpus", corpus, "--before", earlier)
    index_seconds += erratlas("corpus", "add", *names, "--corpus", corpus, "--before", before)
    pooled(work / "pool", corpus, back=True)
    out = work / "2.1.235" / "suggestions.jsonl"
    seconds = timed_suggest(scan_dir, corpus, out, runs)
    exact, named = claims(out, scan_dir)
    rows = records(scan_dir)
    print(f"   {len(rows)} callsites; corpus suggestions claim {len(exact)} exactly, {len(named)} naming one package")
    if truth_dir is not None:
        old = {
            r["fingerprint"]: (package_of(r["origin"]["source"]) if r["origin"] else None) for r in records(truth_dir)
        }  # type: ignore[index]
        by_id = {r["id"]: r["fingerprint"] for r in rows}
        for what, claimed in (("exact", exact), ("one package named", named)):
            shared = [(i, p) for i, p in claimed.items() if by_id[i] in old]
            agree = sum(1 for i, p in shared if old[by_id[i]] == p)
            print(f"   2.1.235 {what}: {len(shared)} claimed callsites share a fingerprint with 2.1.88; "
                  f"{agree} agree with its truth ({agree / max(1, len(shared)):.4f})")
    print(f"   corpus add: {index_seconds:.1f} s; suggest --corpus: {', '.join(f'{s:.2f}' for s in seconds)} s "
          f"(median {statistics.median(seconds):.2f}); load {load()}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--work", type=Path, default=Path("/tmp/erratlas-corpus-eval"))
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--only", default=",".join(TARGETS))
    parser.add_argument("--settings", default=",".join(SETTINGS))
    options = parser.parse_args()
    only, settings = options.only.split(","), options.settings.split(",")
    unknown = [s for s in settings if s not in SETTINGS] + [t for t in only if t not in TARGETS and t != "2.1.235"]
    if unknown:
        parser.error(f"unknown: {', '.join(unknown)}")
    rows: list[Row] = []
    for label, (package, version) in TARGETS.items():
        if label in only:
            rows.extend(evaluate(label, package, version, options.work, settings, options.runs))
    if "2.1.235" in only:
        main88 = npm_cache.main_file(*TARGETS["2.1.88"])
        reader = Truth(main88, main88.with_name(main88.name + ".map"))
        names = reader.names(json.loads(main88.with_name(main88.name + ".map").read_bytes())["sources"])
        truth = options.work / "2.1.88" / "truth"
        executable(options.work, names, options.runs, truth if (truth / "error-message-callsites.jsonl").exists()
                   else None)
    print("\n| bundle | corpus | dependency callsites | exact claims | wrong | precision | recall "
          "| named claims | wrong | precision | recall | window |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    for row in rows:
        print(row.cells())


if __name__ == "__main__":
    main()
