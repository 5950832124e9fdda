"""What every forked child of a scan does first: die with the parent that forked it."""

from __future__ import annotations

import ctypes
import os
import signal

#: prctl option: the signal the kernel sends this process when its parent dies (Linux)
_PR_SET_PDEATHSIG = 1


def die_with_parent(parent: int) -> None:
    """Have the kernel kill this child when `parent` dies (Linux; elsewhere the child ends with
    its work), and end now if `parent` is already gone."""
    try:
        prctl = getattr(ctypes.CDLL(None, use_errno=True), "prctl", None)
    except OSError:  # no C library to load: nothing to ask the kernel
        prctl = None
    if prctl is not None:
        prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:
        os._exit(1)  # the parent died before the line above took effect
