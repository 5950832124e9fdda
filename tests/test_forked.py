"""The forked workers: results never depend on timing or on the child surviving."""

from __future__ import annotations

import os
import random
import signal
import time
from dataclasses import dataclass

import pytest

from analyzer.parallel.forked import LOST, ChildLost, Shared, Side

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


def _share(count: int, work) -> list[object]:  # type: ignore[no-untyped-def]
    return Shared(work, count).join(work)


@pytest.mark.parametrize("count", [0, 1, 2, 15, 16, 17, 100, 1000])
def test_results_are_in_task_order_and_complete(count: int) -> None:
    assert _share(count, lambda i: i * i) == [i * i for i in range(count)]


def test_uneven_task_costs_still_give_every_result_once() -> None:
    def work(i: int) -> tuple[int, int]:
        if random.random() < 0.05:
            time.sleep(0.002)
        return (i, os.getpid())

    for _ in range(5):
        results = _share(400, work)
        assert [i for i, _ in results] == list(range(400))
    pids = {pid for _, pid in results}
    assert os.getpid() in pids  # the parent always takes the first task


def test_a_child_that_fails_leaves_the_parent_all_the_work() -> None:
    parent = os.getpid()

    def work(i: int) -> int:
        if os.getpid() != parent:
            raise RuntimeError("not here")
        return -i

    assert _share(50, work) == [-i for i in range(50)]


def test_a_child_killed_midway_costs_time_not_results() -> None:
    parent = os.getpid()

    def work(i: int) -> int:
        if os.getpid() != parent and i < 180:
            os.kill(os.getpid(), signal.SIGKILL)  # the child dies after a few tasks from the back
        if os.getpid() == parent:
            time.sleep(0.0005)  # let the child start
        return i + 1

    assert _share(200, work) == [i + 1 for i in range(200)]
    assert not _children()


def test_an_error_in_the_parent_kills_and_reaps_the_child() -> None:
    parent = os.getpid()

    def work(i: int) -> int:
        if os.getpid() != parent:
            time.sleep(5)
        if i == 3:
            raise ValueError("parent side")
        return i

    with pytest.raises(ValueError):
        _share(100, work)
    assert not _children()


def test_cancel_before_join_reaps_the_child() -> None:
    shared = Shared(lambda task: time.sleep(5), 10)
    shared.cancel()
    assert not _children()


def test_a_late_child_is_stopped_and_the_parent_does_its_task() -> None:
    """A child that has barely run (here: asleep in its first task) when the parent has done
    every other task is not waited for once it is old enough to judge: the parent does the
    child's task too."""
    parent = os.getpid()

    def work(i: int) -> int:
        if os.getpid() != parent:
            time.sleep(5)
        return i * 2

    started = time.monotonic()
    assert _share(10, work) == [i * 2 for i in range(10)]
    assert time.monotonic() - started < Shared.JUDGED_AFTER + 1
    assert not _children()


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
