"""Red team, round 4 (issue 28): nothing of a grading outlives it, namespaces or not.

Case 4: the sandbox user's IPC objects (System V shared memory, message queues, semaphores) survived a grading
without an IPC namespace (Docker's default capabilities), and the next submission read them. Now the seccomp filter
refuses those calls, and ``reaper.remove_ipc`` removes what the user holds at each worker start and at close.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.hostile import sandbox_user
from tests.test_probe_integrity import SETTINGS, _run_as

IPC_SCRIPT = """
import ctypes, json, os, pwd, sys
from autograder.sandbox import reaper
from autograder.sandbox.student import Student
from tests.hostile import REFERENCE, program
user = sys.argv[2]
uid = pwd.getpwnam(user).pw_uid
pid = os.fork()
if pid == 0:  # what a worker without the filter could leave: made as the sandbox user
    os.setuid(uid)
    libc = ctypes.CDLL(None, use_errno=True)
    made = [libc.shmget(0x28AA, 4096, 0o1600), libc.msgget(0x28AB, 0o1600), libc.semget(0x28AC, 1, 0o1600)]
    os._exit(0 if min(made) >= 0 else 1)
made_outside = os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]) == 0
before = len(reaper.ipc_objects(uid))
source = REFERENCE.read_text() + '''
import ctypes
_libc = ctypes.CDLL(None, use_errno=True)

def made():
    calls = [_libc.shmget(0x28AD, 4096, 0o1600), _libc.msgget(0x28AE, 0o1600), _libc.semget(0x28AF, 1, 0o1600)]
    return np.array([*calls, ctypes.get_errno()], dtype=float)
'''
with Student(program(source), user=user) as student:
    at_start = len(reaper.ipc_objects(uid))
    made = student.call("made").tolist()
print(json.dumps({"made_outside": made_outside, "before": before, "at_start": at_start, "made": made,
                  "after": len(reaper.ipc_objects(uid))}))
"""


@pytest.mark.parametrize("setting", SETTINGS)
def test_case_4_ipc_objects_of_the_sandbox_user_never_outlive_a_grading(tmp_path: Path, setting: str) -> None:
    with sandbox_user() as user:
        if user is None:
            pytest.skip("needs root (a sandbox user)")
        seen = _run_as(tmp_path, IPC_SCRIPT, "", setting, user)
    assert seen["made_outside"] and seen["before"] >= 3, seen  # left by an earlier grading's worker
    assert seen["at_start"] == 0, seen  # removed before the worker started
    assert seen["made"] == [-1, -1, -1, 1], seen  # the student's calls: EPERM, nothing made
    assert seen["after"] == 0, seen


DAEMON = '''
import os as _os

def _daemon():  # setsid and a double fork: no longer the worker's child, nor in its session or process group
    if _os.fork() == 0:
        _os.setsid()
        if _os.fork() == 0:
            _os.execv("/bin/sleep", ["sleep", "1028"])
        _os._exit(0)
    _os.wait()

_daemon()
'''
BATCH_SCRIPT = """
import sys
from pathlib import Path
from autograder import batch
batch.run(Path(sys.argv[1]), Path(sys.argv[2]), jobs=1, plain=True, allow_exposed=True)
"""


def _daemons() -> list[int]:
    import os

    found = []
    for entry in filter(str.isdigit, os.listdir("/proc")):
        try:
            if Path(f"/proc/{entry}/cmdline").read_bytes() == b"sleep\x001028\x00":
                found.append(int(entry))
        except OSError:
            continue
    return found


def _slot_cgroups() -> bool:
    import os

    from autograder.sandbox import shares

    return os.geteuid() == 0 and shares.slot_group("agsharestest") is not None


@pytest.mark.skipif(not _slot_cgroups(), reason="no writable cgroup here: the next grading of the user kills them")
def test_case_5_a_killed_batch_kills_its_slots_daemons(tmp_path: Path) -> None:
    """Without a private world (AUTOGRADER_NAMESPACES=0), a submission starts a daemon (setsid, double fork) at load;
    the batch's main process is SIGKILLed mid-grading. Its watcher (lifeline.watch) takes each slot's user once the
    gradings died with the batch, and kills what is left in the slot's cgroup: the daemon is gone in seconds."""
    import os
    import signal
    import subprocess
    import sys
    import time

    from autograder.sandbox import accounts, namespace
    from tests import fixtures_export as fx

    for pid in _daemons():  # an earlier run's, if any
        os.kill(pid, signal.SIGKILL)
    path, _ = fx.write_export(tmp_path / "in", [fx.REFERENCE.read_text() + DAEMON] * 3)
    with sandbox_user() as user:
        env = dict(os.environ, **{accounts.USER_ENV: str(user), namespace.SWITCH: "0"})
        env.pop("AUTOGRADER_BATCH_WATCHER", None)
        batch_process = subprocess.Popen([sys.executable, "-c", BATCH_SCRIPT, str(path), str(tmp_path / "out")],
                                         env=env, cwd=Path(__file__).resolve().parent.parent,
                                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            deadline = time.monotonic() + 120
            while not _daemons() and time.monotonic() < deadline and batch_process.poll() is None:
                time.sleep(0.05)
            assert _daemons(), "no daemon started"
            batch_process.kill()  # SIGKILL: nothing of the batch can clean up
            batch_process.wait()
            deadline = time.monotonic() + 30
            while _daemons() and time.monotonic() < deadline:
                time.sleep(0.1)
            left = _daemons()
        finally:
            for pid in _daemons():
                os.kill(pid, signal.SIGKILL)
    assert not left, f"daemons left running: {left}"
