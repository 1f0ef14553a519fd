"""Per-slot CPU shares (sandbox/shares.py): a cgroup per sandbox user, where cgroups are writable as root."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from autograder.sandbox import cputime, namespace, shares
from autograder.sandbox.student import Student, StudentError
from autograder.sandbox.supervisor import Sandbox
from tests.hostile import program, sandbox_user

ROOT = os.geteuid() == 0
WRITABLE = ROOT and shares.slot_group("agsharestest") is not None
pytestmark = pytest.mark.skipif(not WRITABLE, reason="cgroups are not writable here (not root, or a container)")


@pytest.fixture(scope="module")
def user():
    with sandbox_user() as name:
        yield name


def test_every_process_of_a_worker_is_in_its_slots_group_with_the_default_share(user) -> None:
    with Sandbox(user=user) as box:
        box.start()
        assert box.cgroup is not None and box.cgroup.name == box.user
        assert any(layer.startswith("CPU shares: a cgroup per slot") for layer in box.layers)
        worker = namespace.worker_pid(box.pid) if not box.world_missing else box.pid
        assert worker is not None and worker in shares.members(box.cgroup)
        parent = int(Path(f"/proc/{worker}/stat").read_text().rsplit(")", 1)[1].split()[1])
        first = parent if not box.world_missing else worker  # the world's init (unshare waits above it, outside)
        assert {first, worker} <= shares.members(box.cgroup)  # every process that may run student code
        knob = "cpu.shares" if (box.cgroup / "cpu.shares").exists() else "cpu.weight"
        assert (box.cgroup / knob).read_text().strip() == shares.SHARE[knob]
        info = os.stat(box.cgroup / "cgroup.procs")
        assert info.st_uid == 0 and not info.st_mode & 0o022, "only root may move processes in or out"
    assert not shares.members(box.cgroup), "nothing of the slot is left after close"


def _spinners(group: Path, count: int) -> list[subprocess.Popen]:
    code = "while True: pass"  # until killed
    return [subprocess.Popen([sys.executable, "-c", code], preexec_fn=lambda: shares.join_self(group),  # noqa: PLW1509
                             start_new_session=True) for _ in range(count)]


def _cpu(procs: list[subprocess.Popen]) -> float:
    return sum(cputime.tree_cpu(proc.pid) for proc in procs)


def test_a_slot_with_many_spinning_processes_does_not_starve_a_slot_with_one() -> None:
    """The finding: a submission forking children into their own sessions took the CPU from its neighbour.
    With a group per slot, one spinning process next to a slot of 4*cores spinning processes gets as much CPU
    time as that whole slot (without groups: 1/(4*cores) of it); it must get at least half as much. Measured
    in CPU time and as a ratio, so other load on the machine (another grading, other tests) changes how long
    it takes, not what it shows."""
    hog, honest = shares.slot_group("agsharestest"), shares.slot_group("agsharestest2")
    many = _spinners(hog, 4 * (os.cpu_count() or 1))
    one = _spinners(honest, 1)
    try:
        time.sleep(0.3)
        before_many, before_one = _cpu(many), _cpu(one)
        deadline = time.monotonic() + 60
        while _cpu(many) - before_many < 2.0 and time.monotonic() < deadline:  # 2 s of the slot's CPU at least
            time.sleep(0.1)
        used_many, used_one = _cpu(many) - before_many, _cpu(one) - before_one
    finally:
        for proc in [*many, *one]:
            proc.kill()
            proc.wait()
    assert used_many >= 0.5, f"the spinning slot got {used_many:.2f} s of CPU in 60 s"
    assert used_one >= 0.5 * used_many, f"the lone process got {used_one:.2f} s of CPU, the slot {used_many:.2f} s"


def test_a_worker_is_in_its_slots_cpu_time_and_memory_groups_and_they_go_with_the_grading(user) -> None:
    """Issue 22: every process the worker starts is counted in the slot's CPU time and under its memory cap."""
    with Sandbox(user=user) as box:
        box.start()
        slot, worker = box.slot, box.clock.pid
        assert slot.usage is not None and slot.memory is not None and slot.memory_mb == 2 * box.limits.memory_mb
        assert worker in shares.members(slot.usage.parent) and worker in shares.members(slot.memory)
        cap = next(slot.memory / name for name in ("memory.limit_in_bytes", "memory.max")
                   if (slot.memory / name).exists())
        assert int(cap.read_text()) == slot.memory_mb * 2**20
        assert {f"memory: {slot.memory_mb} MiB for the whole slot ({slot.memory})",
                f"CPU time: the slot's cgroup ({slot.usage})"} <= set(box.layers)
    assert all(not group.exists() for group in slot.join), "a grading's own groups are removed with it"


HIDDEN_CHILDREN = """
import os, signal, sys, time
signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # the kernel reaps each child: its CPU time reaches no cutime
for _ in range(4):
    if os.fork() == 0:
        end = time.process_time() + 0.25  # CPU time, not wall time: on a loaded machine too, 1 s of CPU in all
        while time.process_time() < end:
            pass
        os._exit(0)
    try:
        os.wait()  # ECHILD once the child is gone
    except ChildProcessError:
        pass
fields = open("/proc/self/stat").read().rsplit(")", 1)[1].split()
print(sum(int(x) for x in fields[11:15]) / os.sysconf("SC_CLK_TCK"))
"""


def test_the_slots_cpu_time_counts_children_the_kernel_reaped() -> None:
    """Issue 22, finding 3: ``/proc`` loses the CPU time of a child whose parent ignores SIGCHLD; the slot's
    cumulative usage does not."""
    slot = shares.slot("agsharestest", 256, shares.slot_group("agsharestest"))
    try:
        assert slot.usage is not None
        group = slot.usage.parent
        before = shares.cpu_seconds(slot.usage)
        done = subprocess.run([sys.executable, "-c", HIDDEN_CHILDREN], preexec_fn=lambda: shares.join_self(group),
                              capture_output=True, text=True, timeout=60, check=True)
        seen_in_proc = float(done.stdout)
        counted = shares.cpu_seconds(slot.usage) - before
        assert seen_in_proc < 0.3 < counted, (seen_in_proc, counted)
    finally:
        shares.remove(slot)


def test_the_waits_of_a_worker_with_other_processes_are_the_students_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 22, finding 3: run-queue waits are discounted only while the worker is the student's only process."""
    waits = iter([0.0, 2.0, 5.0, 9.0, 9.0])
    monkeypatch.setattr(cputime.StudentClock, "_read", lambda self: next(waits))
    clock = cputime.StudentClock()
    clock.follow(1)
    clock.now()  # 0 s of waits
    clock.mark()
    clock.charge(False)  # 2 s of waits alone: discounted
    clock.charge(True)  # 3 s more with other processes: the student's
    assert clock._charged == 3.0
    clock.charge(True)  # 4 s more
    assert clock._charged == 7.0 and clock.fast() >= clock.now() - 1e-3


@pytest.mark.parametrize("lowered", ["", "os.nice(5)", "os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))"])
def test_a_process_that_lowered_its_own_priority_is_seen_as_such(lowered: str) -> None:
    proc = subprocess.Popen([sys.executable, "-c", f"import os, time\n{lowered}\nprint(flush=True)\ntime.sleep(30)"],
                            stdout=subprocess.PIPE, start_new_session=True)
    try:
        proc.stdout.readline()
        assert cputime.deprioritized(proc.pid) is bool(lowered)
    finally:
        proc.kill()
        proc.wait()


OVER_THE_SLOT = """
import os, time
import numpy as np
def _hold(megabytes):
    ballast = np.ones(megabytes * 2**20 // 8)  # resident: what the OOM killer weighs
    fds = [os.memfd_create("hog") for _ in range(24)]  # 384 MB more, in no address space and no one's RSS
    for fd in fds:
        for _ in range(16):
            os.write(fd, b"1" * 2**20)
    return ballast, fds
def hog(x):
    read, write = os.pipe()
    if os.fork() == 0:
        held = _hold(150)
        os.write(write, b"1")
        time.sleep(60)  # until it is killed
    os.read(read, 1)
    held = _hold(300)  # the biggest process: 300 + 384 MB, and the child's 150 + 384 MB: past 1024 MB
    return x
"""


def test_a_worker_the_oom_killer_took_within_its_slot_is_the_students_crash(user) -> None:
    """Issue 22: the OOM killer acting under the slot's own cap is evidence: no free retry, and the student reads
    that its processes together ran out of memory."""
    # the kill is the memory's, not the clock's: a call limit well past the ~1.2 GB's writing under any load (the
    # default 2 s ran out first once, in a full make test on a slower VM)
    with Student(program(OVER_THE_SLOT), user=user, call_timeout=20) as s:
        if s.sandbox.slot.memory is None:
            pytest.skip("no writable memory cgroup here")
        with pytest.raises(StudentError) as info:
            s.call("hog", 1)
        assert "killed by signal 9: out of memory (its processes together may use 1024 MB" in info.value.message


def test_the_clock_reads_the_worker_it_follows_through_one_open_file_until_that_worker_is_reaped() -> None:
    proc = subprocess.Popen([sys.executable, "-c", "while True: pass"], start_new_session=True)
    clock = cputime.StudentClock()
    try:
        clock.follow(proc.pid)
        time.sleep(0.2)
        assert isinstance(clock._read(), float) and isinstance(cputime.run_queue_wait(proc.pid), float)
    finally:
        proc.kill()
        proc.wait()
    assert clock._read() is None  # bound to the reaped process: never a later one given its pid
    before = clock.now()
    assert clock.now() >= before
    clock.follow(None)
    assert clock._file == -1
