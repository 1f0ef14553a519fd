"""One CPU per grading (sandbox/placement.py): the grader's thread and its workers share a CPU, concurrent gradings
take different CPUs, and the grader's thread gets its CPUs back when the sandbox closes."""

from __future__ import annotations

import os
import textwrap
import threading
import time

import numpy as np
import pytest

from autograder.sandbox import placement
from autograder.sandbox.student import Student, StudentError
from tests.hostile import program, sandbox_user

CPUS = os.sched_getaffinity(0)
several_cpus = pytest.mark.skipif(len(CPUS) < 2, reason="one CPU allowed: nothing is pinned")
AFFINITY = textwrap.dedent("""
    import os
    import numpy as np

    def cpus(x):
        return np.array(sorted(os.sched_getaffinity(0)))

    def crash(x):
        os._exit(3)

    def spawned(x):  # what a process the student's code starts is allowed
        read, write = os.pipe()
        if os.fork() == 0:
            os.write(write, bytes(sorted(os.sched_getaffinity(0))))
            os._exit(0)
        os.wait()
        return np.array(list(os.read(read, 64)))
""")


def own_cpus() -> set[int]:
    return os.sched_getaffinity(threading.get_native_id())


@several_cpus
def test_the_worker_and_its_children_run_on_the_graders_cpu_and_the_grader_gets_its_cpus_back() -> None:
    with sandbox_user() as user, Student(program(AFFINITY), user=user) as student:
        student.start()
        cpu = student.sandbox.cpu
        assert cpu in CPUS
        assert own_cpus() == {cpu}
        assert list(student.call("cpus", np.zeros(1))) == [cpu]
        assert list(student.call("spawned", np.zeros(1))) == [cpu]
    assert own_cpus() == CPUS


@several_cpus
def test_a_restarted_worker_is_pinned_to_the_same_cpu() -> None:
    with sandbox_user() as user, Student(program(AFFINITY), user=user) as student:
        student.start()
        cpu = student.sandbox.cpu
        with pytest.raises(StudentError):
            student.call("crash", np.zeros(1))
        assert list(student.call("cpus", np.zeros(1))) == [cpu]
        assert student.sandbox.starts == 2
    assert own_cpus() == CPUS


@several_cpus
@pytest.mark.skipif(os.geteuid() != 0, reason="pool users need root")
def test_two_gradings_at_once_take_different_cpus() -> None:
    with sandbox_user() as user, Student(program(AFFINITY), user=user) as first:
        first.start()
        done: dict[str, object] = {}

        def second() -> None:  # a grading beside it, on a thread of its own (its own pool user)
            with Student(program(AFFINITY), user=user) as other:
                other.start()
                done["cpu"], done["worker"] = other.sandbox.cpu, list(other.call("cpus", np.zeros(1)))

        thread = threading.Thread(target=second)
        thread.start()
        thread.join(60)
        assert done["cpu"] != first.sandbox.cpu
        assert done["worker"] == [done["cpu"]]
        assert list(first.call("cpus", np.zeros(1))) == [first.sandbox.cpu]


def test_a_grader_limited_to_one_cpu_pins_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(placement, "ALLOWED", frozenset({5}))  # the CPUs the process may use
    assert placement.cpu_for(1) is None
    assert placement.cpu_for(None) is None


def test_pool_users_take_the_allowed_cpus_in_turn(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(placement, "ALLOWED", frozenset({0, 2, 5}))
    assert [placement.cpu_for(slot) for slot in (1, 2, 3, 4, 7)] == [0, 2, 5, 0, 0]


def test_without_a_pool_user_the_cpu_is_the_one_the_grader_runs_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(placement, "ALLOWED", frozenset({1, 3}))
    monkeypatch.setattr(placement, "current_cpu", lambda: 3)
    assert placement.cpu_for(None) == 3
    monkeypatch.setattr(placement, "current_cpu", lambda: 0)  # not allowed (the mask changed): the first
    assert placement.cpu_for(None) == 1


def test_restoring_a_thread_that_has_ended_touches_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    saved: list[placement.Saved | None] = []
    thread = threading.Thread(target=lambda: saved.append(placement.pin_thread(min(CPUS))))
    thread.start()
    thread.join()
    assert saved[0] is not None and saved[0][1] == CPUS
    for _ in range(1000):  # join() returns before the kernel has removed the thread
        if not os.path.exists(f"/proc/self/task/{saved[0][0]}"):
            break
        time.sleep(0.001)
    calls: list[tuple] = []
    monkeypatch.setattr(os, "sched_setaffinity", lambda *args: calls.append(args))
    placement.restore(saved[0])  # its id may be another process's by now: left alone
    assert calls == []


@several_cpus
def test_a_pinned_thread_is_restored_from_another_thread() -> None:
    saved: list[placement.Saved | None] = []
    pinned, restored = threading.Event(), threading.Event()
    seen: list[set[int]] = []

    def pinned_thread() -> None:
        saved.append(placement.pin_thread(min(CPUS)))
        seen.append(own_cpus())
        pinned.set()
        restored.wait(30)
        seen.append(own_cpus())

    thread = threading.Thread(target=pinned_thread)
    thread.start()
    pinned.wait(30)
    placement.restore(saved[0])
    restored.set()
    thread.join()
    assert seen == [{min(CPUS)}, CPUS]
