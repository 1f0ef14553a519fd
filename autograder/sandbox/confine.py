"""What confines the worker before it execs: rlimits, OOM priority, namespaces, the user switch.

``child_setup`` returns the preexec function ``supervisor.Sandbox`` passes to Popen; it runs in
the child, still as the grader's user, just before exec.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import pwd
import resource
import signal
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from autograder.sandbox import shares

WORKER_OOM_SCORE, GRADER_OOM_SCORE = 1000, -900  # /proc/PID/oom_score_adj: who the OOM killer takes first
PR_SET_NO_NEW_PRIVS = 38
PR_SET_PDEATHSIG = 1
CLONE_NEWNET, CLONE_NEWIPC = 0x40000000, 0x08000000


@dataclass(frozen=True)
class Limits:
    """Resource limits of the worker. numpy 2.2 with one OpenBLAS thread peaks at ~100-140 MB of address
    space (VmPeak, Python 3.10/3.11), so 512 MB leaves ~370 MB for student arrays and keeps grader
    (~100 MB) + worker inside Gradescope's default 768 MB container. RLIMIT_AS is per process and
    memfd/tmpfs pages are not in it, so memory is not bounded in total: oom_score_adj decides who
    dies. Measured with the reference: a worker is one task (no thread) with at most 7 open fds."""

    memory_mb: int = 512  # RLIMIT_AS
    file_mb: int = 16  # RLIMIT_FSIZE: no file (the captured output, a memfd) grows past this
    cpu_seconds: int = 300  # RLIMIT_CPU: a backstop; wall-clock timeouts act first
    processes: int = 12  # RLIMIT_NPROC as the sandbox user: tasks of the uid, up to 4 workers sharing one
    open_files: int = 32  # RLIMIT_NOFILE: also caps one process's memfds at 32 x file_mb


def child_setup(limits: Limits, account: pwd.struct_passwd | None, *, world: bool = False,
                groups: tuple[Path, ...] = ()) -> Any:
    """The preexec function: runs in the child, still as the grader's user, just before exec.

    In this order: the slot's cgroups ``groups`` (``shares.py``: its CPU weight's and ``Slot.join``; the worker is
    born in them, so the grader moves it into none once it is ready; with ``world``, the world's init joins them
    instead, and the grace period each first move waits for passes while the grader gets on); rlimits; oom_score_adj
    (written with CAP_SYS_RESOURCE it is also a floor the student cannot lower; without, only the
    worker's non-dumpable /proc files keep it from writing it, until it re-enables dumping); as
    root, new network and IPC namespaces (best effort: Docker's seccomp may refuse); the user
    switch; SIGXFSZ ignored; no new privileges; death with the grader (PR_SET_PDEATHSIG); last,
    RLIMIT_AS. With ``world`` (the child execs ``unshare`` and namespace.py's world_init, which make the
    namespaces and switch the user inside them) the namespaces and the user switch are left to those.

    RLIMIT_AS comes last because this child is a copy of the grader, whose address space may be far
    larger than the worker's limit (a test run with torch loaded: 650 MB against 512): past it, any
    call here that needs a new block of memory fails, and the worker does not start.
    """
    settings = rlimits(limits, account)
    address_space = [s for s in settings if s[0] == resource.RLIMIT_AS]
    others = [s for s in settings if s[0] != resource.RLIMIT_AS]
    libc = ctypes.CDLL(None, use_errno=True)
    root = os.geteuid() == 0
    score = str(WORKER_OOM_SCORE).encode()
    grader = os.getpid()

    def setup() -> None:
        for group in groups:
            shares.join_self(group)
        for which, soft, hard in others:
            resource.setrlimit(which, (soft, hard))
        with contextlib.suppress(OSError):
            fd = os.open("/proc/self/oom_score_adj", os.O_WRONLY)
            try:
                os.write(fd, score)
            finally:
                os.close(fd)
        if root and not world and libc.unshare(CLONE_NEWNET | CLONE_NEWIPC) != 0:
            libc.unshare(CLONE_NEWNET)  # failing both is fine: isolation is reduced, not broken
        if account and not world:
            os.setgroups([])
            os.setresgid(account.pw_gid, account.pw_gid, account.pw_gid)
            os.setresuid(account.pw_uid, account.pw_uid, account.pw_uid)
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)  # dies with its grader (after the user switch,
        if os.getppid() != grader:  # which clears it): a SIGKILLed batch leaves no worker (batch/lifeline.py)
            os._exit(1)
        for which, soft, hard in address_space:  # last (see above); a lower limit needs no privilege
            resource.setrlimit(which, (soft, hard))

    return setup


def rlimits(limits: Limits, account: pwd.struct_passwd | None) -> list[tuple[int, int, int]]:
    """The worker's rlimits as (resource, soft, hard), the address space last; the process count only for a
    sandbox user. The address space never above the grader's own hard limit: it is set after the user switch,
    when it can only be lowered."""
    mb = 2**20
    settings = [(resource.RLIMIT_FSIZE, limits.file_mb * mb, limits.file_mb * mb),
                (resource.RLIMIT_CPU, limits.cpu_seconds, limits.cpu_seconds + 5),
                (resource.RLIMIT_CORE, 0, 0),
                (resource.RLIMIT_NOFILE, limits.open_files, limits.open_files)]
    if account:
        settings.append((resource.RLIMIT_NPROC, limits.processes, limits.processes))
    memory, ceiling = limits.memory_mb * mb, resource.getrlimit(resource.RLIMIT_AS)[1]
    memory = memory if ceiling == resource.RLIM_INFINITY else min(memory, ceiling)
    return [*settings, (resource.RLIMIT_AS, memory, memory)]


def lower_oom_score(pid: int, score: int) -> None:
    """Make ``pid`` a late choice of the kernel's OOM killer (never raises; never raises the score)."""
    with contextlib.suppress(OSError, ValueError), open(f"/proc/{pid}/oom_score_adj", "r+") as f:
        if int(f.read()) > score:
            f.seek(0)
            f.write(str(score))
