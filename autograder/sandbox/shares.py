"""Per-slot CPU shares: each sandbox user's processes in a cgroup of their own, where cgroups are writable.

The scheduler shares the CPU per runnable process (per session, with autogroups): a submission that
forks eleven spinning children into sessions of their own takes most of the machine from the grading
next to it. In a cgroup per slot (one per sandbox user of the pool, ``lock.py``, so one per grading at a
time) everything a grading's worker starts shares one weight, and two gradings split the CPU evenly
however many processes either of them runs. Grades do not depend on this (every budget counts the
student's own time, ``cputime.py``); it keeps a hog from slowing its neighbours' gradings down.

cgroup v1's ``cpu`` hierarchy (``cpu.shares``) or cgroup v2 with the ``cpu`` controller
(``cpu.weight``), as root only. Where neither is writable (a Docker container's default, so probably
Gradescope's), nothing is done and ``Sandbox.layers`` does not list it. The groups stay (empty) between
gradings, like the lock files, under ``<hierarchy>/autograder/<user>``.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

V1 = Path("/sys/fs/cgroup/cpu")
V2 = Path("/sys/fs/cgroup")
GROUP = "autograder"
SHARE = {"cpu.shares": "1024", "cpu.weight": "100"}  # the default weight of each kind: every slot the same


def slot_group(user: str, v1: Path = V1, v2: Path = V2) -> Path | None:
    """The cgroup of ``user``'s slot, made if missing with the default CPU weight; None where cgroups are not
    writable (or not as root)."""
    if os.geteuid() != 0:
        return None
    for base, knob in ((v1, "cpu.shares"), (v2, "cpu.weight")):
        try:
            if knob == "cpu.weight":
                if "cpu" not in (base / "cgroup.controllers").read_text().split():
                    continue
                _enable_cpu(base)
            parent = base / GROUP
            parent.mkdir(mode=0o755, exist_ok=True)
            if knob == "cpu.weight":
                _enable_cpu(parent)
            group = parent / user
            group.mkdir(mode=0o755, exist_ok=True)
            (group / knob).write_text(SHARE[knob])
            return group
        except OSError:
            continue
    return None


def _enable_cpu(group: Path) -> None:
    """cgroup v2: let the children of ``group`` have a CPU weight."""
    control = group / "cgroup.subtree_control"
    if "cpu" not in control.read_text().split():
        control.write_text("+cpu")


def join_self(group: Path | None) -> None:
    """In the child, between fork and exec: move this process (and so all it will start) into ``group``.
    Only os calls; a failure leaves the process where it was (isolation reduced, not broken)."""
    if group is None:
        return
    with contextlib.suppress(OSError):
        fd = os.open(group / "cgroup.procs", os.O_WRONLY)
        try:
            os.write(fd, b"0")  # 0: the writing process
        finally:
            os.close(fd)


def members(group: Path) -> set[int]:
    """The pids in ``group`` now (for tests and checks)."""
    try:
        return {int(line) for line in (group / "cgroup.procs").read_text().split()}
    except (OSError, ValueError):
        return set()


def describe(group: Path | None) -> str:
    """The phrase ``Sandbox.layers`` adds, or ""."""
    if group is None:
        return ""
    knob = "cpu.shares" if (group / "cpu.shares").exists() else "cpu.weight"
    return f"CPU shares: a cgroup per slot ({group}, {knob} {SHARE[knob]})"
