"""Run a test's in-process work in a forked child: what it allocates dies with the child, so a
real bundle scanned in the test process does not leave that process gigabytes larger for the
tests after it (a command forked from it starts with its resident set)."""

from __future__ import annotations

import os
import traceback
from collections.abc import Callable


def forked(produce: Callable[[], bytes]) -> tuple[bytes, int]:
    """`produce()` in a forked child, its bytes sent back down a pipe: (the bytes, the child's wait
    status). The child exits 0 once they are sent, 1 when `produce` raised (nothing sent)."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            os.close(read)
            view = memoryview(produce())
            while view:
                view = view[os.write(write, view):]
            code = 0
        finally:
            os._exit(code)
    os.close(write)
    with os.fdopen(read, "rb") as pipe:
        sent = pipe.read()
    _, status = os.waitpid(pid, 0)
    return sent, status


def in_a_child(work: Callable[[], object]) -> None:
    """`work()` in a forked child; its failure (an assertion's message included) is this one's."""
    def produce() -> bytes:
        try:
            work()
        except BaseException:  # every failure is told to the parent, none escapes the fork
            return traceback.format_exc().encode("utf-8", "backslashreplace")
        return b""

    report, status = forked(produce)
    assert status == 0 and not report, report.decode("utf-8") or f"the child ended with status {status:#x}"
