"""Run a test's in-process work in a forked child: what it allocates dies with the child, so a
real bundle scanned in the test process does not leave that process gigabytes larger for the
tests after it (a command forked from it starts with its resident set)."""

from __future__ import annotations

import os
import traceback
from collections.abc import Callable


def in_a_child(work: Callable[[], object]) -> None:
    """`work()` in a forked child; its failure (an assertion's message included) is this one's."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            os.close(read)
            try:
                work()
                report, code = b"", 0
            except BaseException:  # every failure is told to the parent, none escapes the fork
                report = traceback.format_exc().encode("utf-8", "backslashreplace")
            view = memoryview(report)
            while view:
                view = view[os.write(write, view):]
        finally:
            os._exit(code)
    os.close(write)
    with os.fdopen(read, "rb") as pipe:
        report = pipe.read()
    _, status = os.waitpid(pid, 0)
    assert status == 0, report.decode("utf-8") or f"the child ended with status {status:#x}"
