"""Workers forked from a zygote (a batch's, sandbox/zygotes.py) are what a freshly started worker is: the same
grades, user, limits, environment and world, their own random state, and nothing left when the grader ends them
or goes away. `make test-zygote` runs the sandbox's own tests through this path too."""

from __future__ import annotations

import os
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from autograder import runner
from autograder.sandbox import namespace, reaper, shares, zygotes
from autograder.sandbox.student import Student
from autograder.sandbox.supervisor import Sandbox
from tests.hostile import program, sandbox_user

REPO = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.skipif(os.geteuid() != 0 or namespace.unavailable() != "",
                                reason="the zygote needs root and namespaces")
PROBE = textwrap.dedent("""
    import os, sys, zlib
    import numpy as np

    def probe(x):
        env = "|".join(f"{k}={v}" for k, v in sorted(os.environ.items()) if k not in ("HOME", "TMPDIR"))
        home = os.environ["HOME"]
        return [os.getuid(), os.getgid(), os.getgroups(), int(os.getcwd() == home == os.environ["TMPDIR"]),
                zlib.crc32(env.encode()), int(sys.argv[0] == "-c"), sys.flags.isolated, sys.flags.dont_write_bytecode,
                int("zygote" in sys.modules), int("world_init" in sys.modules), os.umask(0o022),
                len(os.listdir("/proc/self/fd")), len(os.listdir("/proc")), sorted(os.sched_getaffinity(0)),
                *status(), float(np.random.rand())]

    def status():
        fields = ("SigIgn", "SigBlk", "NoNewPrivs", "Seccomp")  # ignored signals; the seccomp filter
        return [int(line.split()[1], 16) for line in open("/proc/self/status") if line.split(":")[0] in fields]

    def dumpable():
        import ctypes
        return ctypes.CDLL(None).prctl(3, 0, 0, 0, 0)  # PR_GET_DUMPABLE
""")


@pytest.fixture
def zygote() -> Iterator[None]:
    """A zygote for the test's workers, stopped after it."""
    if zygotes.running(sys.executable):
        pytest.skip("this test run forks every worker from a zygote already (AUTOGRADER_TEST_ZYGOTE=1)")
    assert zygotes.start() == ""
    yield
    zygotes.stop()


def probe(user: str | None) -> list:
    with Student(program(PROBE), user=user) as s:
        s.start()
        forked = type(s.sandbox._proc).__name__ == "ForkedWorker"
        return [forked, *s.call("probe", np.zeros(1)), s.call("dumpable")]


def test_a_forked_worker_is_what_a_started_one_is_with_random_state_of_its_own(zygote) -> None:
    cpus = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {min(cpus)})  # a grader on one CPU: its worker on that CPU too, however it starts
    try:
        with sandbox_user() as user:
            first, second = probe(user), probe(user)
            zygotes.stop()
            started = probe(user)
    finally:
        os.sched_setaffinity(0, cpus)
    assert first[0] and second[0] and not started[0]
    assert first[1:-2] == second[1:-2] == started[1:-2]  # uid, env, argv, flags, umask, open fds, CPUs...
    assert first[-1] == started[-1] == 0  # not dumpable
    assert first[1] != 0 and first[-2] != second[-2]  # the sandbox user; each worker draws its own numbers


@pytest.mark.parametrize("submission", ["reference/attention.py",
                                        "reference/examples/hostile/forge_score/attention.py"])
def test_a_forked_worker_grades_like_a_started_one(zygote, tmp_path: Path, submission: str) -> None:
    folder = tmp_path / "submission"
    folder.mkdir()
    (folder / "attention.py").write_bytes((REPO / submission).read_bytes())
    forked = runner.grade_folder(folder)
    zygotes.stop()
    started = runner.grade_folder(folder)
    assert forked["score"] == started["score"]
    assert [(t["name"], t["score"], t["output"]) for t in forked["tests"]] == [
        (t["name"], t["score"], t["output"]) for t in started["tests"]]


def test_the_world_of_a_forked_worker_ends_with_its_grader(zygote, tmp_path: Path) -> None:
    """A grading process killed mid-call (a batch's outer time limit) leaves no process of its world."""
    # a fork of this process inherits the zygote's socket, as a batch's grading does
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the grading process
        try:
            s = Student(program("import time\ndef spin(x):\n    while True:\n        pass\n"))
            s.start()
            nest = s.sandbox._nest.pid if s.sandbox._nest else 0
            os.write(write, f"{s.sandbox.pid} {namespace.worker_pid(s.sandbox.pid)} {nest} {s.sandbox._run_dir} "
                            f"{s.sandbox._private}\n".encode())
            s.call("spin", 1)
        finally:
            os._exit(0)
    first, worker, nest, *folders = os.read(read, 1000).decode().split()
    first, worker, nest = int(first), int(worker), int(nest) or first
    time.sleep(0.3)
    assert os.path.exists(f"/proc/{worker}")
    os.kill(pid, 9)
    os.waitpid(pid, 0)
    end = time.monotonic() + 5
    while time.monotonic() < end and any(os.path.exists(f"/proc/{pid}") for pid in (first, worker, nest)):
        time.sleep(0.02)
    for folder in folders:  # what its close() would have removed (the worker's home belongs to the sandbox user)
        reaper.remove_tree(Path(folder))
    assert not any(os.path.exists(f"/proc/{pid}") for pid in (first, worker, nest))  # its nest too, if any


def test_a_forked_worker_is_born_in_its_slots_groups_and_the_grader_moves_it_into_none(zygote, monkeypatch) -> None:
    """Each move of a process between cgroups waits for an RCU grace period (milliseconds, at every restart of a
    worker): a grading's nest (its copy of the zygote) joins every group of the slot once, and forks every world
    of the grading in them, so no worker is moved, and the nest ends with the grading, before its groups are
    removed. A worker started as usual is born in them too: its world's init joins them (``world_init.join``)
    while the grader gets on with its own start-up, so neither is moved by the grader."""
    if shares.slot_group("agzygotetest") is None:
        pytest.skip("cgroups are not writable here")
    moved: list[str] = []
    write_text = Path.write_text

    def spy(self: Path, *args: object, **kwargs: object) -> int:
        if self.name == "cgroup.procs":
            moved.append(str(self))
        return write_text(self, *args, **kwargs)

    monkeypatch.setattr(Path, "write_text", spy)
    with sandbox_user() as user:
        for forked in (True, False):
            with Sandbox(user=user) as box:
                if not forked:
                    monkeypatch.setattr(zygotes, "running", lambda *args: False)
                box.start()
                assert (type(box._proc).__name__ == "ForkedWorker") == forked
                worker = box.clock.pid
                groups = [*([box.cgroup] if box.cgroup else []), *box.slot.join]
                assert groups and all(worker in shares.members(group) for group in groups)
                assert moved == [], moved
                moved.clear()
                nest = box._nest.pid if forked else None
                assert (nest is not None) == forked and all(nest in shares.members(group) for group in groups if nest)
                if forked:  # a restart: forked by the same nest, in the groups, moved by nobody
                    box.kill()
                    box.start()
                    assert box._nest.pid == nest and moved == []
                    assert all(box.clock.pid in shares.members(group) for group in groups)
            if nest is not None:
                assert not os.path.exists(f"/proc/{nest}"), "the nest ends with its grading"
                assert all(not group.exists() for group in box.slot.join), "and so do the slot's own groups"


def test_without_an_answering_zygote_the_worker_is_started_as_usual(zygote) -> None:
    pid, _ = zygotes.process()
    os.kill(pid, 9)
    with Student(program(PROBE)) as s:
        s.start()
        assert type(s.sandbox._proc).__name__ == "Popen" and s.call("dumpable") == 0


def test_a_grading_of_its_own_forks_its_restarted_workers_from_a_zygote_it_ends() -> None:
    """``autograder run`` (one submission): its first worker starts as usual, every restart after a probe or a crash
    is forked from a zygote started then, and the zygote ends with the grading (its folder too)."""
    if zygotes.running(sys.executable):
        pytest.skip("this test run forks every worker from a zygote already (AUTOGRADER_TEST_ZYGOTE=1)")
    zygotes.on_demand["wanted"] = True
    try:
        with sandbox_user() as user, Student(program(PROBE), user=user) as s:
            kinds = []
            for _ in range(3):
                s.start()
                kinds.append(type(s.sandbox._proc).__name__)
                assert s.call("dumpable") == 0
                s.discard()
            pid, folder = zygotes.process()
    finally:
        zygotes.on_demand["wanted"] = False
        zygotes.stop()
    assert kinds == ["Popen", "ForkedWorker", "ForkedWorker"]
    assert not os.path.exists(folder) and zygotes.process() is None
    with pytest.raises(ChildProcessError):
        os.waitpid(pid, 0)  # reaped by stop()
