"""Per-slot CPU shares (sandbox/shares.py): a cgroup per sandbox user, where cgroups are writable as root."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from autograder.sandbox import cputime, namespace, shares
from autograder.sandbox.supervisor import Sandbox
from tests.hostile import sandbox_user

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
        assert {box.pid, worker} <= shares.members(box.cgroup)  # unshare (or the worker) and all below it
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
