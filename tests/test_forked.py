"""The forked workers: results never depend on timing or on the child surviving."""

from __future__ import annotations

import os
import time
from dataclasses import dataclass

import pytest

from analyzer.parallel.forked import LOST, ChildLost, Side

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")


def _children() -> set[int]:
    """Live (not zombie) children of this process."""
    me, found = os.getpid(), set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    fields = stat.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == me and fields[0] != "Z":
                found.add(int(entry))
    return found


@dataclass(frozen=True, slots=True)
class Small:
    value: int


@dataclass(frozen=True, slots=True)
class Big:
    value: bytes


@dataclass(frozen=True, slots=True)
class After:
    value: int


@dataclass(frozen=True, slots=True)
class Never:
    value: int


def test_side_messages_arrive_by_type_big_ones_through_the_spill_file() -> None:
    def body(send) -> None:  # type: ignore[no-untyped-def]
        send(Small(1))
        send(Big(b"y" * 3_000_000))  # over the pipe's size: the child must not wait for a reader
        send(After(2))

    side = Side(body)
    time.sleep(0.3)  # the child finishes without anyone reading
    assert side.wait(After) == After(2)
    assert side.wait(Big).value == b"y" * 3_000_000
    assert side.peek(Small) == Small(1)
    side.stop()
    assert not _children()


def test_side_peek_never_waits_and_wait_reports_a_missing_message() -> None:
    side = Side(lambda send: (time.sleep(0.5), send(After(1)), send(After(2))))
    started = time.monotonic()
    assert side.peek(After) is LOST
    assert time.monotonic() - started < 0.3
    with pytest.raises(ChildLost, match="Never"):
        side.wait(Never)
    assert side.peek(After) == After(1)  # the first of a type
    side.stop()
    assert not _children()


def test_side_stop_may_be_repeated() -> None:
    side = Side(lambda send: send(Small(1)))
    assert side.wait(Small) == Small(1)
    for _ in range(2):
        side.stop()
        assert side.peek(Small) == Small(1)
    assert not _children()


def test_a_stopped_side_is_gone_at_once() -> None:
    side = Side(lambda send: (send(Small(1)), time.sleep(30)))
    assert side.wait(Small) == Small(1)
    started = time.monotonic()
    side.stop()
    assert time.monotonic() - started < 1
    assert not _children()
