"""The sliced read against the whole one on random programs (docs/slices.md): each seed makes a
program of top-level statements in the shapes bundles hold (functions throwing, handlers of every
disposition, promise handlers, logger candidates with a default level, error classes, esbuild's
`__commonJS`/`__esm` modules, build constants, padding), sometimes in Bun's CJS wrapper; the
installed `erratlas scan --jobs 1` reads it whole (`--slices 1`) and cut in 2, 3 and 4 + seed % 9
slices, and every output file and the exit status must be the same.

usage: python bench/slices_fuzz.py [--seeds FIRST:LAST] [--bun SHARE] [--keep DIR] [--erratlas PATH]

Prints, per cut count, how many reads were in slices and each reason a unit was read whole
instead (the trace's), then every failure (seed, cut count, the files that differ); `--keep`
copies each failing program there. Exit status 1 when any read differs from the whole."""

from __future__ import annotations

import argparse
import collections
import os
import pathlib
import random
import re
import shutil
import subprocess
import sys
import tempfile

NAMES = ["a", "b", "c", "e", "t", "n", "r", "cb", "done", "reject", "report", "log", "N", "V", "fail", "handle",
         "sink", "x1", "y2"]
CLASSES = ["AppErr", "NetErr", "TErr", "Base"]
CONSTANTS = ["K1", "K2", "K3"]
ESBUILD_HEAD = [
    "var __getOwnPropNames = Object.getOwnPropertyNames;",
    "var __esm = (fn, res) => function __init() { return fn && (res = (0, fn[__getOwnPropNames(fn)[0]])(fn = 0)), "
    "res; };",
    "var __commonJS = (cb, mod) => function __require() { return mod || (0, cb[__getOwnPropNames(cb)[0]])((mod = "
    "{ exports: {} }).exports, mod), mod.exports; };",
]
BUN_HEAD = "// @bun @bun-cjs\n(function(exports, require, module, __filename, __dirname) {"


class _Program:
    """One seed's program (the statements drawn in order from one `random.Random`)."""

    def __init__(self, seed: int) -> None:
        self.random = random.Random(seed)

    def name(self) -> str:
        return self.random.choice(NAMES)

    def message(self) -> str:
        draw, r = self.random.random(), self.random
        if draw < .3:
            return repr(r.choice(["boom", "bad input", "timeout", "not found", "oops"]))
        if draw < .5:
            return r.choice(CONSTANTS)
        if draw < .7:
            return f"`failed ${{{self.name()}}} with {r.choice(CONSTANTS)} ${{{r.choice(CONSTANTS)}}}`"
        if draw < .85:
            return f"{r.choice(CONSTANTS)} + {self.name()}"
        return f"{r.choice(CONSTANTS)}.msg"

    def error(self) -> str:
        r = self.random
        return f"new {r.choice(['Error', 'TypeError', 'RangeError', r.choice(CLASSES), r.choice(CLASSES)])}" \
               f"({self.message()})"

    def disposition(self, caught: str) -> str:
        r = self.random
        draw = r.randrange(16)  # drawn first, then every choice (each draws, chosen or not)
        return [f"{self.name()}({caught});", f"{self.name()}({self.message()}, {caught});", f"throw {caught};",
                f"throw {self.error()};", "return;", f"console.error({caught});", f"console.warn({self.message()});",
                f"N({self.message()}, {{level: '{r.choice(['error', 'warn', 'info'])}'}});", "",
                f"{caught}.handled = true;", f"return {self.name()}({caught});",
                f"if ({caught} instanceof {r.choice(CLASSES)}) {self.name()}({caught}); else throw {caught};",
                f"{self.name()}.{r.choice(['error', 'emit', 'push'])}({caught});", f"N({caught}, {{level: 'error'}});",
                f"{self.name()}(null, {caught});", f"reject({caught});"][draw]

    def body(self, depth: int = 0) -> str:
        r = self.random
        draw, caught = r.randrange(10), r.choice(["e", "err", "t", "n"])
        if draw < 3:
            called, first = self.name(), self.disposition(caught)
            extra = self.disposition(caught) if r.random() < .3 else ""
            return f"try {{ {called}(); }} catch ({caught}) {{ {first} {extra} }}"
        if draw < 5:
            return f"if (!{self.name()}) throw {self.error()}; return {self.name()};"
        if draw < 6:
            return f"return {self.name()}().catch(function({caught}) {{ {self.disposition(caught)} }});"
        if draw < 7:
            return f"return {self.name()}().then({self.name()}, {caught} => {{ {self.disposition(caught)} }});"
        if draw < 8:
            return (f"return new Promise((resolve, reject) => {{ try {{ resolve({self.name()}()); }} catch ({caught}) "
                    f"{{ {self.disposition(caught)} }} }});")
        if draw < 9 and depth < 2:
            return f"var {self.name()} = function({self.name()}) {{ {self.body(depth + 1)} }}; {self.body(depth + 1)}"
        return f"{self.name()}({self.error()});"

    def statement(self, at: int) -> str:
        r = self.random
        draw = r.randrange(24)
        if draw < 6:
            return f"function {self.name()}({self.name()}, {self.name()}) {{ {self.body()} }}" + (
                ";" if r.random() < .8 else "")
        if draw < 8:
            return f"var {self.name()} = function({self.name()}) {{ {self.body()} }};"
        if draw < 9:
            return f"const {self.name()}{at} = ({self.name()}) => {{ {self.body()} }};"
        if draw < 10:
            return f"{r.choice(['var', 'let'])} {self.name()}{'' if r.random() < .5 else at} = {self.name()};"
        if draw < 11:
            return f"{self.name()} = {self.name()};"
        if draw < 12:
            name = f"{r.choice(CLASSES)}{'' if r.random() < .6 else at}"
            return (f"class {name} extends {r.choice(['Error', 'TypeError', *CLASSES])} {{ constructor(m) {{ super(m); "
                    f"this.name = '{r.choice(CLASSES)}'; }} }}") + (";" if r.random() < .8 else "")
        if draw < 13:
            return f"class {self.name()}{at} {{ m({self.name()}) {{ {self.body()} }} static s() {{ {self.body()} }} }};"
        if draw < 14:
            return f"{self.name()}.prototype.m{at} = function() {{ {self.body()} }};"
        if draw < 15:
            constant = r.choice(CONSTANTS)
            value = r.choice([repr(f"kmsg {at}"), f"{{msg: {f'kobj {at}'!r}}}"])
            return f"var {constant} = {value};"
        if draw < 16:
            return f"(function() {{ {self.body()} }})();"
        if draw < 17 and r.random() < .1:
            return f"try {{ {self.name()}(); }} catch (e) {{ {self.disposition('e')} }}"
        if draw < 18:
            return (f"var require_m{at} = __commonJS({{ 'src/m{at}.js'(exports, module) {{ {self.body()} "
                    f"module.exports = {self.name()}; }} }});")
        if draw < 19:
            return f"var init_e{at} = __esm({{ 'src/e{at}.js'() {{ init_e{max(0, at - 3)}(); {self.body()} }} }});"
        if draw < 20:
            return f"function N(m, o = {{level: 'debug'}}) {{ {self.name()}.push(m); }};"
        if draw < 21 and r.random() < .1:
            return f"{self.name()}().then(null, {self.name()});"
        if draw < 22:
            return f"var pad{at} = [{','.join(str(j) for j in range(r.randrange(5, 60)))}];"
        if draw < 23:
            return f"var {self.name()}{at} = {self.name()}.bind(null);"
        return f"Object.defineProperty(exports, 'x{at}', {{ get: function() {{ {self.body()} }} }});"


def program(seed: int, bun: float = .15) -> str:
    """The program of `seed`; in Bun's CJS wrapper with probability `bun`."""
    made = _Program(seed)
    r = made.random
    count = r.randrange(30, 160)
    lines = (ESBUILD_HEAD if r.random() < .6 else []) + [made.statement(at) for at in range(count)]
    text = ("\n" if r.random() < .5 else "").join(lines) + "\n"
    return BUN_HEAD + text + "})\n" if r.random() < bun else text


def cuts(seed: int) -> list[int]:
    """The cut counts a seed's program is read with besides the whole."""
    return [2, 3, 4 + seed % 9]


def _files(directory: pathlib.Path) -> dict[str, bytes]:
    return {str(p.relative_to(directory)): p.read_bytes() for p in sorted(directory.rglob("*")) if p.is_file()}


def compare(erratlas: str, source: pathlib.Path, count: int, work: pathlib.Path,
            whole: tuple[int, dict[str, bytes]]) -> tuple[list[str], str]:
    """The files a read in `count` slices writes differently from the whole read (the exit
    status as `<status>` when it differs), and how the unit was read (`sliced`, or why whole)."""
    out = work / f"sliced-{count}"
    shutil.rmtree(out, ignore_errors=True)
    done = subprocess.run([erratlas, "scan", str(source), "--out", str(out), "--jobs", "1", "--slices", str(count)],
                          capture_output=True, text=True, env={**os.environ, "ERRATLAS_TRACE": "1"})
    fallback = re.search(r"the whole tree: (.*)", done.stderr)
    how = re.sub(r"\d+", "N", fallback.group(1))[:70] if fallback else "sliced"
    if done.returncode != whole[0]:
        return ["<status>"], how
    files = _files(out) if out.exists() else {}
    return sorted(name for name in set(files) | set(whole[1]) if files.get(name) != whole[1].get(name)), how


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", default="0:199", help="FIRST:LAST, both included")
    parser.add_argument("--bun", type=float, default=.15, help="the share of programs in Bun's wrapper")
    parser.add_argument("--keep", type=pathlib.Path, help="where to copy each failing program")
    parser.add_argument("--erratlas", default=shutil.which("erratlas") or "erratlas")
    arguments = parser.parse_args()
    first, last = (int(part) for part in arguments.seeds.split(":"))
    reads: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    failures: list[str] = []
    with tempfile.TemporaryDirectory(prefix="erratlas-fuzz-") as temporary:
        work = pathlib.Path(temporary)
        source = work / "case.js"
        for seed in range(first, last + 1):
            source.write_text(program(seed, arguments.bun), encoding="utf-8")
            shutil.rmtree(work / "whole", ignore_errors=True)
            done = subprocess.run([arguments.erratlas, "scan", str(source), "--out", str(work / "whole"), "--jobs", "1",
                                   "--slices", "1"], capture_output=True)
            whole = (done.returncode, _files(work / "whole") if (work / "whole").exists() else {})
            for count in cuts(seed):
                differ, how = compare(arguments.erratlas, source, count, work, whole)
                reads[f"N={count}" if count < 4 else "N=4..12"][how] += 1
                if differ:
                    failures.append(f"seed {seed} N={count} ({how}): {', '.join(differ[:6])}")
                    if arguments.keep is not None:
                        arguments.keep.mkdir(parents=True, exist_ok=True)
                        shutil.copy(source, arguments.keep / f"seed-{seed}.js")
    print(f"seeds {first}..{last}, {sum(sum(c.values()) for c in reads.values())} sliced reads against the whole\n")
    print("| cuts | read | count |\n|---|---|---:|")
    for cut, counter in sorted(reads.items()):
        for how, count in counter.most_common():
            print(f"| {cut} | {how} | {count} |")
    print(f"\n{len(failures)} differ from the whole read")
    for failure in failures:
        print(f"- {failure}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
