"""What every forked child of a scan does first: die with the parent that forked it; and how its
parent tells that a child has stalled at its memory bound."""

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


#: a process whose memory stays within this of its bound, unchanged, for `_STALL_LOOKS` looks (a
#: second apart) has stalled there (see `StallWatch`)
_STALL_SLACK = 8 << 20
_STALL_LOOKS = 10
#: the bounds a child may run under, with the /proc/PID/status figure each one bounds
_BOUNDED = (("Max data size", "VmData"), ("Max address space", "VmSize"))


class StallWatch:
    """Whether a process or one of its descendants has stalled at its memory bound: its memory
    within `_STALL_SLACK` of the bound and unchanged over `_STALL_LOOKS` calls. Before 3.13,
    CPython can loop forever when it cannot allocate while unwinding a MemoryError (the integer
    it pushes for a `with` or `finally` block: python/cpython#132508); such a child never ends.
    Linux only (it reads /proc); elsewhere nothing ever stalls."""

    def __init__(self) -> None:
        self._last: dict[int, tuple[int, ...]] = {}
        self._same: dict[int, int] = {}

    def __call__(self, pid: int) -> bool:
        for member in _tree(pid):
            held = _held_at_bound(member)
            if held is None:
                self._same[member] = 0
                continue
            self._same[member] = self._same.get(member, 0) + 1 if self._last.get(member) == held else 0
            self._last[member] = held
            if self._same[member] >= _STALL_LOOKS:
                return True
        return False


def _tree(pid: int) -> list[int]:
    """`pid` and its descendants (Linux's /proc; just `pid` where its children are not listed)."""
    found, queue = [], [pid]
    while queue:
        member = queue.pop()
        found.append(member)
        try:
            with open(f"/proc/{member}/task/{member}/children") as handle:
                queue.extend(int(child) for child in handle.read().split())
        except (OSError, ValueError):
            continue
    return found


def _held_at_bound(pid: int) -> tuple[int, ...] | None:
    """What a process holds against each of its soft memory bounds (/proc/PID/status, -1 where
    unknown), when it holds within `_STALL_SLACK` of one of them; None otherwise, or where unknown."""
    try:
        with open(f"/proc/{pid}/limits") as handle:
            bounds = {name: line[len(name):].split()[0] for line in handle for name, _ in _BOUNDED
                      if line.startswith(name)}
        with open(f"/proc/{pid}/status") as handle:
            figures = {line.split(":")[0]: line.split()[1] for line in handle if line.startswith("Vm")}
    except (OSError, IndexError):
        return None
    held = tuple(int(figures[f]) * 1024 if figures.get(f, "").isdigit() else -1 for _, f in _BOUNDED)
    near = any(size >= 0 and bounds.get(name, "").isdigit() and size >= int(bounds[name]) - _STALL_SLACK
               for (name, _), size in zip(_BOUNDED, held))
    return held if near else None
