"""Per-slot cgroups: each sandbox user's processes share one CPU weight, one count of CPU time and one memory cap.

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

``slot`` adds two more where they are writable (``Slot``). **CPU time**: the slot's cumulative usage
(v1 ``cpuacct.usage``, v2 ``cpu.stat``'s ``usage_usec``) counts every process that ever ran in it, even
one whose parent ignored SIGCHLD (its time then reaches no one's ``cutime``, which ``cputime.tree_cpu``
reads). **Memory**: the slot's total (v1 ``memory.limit_in_bytes``, and ``memory.memsw.limit_in_bytes``
where swap is accounted; v2 ``memory.max``, ``memory.swap.max`` 0), memfd and tmpfs pages included, so
an out-of-memory kill stays within the slot. These v1 groups are made below the grader's own (a host's
limits on it hold for the slot too) when a grading starts, and removed when it ends (``remove``). The
worker is born in them (its world's init joins them, ``world_init.join``; without a world,
``confine.child_setup``; forked, the grading's nest of the zygote), and ``Sandbox.start``
moves it into any it is not in yet once it has said it is ready, before any student code runs, so everything
it starts is in them.
"""

from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass
from pathlib import Path

V1 = Path("/sys/fs/cgroup/cpu")
V2 = Path("/sys/fs/cgroup")
V1_ACCT, V1_MEMORY = Path("/sys/fs/cgroup/cpuacct"), Path("/sys/fs/cgroup/memory")
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


@dataclass(frozen=True)
class Slot:
    """A slot's cgroups beyond its CPU weight: where its CPU time is counted and its memory capped."""

    usage: Path | None = None  # a file of cumulative CPU time: cpuacct.usage (ns) or cpu.stat (usage_usec)
    memory: Path | None = None  # the group whose total memory is capped
    memory_mb: int = 0  # that cap
    join: tuple[Path, ...] = ()  # groups the worker joins once started (v1's own hierarchies)

    def enter(self, pid: int) -> bool:
        """Move process ``pid`` (with its threads) into the groups to join; whether its CPU time is then
        counted in ``usage``."""
        return move(self.join, pid) and self.usage is not None and pid in members(self.usage.parent)

    def describe(self) -> list[str]:
        """The phrases ``Sandbox.layers`` adds."""
        return ([f"CPU time: the slot's cgroup ({self.usage})"] if self.usage else []) + (
            [f"memory: {self.memory_mb} MiB for the whole slot ({self.memory})"] if self.memory else [])


def slot(user: str, memory_mb: int, cpu_group: Path | None, v1_acct: Path = V1_ACCT, v1_memory: Path = V1_MEMORY,
         v2: Path = V2) -> Slot:
    """The CPU-time and memory groups of ``user``'s slot, made if missing, the memory cap set to ``memory_mb``;
    an empty Slot where cgroups are not writable (or not as root). ``cpu_group``: ``slot_group``'s."""
    if os.geteuid() != 0:
        return Slot()
    unified = cpu_group if cpu_group is not None and (cpu_group / "cpu.weight").exists() else None  # v2
    usage = memory = None
    join: list[Path] = []
    if unified is not None and (unified / "cpu.stat").exists():  # one group for every controller, joined already
        usage = unified / "cpu.stat"
    else:
        acct = _made(_own(v1_acct, "cpuacct") / GROUP / user)
        usage = acct / "cpuacct.usage" if acct else None
        join += [acct] if acct else []
    group = _made(_own(v1_memory, "memory") / GROUP / user)
    if group is not None and _cap_v1(group, memory_mb):
        memory = group
        join.append(group)
    elif unified is not None and _cap_v2(v2, unified, memory_mb):
        memory = unified
    return Slot(usage=usage, memory=memory, memory_mb=memory_mb if memory else 0, join=tuple(join))


def _own(base: Path, controller: str) -> Path:
    """This process's own group in the v1 hierarchy ``base`` of ``controller``: the slot's groups are made below
    it, so that a host's limits on the grader hold for the slot too."""
    with contextlib.suppress(OSError, ValueError):
        for line in Path("/proc/self/cgroup").read_text().splitlines():
            _, controllers, path = line.split(":", 2)
            if controller in controllers.split(","):
                return base / path.lstrip("/")
    return base


def remove(slot: Slot) -> None:
    """Remove the groups ``slot`` made below the grader's own (call once its processes are gone), and their
    parent once no other slot uses it: the host's own group can then be removed as if we had never been there."""
    for group in slot.join:
        for folder in (group, group.parent):
            with contextlib.suppress(OSError):
                folder.rmdir()


def _made(group: Path) -> Path | None:
    try:
        if not (group.parent.parent / "cgroup.procs").exists():
            return None
        group.parent.mkdir(mode=0o755, exist_ok=True)
        group.mkdir(mode=0o755, exist_ok=True)
        return group
    except OSError:
        return None


def _cap_v1(group: Path, memory_mb: int) -> bool:
    """Memory and memory+swap both at ``memory_mb`` (the order that works whether the cap rises or falls)."""
    value = str(memory_mb * 2**20)
    knobs = [group / "memory.limit_in_bytes", group / "memory.memsw.limit_in_bytes"]
    for knob in [*knobs, knobs[0]]:
        with contextlib.suppress(OSError):
            knob.write_text(value)
    try:
        return all(int(k.read_text()) == int(value) for k in knobs if k.exists()) and knobs[0].exists()
    except (OSError, ValueError):
        return False


def _cap_v2(base: Path, group: Path, memory_mb: int) -> bool:
    try:
        if "memory" not in (base / "cgroup.controllers").read_text().split():
            return False
        for parent in (base, group.parent):
            control = parent / "cgroup.subtree_control"
            if "memory" not in control.read_text().split():
                control.write_text("+memory")
        (group / "memory.max").write_text(str(memory_mb * 2**20))
        with contextlib.suppress(OSError):
            (group / "memory.swap.max").write_text("0")
        return True
    except OSError:
        return False


def move(groups: tuple[Path, ...], pid: int) -> bool:
    """Move process ``pid`` (its threads too) into each of ``groups`` it is not in yet (a worker forked from the
    zygote was born in them: a move costs an RCU grace period, milliseconds); whether it is in all of them."""
    for group in groups:
        if pid not in members(group):
            with contextlib.suppress(OSError):
                (group / "cgroup.procs").write_text(str(pid))
    return all(pid in members(group) for group in groups)


def cpu_seconds(usage: Path) -> float | None:
    """The CPU time of everything that ever ran in the group of the file ``usage`` (``Slot.usage``), or None."""
    try:
        text = usage.read_text()
        if usage.name == "cpuacct.usage":
            return int(text) / 1e9
        return int(text.split("usage_usec", 1)[1].split()[0]) / 1e6
    except (OSError, ValueError, IndexError):
        return None


def oom_events(group: Path | None) -> tuple[int, int]:
    """How often memory group ``group`` reached its own cap, and how many of its processes the OOM killer took
    (v1: 1 once its peak since ``reset_peak`` reached the cap, and ``memory.oom_control``; v2: ``memory.events``'
    max and oom_kill; 0 when unknown). A kill with no hit of its own cap was forced by an ancestor's limit (a
    host's: maybe a neighbour's doing)."""
    if group is None:
        return 0, 0
    with contextlib.suppress(OSError, ValueError, IndexError):
        if (group / "memory.oom_control").exists():
            peak, cap = (int((group / name).read_text()) for name in ("memory.max_usage_in_bytes",
                                                                       "memory.limit_in_bytes"))
            hits = int(peak >= cap)  # its peak since ``reset_peak``: failcnt stays 0 under a memsw cap
            return hits, int((group / "memory.oom_control").read_text().split("oom_kill ")[1].split()[0])
        events = dict(line.split() for line in (group / "memory.events").read_text().splitlines())
        return int(events.get("max", 0)), int(events.get("oom_kill", 0))
    return 0, 0


def reset_peak(group: Path | None) -> None:
    """v1: start ``group``'s peak memory (``oom_events``) afresh, from what it holds now."""
    if group is not None:
        with contextlib.suppress(OSError):
            (group / "memory.max_usage_in_bytes").write_text("0")
