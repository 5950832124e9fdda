"""The forked workers: results never depend on timing or on the child surviving."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from analyzer.parallel import claims as claims_module
from analyzer.parallel import forked
from analyzer.parallel.forked import LOST, ChildLost, Side, from_both_ends

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


def _square_noting(parent: int, fail: int | None = None, lose: int | None = None, slow: bool = False):  # type: ignore[no-untyped-def]
    """A task list's work: (task, square, made by the child); the child fails task `fail`
    (raises), dies on task `lose`, or (`slow`) sleeps on each."""
    def work(index: int, need: Callable[[], int]) -> tuple[int, int, bool]:
        child = os.getpid() != parent
        if child and index == fail:
            raise ValueError("failed in the child")
        if child and index == lose:
            os._exit(3)
        if child and slow:
            time.sleep(0.2)
        return index, index * index * need(), child
    return work


def _one() -> int:
    return 1


@pytest.mark.parametrize("count", [1, 2, 3, 8, 41])
def test_both_ends_give_the_tasks_values_in_order(count: int) -> None:
    made = from_both_ends(_square_noting(os.getpid()), count, _one)
    assert [(index, square) for index, square, _ in made] == [(i, i * i) for i in range(count)]
    assert not _children()


def test_both_ends_share_the_tasks_the_child_from_the_back() -> None:
    def work(index: int, need: Callable[[], int]) -> tuple[int, bool]:
        time.sleep(0.05)  # both ends get work to do
        return index * need(), os.getpid() != parent
    parent = os.getpid()
    made = from_both_ends(work, 20, _one)
    by_child = [index for index, child in made if child]
    assert by_child and len(by_child) < 20
    assert by_child == list(range(20 - len(by_child), 20))  # a run from the back, none from the front


@pytest.mark.parametrize("count", [2, 3, 4, 5])
def test_where_the_ends_meet_each_task_is_done_once(count: int, tmp_path: Path) -> None:
    """Both ends finish their first tasks together and want the one between them: one takes it
    (`claims.Claims`), the other waits or stops; each task runs once over both processes."""
    log = os.open(tmp_path / "runs", os.O_WRONLY | os.O_CREAT | os.O_APPEND)
    try:
        def work(index: int, need: Callable[[], int]) -> int:
            os.write(log, b"%d\n" % index)  # one append a run, from either process
            time.sleep(0.1 if index in (0, count - 1) else 0.01)
            return index * need()
        for _ in range(5):
            (tmp_path / "runs").write_bytes(b"")
            assert from_both_ends(work, count, _one) == list(range(count))
            assert sorted(map(int, (tmp_path / "runs").read_bytes().split())) == list(range(count))
    finally:
        os.close(log)
    assert not _children()


def test_a_claims_lock_left_held_by_a_lost_child_costs_time_never_a_hang(monkeypatch: pytest.MonkeyPatch) -> None:
    """A child killed while it holds the claims' lock never releases it: each claim here waits
    `_CLAIM_WAIT`, then takes its task."""
    monkeypatch.setattr(claims_module, "_CLAIM_WAIT", 0.2)
    parent = os.getpid()

    def work(index: int, need: Callable[[], int]) -> int:
        if os.getpid() != parent:
            claims._lock.acquire()  # held, then lost with the child
            os._exit(3)
        return index * need()

    claims = claims_module.Claims(0)
    monkeypatch.setattr(forked, "Claims", lambda count: claims.__init__(count) or claims)
    assert from_both_ends(work, 6, _one) == list(range(6))
    assert not _children()


@pytest.mark.parametrize("fail", [0, 5, 9])
def test_a_task_that_fails_in_the_child_is_done_here(fail: int) -> None:
    made = from_both_ends(_square_noting(os.getpid(), fail=fail), 10, _one)
    assert [(index, square) for index, square, _ in made] == [(i, i * i) for i in range(10)]
    assert not made[fail][2]
    assert not _children()


@pytest.mark.parametrize("lose", [0, 4, 9])
def test_a_lost_child_costs_time_never_values(lose: int) -> None:
    made = from_both_ends(_square_noting(os.getpid(), lose=lose), 10, _one)
    assert [(index, square) for index, square, _ in made] == [(i, i * i) for i in range(10)]
    assert not made[lose][2]
    assert not _children()


def test_a_slow_child_leaves_the_tasks_to_this_process() -> None:
    made = from_both_ends(_square_noting(os.getpid(), slow=True), 30, _one)
    assert [(index, square) for index, square, _ in made] == [(i, i * i) for i in range(30)]
    assert sum(child for _, _, child in made) < 10


def test_a_failure_here_stops_the_child() -> None:
    def work(index: int, need: Callable[[], int]) -> int:
        if os.getpid() == parent and index == 1:
            raise KeyError("here")
        time.sleep(0.05)
        return index
    parent = os.getpid()
    with pytest.raises(KeyError):
        from_both_ends(work, 50, _one)
    assert not _children()


class _Doomed(Exception):
    """The map's fatal exception in the tests below."""


def test_a_fatal_failure_in_the_child_ends_the_map_here() -> None:
    """The child's last task raises the map's `fatal` exception: the map raises it here, soon,
    without doing the child's task or the rest of its own."""
    def work(index: int, need: Callable[[], int]) -> int:
        if index == 49:
            raise _Doomed(f"task {index}")
        done.append(index)
        time.sleep(0.05)
        return index
    done: list[int] = []
    with pytest.raises(_Doomed, match="task 49"):
        from_both_ends(work, 50, _one, fatal=_Doomed)
    assert len(done) < 10
    assert not _children()


def test_another_failure_in_the_child_is_no_fatal_one() -> None:
    made = from_both_ends(_square_noting(os.getpid(), fail=9), 10, _one, fatal=_Doomed)
    assert [(index, square) for index, square, _ in made] == [(i, i * i) for i in range(10)]
    assert not made[9][2]


def test_the_prepared_value_is_made_here_once_and_handed_to_the_child() -> None:
    """The child starts its first task before the value is made (it parses its first slice while
    the scan prepares), and waits for the value only when the task needs it."""
    def prepare() -> dict[str, int]:
        calls.append(os.getpid())
        time.sleep(0.2)  # the child's first task starts meanwhile
        return {"base": 7}

    def work(index: int, need: Callable[[], dict[str, int]]) -> tuple[int, int, bool]:
        child = os.getpid() != parent
        if child:
            time.sleep(0.05)
        return index, index + need()["base"], child

    calls: list[int] = []
    parent = os.getpid()
    made = from_both_ends(work, 12, prepare)
    assert [(index, value) for index, value, _ in made] == [(i, i + 7) for i in range(12)]
    assert calls == [parent]
    assert made[-1][2]  # the child's first task waited for the value
    assert not _children()


def _waiting_child(parent: int, fail: str):  # type: ignore[no-untyped-def]
    """A task list's work whose child fails at a point around the hand-off: `before` (it dies
    while the value is prepared), `after` (it dies holding the value, before sending a task),
    `raise` (its wait for the value fails)."""
    def work(index: int, need: Callable[[], int]) -> tuple[int, int, bool]:
        child = os.getpid() != parent
        if child and fail == "before":
            os._exit(3)
        if child and fail == "raise":
            raise ChildLost("no value")
        value = need()
        if child and fail == "after":
            os._exit(3)
        return index, index * value, child
    return work


@pytest.mark.parametrize("fail", ["before", "after", "raise"])
def test_a_child_lost_around_the_hand_off_costs_time_never_values(fail: str) -> None:
    def prepare() -> int:
        time.sleep(0.1)
        return 3
    made = from_both_ends(_waiting_child(os.getpid(), fail), 6, prepare)
    assert [(index, value, child) for index, value, child in made] == [(i, 3 * i, False) for i in range(6)]
    assert not _children()


def test_a_value_that_cannot_be_handed_over_leaves_the_tasks_here() -> None:
    def work(index: int, need: Callable[[], Callable[[], int]]) -> tuple[int, bool]:
        return index * need()(), os.getpid() != parent
    parent = os.getpid()
    made = from_both_ends(work, 8, lambda: lambda: 2)  # a lambda does not pickle
    assert made == [(2 * i, False) for i in range(8)]
    assert not _children()


def test_a_failure_while_preparing_stops_the_child() -> None:
    def prepare() -> int:
        raise KeyError("here")
    with pytest.raises(KeyError):
        from_both_ends(_square_noting(os.getpid(), slow=True), 8, prepare)
    assert not _children()


def _halves(map_slices=None):  # type: ignore[no-untyped-def]
    from test_slices_scan import RULES, UNITS

    from analyzer.javascript.sliced import sliced_halves
    return [sliced_halves("u.js", UNITS[name], 7, RULES, None, map_slices)
            for name in ("facts.js", "handlers.sink.bun.js")]


@pytest.mark.parametrize("point", ["waiting", "holding", "failing"])
def test_a_slice_worker_lost_around_the_hand_off_leaves_the_same_halves(
    monkeypatch: pytest.MonkeyPatch, point: str,
) -> None:
    """The slice worker dies while it waits for the unit-wide values, dies holding them before its
    first slice is sent, or cannot read them: the scan reads every slice itself, the same."""
    from analyzer.parallel.executor import executor_for

    receive = forked._Handoff.receive

    def lost(self: forked._Handoff) -> object:
        if point == "failing":
            raise ChildLost("no value")
        if point == "holding":
            receive(self)
        os._exit(3)

    whole = _halves()
    monkeypatch.setattr(forked._Handoff, "receive", lost)
    assert _halves(executor_for(2).map_slices) == whole
    assert not _children()


def test_a_unit_the_scan_cannot_slice_while_the_worker_parses_stops_the_worker(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The unit-wide values are made after the fork: a reason found then (here no byte
    supersets) is the scan's, as without a worker, and the worker is gone."""
    from analyzer.javascript import sliced
    from analyzer.parallel.executor import executor_for

    passes = sliced.scanned_then_supersets
    monkeypatch.setattr(sliced, "scanned_then_supersets", lambda *args: (passes(*args)[0], lambda: None))
    alone = _halves()
    assert alone == ["no byte supersets: the scanner is unsure"] * 2
    assert _halves(executor_for(2).map_slices) == alone
    assert not _children()
