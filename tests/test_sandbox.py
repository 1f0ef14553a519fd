"""The sandbox process: who it runs as, its limits and surroundings, deadlines, death and cleanup."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pytest

from autograder.sandbox import accounts, namespace, reaper, runtime
from autograder.sandbox import supervisor as sandbox_module
from autograder.sandbox.student import Student, StudentError
from autograder.sandbox.supervisor import KILL_DEADLINE, Limits, Sandbox, WorkerDied, WorkerTimeout, describe_exit
from tests.hostile import HERE, REFERENCE, TEST_USER, program, sandbox_user, snippet

ROOT = os.geteuid() == 0
REPO = HERE.parents[1]


@pytest.fixture(scope="module")
def user():
    with sandbox_user() as name:
        yield name


@pytest.fixture(scope="module")
def introspect(user):
    with Student(program(snippet("introspect")), user=user) as s:
        yield s


def gone(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] == "Z"
    except FileNotFoundError:
        return True


def test_the_worker_runs_unprivileged_without_groups_in_its_own_session(introspect, user) -> None:
    uid, euid, gid, groups, leader = introspect.call("identity")
    if ROOT:
        assert introspect.sandbox.account is not None
        account = sandbox_module.pwd.getpwnam(user)
        assert (uid, euid, gid, groups) == (account.pw_uid, account.pw_uid, account.pw_gid, 0)
    else:
        assert "the grader is not root" in introspect.isolation_note
    assert leader is True


def test_the_worker_has_the_documented_limits(introspect) -> None:
    limits = Limits()
    mb = 2**20
    expected = (limits.memory_mb * mb, limits.file_mb * mb, 0, limits.cpu_seconds,
                limits.processes if ROOT else None, limits.open_files)
    got = introspect.call("limits")
    assert got[:4] == expected[:4] and got[5] == expected[5]
    if ROOT:
        assert got[4] == limits.processes
    assert introspect.call("threads") == 1  # one BLAS thread


@pytest.mark.parametrize("world", [True, False])
def test_the_address_space_limit_comes_after_everything_that_may_need_memory(world: bool) -> None:
    """The preexec child is a copy of the grader, whose address space may exceed the worker's limit (a test run
    with torch loaded: 650 MB against 512 MB): once RLIMIT_AS is set, a call that needs a new block of memory
    fails, and the worker did not start ("Exception occurred in preexec_fn", one restart in ~50 of a hostile
    submission). In a forked child, every call the setup makes after the cap raises, as such a call would."""
    import resource

    from autograder.sandbox import confine

    setup = confine.child_setup(Limits(), None, world=world)
    pid = os.fork()
    if pid == 0:  # the child: leave by os._exit whatever happens
        code = 3
        try:
            capped = []
            set_limit = resource.setrlimit

            def setrlimit(which: int, limits: tuple[int, int]) -> None:
                if capped:
                    raise MemoryError("called after RLIMIT_AS")
                capped.extend([1] if which == resource.RLIMIT_AS else [])
                set_limit(which, limits) if which != resource.RLIMIT_AS else None  # (the cap itself: not needed)

            def after_cap(function):
                def call(*args, **kwargs):
                    if capped:
                        raise MemoryError(f"{function.__name__} called after RLIMIT_AS")
                    return function(*args, **kwargs)
                return call

            resource.setrlimit = setrlimit
            for module, name in ((os, "open"), (os, "write"), (os, "close"), (os, "setgroups"), (signal, "signal")):
                setattr(module, name, after_cap(getattr(module, name)))
            setup()
            code = 0 if capped else 2
        except MemoryError:
            code = 1
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0  # 1: something ran after the cap; 2: no cap at all


def test_the_worker_sees_a_clean_environment_and_only_its_pipes(introspect) -> None:
    introspect.call("surroundings")
    lines = dict(line.split(" ", 1) for line in introspect.output.splitlines())
    env = dict(eval(lines["ENV"]))  # our own test's print of a list of pairs
    assert sorted(env) == ["HOME", "LANG", "LC_ALL", "MKL_NUM_THREADS", "OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS",
                           "PATH", "TMPDIR"]
    assert env["HOME"] == lines["CWD"] == env["TMPDIR"] and env["OPENBLAS_NUM_THREADS"] == "1"
    # stdin, stdout, stderr, two pipes, the worker's own /proc/self/schedstat (its clock) and the listing itself
    assert len(eval(lines["FDS"])) == 7
    assert lines["STDIN"] == "/dev/null"
    assert not any("ag-run-" in p or "ag-home-" in p for p in eval(lines["PATH"]))


@pytest.mark.skipif(not ROOT, reason="the user switch needs root")
def test_the_sandbox_user_cannot_change_the_worker_code(user) -> None:
    source = ("import os, sys\n\ndef tamper(sub):\n"
              "    open(os.path.join(os.path.dirname(sys.modules['worker'].__file__), sub, 'x.py'), 'w')\n")
    with Student(program(source), user=user) as s:
        for sub in ("", "__pycache__"):  # its modules' folder, and their bytecode's
            with pytest.raises(StudentError, match="raised PermissionError"):
                s.call("tamper", sub)


def test_a_silent_worker_times_out_and_is_killed(user) -> None:
    with Sandbox(user=user) as box:
        box.start()
        pid = box.pid
        began = time.monotonic()
        with pytest.raises(WorkerTimeout):
            box.receive(time.monotonic() + 0.3)  # it is waiting for us: nothing will come
        # not before the deadline; after it, at most the kill's own bounds (a loaded machine may use them: a run of
        # five make tests at once took 1.04 s here)
        assert 0.3 <= time.monotonic() - began < 0.3 + 3 * KILL_DEADLINE
        assert not box.running and gone(pid)


def test_a_worker_killed_from_outside_is_reported_with_its_signal(user) -> None:
    with Sandbox(user=user) as box:
        box.start()
        os.kill(box.pid, signal.SIGKILL)
        with pytest.raises(WorkerDied, match="killed by signal 9: probably out of memory, limit 512 MB"):
            box.receive(time.monotonic() + 5)
        assert not box.running
        box.start()  # and a fresh one starts
        assert box.running


def test_exit_statuses_are_described_for_students() -> None:
    assert describe_exit(3, 512) == "exited with status 3: os._exit() or exit() in native code"
    assert describe_exit(-11, 512).startswith("killed by signal 11: a crash in native code")
    assert describe_exit(-24, 512) == "killed by signal 24: it used up its CPU time limit"
    assert describe_exit(-15, 512) == "killed by signal 15: SIGTERM"


def test_output_is_truncated_then_reset(user) -> None:
    with Sandbox(user=user) as box:
        os.write(os.open(box._out_path, os.O_WRONLY | os.O_APPEND), b"x" * 10_000)
        text = box.take_output(limit=100)
        assert text.startswith("x" * 100) and text.endswith("[... 9900 more bytes of output not shown]")
        assert box.take_output() == ""


def test_isolation_is_reported_as_reduced_when_it_is(user, monkeypatch, tmp_path) -> None:
    monkeypatch.setenv(namespace.SWITCH, "0")  # in a private world the checkout is out of sight, see test_world
    with Sandbox(switch_user=False) as box:
        assert "the user switch is disabled" in box.isolation_note
    if ROOT:
        with Sandbox(user="no_such_user_ag") as box:
            assert "`no_such_user_ag` does not exist" in box.isolation_note and box.account is None
        package = Path(tempfile.mkdtemp(prefix="ag-readable-package-", dir="/tmp"))  # a grader readable by all
        (package / "runner.py").write_text("")
        (package / "runner.py").chmod(0o644)
        package.chmod(0o755)
        monkeypatch.setattr(accounts, "_PACKAGE", package)  # this checkout may be private (a 0700 folder)
        try:
            with Sandbox(user=user) as box:
                assert "can read the grader's files" in box.isolation_note and box.account is not None
        finally:
            reaper.remove_tree(package)


def test_a_crash_in_one_sandbox_spares_the_other_live_sandboxes(user) -> None:
    with Student(program(REFERENCE.read_text()), user=user) as a, Student(program(snippet("crashes")), user=user) as b:
        pid = a.sandbox.pid or (a.start() or a.sandbox.pid)
        with pytest.raises(StudentError, match="exited with status 3"):
            b.call("os_exit", 1)
        assert a.sandbox.pid == pid and not gone(pid)
        np.testing.assert_allclose(a.call("softmax", np.zeros(2)), [0.5, 0.5])


@pytest.mark.skipif(not ROOT, reason="runs the grader as an unprivileged user, which needs root to arrange")
def test_a_grader_that_is_not_root_still_kills_a_daemon_on_close(user) -> None:
    account = sandbox_module.pwd.getpwnam(TEST_USER)
    if not all(runtime.may(account, path, os.R_OK) for path in (str(REPO / "autograder" / "__init__.py"),
                                                                  os.path.realpath(np.__file__))):
        pytest.skip("this checkout (or its venv) is private to root (a 0700 folder): no other user can run its grader")
    script = f"""
import json, os, sys
sys.path.insert(0, {str(REPO)!r})
from autograder.sandbox.student import Student
from tests.hostile import program, snippet
s = Student(program(snippet("processes")))
pid = s.call("daemon")
before = os.path.exists(f"/proc/{{pid}}")
s.close()
after = open(f"/proc/{{pid}}/stat").read().rsplit(")", 1)[1].split()[0] if os.path.exists(f"/proc/{{pid}}") else "gone"
print(json.dumps([s.isolation_note, before, after]))
"""
    result = subprocess.run([sys.executable, "-c", script], user=TEST_USER, group=TEST_USER, extra_groups=[],
                            cwd="/tmp", capture_output=True,
                            env={"PATH": "/usr/bin:/bin", "HOME": "/tmp"}, timeout=60, check=False, text=True)
    assert result.returncode == 0, result.stderr
    note, before, after = json.loads(result.stdout)
    assert "the grader is not root" in note
    assert before is True and after == "gone"
