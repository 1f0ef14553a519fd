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
