"""Stage times on stderr when ERRATLAS_TRACE is set (for benchmarks; silent otherwise)."""

from __future__ import annotations

import os
import sys
import time

_ON = bool(os.environ.get("ERRATLAS_TRACE"))
_START = time.perf_counter()


def mark(label: str) -> None:
    """One line: seconds since the process imported this module, CPU seconds of this process
    (user + system, a forked worker's counted from its fork), process id, label."""
    if _ON:
        print(f"erratlas-trace {time.perf_counter() - _START:7.3f} {time.process_time():7.3f} {os.getpid()} {label}",
              file=sys.stderr, flush=True)
