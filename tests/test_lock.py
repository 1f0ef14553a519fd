"""One grading per sandbox user: the pool of users, its root-only locks, waiting, and the clean-up on taking one."""

from __future__ import annotations

import json
import os
import pwd
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from autograder.sandbox import lock, namespace, reaper
from autograder.sandbox.supervisor import Sandbox
from tests.hostile import HERE, sandbox_user

ROOT = os.geteuid() == 0
REPO = HERE.parents[1]
pytestmark = pytest.mark.skipif(not ROOT, reason="sandbox users and their locks exist only as root")


@pytest.fixture(scope="module")
def user():
    with sandbox_user() as name:
        yield name


def test_the_pool_is_the_base_user_then_numbered_ones() -> None:
    assert lock.pool_names("agsandbox", 3) == ["agsandbox", "agsandbox2", "agsandbox3"]


def test_the_lock_folder_is_root_only() -> None:
    info = os.stat(lock.lock_dir())
    assert info.st_uid == 0 and info.st_mode & 0o077 == 0


def test_live_sandboxes_never_share_a_user_and_a_closed_one_frees_its_user(user) -> None:
    with Sandbox(user=user) as first, Sandbox(user=user) as second:
        assert first.account and second.account
        assert first.account.pw_uid != second.account.pw_uid
        assert first.user == user and second.user == f"{user}2"
        first.close()
        with Sandbox(user=user) as third:
            assert third.user == user  # the first free user of the pool again


def test_a_missing_base_user_is_not_created_and_nothing_is_locked() -> None:
    assert lock.acquire("no_such_user_ag") is None


def test_a_grading_waits_for_a_user_when_the_whole_pool_is_busy(user) -> None:
    held = lock.acquire(user, size=1)
    assert held is not None
    waited: list[str] = []
    threading.Timer(0.5, held.release).start()
    began = time.monotonic()
    second = lock.acquire(user, size=1, wait=10, on_wait=lambda: waited.append("waiting"))
    try:
        assert second is not None and second.name == user
        assert time.monotonic() - began >= 0.4 and waited == ["waiting"]
    finally:
        second.release()
    with pytest.raises(lock.LockError, match="stayed busy"), _held(user):
        lock.acquire(user, size=1, wait=0.3)


class _held:  # noqa: N801 - a tiny context manager
    def __init__(self, name: str) -> None:
        self.lock = lock.acquire(name, size=1, wait=5)

    def __enter__(self) -> lock.UserLock | None:
        return self.lock

    def __exit__(self, *exc: object) -> None:
        if self.lock:
            self.lock.release()


def test_taking_a_user_kills_and_removes_what_a_killed_grading_left(user) -> None:
    """A grading SIGKILLed (the batch's outer guard) cleans nothing: its user's lock is freed by the kernel,
    and the next grading that takes the user kills the daemon and removes the files it left, in /tmp and in
    every other world-writable folder (that grading may have had no private world)."""
    tag = f"agsbtest-left-{os.getpid()}"
    other = "/run/lock" if os.path.isdir("/run/lock") and os.stat("/run/lock").st_mode & 0o002 else "/tmp"
    script = f"""
import json, os, sys
sys.path.insert(0, {str(REPO)!r})
from autograder.sandbox.student import Student
from tests.hostile import program, snippet
code = snippet("processes") + "\\nopen('/tmp/{tag}', 'w').write('x')\\nopen('{other}/{tag}-2', 'w').write('x')\\n"
s = Student(program(code), user={user!r})
folders = [str(s.sandbox._run_dir), str(s.sandbox._private)]
print(json.dumps([s.sandbox.user, s.call("daemon"), folders]), flush=True)
os._exit(0)  # no cleanup at all, like SIGKILL
"""
    env = dict(os.environ, **{namespace.SWITCH: "0"})  # host pids and the host's /tmp (in a world: its own)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=False,
                          env=env)
    assert done.returncode == 0, done.stderr
    name, daemon, folders = json.loads(done.stdout.strip().splitlines()[-1])
    assert name == user and os.path.exists(f"/proc/{daemon}") and os.path.exists(f"/tmp/{tag}")
    assert os.path.exists(f"{other}/{tag}-2")
    homes = list(Path(folders[0]).glob("home-*"))  # its run folder holds the user's home (a private world's too)
    assert [h.stat().st_uid for h in homes] == [pwd.getpwnam(user).pw_uid] and os.path.isdir(folders[1])
    with Sandbox(user=user) as box:
        assert box.user == user
        assert not os.path.exists(f"/proc/{daemon}") or _state(daemon) == "Z"
        assert not os.path.exists(f"/tmp/{tag}") and not os.path.exists(f"{other}/{tag}-2")
        assert not any(os.path.lexists(f) for f in folders), folders


def test_a_holder_killed_before_its_cleanup_leaves_its_folders_to_the_next_holder(user, tmp_path) -> None:
    folders = [str(tmp_path / "ag-run-x"), str(tmp_path / "ag-grader-x")]
    held = lock.acquire(user, size=1, wait=5)
    try:
        held.record(folders)
    finally:
        os.close(held.fd)  # killed: the kernel drops the lock, the lock file still names the folders
    again = lock.acquire(user, size=1, wait=5)
    try:
        assert not again.clean and again.left == folders
        again.record([str(tmp_path / "ag-run-y")])  # its own, after those it has not removed yet
    finally:
        again.release(clean=True, left=folders[1:])  # its cleanup could not remove one of them
    last = lock.acquire(user, size=1, wait=5)
    try:
        assert last.clean and last.left == folders[1:]
    finally:
        last.release(clean=True)
    with _held(user) as after:
        assert after.clean and after.left == []


def test_only_a_graders_own_folders_are_removed_as_left_behind(user, tmp_path) -> None:
    ours = tmp_path / "ag-run-ours"
    (ours / "home-1" / "deep").mkdir(parents=True)
    other_name = tmp_path / "results"  # a folder of ours by another name
    other_name.mkdir()
    link = tmp_path / "ag-run-link"  # a link named like ours: never followed
    link.symlink_to(other_name)
    theirs = tmp_path / "ag-grader-theirs"  # named like ours, owned by the sandbox user
    theirs.mkdir()
    os.chown(theirs, pwd.getpwnam(user).pw_uid, -1)
    paths = [str(p) for p in (ours, other_name, link, theirs)] + ["ag-run-relative", str(tmp_path / "ag-run-gone")]
    assert reaper.remove_left_folders(paths, ("ag-run-", "ag-grader-")) == []
    assert not ours.exists() and other_name.is_dir() and link.is_symlink() and theirs.is_dir()


def test_run_autograders_final_sweep_removes_the_folders_a_killed_grading_recorded_then_marks_the_user_clean(
        user, tmp_path) -> None:
    """A grading killed before its cleanup leaves its folders recorded in the lock file, which kept the user
    "dirty" (swept by every later grading, ~0.2 s each) until a grading took that user again. The sweep removes
    them as the next holder would (reaper.remove_left_folders' rules), then marks the user clean."""
    ours = tmp_path / "ag-run-left"
    (ours / "home-1").mkdir(parents=True)
    other = tmp_path / "results"  # recorded, but not named like ours: never removed
    other.mkdir()
    held = lock.acquire(user, size=1)
    assert held is not None and held.name == user
    held.record([str(ours), str(other), str(tmp_path / "ag-grader-gone")])
    os.close(held.fd)  # killed before its cleanup: the file says "dirty" and names the folders
    try:
        env = dict(os.environ, AUTOGRADER_ROOT=str(tmp_path / "root"), AUTOGRADER_PYTHON="/bin/false",
                   AUTOGRADER_SANDBOX_USER=user)
        subprocess.run(["bash", str(REPO / "run_autograder")], env=env, capture_output=True, timeout=60, check=False)
        assert not ours.exists() and other.is_dir()
        assert (Path(lock.lock_dir()) / f"{user}.lock").read_bytes() == b"clean"
    finally:
        again = lock.acquire(user, size=1)  # leave the user as the next test expects it: clean, nothing left
        assert again is not None
        again.release(clean=True)


def _state(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return "gone"


def test_run_autograders_final_sweep_spares_users_other_gradings_hold(user, tmp_path) -> None:
    """run_autograder's belt-and-braces sweep used to kill every process of the base user after each grading,
    whoever held it then: a parallel grading's worker died at start. It now sweeps only users whose lock it gets."""
    text = (REPO / "run_autograder").read_text()
    assert '"$LOCKS/$SANDBOX_USER"[0-9]*.lock' in text and "flock --nonblock" in text  # every user of the pool
    with Sandbox(user=user) as box:
        box.start()
        env = dict(os.environ, AUTOGRADER_ROOT=str(tmp_path / "root"), AUTOGRADER_PYTHON="/bin/false",
                   AUTOGRADER_SANDBOX_USER=user)
        subprocess.run(["bash", str(REPO / "run_autograder")], env=env, capture_output=True, timeout=60,
                       check=False)
        assert box.running and box.exit_code is None and os.path.exists(f"/proc/{box.pid}")


@pytest.mark.parametrize("left", ["dirty", "clean"])
def test_run_autograders_final_sweep_kills_what_a_dirty_user_left_and_trusts_a_clean_one(user, tmp_path, left) -> None:
    """A user whose last grading died before its cleanup (lock file "dirty") is swept: its leftover process is
    killed. "clean" is written only by a cleanup that found nothing of the user left, so the sweep skips it
    (no program started per user: it was 0.1 s of every grading)."""
    held = lock.acquire(user, size=1)
    assert held is not None and held.name == user
    account = held.account
    leftover = subprocess.Popen(["sleep", "300"], user=account.pw_uid, group=account.pw_gid, start_new_session=True)
    held.release(clean=left == "clean")  # as a grading that ended with (or without) its cleanup
    try:
        env = dict(os.environ, AUTOGRADER_ROOT=str(tmp_path / "root"), AUTOGRADER_PYTHON="/bin/false",
                   AUTOGRADER_SANDBOX_USER=user)
        subprocess.run(["bash", str(REPO / "run_autograder")], env=env, capture_output=True, timeout=60, check=False)
        time.sleep(0.1)
        swept = leftover.poll() is not None
        assert swept == (left == "dirty")
        assert (Path(lock.lock_dir()) / f"{user}.lock").read_bytes() == b"clean"  # swept once, not every grading
    finally:
        leftover.kill()
        leftover.wait()
        again = lock.acquire(user, size=1)  # leave the user as the next test expects it: clean, nothing left
        assert again is not None
        again.release(clean=True)
