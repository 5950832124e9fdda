"""The forked helper: results never depend on timing or on the child surviving."""

from __future__ import annotations

import os
import random
import signal
import time
from dataclasses import dataclass

import pytest

from analyzer.parallel.forked import LOST, ChildLost, Helper, Side

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


def _share(count: int, work, first=lambda: "own", prepare=None) -> tuple[object, object, list[object]]:  # type: ignore[no-untyped-def]
    prepare = prepare or (lambda own, payload: ((own, payload), payload["count"], work))
    helper = Helper(first, prepare)
    helper.hand_over({"count": count}, count)
    return helper.join(work)


@pytest.mark.parametrize("count", [0, 1, 15, 16, 17, 100, 1000])
def test_results_are_in_task_order_and_complete(count: int) -> None:
    own, extra, results = _share(count, lambda i: i * i)
    assert results == [i * i for i in range(count)]
    # a parent that did every task before the helper was scheduled (a loaded machine) joins
    # without the helper's values: the caller then makes them itself
    assert (own, extra) == ("own", ("own", {"count": count})) or (own is LOST and extra is LOST)


def test_uneven_task_costs_still_give_every_result_once() -> None:
    def work(i: int) -> tuple[int, int]:
        if random.random() < 0.05:
            time.sleep(0.002)
        return (i, os.getpid())

    for _ in range(5):
        _, _, results = _share(400, work)
        assert [i for i, _ in results] == list(range(400))
    pids = {pid for _, pid in results}
    assert os.getpid() in pids  # the parent always takes the first chunk


def test_a_child_that_fails_first_leaves_the_parent_all_the_work() -> None:
    def first() -> None:
        raise RuntimeError("no modules here")

    own, extra, results = _share(50, lambda i: -i, first=first)
    assert own is LOST and extra is LOST
    assert results == [-i for i in range(50)]


def test_a_child_killed_midway_costs_time_not_results() -> None:
    parent = os.getpid()

    def work(i: int) -> int:
        if os.getpid() != parent and i < 180:
            os.kill(os.getpid(), signal.SIGKILL)  # the child dies after a few chunks from the back
        if os.getpid() == parent:
            time.sleep(0.0005)  # let the child start
        return i + 1

    own, extra, results = _share(200, work)
    assert own is LOST and extra is LOST
    assert results == [i + 1 for i in range(200)]
    assert not _children()


def test_an_error_in_the_parent_kills_and_reaps_the_child() -> None:
    def work(i: int) -> int:
        if i == 3:
            raise ValueError("parent side")
        return i

    with pytest.raises(ValueError):
        _share(100, work, first=lambda: time.sleep(5))
    assert not _children()


def test_cancel_before_hand_over_reaps_the_child() -> None:
    helper = Helper(lambda: time.sleep(5), lambda own, payload: (None, 0, lambda task: task))
    helper.cancel()
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


def test_a_child_gone_before_the_hand_over_costs_no_error() -> None:
    """The task list is written to a pipe nobody reads any more: no BrokenPipeError escapes."""
    for _ in range(20):
        helper = Helper(lambda: os._exit(3), lambda own, payload: (None, 0, lambda task: task))
        time.sleep(0.01)
        helper.hand_over(list(range(100_000)), 10)  # bigger than the pipe
        own, extra, results = helper.join(lambda i: i * 2)
        assert own is LOST and extra is LOST and results == [i * 2 for i in range(10)]
    assert not _children()


def test_a_late_helper_is_stopped_and_the_parent_does_its_work() -> None:
    """A child that has barely run (here: asleep) and not begun its tasks when the parent has
    done them all is not waited for: the parent gets LOST for its values and redoes nothing
    else."""
    helper = Helper(lambda: time.sleep(5) or "own", lambda own, payload: ("extra", payload, lambda i: -i))
    helper.hand_over(10, 10)
    started = time.monotonic()
    own, extra, results = helper.join(lambda i: i * 2)
    assert time.monotonic() - started < Helper.JUDGED_AFTER + 1
    assert own is LOST and extra is LOST
    assert results == [i * 2 for i in range(10)]
    assert not _children()
