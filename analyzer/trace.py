"""Stage times on stderr when ERRATLAS_TRACE is set (for benchmarks; silent otherwise)."""

from __future__ import annotations

import os
import sys
import time

_ON = bool(os.environ.get("ERRATLAS_TRACE"))
_START = time.perf_counter()
_PAGE_MIB = os.sysconf("SC_PAGE_SIZE") / 2**20 if hasattr(os, "sysconf") else 0.0


def mark(label: str) -> None:
    """One line: seconds since the process imported this module, CPU seconds of this process
    (user + system, a forked worker's counted from its fork), its resident MiB now (Linux),
    process id, label."""
    if _ON:
        # one write, newline included: `print` writes the text and its newline apart, and the lines
        # of the scan's processes, which share stderr, then interleave mid-line
        sys.stderr.write(f"erratlas-trace {time.perf_counter() - _START:7.3f} {time.process_time():7.3f} "
                         f"{_resident():5d} {os.getpid()} {label}\n")
        sys.stderr.flush()


def _resident() -> int:
    try:
        with open("/proc/self/statm", "rb") as statm:
            return int(int(statm.read().split()[1]) * _PAGE_MIB)
    except (OSError, IndexError, ValueError):
        return 0
