"""The sliced extraction's driver (docs/slices.md, "Steps 3, 9 and 10: the driver as built"): a
scan with the unit read as N slices (`scan --slices N`, the executor's cut count) writes every output
file byte for byte as the whole tree's scan does, and each reason a unit is not sliced is
counted and said in the trace, never in the outputs."""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

import pytest
from conftest import FIXTURES, run, tree_bytes
from test_module_rows import SYNTHETIC as ESM_UNITS
from test_slices_classes import SYNTHETIC as CLASS_UNITS
from test_slices_facts import FACTS
from test_slices_handlers import HEAVY as HEAVY_HANDLERS
from test_slices_handlers import LOGGER as LOGGED_HANDLERS
from test_slices_handlers import SINK as SINK_HANDLERS
from test_slices_references import BUN_HEAD
from test_slices_references import SYNTHETIC as REFERENCE_UNITS

from analyzer.javascript import slice_helpers, sliced, slices
from analyzer.javascript.rules import compile_rules
from analyzer.javascript.sliced import SlicedHalves, sliced_halves
from analyzer.limits import BoundExceeded, WorkBudget
from analyzer.parallel.executor import SLICE_BYTES, SLICED_MIN_BYTES, Inline, executor_for
from analyzer.rules import load_rules
from analyzer.scan import scan, scan_input

#: the cross-slice cases of docs/slices.md's "Order of work", one statement each (a `;` ends
#: each, so the plan can cut between any two): a function used before its declaration, a logger
#: declared after its calls, a candidate with option calls in one slice and plain calls in
#: others, a sink called from several slices, an error class chain over three slices, an ES5
#: class whose base is declared elsewhere, a protected block calling a thrower through a third
#: function, module-level `throw Error()` and a module-level `var e = Error()` thrown later
CROSS = (
    'L("start",{level:"info"});'
    'function early(){if(!ok)throw new Error("early "+later(1));return 1};'
    "try{early()}catch(e){sink(e)};"
    'V("v1",{level:"warn"});V("v2",{level:"warn"});'
    "class A extends Error{};"
    'function thrower(){throw new A("t")};'
    "function middle(){return thrower()};"
    "var ok=0,e0=Error(\"kept\");"
    "class B extends A{};"
    'try{middle()}catch(e){L(e,{level:"error"})};'
    'function Base(m){this.message=m};'
    'class C extends B{constructor(){super("c")}};'
    'var D=function(e){__extends(t,e);function t(){return e.call(this,"d")||this}return t}(Base);'
    'function later(n){L("later",{level:"debug"});V("plain");return new C()};'
    "function sink(e){report(e)};"
    "try{later(2)}catch(e){sink(e)};"
    "p.then(function(){return new D()}).catch(function(e){sink(e)});"
    'if(!ok)throw Error("top");'
    "function __extends(d,b){d.prototype=Object.create(b.prototype)};"
    "function L(m,o){console.log(m,o)};"
    "function V(m){sink(m)};"
    "throw e0;"
)
#: CROSS with its handlers inside functions (the handlers at L's own level read whole: step 8)
HANDLED = (CROSS.replace("try{early()}catch(e){sink(e)};", "function t1(){try{early()}catch(e){sink(e)}};")
           .replace('try{middle()}catch(e){L(e,{level:"error"})};',
                    'function t2(){try{middle()}catch(e){L(e,{level:"error"})}};')
           .replace("try{later(2)}catch(e){sink(e)};", "function t3(){try{later(2)}catch(e){sink(e)}};")
           .replace("p.then(function(){return new D()}).catch(function(e){sink(e)});",
                    "function t4(){p.then(function(){return new D()}).catch(function(e){sink(e)})};"))
#: a top-level `var Error` shadows the constructor calls of every other slice
SHADOWED = 'function f(){return Error("a")};var g=function(){throw new Error("b")};var Error=function(m){};f();g();'
#: the facts' units with no ES5 class at L's level, which reads the unit whole (stage 7)
SCANNED_FACTS = FACTS.replace("E5.prototype=Object.create(Error.prototype);", "")
UNITS = {
    "cross.js": CROSS.encode(),
    "cross.bun.js": (BUN_HEAD + CROSS.replace("throw e0;", 'exports(Error("x"));throw e0;') + "})\n").encode(),
    "cross.iife.js": ("(function(){" + CROSS + "})();\n").encode(),
    "cross.handled.js": HANDLED.encode(),
    "cross.handled.bun.js": (BUN_HEAD + HANDLED + "})\n").encode(),
    "shadowed.js": SHADOWED.encode(),
    "shadowed.bun.js": (BUN_HEAD + SHADOWED + "})\n").encode(),
    "facts.js": SCANNED_FACTS.encode(),
    "facts.bun.js": (BUN_HEAD + SCANNED_FACTS + "})\n").encode(),
    **{f"references.{name}": source for name, source in REFERENCE_UNITS.items()},
    **{f"modules.{name}.js": source for name, source in ESM_UNITS.items()},
    **CLASS_UNITS,
    # a sink declared last and called from several slices; a logger declared after its calls,
    # handlers logging through it (docs/slices.md, "Step 7 as built")
    "handlers.sink.js": SINK_HANDLERS.encode(),
    "handlers.sink.bun.js": (BUN_HEAD + SINK_HANDLERS + "})\n").encode(),
    "handlers.logger.js": LOGGED_HANDLERS.encode(),
    "handlers.logger.bun.js": (BUN_HEAD + LOGGED_HANDLERS + "})\n").encode(),
    "handlers.heavy.js": HEAVY_HANDLERS.encode(),
    "handlers.heavy.bun.js": (BUN_HEAD + HEAVY_HANDLERS + "})\n").encode(),
}
#: units with a handler at L's own level: its anchor is a window over L, which reaches a cut in
#: every plan of these small units (docs/slices.md, step 8), so they are read whole
MODULE_LEVEL_HANDLERS = frozenset({"cross.js", "cross.bun.js"})
FIXTURE_FILES = sorted([*(FIXTURES / "demo").glob("*.min.js"), *(FIXTURES / "shadowing").glob("*.*js")])
#: the units holding a callsite at module level: their facts are the whole tree's (step 8)
MODULE_LEVEL = {"cross.js", "cross.bun.js", "shadowing.js", "cross.handled.js", "cross.handled.bun.js"}
TRACE = {**os.environ, "ERRATLAS_TRACE": "1"}
RULES = compile_rules(load_rules("javascript"))


def scanned(bundle: Path, out: Path, *extra: object) -> tuple[dict[str, bytes], str]:
    """Every output file of a one-job scan, and the trace."""
    done = run("scan", bundle, "--out", out, "--jobs", 1, *extra, env=TRACE)
    assert done.returncode == 0, done.stderr
    return tree_bytes(out), done.stderr


def input_of(tmp_path: Path, name: str) -> Path:
    if name in UNITS:
        path = tmp_path / name
        path.write_bytes(UNITS[name])
        return path
    return next(path for path in FIXTURE_FILES if path.name == name)


def _slice_counts() -> list[object]:
    """Each of the 37 inputs read in 7 slices (the most cuts: every cross-slice case split) and
    in 2 or 3, taken in turn (2 on 19 inputs, 3 on 18); the other of 2 and 3 is `long` (in CI, 37
    sliced scans fewer, ~14 s)."""
    cases: list[object] = []
    for number, name in enumerate([*(path.name for path in FIXTURE_FILES), *UNITS]):
        few, other = (2, 3) if number % 2 == 0 else (3, 2)
        cases.append(pytest.param(name, (few, 7), id=f"{name}-{few}-7"))
        cases.append(pytest.param(name, (other,), id=f"{name}-{other}", marks=pytest.mark.long))
    return cases


@pytest.mark.parametrize(("name", "counts"), _slice_counts())
def test_a_scan_in_slices_writes_the_whole_trees_outputs(tmp_path: Path, name: str, counts: tuple[int, ...]) -> None:
    bundle = input_of(tmp_path, name)
    whole, _ = scanned(bundle, tmp_path / "whole")
    planned = slices.plan(bundle.read_bytes(), 2) is not None
    for count in counts:
        outputs, trace = scanned(bundle, tmp_path / f"sliced-{count}", "--slices", count)
        assert outputs == whole, f"{count} slices"
        if planned and name in MODULE_LEVEL_HANDLERS:
            assert "the whole tree: a module-level handler at" in trace
        elif planned:  # the slices were read and merged: no whole tree
            read = slices.plan(bundle.read_bytes(), count)
            assert read is not None
            assert f"slice {len(read.ranges)} of {len(read.ranges)} read" in trace
            if name in MODULE_LEVEL:
                assert "the whole tree: a callsite at module level: its facts read L across the cuts" in trace
            else:
                assert "merged from slices" in trace and "extract: parsing" not in trace
            assert "the check failed" not in trace
        else:
            assert "the whole tree: no plan" in trace


def test_the_units_made_here_are_sliced_but_iife_lists() -> None:
    """So the scans above read them in slices, not whole; the plan's L is the program or Bun's
    wrapper body, never an IIFE's body (docs/slices.md, "Step 1 as built")."""
    for name, source in UNITS.items():
        assert (slices.plan(source, 3) is None) == ("iife" in name), name


def test_one_slice_reads_no_slice(tmp_path: Path) -> None:
    _, trace = scanned(FIXTURES / "demo" / "demo.cjs.min.js", tmp_path / "out")
    assert "slices:" not in trace


@pytest.mark.parametrize("name", ["facts.js", "handlers.sink.bun.js", "demo.bun.min.js"])
def test_slices_shared_with_a_worker_give_the_same_outputs(tmp_path: Path, name: str) -> None:
    """With two jobs a forked worker reads the slices from the last (docs/slices.md, step 10)."""
    bundle = input_of(tmp_path, name)
    whole, _ = scanned(bundle, tmp_path / "whole")
    done = run("scan", bundle, "--out", tmp_path / "shared", "--jobs", 2, "--slices", 7, env=TRACE)
    assert done.returncode == 0, done.stderr
    assert tree_bytes(tmp_path / "shared") == whole
    assert "scan: slice worker forked" in done.stderr
    assert "both ends: " in done.stderr


def test_the_cut_count_is_the_executors() -> None:
    """By the unit's size when a worker can share the slices; as asked (`--slices`) on any."""
    large = 27 << 20
    assert Inline().slices_for(large) == executor_for(1).slices_for(large) == 1
    assert executor_for(2).slices_for(SLICED_MIN_BYTES - 1) == 1
    assert executor_for(2).slices_for(SLICED_MIN_BYTES) == max(2, round(SLICED_MIN_BYTES / SLICE_BYTES)) + 2 == 4
    assert executor_for(2).slices_for(large) == 9 + 2  # the middle ones smaller (`slices.shares`)
    assert executor_for(1, 3).slices_for(10) == executor_for(2, 3).slices_for(10) == 3
    assert executor_for(2, 1).slices_for(large) == 1


def test_the_middle_slices_are_the_smaller_where_two_readers_meet() -> None:
    """The plan's slices near the middle of L are smaller (`slices.shares`), so that the scan and
    its worker reading from both ends meet with little left (docs/slices.md, step 10); the
    first and last keep a full share, and the ranges tile L at statement ends."""
    assert slices.shares(2) == [1.0, 1.0]
    assert slices.shares(4) == [1.0, 0.36, 0.36, 1.0]
    assert slices.shares(7) == [1.0, 1.0, 0.6, 0.36, 0.6, 1.0, 1.0]
    source = b"".join(b"f%d();" % index for index in range(20_000))
    for count in (3, 6, 11):
        made = slices.plan_of(source, count)
        assert isinstance(made, slices.Plan) and len(made.ranges) == count
        sizes = [end - start for start, end in made.ranges]
        assert [start for start, _ in made.ranges[1:]] == [end for _, end in made.ranges[:-1]]
        total = sum(slices.shares(count))
        for size, share in zip(sizes, slices.shares(count), strict=True):
            assert abs(size - len(source) * share / total) < 20  # a statement's bytes at most
        assert source[made.ranges[1][0] - 1:made.ranges[1][0]] == b";"


def test_a_unit_with_no_plan_is_read_whole(tmp_path: Path) -> None:
    _, trace = scanned(FIXTURES / "demo" / "demo.webpack.min.js", tmp_path / "out", "--slices", 3)
    assert "the whole tree: no plan: one stretch holds most of L" in trace


def test_signatures_read_the_whole_tree(tmp_path: Path) -> None:
    whole, _ = scanned(FIXTURES / "demo" / "demo.cjs.min.js", tmp_path / "whole", "--signatures")
    outputs, trace = scanned(FIXTURES / "demo" / "demo.cjs.min.js", tmp_path / "out", "--signatures", "--slices", 3)
    assert outputs == whole
    assert "the whole tree: --signatures reads the whole tree" in trace


def test_a_helper_outside_the_sliced_list_reads_the_unit_whole(tmp_path: Path) -> None:
    """A helper core in the head tree's bytes (here a comment before Bun's wrapper) is found by the
    whole tree only (docs/slices.md, step 6)."""
    core = "/* var Qz=(e,t)=>()=>(t||e((t={exports:{}}).exports,t),t.exports); */\n"
    bundle = tmp_path / "head-helper.js"
    bundle.write_bytes((core + BUN_HEAD + ESM_UNITS["program"].decode() + "})\n").encode())
    whole, _ = scanned(bundle, tmp_path / "whole")
    outputs, trace = scanned(bundle, tmp_path / "out", "--slices", 2)
    assert outputs == whole
    assert "the whole tree: a module helper outside L" in trace


def test_a_slice_failing_the_check_reads_the_unit_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    """A regex the scanner took for a division: the slice it is cut in has an error."""
    body = b"\n".join(b"var v%d=f(%d);" % (i, i) for i in range(10))
    source = body + b"\nif(a)/;/.test(b);c=d/2;\n" + body
    cut = source.index(b"/;/") + 2
    made = slices.Plan("program", None, ((0, cut), (cut, len(source))), ((0, cut), (cut, len(source))), 1)
    monkeypatch.setattr(sliced.slices, "plan_of", lambda source, count, scanned=None: made)
    assert sliced_halves("u.js", source, 2, RULES, None) == "the check failed: slice 0 has an error"


@pytest.mark.parametrize("bound", [BoundExceeded("u.js", "too many"), MemoryError()])
def test_a_bound_exceeded_in_a_slice_reads_the_unit_whole(
    monkeypatch: pytest.MonkeyPatch, bound: Exception
) -> None:
    def exceeded(*args: object, **kwargs: object) -> None:
        raise bound

    monkeypatch.setattr(sliced, "slice_modules", exceeded)
    found = sliced_halves("u.js", UNITS["cross.handled.js"], 3, RULES, None)
    assert isinstance(found, str) and found.startswith("a bound exceeded")


def _sliced_scan(bundle: Path, cuts: int):  # type: ignore[no-untyped-def]
    """The scan of `bundle` in this process, its large units read as `cuts` slices."""
    executor = Inline()
    executor.slices = cuts
    return scan(scan_input(bundle), executor=executor)


def test_a_slice_lacking_a_logger_candidate_is_read_again(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """With no byte superset of the candidates, each slice resolves only its own: those lacking
    one the unit has (`V`'s option calls are in one slice, its plain call in another) are read
    again with it, and the sites are the whole tree's."""
    monkeypatch.setattr(sliced, "_logger_candidates", lambda found, rules: frozenset())
    sliced.FALLBACKS.clear()
    again: list[int] = []
    read = sliced.on_slice
    monkeypatch.setattr(sliced, "on_slice", lambda *args: again.append(args[3]) or read(*args))
    bundle = input_of(tmp_path, "facts.js")
    found = _sliced_scan(bundle, 7)
    assert not sliced.FALLBACKS
    assert len(again) > 7 + 1  # the helpers' slice, every slice, then some again
    assert found.callsites == scan(scan_input(bundle)).callsites


def test_an_es5_class_of_the_sliced_lists_level_reads_the_unit_whole(tmp_path: Path) -> None:
    """Its constructor is looked for among L's statements, which no slice holds all of
    (docs/slices.md, stage 7)."""
    bundle = tmp_path / "es5-top.js"
    bundle.write_bytes(b"function K(m){Error.call(this);this.k=m};var z=1;K.prototype=Object.create(Error.prototype);")
    whole, _ = scanned(bundle, tmp_path / "whole")
    outputs, trace = scanned(bundle, tmp_path / "out", "--slices", 2)
    assert outputs == whole
    assert b'"name":"K"' in whole["error-classes.jsonl"]
    assert "the whole tree: error classes: an ES5 class extending Error" in trace
    assert " read" not in trace.split("the whole tree")[0]  # known from the bytes: no slice read first


@pytest.mark.parametrize(("unit", "base"), [
    (b"function K(m){Error.call(this)};var z=1;K.prototype=Object.create(Error.prototype);", "Error"),
    (b"var z=1;\nK . prototype = Object . create ( TypeError . prototype );", "TypeError"),
    # in a function, a string, a comment, a call's argument; a base that is no class root
    (b"function f(){K.prototype=Object.create(Error.prototype)};var z=1;", None),
    (b"var s='K.prototype=Object.create(Error.prototype)';/* K.prototype=Object.create(Error.prototype) */", None),
    (b"g(K.prototype=Object.create(Error.prototype));var z=1;", None),
    (b"var z=1;K.prototype=Object.create(Base.prototype);", None),
    (b"var z=1;K.prototype=Object.recreate(Error.prototype);x=Object.create(Error.prototype);", None),
])
def test_an_es5_error_class_of_a_programs_level_is_seen_in_the_bytes(unit: bytes, base: str | None) -> None:
    """The byte check before any slice (`sliced._es5_error_class_of_program`): an ES5 class of
    the program's level linked to a class root, outside every bracket, string and comment; the
    unit among other statements, so that the plan cuts it."""
    from analyzer.javascript.slice_supersets import scanned_then_supersets

    padding = b"".join(b"var a%d=%d;" % (i, i) for i in range(40))
    source = padding + unit + b";" + padding
    rules = compile_rules(load_rules("javascript"))
    scanned, _ = scanned_then_supersets(source, rules.level_key, rules.options_argument)
    plan = slices.plan_of(source, 2, scanned)
    assert isinstance(plan, slices.Plan), plan
    seen = sliced._es5_error_class_of_program(plan, scanned, frozenset(rules.class_roots))
    assert seen == (None if base is None else (base, source.rindex(b"create")))


def test_a_slice_lacking_an_error_class_name_is_read_again(tmp_path: Path) -> None:
    """One-letter names are not among the heritage words every slice resolves: the slice calling
    `new Q()` (and those naming `C`, `X` out of a heritage) did not resolve them, and the ES5
    classes make the merge search their references."""
    bundle = input_of(tmp_path, "classes.js")
    whole, _ = scanned(bundle, tmp_path / "whole")
    outputs, trace = scanned(bundle, tmp_path / "out", "--slices", 8)
    assert outputs == whole
    assert "read again for the error classes' names ['Q']" in trace
    assert "the whole tree: error classes" not in trace


def test_a_callsite_at_module_level_reads_the_unit_whole(tmp_path: Path) -> None:
    """Its anchor, `_local` and function digest may read L across the cuts (docs/slices.md,
    step 8): `cross.handled.js` has `throw Error("top")` and `var e0 = Error("kept")` in L."""
    bundle = input_of(tmp_path, "cross.handled.js")
    sliced.FALLBACKS.clear()
    found = _sliced_scan(bundle, 3)
    assert sliced.FALLBACKS == {"a callsite at module level": 1}
    assert found.callsites == scan(scan_input(bundle)).callsites


def test_the_sites_facts_past_the_work_bound_read_the_unit_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    """The visits of the merged sites' facts are checked against the unit's bound; past it, the
    whole tree says which bound, as it would unsliced."""
    monkeypatch.setattr("analyzer.limits.WORK_BASE", 0)
    monkeypatch.setattr("analyzer.limits.WORK_PER_NODE", 0)
    found = sliced_halves("u.js", UNITS["facts.js"], 3, RULES, None)
    assert isinstance(found, str) and found.startswith("a bound exceeded: u.js: callsites nest too deep")


@pytest.mark.parametrize("name", ["facts.js", "facts.bun.js", "handlers.heavy.js", "handlers.heavy.bun.js"])
def test_the_work_bound_is_spent_as_the_whole_trees(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, name: str) -> None:
    """With the slices' facts, the unit's budget runs as low and ends where it does unsliced: the
    sites' visits less the classes', and the nodes they digested are not paid again by the
    bindings' digests or the handlers; the handlers' scope entries and anchors, each once
    (docs/slices.md, stage 10c, "Step 7 as built")."""
    seen: list[list[int]] = []

    class Traced(WorkBudget):
        __slots__ = ("lefts",)

        def __init__(self, path: str, nodes: int) -> None:
            super().__init__(path, nodes)
            self.lefts = [self.left]
            seen.append(self.lefts)

        def spend(self, nodes: int) -> None:
            super().spend(nodes)
            self.lefts.append(self.left)

    monkeypatch.setattr("analyzer.javascript.extract.WorkBudget", Traced)
    bundle = input_of(tmp_path, name)
    scan(scan_input(bundle))
    whole = seen.pop()
    for count in (2, 3, 7):
        sliced.FALLBACKS.clear()
        _sliced_scan(bundle, count)
        assert not sliced.FALLBACKS
        assert (min(seen[-1]), seen[-1][-1]) == (min(whole), whole[-1]), count


@pytest.mark.parametrize("name", ["handlers.heavy.js", "handlers.heavy.bun.js"])
def test_the_handlers_past_the_work_bound_read_the_unit_whole(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                             name: str) -> None:
    """The driver checks the classes', the sites' and the handlers' visits against the unit's
    bound as the whole tree spends them: one visit short, the unit is read whole, whose scan
    then stops at the bound too."""
    source = UNITS[name]
    found = sliced_halves("u.js", source, 3, RULES, None)
    assert isinstance(found, SlicedHalves)
    spans = frozenset((facts.offset, facts.end_offset) for facts in found.classes.facts)
    total = found.classes.visits + found.facts.spent(spans) + found.handlers.visits
    assert found.handlers.visits > 0
    monkeypatch.setattr("analyzer.limits.WORK_PER_NODE", 0)
    monkeypatch.setattr("analyzer.limits.WORK_BASE", total)
    assert isinstance(sliced_halves("u.js", source, 3, RULES, None), SlicedHalves)
    scan(scan_input(input_of(tmp_path, name)))
    monkeypatch.setattr("analyzer.limits.WORK_BASE", total - 1)
    found = sliced_halves("u.js", source, 3, RULES, None)
    assert isinstance(found, str) and found.startswith("a bound exceeded: u.js: callsites nest too deep")
    with pytest.raises(BoundExceeded, match="callsites nest too deep"):
        scan(scan_input(input_of(tmp_path, name)))


def _wrapped(*names: str) -> bytes:
    """The demo bundles, each wrapped whole in a function, one after another (a module's
    `import` declaration first: it is legal only at the top level)."""
    imports, bodies = [], []
    for name in names:
        text = (FIXTURES / "demo" / name).read_bytes()
        if text.startswith(b"import"):
            statement, text = text.split(b";", 1)
            imports.append(statement + b";\n")
        bodies.append(b"(function(){\n" + text + b"\n})();\n")
    return b"".join(imports + bodies)


#: wrappers larger than half of L each: three, so that the plan may cut between them
WRAPPED = ("demo.cjs.min.js", "demo.min.js", "demo.terser.min.js", "demo.cjs.min.js")


def test_bundles_wrapped_one_after_another_are_read_in_slices(tmp_path: Path) -> None:
    """Each wrapper is one statement of L, larger than a slice: the plan cuts between them and
    the scan's outputs are the whole tree's."""
    bundle = tmp_path / "wrapped.js"
    bundle.write_bytes(_wrapped(*WRAPPED))
    whole, _ = scanned(bundle, tmp_path / "whole")
    outputs, trace = scanned(bundle, tmp_path / "sliced", "--slices", 4)
    assert outputs == whole
    assert "merged from slices" in trace and "the whole tree" not in trace
    assert b'"evidence":["__commonJS-shaped helper B"]' in whole["modules.jsonl"]


def test_the_helpers_of_a_large_wrapper_are_read_in_its_body(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A run of L's statements holding a helper's core, larger than `_NESTED_HELPERS_MIN_BYTES`
    (a bundle wrapped whole), has the helpers read in the run of the wrapper's body around the
    core, not by parsing the wrapper: the same helpers, so the same scan."""
    monkeypatch.setattr(slice_helpers, "_NESTED_HELPERS_MIN_BYTES", 0)
    nested: list[object] = []
    read = slice_helpers._nested_helpers
    monkeypatch.setattr(slice_helpers, "_nested_helpers", lambda *args: nested.append(read(*args)) or nested[-1])
    bundle = tmp_path / "wrapped.js"
    bundle.write_bytes(_wrapped(*WRAPPED))
    sliced.FALLBACKS.clear()
    found = _sliced_scan(bundle, 4)
    assert not sliced.FALLBACKS
    assert len(nested) == len(WRAPPED) and all(helpers for helpers in nested)
    whole = scan(scan_input(bundle))
    assert found.modules is not None and whole.modules is not None
    assert found.modules.rows == whole.modules.rows and len(found.modules.rows) > 4
    assert dataclasses.replace(found, modules=None) == dataclasses.replace(whole, modules=None)


_HELPER = b"var B=(a,b)=>()=>(b||a((b={exports:{}}).exports,b),b.exports);"


@pytest.mark.parametrize(("body", "nested"), [
    # the helper a statement of the wrapper's body: read in the run of the body around it
    (_HELPER + b"var m=B((e,t)=>{t.exports=1});m();", True),
    # in a block of a statement of the body: the run holds the block, the helpers' list
    (b"var z=1;if(x){" + _HELPER + b"var m=B((e,t)=>{t.exports=1});m()}", True),
    # a UMD factory's body in the wrapper's: read a list deeper, in the run of the body's statement
    (b"var z=1;!function(e,t){t()}(this,function(){var q=1;" + _HELPER + b"var m=B((e,t)=>{t.exports=1});m()});",
     True),
    # in a block the body is only: no statement end in the body, and the wrapper is read
    (b"if(x){" + _HELPER + b"var m=B((e,t)=>{t.exports=1});m()}", False),
    # a class field: the climb meets the run's root undecided, and the wrapper is read
    (b"class K{h=(a,b)=>()=>(b||a((b={exports:{}}).exports,b),b.exports)};var z=1;", False),
    # the core in a template's `${}`, which the byte scanner takes for a block: the head says no
    (b"var s=`${(()=>{var q=1;return (0,(b={exports:{}}).exports,b),b.exports})()}`;var z=1;", False),
])
def test_the_helpers_read_in_a_wrappers_body_are_the_whole_trees(
    body: bytes, nested: bool, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`slice_helpers.helpers_first` on wrappers larger than `_NESTED_HELPERS_MIN_BYTES` (here 0): the
    body's run around each core when that is exact (`_nested_helpers`), else the wrapper; the
    helpers are the whole tree's either way."""
    from analyzer.javascript.modules import esbuild
    from analyzer.javascript.modules.finder import Where
    from analyzer.javascript.modules.patterns import Literals
    from analyzer.javascript.modules.statements import StatementLists
    from analyzer.javascript.slice_scanner import statement_ends
    from analyzer.javascript.syntax import new_parser

    wrapper = b"(function(){" + body + b"})();\n"
    source = wrapper + b"var y=2;\n" + wrapper
    scanned = statement_ends(source)
    plan = slices.plan_of(source, 2, scanned)
    assert isinstance(plan, slices.Plan) and scanned.masked is not None
    literals = Literals(source)
    cores = esbuild.core_offsets(literals)
    parser = new_parser()
    monkeypatch.setattr(slice_helpers, "_NESTED_HELPERS_MIN_BYTES", 0)
    run = slices.statement_at(plan, cores[0])
    assert run is not None
    runs = slice_helpers._nested_runs(parser, source, scanned.masked, run[0], cores)
    found = None if runs is None else slice_helpers._nested_helpers(parser, source, literals, runs)
    assert (found is not None) == nested
    parser.included_ranges = []
    root = parser.parse(source).root_node
    whole = esbuild.find_helpers(Where(root, source, literals, StatementLists(root, root)))
    first = esbuild.unit_helpers(slice_helpers.helpers_first(parser, source, literals, plan, cores, scanned.masked))
    assert first == whole
    assert bool(whole) == (b"class" not in body and b"`" not in body)


@pytest.mark.parametrize(("declared_at_l", "whole"), [(False, False), (True, True)])
def test_an_inherits_call_looks_among_ls_statements_only_for_a_name_l_may_declare(
    tmp_path: Path, declared_at_l: bool, whole: bool,
) -> None:
    """`JO(P, Error)` in a function: whether `JO` is an inherits helper is looked for in the
    lists around the call up to L's, which no slice holds all of. When L's bytes declare no
    `JO` (the names' byte superset), L holds no such declaration and the slices go on; else
    the unit is read whole (`compiled._read`). The outputs are the whole tree's either way."""
    helper = b"function JO(a,b){a.prototype=Object.create(b.prototype)};" if declared_at_l else b""
    filler = b"".join(b"var v%d=%d;" % (i, i) for i in range(30))
    unit = (filler + b"function f(){function P(m){this.m=m};JO(P,Error);return new P(1)};" + filler + helper
            + b"function g(){try{f()}catch(e){throw new Error('g',{cause:e})}};" + filler)
    bundle = tmp_path / "inherits.js"
    bundle.write_bytes(unit)
    expected, _ = scanned(bundle, tmp_path / "whole")
    outputs, trace = scanned(bundle, tmp_path / "sliced", "--slices", 3)
    assert outputs == expected
    assert ("the whole tree: error classes: an ES5 class extending Error" in trace) == whole
    assert ("merged from slices" in trace) != whole


def test_helpers_whose_statements_are_most_of_l_leave_the_unit_whole(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
) -> None:
    """Each wrapper's helpers lie in no run smaller than the wrapper: the helpers first would
    parse most of L, and the slices again, so the unit is read whole (`slice_helpers._Budget`)."""
    monkeypatch.setattr(slice_helpers, "_HELPER_BYTES", 0)
    bundle = tmp_path / "wrapped.js"
    bundle.write_bytes(_wrapped(*WRAPPED))
    sliced.FALLBACKS.clear()
    found = _sliced_scan(bundle, 4)
    (reason,) = sliced.FALLBACKS
    assert reason.startswith("the module helpers' statements are 74138 bytes, over ")  # the first wrapper
    assert found.callsites == scan(scan_input(bundle)).callsites
