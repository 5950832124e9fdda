"""Which tasks each end of `forked.from_both_ends` took, in memory the two processes share."""

from __future__ import annotations

import mmap
import multiprocessing
import struct


class Claims:
    """Which tasks each end of `forked.from_both_ends` took, in memory both processes share: this process
    takes them from the front, the child from the back, and neither takes one the other took (a
    task read twice where they meet would cost a whole slice)."""

    def __init__(self, count: int) -> None:
        self._shared = mmap.mmap(-1, _CLAIMS.size)  # anonymous and shared: the child sees its writes
        _CLAIMS.pack_into(self._shared, 0, 0, count)  # the front's next task, the child's last one
        self._lock = multiprocessing.get_context("fork").Lock()

    def front(self, index: int) -> bool:
        """In this process: takes task `index` unless the child took it. A lock held past
        `_CLAIM_WAIT` is a child killed inside it: the task is taken, never waited for."""
        if not self._lock.acquire(timeout=_CLAIM_WAIT):
            return True
        try:
            _, back = _CLAIMS.unpack_from(self._shared, 0)
            if index >= back:
                return False
            _CLAIMS.pack_into(self._shared, 0, index + 1, back)
            return True
        finally:
            self._lock.release()

    def back(self, index: int) -> bool:
        """In the child: takes task `index` unless this process took it (or holds the lock)."""
        if not self._lock.acquire(timeout=_CLAIM_WAIT):
            return False
        try:
            front, _ = _CLAIMS.unpack_from(self._shared, 0)
            if index < front:
                return False
            _CLAIMS.pack_into(self._shared, 0, front, index)
            return True
        finally:
            self._lock.release()


_CLAIMS = struct.Struct("<qq")
#: seconds a claim waits for the lock, held for microseconds by a live process
_CLAIM_WAIT = 5.0
