"""Red team, round 4 (issue 28): nothing of a grading outlives it, namespaces or not.

Case 4: the sandbox user's IPC objects (System V shared memory, message queues, semaphores) survived a grading
without an IPC namespace (Docker's default capabilities), and the next submission read them. Now the seccomp filter
refuses those calls, and ``reaper.remove_ipc`` removes what the user holds at each worker start and at close.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.hostile import sandbox_user
from tests.test_probe_integrity import SETTINGS, _run_as, in_setting

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
    made = [libc.shmget(0, 4096, 0o1600), libc.msgget(0, 0o1600), libc.semget(0, 1, 0o1600)]  # IPC_PRIVATE: new ones
    # (a fixed key taken by another test session's user, running this test at the same time, would fail here)
    os._exit(0 if min(made) >= 0 else 1)
made_outside = os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]) == 0
before = len(reaper.ipc_objects(uid))
source = REFERENCE.read_text() + '''
import ctypes
_libc = ctypes.CDLL(None, use_errno=True)

def made():
    calls = [_libc.shmget(0, 4096, 0o1600), _libc.msgget(0, 0o1600), _libc.semget(0, 1, 0o1600)]
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
            _os.execv("/bin/sleep", ["sleep", "%d"])
        _os._exit(0)
    _os.wait()

_daemon()
'''
BATCH_SCRIPT = """
import sys
from pathlib import Path
from autograder import batch
batch.run(Path(sys.argv[1]), Path(sys.argv[2]), jobs=2, plain=True, allow_exposed=True)
"""


def _daemons(tag: int) -> list[int]:
    """The pids of the test's daemons (``sleep <tag>``)."""
    import os

    found = []
    for entry in filter(str.isdigit, os.listdir("/proc")):
        try:
            if Path(f"/proc/{entry}/cmdline").read_bytes() == f"sleep\x00{tag}\x00".encode():
                found.append(int(entry))
        except OSError:
            continue
    return found


@pytest.mark.parametrize("how", ["SIGKILL", "SIGTERM"])
@pytest.mark.parametrize("setting", SETTINGS)
def test_case_5_a_killed_batch_leaves_no_student_daemon(tmp_path: Path, setting: str, how: str) -> None:
    """Every submission starts a daemon (setsid, double fork) when loaded; the batch's main process is then killed
    mid-grading, by SIGKILL (nothing of it can clean up) or by SIGTERM (a job scheduler's stop). Without a private
    world (AUTOGRADER_NAMESPACES=0, and Docker's default capabilities), each grading dies with the batch by SIGTERM
    and closes its sandbox first (lifeline.in_grading), which kills every process of its sandbox user; in a world,
    the world's end kills it. No daemon is left, with or without cgroups."""
    import os
    import signal
    import subprocess
    import sys
    import time

    from tests import fixtures_export as fx

    kind = ("namespaces", "no namespaces", "docker").index(setting) * 2 + (how == "SIGKILL")
    tag = 1_000_000 + os.getpid() % 1_000_000 * 8 + kind  # this test's daemons only
    path, _ = fx.write_export(tmp_path / "in", [fx.REFERENCE.read_text() + DAEMON % tag] * 4)
    with sandbox_user() as user:
        if user is None:
            pytest.skip("needs root (a sandbox user)")
        wrapper, env = in_setting(setting, user)
        command = [*wrapper, sys.executable, "-c", BATCH_SCRIPT, str(path), str(tmp_path / "out")]
        batch_process = subprocess.Popen(command, env=env, cwd=Path(__file__).resolve().parent.parent,
                                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            deadline = time.monotonic() + 180
            while not _daemons(tag) and time.monotonic() < deadline and batch_process.poll() is None:
                time.sleep(0.05)
            assert _daemons(tag), "no daemon started"
            batch_process.send_signal(getattr(signal, how))
            batch_process.wait(timeout=60)
            deadline = time.monotonic() + 30
            while _daemons(tag) and time.monotonic() < deadline:
                time.sleep(0.1)
            left = _daemons(tag)
        finally:
            if batch_process.poll() is None:
                batch_process.kill()
            for pid in _daemons(tag):
                os.kill(pid, signal.SIGKILL)
    assert not left, f"daemons left running after the batch's {how}: {left}"
