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
    code = "import time\nend = time.monotonic() + 3\nwhile time.monotonic() < end: pass"
    return [subprocess.Popen([sys.executable, "-c", code], preexec_fn=lambda: shares.join_self(group),  # noqa: PLW1509
                             start_new_session=True) for _ in range(count)]


def _cpu(proc: subprocess.Popen) -> float:
    return cputime.tree_cpu(proc.pid)


def test_a_slot_with_many_spinning_processes_does_not_starve_a_slot_with_one() -> None:
    """The finding: a submission forking children into their own sessions took the CPU from its neighbour.
    With a group per slot, one spinning process next to a slot of 4*cores spinning processes gets about
    a core (without groups: about cores/(4*cores+1) of one); it must get at least half a core."""
    hog, honest = shares.slot_group("agsharestest"), shares.slot_group("agsharestest2")
    many = _spinners(hog, 4 * (os.cpu_count() or 1))
    one = _spinners(honest, 1)[0]
    try:
        time.sleep(0.3)
        before, began = _cpu(one), time.monotonic()
        time.sleep(2.0)
        share = (_cpu(one) - before) / (time.monotonic() - began)
    finally:
        for proc in [*many, one]:
            proc.kill()
            proc.wait()
    assert share >= 0.5, f"the lone process got {share:.2f} of a core"
