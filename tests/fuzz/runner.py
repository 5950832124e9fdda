"""Run the erratlas command for one fuzz case and watch everything it leaves behind.

Each run happens in a *case process* of its own (forked for it; for `exec`, a new interpreter
running this file, so that the command's peak resident set is not its parent's), which makes
itself a child subreaper (Linux): every worker the command forks and does not reap is
re-parented to it, so that a worker left alive after the command ended is seen (and killed). The
case process runs the command either as the installed executable (`exec`) or, much faster, as
`analyzer.cli.main` in a forked child of a process that has already imported erratlas (`fork`):
the same entry point with the same arguments, standard streams on files, its own process. It
reports the exit status, the standard streams, the time, the peak resident set of the command
and of every descendant it waited for, and the workers still alive after it ended.
"""

from __future__ import annotations

import contextlib
import ctypes
import io
import os
import shutil
import signal
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import orjson

_PR_SET_CHILD_SUBREAPER = 36
#: how long a dead command's workers may take to die (PR_SET_PDEATHSIG is asynchronous)
_GRACE = 3.0


@dataclass(frozen=True, slots=True)
class Run:
    code: int
    stdout: str
    stderr: str
    seconds: float
    #: the largest single process's peak resident set, in bytes
    peak_rss: int
    #: processes still alive after the command ended (killed by the runner)
    leftovers: int
    #: the runner killed the command after the timeout
    hung: bool


def command() -> str:
    beside = Path(sys.executable).parent / "erratlas"
    found = str(beside) if beside.exists() else shutil.which("erratlas")
    if found is None:
        raise RuntimeError("the erratlas command is not installed (pip install -e '.[test]')")
    return found


def run(argv: list[str], cwd: Path, timeout: float = 180.0, mode: str = "fork") -> Run:
    """Run `erratlas argv...` in `cwd` (see the module docstring)."""
    if mode == "exec":
        return _run_fresh(argv, cwd, timeout)
    from support.in_child import forked  # here: run as a script (`exec` mode), this file has no `support`

    _warm()
    raw, status = forked(lambda: orjson.dumps(_case_process(argv, cwd, timeout, mode)))
    if not raw or status != 0:
        raise RuntimeError(f"the case process failed (status {status:#x})")
    report = orjson.loads(raw)
    return Run(**report)


def _run_fresh(argv: list[str], cwd: Path, timeout: float) -> Run:
    """`exec` mode: the case process is a new interpreter running this file, not a fork of this
    process, so the command's peak resident set is its own: a forked child starts with its
    parent's resident set and keeps that peak across `execve` (a test process that has grown
    would count in every command it starts)."""
    import subprocess

    request = orjson.dumps({"argv": [str(arg) for arg in argv], "cwd": str(cwd), "timeout": timeout})
    done = subprocess.run([sys.executable, __file__], input=request, capture_output=True, check=False)
    if done.returncode != 0 or not done.stdout:
        raise RuntimeError(f"the case process failed (status {done.returncode}): {done.stderr.decode()[-2000:]}")
    return Run(**orjson.loads(done.stdout))


_warmed = False


def _warm() -> None:
    """Import every module of erratlas and build the command line once, before the forks:
    each forked command then starts where an installed one would be after its imports."""
    global _warmed
    if _warmed:
        return
    import importlib
    import pkgutil

    import typer.main

    import analyzer
    import analyzer.cli

    for module in pkgutil.walk_packages(analyzer.__path__, "analyzer."):
        importlib.import_module(module.name)
    typer.main.get_command(analyzer.cli.app)
    with contextlib.redirect_stdout(io.StringIO()):
        analyzer.cli.app(["version"], standalone_mode=False)  # what a command imports when it runs
    _warmed = True


def _case_process(argv: list[str], cwd: Path, timeout: float, mode: str) -> dict[str, object]:
    libc = ctypes.CDLL(None, use_errno=True)
    if hasattr(libc, "prctl"):
        libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    streams = Path(tempfile.mkdtemp(prefix="erratlas-fuzz-streams-"))
    try:
        out_path, err_path = streams / "stdout", streams / "stderr"
        started = time.perf_counter()
        child = _start(argv, cwd, mode, out_path, err_path)
        status, hung = _wait(child, timeout)
        seconds = time.perf_counter() - started
        leftovers = _reap_orphans()
        peak = _peak_rss()
        code = os.WEXITSTATUS(status) if os.WIFEXITED(status) else 128 + os.WTERMSIG(status)
        return {
            "code": code,
            "stdout": out_path.read_bytes().decode("utf-8", "backslashreplace"),
            "stderr": err_path.read_bytes().decode("utf-8", "backslashreplace"),
            "seconds": seconds,
            "peak_rss": peak,
            "leftovers": leftovers,
            "hung": hung,
        }
    finally:
        shutil.rmtree(streams, ignore_errors=True)


def _start(argv: list[str], cwd: Path, mode: str, out_path: Path, err_path: Path) -> int:
    environment = {k: v for k, v in os.environ.items() if k not in ("ERRATLAS_DEBUG", "ERRATLAS_TRACE")}
    pid = os.fork()
    if pid != 0:
        return pid
    try:  # the command
        os.chdir(cwd)
        for fd, path in ((1, out_path), (2, err_path)):
            target = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            os.dup2(target, fd)
            os.close(target)
        stdin = os.open(os.devnull, os.O_RDONLY)
        os.dup2(stdin, 0)
        os.close(stdin)
        if mode == "exec":
            os.execve(command(), ["erratlas", *argv], environment)
        os.environ.clear()
        os.environ.update(environment)
        for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGPIPE):
            signal.signal(signum, signal.SIG_DFL)
        sys.stdout = open(1, "w", encoding="utf-8", errors="backslashreplace", closefd=False)  # noqa: SIM115
        sys.stderr = open(2, "w", encoding="utf-8", errors="backslashreplace", closefd=False)  # noqa: SIM115
        sys.argv = ["erratlas", *argv]
        from analyzer.cli import main

        main()  # ends with os._exit
    finally:
        os._exit(99)


def _wait(pid: int, timeout: float) -> tuple[int, bool]:
    deadline = time.monotonic() + timeout
    delay = 0.002
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return status, False
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            _, status = os.waitpid(pid, 0)
            return status, True
        time.sleep(delay)
        delay = min(delay * 2, 0.05)


def _reap_orphans() -> int:
    """Workers the command left: re-parented to this subreaper. Waits `_GRACE` for them to
    die, then kills what is left; the count of those killed."""
    deadline = time.monotonic() + _GRACE
    while True:
        _reap()
        alive = _children()
        if not alive:
            return 0
        if time.monotonic() > deadline:
            for pid in alive:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
            time.sleep(0.05)
            _reap()
            return len(alive)
        time.sleep(0.02)


def _reap() -> None:
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def _children() -> list[int]:
    """Live (not zombie) children of this process."""
    me, found = os.getpid(), []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as handle:
                fields = handle.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == me and fields[0] != "Z":
            found.append(int(entry))
    return found


def _peak_rss() -> int:
    import resource

    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024


if __name__ == "__main__":  # `_run_fresh`'s case process: the request on stdin, the report on stdout
    _request = orjson.loads(sys.stdin.buffer.read())
    _report = _case_process(_request["argv"], Path(_request["cwd"]), _request["timeout"], "exec")
    sys.stdout.buffer.write(orjson.dumps(_report))
