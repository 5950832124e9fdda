"""Shared helpers: every user-visible behaviour is driven through the installed `erratlas`."""

from __future__ import annotations

import compileall
import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
SUMMARY = "error-diagnostic-owner-summary.json"
#: the reviewed allowlist of the Claude Code release line
RELEASE_LINE_ALLOWLIST = ROOT / "allowlists" / "claude-code.toml"


def pytest_sessionstart(session: pytest.Session) -> None:
    """Compile the checkout's modules once: with PYTHONDONTWRITEBYTECODE set (as on CI), every
    `erratlas` the tests start would otherwise compile each module it imports again."""
    compileall.compile_dir(ROOT / "analyzer", quiet=1)


#: session fixtures that scan a real release once; under pytest-xdist the tests that use them run
#: in one worker, so each release is scanned once per session, not once per worker
SHARED_SCANS = {"release_scan": "releases", "bare_release_scan": "releases", "reviewed_release_scan": "releases",
                "pip_scan": "pip"}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Keep the tests of each shared session scan on one xdist worker (`--dist loadgroup`)."""
    for item in items:
        groups = sorted({SHARED_SCANS[name] for name in getattr(item, "fixturenames", ()) if name in SHARED_SCANS})
        if groups:
            item.add_marker(pytest.mark.xdist_group(groups[0]))


def as_at_a_terminal() -> None:
    """A child's `preexec_fn`: SIGINT delivered and default in it, as a shell leaves it, whatever the
    test process inherited or was left with (a blocked or ignored SIGINT passes to every child; CI's
    runner and pytest-xdist's workers may leave it so)."""
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def interrupted_scan(bundle: Path, out: Path, moment: str, group: bool = True) -> tuple[int, list[str]]:
    """Start a scan in its own process group and, when it reports `moment`, send SIGINT to the group
    (what Ctrl-C does) or, `group` false, to its own process only (a supervisor's `kill -INT PID`);
    its exit status and its stderr lines other than the trace."""
    process = subprocess.Popen([erratlas_command(), "scan", str(bundle), "--out", str(out)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, start_new_session=True,
                               env={**os.environ, "ERRATLAS_TRACE": "1"}, preexec_fn=as_at_a_terminal)
    assert process.stderr is not None
    for line in process.stderr:
        if moment in line:
            (os.killpg if group else os.kill)(process.pid, signal.SIGINT)
            break
    rest = process.stderr.read()
    process.stderr.close()
    return process.wait(timeout=120), [line for line in rest.splitlines() if not line.startswith("erratlas-trace")]


def erratlas_command() -> str:
    beside = Path(sys.executable).parent / "erratlas"
    found = str(beside) if beside.exists() else shutil.which("erratlas")
    if found is None:
        raise RuntimeError("the erratlas command is not installed (pip install -e '.[test]')")
    return found


def ast_grep_command() -> str:
    beside = Path(sys.executable).parent / "ast-grep"
    found = str(beside) if beside.exists() else shutil.which("ast-grep")
    if found is None:
        raise RuntimeError("ast-grep is not installed (pip install ast-grep-cli)")
    return found


def run(*args: object, timeout: float = 600, **kwargs: object) -> subprocess.CompletedProcess[str]:
    """Run the installed `erratlas`; the JSON and JSONL files a successful verb wrote are then
    validated against their shipped schemas (issue 15: every output of every test; the same
    bytes once per session, support/schemas.py)."""
    given = kwargs.pop("env", None)
    env = {k: v for k, v in (given or os.environ).items() if k != "ERRATLAS_DEBUG"}  # type: ignore[attr-defined]
    result = subprocess.run(
        [erratlas_command(), *map(str, args)],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
        **kwargs,  # type: ignore[arg-type]
    )
    if result.returncode == 0:
        _validate_outputs([str(a) for a in args], Path(str(kwargs.get("cwd", "."))))
    return result


def _validate_outputs(args: list[str], cwd: Path) -> None:
    from support.schemas import validate_directory, validate_file

    def option(*names: str) -> str | None:
        for number, arg in enumerate(args[:-1]):
            if arg in names:
                return args[number + 1]
        return None

    verb = args[0] if args else ""
    if verb == "scan":
        validate_directory(cwd / (option("--out", "-o") or "erratlas-out"))
    elif verb == "project" or (verb == "suggest" and option("--out", "-o") is None):
        validate_directory(cwd / args[1])
    elif verb == "suggest":
        validate_file(cwd / str(option("--out", "-o")), "erratlas.suggestion/1")
    elif verb == "diff":
        out = cwd / (option("--out", "-o") or "erratlas-diff")
        validate_file(out / "diff.json", "erratlas.diff/1")
        validate_file(out / "carried.jsonl", "erratlas.suggestion/1")


def scan(bundle: Path, out: Path, *extra: object) -> dict[str, object]:
    result = run("scan", bundle, "--out", out, *extra)
    assert result.returncode == 0, result.stderr
    return json.loads((out / SUMMARY).read_text())


def records(out: Path, kind: str) -> list[dict[str, object]]:
    path = out / f"{kind}-message-callsites.jsonl"
    return [json.loads(line) for line in path.read_text(encoding="utf-8").split("\n") if line]


def corpus_claims(out: Path, suggestions: Path) -> dict[str, tuple[str | None, str]]:
    """The corpus's callsite suggestions (`suggest --corpus`) of a scan, by their callsite's message
    text: (package, confidence)."""
    texts = {str(r["id"]): str(r["message"].get("text") or r["message"].get("template") or "")  # type: ignore[attr-defined]
             for r in records(out, "error")}
    return {texts[s["exampleIds"][0]]: (s["package"], s["confidence"])
            for s in map(json.loads, suggestions.read_text().splitlines()) if s["id"].startswith("c:")}


def dispositions_by_function(out: Path) -> dict[str, list[list[str]]]:
    """Each handler of a scan's `handlers.jsonl` by its function's last name: its branches'
    disposition kinds."""
    found = {}
    for line in (out / "handlers.jsonl").read_text(encoding="utf-8").splitlines():
        handler = json.loads(line)
        found[handler["scope"]["function"].rsplit(".", 1)[-1]] = \
            [[d["kind"] for d in branch["dispositions"]] for branch in handler["branches"]]
    return found


def write_tree(root: Path, files: dict[str, str]) -> Path:
    """`files` (relative path -> text) written below `root`; `root`."""
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return root


def tree_bytes(directory: Path) -> dict[str, bytes]:
    """Every file below `directory`, by relative path."""
    return {p.relative_to(directory).as_posix(): p.read_bytes() for p in sorted(directory.rglob("*")) if p.is_file()}


def scanned_whole_and_in_slices(bundle: Path, where: Path, slices: int) -> Path:
    """`bundle` scanned with `--jobs 1` whole and in `slices` slices into `where`, both exit 0 with the
    same bytes; the whole scan's directory."""
    whole = run("scan", bundle, "--out", where / "whole", "--jobs", 1)
    cut = run("scan", bundle, "--out", where / "cut", "--jobs", 1, "--slices", slices)
    assert whole.returncode == cut.returncode == 0, cut.stderr
    assert tree_bytes(where / "cut") == tree_bytes(where / "whole")
    return where / "whole"


def processes_naming(path: Path) -> list[int]:
    """Live processes whose command line names `path` (a scan and the workers it forked)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes()
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if str(path).encode() in cmdline.split(b"\0") and state != "Z":
            found.append(int(entry.name))
    return found


@pytest.fixture
def demo_bundle() -> Path:
    return FIXTURES / "demo" / "demo.min.js"


@pytest.fixture(scope="session")
def demo_scanned_once(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo bundle scanned once per session. Read only: a test that edits it takes
    `demo_scan_copy`."""
    out = tmp_path_factory.mktemp("demo") / "scan"
    scan(FIXTURES / "demo" / "demo.min.js", out)
    return out


@pytest.fixture
def demo_scan_copy(tmp_path: Path, demo_scanned_once: Path) -> Path:
    """`tmp_path/scan`, a copy of the session's scan of the demo: the bytes a scan of the demo
    writes there (a scan writes the same bytes wherever it runs and whatever its --out:
    tests/test_output.py), for the tests that take a scan as their starting point and edit it."""
    out = tmp_path / "scan"
    shutil.copytree(demo_scanned_once, out)
    return out


@pytest.fixture(scope="session")
def release_scan(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    """Scan a pinned real release once per test session: `release_scan(package, version)` is the
    scan directory (shared: copy it before changing it)."""
    from support import npm_cache

    done: dict[tuple[str, str], Path] = {}

    def get(package: str, version: str) -> Path:
        if (package, version) not in done:
            out = tmp_path_factory.mktemp(f"release-{version}") / "scan"
            scan(npm_cache.main_file(package, version), out, "--jobs", "2")
            done[(package, version)] = out
        return done[(package, version)]

    return get


@pytest.fixture(scope="session")
def bare_release_scan(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    """A pinned release's main file copied alone into a directory (no source map beside it) and
    scanned once per test session with `--signatures` (which adds function-signatures.jsonl,
    what `suggest --corpus` reads): `bare_release_scan(package, version)` is the scan directory
    (shared by the owner and corpus tests: copy it before changing it)."""
    from support import npm_cache

    done: dict[tuple[str, str], Path] = {}

    def get(package: str, version: str) -> Path:
        if (package, version) not in done:
            main = npm_cache.main_file(package, version)
            base = tmp_path_factory.mktemp(f"bare-{version}")
            bundle = base / main.name
            shutil.copy(main, bundle)
            scan(bundle, base / "scan", "--jobs", "2", "--signatures")
            done[(package, version)] = base / "scan"
        return done[(package, version)]

    return get


@pytest.fixture(scope="session")
def reviewed_release_scan(release_scan, tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    """The session's scan of a pinned release, copied and projected once with the release line's
    reviewed allowlist (RELEASE_LINE_ALLOWLIST): `reviewed_release_scan(package, version)` is that
    directory (shared by the owner, real-bundle and SARIF tests: copy it before changing it)."""
    done: dict[tuple[str, str], Path] = {}

    def get(package: str, version: str) -> Path:
        if (package, version) not in done:
            out = tmp_path_factory.mktemp(f"reviewed-{version}") / "scan"
            shutil.copytree(release_scan(package, version), out)
            result = run("project", out, "-a", RELEASE_LINE_ALLOWLIST)
            assert result.returncode == 0, result.stderr
            done[(package, version)] = out
        return done[(package, version)]

    return get


@pytest.fixture(scope="session")
def pip_scan(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The pip installed beside this interpreter, scanned once per session (`--jobs 2`; the
    bytes do not depend on it): read by the oracle tests and the golden-output test (shared:
    copy it before changing it)."""
    from support import python_trees

    out = tmp_path_factory.mktemp("pip") / "scan"
    scan(python_trees.pip_tree(), out, "--jobs", "2")
    return out


def plain_tests(branches: Any) -> list[dict[str, Any] | None]:
    """Each branch's test as `{field, op, value}`, checked to be made through no helper."""
    out = []
    for branch in branches:
        test = branch["test"]
        if test is not None:
            assert test["through"] is None and test["reads"] is None, test
            also = [{key: t[key] for key in ("field", "op", "value")} for t in test["also"]]
            test = {key: test[key] for key in ("field", "op", "value")} | ({"also": also} if also else {})
        out.append(test)
    return out


def handlers_of_reads(factory: pytest.TempPathFactory, reads: dict[str, Path]) -> dict[str, list[dict[str, Any]]]:
    """Each read's (a source and its builds) handler records, scanned with `--jobs 1`, in source order."""
    out = {}
    for read, path in reads.items():
        scanned = factory.mktemp(read) / "scan"
        scan(path, scanned, "--jobs", 1)
        found = [json.loads(line) for line in (scanned / "handlers.jsonl").read_text().splitlines()]
        out[read] = sorted(found, key=lambda h: h["offset"])
    return out
