"""Issue 13, part A: broken and hostile JavaScript inputs, Bun executables, source maps and
resource bounds, one test per row of the issue's tables, each through the erratlas command.

Resource rows run the command through `fuzz.runner.run(..., mode="exec")`: the installed
executable, in a case process that sees the peak memory of every process of the command
and every worker it leaves alive.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest
from conftest import FIXTURES, SUMMARY, erratlas_command, records, run, scan, tree_bytes
from fuzz.runner import run as run_watched
from support.bunexe import Module, elf, graph

from analyzer.limits import MAX_CALLSITES, memory_bound

MUTANTS = FIXTURES / "hostile" / "mutants"


def trace_pid(line: str) -> int:
    """The process id of an `ERRATLAS_TRACE` line: `erratlas-trace WALL CPU MIB PID LABEL`."""
    return int(line.split()[4])
MiB = 1 << 20
#: resident program text and shared libraries, which the data bound does not count
PROGRAM_TEXT = 64 * MiB


def one_line_refusal(result: Any, *words: str) -> str:
    """`result`: a finished `run` (returncode) or `run_watched` (code)."""
    code, stderr = result.returncode if hasattr(result, "returncode") else result.code, result.stderr
    assert code == 2, stderr
    lines = stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("erratlas: error: "), stderr
    assert "Traceback" not in stderr
    for word in words:
        assert word in lines[0], lines[0]
    return lines[0]


def summary_of(out: Path) -> dict[str, Any]:
    return json.loads((out / SUMMARY).read_text())  # type: ignore[no-any-return]


def invariants_hold(summary: dict[str, Any]) -> None:
    broken = [row for row in summary["invariants"] if not row["holds"]]
    assert not broken, broken


# ---- corrupt JavaScript: the crash class --------------------------------------------------


@pytest.mark.parametrize("mutant", sorted(p.name for p in MUTANTS.glob("*.js")))
def test_a_corrupt_bundle_scans_with_its_recovered_regions_flagged(tmp_path: Path, mutant: str) -> None:
    """The issue's reproducer and minimized mutants of the demo bundle: the tree's root is an
    ERROR node (no `program` above anything); each scans, flags the regions and counts add up."""
    summary = scan(MUTANTS / mutant, tmp_path / "out")
    invariants_hold(summary)
    assert summary["errorRegions"]["count"] >= 1  # type: ignore[index]
    left = summary["leftOut"]
    assert left["count"] == len(left["listed"])  # type: ignore[index]


def test_a_declaration_in_an_error_root_is_a_binding_not_a_call(tmp_path: Path) -> None:
    """`function Error(q){}` under an ERROR root declares Error: the call after it is shadowed,
    the declaration itself is no callsite, `new TypeError` is the one global error."""
    summary = scan(MUTANTS / "declaration-in-error-root.js", tmp_path / "out")
    errors = records(tmp_path / "out", "error")
    assert [(r["constructor"], r["message"]["text"]) for r in errors] == [("TypeError", "global")]  # type: ignore[index]
    assert summary["shadowed"] == {"declaration-in-error-root.js": {"Error": 1}}
    assert errors[0]["context"]["inErrorRegion"] is True  # type: ignore[index]


# ---- resource bounds ----------------------------------------------------------------------

_SHAPES = {
    "blocks": (b"{", b"}"),
    "functions": (b"function a(){", b"}"),
    "arrows": (b"(()=>{", b"})"),
    "ifs": (b"if(a){", b"}"),
    "try-catch": (b"try{", b"}catch(e){}"),
    "calls": (b"f(", b")"),
}


@pytest.mark.parametrize("shape", sorted(_SHAPES))
def test_a_callsite_nested_a_hundred_thousand_deep_is_found(tmp_path: Path, shape: str) -> None:
    """Every walk is linear in the depth (tree-sitter's `Node.parent` descends from the root:
    climbing by it was quadratic, 9 s at 20,000 levels and past 120 s at 100,000). The
    timeout is the probe's hang guard, not a speed measurement (bench/hostile_shapes.py)."""
    opening, closing = _SHAPES[shape]
    inner = b'new Error("x")' if shape == "calls" else b'throw new Error("x");'
    bundle = tmp_path / "deep.js"
    bundle.write_bytes(opening * 100_000 + inner + closing * 100_000 + b"\n")
    result = run("scan", bundle, "--out", tmp_path / "out", timeout=120)
    assert result.returncode == 0, result.stderr
    (site,) = records(tmp_path / "out", "error")
    assert site["message"]["text"] == "x"  # type: ignore[index]
    invariants_hold(summary_of(tmp_path / "out"))


def test_a_wide_node_the_parser_recovered_is_linear(tmp_path: Path) -> None:
    """An array of errors whose one string lost its quote (the fuzzer's js-shapes #270) is
    recovered into an ERROR node with a child per token: finding each callsite's field by
    listing its parent's children was quadratic (5,000 errors: 32 s of CPU; 20,000: minutes).
    The timeout is the hang guard, not a speed measurement."""
    items = [b'new Error("e"),'] * 20_000
    items[150] = b'new Error("e\x0c),'
    bundle = tmp_path / "wide.js"
    bundle.write_bytes(b"x=[" + b"".join(items) + b"];\n")
    result = run("scan", bundle, "--out", tmp_path / "out", timeout=120)
    assert result.returncode == 0, result.stderr
    assert len(records(tmp_path / "out", "error")) == 19_999
    invariants_hold(summary_of(tmp_path / "out"))


def test_callsites_past_the_bound_are_refused_with_one_line(tmp_path: Path) -> None:
    """A million `new Error("x");` ran past 120 s; past MAX_CALLSITES a unit is refused."""
    bundle = tmp_path / "many.js"
    bundle.write_bytes(b'new Error("x");' * (MAX_CALLSITES + 1))
    result = run("scan", bundle, "--out", tmp_path / "out")
    one_line_refusal(result, str(bundle), f"{MAX_CALLSITES + 1} callsites", "bound")
    assert not (tmp_path / "out").exists()


def test_callsites_nested_in_each_other_past_the_work_bound_are_refused(tmp_path: Path) -> None:
    """4,000 functions nested in each other, each with a callsite: every callsite's scope
    path and enclosing function grow with the depth (16 million scope entries); refused by the
    node-visit bound instead of running for minutes."""
    bundle = tmp_path / "nested.js"
    bundle.write_bytes(b'function a(){new Error("x");' * 4000 + b"}" * 4000)
    result = run("scan", bundle, "--out", tmp_path / "out")
    one_line_refusal(result, str(bundle), "nest too deep", "bound")


def test_semicolons_past_the_memory_bound_are_refused_naming_the_bound(tmp_path: Path) -> None:
    """50 MB of `;` grew to 12.7 GB; 8 MB of them need more than the bound (256 MiB + 96
    bytes per byte): the scan is refused with one line naming it, and no process went past it."""
    bundle = tmp_path / "semicolons.js"
    bundle.write_bytes(b";" * (8 * MiB))
    (tmp_path / "out").mkdir()
    result = run_watched(["scan", str(bundle), "--out", "out"], tmp_path, mode="exec")
    one_line_refusal(result, str(bundle), "memory bound", f"{memory_bound(8 * MiB) // MiB} MiB")
    assert result.peak_rss <= memory_bound(8 * MiB) + PROGRAM_TEXT
    assert result.leftovers == 0
    assert list((tmp_path / "out").iterdir()) == []


@pytest.mark.parametrize("round_", range(3))
def test_handler_records_past_the_memory_bound_are_refused_naming_the_bound(round_: int, tmp_path: Path) -> None:
    """32,000 catch clauses in 1.2 MB: their records need more than the bound, which Python meets
    wherever it allocates (its own error handling too, ending the child with exit status 1,
    SIGABRT, a failure naming a MemoryError, a C function's SystemError for an allocation that
    set no exception, or a stall at the bound, about one run in ten: tests/test_isolated_stall.py):
    each way is the one line naming the bound."""
    bundle = tmp_path / "handlers.js"
    bundle.write_bytes(b"function S(e){}" + b"function f(){try{g()}catch(e){S(e)}}" * 32000 + b"\n")
    result = run("scan", bundle, "--out", tmp_path / "out", "--jobs", 1)
    one_line_refusal(result, str(bundle), "memory bound", f"{memory_bound(bundle.stat().st_size) // MiB} MiB")
    assert not (tmp_path / "out").exists()


def test_a_ten_megabyte_string_costs_a_few_copies_of_itself(tmp_path: Path) -> None:
    """`throw new Error("<10 MB>")` took 1.2 GB (the renderer's string pattern kept a
    backtracking entry per character): now a few copies, and every output is right."""
    literal = b"x" * (10 * MiB)
    bundle = tmp_path / "long.js"
    bundle.write_bytes(b'throw new Error("' + literal + b'");\n')
    result = run_watched(["scan", str(bundle), "--out", "out"], tmp_path, mode="exec")
    assert result.code == 0, result.stderr
    assert result.peak_rss < 256 * MiB + 16 * len(literal), result.peak_rss >> 20
    (site,) = records(tmp_path / "out", "error")
    assert site["message"]["text"] == literal.decode()  # type: ignore[index]


def test_a_parser_crash_is_one_line_naming_the_file(tmp_path: Path) -> None:
    """The process that parses is sent SIGSEGV while it parses (as if tree-sitter crashed):
    exit 2, one line naming the file, nothing written, no worker left."""
    bundle = tmp_path / "big.js"
    bundle.write_bytes((FIXTURES / "demo" / "demo.min.js").read_bytes() * 250)  # 18 MB: seconds of parsing
    assert (
        run("scan", FIXTURES / "demo" / "demo.min.js", "--out", tmp_path / "out").returncode == 0
    )  # a previous output
    before = tree_bytes(tmp_path / "out")
    environment = {**os.environ, "ERRATLAS_TRACE": "1"}
    process = subprocess.Popen([erratlas_command(), "scan", str(bundle), "--out", str(tmp_path / "out")],
                               stderr=subprocess.PIPE, text=True, env=environment)
    assert process.stderr is not None
    lines = []
    for line in process.stderr:
        lines.append(line)
        if "extract: parsing" in line:
            os.kill(trace_pid(line), signal.SIGSEGV)
            break
    rest = process.stderr.read()
    code = process.wait(timeout=600)
    final = [line for line in (lines + rest.splitlines()) if not line.startswith("erratlas-trace")]
    assert code == 2, final
    assert len(final) == 1 and final[0].startswith(f"erratlas: error: {bundle}: "), final
    assert "crashed" in final[0] and "SIGSEGV" in final[0]
    assert tree_bytes(tmp_path / "out") == before
    assert not [p for p in tmp_path.iterdir() if ".tmp-" in p.name]


@pytest.fixture(scope="module")
def quietly_scanned(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(a bundle over 1 MiB, so that the worker ahead is forked; its undisturbed scan), made once.
    Read only."""
    base = tmp_path_factory.mktemp("quiet")
    bundle = base / "big.js"
    bundle.write_bytes((FIXTURES / "demo" / "demo.min.js").read_bytes() * 30)
    scan(bundle, base / "quiet")
    return bundle, base / "quiet"


def test_a_killed_worker_costs_time_never_output(tmp_path: Path, quietly_scanned: tuple[Path, Path]) -> None:
    """The worker ahead, which hashes and renders during the parse, is killed as it starts its
    work: the scan ends as usual, its files byte-identical to an undisturbed scan's."""
    worker = "ahead: working"
    bundle, quiet = quietly_scanned
    environment = {**os.environ, "ERRATLAS_TRACE": "1"}
    process = subprocess.Popen([erratlas_command(), "scan", str(bundle), "--out", str(tmp_path / "out")],
                               stderr=subprocess.PIPE, text=True, env=environment)
    assert process.stderr is not None
    killed = late = False
    for line in process.stderr:
        late = late or " late" in line  # a worker fallen behind on a busy machine is stopped, not killed
        if not killed and line.rstrip().endswith(f" {worker}"):
            with contextlib.suppress(ProcessLookupError):  # it had finished: the scan is still checked
                os.kill(trace_pid(line), signal.SIGKILL)
            killed = True
    assert process.wait(timeout=600) == 0
    assert killed or late
    assert tree_bytes(tmp_path / "out") == tree_bytes(quiet)


# ---- inputs read within bounds ------------------------------------------------------------


def test_a_device_as_the_bundle_is_refused_before_it_is_read(tmp_path: Path) -> None:
    started = time.monotonic()
    result = run("scan", "/dev/zero", "--out", tmp_path / "out", timeout=60)
    one_line_refusal(result, "/dev/zero", "not a regular file")
    assert time.monotonic() - started < 60  # never read until memory runs out


def test_a_bundle_past_the_size_bound_is_refused_unread(tmp_path: Path) -> None:
    bundle = tmp_path / "huge.js"
    with open(bundle, "wb") as handle:  # sparse: no disk used
        handle.truncate(600 * MiB)
    result = run_watched(["scan", str(bundle), "--out", "out"], tmp_path, mode="exec")
    one_line_refusal(result, str(bundle), "bound of 536870912 bytes")
    assert result.peak_rss < 300 * MiB  # refused before reading 600 MB


def _with_map_url(tmp_path: Path, url: bytes, name: str = "bundle.js") -> Path:
    source = (FIXTURES / "hostile" / "hostile.min.js").read_bytes()
    cut = source.rfind(b"//# sourceMappingURL=")
    bundle = tmp_path / name
    bundle.parent.mkdir(parents=True, exist_ok=True)
    bundle.write_bytes(source[:cut] + b"//# sourceMappingURL=" + url + b"\n")
    return bundle


def _map_status(out: Path) -> str:
    (use,) = summary_of(out)["modules"]["sourceMaps"]  # type: ignore[index]
    return use["status"]  # type: ignore[no-any-return]


def test_a_map_url_that_leaves_the_bundles_directory_is_never_opened(tmp_path: Path) -> None:
    """`sourceMappingURL=../outside.map` names a valid map outside the bundle's directory: it
    is not read (it was, and used), and the summary says why."""
    (tmp_path / "outside.map").write_bytes((FIXTURES / "hostile" / "hostile.min.js.map").read_bytes())
    bundle = _with_map_url(tmp_path, b"../outside.map", "inner/bundle.js")
    scan(bundle, tmp_path / "out")
    status = _map_status(tmp_path / "out")
    assert status.startswith("unusable: ../outside.map: the sourceMappingURL leaves the bundle's directory")
    assert all(r["origin"] is None for r in records(tmp_path / "out", "error"))


def test_etc_passwd_as_a_map_url_is_never_opened(tmp_path: Path) -> None:
    bundle = _with_map_url(tmp_path, b"../../../../../../../../etc/passwd")
    scan(bundle, tmp_path / "out")
    assert "leaves the bundle's directory; not read" in _map_status(tmp_path / "out")


def test_a_link_out_of_the_bundles_directory_is_not_followed(tmp_path: Path) -> None:
    (tmp_path / "outside.map").write_bytes((FIXTURES / "hostile" / "hostile.min.js.map").read_bytes())
    bundle = _with_map_url(tmp_path, b"link.map", "inner/bundle.js")
    (tmp_path / "inner" / "link.map").symlink_to(tmp_path / "outside.map")
    scan(bundle, tmp_path / "out")
    assert "a link out of the bundle's directory; not read" in _map_status(tmp_path / "out")


@pytest.mark.parametrize("special", ["fifo", "sparse"])
def test_a_map_that_is_no_regular_file_or_too_big_is_unusable_not_read(tmp_path: Path, special: str) -> None:
    bundle = _with_map_url(tmp_path, b"bundle.js.map")
    target = tmp_path / "bundle.js.map"
    if special == "fifo":
        os.mkfifo(target)
    else:
        with open(target, "wb") as handle:
            handle.truncate(600 * MiB)
    result = run_watched(["scan", str(bundle), "--out", "out"], tmp_path, mode="exec", timeout=120)
    assert result.code == 0 and not result.hung, result.stderr
    status = _map_status(tmp_path / "out")
    assert status.startswith("unusable: bundle.js.map: ")
    assert ("not a regular file" in status) if special == "fifo" else ("bound of 536870912 bytes" in status)
    assert result.peak_rss < 300 * MiB


@pytest.mark.parametrize(
    ("document", "words"),
    [
        ({"version": 3, "sections": [{"offset": "x", "map": {}}]}, "'offset' is not an object"),
        ({"version": 3, "sections": [{"offset": {"line": "1"}, "map": {"version": 3, "sources": [], "mappings": ""}}]},
         "'offset' line and column"),
        ({"version": 3, "sections": [{"offset": {"line": 0, "column": 0}, "map": {"version": 3, "sources": [1],
                                                                                 "mappings": "AAAA"}}]},
         "'sources' holds something other than strings"),
        ({"version": 3, "sections": [{"offset": None, "map": {"version": 3}}]}, "'mappings' or 'sources' missing"),
        ({"version": 3, "sections": {"map": 1}}, "'sections' is not a list"),
        ({"version": 3, "sources": ["a"], "mappings": "g" * 5000}, "VLQ value of more than 60 bits"),
    ],
)
def test_a_malformed_map_is_reported_never_fatal(tmp_path: Path, document: dict[str, object], words: str) -> None:
    bundle = _with_map_url(tmp_path, b"bundle.js.map")
    (tmp_path / "bundle.js.map").write_text(json.dumps(document))
    summary = scan(bundle, tmp_path / "out")
    invariants_hold(summary)
    status = _map_status(tmp_path / "out")
    assert status.startswith("unusable: bundle.js.map: ") and words in status, status


def test_a_300_character_map_url_is_reported_never_fatal(tmp_path: Path) -> None:
    bundle = _with_map_url(tmp_path, b"m" * 300 + b".map")
    scan(bundle, tmp_path / "out")
    status = _map_status(tmp_path / "out")
    assert status.startswith("unusable: mmmm") and "(304 characters): cannot read (File name too long)" in status
    assert len(status) < 250


# ---- names --------------------------------------------------------------------------------


def _executable(tmp_path: Path, modules: list[Module], name: str = "app") -> Path:
    path = tmp_path / name
    path.write_bytes(elf(graph(modules)))
    return path


def test_a_250_byte_embedded_name_gets_a_short_rendering_name(tmp_path: Path) -> None:
    long = "/$bunfs/root/" + "a" * 250 + ".js"
    summary = scan(_executable(tmp_path, [Module(long, b'throw new Error("x");')]), tmp_path / "out")
    (site,) = records(tmp_path / "out", "error")
    assert site["unit"] == long
    (rendering,) = (tmp_path / "out" / "readable").iterdir()
    assert len(rendering.name.encode()) <= 255
    pages = "".join(p.read_text() for p in (tmp_path / "out" / "index").iterdir())  # the index's pages link to code
    assert f"readable/{rendering.name}" in pages
    invariants_hold(summary)


def test_two_embedded_modules_of_one_name_are_two_units(tmp_path: Path) -> None:
    twin = "/$bunfs/root/a.js"
    second = b'new Error("second");'
    modules = [Module(twin, b'new Error("first");'), Module(twin, second + b'new TypeError("third");')]
    summary = scan(_executable(tmp_path, modules), tmp_path / "out")
    invariants_hold(summary)
    units = [u["name"] for u in summary["inputs"]["units"]]  # type: ignore[index]
    assert units == [twin, f"{twin}#1"]
    assert [m["path"] for m in summary["inputs"]["embedded"]] == [twin, twin]  # type: ignore[index]
    assert {r["id"] for r in records(tmp_path / "out", "error")} == {
        f"e:{twin}@0", f"e:{twin}#1@0", f"e:{twin}#1@{len(second)}"}


def test_an_embedded_name_that_is_not_utf8_is_kept(tmp_path: Path) -> None:
    scan(_executable(tmp_path, [Module(b"/$bunfs/root/caf\xe9.js", b'new Error("x");')]), tmp_path / "out")
    (site,) = records(tmp_path / "out", "error")
    assert site["unit"] == "/$bunfs/root/caf\\xe9.js"


def test_a_bundle_file_name_that_is_not_utf8_is_kept(tmp_path: Path) -> None:
    bundle = Path(os.fsdecode(bytes(tmp_path) + b"/caf\xe9.js"))
    bundle.write_bytes(b'throw new Error("x");\n')
    summary = scan(bundle, tmp_path / "out")
    (site,) = records(tmp_path / "out", "error")
    assert site["unit"] == "caf\\xe9.js" and site["id"] == "e:caf\\xe9.js@6"
    assert summary["inputs"]["bundle"]["name"] == "caf\\xe9.js"  # type: ignore[index]


@pytest.mark.parametrize(
    ("names", "files"),
    [
        (["/$bunfs/root/a", "/$bunfs/root/a/b.js"], ["root/a", "module-1~b.js"]),
        (["/$bunfs/root/a/b.js", "/$bunfs/root/a"], ["root/a/b.js", "root/a~1"]),
        ([b"/$bunfs/root/a\x00b.js"], ["root/a_b.js"]),
        (["/$bunfs/root/x.js", "manifest.json"], ["root/x.js", "manifest.json~1"]),
    ],
)
def test_extract_writes_every_module_whatever_the_names(
    tmp_path: Path, names: list[str | bytes], files: list[str]
) -> None:
    modules = [Module(name, f"new Error('{index}');".encode()) for index, name in enumerate(names)]
    result = run("extract", _executable(tmp_path, modules), "--out", tmp_path / "x")
    assert result.returncode == 0, result.stderr
    manifest = json.loads((tmp_path / "x" / "manifest.json").read_text())
    assert manifest["schema"] == "erratlas.extract/1"
    assert [m["file"] for m in manifest["modules"]] == files
    for index, file in enumerate(files):
        assert (tmp_path / "x" / file).read_bytes() == f"new Error('{index}');".encode()


# ---- rules --------------------------------------------------------------------------------


def test_rules_nested_twenty_thousand_deep_are_one_line(tmp_path: Path, demo_bundle: Path) -> None:
    rules = tmp_path / "rules.toml"
    rules.write_text("[errors]\nconstructors = " + "[" * 20000 + "]" * 20000 + "\n")
    result = run("scan", demo_bundle, "--out", tmp_path / "out", "--rules", rules)
    one_line_refusal(result, str(rules), "nests brackets more than")


def test_a_commands_peak_is_its_own_not_the_test_processs(tmp_path: Path) -> None:
    """The resource rows' bounds are the command's: run with `mode="exec"` it starts in a new
    process, so however large the test process has grown, its size is no part of the peak."""
    bundle = tmp_path / "bundle.js"
    bundle.write_bytes(b'throw new Error("x");\n')
    ballast = b"x" * (400 * MiB)  # resident: a forked child would start with it
    result = run_watched(["scan", str(bundle), "--out", "out"], tmp_path, mode="exec")
    del ballast
    assert result.code == 0, result.stderr
    assert result.peak_rss < 200 * MiB, result.peak_rss >> 20
